"""In-game date and time of a campaign.

The campaign clock is a day number and a second of that day, so a file reads as
``{"day": 12, "second": 52200}`` and the label as "Day 12, 14:30". A combat round is
six seconds of game time (Ch.6), which is how encounters move the clock.
"""

from __future__ import annotations

from functools import total_ordering

from pydantic import BaseModel, ConfigDict, Field

from mneme_desktop.rules.actions import ROUND_SECONDS

__all__ = [
    "SECONDS_PER_DAY",
    "GameTime",
]

SECONDS_PER_DAY = 24 * 60 * 60
MAX_DAY = 10_000_000
"""Some 27,000 years of campaign: a bound so a damaged file cannot hold an absurd date."""


@total_ordering
class GameTime(BaseModel):
    """A moment of campaign time; immutable, so it can be shared and compared freely."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    day: int = Field(
        default=1, ge=1, le=MAX_DAY, description="Day 1 is the first day of the campaign"
    )
    second: int = Field(default=0, ge=0, lt=SECONDS_PER_DAY, description="Second of the day")

    @classmethod
    def from_total_seconds(cls, total: int) -> GameTime:
        """The moment ``total`` seconds after the start of day 1."""
        if total < 0:
            raise ValueError("game time cannot go before the start of day 1")
        day, second = divmod(total, SECONDS_PER_DAY)
        return cls(day=day + 1, second=second)

    @classmethod
    def at(cls, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> GameTime:
        """A moment written the way a referee says it: day 12 at 14:30."""
        if not (0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60):
            raise ValueError(f"not a time of day: {hour:02d}:{minute:02d}:{second:02d}")
        return cls(day=day, second=hour * 3600 + minute * 60 + second)

    @property
    def total_seconds(self) -> int:
        return (self.day - 1) * SECONDS_PER_DAY + self.second

    @property
    def hour(self) -> int:
        return self.second // 3600

    @property
    def minute(self) -> int:
        return self.second % 3600 // 60

    @property
    def label(self) -> str:
        """"Day 12, 14:30", with seconds only when a combat round left some."""
        seconds = self.second % 60
        clock = f"{self.hour:02d}:{self.minute:02d}"
        if seconds:
            clock += f":{seconds:02d}"
        return f"Day {self.day}, {clock}"

    def advance(
        self,
        *,
        rounds: int = 0,
        seconds: int = 0,
        minutes: int = 0,
        hours: int = 0,
        days: int = 0,
    ) -> GameTime:
        """A later (or, with negative amounts, earlier) moment; never before day 1."""
        delta = (
            rounds * ROUND_SECONDS
            + seconds
            + minutes * 60
            + hours * 3600
            + days * SECONDS_PER_DAY
        )
        return GameTime.from_total_seconds(self.total_seconds + delta)

    def seconds_until(self, later: GameTime) -> int:
        """Signed seconds from this moment to ``later``."""
        return later.total_seconds - self.total_seconds

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, GameTime):
            return NotImplemented
        return self.total_seconds < other.total_seconds

    def __str__(self) -> str:
        return self.label
