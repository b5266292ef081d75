"""The box chart: the same damage as the HP bar, drawn like a Personal Integrity Record.

Rows of 3 boxes, one wound-penalty step per row and labelled with its penalty; damaged
boxes are crossed with an X, boxes past HP are hatched as the dying zone, and a bold line
shows where each wound state begins. Input works as on the HP bar: the widget emits
``damage_requested`` and waits for the host to call :meth:`set_track`.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize
from PySide6.QtGui import QFontMetricsF, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from mneme_desktop.drawing.track_painter import (
    TrackColors,
    box_at,
    box_chart_layout,
    box_chart_size_hint,
    paint_box_chart,
)
from mneme_desktop.ui.i18n import tr_noop
from mneme_desktop.ui.widgets.hp_bar import DamageTrackWidget

__all__ = ["DamageBoxChart"]


class DamageBoxChart(DamageTrackWidget):
    """Damage as rows of boxes crossed off left to right, top to bottom."""

    KIND = tr_noop("HpBar", "Damage box chart")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def box_rect(self, index: int) -> QRectF:
        """Where box ``index`` (1-based, = that point of damage) is drawn."""
        if self._track is None:
            raise ValueError("the box chart has no damage track yet")
        layout = box_chart_layout(self.content_rect(), self._track, self.font(), self)
        if index not in layout.boxes:
            raise ValueError(f"box {index} is outside 1..{self._track.capacity}")
        return layout.boxes[index]

    def sizeHint(self) -> QSize:
        margins = 2 * self._margin()
        if self._track is None:
            height = QFontMetricsF(self.font()).height()
            return QSize(round(height * 12 + margins), round(height * 6 + margins))
        hint = box_chart_size_hint(self._track, self.font(), self)
        return QSize(round(hint.width() + margins), round(hint.height() + margins))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def _unit_at(self, pos: QPointF) -> int | None:
        if self._track is None:
            return None
        return box_at(self.content_rect(), self._track, pos, self.font(), self)

    def _paint_track(self, painter: QPainter, rect: QRectF, colors: TrackColors) -> None:
        if self._track is not None:
            paint_box_chart(painter, rect, self._track, colors, self.font())
