"""Hit points, wound thresholds, penalties, bleeding, dying and targeted damage (Ch.7)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import pairwise, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules import (
    BLEED_INTERVAL_ROUNDS,
    DYING_DIFFICULTY,
    MASSIVE_DAMAGE_DIFFICULTY,
    BodyArea,
    TargetedEffect,
    ThresholdBasis,
    WoundState,
    WoundThresholds,
    bleeding_damage_between,
    bleeds,
    dying_roll_modifier,
    dying_survival_chance,
    hit_points,
    is_massive_damage,
    massive_damage_survival_chance,
    next_bleed_round,
    roll_dying,
    roll_massive_damage,
    targeted_damage_effect,
    targeted_damage_threshold,
    wound_effects,
    wound_penalty,
    wound_state,
    wound_thresholds,
)


def chance_2d6_at_least(target: int) -> Fraction:
    """Independent brute force over the 36 outcomes of 2d6."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= target)
    return Fraction(hits, 36)


def test_hit_points_are_str_plus_dex_plus_end() -> None:
    assert hit_points(7, 7, 7) == 21
    assert hit_points(9, 10, 4) == 23


def test_hit_points_reject_negative_characteristics() -> None:
    with pytest.raises(ValueError, match="DEX"):
        hit_points(7, -1, 7)


@pytest.mark.parametrize(
    ("damage", "state"),
    [
        (0, WoundState.UNHURT),
        (1, WoundState.WOUNDED),
        (6, WoundState.WOUNDED),
        (7, WoundState.SERIOUSLY_WOUNDED),
        (13, WoundState.SERIOUSLY_WOUNDED),
        (14, WoundState.CRITICALLY_WOUNDED),
        (21, WoundState.CRITICALLY_WOUNDED),
        (22, WoundState.DYING),
        (60, WoundState.DYING),
    ],
)
def test_hp_21_thresholds(damage: int, state: WoundState) -> None:
    thresholds = wound_thresholds(21)
    assert (thresholds.seriously, thresholds.critically, thresholds.dying) == (7, 14, 22)
    assert wound_state(damage, 21) is state


@pytest.mark.parametrize("hp", [3, 10, 17, 21, 30, 45])
def test_damage_equal_to_hp_is_critically_wounded(hp: int) -> None:
    assert wound_state(hp, hp) is WoundState.CRITICALLY_WOUNDED
    assert wound_state(hp + 1, hp) is WoundState.DYING


def test_hp_fractions_round_down() -> None:
    thresholds = wound_thresholds(17)
    assert (thresholds.seriously, thresholds.critically) == (5, 11)
    assert thresholds.seriously_rule == "Seriously wounded: damage >= floor(HP/3) = 5"
    assert thresholds.critically_rule == "Critically wounded: damage >= floor(2 x HP/3) = 11"
    assert thresholds.dying_rule == "Dying: damage > HP = 17"
    assert thresholds.wounded_rule == "Wounded: any damage (damage >= 1)"


@pytest.mark.parametrize(("hp", "seriously", "critically"), [(1, 1, 1), (2, 1, 1), (3, 1, 2)])
def test_tiny_hp_never_makes_zero_damage_a_wound(hp: int, seriously: int, critically: int) -> None:
    thresholds = wound_thresholds(hp)
    assert (thresholds.seriously, thresholds.critically) == (seriously, critically)
    assert wound_state(0, hp) is WoundState.UNHURT


def test_tiny_hp_rule_text_shows_the_floor_of_one() -> None:
    two = wound_thresholds(2)
    assert two.seriously_rule == "Seriously wounded: damage >= max(1, floor(HP/3)) = 1"
    assert two.critically_rule == "Critically wounded: damage >= floor(2 x HP/3) = 1"
    one = wound_thresholds(1)
    assert one.critically_rule == (
        "Critically wounded: damage >= max(seriously, floor(2 x HP/3)) = 1"
    )


def test_characteristic_basis_uses_best_physical_characteristic() -> None:
    thresholds = wound_thresholds(21, ThresholdBasis.CHARACTERISTIC, (9, 7, 5))
    assert (thresholds.seriously, thresholds.critically) == (9, 18)
    assert thresholds.basis is ThresholdBasis.CHARACTERISTIC
    assert thresholds.seriously_rule == (
        "Seriously wounded: damage >= best physical characteristic = 9"
    )
    assert thresholds.critically_rule == (
        "Critically wounded: damage >= 2 x best physical characteristic = 18"
    )
    assert wound_state(8, 21, thresholds) is WoundState.WOUNDED
    assert wound_state(9, 21, thresholds) is WoundState.SERIOUSLY_WOUNDED
    assert wound_state(18, 21, thresholds) is WoundState.CRITICALLY_WOUNDED


