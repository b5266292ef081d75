"""Ballistic correction, tracers, a spotter and the aim moved to a target in the same
position, driven from the combatant panel's aim controls and the resolver."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.test_encounter_fight import attack, choose, click, press, sheet, tick_targets
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight
from tests.ui.test_task_timing import pick


def show_panel(qtbot, view) -> None:
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
    qtbot.wait(1)


def test_correct_the_aim_after_a_shot_with_tracers_on_full_auto(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    panel = view.panel
    select(view, "Mara Vey")
    assert not panel.aim_assist.correct_button.isEnabled()  # no shot yet
    choose(panel.aim_target_combo, "Raider 1")
    click(qtbot, panel.aim_button)
    attack(qtbot, view, "Mara Vey", ["Raider 1"], -1)
    click(qtbot, view.resolver.apply_button)
    press(qtbot, view, Qt.Key.Key_E)  # round 2: last round's shot can be corrected
    show_panel(qtbot, view)
    select(view, "Mara Vey")
    mara = sheet(view, "Mara Vey")[1]
    assert mara.aim == 0
    assist = panel.aim_assist
    assert assist.correct_button.isEnabled()
    assert "keep the aim +1 of round 1's shot at Raider 1" in assist.correct_button.toolTip()
    pick(qtbot, assist.seen_combo, "tracers, full auto")
    steps = view.document.undo_stack.index()
    click(qtbot, assist.correct_button)
    assert view.document.undo_stack.index() == steps + 1
    assert mara.aim == 4 and panel.aim_label.text().startswith("Aim +4 on Raider 1")
    assert mara.actions_spent == 0  # no action spent
    assert not assist.correct_button.isEnabled()  # one correction per shot
    view.document.undo_stack.undo()
    assert mara.aim == 0 and assist.correct_button.isEnabled()


def test_move_the_aim_to_a_target_in_the_same_position_keeping_a_share(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    panel = view.panel
    select(view, "Mara Vey")
    choose(panel.aim_target_combo, "Raider 1")
    for _ in range(3):
        click(qtbot, panel.aim_button)
    assist = panel.aim_assist
    assert not assist.shift_button.isEnabled()  # the aim is on the chosen target already
    choose(panel.aim_target_combo, "Raider 2")
    assert assist.shift_button.isEnabled() and assist.kept_spin.maximum() == 3
    assist.kept_spin.setFocus()
    for _ in range(4):
        qtbot.keyClick(assist.kept_spin, Qt.Key.Key_Up)
    assert assist.kept_spin.value() == 3  # at most all of it
    qtbot.keyClick(assist.kept_spin, Qt.Key.Key_Down)
    click(qtbot, assist.shift_button)
    mara = sheet(view, "Mara Vey")[1]
    assert mara.aim == 2
    assert panel.aim_label.text().startswith("Aim +2 on Raider 2")
    assert view.encounter().log[-1].action == "Aim moved"


def test_a_spotter_lowers_the_attacks_difficulty_by_two(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    press(qtbot, view, Qt.Key.Key_A)
    qtbot.wait(1)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    before = resolver.spec.difficulty.total
    click(qtbot, resolver.spotter_check)
    model = resolver.terms_model
    rows = [(model.data(model.index(r, 0)), model.data(model.index(r, 1)))
            for r in range(model.rowCount())]
    assert ("Spotter", "-2") in rows
    assert resolver.spec.difficulty.total == before - 2
