"""Damage to things (Ch.7): vehicles, craft, structures and cover objects on the one track.

"Characters, Objects, Vehicles, and Infrastructure have Hit Points": a thing's HP is a
threshold like a character's, in its own scale (20 DHP = 200 HP). A thing has no
characteristics, so its thresholds are always the HP fractions; the states are the wound
states under a thing's names (damaged, seriously damaged, critically damaged, destroyed past
HP), and the track is the one :func:`~mneme_desktop.rules.track.damage_track` draws for
characters, counted in the thing's scale units.

Damage is stored in plain points (exact whatever the scale of the weapon); the track counts
whole scale units, rounded up, so any damage shows and "destroyed" is exactly plain damage
past plain HP.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mneme_desktop.rules.damage import apply_armor, scale_immune
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import WoundState, WoundThresholds, wound_thresholds

__all__ = [
    "COVER_ABSORPTION_RULE",
    "SCALE_IMMUNITY_RULE",
    "CoverHit",
    "ThingState",
    "cover_hit",
    "scale_notation",
    "thing_damage_units",
    "thing_state",
    "thing_thresholds",
    "thing_track",
]

SCALE_IMMUNITY_RULE = "Scale Immunity (Ch.7 Damage Scale)"
"""The rule's name, said wherever damage of a lesser scale is ignored."""

COVER_ABSORPTION_RULE = "Cover Absorption (Ch.7 Cover Takes Damage)"
"""The rule's name, said wherever cover takes the damage rolls it absorbs."""


class ThingState(Enum):
    """How badly damaged a thing is: the wound states under a thing's names."""

    INTACT = "intact"
    DAMAGED = "damaged"
    SERIOUSLY_DAMAGED = "seriously_damaged"
    CRITICALLY_DAMAGED = "critically_damaged"
    DESTROYED = "destroyed"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def severity(self) -> int:
        return tuple(ThingState).index(self)

    @classmethod
    def from_wound_state(cls, state: WoundState) -> ThingState:
        """The thing's state for a band of the shared track (dying and dead: destroyed)."""
        return _FROM_WOUND[state]


_LABELS = {
    ThingState.INTACT: "Intact",
    ThingState.DAMAGED: "Damaged",
    ThingState.SERIOUSLY_DAMAGED: "Seriously Damaged",
    ThingState.CRITICALLY_DAMAGED: "Critically Damaged",
    ThingState.DESTROYED: "Destroyed",
}
_FROM_WOUND = {
    WoundState.UNHURT: ThingState.INTACT,
    WoundState.WOUNDED: ThingState.DAMAGED,
    WoundState.SERIOUSLY_WOUNDED: ThingState.SERIOUSLY_DAMAGED,
    WoundState.CRITICALLY_WOUNDED: ThingState.CRITICALLY_DAMAGED,
    WoundState.DYING: ThingState.DESTROYED,
    WoundState.DEAD: ThingState.DESTROYED,
}


def scale_notation(value: int, scale: Scale, unit: str) -> str:
    """The book's notation with its plain value: "20 DHP = 200 HP", "DAR 2 = 20 AR";
    a personal-scale value is just "21 HP" / "AR 5"."""
    plain = value * scale.multiplier
    if unit == "AR":
        written, base = f"{scale.prefix}AR {value}", f"{plain:,} AR"
    else:
        written, base = f"{value} {scale.prefix}{unit}", f"{plain:,} {unit}"
    return written if scale is Scale.NONE else f"{written} = {base}"


def thing_damage_units(damage: int, scale: Scale) -> int:
    """Plain damage points in the thing's scale units, rounded up (5 damage on a Deka
    thing is 1 DHP crossed: any damage shows)."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    return -(-damage // scale.multiplier)


def thing_thresholds(hp: int) -> WoundThresholds:
    """Seriously damaged at floor(HP/3), critically at floor(2 x HP/3), destroyed past HP,
    in the thing's scale units; the HP fractions, as a thing has no characteristics."""
    return wound_thresholds(hp)


def thing_state(damage: int, hp: int, scale: Scale = Scale.NONE) -> ThingState:
    """The state for plain ``damage`` against ``hp`` written in ``scale``."""
    return ThingState.from_wound_state(thing_track(damage, hp, scale).state)


def thing_track(damage: int, hp: int, scale: Scale = Scale.NONE) -> DamageTrack:
    """The damage track of a thing (plain ``damage``, ``hp`` in ``scale`` units): the one
    geometry the HP bar, the box chart and the exporters draw, counted in scale units."""
    return damage_track(thing_damage_units(damage, scale), hp, thing_thresholds(hp))


@dataclass(frozen=True)
class CoverHit:
    """The damage rolls a cover object took for the character behind it."""

    rolls: tuple[int, ...]
    after_armor: tuple[int, ...]
    taken: int
    """Plain damage the cover took, up to what it had left."""
    immune: bool
    left_before: int
    left_after: int

    @property
    def destroyed(self) -> bool:
        """Brought to 0 HP by these rolls: it stops absorbing."""
        return self.left_before > 0 and self.left_after == 0


def cover_hit(
    rolls: tuple[int, ...],
    attack_scale: Scale,
    cover_scale: Scale,
    cover_armor: int,
    cover_hp: int,
    cover_damage: int,
) -> CoverHit:
    """Cover Absorption: the rolls the cover absorbed are rolled against it, each reduced
    by its (plain) armor; a cover of a larger scale ignores them (scale immunity). Its HP
    falls by the total, never below 0. ``cover_hp`` is plain HP."""
    left = max(0, cover_hp - cover_damage)
    if scale_immune(cover_scale, attack_scale):
        return CoverHit(rolls, tuple(0 for _ in rolls), 0, True, left, left)
    after = tuple(apply_armor(value, cover_armor) for value in rolls)
    taken = min(left, sum(after))
    return CoverHit(rolls, after, taken, False, left, left - taken)

