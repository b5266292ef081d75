"""Painting the player display's rows for a room: the current turn on a strong band with
"Now" written in it, each side's shape before the name, and each wound band as a chip that
is coloured, hatched and named, so no meaning rests on colour alone."""

from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QWidget

from mneme_desktop.domain import Side
from mneme_desktop.drawing.track_painter import paint_band_pattern
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.ui.models.roles import VALUE_ROLE, WOUND_STATE_ROLE
from mneme_desktop.ui.player_display.display_theme import DisplayColors
from mneme_desktop.ui.player_display.filtering import TurnMark
from mneme_desktop.ui.player_display.model import PlayerTurnModel

__all__ = ["PlayerRowDelegate"]

_Index = QModelIndex | QPersistentModelIndex


class PlayerRowDelegate(QStyledItemDelegate):
    """Paints every cell of the display's turn order."""

    def __init__(self, colors: DisplayColors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._colors = colors
        self._track = colors.track()

    def set_colors(self, colors: DisplayColors) -> None:
        self._colors = colors
        self._track = colors.track()

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        """What :meth:`paint` needs to show the cell whole: its text in bold (the current
        row's), the padding either side, the side mark before a name, the chip's swatch
        around a band (names were elided at 1366 wide when this guessed)."""
        font = QFont(option.font)  # type: ignore[attr-defined]
        font.setBold(True)
        metrics = QFontMetricsF(font)
        height = metrics.height()
        width = metrics.horizontalAdvance(str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
        width += height * 0.7 + 2
        if index.column() == PlayerTurnModel.COL_NAME:
            width += height * 0.95
        elif index.column() == PlayerTurnModel.COL_WOUNDS:
            width += height * 1.9
        return QSize(math.ceil(width), int(height * 1.6))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        colors = self._colors
        rect = QRectF(option.rect)  # type: ignore[attr-defined]
        font = option.font  # type: ignore[attr-defined]
        model_font = index.data(Qt.ItemDataRole.FontRole)
        if model_font is not None:
            font = model_font.resolve(font)
            font.setPointSizeF(option.font.pointSizeF())  # type: ignore[attr-defined]
        metrics = QFontMetricsF(font)
        height = metrics.height()
        pad = height * 0.35
        row_mark = index.sibling(index.row(), PlayerTurnModel.COL_TURN).data(VALUE_ROLE)
        now = row_mark is TurnMark.NOW
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(font)
        painter.fillRect(rect, colors.now_background if now else colors.background)
        text_color = colors.now_text if now else colors.text
        painter.setPen(QPen(colors.rule, max(1.0, height / 24)))
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        inner = rect.adjusted(pad, 0, -pad, 0)
        column = index.column()
        if column == PlayerTurnModel.COL_NAME:
            value = index.data(VALUE_ROLE)  # a StrEnum comes back from Qt as its text
            if value in tuple(Side):
                self._side_mark(painter, Side(value), QRectF(inner.left(), inner.center().y()
                                                      - height * 0.3, height * 0.6,
                                                      height * 0.6), now)
                inner = inner.adjusted(height * 0.95, 0, 0, 0)
        state = index.data(WOUND_STATE_ROLE)
        if column == PlayerTurnModel.COL_WOUNDS and isinstance(state, WoundState) and \
                state is not WoundState.UNHURT:
            self._chip(painter, inner, state, text, metrics)
        else:
            painter.setPen(text_color)
            align = index.data(Qt.ItemDataRole.TextAlignmentRole)
            flags = int(align) if align is not None else int(
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, inner.width())
            painter.drawText(inner, flags, shown)
        painter.restore()

    def _side_mark(self, painter: QPainter, side: Side, box: QRectF, now: bool) -> None:
        """A shape per side (circle, triangle, square) in the side's colour."""
        colors = self._colors
        painter.setPen(QPen(colors.now_text if now else colors.text, max(1.0, box.height() / 10)))
        painter.setBrush(colors.sides[side])
        if side is Side.PLAYERS:
            painter.drawEllipse(box)
        elif side is Side.ENEMIES:
            painter.drawPolygon(QPolygonF([QPointF(box.center().x(), box.top()),
                                           box.bottomRight(), box.bottomLeft()]))
        else:
            painter.drawRect(box)

    def _chip(self, painter: QPainter, inner: QRectF, state: WoundState, text: str,
              metrics: QFontMetricsF) -> None:
        """The band as a chip: a hatched swatch in the band's colour, then its name."""
        track = self._track
        height = metrics.height()
        width = min(inner.width(), metrics.horizontalAdvance(text) + height * 1.9)
        tall = min(height * 1.3, inner.height() * 0.86)  # air above and below in a low row
        chip = QRectF(inner.left(), inner.center().y() - tall / 2, width, tall)
        painter.setPen(QPen(track.frame, max(1.0, height / 20)))
        painter.setBrush(track.fill(state))
        radius = height * 0.25
        painter.drawRoundedRect(chip, radius, radius)
        swatch = QRectF(chip.left() + height * 0.25, chip.top() + height * 0.2,
                        height * 0.9, chip.height() - height * 0.4)
        painter.setBrush(track.damaged(state))
        painter.setPen(QPen(track.frame, max(1.0, height / 24)))
        painter.drawRect(swatch)
        # Hatched as on the HP bar, in lines that stand out from the band's strong colour.
        paint_band_pattern(painter, swatch, state, height,
                           replace(track, hatch=self._colors.text))
        painter.setPen(track.band_label(state))
        label = QRectF(swatch.right() + height * 0.3, chip.top(),
                       chip.right() - swatch.right() - height * 0.4, chip.height())
        painter.drawText(label, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         metrics.elidedText(text, Qt.TextElideMode.ElideRight, label.width()))
