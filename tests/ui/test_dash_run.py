"""Dash and Run (Ch.6) in the window: the Athletics check of 8 + conditions (or the threats'
DM under fire) with its odds, and a mover harder to hit in the round they dashed or ran."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.rules.actions import MovementMode
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.ui.views.attack_text import format_percent
from tests.ui.test_attack_resolver_trust import show_panel, term_rows
from tests.ui.test_encounter_fight import click, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def running(qtbot):
    view = start_fight(open_test_encounter(qtbot))
    show_panel(view)
    return view


def attack_difficulty(qtbot, view, target: str) -> int:
    resolver = view.resolver
    resolver.set_attacker(sheet(view, "Mara Vey")[1].id)
    view.tabs.setCurrentIndex(1)
    tick_targets(qtbot, view, [target])
    assert resolver.spec is not None
    return resolver.spec.difficulty.total


def test_a_dash_or_run_makes_the_mover_harder_to_hit_this_round(qtbot, running):
    view = running
    still = attack_difficulty(qtbot, view, "Raider 2")
    assert attack_difficulty(qtbot, view, "Raider 1") == still
    show_panel(view)
    view.select_combatant(sheet(view, "Raider 1")[1].id)
    box = view.panel.rolls_box
    assert not box.moving_label.isVisible()
    click(qtbot, view.panel.move_buttons[MovementMode.DASH])
    assert box.moving_label.isVisible()
    assert box.moving_label.text() == "Dash this round: attacks on them +1 Difficulty"
    assert attack_difficulty(qtbot, view, "Raider 1") == still + 1
    assert ("Target dashed: Raider 1", "+1") in term_rows(view)
    # Both targets must have moved for one roll against them to be harder.
    tick_targets(qtbot, view, ["Raider 1", "Raider 2"])
    assert view.resolver.spec.difficulty.total == still
    view.document.undo_stack.undo()  # the dash
    assert attack_difficulty(qtbot, view, "Raider 1") == still
    show_panel(view)
    view.select_combatant(sheet(view, "Raider 2")[1].id)
    click(qtbot, view.panel.move_buttons[MovementMode.RUN])
    assert attack_difficulty(qtbot, view, "Raider 2") == still + 2
    assert view.resolver.spec.helpless == ()  # a runner defends by running


def test_the_athletics_check_shows_its_difficulty_and_odds_and_logs_one_step(qtbot, running):
    view = running
    view.select_combatant(sheet(view, "Mara Vey")[1].id)
    click(qtbot, view.panel.rolls_box.athletics_button)
    dialog = view.panel.rolls_box.dash_run_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.conditions_spin.setValue(2)
    # Mara: no Athletics (-3), DEX 9 (+1): DM -2 against 8 + 2.
    assert dialog.odds_label.text() == (
        "Mara Vey: 2d6 DM -2 (Unskilled (Athletics) -3, DEX DM +1) vs 10 = 8 +2 Obstacles, "
        f"bad footing: keeps going {format_percent(success_chance(-2, 10))}")
    dialog.under_fire_check.setFocus()
    qtbot.keyClick(dialog.under_fire_check, Qt.Key.Key_Space)
    assert not dialog.conditions_spin.isEnabled()
    dialog.threats_spin.setValue(3)
    assert dialog.spec.difficulty.total == 11
    dialog.mode_combo.setCurrentIndex(dialog.mode_combo.findData(MovementMode.RUN))
    dialog.characteristic_combo.setCurrentIndex(1)  # END 8: +0
    assert dialog.spec.roll_modifier == -3
    type_text(qtbot, dialog.dice_edit, "2 3")
    steps = view.document.undo_stack.count()
    qtbot.keyClick(dialog.dice_edit, Qt.Key.Key_Return)
    assert not dialog.isVisible() and view.document.undo_stack.count() == steps + 1
    assert view.encounter().log[-1].text == (
        "Mara Vey: Athletics for a run, Difficulty 11 (8 +3 Under fire (the threats' DM)): "
        "2+3 -3 (Unskilled (Athletics) -3, END DM +0) = 2, Effect -9: a sudden stop or fall "
        "(the referee says)")
    view.document.undo_stack.undo()
    assert not view.encounter().log or "Athletics" not in view.encounter().log[-1].text


def test_the_dice_field_shows_its_whole_hint(qtbot, running):
    """QA: the hint was clipped to "empty: the app rolls; or the tab..." at 1366x768."""
    view = running
    view.select_combatant(sheet(view, "Mara Vey")[1].id)
    click(qtbot, view.panel.rolls_box.athletics_button)
    edit = view.panel.rolls_box.dash_run_dialog.dice_edit
    assert edit.width() > edit.fontMetrics().horizontalAdvance(edit.placeholderText())


def test_the_check_of_a_move_the_actions_left_do_not_cover_says_why_and_is_not_rolled(
        qtbot, running):
    """QA: with one minor action left the check of a Dash was rolled and logged without a
    word; it now says what the panel's Dash button says, and does not roll."""
    view = running
    view.select_combatant(sheet(view, "Mara Vey")[1].id)
    for _ in range(2):  # two Moves: one minor action left, a Dash needs two
        click(qtbot, view.panel.move_buttons[MovementMode.MOVE])
    click(qtbot, view.panel.move_buttons[MovementMode.DASH])
    refusal = view.message_label.message()
    assert refusal.startswith("Mara Vey cannot dash: ")
    click(qtbot, view.panel.rolls_box.athletics_button)
    dialog = view.panel.rolls_box.dash_run_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.message.message() == refusal
    assert not dialog.roll_button.isEnabled()
    steps = view.document.undo_stack.count()
    type_text(qtbot, dialog.dice_edit, "6 6")
    qtbot.keyClick(dialog.dice_edit, Qt.Key.Key_Return)
    assert dialog.isVisible() and view.document.undo_stack.count() == steps
    view.document.undo_stack.undo()  # one Move back: two actions left, enough for a Dash
    assert dialog.message.message() == ""
    assert dialog.roll_button.isEnabled()
    # The Dash made (no action left): its check, rolled after it, is not refused.
    view.panel.move_combatant(MovementMode.DASH)
    assert view.encounter().find_combatant(sheet(view, "Mara Vey")[1].id).actions_spent == 3
    assert dialog.message.message() == "" and dialog.roll_button.isEnabled()
    dialog.mode_combo.setCurrentIndex(dialog.mode_combo.findData(MovementMode.RUN))
    assert dialog.message.message().startswith("Mara Vey cannot run: ")
