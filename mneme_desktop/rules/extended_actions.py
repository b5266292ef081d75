"""Extended actions (Ch.6): tasks lasting several rounds, such as First Aid."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mneme_desktop.rules.checks import resolve_time

__all__ = [
    "FIRST_AID_ROUNDS",
    "ExtendedAction",
    "extended_action_rounds",
]

FIRST_AID_ROUNDS = 30


def extended_action_rounds(median_rounds: int, effect: int) -> int:
    """Rounds an extended task takes after its timing roll (Ch.3 time, rounded up)."""
    return math.ceil(resolve_time(median_rounds, effect))


@dataclass(frozen=True)
class ExtendedAction:
    """A task lasting several rounds (First Aid: 30), advanced one rolled round at a time."""

    total_rounds: int
    remaining_rounds: int
    rounds_taken: int = 0

    def __post_init__(self) -> None:
        if self.total_rounds < 1:
            raise ValueError(f"an extended action lasts at least 1 round, got {self.total_rounds}")
        if not 0 <= self.remaining_rounds <= self.total_rounds:
            raise ValueError(
                f"remaining rounds must be 0..{self.total_rounds}, got {self.remaining_rounds}"
            )
        if self.rounds_taken < 0:
            raise ValueError(f"rounds taken cannot be negative, got {self.rounds_taken}")

    @classmethod
    def start(cls, total_rounds: int) -> ExtendedAction:
        return cls(total_rounds, total_rounds)

    @property
    def done(self) -> bool:
        return self.remaining_rounds == 0

    def advance(self, effect: int) -> ExtendedAction:
        """One more round worked: it counts 1, a Success Effect shortens the rest by its
        degree, a Fail Effect loses that much progress (never more than was made)."""
        if self.done:
            raise ValueError("the extended action is already complete")
        remaining = self.remaining_rounds - 1 - effect
        remaining = max(0, min(self.total_rounds, remaining))
        return ExtendedAction(self.total_rounds, remaining, self.rounds_taken + 1)
