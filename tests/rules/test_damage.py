"""Mitigation, damage rolls, rate of attack, armor, scale and cover (Ch.7 worked examples)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules import (
    DiceExpression,
    Scale,
    apply_armor,
    armored_distribution,
    clamp_distribution,
    cover_absorption,
    damage_rolls,
    expected_damage,
    expected_kept_damage,
    fail_damage_rolls,
    mitigate,
    parse_armor_rating,
    parse_dice,
    parse_hit_points,
    roll_damage,
    scale_immune,
    scaled_armor,
    scaled_hit_points,
)


def brute_expected(
    dice: DiceExpression, rolls: int, keep: int, armor: int, effect: int
) -> Fraction:
    """Enumerate every sequence of rolls, keep the best, apply armor per roll."""
    total = Fraction(0)
    outcomes = list(dice.distribution().items())
    for combo in product(outcomes, repeat=rolls):
        chance = Fraction(1)
        for _, p in combo:
            chance *= p
        best = sorted((value for value, _ in combo), reverse=True)[:keep]
        total += chance * sum(apply_armor(value, armor, effect) for value in best)
    return total


# --- mitigating factors --------------------------------------------------------------


def test_mitigation_worked_example() -> None:
    """Fail effect 7 (13 - 6); conditions 3 -> 4, cover 2 -> 2, skill 2 -> 0."""
    result = mitigate(7, conditions=3, cover=2, skill=2)
    assert (result.by_conditions, result.by_cover, result.by_skill, result.remaining) == (
        3,
        2,
        2,
        0,
    )
    assert result.ordinary_failure
    assert result.cover_rolls == 2


def test_mitigation_priorities_apply_in_order() -> None:
    result = mitigate(4, conditions=1, cover=5, skill=5)
    assert (result.by_conditions, result.by_cover, result.by_skill, result.remaining) == (
        1,
        3,
        0,
        0,
    )
    partial = mitigate(9, conditions=1, cover=2, skill=3)
    assert partial.remaining == 3
    assert not partial.ordinary_failure


def test_mitigation_rejects_negative_values() -> None:
    with pytest.raises(ValueError, match="cover"):
        mitigate(3, 0, -1, 0)
    with pytest.raises(ValueError, match="fail effect"):
        mitigate(-3, 0, 0, 0)


@given(
    fail_effect=st.integers(0, 40),
    conditions=st.integers(0, 20),
    cover=st.integers(0, 20),
    skill=st.integers(0, 20),
)
def test_mitigation_parts_add_up(fail_effect: int, conditions: int, cover: int, skill: int) -> None:
    result = mitigate(fail_effect, conditions, cover, skill)
    parts = (result.by_conditions, result.by_cover, result.by_skill, result.remaining)
    assert all(part >= 0 for part in parts)
    reduced = result.by_conditions + result.by_cover + result.by_skill
    assert reduced == min(fail_effect, conditions + cover + skill)
    assert reduced + result.remaining == fail_effect
    assert result.by_conditions == min(fail_effect, conditions)


# --- cover absorption ----------------------------------------------------------------


def test_shield_takes_two_of_three_rolls() -> None:
    """Fail effect 3 behind a shield of protection 2: the shield takes 2 rolls, the PC 1."""
    split = cover_absorption(3, 2)
    assert (split.cover_rolls, split.character_rolls) == (2, 1)
    via_mitigation = mitigate(3, conditions=0, cover=2, skill=0)
    assert (via_mitigation.cover_rolls, via_mitigation.remaining) == (2, 1)


def test_cover_that_is_strong_enough_takes_every_roll() -> None:
    split = cover_absorption(3, 5)
    assert (split.cover_rolls, split.character_rolls) == (3, 0)
    with pytest.raises(ValueError):
        cover_absorption(3, -1)


# --- damage rolls and rate of attack -------------------------------------------------


def test_automatic_rifle_effect_2_rate_4_rolls_three_times() -> None:
    assert damage_rolls(2, 4) == (3, 3)
    rifle = parse_dice("3d6-2")
    single = expected_kept_damage(rifle, 1, 1)
    assert expected_damage(rifle, 2, 4) == 3 * single


def test_success_effect_3_rate_3_keeps_three() -> None:
    assert damage_rolls(3, 3) == (4, 3)
    assert damage_rolls(3) == (4, 4)


def test_limited_rate_of_attack_keeps_the_two_highest_of_three() -> None:
    assert fail_damage_rolls(3, 2) == (3, 2)
    assert fail_damage_rolls(3, 3) == (3, 3)
    assert fail_damage_rolls(3) == (3, 3)
    assert fail_damage_rolls(0, 2) == (0, 0)


def test_damage_rolls_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="rate of attack"):
        damage_rolls(1, 0)
    with pytest.raises(ValueError, match="success effect"):
        damage_rolls(-1, 2)
    with pytest.raises(ValueError, match="fail effect"):
        fail_damage_rolls(-1, 2)


# --- armor -----------------------------------------------------------------------------


def test_armor_reduces_each_roll_never_below_zero() -> None:
    assert apply_armor(5, 3) == 2
    assert apply_armor(2, 3) == 0
    assert apply_armor(-1, 0) == 0
    with pytest.raises(ValueError):
        apply_armor(5, -1)


def test_effect_6_always_inflicts_one_point() -> None:
    assert apply_armor(2, 3, effect=6) == 1
    assert apply_armor(-1, 0, effect=6) == 1
    assert apply_armor(9, 3, effect=6) == 6
    assert apply_armor(2, 3, effect=5) == 0


def test_broadsword_against_armor_3_is_3d3_minus_5() -> None:
    """Success effect 1: two rolls of 3d3-2; against armor 3 each is 3d3-5."""
    broadsword = parse_dice("3d3-2")
    assert damage_rolls(1) == (2, 2)
    expected = clamp_distribution(broadsword.with_modifier(-3).distribution())
    assert armored_distribution(broadsword, 3) == expected
    assert str(broadsword.with_modifier(-3)) == "3d3-5"


def test_automatic_rifle_three_rolls_against_armor_5_is_3d6_minus_5() -> None:
    rifle = parse_dice("3d6")
    assert damage_rolls(3, 3)[1] == 3
    expected = clamp_distribution(rifle.with_modifier(-5).distribution())
    assert armored_distribution(rifle, 5) == expected


def test_flak_jacket_fail_effect_3_is_three_rolls_of_3d3_minus_6() -> None:
    broadsword = parse_dice("3d3-2")
    assert fail_damage_rolls(3, 3) == (3, 3)
    per_roll = armored_distribution(broadsword, 4)
    assert per_roll == clamp_distribution(broadsword.with_modifier(-4).distribution())
    assert str(broadsword.with_modifier(-4)) == "3d3-6"
    # 3d3-6 only hurts on 7+ (value 1: 6 ways, 2: 3 ways, 3: 1 way, out of 27).
    assert per_roll == {
        0: Fraction(17, 27),
        1: Fraction(6, 27),
        2: Fraction(3, 27),
        3: Fraction(1, 27),
    }
    assert expected_kept_damage(broadsword, 3, 3, armor=4) == 3 * Fraction(15, 27)


def test_armored_distribution_with_effect_6_has_no_zero() -> None:
    per_roll = armored_distribution(parse_dice("1d6"), armor=4, effect=6)
    assert per_roll == {1: Fraction(5, 6), 2: Fraction(1, 6)}


# --- scale -----------------------------------------------------------------------------


def test_scale_immunity_ignores_lesser_scales() -> None:
    assert scale_immune(Scale.DEKA, Scale.NONE)
    assert scale_immune(Scale.KILO, Scale.HEKA)
    assert not scale_immune(Scale.NONE, Scale.DEKA)
    assert not scale_immune(Scale.HEKA, Scale.HEKA)


def test_armor_and_hit_point_scale() -> None:
    assert scaled_armor(2, Scale.DEKA) == 20
    assert scaled_armor(9, Scale.HEKA) == 900
    assert scaled_armor(3, Scale.KILO) == 3000
    assert scaled_hit_points(20, Scale.DEKA) == 200
    assert scaled_hit_points(3, Scale.HEKA) == 300
    assert scaled_hit_points(67, Scale.KILO) == 67000
    with pytest.raises(ValueError):
        scaled_hit_points(-1, Scale.NONE)


@pytest.mark.parametrize(
    ("text", "value"),
    [("AR 5", 5), ("DAR 2", 20), ("HAR 9", 900), ("KAR 3", 3000), ("dar2", 20)],
)
def test_parse_armor_rating(text: str, value: int) -> None:
    assert parse_armor_rating(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [("21 HP", 21), ("20 DHP", 200), ("3 HHP", 300), ("67 KHP", 67000), ("5hp", 5)],
)
def test_parse_hit_points(text: str, value: int) -> None:
    assert parse_hit_points(text) == value


@pytest.mark.parametrize("text", ["", "AR", "XAR 3", "AR -2", "DAR two"])
def test_parse_armor_rating_rejects_nonsense(text: str) -> None:
    with pytest.raises(ValueError, match="armor rating"):
        parse_armor_rating(text)


@pytest.mark.parametrize("text", ["", "HP 20", "20 XHP", "-5 HP"])
def test_parse_hit_points_rejects_nonsense(text: str) -> None:
    with pytest.raises(ValueError, match="hit points"):
        parse_hit_points(text)


# --- rolling ---------------------------------------------------------------------------


def test_roll_damage_keeps_the_highest_and_applies_armor_per_roll() -> None:
    rifle = parse_dice("3d6-2")
    result = roll_damage(random.Random(3), rifle, rolls=5, keep=2, armor=4)
    assert len(result.rolls) == len(result.kept) == len(result.after_armor) == 5
    assert sum(result.kept) == 2
    kept_raw = [r for r, k in zip(result.rolls, result.kept, strict=True) if k]
    dropped_raw = [r for r, k in zip(result.rolls, result.kept, strict=True) if not k]
    assert min(kept_raw) >= max(dropped_raw)
    assert result.after_armor == tuple(max(0, r - 4) for r in result.rolls)
    assert result.total == sum(result.kept_damage)
    assert len(result.kept_damage) == 2


def test_roll_damage_ties_keep_the_earliest() -> None:
    flat = DiceExpression.flat(4)
    result = roll_damage(random.Random(0), flat, rolls=3, keep=2, armor=1)
    assert result.kept == (True, True, False)
    assert result.total == 6


def test_roll_damage_is_reproducible_and_validates() -> None:
    dice = parse_dice("2d6")
    first = roll_damage(random.Random(42), dice, 3, 3, armor=2, effect=6)
    second = roll_damage(random.Random(42), dice, 3, 3, armor=2, effect=6)
    assert first == second
    assert all(value >= 1 for value in first.after_armor)
    with pytest.raises(ValueError, match="keep"):
        roll_damage(random.Random(0), dice, 2, 3)
    with pytest.raises(ValueError, match="armor"):
        roll_damage(random.Random(0), dice, 2, 2, armor=-1)


@given(seed=st.integers(0, 10_000), rolls=st.integers(0, 6), data=st.data())
def test_roll_damage_total_is_sum_of_kept(seed: int, rolls: int, data: st.DataObject) -> None:
    keep = data.draw(st.integers(0, rolls))
    result = roll_damage(random.Random(seed), parse_dice("3d3-2"), rolls, keep, armor=1)
    assert sum(result.kept) == keep
    assert result.total == sum(result.kept_damage) >= 0


# --- exact expected damage -------------------------------------------------------------


def test_expected_damage_single_d6() -> None:
    assert expected_damage(parse_dice("1d6"), 0) == Fraction(7, 2)
    assert expected_damage(parse_dice("1d6"), 0, armor=3) == Fraction(1 + 2 + 3, 6)


def test_expected_best_of_two_d6() -> None:
    # E[max of 2d6 rolls] = 161/36.
    assert expected_kept_damage(parse_dice("1d6"), 2, 1) == Fraction(161, 36)
    assert expected_damage(parse_dice("1d6"), 1, 1) == Fraction(161, 36)


def test_expected_damage_with_scale_and_minimum() -> None:
    deka = parse_dice("D 1d3")
    assert expected_kept_damage(deka, 2, 2, armor=15) == brute_expected(deka, 2, 2, 15, 0)
    assert expected_damage(parse_dice("1d3-3"), 6) == 7 * 1  # seven rolls, each at least 1


def test_expected_kept_damage_of_nothing_is_zero() -> None:
    assert expected_kept_damage(parse_dice("3d6"), 0, 0) == 0
    assert expected_kept_damage(parse_dice("3d6"), 4, 0) == 0
    with pytest.raises(ValueError):
        expected_kept_damage(parse_dice("3d6"), 2, 3)
    with pytest.raises(ValueError):
        armored_distribution(parse_dice("3d6"), -2)


@given(
    count=st.integers(1, 2),
    sides=st.integers(2, 4),
    modifier=st.integers(-4, 3),
    rolls=st.integers(0, 4),
    armor=st.integers(0, 4),
    effect=st.sampled_from([0, 5, 6, 9]),
    data=st.data(),
)
def test_expected_kept_damage_matches_brute_force(
    count: int,
    sides: int,
    modifier: int,
    rolls: int,
    armor: int,
    effect: int,
    data: st.DataObject,
) -> None:
    keep = data.draw(st.integers(0, rolls))
    dice = DiceExpression(count, sides, modifier)
    exact = expected_kept_damage(dice, rolls, keep, armor, effect)
    assert isinstance(exact, Fraction)
    assert exact == brute_expected(dice, rolls, keep, armor, effect)


@given(st.integers(0, 8), st.integers(0, 30), st.integers(1, 30), st.integers(0, 8))
def test_expected_min_binomial_matches_the_term_by_term_sum(n, a, b, k) -> None:
    """The one-denominator integer sum gives exactly the textbook sum of Fractions."""
    from math import comb

    from mneme_desktop.rules.damage import _expected_min_binomial

    p = Fraction(min(a, b), b)
    textbook = sum((comb(n, i) * p**i * (1 - p) ** (n - i) * min(i, k) for i in range(n + 1)),
                   Fraction(0))
    assert _expected_min_binomial(n, p, k) == textbook
