"""A table for a list that grows at its end (the encounter log)."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    SignalInstance,
)
from PySide6.QtWidgets import QTableView, QWidget

__all__ = ["AppendTable"]

_Index = QModelIndex | QPersistentModelIndex


class AppendTable(QTableView):
    """A QTableView that, when the only change since its last layout is rows added at
    the end, lays itself out without repainting the rows it already shows.

    Qt answers any row insertion by laying the table out again and repainting the whole
    viewport; a log gains a line or three at every step, and repainting a screenful of
    long lines cost more than the rest of an Apply's log work. Rows added at the end change
    no row already shown: the area from the first new row down is repainted, and if laying
    out moved the rows shown (a table scrolled to its end, by whole rows) their pixels are
    moved with them as a scroll moves them; what scrolling to the new rows exposes is
    repainted by the scroll, as always. Any other change (rows removed or moved, a reset,
    a new layout, columns, a horizontal shift) takes Qt's own full layout and repaint.
    """

    def __init__(self, parent: QWidget | None = None, objectName: str = "") -> None:  # noqa: N803
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._appended_from: int | None = None
        """The first row added at the end since the last layout (None: none)."""
        self._full = False
        """Something other than rows added at the end happened since the last layout."""
        self.quiet_layouts = 0
        """Layouts that repainted only the added rows (tests count them)."""

    def setModel(self, model: QAbstractItemModel | None) -> None:
        old = self.model()
        if old is not None:
            for signal in self._watched(old):
                signal.disconnect(self._changed)
            old.rowsInserted.disconnect(self._rows_inserted)
            old.dataChanged.disconnect(self._data_changed)
        super().setModel(model)
        self._appended_from = None
        self._full = True
        if model is not None:
            model.rowsInserted.connect(self._rows_inserted)
            model.dataChanged.connect(self._data_changed)
            for signal in self._watched(model):
                signal.connect(self._changed)

    @staticmethod
    def _watched(model: QAbstractItemModel) -> tuple[SignalInstance, ...]:
        return (model.rowsRemoved, model.rowsMoved, model.columnsInserted,
                model.columnsRemoved, model.columnsMoved, model.modelReset,
                model.layoutChanged)

    def _changed(self, *_args: object) -> None:
        self._full = True

    def _rows_inserted(self, parent: _Index, first: int, last: int) -> None:
        model = self.model()
        at_end = not parent.isValid() and model is not None and \
            last == model.rowCount() - 1
        if not at_end:
            self._full = True
        elif self._appended_from is None or first < self._appended_from:
            self._appended_from = first

    def _data_changed(self, top_left: _Index, *_args: object) -> None:
        # While a layout is pending Qt leaves changed rows to the layout's repaint: the
        # repaint from the first added row down must then start at the changed row.
        first = self._appended_from
        if first is not None and top_left.isValid() and top_left.row() < first:
            self._appended_from = top_left.row()

    def doItemsLayout(self) -> None:
        appended, full = self._appended_from, self._full
        self._appended_from, self._full = None, False
        if full or appended is None:
            super().doItemsLayout()
            return
        # What QAbstractItemView.doItemsLayout does (Qt has already cleared its pending
        # layout before calling this), with the repaint limited to the added rows.
        rows, columns = self.verticalHeader(), self.horizontalHeader()
        before = (rows.offset(), columns.offset())
        self.updateGeometries()
        if not rows.updatesEnabled():
            rows.setUpdatesEnabled(True)
        viewport = self.viewport()
        # Laying out may move the rows shown without scrolling them (scrolled by whole
        # rows, a table at its end shows its last row whole at the bottom; with more rows
        # the same scroll bar value shows a row whole at the top): move the pixels with
        # them, as a scroll does.
        shift = before[0] - rows.offset()
        if shift and before[1] == columns.offset():
            viewport.scroll(0, shift)
        top = self.rowViewportPosition(appended)
        if before[1] != columns.offset() or top < 0:  # repaint all that is shown
            viewport.update()
        elif top < viewport.height():
            viewport.update(QRect(0, top, viewport.width(), viewport.height() - top))
        self.quiet_layouts += 1
