"""The wheel never edits a field the referee is scrolling past; Undo in a number field undoes
the campaign step. Driven through the real window, every page, every visible field."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollArea,
    QSpinBox,
    QStyleFactory,
    QWidget,
)

from mneme_desktop.settings import Theme
from mneme_desktop.ui.app_guard import (
    AppGuard,
    GuardStyle,
    install_app_guard,
    set_app_style,
    value_widget,
)
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_nodes import Group
from mneme_desktop.ui.theme import DarkIndicatorStyle, apply_theme

_FIELDS = (QAbstractSpinBox, QComboBox, QAbstractSlider)


@pytest.fixture
def window(sample_window):
    return sample_window


def wheel(widget: QWidget, steps: int = -1, *, deepest: bool = True) -> None:
    """One notch of the wheel over the middle of ``widget``, delivered to what is there
    (the spin box's line edit, as the window system would) or to ``widget`` itself."""
    centre = widget.rect().center()
    target = (widget.childAt(centre) or widget) if deepest else widget
    local = target.mapFrom(widget, centre)
    event = QWheelEvent(QPointF(local), QPointF(target.mapToGlobal(local)), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(target, event)


def value_of(widget: QWidget) -> object:
    if isinstance(widget, QComboBox):
        return widget.currentIndex()
    if isinstance(widget, QAbstractSlider):
        return widget.value()
    assert isinstance(widget, QAbstractSpinBox)
    return widget.text()


def visible_fields(window: MainWindow) -> list[QWidget]:
    page = window.stack.currentWidget()
    found = [w for kind in _FIELDS for w in page.findChildren(kind)]
    # A scroll area's own scroll bars are how the page scrolls; they are not fields.
    found = [w for w in found if w.isVisible() and w.isEnabled()
             and not isinstance(w.parentWidget(), QScrollArea)
             and not (isinstance(w, QAbstractSlider) and w.objectName().startswith("qt_"))
             and "ScrollBar" not in type(w).__name__]
    return found


def snapshot(window: MainWindow) -> tuple[str, int]:
    document = window.document
    assert document is not None
    return document.campaign.model_dump_json(), document.undo_stack.count()


def show(window: MainWindow, qtbot, page: int, group: Group) -> None:
    model = window.navigator_model
    assert model is not None
    window.tree.setCurrentIndex(model.index(0, 0, model.group_index(group)))
    window.show_page(page)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == page)


def wheel_over_every_field(window: MainWindow, qtbot) -> int:
    fields = visible_fields(window)
    before = snapshot(window)
    for field in fields:
        window.tree.setFocus()
        assert not field.hasFocus()
        value = value_of(field)
        wheel(field, -1)
        wheel(field, +1)
        wheel(field, +1, deepest=False)
        wheel(field, -1, deepest=False)
        wheel(field, -1, deepest=False)
        assert value_of(field) == value, f"the wheel changed {field.objectName() or field}"
        assert not field.hasFocus(), f"the wheel focused {field.objectName() or field}"
    assert snapshot(window) == before
    return len(fields)


def test_the_wheel_changes_no_unfocused_field_on_any_page(qtbot, window) -> None:
    checked = 0
    show(window, qtbot, Page.SHEET, Group.PLAYERS)
    checked += wheel_over_every_field(window, qtbot)
    show(window, qtbot, Page.ENCOUNTER, Group.ENCOUNTERS)
    view = window.stack.currentWidget().findChild(QWidget, "encounter_view") \
        or window.stack.currentWidget()
    encounter_view = window.encounter_view if hasattr(window, "encounter_view") else view
    starter = getattr(encounter_view, "start_encounter", None)
    if callable(starter):
        starter()
    checked += wheel_over_every_field(window, qtbot)
    tabs = window.stack.currentWidget().findChild(QWidget, "encounter_tabs")
    assert tabs is not None
    tabs.setCurrentIndex(1)  # the attack resolver
    checked += wheel_over_every_field(window, qtbot)
    show(window, qtbot, Page.HEALING, Group.PLAYERS)
    checked += wheel_over_every_field(window, qtbot)
    assert checked >= 30  # the issue counted 36 number fields and lists on these pages


def test_no_field_takes_focus_from_the_wheel(qtbot, window) -> None:
    for page, group in ((Page.SHEET, Group.PLAYERS), (Page.ENCOUNTER, Group.ENCOUNTERS),
                        (Page.HEALING, Group.PLAYERS)):
        show(window, qtbot, page, group)
        for field in visible_fields(window):
            assert field.focusPolicy() != Qt.FocusPolicy.WheelFocus, field.objectName()


def test_a_focused_field_takes_the_wheel(qtbot, window) -> None:
    show(window, qtbot, Page.SHEET, Group.PLAYERS)
    spin = window.stack.currentWidget().findChild(QAbstractSpinBox, "endSpin")
    assert spin is not None
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    value = spin.value()
    count = window.document.undo_stack.count()
    wheel(spin, +1, deepest=False)
    assert spin.value() == value + 1
    assert window.document.undo_stack.count() == count + 1


def test_the_wheel_over_a_field_scrolls_the_sheet(qtbot, window) -> None:
    window.resize(1280, 600)
    show(window, qtbot, Page.SHEET, Group.PLAYERS)
    area = window.stack.currentWidget().findChild(QScrollArea, "sheetScrollArea")
    assert area is not None
    bar = area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(0)
    spin = window.stack.currentWidget().findChild(QAbstractSpinBox, "endSpin")
    window.tree.setFocus()
    value = spin.value()
    wheel(spin, -1)
    assert bar.value() > 0  # the page scrolled
    assert spin.value() == value


def test_undo_and_redo_in_a_number_field_step_the_campaign(qtbot, window) -> None:
    show(window, qtbot, Page.SHEET, Group.PLAYERS)
    window.activateWindow()
    qtbot.waitActive(window)
    spin = window.stack.currentWidget().findChild(QAbstractSpinBox, "endSpin")
    document = window.document
    character_id = window.tree.currentIndex().data(Qt.ItemDataRole.UserRole)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    before = spin.value()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, str(before - 1))
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert document.undo_stack.index() == 1
    del character_id
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.undo_stack.index() == 0
    assert spin.value() == before
    qtbot.keyClick(spin, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert document.undo_stack.index() == 1
    assert spin.value() == before - 1


def test_the_guard_is_installed_once(qapp) -> None:
    first = install_app_guard()
    assert install_app_guard() is first
    assert len(qapp.findChildren(AppGuard)) == 1
    style = qapp.style()
    assert isinstance(style, GuardStyle) and not isinstance(style.baseStyle(), GuardStyle)


def test_a_theme_chosen_while_open_keeps_the_guard(qtbot, qapp, window) -> None:
    """Settings > Theme sets another style: it is wrapped too, and fields made after it
    (another page built) are still guarded."""
    before = qapp.style().baseStyle().name()
    try:
        apply_theme(qapp, Theme.DARK)
        style = qapp.style()
        assert isinstance(style, GuardStyle)
        assert isinstance(style.baseStyle(), DarkIndicatorStyle)
        checked = 0
        for page, group in ((Page.SHEET, Group.PLAYERS), (Page.HEALING, Group.PLAYERS)):
            show(window, qtbot, page, group)
            checked += wheel_over_every_field(window, qtbot)
        assert checked >= 10
    finally:
        fresh = QStyleFactory.create(before)
        assert fresh is not None
        set_app_style(qapp, fresh)


class _RecordingGuard(AppGuard):
    """The guard, noting what it is shown events of."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("recordingGuard")
        self.seen: set[str] = set()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A field's last events as Qt destroys it come as from a bare QWidget (and PySide6
        # marks the wrapper it makes for it with a dynamic property).
        if event.type() not in (QEvent.Type.Destroy, QEvent.Type.DynamicPropertyChange):
            self.seen.add("field" if value_widget(watched) is not None else
                          f"{type(watched).__name__}: {event.type().name}")
        return super().eventFilter(watched, event)


def test_the_guard_sees_the_value_fields_events_only(qtbot, qapp, window) -> None:
    """Not an application filter: every event Qt delivers went through Python (~1 ms of
    each table step), and Qt's private animation timer among them made PySide6 build
    ~100 enum classes. The guard now filters the fields and their line edits."""
    before = qapp.style().baseStyle().name()
    recorder = _RecordingGuard()
    try:
        qapp.setStyle(GuardStyle(QStyleFactory.create("Fusion"), recorder))
        show(window, qtbot, Page.SHEET, Group.PLAYERS)
        assert wheel_over_every_field(window, qtbot) >= 10
        window.resize(window.width() - 40, window.height() - 40)  # relayouts animate
        show(window, qtbot, Page.HEALING, Group.PLAYERS)
        qtbot.wait(50)
        assert recorder.seen == {"field"}
    finally:
        fresh = QStyleFactory.create(before)
        assert fresh is not None
        set_app_style(qapp, fresh)


def test_the_guard_wraps_the_style_the_theme_set_at_start(qtbot, qapp) -> None:
    """At start the theme sets its style before the guard's module is imported; putting the
    guard in place wraps that very style (the dark theme's bordered indicators kept) and a
    field built after it is settled."""
    before = qapp.style().baseStyle().name() if isinstance(qapp.style(), GuardStyle) \
        else qapp.style().name()
    try:
        qapp.setStyle(DarkIndicatorStyle())  # what apply_theme does before the guard exists
        guard = install_app_guard(qapp)
        style = qapp.style()
        assert isinstance(style, GuardStyle) and style.guard is guard
        assert isinstance(style.baseStyle(), DarkIndicatorStyle)
        host = QWidget()
        qtbot.addWidget(host)
        spin = QSpinBox(host)
        spin.setFocusPolicy(Qt.FocusPolicy.WheelFocus)
        host.show()
        qtbot.waitExposed(host)
        assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus
        value = spin.value()
        wheel(spin, +1)
        assert spin.value() == value and not spin.hasFocus()
    finally:
        fresh = QStyleFactory.create(before)
        assert fresh is not None
        set_app_style(qapp, fresh)
