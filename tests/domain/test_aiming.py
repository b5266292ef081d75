"""Aim beyond the Aim action (Ch.6): a ballistic correction keeps last round's aim on the
target shot at and adds what was seen; moving the aim to a target in the same position keeps
the referee's share; one undoable step each, logged."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import combat
from mneme_desktop.domain.combat import CombatError
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign, request


def shoot(campaign, encounter, shooter: str, targets: list[tuple[str, int]], **extra) -> None:
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, shooter, targets, **extra))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -1), random.Random(2))
    combat.attack_patch(campaign, encounter, outcome,
                        spend_action=bool(extra.get("spend_action", True))).apply(campaign)


def test_a_correction_keeps_the_aim_the_shot_used_and_adds_one() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    mara, brute = by_name(campaign, encounter, "Mara Vey"), by_name(campaign, encounter,
                                                                    "Brute 1")
    combat.aim_patch(campaign, encounter, mara.id, brute.id).apply(campaign)
    assert mara.aim == 1
    shoot(campaign, encounter, "Mara Vey", [("Brute 1", 4)])
    assert mara.aim == 0 and mara.last_shot is not None and mara.last_shot.aim == 1
    combat.end_round_patch(campaign, encounter, random.Random(1)).apply(campaign)
    patch = combat.correction_patch(campaign, encounter, mara.id)
    patch.apply(campaign)
    assert mara.aim == 2 and mara.aim_target_id == brute.id and mara.last_shot is None
    entry = encounter.log[-1]
    assert entry.action == "Ballistic correction"
    assert entry.text.startswith("Mara Vey sees where the shots went: aim +1 kept on Brute 1, "
                                 "now +2 (Ch.6 ballistic correction, max +6")
    patch.revert(campaign)
    assert mara.aim == 0 and mara.last_shot is not None  # one undoable step
    combat.correction_patch(campaign, encounter, mara.id, tracers=True,
                            fully_automatic=True).apply(campaign)
    assert mara.aim == 4
    with pytest.raises(CombatError, match="no shot at one target"):
        combat.correction_patch(campaign, encounter, mara.id)  # used once


def test_no_correction_after_two_rounds_or_for_a_shot_at_several_targets() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    shoot(campaign, encounter, "Mara Vey", [("Raider 1", 2), ("Raider 2", 2)],
          spend_action=False)
    assert mara.last_shot is None
    shoot(campaign, encounter, "Mara Vey", [("Raider 1", 4)], spend_action=False)
    assert mara.last_shot is not None and mara.last_shot.aim == 0
    for _ in range(2):
        combat.end_round_patch(campaign, encounter, random.Random(1)).apply(campaign)
    assert combat.correctable_shot(encounter, mara) is None
    with pytest.raises(CombatError):
        combat.correction_patch(campaign, encounter, mara.id)


def test_the_aim_moved_to_a_target_in_the_same_position_keeps_the_referees_share() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    one, two = by_name(campaign, encounter, "Raider 1"), by_name(campaign, encounter,
                                                                 "Raider 2")
    for _ in range(3):
        combat.aim_patch(campaign, encounter, mara.id, one.id).apply(campaign)
    assert mara.aim == 3
    with pytest.raises(CombatError, match="0 to the aim"):
        combat.shift_aim_patch(campaign, encounter, mara.id, two.id, 4)
    combat.shift_aim_patch(campaign, encounter, mara.id, two.id, 2).apply(campaign)
    assert mara.aim == 2 and mara.aim_target_id == two.id and mara.actions_spent == 3
    assert encounter.log[-1].text == (
        "Mara Vey moves the aim from Raider 1 to Raider 2 in the same position and "
        "conditions: +2 of +3 kept (the referee's share, Ch.6 changing targets)")
    with pytest.raises(CombatError, match="already aims"):
        combat.shift_aim_patch(campaign, encounter, mara.id, two.id, 1)


def test_a_spotter_grants_two_conditions_to_the_attack() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    plain = combat.build_attack(campaign, encounter,
                                request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    spotted = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", [("Brute 1", 4)], spotter=True))
    assert spotted.difficulty.total == plain.difficulty.total - 2
    term = next(t for t in spotted.difficulty.terms if t.label == "Spotter")
    assert term.value == -2 and "call out coordinates" in term.rule
