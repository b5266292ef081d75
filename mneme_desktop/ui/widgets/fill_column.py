"""A table column that takes the spare width, but never less than its header needs."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

__all__ = ["FillColumn", "header_width"]


def header_width(view: QTableView, column: int) -> int:
    """The width ``column``'s header text needs, with the style's margins."""
    header = view.horizontalHeader()
    text = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    return max((header.fontMetrics().horizontalAdvance(line) for line in text.split("\n")),
               default=0) + 2 * margin


class FillColumn(QObject):
    """Sizes ``column`` of ``view`` to the width its neighbours leave in the viewport, and
    to at least ``minimum`` (its header's width if larger): a Stretch section is squeezed to
    the header's minimum section size ("Combatant" cut to "Comb") when the other columns
    fill a laptop screen; this one makes the table scroll sideways instead."""

    def __init__(self, view: QTableView, column: int, minimum: int = 0) -> None:
        super().__init__(view)
        self._view = view
        self._column = column
        self._minimum = minimum
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.sectionResized.connect(self._section_resized)
        view.viewport().installEventFilter(self)
        self.fit()

    def fit(self) -> None:
        header = self._view.horizontalHeader()
        others = sum(header.sectionSize(c) for c in range(header.count())
                     if c != self._column and not header.isSectionHidden(c))
        floor = max(self._minimum, header_width(self._view, self._column))
        width = max(floor, self._view.viewport().width() - others)
        if header.sectionSize(self._column) != width:
            header.resizeSection(self._column, width)

    def _section_resized(self, column: int, _old: int, _new: int) -> None:
        if column != self._column:
            self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return super().eventFilter(watched, event)
