"""A table's column header that repaints on a selection change only when it looks different."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QPaintEvent, QRegion
from PySide6.QtWidgets import QHeaderView, QWidget

__all__ = ["SteadyHeader"]

_Marks = tuple[tuple[bool, bool], ...]


class SteadyHeader(QHeaderView):
    """The horizontal header QTableView makes for itself (clickable, sections highlighted
    by the selection), skipping the repaint of a selection change after which every
    section is highlighted as it was last painted.

    With whole rows selected every column takes part in the selection, so moving the
    selection to another row (the turn passing) highlights the same sections, yet Qt
    repaints the whole header for it. A section's look depends on the selection only
    through whether its column intersects the selection and whether it is wholly
    selected; the states of the last paint of the whole header are kept, and a selection
    change that leaves them as they are asks for no repaint.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setSectionsClickable(True)
        self.setHighlightSections(True)
        self._shown: _Marks | None = None
        """Each section's selection states when the whole header was last painted (None:
        unknown, or painted in part since)."""
        self.skipped_repaints = 0
        """Selection changes that asked for no repaint (tests count them)."""

    def _marks(self) -> _Marks | None:
        selection = self.selectionModel()
        if selection is None or not self.highlightSections():
            return None
        root = self.rootIndex()
        return tuple((selection.columnIntersectsSelection(column, root),
                      selection.isColumnSelected(column, root))
                     for column in range(self.count()))

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        whole = QRegion(self.viewport().rect()).subtracted(event.region()).isEmpty()
        self._shown = self._marks() if whole else None

    def selectionChanged(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        marks = self._marks()
        if marks is not None and marks == self._shown:
            self.skipped_repaints += 1
            return
        super().selectionChanged(selected, deselected)
