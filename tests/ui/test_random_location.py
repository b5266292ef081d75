"""The random hit location in the attack resolver, driven as a referee would: roll the attack,
then Hit location (the app's seeded dice, or the table's 2d6 and 1d6 typed beside it); the
result says where it landed and what that does, and one Apply puts it on the sheet and in
the log as one undoable step. A random location adds no Difficulty."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import ConditionKind
from mneme_desktop.rules.hit_locations import roll_hit_location
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import dice_for
from tests.ui.test_attack_resolver_trust import pick, term_rows
from tests.ui.test_encounter_fight import click, press, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight

SEED = 31


@pytest.fixture
def view(qtbot):
    """Mara's turn (rifle 3d6-2, rate 4) against the raiders (23 HP, flak jacket 4)."""
    return start_fight(open_test_encounter(qtbot, SEED))


def hit_raider(qtbot, view: EncounterView, damage: str = "10"):
    """A to open the resolver, Raider 1 ticked, the table's dice for Effect 0 and one damage
    roll typed, Enter: a hit for 10 - 4 = 6 (below the 7 that bleeds)."""
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    spec = resolver.spec
    assert spec is not None, resolver.problem_label.message()
    a, b = dice_for(0, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.damage_edit, damage)
    type_text(qtbot, resolver.dice_edit, f"{a} {b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.outcome is not None and resolver.outcome.hit
    return resolver


def outcome_text(resolver) -> str:
    return resolver.outcome_view.toPlainText()


def test_hit_location_rolled_in_the_app_adds_no_difficulty_and_applies_as_one_step(
        qtbot, view):
    resolver = view.resolver
    press(qtbot, view, Qt.Key.Key_A)
    assert not resolver.location_button.isEnabled()  # nothing rolled: nothing to locate
    resolver = hit_raider(qtbot, view)
    terms = term_rows(view)
    check = resolver.outcome.check
    assert resolver.location_button.isEnabled()
    # The app's generator is the one the view was given: replay it to know what it rolls.
    replay = random.Random(SEED)
    replay.setstate(resolver._rng.getstate())
    expected = roll_hit_location(replay)
    click(qtbot, resolver.location_button)
    outcome = resolver.outcome
    rolled = outcome.hits[0].random_location
    assert rolled == expected
    assert outcome.check is check and term_rows(view) == terms  # no Difficulty added
    assert f"Hit location ({rolled.dice_text}): {rolled.name}" in outcome_text(resolver)

    raider, combatant = sheet(view, "Raider 1")
    stack = view.document.undo_stack
    steps, log_size = stack.count(), len(view.encounter().log)
    click(qtbot, resolver.apply_button)
    assert stack.count() == steps + 1
    raider, _ = sheet(view, "Raider 1")
    assert raider.damage == 6
    line = next(e for e in view.encounter().log[log_size:]
                if e.target_id == combatant.id and e.action.startswith("Damage"))
    assert f"6 damage to the {rolled.name} (random hit location: {rolled.dice_text})" \
        in line.text
    stack.undo()
    raider, _ = sheet(view, "Raider 1")
    assert raider.damage == 0 and raider.conditions == []
    assert len(view.encounter().log) == log_size


def test_the_tables_location_dice_cripple_a_hand_on_apply(qtbot, view):
    resolver = hit_raider(qtbot, view)
    type_text(qtbot, resolver.location_edit, "5 6 2")
    qtbot.keyClick(resolver.location_edit, Qt.Key.Key_Return)
    hit = resolver.outcome.hits[0]
    assert hit.random_location is not None and hit.random_location.name == "Primary Hands"
    text = outcome_text(resolver)
    assert "Hit location (2d6 5+6 = 11, 1d6 2 (Primary)): Primary Hands: Crippled" in text
    resolver.setFocus()
    qtbot.keyClick(resolver, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    raider, _ = sheet(view, "Raider 1")
    assert [(c.kind, c.detail) for c in raider.conditions] == [
        (ConditionKind.CRIPPLED, "Primary Hands")]
    assert resolver.outcome is None and resolver.location_edit.text() == ""


def test_location_dice_typed_with_the_attack_dice_are_used_on_enter(qtbot, view):
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    spec = resolver.spec
    a, b = dice_for(0, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.damage_edit, "12")
    type_text(qtbot, resolver.location_edit, "66")
    type_text(qtbot, resolver.dice_edit, f"{a}{b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.outcome.hits[0].random_location.name == "Head"
    assert "Head: Stunned" in outcome_text(resolver)


def test_a_mistyped_location_is_refused_and_says_why(qtbot, view):
    resolver = hit_raider(qtbot, view)
    type_text(qtbot, resolver.location_edit, "5 6")
    click(qtbot, resolver.location_button)
    assert "add the 1d6" in resolver.problem_label.message()
    assert resolver.outcome is not None and resolver.outcome.hits[0].random_location is None
    type_text(qtbot, resolver.location_edit, "3 4 1")
    qtbot.keyClick(resolver.location_edit, Qt.Key.Key_Return)
    assert "takes no 1d6" in resolver.problem_label.message()
    type_text(qtbot, resolver.location_edit, "3 4")
    qtbot.keyClick(resolver.location_edit, Qt.Key.Key_Return)
    assert resolver.problem_label.message() == ""
    assert "Core or Center of Mass: no targeted effect" in outcome_text(resolver)


def test_the_location_stays_when_the_result_is_worked_out_again(qtbot, view):
    resolver = hit_raider(qtbot, view)
    type_text(qtbot, resolver.location_edit, "4 6")
    click(qtbot, resolver.location_button)
    assert resolver.outcome.hits[0].random_location.name == "Secondary Arm"
    click(qtbot, resolver.spend_check)  # the roll stands: the result is resolved again
    assert resolver.outcome is not None
    assert resolver.outcome.hits[0].random_location.name == "Secondary Arm"
    type_text(qtbot, resolver.location_edit, "")
    click(qtbot, resolver.location_button)  # rolled again, in the app this time
    assert resolver.outcome.hits[0].random_location is not None
    click(qtbot, resolver.discard_button)
    assert resolver.outcome is None and not resolver.location_button.isEnabled()


def test_no_random_location_for_a_targeted_attack_or_a_miss(qtbot, view):
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    pick(qtbot, resolver.location_combo, "Head")
    spec = resolver.spec
    assert ("Targeted attack", "+3") in term_rows(view)
    a, b = dice_for(0, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.damage_edit, "12")
    type_text(qtbot, resolver.dice_edit, f"{a} {b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.outcome.hit and not resolver.location_button.isEnabled()
    assert "Targeted: Head: Stunned" in outcome_text(resolver)
    type_text(qtbot, resolver.location_edit, "3 4")
    qtbot.keyClick(resolver.location_edit, Qt.Key.Key_Return)
    assert "targeted attack" in resolver.problem_label.message()
    pick(qtbot, resolver.location_combo, "No targeted location")
    spec = resolver.spec
    a, b = dice_for(-2, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.location_edit, "")
    type_text(qtbot, resolver.dice_edit, f"{a} {b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert not resolver.outcome.hit and not resolver.location_button.isEnabled()


def test_ctrl_l_rolls_the_location_from_anywhere_in_the_resolver(qtbot, view):
    resolver = hit_raider(qtbot, view)
    view.activateWindow()
    qtbot.waitActive(view)
    resolver.damage_edit.setFocus()
    qtbot.keyClick(resolver.damage_edit, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert resolver.outcome.hits[0].random_location is not None
