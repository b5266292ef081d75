"""The encounter page: its turn keys work whenever it shows, whatever has focus
(the navigator included), and not while another page shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_nodes import Group


@pytest.fixture
def window(sample_window):
    return sample_window


def _open_running_encounter(window: MainWindow, qtbot):
    model = window.navigator_model
    window.tree.setCurrentIndex(model.index(0, 0, model.group_index(Group.ENCOUNTERS)))
    window.show_page(Page.ENCOUNTER)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == Page.ENCOUNTER)
    view = window.stack.currentWidget()
    view = getattr(view, "encounter_view", view)
    from mneme_desktop.ui.views.encounter_view import EncounterView

    if not isinstance(view, EncounterView):
        view = window.stack.currentWidget().findChild(EncounterView)
    assert isinstance(view, EncounterView)
    encounter = view.encounter()
    if not encounter.started:
        assert view.start_encounter()
    return view


def test_next_turn_key_works_with_focus_in_the_navigator(qtbot, window) -> None:
    view = _open_running_encounter(window, qtbot)
    before = (view.encounter().round, view.encounter().turn_index)
    window.tree.setFocus()
    qtbot.waitUntil(window.tree.hasFocus)
    qtbot.keyClick(window.tree, Qt.Key.Key_N)
    assert (view.encounter().round, view.encounter().turn_index) != before


def test_turn_keys_do_nothing_on_another_page(qtbot, window) -> None:
    view = _open_running_encounter(window, qtbot)
    before = (view.encounter().round, view.encounter().turn_index)
    model = window.navigator_model
    window.tree.setCurrentIndex(model.index(0, 0, model.group_index(Group.PLAYERS)))
    window.show_page(Page.SHEET)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == Page.SHEET)
    window.tree.setFocus()
    qtbot.keyClick(window.tree, Qt.Key.Key_N)
    assert (view.encounter().round, view.encounter().turn_index) == before


def test_a_new_empty_encounter_shows_an_empty_panel_and_the_right_hint(qtbot, window) -> None:
    view = _open_running_encounter(window, qtbot)
    first = view.encounter().combatants[0]
    view.select_combatant(first.id)
    assert view.panel.hp_bar.isVisibleTo(view.panel)
    window.add_encounter()
    qtbot.waitUntil(lambda: view.encounter() is not None and not view.encounter().combatants)
    panel = view.panel
    assert panel.combatant_id is None
    assert panel.name_label.text() == "No one in this fight yet"
    for widget in (panel.hp_bar, panel.side_combo, panel.aim_target_combo):
        assert not widget.isVisibleTo(panel), widget.objectName()
    assert "Add characters" in view.turn_label.text()


def test_names_take_the_room_of_a_wide_screen(qtbot, window) -> None:
    """At 1920 pixels the Combatant column takes the spare width (an empty Task column
    stretched to the edge took it); an empty Task column is as wide as its header, and
    Conditions keeps a fixed room for the timers that come mid-fight (sizing either to its
    contents would measure every row at every step)."""
    from mneme_desktop.ui.models.turn_order_model import TurnOrderModel

    view = _open_running_encounter(window, qtbot)
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.width() == 1920)
    qtbot.wait(20)
    table = view.turn_view
    header = table.horizontalHeader()
    model = table.model()
    assert not any(model.index(r, TurnOrderModel.COL_TASK).data()
                   for r in range(model.rowCount()))  # no one has a task in the sample
    widths = [header.sectionSize(c) for c in range(header.count())]
    assert max(widths) == widths[TurnOrderModel.COL_NAME]
    for column in (TurnOrderModel.COL_TASK, TurnOrderModel.COL_CONDITIONS):
        text = model.headerData(column, Qt.Orientation.Horizontal)
        assert header.fontMetrics().horizontalAdvance(text) < widths[column]
    assert widths[TurnOrderModel.COL_TASK] <= max(
        header.sectionSizeHint(TurnOrderModel.COL_TASK),
        table.sizeHintForColumn(TurnOrderModel.COL_TASK))
    names = max(table.sizeHintForColumn(TurnOrderModel.COL_NAME), 0)
    assert widths[TurnOrderModel.COL_NAME] >= names
    assert header.length() <= table.viewport().width()  # no sideways scrolling
