"""Dice expressions and exact odds (Ch.3 dice, Ch.7 damage notation and scale)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules import dice as dice_module
from mneme_desktop.rules.dice import (
    MAX_DICE,
    DiceExpression,
    DiceParseError,
    Scale,
    clamp_distribution,
    clamp_roll,
    distribution_mean,
    keep_distribution,
    parse_dice,
    roll_keep,
    roll_two_d6,
    sum_distribution,
    two_d6_distribution,
)


def brute_sum(count: int, sides: int) -> dict[int, Fraction]:
    outcomes = list(itertools.product(range(1, sides + 1), repeat=count))
    result: dict[int, Fraction] = {}
    for faces in outcomes:
        result[sum(faces)] = result.get(sum(faces), Fraction(0)) + Fraction(1, len(outcomes))
    return result


def brute_keep(count: int, sides: int, keep: int, highest: bool) -> dict[int, Fraction]:
    outcomes = list(itertools.product(range(1, sides + 1), repeat=count))
    result: dict[int, Fraction] = {}
    for faces in outcomes:
        total = sum(sorted(faces, reverse=highest)[:keep])
        result[total] = result.get(total, Fraction(0)) + Fraction(1, len(outcomes))
    return result


# --- Scale ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "prefix", "multiplier", "label"),
    [
        (Scale.NONE, "", 1, "personal"),
        (Scale.DEKA, "D", 10, "Deka"),
        (Scale.HEKA, "H", 100, "Heka"),
        (Scale.KILO, "K", 1000, "Kilo"),
    ],
)
def test_scale_prefix_and_multiplier(
    scale: Scale, prefix: str, multiplier: int, label: str
) -> None:
    assert scale.prefix == prefix
    assert scale.multiplier == multiplier
    assert scale.label == label
    assert Scale.from_prefix(prefix.lower()) is scale


def test_scale_from_unknown_prefix() -> None:
    with pytest.raises(ValueError, match="unknown scale prefix 'X'"):
        Scale.from_prefix("X")


# --- parsing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier", "scale", "canonical"),
    [
        ("3d6", 3, 6, 0, Scale.NONE, "3d6"),
        ("3d3-2", 3, 3, -2, Scale.NONE, "3d3-2"),
        ("2d6+1", 2, 6, 1, Scale.NONE, "2d6+1"),
        ("1d6", 1, 6, 0, Scale.NONE, "1d6"),
        ("d6", 1, 6, 0, Scale.NONE, "1d6"),
        ("D6", 1, 6, 0, Scale.NONE, "1d6"),
        ("2D6", 2, 6, 0, Scale.NONE, "2d6"),
        ("d 6", 1, 6, 0, Scale.NONE, "1d6"),
        ("4", 0, 0, 4, Scale.NONE, "4"),
        ("-2", 0, 0, -2, Scale.NONE, "-2"),
        ("+3", 0, 0, 3, Scale.NONE, "3"),
        ("D 3d3", 3, 3, 0, Scale.DEKA, "D 3d3"),
        ("H 2d6-2", 2, 6, -2, Scale.HEKA, "H 2d6-2"),
        ("K 5d6-4", 5, 6, -4, Scale.KILO, "K 5d6-4"),
        ("h2d6", 2, 6, 0, Scale.HEKA, "H 2d6"),
        ("D 4", 0, 0, 4, Scale.DEKA, "D 4"),
        ("  3 d 6 − 1  ", 3, 6, -1, Scale.NONE, "3d6-1"),
        ("3d6–1", 3, 6, -1, Scale.NONE, "3d6-1"),
        ("3d3-2-3", 3, 3, -5, Scale.NONE, "3d3-5"),
        ("2d6 + 1 + 1", 2, 6, 2, Scale.NONE, "2d6+2"),
        ("100d100", 100, 100, 0, Scale.NONE, "100d100"),
    ],
)
def test_parse_dice(
    text: str, count: int, sides: int, modifier: int, scale: Scale, canonical: str
) -> None:
    expression = parse_dice(text)
    assert expression == DiceExpression(count, sides, modifier, scale)
    assert str(expression) == canonical
    assert parse_dice(str(expression)) == expression


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("3d", 3, "expected a number of sides after 'd'"),
        ("", 1, "empty dice expression"),
        ("   ", 4, "empty dice expression"),
        ("3d6+", 5, "expected a number after '+'"),
        ("3d1", 3, "a die must have 2..100 sides, got 1"),
        ("3d101", 3, "a die must have 2..100 sides"),
        ("0d6", 1, "need at least 1 die"),
        ("101d6", 1, "at most 100 dice"),
        ("x", 1, "expected a number of dice or 'd', found 'x'"),
        ("3d6 2", 5, "expected '+' or '-', found '2'"),
        ("3d6*2", 4, "expected '+' or '-', found '*'"),
        ("-1d6", 1, "a signed number cannot be a number of dice"),
        ("3d6+2d6", 5, "only one group of dice"),
        ("2000", 1, "number is larger than 1000"),
        ("3d6+999+2", 9, "modifier is larger than 1000"),
        ("H", 2, "expected a number of dice or 'd', found end of text"),
        ("3dx", 3, "expected a number of sides after 'd', found 'x'"),
        ("-", 2, "expected a number after the sign"),
        ("D3d3", 3, "expected '+' or '-', found 'd' (write a Deka prefix with a space"),
        ("2d6d", 4, "expected '+' or '-', found 'd'"),
    ],
)
def test_parse_errors_say_what_and_where(text: str, position: int, fragment: str) -> None:
    with pytest.raises(DiceParseError) as caught:
        parse_dice(text)
    error = caught.value
    assert error.position == position
    assert fragment in error.reason
    assert f"at position {position} in {text!r}" in str(error)
    assert error.text == text
    assert isinstance(error, ValueError)


def test_parse_error_example_from_brief() -> None:
    with pytest.raises(
        DiceParseError, match=r"expected a number of sides after 'd'.*at position 3 in '3d'"
    ):
        parse_dice("3d")


# --- DiceExpression ---------------------------------------------------------------------


def test_expression_validation() -> None:
    with pytest.raises(ValueError, match="0 sides"):
        DiceExpression(0, 6)
    with pytest.raises(ValueError, match=r"2\.\.100 sides"):
        DiceExpression(1, 1)
    with pytest.raises(ValueError, match="number of dice"):
        DiceExpression(MAX_DICE + 1, 6)
    with pytest.raises(ValueError, match="number of dice"):
        DiceExpression(-1, 6)
    with pytest.raises(TypeError, match="scale must be a Scale"):
        DiceExpression(1, 6, 0, "D")  # type: ignore[arg-type]


def test_minimum_maximum_mean_are_scaled() -> None:
    broadsword = parse_dice("3d3-2")
    assert (broadsword.minimum, broadsword.maximum, broadsword.mean) == (1, 7, 4)
    heka = parse_dice("H 2d6-2")
    assert (heka.minimum, heka.maximum, heka.mean) == (0, 1000, 500)
    kilo = parse_dice("K 5d6-4")
    assert (kilo.minimum, kilo.maximum) == (1000, 26000)
    assert kilo.mean == Fraction(27, 2) * 1000
    deka = parse_dice("D 3d3")
    assert (deka.minimum, deka.maximum, deka.mean) == (30, 90, 60)


def test_flat_expression() -> None:
    four = DiceExpression.flat(4)
    assert four.is_flat
    assert not parse_dice("1d6").is_flat
    assert four.distribution() == {4: Fraction(1)}
    assert four.roll(random.Random(1)) == 4
    assert four.mean == 4
    assert DiceExpression.flat(4, Scale.DEKA).distribution() == {40: Fraction(1)}


def test_with_modifier_applies_armor() -> None:
    # Ch.7: a 3d3-2 broadsword against Armor 3 rolls 3d3-5; against a Flak Jacket (4), 3d3-6.
    assert str(parse_dice("3d3-2").with_modifier(-3)) == "3d3-5"
    assert str(parse_dice("3d3-2").with_modifier(-4)) == "3d3-6"
    assert str(parse_dice("3d6").with_modifier(-5)) == "3d6-5"
    assert str(parse_dice("3d6-2").with_modifier(2)) == "3d6"
    assert parse_dice("D 3d3").with_modifier(-1).scale is Scale.DEKA
    assert parse_dice("3d6").with_scale(Scale.KILO) == parse_dice("K 3d6")


def test_distribution_is_scaled() -> None:
    assert parse_dice("D 1d2").distribution() == {10: Fraction(1, 2), 20: Fraction(1, 2)}


def test_roll_detailed_keeps_each_die() -> None:
    rng = random.Random(7)
    rolled = parse_dice("H 3d6-2").roll_detailed(rng)
    assert len(rolled.dice) == 3
    assert all(1 <= face <= 6 for face in rolled.dice)
    assert rolled.modifier == -2
    assert rolled.multiplier == 100
    assert rolled.total == (sum(rolled.dice) - 2) * 100


def test_roll_is_reproducible_with_seeded_rng() -> None:
    expression = parse_dice("5d6+1")
    first = [expression.roll(random.Random(42)) for _ in range(3)]
    assert first == [expression.roll(random.Random(42))] * 3


def test_roll_can_go_negative_and_clamp_floors_it() -> None:
    low = parse_dice("1d3-5")
    assert low.maximum == -2
    value = low.roll(random.Random(3))
    assert value < 0
    assert clamp_roll(value) == 0
    assert clamp_roll(5) == 5
    assert clamp_roll(-2, minimum=1) == 1


def test_clamp_distribution_gathers_low_outcomes() -> None:
    clamped = clamp_distribution(parse_dice("3d3-5").distribution())
    # 3d3-5 ranges -2..4: -2, -1 and 0 all become 0.
    assert clamped[0] == Fraction(1 + 3 + 6, 27)
    assert sum(clamped.values()) == 1
    assert min(clamped) == 0
    assert list(clamped) == sorted(clamped)


# --- exact helpers ----------------------------------------------------------------------


def test_two_d6_plain_matches_known_odds() -> None:
    odds = two_d6_distribution()
    assert odds[7] == Fraction(1, 6)
    assert odds[2] == odds[12] == Fraction(1, 36)
    assert distribution_mean(odds) == 7


def test_advantage_keeps_two_highest_of_three() -> None:
    odds = two_d6_distribution(1)
    assert odds == brute_keep(3, 6, 2, highest=True)
    assert odds[12] == Fraction(16, 216)  # at least two sixes among three dice
    assert two_d6_distribution(-1) == brute_keep(3, 6, 2, highest=False)
    assert two_d6_distribution(-1)[2] == Fraction(16, 216)
    assert two_d6_distribution(2) == brute_keep(4, 6, 2, highest=True)


def test_large_advantage_pool_is_exact_and_fast() -> None:
    odds = two_d6_distribution(12)
    assert sum(odds.values()) == 1
    assert odds[2] == Fraction(1, 6**14)


def test_advantage_limit() -> None:
    with pytest.raises(ValueError, match="net advantage"):
        two_d6_distribution(MAX_DICE)
    with pytest.raises(ValueError, match="net advantage"):
        roll_two_d6(random.Random(1), -MAX_DICE)


def test_sum_distribution_zero_dice_and_validation() -> None:
    assert sum_distribution(0, 6) == {0: Fraction(1)}
    with pytest.raises(ValueError, match="sides"):
        sum_distribution(2, 0)
    with pytest.raises(ValueError, match="number of dice"):
        sum_distribution(-1, 6)


def test_keep_distribution_validation() -> None:
    with pytest.raises(ValueError, match=r"can keep 1\.\.3 of 3"):
        keep_distribution(3, 6, 4)
    with pytest.raises(ValueError, match="can keep"):
        keep_distribution(3, 6, 0)
    with pytest.raises(ValueError, match="number of dice"):
        keep_distribution(0, 6, 1)
    with pytest.raises(ValueError, match="can keep"):
        roll_keep(random.Random(1), 2, 6, 3)


def test_cached_results_cannot_be_corrupted_by_callers() -> None:
    first = sum_distribution(2, 6)
    first[7] = Fraction(0)
    assert sum_distribution(2, 6)[7] == Fraction(1, 6)
    assert dice_module._sum_counts.cache_info().hits >= 1


def test_roll_keep_reports_all_dice() -> None:
    rolled = roll_keep(random.Random(5), 5, 6, 2, highest=False)
    assert len(rolled.dice) == 5
    assert sorted(rolled.kept) == sorted(rolled.dice)[:2]
    assert rolled.total == sum(rolled.kept)
    advantage = roll_two_d6(random.Random(5), 2)
    assert len(advantage.dice) == 4
    assert sorted(advantage.kept) == sorted(advantage.dice)[-2:]


# --- properties -------------------------------------------------------------------------

small_dice = st.integers(min_value=0, max_value=4)
small_sides = st.integers(min_value=1, max_value=6)


@given(small_dice, small_sides)
def test_sum_distribution_matches_brute_force(count: int, sides: int) -> None:
    odds = sum_distribution(count, sides)
    assert odds == brute_sum(count, sides)
    assert sum(odds.values()) == 1


@given(
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=1, max_value=6),
    st.data(),
    st.booleans(),
)
def test_keep_distribution_matches_brute_force(
    count: int, sides: int, data: st.DataObject, highest: bool
) -> None:
    keep = data.draw(st.integers(min_value=1, max_value=count))
    odds = keep_distribution(count, sides, keep, highest)
    assert odds == brute_keep(count, sides, keep, highest)
    assert sum(odds.values()) == 1


@given(st.integers(min_value=-6, max_value=6))
def test_two_d6_distribution_sums_to_one(advantage: int) -> None:
    odds = two_d6_distribution(advantage)
    assert sum(odds.values()) == 1
    assert min(odds) == 2
    assert max(odds) == 12


expressions = st.builds(
    DiceExpression,
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=2, max_value=20),
    st.integers(min_value=-1000, max_value=1000),
    st.sampled_from(list(Scale)),
) | st.builds(
    DiceExpression.flat,
    st.integers(min_value=-1000, max_value=1000),
    st.sampled_from(list(Scale)),
)


@given(expressions)
def test_str_round_trips(expression: DiceExpression) -> None:
    assert parse_dice(str(expression)) == expression


@given(expressions, st.integers(min_value=0, max_value=2**32))
def test_rolls_stay_within_bounds(expression: DiceExpression, seed: int) -> None:
    value = expression.roll(random.Random(seed))
    assert expression.minimum <= value <= expression.maximum
    assert (value // expression.scale.multiplier) * expression.scale.multiplier == value


@given(expressions)
def test_expression_distribution_is_consistent(expression: DiceExpression) -> None:
    if expression.count > 6:
        return  # the exact convolution is covered for smaller pools; keep this test quick
    odds = expression.distribution()
    assert sum(odds.values()) == 1
    assert min(odds) == expression.minimum
    assert max(odds) == expression.maximum
    assert distribution_mean(odds) == expression.mean


@given(st.text(max_size=12))
def test_parse_either_succeeds_or_reports_a_position(text: str) -> None:
    try:
        expression = parse_dice(text)
    except DiceParseError as error:
        assert 1 <= error.position <= len(text) + 1
    else:
        assert parse_dice(str(expression)) == expression
