"""Aiming (Ch.6): the aim bonus, its cap, and what keeps or loses it."""

from __future__ import annotations

__all__ = [
    "AIM_CAP",
    "SPOTTER_CONDITION",
    "add_aim",
    "aim_after_target_change",
    "aim_cap",
    "ballistic_correction",
    "corrected_aim",
    "tracer_aim_bonus",
]

AIM_CAP = 6
"""At most six minor actions of aim count toward the next ranged attack."""
SPOTTER_CONDITION = 2
"""Ch.6 Ballistic Correction: "A spotter who can call out coordinates can grant a 2
Conditions as well" -- two points of Difficulty in the shooter's favour on that attack."""


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


def corrected_aim(
    last_aim: int, weapon_aim_modifier: int = 0, tracers: bool = False,
    fully_automatic: bool = False,
) -> int:
    """Aim after a ballistic correction (Ch.6): the shooter saw where last round's shots went,
    so keeps that round's aim and adds +1; with tracer rounds the stream of fire is what is
    seen, and the gain is the tracer bonus instead (+1, or +3 on fully automatic fire).
    Within the weapon's aim cap.

    *Reading:* the tracer bonus ("can grant up to 1 Aim bonus, up to 3 ... on fully
    automatic") is the gain of the correction the tracers make visible, not a second +1 on
    top of it; "up to" is the most, so the referee may still grant less by hand."""
    if last_aim < 0:
        raise ValueError(f"aim bonus cannot be negative, got {last_aim}")
    if not tracers:
        return ballistic_correction(last_aim, weapon_aim_modifier)
    return min(last_aim + tracer_aim_bonus(fully_automatic), aim_cap(weapon_aim_modifier))
