"""Aiming (Ch.6): the aim bonus, its cap, and what keeps or loses it."""

from __future__ import annotations

__all__ = [
    "AIM_CAP",
    "SPOTTER_CONDITION",
    "add_aim",
    "aim_after_target_change",
    "aim_cap",
    "ballistic_correction",
    "tracer_aim_bonus",
]

AIM_CAP = 6
"""At most six minor actions of aim count toward the next ranged attack."""
SPOTTER_CONDITION = 2


def aim_cap(weapon_aim_modifier: int = 0) -> int:
    """Largest aim bonus: six aim actions, each worth the weapon's Aim modifier (or +1)."""
    return AIM_CAP * max(1, weapon_aim_modifier)


def add_aim(current: int, weapon_aim_modifier: int = 0) -> int:
    """Aim bonus after one more Aim minor action.

    Each aim is worth the weapon's Aim modifier, or +1 without one; the book's "+6 or more
    because of weapon aim modifier" is read as at most six aim actions' worth.
    """
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    return min(current + max(1, weapon_aim_modifier), aim_cap(weapon_aim_modifier))


def aim_after_target_change(
    current: int, same_position_and_conditions: bool, preserved: int | None = None
) -> int:
    """Aim kept when switching targets: lost unless the new target shares the old one's
    position and conditions, where the referee decides how much is kept (``preserved``,
    by default all of it)."""
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    if not same_position_and_conditions:
        return 0
    if preserved is None:
        return current
    if preserved < 0:
        raise ValueError(f"preserved aim cannot be negative, got {preserved}")
    return min(current, preserved)


def ballistic_correction(current: int, weapon_aim_modifier: int = 0) -> int:
    """Seeing where the last shots hit keeps last round's aim and adds +1 (within the cap)."""
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    return min(current + 1, aim_cap(weapon_aim_modifier))


def tracer_aim_bonus(fully_automatic: bool) -> int:
    """Tracer rounds grant up to +1 aim, or up to +3 on fully automatic fire."""
    return 3 if fully_automatic else 1
