"""The combatant panel's timing roll, driven as a referee would (clicks and keys): the
median in rounds, minutes or hours, the Effect typed or the timing check rolled by the app
or read from the table's dice, the share and the length shown before Start, one undo step,
and typing the rounds as before."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox

from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.quick_check import TimeUnit
from mneme_desktop.rules.checks import check_from
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.ui.views.combatant_panel_form import TimingMode
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.ui.test_encounter_fight import click, sheet, type_text
from tests.ui.test_encounter_page import _open_running_encounter
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight
from tests.ui.test_laptop_fit import clipped


@pytest.fixture
def running(qtbot) -> EncounterView:
    """The test campaign's fight under way, round 1, in a 1280x800 encounter view."""
    return start_fight(open_test_encounter(qtbot))


def pick(qtbot, combo: QComboBox, text: str) -> None:
    """Choose an entry with the arrow keys, as from the keyboard (each step is 'activated')."""
    wanted = combo.findText(text, Qt.MatchFlag.MatchStartsWith)
    assert wanted >= 0, f"{text!r} not in {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setFocus()
    key = Qt.Key.Key_Down if wanted > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentIndex() != wanted:
        qtbot.keyClick(combo, key)
    assert combo.currentIndex() == wanted


def type_number(qtbot, spin: QSpinBox, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == value


def task_of(view: EncounterView, name: str):
    return sheet(view, name)[1].extended_task


def test_an_effect_typed_shows_the_share_and_the_length_before_starting(qtbot, running):
    view = running
    select(view, "Mara Vey")
    panel = view.panel
    assert not panel.median_spin.isVisible() and panel.task_rounds_spin.isVisible()
    pick(qtbot, panel.timing_mode_combo, "Timing: Effect typed")
    assert panel.median_spin.isVisible() and panel.timing_effect_spin.isVisible()
    assert not panel.task_rounds_spin.isVisible() and not panel.timing_roll_button.isVisible()
    click(qtbot, panel.first_aid_check)  # not first aid
    type_text(qtbot, panel.task_desc_edit, "Rig the door")
    type_number(qtbot, panel.median_spin, 3)
    pick(qtbot, panel.median_unit_combo, "minutes")
    type_number(qtbot, panel.timing_effect_spin, 1)
    assert panel.timing_label.text() == "Effect +1: 50% of 3 minutes (30 rounds) = 15 rounds"
    type_number(qtbot, panel.timing_effect_spin, -2)
    assert panel.timing_label.text().startswith(
        "Effect -2: 175% of 3 minutes (30 rounds) = 53 rounds (the project's reading for -2")
    pick(qtbot, panel.median_unit_combo, "hours")
    type_number(qtbot, panel.median_spin, 1)
    type_number(qtbot, panel.timing_effect_spin, 2)
    assert panel.timing_label.text() == "Effect +2: 25% of 1 hour (600 rounds) = 150 rounds"
    stack = view.document.undo_stack
    steps = stack.count()
    click(qtbot, panel.start_task_button)
    task = task_of(view, "Mara Vey")
    assert task is not None and task.total_rounds == 150 and task.description == "Rig the door"
    assert stack.count() == steps + 1  # one start, one undo step
    assert "timing roll on a median of 1 hour (600 rounds): Effect +2 typed" in \
        view.encounter().log[-1].text
    assert panel.task_label.text().startswith("Rig the door on Mara Vey: 150 of 150 rounds")
    stack.undo()
    assert task_of(view, "Mara Vey") is None and panel.task_start.isVisible()


def test_the_app_rolls_first_aids_timing_check_with_the_panels_rng(qtbot, running):
    view = running
    view.rng = random.Random(11)
    select(view, "Tomas Okoro")
    panel = view.panel
    pick(qtbot, panel.patient_combo, "Ilse Brandt")
    pick(qtbot, panel.timing_mode_combo, "Timing: check rolled")
    assert panel.timing_roll_button.isVisible() and panel.timing_dice_edit.isVisible()
    # First aid's own check is known: Medic-2, EDU 11 (+1) vs 8 on another.
    assert panel.timing_skill_combo.currentText().startswith("First aid")
    assert panel.timing_dm_spin.value() == 3 and panel.timing_difficulty_spin.value() == 8
    assert panel.median_spin.value() == 30
    assert panel.timing_label.text().startswith("Timing check 2d6 DM +3 vs 8 succeeds")
    assert not panel.start_task_button.isEnabled()  # roll first, then see, then start
    expected = check_from(DiceSource.app(random.Random(11)), 3, 8)
    click(qtbot, panel.timing_roll_button)
    rounds = fight.TaskTiming(30, TimeUnit.ROUNDS, expected.effect).rounds
    shown = panel.timing_label.text()
    assert shown.startswith(f"Rolled {'+'.join(map(str, expected.kept))} DM +3 vs 8 = "
                            f"{expected.total}, Effect {expected.effect:+d}: ")
    assert f"of 30 rounds = {rounds} rounds" in shown
    assert panel.start_task_button.isEnabled()
    click(qtbot, panel.start_task_button)
    task = task_of(view, "Tomas Okoro")
    assert task is not None and task.total_rounds == rounds and task.first_aid
    entry = view.encounter().log[-1]
    assert entry.dice == list(expected.dice) and entry.effect == expected.effect
    assert "timing check rolled" in entry.text


def test_table_dice_for_a_skill_and_a_changed_dm_drops_the_roll(qtbot, running):
    view = running
    select(view, "Mara Vey")
    panel = view.panel
    click(qtbot, panel.first_aid_check)
    pick(qtbot, panel.timing_mode_combo, "Timing: check rolled")
    pick(qtbot, panel.timing_skill_combo, "Tactics-1")
    assert panel.timing_dm_spin.value() == 1
    type_number(qtbot, panel.median_spin, 10)
    pick(qtbot, panel.median_unit_combo, "minutes")
    type_text(qtbot, panel.timing_dice_edit, "6 7")
    qtbot.keyClick(panel.timing_dice_edit, Qt.Key.Key_Return)
    assert view.message_label.message()  # a 7 on a d6 is explained, nothing held
    assert not panel.start_task_button.isEnabled()
    type_text(qtbot, panel.timing_dice_edit, "5 4")
    qtbot.keyClick(panel.timing_dice_edit, Qt.Key.Key_Return)  # 9 + 1 vs 8: Effect +2
    assert panel.timing_label.text() == (
        "Table dice 5+4 DM +1 vs 8 = 10, Effect +2: 25% of 10 minutes (100 rounds) "
        "= 25 rounds")
    type_number(qtbot, panel.timing_dm_spin, 0)  # another DM: the roll no longer stands
    assert not panel.start_task_button.isEnabled()
    assert panel.timing_label.text().startswith("Timing check 2d6 DM +0 vs 8")
    type_text(qtbot, panel.timing_dice_edit, "5 4")
    click(qtbot, panel.timing_roll_button)  # Effect +1
    type_number(qtbot, panel.median_spin, 20)  # the median may still change
    assert panel.timing_label.text().endswith("50% of 20 minutes (200 rounds) = 100 rounds")
    click(qtbot, panel.start_task_button)
    task = task_of(view, "Mara Vey")
    assert task is not None and task.total_rounds == 100
    assert "timing check dice at the table 5+4 DM +0 vs 8 = 9, Effect +1" in \
        view.encounter().log[-1].text
    assert panel.timing_dice_edit.text() == ""


def test_a_roll_held_for_one_combatant_is_not_used_for_another(qtbot, running):
    view = running
    select(view, "Mara Vey")
    panel = view.panel
    pick(qtbot, panel.timing_mode_combo, "Timing: check rolled")
    click(qtbot, panel.timing_roll_button)
    assert panel.start_task_button.isEnabled()
    select(view, "Ilse Brandt")
    assert panel.timing_mode_combo.currentData() is TimingMode.ROLL
    assert not panel.start_task_button.isEnabled()
    assert panel.start_task() is False
    assert "Roll the timing check first" in view.message_label.message()
    assert task_of(view, "Ilse Brandt") is None


def test_typing_the_rounds_stays_possible(qtbot, running):
    view = running
    select(view, "Mara Vey")
    panel = view.panel
    pick(qtbot, panel.timing_mode_combo, "Timing: Effect typed")
    pick(qtbot, panel.timing_mode_combo, "Rounds typed")
    assert panel.task_rounds_spin.isVisible() and not panel.timing_label.isVisible()
    click(qtbot, panel.first_aid_check)
    type_number(qtbot, panel.task_rounds_spin, 12)
    click(qtbot, panel.start_task_button)
    task = task_of(view, "Mara Vey")
    assert task is not None and task.total_rounds == 12
    assert view.encounter().log[-1].text.endswith("(12 rounds, typed)")


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
def test_the_timing_rows_fit_a_laptop_screen(qtbot, sample_window, size):
    """Each timing mode's rows fit the encounter's side panel: nothing clipped."""
    window = sample_window
    view = _open_running_encounter(window, qtbot)
    view.tabs.setCurrentIndex(0)
    encounter = view.encounter()
    idle = next(c for c in encounter.combatants if c.extended_task is None)
    view.select_combatant(idle.id)
    panel = view.panel
    window.resize(*size)
    for mode in TimingMode:
        pick(qtbot, panel.timing_mode_combo, mode_text(panel, mode))
        if mode is TimingMode.ROLL:
            click(qtbot, panel.timing_roll_button)
        qtbot.wait(20)
        assert panel.start_task_button.isVisible()
        problems = clipped(window)
        assert not problems, "\n".join(problems)


def mode_text(panel, mode: TimingMode) -> str:
    return panel.timing_mode_combo.itemText(panel.timing_mode_combo.findData(mode))
