"""The one dice source (issue 16): dice typed at the table and dice rolled in the app are
one type, resolved by one function, read from the referee's text by one parser."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.rules.checks import check_from, check_from_dice, roll_check
from mneme_desktop.rules.dice import DiceSource, parse_dice_source, roll_two_d6


@pytest.mark.parametrize("advantage", [-2, -1, 0, 1, 3])
def test_typed_dice_and_an_app_roll_of_the_same_dice_give_the_same_check(
    advantage: int,
) -> None:
    rolled = roll_two_d6(random.Random(11), advantage).dice
    from_app = check_from(DiceSource.app(random.Random(11)), 2, 8, advantage)
    from_table = check_from(DiceSource.table(rolled), 2, 8, advantage)
    assert from_app == from_table
    assert from_app == roll_check(random.Random(11), 2, 8, advantage)
    assert from_table == check_from_dice(rolled, 2, 8, advantage)


def test_advantage_keeps_the_best_two_and_disadvantage_the_worst_two() -> None:
    best = check_from(DiceSource.table((1, 6, 5)), 0, 8, 1)
    assert best.kept == (6, 5) and best.total == 11 and best.dice == (1, 6, 5)
    worst = check_from(DiceSource.table((1, 6, 2)), 0, 8, -1)
    assert worst.kept == (1, 2) and worst.total == 3


def test_the_seeded_app_roll_is_deterministic() -> None:
    def five(seed: int) -> list:
        source = DiceSource.app(random.Random(seed))
        return [check_from(source, 1, 8, 2) for _ in range(5)]

    first, again = five(3), five(3)
    assert first == again
    assert all(len(check.dice) == 4 and len(check.kept) == 2 for check in first)


def test_empty_text_rolls_in_the_app_and_typed_text_is_the_dice() -> None:
    rng = random.Random(1)
    source = parse_dice_source("  ", rng)
    assert source == DiceSource.app(rng) and not source.at_table and source.how == "rolled"
    typed = parse_dice_source("4 5", rng)
    assert typed.typed == (4, 5) and typed.at_table and typed.how == "dice at the table"
    assert parse_dice_source("45", rng).typed == (4, 5)
    assert parse_dice_source("6,1,3", rng, 3).typed == (6, 1, 3)


@pytest.mark.parametrize(
    ("text", "count", "message"),
    [
        ("4 7", 2, "'7' is not a die: each die is a whole number 1 to 6"),
        ("four", 2, "'four' is not a die: each die is a whole number 1 to 6"),
        ("4", 2, "expected 2 dice, got 1: '4'"),
        ("4 5", 3, "expected 3 dice, got 2: '4 5'"),
    ],
)
def test_bad_text_is_refused_with_todays_messages(text: str, count: int, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_dice_source(text, random.Random(1), count)
    assert str(refused.value) == message


def test_without_an_rng_empty_text_is_refused_as_a_table_roll() -> None:
    with pytest.raises(ValueError, match=r"type the dice rolled, e\.g\. 4 5"):
        parse_dice_source("", None)


def test_a_source_is_one_kind_or_the_other() -> None:
    with pytest.raises(ValueError, match="either"):
        DiceSource()
    with pytest.raises(ValueError, match="either"):
        DiceSource(typed=(1, 2), rng=random.Random(1))


def test_typed_dice_are_checked_against_the_advantage() -> None:
    with pytest.raises(ValueError, match="expected 3 dice for net advantage 1, got 2"):
        check_from(DiceSource.table((4, 5)), 0, 8, 1)