def test_characteristic_basis_caps_critical_at_hp() -> None:
    thresholds = wound_thresholds(17, ThresholdBasis.CHARACTERISTIC, (15, 1, 1))
    assert (thresholds.seriously, thresholds.critically) == (15, 17)
    assert "min(2 x best physical characteristic, HP) = 17" in thresholds.critically_rule
    assert wound_state(17, 17, thresholds) is WoundState.CRITICALLY_WOUNDED


def test_characteristic_basis_needs_the_characteristics() -> None:
    with pytest.raises(ValueError, match="physical characteristics"):
        wound_thresholds(21, ThresholdBasis.CHARACTERISTIC)
    with pytest.raises(ValueError, match="negative"):
        wound_thresholds(21, ThresholdBasis.CHARACTERISTIC, (7, -7, 7))


def test_thresholds_must_match_hp() -> None:
    with pytest.raises(ValueError, match="HP 20"):
        wound_state(3, 21, wound_thresholds(20))


@pytest.mark.parametrize(
    ("seriously", "critically", "hp"), [(0, 1, 3), (2, 1, 3), (1, 4, 3), (1, 1, 0)]
)
def test_inconsistent_thresholds_are_rejected(seriously: int, critically: int, hp: int) -> None:
    with pytest.raises(ValueError):
        WoundThresholds(seriously, critically, hp)


def test_bad_damage_and_hp_are_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        wound_state(-1, 21)
    with pytest.raises(ValueError, match="at least 1"):
        wound_thresholds(0)


def test_rule_for_each_state() -> None:
    thresholds = wound_thresholds(21)
    assert thresholds.rule_for(WoundState.UNHURT) == "Unhurt: no damage"
    assert thresholds.rule_for(WoundState.DYING) == "Dying: damage > HP = 21"
    with pytest.raises(ValueError, match="Dead"):
        thresholds.rule_for(WoundState.DEAD)


def test_states_have_labels_and_order() -> None:
    assert WoundState.SERIOUSLY_WOUNDED.label == "Seriously Wounded"
    severities = [state.severity for state in WoundState]
    assert severities == sorted(severities) == list(range(6))


@pytest.mark.parametrize(
    ("damage", "penalty"), [(0, 0), (2, 0), (3, -1), (5, -1), (8, -2), (22, -7)]
)
def test_wound_penalty_every_3_damage(damage: int, penalty: int) -> None:
    assert wound_penalty(damage) == penalty


def test_wound_penalty_rejects_negative_damage() -> None:
    with pytest.raises(ValueError):
        wound_penalty(-3)


def test_bleeding_from_one_roll_of_a_third_of_hp() -> None:
    assert bleeds(7, 21)
    assert not bleeds(6, 21)
    assert not bleeds(0, 1)
    assert bleeds(1, 2)
    with pytest.raises(ValueError):
        bleeds(-1, 21)


def test_bleeding_one_point_a_minute_starting_a_minute_later() -> None:
    assert BLEED_INTERVAL_ROUNDS == 10
    assert bleeding_damage_between(0, 0, 9) == 0
    assert bleeding_damage_between(0, 0, 10) == 1
    assert bleeding_damage_between(0, 0, 30) == 3
    assert bleeding_damage_between(5, 0, 15) == 1
    assert bleeding_damage_between(5, 15, 24) == 0
    assert bleeding_damage_between(5, 15, 25) == 1
    assert bleeding_damage_between(20, 0, 10) == 0
    with pytest.raises(ValueError):
        bleeding_damage_between(0, 10, 5)


def test_next_bleed_round() -> None:
    assert next_bleed_round(3, 0) == 13
    assert next_bleed_round(3, 3) == 13
    assert next_bleed_round(3, 12) == 13
    assert next_bleed_round(3, 13) == 23


@given(
    start=st.integers(-50, 50),
    cuts=st.lists(st.integers(-60, 200), min_size=2, max_size=6),
)
def test_bleeding_adds_up_over_any_split(start: int, cuts: list[int]) -> None:
    cuts.sort()
    pieces = sum(bleeding_damage_between(start, a, b) for a, b in pairwise(cuts))
    assert pieces == bleeding_damage_between(start, cuts[0], cuts[-1])


