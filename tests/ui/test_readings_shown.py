"""Each reading settled in docs/rules.md is shown where its number is used: split fire in the
resolver's odds, the Effect 6+ minimum and a targeted threshold in the outcome, aim kept on a
melee attack in the roll's terms, first aid's full action on the round's button."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.test_encounter_fight import attack, choose, press, tick_targets
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight


def running(qtbot):
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    return view


def test_split_fire_is_explained_in_the_odds(qtbot) -> None:
    view = running(qtbot)
    press(qtbot, view, Qt.Key.Key_A)
    qtbot.wait(1)
    tick_targets(qtbot, view, ["Raider 1"])
    assert "Split fire" not in view.resolver.odds_label.text()
    tick_targets(qtbot, view, ["Raider 1", "Raider 2"])
    assert "Split fire: each target takes 1 + Effect damage rolls" in \
        view.resolver.odds_label.text()


def test_the_minimum_damage_and_a_targeted_threshold_are_named_in_the_outcome(qtbot) -> None:
    view = running(qtbot)
    press(qtbot, view, Qt.Key.Key_A)
    qtbot.wait(1)
    choose(view.resolver.location_combo, "Primary Arm")
    outcome = attack(qtbot, view, "Mara Vey", ["Raider 1"], 6, damage="1, 1, 1, 1, 1, 1, 1")
    assert outcome.success_effect == 6
    text = view.resolver.outcome_view.toPlainText()
    assert "Effect +6: every roll does at least 1 damage whatever the armor" in text
    assert "below 7 (23 HP / 3, rounded down, at least 1): no effect" in text


def test_aim_on_a_melee_attack_is_said_in_the_terms(qtbot) -> None:
    view = running(qtbot)
    select(view, "Ilse Brandt")
    panel = view.panel
    choose(panel.aim_target_combo, "Raider 1")
    panel.aim_button.click()
    press(qtbot, view, Qt.Key.Key_A)
    qtbot.wait(1)
    resolver = view.resolver
    choose(resolver.attacker_combo, "Ilse Brandt")
    tick_targets(qtbot, view, ["Raider 1"])
    assert "; Aim +1 not used and kept: aim is for ranged attacks" in resolver.dm_label.text()


def test_first_aid_rounds_say_why_they_are_a_full_action(qtbot) -> None:
    view = running(qtbot)
    select(view, "Mara Vey")
    tip = view.panel.work_roll_button.toolTip()
    assert "Ch.7 calls performing it a significant action" in tip
    assert "cannot do anything else" in tip
