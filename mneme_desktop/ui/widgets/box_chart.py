"""The box chart: the same damage as the HP bar, drawn like a Personal Integrity Record.

Two views of one track (:class:`~mneme_desktop.rules.box_chart.ChartStyle`): rows of 3
boxes, one wound-penalty step per row and labelled with its penalty (the default), or the
MegaTraveller record's six-box columns with the boxes HP does not reach crossed off.
Damaged boxes are crossed with an X, boxes past HP are hatched as the dying zone, and a
bold line shows where each wound state begins. Input works as on the HP bar: the widget
emits ``damage_requested`` and waits for the host to call :meth:`set_track`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSize
from PySide6.QtGui import QFontMetricsF, QPainter, QShowEvent
from PySide6.QtWidgets import QComboBox, QSizePolicy, QWidget

from mneme_desktop.drawing.box_chart_painter import (
    box_at,
    box_chart_layout,
    box_chart_size_hint,
    paint_box_chart,
)
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.settings import BoxChartStyle
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.widgets.hp_bar import DamageTrackWidget

if TYPE_CHECKING:
    from mneme_desktop.context import AppContext

__all__ = ["ChartStyleCombo", "DamageBoxChart"]

_CTX = "BoxChart"

_STYLE_NAMES = {
    ChartStyle.ROWS_OF_THREE: tr_noop(_CTX, "Rows of three"),
    ChartStyle.MEGATRAVELLER: tr_noop(_CTX, "MegaTraveller record"),
}


class DamageBoxChart(DamageTrackWidget):
    """Damage as boxes crossed off left to right, top to bottom, in either layout."""

    KIND = tr_noop("HpBar", "Damage box chart")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = ChartStyle.ROWS_OF_THREE
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def chart_style(self) -> ChartStyle:
        return self._style

    def set_chart_style(self, style: ChartStyle) -> None:
        """Show the boxes as rows of three or as the MegaTraveller record (a view of the
        same damage: nothing about the character changes)."""
        if style is self._style:
            return
        self._style = style
        self.updateGeometry()
        self.update()

    def set_track(self, track: DamageTrack) -> None:
        # The record's width follows HP, so a new HP can change the size the chart wants.
        old = self._track
        super().set_track(track)
        if old is not None and (old.hp, old.capacity) != (track.hp, track.capacity):
            self.updateGeometry()

    def box_rect(self, index: int) -> QRectF:
        """Where box ``index`` (1-based, = that point of damage) is drawn."""
        if self._track is None:
            raise ValueError("the box chart has no damage track yet")
        layout = box_chart_layout(self.content_rect(), self._track, self.font(), self,
                                  self._style)
        if index not in layout.boxes:
            raise ValueError(f"box {index} is outside 1..{self._track.capacity}")
        return layout.boxes[index]

    def crossed_off_rects(self) -> tuple[QRectF, ...]:
        """Where the boxes crossed off before play are drawn (the record's last column)."""
        if self._track is None:
            return ()
        return box_chart_layout(self.content_rect(), self._track, self.font(), self,
                                self._style).crossed

    def sizeHint(self) -> QSize:
        margins = 2 * self._margin()
        if self._track is None:
            height = QFontMetricsF(self.font()).height()
            return QSize(round(height * 12 + margins), round(height * 6 + margins))
        hint = box_chart_size_hint(self._track, self.font(), self, self._style)
        return QSize(round(hint.width() + margins), round(hint.height() + margins))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def _unit_at(self, pos: QPointF) -> int | None:
        if self._track is None:
            return None
        return box_at(self.content_rect(), self._track, pos, self.font(), self, self._style)

    def _paint_track(self, painter: QPainter, rect: QRectF, colors: TrackColors) -> None:
        if self._track is not None:
            paint_box_chart(painter, rect, self._track, colors, self.font(), style=self._style)


class ChartStyleCombo(QComboBox):
    """The box chart's view: rows of three or the MegaTraveller record. A view of the same
    damage, so switching is no edit and no undo step; the choice holds for every sheet the
    chart shows until switched back."""

    OBJECT_NAME = "boxChartView"
    """Every switch's (kept: pages find theirs by it without wrapping each of their widgets)."""

    def __init__(self, chart: DamageBoxChart, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(self.OBJECT_NAME)
        self._chart = chart
        self._context: AppContext | None = None
        for style in ChartStyle:
            self.addItem(tr(_CTX, _STYLE_NAMES[style]), style)
        self.setCurrentIndex(self.findData(chart.chart_style()))
        self.setAccessibleName(tr(_CTX, "Box chart view"))
        self.setToolTip(tr(_CTX, "Rows of three: one row per -1 wound penalty. MegaTraveller "
                                 "record: six-box columns, HP/6 rounded up, the boxes HP does "
                                 "not reach crossed off."))
        self.currentIndexChanged.connect(self._switch)

    def chart_style(self) -> ChartStyle:
        value = self.currentData()
        assert isinstance(value, ChartStyle)
        return value

    def remember(self, context: AppContext) -> None:
        """Start in the view chosen last, in this session or an earlier one, and remember
        each switch (the setting ``box_chart_view``; printed sheets follow their own,
        ``print_box_chart``). The context, not its settings: the settings dialog replaces
        them."""
        self._context = context
        self._recall()

    def showEvent(self, event: QShowEvent) -> None:
        # Another sheet's switch may have changed the view since this one was last shown.
        self._recall()
        super().showEvent(event)

    def _recall(self) -> None:
        if self._context is None:
            return
        index = self.findData(ChartStyle(self._context.settings.box_chart_view.value))
        if index >= 0 and index != self.currentIndex():
            self.setCurrentIndex(index)

    def _switch(self, _index: int) -> None:
        self._chart.set_chart_style(self.chart_style())
        context = self._context
        chosen = BoxChartStyle(self.chart_style().value)
        if context is not None and context.settings.box_chart_view is not chosen:
            context.settings.box_chart_view = chosen
            context.save_settings()
