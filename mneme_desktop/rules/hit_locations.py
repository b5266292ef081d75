"""Targeted attacks (Ch.6): the hit location table and which wound threshold each uses."""

from __future__ import annotations

import random
from enum import Enum
from typing import NamedTuple

from mneme_desktop.rules.dice import DiceSource, roll_two_d6

__all__ = [
    "HIT_LOCATIONS",
    "BodyArea",
    "HitLocation",
    "RolledHitLocation",
    "hit_location",
    "hit_location_from",
    "roll_hit_location",
    "typed_hit_location",
]


class BodyArea(Enum):
    """Which Ch.7 targeted-damage threshold a hit location uses (BODY has none)."""

    BODY = "body"
    LIMB = "limb"
    EXTREMITY = "extremity"
    HEAD = "head"
    VITALS = "vitals"


class HitLocation(NamedTuple):
    """One row of the Targeted Attack Location table."""

    roll: int
    key: str
    name: str
    difficulty_modifier: int
    body_area: BodyArea
    sided: bool = False
    """Feet and hands: roll 1d6, 1-3 primary, 4-6 secondary."""


HIT_LOCATIONS: tuple[HitLocation, ...] = (
    HitLocation(2, "vitals", "Vitals, Neck", 3, BodyArea.VITALS),
    HitLocation(3, "feet", "Feet", 2, BodyArea.EXTREMITY, sided=True),
    HitLocation(4, "secondary_leg", "Secondary Leg", 2, BodyArea.LIMB),
    HitLocation(5, "primary_leg", "Primary Leg", 1, BodyArea.LIMB),
    HitLocation(6, "groin", "Groin", 1, BodyArea.BODY),
    HitLocation(7, "core", "Core or Center of Mass", 0, BodyArea.BODY),
    HitLocation(8, "chest", "Chest", 1, BodyArea.BODY),
    HitLocation(9, "primary_arm", "Primary Arm", 1, BodyArea.LIMB),
    HitLocation(10, "secondary_arm", "Secondary Arm", 2, BodyArea.LIMB),
    HitLocation(11, "hands", "Hands", 2, BodyArea.EXTREMITY, sided=True),
    HitLocation(12, "head", "Head", 3, BodyArea.HEAD),
)


def hit_location(total_2d6: int) -> HitLocation:
    """The location a 2d6 total lands on (also the Difficulty to aim at it)."""
    if not 2 <= total_2d6 <= 12:
        raise ValueError(f"hit locations are rolled on 2d6 (2..12), got {total_2d6}")
    return HIT_LOCATIONS[total_2d6 - 2]


class RolledHitLocation(NamedTuple):
    location: HitLocation
    dice: tuple[int, ...]
    side_die: int | None

    @property
    def side(self) -> str | None:
        if self.side_die is None:
            return None
        return "Primary" if self.side_die <= 3 else "Secondary"

    @property
    def name(self) -> str:
        side = self.side
        return self.location.name if side is None else f"{side} {self.location.name}"

    @property
    def table_dice(self) -> tuple[int, ...]:
        """Every die of the roll as the table would type it: the 2d6, then the 1d6."""
        return self.dice if self.side_die is None else (*self.dice, self.side_die)

    @property
    def dice_text(self) -> str:
        """The roll in words, for the log: "2d6 5+6 = 11, 1d6 2 (Primary)"."""
        text = f"2d6 {'+'.join(map(str, self.dice))} = {sum(self.dice)}"
        if self.side_die is not None:
            text += f", 1d6 {self.side_die} ({self.side})"
        return text


def roll_hit_location(rng: random.Random) -> RolledHitLocation:
    """Roll a random hit location, with 1d6 for primary/secondary on feet and hands."""
    rolled = roll_two_d6(rng)
    location = hit_location(rolled.total)
    side_die = rng.randint(1, 6) if location.sided else None
    return RolledHitLocation(location, rolled.dice, side_die)


def typed_hit_location(dice: tuple[int, ...] | list[int]) -> RolledHitLocation:
    """A random hit location rolled at the table: the 2d6, and for feet or hands the 1d6
    (1-3 primary, 4-6 secondary) after them; a 1d6 is refused where the table has none,
    and asked for where it does, so a mistyped roll never lands somewhere unnoticed."""
    values = tuple(dice)
    for value in values:
        if not 1 <= value <= 6:
            raise ValueError(f"{value} is not a die: each die is a whole number 1 to 6")
    if len(values) not in (2, 3):
        raise ValueError("a hit location is 2d6, then 1d6 for feet or hands: e.g. 3 4 or 5 6 2")
    location = hit_location(values[0] + values[1])
    total = values[0] + values[1]
    if location.sided and len(values) == 2:
        raise ValueError(f"{total} is {location.name}: add the 1d6 for primary (1-3) or "
                         f"secondary (4-6), e.g. {values[0]} {values[1]} 2")
    if not location.sided and len(values) == 3:
        raise ValueError(f"{total} is {location.name}, which takes no 1d6: type the 2d6 only")
    return RolledHitLocation(location, values[:2], values[2] if location.sided else None)


def hit_location_from(source: DiceSource) -> RolledHitLocation:
    """A random hit location from the app's generator or from the dice typed at the table."""
    if source.typed is not None:
        return typed_hit_location(source.typed)
    assert source.rng is not None
    return roll_hit_location(source.rng)
