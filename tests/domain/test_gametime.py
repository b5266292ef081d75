"""The campaign clock."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import SECONDS_PER_DAY, GameTime
from mneme_desktop.rules.actions import ROUND_SECONDS


def test_label_reads_like_a_referee_says_it() -> None:
    assert GameTime.at(12, 14, 30).label == "Day 12, 14:30"
    assert str(GameTime.at(1)) == "Day 1, 00:00"
    assert GameTime.at(3, 9, 5, 6).label == "Day 3, 09:05:06"


def test_advance_by_rounds_minutes_hours_days() -> None:
    start = GameTime.at(12, 14, 30)
    assert start.advance(rounds=10) == GameTime.at(12, 14, 31)  # 10 rounds = one minute
    assert start.advance(rounds=1).total_seconds - start.total_seconds == ROUND_SECONDS
    assert start.advance(minutes=45) == GameTime.at(12, 15, 15)
    assert start.advance(hours=10) == GameTime.at(13, 0, 30)
    assert start.advance(days=3, hours=1) == GameTime.at(15, 15, 30)
    assert start.advance(hours=-14, minutes=-30) == GameTime.at(12)
    assert start.advance(seconds=7).label == "Day 12, 14:30:07"


def test_cannot_go_before_day_one() -> None:
    with pytest.raises(ValueError, match="before the start of day 1"):
        GameTime.at(1, 0, 0).advance(seconds=-1)
    with pytest.raises(ValueError):
        GameTime.from_total_seconds(-5)


def test_validation() -> None:
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        GameTime(day=0)
    with pytest.raises(ValidationError):
        GameTime(day=1, second=SECONDS_PER_DAY)
    with pytest.raises(ValueError, match="not a time of day"):
        GameTime.at(1, 24)
    with pytest.raises(ValidationError):
        GameTime(day=1, second=0, minute=3)  # type: ignore[call-arg]


def test_ordering_and_immutability() -> None:
    early, late = GameTime.at(2, 8), GameTime.at(2, 9)
    assert early < late and late > early and early <= early and late >= early
    assert sorted([late, early]) == [early, late]
    assert early.seconds_until(late) == 3600
    assert len({early, GameTime.at(2, 8)}) == 1
    with pytest.raises(ValidationError):
        early.day = 5  # type: ignore[misc]


def test_total_seconds_round_trip() -> None:
    moment = GameTime.at(40, 23, 59, 59)
    assert GameTime.from_total_seconds(moment.total_seconds) == moment
    assert (moment.hour, moment.minute) == (23, 59)
