"""Painting the turn order's Actions and HP cells: the action pips and a compact HP bar,
each drawn once per look and blitted, so a large fight scrolls smoothly."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from mneme_desktop.drawing.track_painter import TrackColors, paint_hp_bar
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.ui.models.roles import VALUE_ROLE
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.widgets.action_pips import paint_action_pips

__all__ = ["TurnOrderDelegate"]

_COL_ACTIONS = TurnOrderModel.COL_ACTIONS
_COL_HP = TurnOrderModel.COL_HP
_ITEM_VIEW_ITEM = QStyle.ControlElement.CE_ItemViewItem
_SELECTED = QStyle.StateFlag.State_Selected

_Index = QModelIndex | QPersistentModelIndex


class TurnOrderDelegate(QStyledItemDelegate):
    """Paints the action pips and the compact HP bar in the turn-order rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._colors: tuple[int, TrackColors] | None = None
        self._bars: dict[tuple[object, ...], QPixmap] = {}
        self._font: tuple[QFont, str] | None = None
        self._text_width: tuple[str, int] | None = None

    def _font_key(self, font: QFont) -> str:
        # QFont.key() is slow enough to matter on every cell; fonts rarely change.
        if self._font is None or self._font[0] != font:
            self._font = (QFont(font), font.key())
        return self._font[1]

    def _hp_text_width(self, option: QStyleOptionViewItem) -> int:
        """Room for the "000/00" beside the bar, measured once per font."""
        key = self._font_key(option.font)
        if self._text_width is None or self._text_width[0] != key:
            self._text_width = (key, option.fontMetrics.horizontalAdvance("000/00") + 6)
        return self._text_width[1]

    def _track_colors(self, palette: QPalette) -> TrackColors:
        key = palette.cacheKey()
        if self._colors is None or self._colors[0] != key:
            self._colors = (key, TrackColors.from_palette(palette))
        return self._colors[1]

    def _bar(self, track: DamageTrack, size: QSize, option: QStyleOptionViewItem,
             ratio: float) -> QPixmap:
        """The compact HP bar drawn once per track, size and palette: rows that share a
        track (twenty unhurt raiders) share one image, and repainting costs a blit."""
        key = (track.damage, track.hp, track.thresholds, size.width(), size.height(), ratio,
               option.palette.cacheKey(), self._font_key(option.font))
        pixmap = self._bars.get(key)
        if pixmap is None:
            if len(self._bars) > 256:
                self._bars.clear()
            pixmap = QPixmap(size * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            bar_painter = QPainter(pixmap)
            paint_hp_bar(bar_painter, QRectF(0, 0, size.width(), size.height()), track,
                         self._track_colors(option.palette), option.font, labels=False)
            bar_painter.end()
            self._bars[key] = pixmap
        return pixmap

    def _pips(self, spent: int, size: QSize, option: QStyleOptionViewItem, selected: bool,
              ratio: float) -> QPixmap:
        """The pips for ``spent`` drawn once per size and palette (on a selected row they
        take the selection's text colour)."""
        key = ("pips", spent, size.width(), size.height(), ratio, option.palette.cacheKey(),
               selected)
        pixmap = self._bars.get(key)
        if pixmap is None:
            palette = QPalette(option.palette)
            if selected:
                on_selection = palette.color(QPalette.ColorRole.HighlightedText)
                palette.setColor(QPalette.ColorRole.Highlight, on_selection)
                palette.setColor(QPalette.ColorRole.Text, on_selection)
            pixmap = QPixmap(size * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            pips_painter = QPainter(pixmap)
            paint_action_pips(pips_painter, QRectF(0, 0, size.width(), size.height()), spent,
                              palette)
            pips_painter.end()
            self._bars[key] = pixmap
        return pixmap

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        column = index.column()
        if column != _COL_ACTIONS and column != _COL_HP:
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text = item.text
        item.text = ""
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(_ITEM_VIEW_ITEM, item, painter, widget)
        rect = QRectF(option.rect).adjusted(4, 0, -4, 0)
        model = index.model()
        # The pips' count and the HP track straight from the model (a data() call would go
        # through Qt and back for each cell).
        value = model.cell_value(index.row(), column) if isinstance(model, TurnOrderModel) \
            else index.data(VALUE_ROLE)
        selected = bool(option.state & _SELECTED)
        ratio = painter.device().devicePixelRatioF()
        if column == _COL_ACTIONS:
            area = rect.toAlignedRect()
            pips = self._pips(int(value or 0), area.size(), option, selected, ratio)
            painter.drawPixmap(area.topLeft(), pips)
            return
        if not isinstance(value, DamageTrack):
            return
        height = min(rect.height() - 8, option.fontMetrics.height() * 0.9)
        text_width = self._hp_text_width(option)
        if len(text) > 6:  # a vehicle's "7/20 DHP": the bar gives way to its scale
            text_width = max(text_width, option.fontMetrics.horizontalAdvance(text) + 6)
        bar = QRectF(rect.left(), rect.center().y() - height / 2,
                     max(10.0, rect.width() - text_width), height).toAlignedRect()
        painter.drawPixmap(bar.topLeft(), self._bar(value, bar.size(), option, ratio))
        painter.save()
        painter.setPen(option.palette.color(QPalette.ColorRole.HighlightedText if selected
                                            else QPalette.ColorRole.Text))
        painter.drawText(QRectF(bar.right() + 4, rect.top(), text_width - 4, rect.height()),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()
