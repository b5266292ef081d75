"""Encounter steps a referee expects to be one gesture, to confirm, or to see the odds of
before rolling (issue "Trust at the table")."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from mneme_desktop.domain import Characteristic, ConditionKind
from mneme_desktop.domain import combat as fight
from mneme_desktop.rules.checks import characteristic_modifier, success_chance
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, wound_penalty
from tests.ui import test_encounter_view as encounter_tests
from tests.ui.test_encounter_fight import click, sheet, type_text
from tests.ui.test_encounter_view import select

view = encounter_tests.view
running = encounter_tests.running
"""The encounter view's fixtures: everyone in, fixed initiatives, round 1."""


def drag_bar(qtbot, bar, units: list[int]) -> None:
    """Press on the first unit, drag through the rest, release: one gesture."""
    first = bar.point_for_unit(units[0]).toPoint()
    qtbot.mousePress(bar, Qt.MouseButton.LeftButton, pos=first)
    for unit in units[1:]:
        # QTest.mouseMove sends no buttons; this move holds the left button down.
        point = QPointF(bar.point_for_unit(unit))
        event = QMouseEvent(QEvent.Type.MouseMove, point, bar.mapToGlobal(point),
                            Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(bar, event)
    qtbot.mouseRelease(bar, Qt.MouseButton.LeftButton,
                       pos=bar.point_for_unit(units[-1]).toPoint())


def test_dragging_the_hp_bar_is_one_step_and_one_log_line(qtbot, running) -> None:
    view = running
    select(view, "Raider 1")
    bar = view.panel.hp_bar
    stack = view.document.undo_stack
    count, log_before = stack.count(), len(view.encounter().log)
    drag_bar(qtbot, bar, [3, 5, 7])
    raider, _ = sheet(view, "Raider 1")
    assert raider.damage == 7
    assert stack.count() == count + 1
    new_lines = view.encounter().log[log_before:]
    assert [e.text for e in new_lines] == ["Raider 1: damage set from 0 to 7"]
    # A second gesture is its own step, starting from where the first ended.
    drag_bar(qtbot, bar, [9, 10])
    assert stack.count() == count + 2
    assert view.encounter().log[-1].text == "Raider 1: damage set from 7 to 10"
    stack.undo()
    assert sheet(view, "Raider 1")[0].damage == 7
    stack.undo()
    assert sheet(view, "Raider 1")[0].damage == 0
    assert len(view.encounter().log) == log_before
    stack.redo()
    assert sheet(view, "Raider 1")[0].damage == 7
    assert [e.text for e in view.encounter().log[log_before:]] == \
        ["Raider 1: damage set from 0 to 7"]


def _answer(view, button_text: str | None, seen: list[str]) -> None:
    def ask(box: QMessageBox) -> None:
        seen.append(box.informativeText())
        if button_text is not None:
            for button in box.buttons():
                if button.text() == button_text:
                    button.click()
                    return
    view.ask = ask


def test_end_fight_with_loose_ends_asks_and_logs_them(qtbot, running) -> None:
    view = running
    _, raider = sheet(view, "Raider 2")
    view.run(lambda c, e: fight.set_damage_patch(c, e, raider.id, 24))  # dying
    _, mara = sheet(view, "Mara Vey")
    view.run(lambda c, e: fight.add_condition_patch(c, e, mara.id, ConditionKind.BLEEDING,
                                                    "arm"))
    seen: list[str] = []
    _answer(view, "Keep fighting", seen)
    click(qtbot, view.toolbar.widgetForAction(view.end_action))
    assert len(seen) == 1
    assert "Raider 2: dying" in seen[0] and "Mara Vey: bleeding" in seen[0]
    assert not view.encounter().ended
    _answer(view, "End fight", seen)
    click(qtbot, view.toolbar.widgetForAction(view.end_action))
    assert view.encounter().ended
    last = view.encounter().log[-1]
    assert last.action == "End" and "Raider 2: dying" in last.text
    assert "Mara Vey: bleeding" in last.text


def test_end_fight_with_nothing_open_does_not_ask(qtbot, running) -> None:
    view = running
    seen: list[str] = []
    _answer(view, None, seen)
    click(qtbot, view.toolbar.widgetForAction(view.end_action))
    assert seen == [] and view.encounter().ended


def test_the_dying_roll_shows_its_odds_before_the_roll(qtbot, running) -> None:
    view = running
    raider, combatant = sheet(view, "Raider 2")
    view.run(lambda c, e: fight.set_damage_patch(c, e, combatant.id, 24))
    select(view, "Raider 2")
    raider, _ = sheet(view, "Raider 2")
    endurance = raider.characteristic(Characteristic.END) or 0
    modifier = characteristic_modifier(endurance) + wound_penalty(24)
    chance = success_chance(modifier, DYING_DIFFICULTY)
    assert isinstance(chance, Fraction)
    odds = view.panel.survival_odds.message()
    assert f"{chance.numerator}/{chance.denominator}" in odds
    assert f"DM {modifier:+d} vs {DYING_DIFFICULTY}" in odds
    assert f"{chance.numerator}/{chance.denominator}" in view.panel.dying_button.toolTip()
    rolls_before = [e for e in view.encounter().log if e.action == "Dying roll"]
    assert rolls_before == []  # shown, not rolled
    type_text(qtbot, view.panel.survival_dice_edit, "6 6")
    click(qtbot, view.panel.dying_button)
    assert [e.action for e in view.encounter().log].count("Dying roll") == 1


def test_a_result_message_goes_when_its_step_is_undone(qtbot, running) -> None:
    view = running
    _, raider = sheet(view, "Raider 1")
    view.run(lambda c, e: fight.set_damage_patch(c, e, raider.id, 5))
    view.show_message("Applied: Mara Vey hits Raider 1")
    view.document.undo_stack.undo()
    assert view.message_label.message() == ""