def test_dying_roll_is_end_vs_4_with_wound_penalties() -> None:
    assert DYING_DIFFICULTY == 4
    # END 7 (ChM +0), HP 21, damage 22 (penalty -7): 2d6 - 7 >= 4 needs 11+.
    assert dying_roll_modifier(7, 22) == -7
    assert dying_survival_chance(7, 22) == chance_2d6_at_least(11) == Fraction(1, 12)
    # END 12 (ChM +2), damage 10 (penalty -3): needs 5+.
    assert dying_survival_chance(12, 10) == chance_2d6_at_least(5)


def test_roll_dying_outcome_follows_the_check() -> None:
    rng = random.Random(7)
    outcomes = set()
    for _ in range(200):
        roll = roll_dying(rng, 7, 22)
        assert roll.check.modifier == -7
        assert roll.check.difficulty == DYING_DIFFICULTY
        assert roll.survived == (roll.check.total >= 4)
        assert roll.outcome is (WoundState.DYING if roll.survived else WoundState.DEAD)
        outcomes.add(roll.outcome)
    assert outcomes == {WoundState.DYING, WoundState.DEAD}


def test_massive_damage_is_more_than_hp_from_one_attack() -> None:
    assert is_massive_damage(22, 21)
    assert not is_massive_damage(21, 21)
    with pytest.raises(ValueError):
        is_massive_damage(-1, 21)
    with pytest.raises(ValueError):
        is_massive_damage(5, 0)


def test_massive_damage_roll_is_end_vs_8_with_wound_penalties() -> None:
    assert MASSIVE_DAMAGE_DIFFICULTY == 8
    # END 15 (+3), total damage 9 (-3): 2d6 >= 8.
    assert massive_damage_survival_chance(15, 9) == chance_2d6_at_least(8)
    # END 10 (+1), damage 22 (-7): needs 14 on 2d6, impossible.
    assert massive_damage_survival_chance(10, 22) == 0
    roll = roll_massive_damage(random.Random(1), 15, 9)
    assert roll.check.modifier == 0
    assert roll.check.difficulty == 8
    assert roll.survived == (roll.check.total >= 8)


def test_wound_effects() -> None:
    serious = wound_effects(WoundState.SERIOUSLY_WOUNDED)
    assert serious.movement == Fraction(3, 4)
    assert not serious.can_dash
    assert serious.conscious
    critical = wound_effects(WoundState.CRITICALLY_WOUNDED)
    assert not critical.conscious and not critical.mobile
    dying = wound_effects(WoundState.DYING)
    assert dying.dying_rolls and not dying.mobile and not dying.conscious
    assert "intensive care" in dying.care_note
    assert wound_effects(WoundState.WOUNDED).can_dash
    assert not wound_effects(WoundState.DEAD).conscious


@pytest.mark.parametrize(
    ("area", "hp", "threshold", "effect"),
    [
        (BodyArea.LIMB, 21, 7, TargetedEffect.CRIPPLED),
        (BodyArea.EXTREMITY, 21, 2, TargetedEffect.CRIPPLED),
        (BodyArea.HEAD, 21, 2, TargetedEffect.STUNNED),
        (BodyArea.VITALS, 30, 3, TargetedEffect.BLEEDING),
        (BodyArea.HEAD, 9, 1, TargetedEffect.STUNNED),
    ],
)
def test_targeted_damage(area: BodyArea, hp: int, threshold: int, effect: TargetedEffect) -> None:
    assert targeted_damage_threshold(area, hp) == threshold
    assert targeted_damage_effect(area, threshold, hp) is effect
    assert targeted_damage_effect(area, threshold - 1, hp) is None


def test_body_hits_have_no_targeted_effect() -> None:
    assert targeted_damage_threshold(BodyArea.BODY, 21) is None
    assert targeted_damage_effect(BodyArea.BODY, 50, 21) is None


def test_targeted_damage_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        targeted_damage_effect(BodyArea.LIMB, -1, 21)
    with pytest.raises(ValueError):
        targeted_damage_threshold(BodyArea.LIMB, 0)


@given(
    hp=st.integers(1, 200),
    physical=st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)),
    basis=st.sampled_from(ThresholdBasis),
)
def test_thresholds_are_ordered_and_states_monotone(
    hp: int, physical: tuple[int, int, int], basis: ThresholdBasis
) -> None:
    thresholds = wound_thresholds(hp, basis, physical)
    assert 1 <= thresholds.seriously <= thresholds.critically <= hp
    severities = [wound_state(d, hp, thresholds).severity for d in range(hp + 3)]
    assert severities == sorted(severities)
    assert wound_state(hp, hp, thresholds) is WoundState.CRITICALLY_WOUNDED
