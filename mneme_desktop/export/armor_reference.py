"""Common armor values printed beside weapon damage, so a referee reads the damage that
gets through without arithmetic at the table."""

from __future__ import annotations

from typing import Final, NamedTuple

from mneme_desktop.domain.catalogue.builtin import BUILTIN_ARMOR, WIDER_RULES_ARMOR
from mneme_desktop.rules.damage import scaled_armor
from mneme_desktop.rules.dice import DiceExpression, Scale

__all__ = [
    "COMMON_ARMOR",
    "ArmorReference",
    "damage_after_armor",
]


class ArmorReference(NamedTuple):
    """A named armor value to show weapon damage against."""

    name: str
    rating: int
    scale: Scale = Scale.NONE

    @property
    def label(self) -> str:
        return f"{self.name} {self.scale.prefix}{self.rating}"


COMMON_ARMOR: Final[tuple[ArmorReference, ...]] = tuple(
    # The armor values of the wider Mneme CE rules (the rules README: Jack 3, Mesh 5,
    # Cloth 9, Vacc Suit 6, Combat Armor 11, Battle Dress 18), read from the built-in
    # catalogue so the number lives in one place; light to heavy.
    ArmorReference(armor.name, armor.rating, armor.scale)
    for name in WIDER_RULES_ARMOR
    for armor in BUILTIN_ARMOR
    if armor.name == name
)
"""Armor a character sheet shows every weapon's damage against."""

ARMOR_NOTE: Final = (
    "vs armor: one damage roll less the armor rating, never below 0 (Ch.7); "
    "0 means only a hit with Effect 6+ does damage (at least 1)."
)

CARD_ARMOR_NOTE: Final = (
    "vs armor: one damage roll against the armor worn by the other side, never below 0; "
    "0 means only a hit with Effect 6+ does damage (at least 1)."
)


def damage_after_armor(dice: DiceExpression, armor: int, armor_scale: Scale = Scale.NONE) -> str:
    """One damage roll of ``dice`` against ``armor``, as the referee would write it.

    3d6-2 against Jack 3 is "3d6-5" (the dice with the armor taken off the modifier; the
    roll is floored at 0 at the table). Dice that can never get through are "0". When the
    armor cannot be written into the modifier (a Deka weapon against armor 3: each point
    of modifier is worth 10) the floored range is given instead, e.g. "17–117". A target
    whose armor is of a larger scale ignores the weapon: "immune".
    """
    if armor_scale.multiplier > dice.scale.multiplier:
        return "immune"
    plain = scaled_armor(armor, armor_scale)
    multiplier = dice.scale.multiplier
    if dice.maximum - plain <= 0:
        return "0"
    if plain % multiplier == 0:
        return str(dice.with_modifier(-(plain // multiplier)))
    return f"{max(0, dice.minimum - plain)}–{dice.maximum - plain}"
