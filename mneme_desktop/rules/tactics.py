"""Tactics (Ch.6): the declared risk caps the Effect, which becomes Advantage rolls or
Initiative for the unit."""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "TACTICS_DIFFICULTIES",
    "TacticsPool",
    "tactics_attempts_allowed",
    "tactics_capped_effect",
    "tactics_initiative_bonus",
    "tactics_max_effect",
    "tactics_pool",
]

TACTICS_DIFFICULTIES: tuple[int, ...] = (6, 8, 10, 12)
_TACTICS_MAX_EFFECT = {6: 1, 8: 2, 10: 4, 12: 8}


def tactics_max_effect(difficulty: int) -> int:
    """The riskier the declared tactic, the larger its Effect may be: 6->1, 8->2, 10->4, 12->8."""
    try:
        return _TACTICS_MAX_EFFECT[difficulty]
    except KeyError:
        raise ValueError(
            f"tactics are declared at Difficulty 6, 8, 10 or 12, not {difficulty}"
        ) from None


def tactics_capped_effect(effect: int, difficulty: int) -> int:
    """A Tactics Effect limited both ways (success and failure) by the declared risk."""
    cap = tactics_max_effect(difficulty)
    return max(-cap, min(cap, effect))


class TacticsPool(NamedTuple):
    """Advantage (or disadvantage) rolls a Tactics check grants the character's side."""

    advantages: int
    disadvantages: int


def tactics_pool(effect: int, difficulty: int) -> TacticsPool:
    """The pool is the capped Effect: a success grants that many Advantage rolls, a failure
    that many Disadvantage rolls; a bare success (Effect 0) grants none."""
    capped = tactics_capped_effect(effect, difficulty)
    return TacticsPool(max(0, capped), max(0, -capped))


def tactics_attempts_allowed(skill: int) -> int:
    """A character may re-try Tactics in one battle while attempts < skill + 1."""
    if skill < 0:
        raise ValueError(f"Tactics skill level cannot be negative, got {skill}")
    return skill + 1


def tactics_initiative_bonus(effect: int, difficulty: int | None = None) -> int:
    """The Tactics Effect added to the Initiative of everyone in the unit in direct contact.

    The Effect is signed (a failed plan costs the unit initiative) and, when the declared
    ``difficulty`` is given, capped like every other Tactics Effect.
    """
    return effect if difficulty is None else tactics_capped_effect(effect, difficulty)
