"""Initiative (Ch.6): rolled once at the start of combat, or an automatic 12 in an ambush."""

from __future__ import annotations

import random
from typing import NamedTuple

from mneme_desktop.rules.checks import characteristic_modifier
from mneme_desktop.rules.dice import roll_two_d6

__all__ = [
    "InitiativeRoll",
    "ambush_initiative",
    "initiative_modifier",
    "roll_initiative",
]


class InitiativeRoll(NamedTuple):
    dice: tuple[int, ...]
    modifier: int
    value: int


def initiative_modifier(dex: int, skill_level: int | None = None) -> int:
    """Initiative DM: Dexterity DM, plus the level of the skill applied (Recon, Tactics,
    weapon) if any. No skill is not "unskilled" here: unprepared combatants roll 2d6 + DEX DM."""
    return characteristic_modifier(dex) + (skill_level or 0)


def roll_initiative(rng: random.Random, dex: int, skill_level: int | None = 0) -> InitiativeRoll:
    """Roll 2d6 + DEX DM + skill once at the start of combat; the value is kept all combat."""
    rolled = roll_two_d6(rng)
    modifier = initiative_modifier(dex, skill_level)
    return InitiativeRoll(rolled.dice, modifier, rolled.total + modifier)


def ambush_initiative(dex: int) -> int:
    """Combatants ready when others are not (an ambush) count an automatic 12: 12 + DEX DM."""
    return 12 + characteristic_modifier(dex)
