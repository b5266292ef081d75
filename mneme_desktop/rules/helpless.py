"""Helpless targets (Ch.6 full actions, extended actions; Ch.7 unconscious).

A character in a full action or an extended action (first aid under fire) cannot defend
themselves unless they abort it: they are helpless, and attackers gain an advantage (the
chapter also allows an automatic success, at the referee's word). The unconscious (Ch.7:
critically wounded, dying) are helpless too, and cannot abort anything.

Pure: the domain says which causes hold for a target; this module says what they grant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "HELPLESS_ADVANTAGE",
    "HELPLESS_RULE",
    "HelplessCause",
    "Helplessness",
    "helpless_advantage",
]

HELPLESS_ADVANTAGE = 1
"""Advantages an attack on helpless targets gains (Ch.6 full actions: "an advantage")."""

HELPLESS_RULE = "Ch.6 full actions: a helpless target"


class HelplessCause(Enum):
    """Why a target cannot defend itself."""

    FULL_ACTION = "full action"
    """A full action taken this round (Ch.6 full actions)."""
    EXTENDED_ACTION = "extended action"
    """An extended action under way, such as first aid (Ch.6 extended actions)."""
    UNCONSCIOUS = "unconscious"
    """Out: critically wounded, dying or marked unconscious (Ch.7)."""
    MARKED = "helpless"
    """Marked helpless by the referee (bound, pinned, asleep)."""

    @property
    def can_abort(self) -> bool:
        """The target may abort what makes it helpless to defend itself."""
        return self in (HelplessCause.FULL_ACTION, HelplessCause.EXTENDED_ACTION)


@dataclass(frozen=True)
class Helplessness:
    """What makes one target helpless, and whether it aborts to defend itself."""

    causes: tuple[HelplessCause, ...] = ()
    aborted: bool = False

    @property
    def standing(self) -> tuple[HelplessCause, ...]:
        """The causes that still hold: aborting ends a full or extended action, never
        unconsciousness or a referee's mark."""
        if not self.aborted:
            return self.causes
        return tuple(cause for cause in self.causes if not cause.can_abort)

    @property
    def helpless(self) -> bool:
        return bool(self.standing)

    @property
    def can_abort(self) -> bool:
        """Aborting would matter: some cause is a full or extended action."""
        return any(cause.can_abort for cause in self.causes)


def helpless_advantage(targets: Sequence[Helplessness]) -> int:
    """Advantages one attack roll gains against ``targets``: one when every target is
    helpless. The roll is one for all the targets of an attack, so a target that can
    still defend itself denies the advantage to the whole roll."""
    if targets and all(target.helpless for target in targets):
        return HELPLESS_ADVANTAGE
    return 0
