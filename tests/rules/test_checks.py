"""Checks (Ch.3): characteristic modifiers, difficulty, odds, effects, options, time."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    UNSKILLED,
    CheckResult,
    CoverLevel,
    Difficulty,
    DifficultyTerm,
    SuperiorityKind,
    TermKind,
    attack_difficulty,
    characteristic_modifier,
    check_from_dice,
    costly_success,
    difficulty_label,
    effect,
    effect_distribution,
    from_pseudo_hex,
    net_advantage,
    pseudo_hex,
    reckless,
    reckless_effect,
    resolve_time,
    roll_check,
    success_chance,
    superiority_modifier,
    time_modifier_source,
    time_multiplier,
    upp,
)

# --- characteristics --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "chm"),
    [
        (range(0, 3), -2),
        (range(3, 6), -1),
        (range(6, 9), 0),
        (range(9, 12), 1),
        (range(12, 15), 2),
        (range(15, 18), 3),
        (range(18, 21), 4),
    ],
)
def test_chm_table(values: range, chm: int) -> None:
    for value in values:
        assert characteristic_modifier(value) == chm


def test_chm_book_examples() -> None:
    assert characteristic_modifier(9) == 1  # STR 9 = +1
    assert characteristic_modifier(7) == 0  # DEX 7 = +0


def test_chm_below_zero_keeps_flooring() -> None:
    assert characteristic_modifier(-1) == -3
    assert characteristic_modifier(-3) == -3
    assert characteristic_modifier(-4) == -4


def test_pseudo_hex_digits() -> None:
    assert [pseudo_hex(v) for v in range(10)] == list("0123456789")
    assert pseudo_hex(10) == "A"
    assert pseudo_hex(15) == "F"
    assert pseudo_hex(16) == "G"
    assert pseudo_hex(17) == "H"
    assert pseudo_hex(18) == "J"  # I is skipped
    assert pseudo_hex(22) == "N"
    assert pseudo_hex(23) == "P"  # O is skipped
    assert pseudo_hex(33) == "Z"
    with pytest.raises(ValueError, match=r"0\.\.33"):
        pseudo_hex(34)
    with pytest.raises(ValueError, match=r"0\.\.33"):
        pseudo_hex(-1)


def test_pseudo_hex_round_trip_and_rejects_i_and_o() -> None:
    for value in range(34):
        assert from_pseudo_hex(pseudo_hex(value)) == value
        assert from_pseudo_hex(pseudo_hex(value).lower()) == value
    for bad in ("I", "O", "", "10", "?"):
        with pytest.raises(ValueError, match="is not a UPP digit"):
            from_pseudo_hex(bad)


def test_upp() -> None:
    assert upp([7, 8, 9, 10, 8, 7]) == "789A87"
    assert upp([15, 12, 11, 1, 0, 9, 14]) == "FCB109E"
    assert upp([]) == ""


# --- difficulty -------------------------------------------------------------------------


def test_difficulty_ladder() -> None:
    ladder = [(d.value, d.label, d.modifier) for d in Difficulty]
    assert ladder == [
        (4, "Easy", 4),
        (6, "Routine", 2),
        (8, "Average", 0),
        (10, "Difficult", -2),
        (12, "Very Difficult", -4),
        (14, "Formidable", -6),
    ]
    assert DEFAULT_DIFFICULTY == Difficulty.AVERAGE == 8
    assert UNSKILLED == -3


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (8, "Average"),
        (12, "Very Difficult"),
        (9, "Average +1"),
        (15, "Formidable +1"),
        (17, "Formidable +3"),
        (3, "Easy -1"),
        (5, "Easy +1"),
    ],
)
def test_difficulty_label(value: int, label: str) -> None:
    assert difficulty_label(value) == label


# --- advantage and odds -----------------------------------------------------------------


def test_net_advantage_cancels_one_for_one() -> None:
    assert net_advantage(2, 1) == 1
    assert net_advantage(1, 3) == -2
    assert net_advantage(2, 2) == 0
    with pytest.raises(ValueError, match="cannot be negative"):
        net_advantage(-1, 0)


def test_effect_is_roll_minus_difficulty() -> None:
    assert effect(14, 12) == 2  # Ch.7: dice result 14 against 12 is a success effect of 2
    assert effect(6, 13) == -7  # Ch.7: rolling 6 against 13 fails by 7


def test_success_chance_plain() -> None:
    assert success_chance(0, 8) == Fraction(15, 36)
    assert success_chance(0, 7) == Fraction(21, 36)
    assert success_chance(0, 2) == 1
    assert success_chance(0, 13) == 0
    assert success_chance(4, 13) == Fraction(10, 36)  # Ch.7 example: 2d6+4 against 13 needs 9+


def brute_chance(modifier: int, difficulty: int, advantage: int) -> Fraction:
    count = 2 + abs(advantage)
    outcomes = list(itertools.product(range(1, 7), repeat=count))
    hits = sum(
        1
        for faces in outcomes
        if sum(sorted(faces, reverse=advantage >= 0)[:2]) + modifier >= difficulty
    )
    return Fraction(hits, len(outcomes))


@given(
    st.integers(min_value=-6, max_value=8),
    st.integers(min_value=2, max_value=16),
    st.integers(min_value=-2, max_value=2),
)
def test_success_chance_matches_brute_force(modifier: int, difficulty: int, adv: int) -> None:
    assert success_chance(modifier, difficulty, adv) == brute_chance(modifier, difficulty, adv)


@given(
    st.integers(min_value=-6, max_value=8),
    st.integers(min_value=2, max_value=16),
    st.integers(min_value=-3, max_value=3),
)
def test_effect_distribution_agrees_with_success_chance(
    modifier: int, difficulty: int, adv: int
) -> None:
    odds = effect_distribution(modifier, difficulty, adv)
    assert sum(odds.values()) == 1
    successes = sum((p for e, p in odds.items() if e >= 0), Fraction(0))
    assert successes == success_chance(modifier, difficulty, adv)


def test_advantage_helps_and_disadvantage_hurts() -> None:
    assert success_chance(0, 8, 1) > success_chance(0, 8) > success_chance(0, 8, -1)


# --- check results ----------------------------------------------------------------------


def test_check_from_dice_success() -> None:
    result = check_from_dice([5, 4], modifier=3, difficulty=10)
    assert result.total == 12
    assert result.effect == 2
    assert result.success
    assert result.success_effect == 2
    assert result.fail_effect == 0
    assert result.kept == (5, 4)


def test_check_from_dice_failure() -> None:
    result = check_from_dice((1, 2), modifier=0, difficulty=8)
    assert result.effect == -5
    assert not result.success
    assert result.fail_effect == 5
    assert result.success_effect == 0


def test_bare_success_is_effect_zero() -> None:
    result = check_from_dice((4, 4), modifier=0, difficulty=8)
    assert result.success
    assert result.effect == 0


def test_check_from_dice_with_advantage_and_disadvantage() -> None:
    high = check_from_dice((1, 6, 5), modifier=0, difficulty=8, advantage=1)
    assert sorted(high.kept) == [5, 6]
    assert high.total == 11
    assert high.advantage == 1
    low = check_from_dice((1, 6, 5, 2), modifier=1, difficulty=8, advantage=-2)
    assert sorted(low.kept) == [1, 2]
    assert low.total == 4


@pytest.mark.parametrize(
    ("dice", "advantage", "message"),
    [
        ((3,), 0, "expected 2 dice for net advantage 0, got 1"),
        ((3, 4), 1, "expected 3 dice for net advantage 1, got 2"),
        ((0, 4), 0, "die 1 must be a whole number 1..6, got 0"),
        ((3, 7), 0, "die 2 must be a whole number 1..6, got 7"),
        ((3, 2.5), 0, "die 2 must be a whole number 1..6, got 2.5"),
        ((True, 2), 0, "die 1 must be a whole number 1..6, got True"),
    ],
)
def test_check_from_dice_validates(dice: tuple[int, ...], advantage: int, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        check_from_dice(dice, 0, 8, advantage)


def test_roll_check_is_reproducible_and_consistent() -> None:
    first = roll_check(random.Random(9), modifier=2, difficulty=10, advantage=-1)
    again = roll_check(random.Random(9), modifier=2, difficulty=10, advantage=-1)
    assert first == again
    assert len(first.dice) == 3
    assert sorted(first.kept) == sorted(first.dice)[:2]
    assert first.total == sum(first.kept) + 2
    assert first.advantage == -1
    assert isinstance(first, CheckResult)


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=-3, max_value=3))
def test_roll_check_matches_typed_dice(seed: int, advantage: int) -> None:
    rolled = roll_check(random.Random(seed), 1, 8, advantage)
    typed = check_from_dice(rolled.dice, 1, 8, advantage)
    assert typed.total == rolled.total
    assert typed.effect == rolled.effect


# --- superiority ------------------------------------------------------------------------


def test_superiority_table() -> None:
    ranges = {kind: (kind.minimum, kind.maximum) for kind in SuperiorityKind}
    assert ranges == {
        SuperiorityKind.FIREPOWER: (1, 3),
        SuperiorityKind.POSITION: (1, 2),
        SuperiorityKind.OUTNUMBERED_MINOR: (1, 1),
        SuperiorityKind.OUTNUMBERED_SIGNIFICANT: (2, 2),
        SuperiorityKind.OUTNUMBERED_OVERWHELMING: (3, 3),
    }
    assert SuperiorityKind.POSITION.label == "Superior Position/Action"


def test_superiority_modifier_validation() -> None:
    assert superiority_modifier(SuperiorityKind.FIREPOWER, 3) == 3
    assert superiority_modifier(SuperiorityKind.OUTNUMBERED_SIGNIFICANT) == 2
    with pytest.raises(ValueError, match=r"Superior Firepower must be \+1 to \+3, got \+4"):
        superiority_modifier(SuperiorityKind.FIREPOWER, 4)
    with pytest.raises(ValueError, match="choose a value"):
        superiority_modifier(SuperiorityKind.POSITION)
    with pytest.raises(ValueError, match="got \\+0"):
        superiority_modifier(SuperiorityKind.OUTNUMBERED_MINOR, 0)


# --- reckless and costly success ---------------------------------------------------------


def test_reckless_roll_bonus() -> None:
    assert reckless(3) == 5
    assert reckless(-3) == -1


def test_reckless_success_that_stays_positive() -> None:
    outcome = reckless_effect(4)
    assert outcome.success
    assert outcome.effect == 1
    assert outcome.success_effect == 1
    assert outcome.fail_effect == 0
    assert not outcome.harmed


def test_reckless_success_that_turns_negative_resolves_a_failure_too() -> None:
    outcome = reckless_effect(1)
    assert outcome.success  # the success is resolved first
    assert outcome.effect == -2
    assert outcome.fail_effect == 2
    assert outcome.harmed


def test_reckless_bare_success_exact_penalty() -> None:
    assert reckless_effect(3) == (True, 0)
    assert not reckless_effect(3).harmed


def test_reckless_failure_worsens_by_three() -> None:
    outcome = reckless_effect(-2)
    assert not outcome.success
    assert outcome.fail_effect == 5


def test_costly_success() -> None:
    assert costly_success(2) == 7  # fail by 2: -2 x 2 + 3 in the book's signed shorthand
    assert costly_success(1) == 5
    assert costly_success(7) == 17
    with pytest.raises(ValueError, match="positive degree"):
        costly_success(0)
    with pytest.raises(ValueError, match="positive degree"):
        costly_success(-2)


# --- time resolution --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("effect_value", "multiplier", "interpolated"),
    [
        (2, Fraction(1, 4), False),
        (1, Fraction(1, 2), False),
        (0, Fraction(1), False),
        (-1, Fraction(3, 2), False),
        (-2, Fraction(7, 4), True),
        (-3, Fraction(2), False),
        (-4, Fraction(9, 4), True),
        (-7, Fraction(3), True),
        (3, Fraction(1, 4), True),
        (9, Fraction(1, 4), True),
    ],
)
def test_time_multiplier(effect_value: int, multiplier: Fraction, interpolated: bool) -> None:
    value, marked = time_multiplier(effect_value)
    assert value == multiplier
    assert marked is interpolated


def test_time_modifier_source_names_the_rule() -> None:
    assert time_modifier_source(1) == "Ch.3 time table, Success +1: 50% of median time"
    assert time_modifier_source(-3) == "Ch.3 time table, Fail -3: 200% of median time"
    assert "interpolated" in time_modifier_source(-2)
    assert "175%" in time_modifier_source(-2)
    assert "extrapolated" in time_modifier_source(-5)
    assert "250%" in time_modifier_source(-5)
    assert "held at the Success +2 row" in time_modifier_source(4)


def test_resolve_time() -> None:
    assert resolve_time(30, 2) == Fraction(15, 2)
    assert resolve_time(30, -1) == 45
    assert resolve_time(Fraction(1, 2), -3) == 1
    with pytest.raises(ValueError, match="cannot be negative"):
        resolve_time(-1, 0)


# --- attack difficulty ------------------------------------------------------------------


def test_plain_attack_is_base_only() -> None:
    breakdown = attack_difficulty()
    assert breakdown.total == 8
    assert breakdown.terms == (
        DifficultyTerm("Base difficulty", 8, "Ch.6 attack basics", TermKind.BASE),
    )
    assert breakdown.label == "Average"


def test_cover_levels() -> None:
    assert [int(level) for level in CoverLevel] == [0, 1, 2, 4]
    assert CoverLevel.MOSTLY.label == "mostly"


def test_attack_difficulty_shows_each_term() -> None:
    breakdown = attack_difficulty(
        cover=CoverLevel.MOSTLY,
        concealment=CoverLevel.PARTIAL,
        close_quarters=True,
        range_mod=1,
        superiority=2,
        aim=3,
        targeted=3,
        other=(DifficultyTerm("Smoke", 1, "referee"),),
    )
    labels = [(term.label, term.value) for term in breakdown.terms]
    assert labels == [
        ("Base difficulty", 8),
        ("Cover (mostly)", 2),
        ("Concealment (partial)", 1),
        ("Ranged attack in close quarters", 2),
        ("Range, size and movement", 1),
        ("Superiority (attacker)", -2),
        ("Aim", -3),
        ("Targeted attack", 3),
        ("Smoke", 1),
    ]
    assert breakdown.total == 8 + 2 + 1 + 2 + 1 - 2 - 3 + 3 + 1
    assert breakdown.total_of(TermKind.COVER) == 2
    assert breakdown.total_of(TermKind.CONDITION) == 4
    assert all(term.rule for term in breakdown.terms)


def test_target_side_superiority_raises_difficulty() -> None:
    breakdown = attack_difficulty(superiority=-3)
    assert breakdown.total == 11
    assert breakdown.terms[-1].label == "Superiority (target side)"


def test_zero_terms_are_left_out_and_bad_terms_refused() -> None:
    assert len(attack_difficulty(cover=CoverLevel.NONE, aim=0, range_mod=0).terms) == 1
    assert attack_difficulty(base=10, cover=CoverLevel.FULL).total == 14
    with pytest.raises(ValueError, match="aim"):
        attack_difficulty(aim=-1)
    with pytest.raises(ValueError, match="targeted"):
        attack_difficulty(targeted=-1)
