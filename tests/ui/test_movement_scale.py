"""The encounter's movement scale chosen in the combatant panel: the buttons and the line
follow the 4.5 m table, the choice is one undo step for the whole encounter."""

from __future__ import annotations

from mneme_desktop.rules.movement import GridScale
from tests.ui.test_encounter_fight import click
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight
from tests.ui.test_task_timing import pick


def test_choosing_4_5_m_spaces_changes_every_combatants_movement(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    select(view, "Mara Vey")
    panel = view.panel
    assert panel.movement_scale_combo.currentText() == "1.5 m spaces"
    assert "Dash 10 sp (15 m)" in panel.movement_label.text()
    stack = view.document.undo_stack
    steps = stack.index()
    pick(qtbot, panel.movement_scale_combo, "4.5 m spaces")
    assert view.encounter().movement_scale is GridScale.COARSE
    assert stack.index() == steps + 1
    assert "Dash 3 sp (13.5 m)" in panel.movement_label.text()
    assert panel.movement_label.text().endswith("(Ch.6 movement table, 4.5 m spaces)")
    select(view, "Ilse Brandt")  # the whole encounter, not one combatant
    assert panel.movement_scale_combo.currentText() == "4.5 m spaces"
    click(qtbot, panel.move_buttons[next(iter(panel.move_buttons))])
    assert view.encounter().log[-1].text.endswith("(4.5 m spaces)")
    stack.undo()
    stack.undo()
    assert view.encounter().movement_scale is GridScale.FINE
    assert panel.movement_scale_combo.currentText() == "1.5 m spaces"
