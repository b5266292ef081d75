"""The log's table view: appended rows repaint only themselves, and the picture is the
same as a plain table's after any change."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTableView, QWidget

from mneme_desktop.ui.widgets.growing_table import GrowingTableView


class _PaintedRects(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.rects: list[QRect] = []
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


def _row(number: int) -> list[QStandardItem]:
    return [QStandardItem(f"{number}"), QStandardItem(f"Raider {number} attacks"),
            QStandardItem(f"{number % 7} damage")]


def _model(rows: int) -> QStandardItemModel:
    model = QStandardItemModel(0, 3)
    for number in range(rows):
        model.appendRow(_row(number))
    return model


def _views(qtbot, rows: int, *, follow: bool = True) -> tuple[GrowingTableView, QTableView]:
    """The same log in both kinds of view, each with its own model. Neither takes focus:
    a focused view gets a current row, and removing it scrolls that view elsewhere."""
    growing, plain = GrowingTableView(objectName="log"), QTableView()
    for view in (growing, plain):
        qtbot.addWidget(view)
        view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        model = _model(rows)
        model.setParent(view)
        view.setModel(model)
        view.resize(420, 260)
        view.show()
        if follow:
            model.rowsInserted.connect(lambda *_, v=view: v.scrollToBottom())
    qtbot.waitExposed(growing)
    qtbot.waitExposed(plain)
    if follow:
        for view in (growing, plain):
            view.scrollToBottom()
    _settle(qtbot)
    return growing, plain


def _quiet(qtbot, *watched: _PaintedRects) -> None:
    """Wait until nothing is painted for a while (a loaded machine paints the first show
    late), then forget what was painted."""
    for _ in range(50):
        for rects in watched:
            rects.rects.clear()
        qtbot.wait(60)
        if not any(rects.rects for rects in watched):
            return


def _settle(qtbot) -> None:
    """Let the window system's update requests (throttled to frames) be painted."""
    qtbot.wait(60)


def _on_screen(view: QTableView) -> QImage:
    """What the window shows now (the backing store, stale pixels and all)."""
    return view.screen().grabWindow(view.winId()).toImage()


def _same_picture(growing: QTableView, plain: QTableView) -> bool:
    return _on_screen(growing) == _on_screen(plain)


def test_rows_appended_to_a_long_log_repaint_only_the_bottom(qtbot, qapp):
    growing, plain = _views(qtbot, 40)
    painted = _PaintedRects(growing.viewport())
    plain_painted = _PaintedRects(plain.viewport())
    _quiet(qtbot, painted, plain_painted)
    for number in range(40, 43):
        for view in (growing, plain):
            view.model().appendRow(_row(number))
    _settle(qtbot)
    height = growing.viewport().height()
    assert painted.rects, "the new rows were never painted"
    assert max(r.height() for r in painted.rects) <= 3 * growing.rowHeight(0) + 2
    assert max(r.height() for r in plain_painted.rects) >= height - 1  # Qt's own: all of it
    assert growing.indexAt(growing.viewport().rect().bottomLeft()).row() in (41, 42)
    assert _same_picture(growing, plain)


def test_rows_appended_to_a_short_log_are_painted_where_they_land(qtbot, qapp):
    growing, plain = _views(qtbot, 2)
    painted = _PaintedRects(growing.viewport())
    _quiet(qtbot, painted)
    for view in (growing, plain):
        view.model().appendRow(_row(2))
    _settle(qtbot)
    new_row_top = growing.rowViewportPosition(2)
    assert painted.rects and all(r.top() >= new_row_top - 1 for r in painted.rects)
    assert _same_picture(growing, plain)


def test_after_appends_removals_inserts_and_resets_it_looks_like_a_plain_table(qtbot, qapp):
    growing, plain = _views(qtbot, 30)
    steps = [
        lambda model: model.appendRow(_row(30)),
        lambda model: model.insertRow(3, _row(99)),  # in the middle: everything below moves
        lambda model: model.removeRows(0, 4),
        lambda model: [model.appendRow(_row(n)) for n in range(31, 36)],
        lambda model: (model.removeRows(20, model.rowCount() - 20),
                       model.appendRow(_row(77))),
        lambda model: model.item(19, 1).setText("changed in place"),
        lambda model: model.removeRows(0, model.rowCount()),
        lambda model: [model.appendRow(_row(n)) for n in range(3)],
        lambda model: [model.appendRow(_row(n)) for n in range(3, 30)],
    ]
    for step in steps:
        for view in (growing, plain):
            step(view.model())
        _settle(qtbot)
        assert _same_picture(growing, plain)


def test_rows_inserted_in_sight_repaint_from_there_down(qtbot, qapp):
    growing, plain = _views(qtbot, 30, follow=False)  # showing the first rows
    painted = _PaintedRects(growing.viewport())
    _quiet(qtbot, painted)
    for view in (growing, plain):
        view.model().insertRow(3, _row(99))
        view.model().insertRow(5, _row(98))
    _settle(qtbot)
    top = growing.rowViewportPosition(3)
    assert painted.rects and min(r.top() for r in painted.rects) >= top - 1
    assert _same_picture(growing, plain)
    for view in (growing, plain):
        view.model().insertRow(1, _row(97))
        view.model().appendRow(_row(96))  # out of sight: the rows above still move
    _settle(qtbot)
    assert _same_picture(growing, plain)
