"""The readings of issue 17 that change a number, checked where the number is made: aim on
melee attacks, the Effect 6+ minimum on a Fail Effect's hits, targeted thresholds rounded
down, a split rate of attack (docs/rules.md, "Readings settled")."""

from __future__ import annotations

import random

from mneme_desktop.domain import combat
from mneme_desktop.domain.combat.attack_spec import MELEE_AIM_READING
from mneme_desktop.rules.checks import TermKind
from mneme_desktop.rules.damage import apply_armor, damage_rolls
from mneme_desktop.rules.hit_locations import BodyArea
from mneme_desktop.rules.wounds import targeted_damage_divisor, targeted_damage_threshold
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign, request


def test_aim_does_not_count_on_a_melee_attack_and_is_kept() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    ilse, raider = by_name(campaign, encounter, "Ilse Brandt"), by_name(campaign, encounter,
                                                                       "Raider 1")
    combat.aim_patch(campaign, encounter, ilse.id, raider.id).apply(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Ilse Brandt", [("Raider 1", 1)]))
    assert spec.keeps_aim
    assert not any(t.kind is TermKind.AIM for t in spec.difficulty.terms)
    assert f"Aim +1 not used and kept: {MELEE_AIM_READING}" in spec.options
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(3))
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    assert ilse.aim == 1 and ilse.aim_target_id == raider.id and ilse.last_shot is None


def test_the_fail_effects_hits_take_the_effect_6_minimum_after_mitigation() -> None:
    """The Fail Effect left after mitigation is the Effect of the hits it makes."""
    assert apply_armor(3, 4, effect=6) == 1  # a fail effect of 6 left: at least 1
    assert apply_armor(3, 4, effect=5) == 0


def test_targeted_thresholds_are_rounded_down_and_at_least_one() -> None:
    assert targeted_damage_threshold(BodyArea.LIMB, 23) == 7 == 23 // targeted_damage_divisor(
        BodyArea.LIMB)
    assert targeted_damage_threshold(BodyArea.HEAD, 19) == 1
    assert targeted_damage_threshold(BodyArea.EXTREMITY, 5) == 1  # never 0
    assert targeted_damage_divisor(BodyArea.BODY) is None


def test_a_split_rate_of_attack_rolls_1_plus_effect_per_target_within_each_share() -> None:
    """Effect 1, rate 4 split 2 + 2: each target takes 2 rolls, 4 kept in all; on one target
    2 rolls; never more kept in all than the rate declared."""
    split = [damage_rolls(1, 2), damage_rolls(1, 2)]
    assert sum(kept for _rolled, kept in split) == 4
    assert damage_rolls(1, 4) == (2, 2)
    assert sum(kept for _r, kept in [damage_rolls(9, 2), damage_rolls(9, 2)]) == 4
