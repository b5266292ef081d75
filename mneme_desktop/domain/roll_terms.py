"""The terms a character's rolls share, each computed in one place and named after the book.

Ch.7 puts the wound penalty (-1 per 3 damage) on "all mental and physical rolls". Every roll
the app makes for a character (initiative rolled or ambush, Tactics, attacks, first aid,
dying and massive-damage rolls) takes it from :func:`wound_modifier`, so a wounded character
never rolls clean on one screen and penalised on another, and every breakdown can show it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from mneme_desktop.domain.character import Character, Characteristic
from mneme_desktop.rules.actions import ambush_initiative, initiative_modifier, roll_initiative
from mneme_desktop.rules.checks import UNSKILLED, characteristic_modifier
from mneme_desktop.rules.wounds import wound_penalty

__all__ = [
    "WOUNDS_RULE",
    "InitiativeResult",
    "Modifier",
    "ambush_result",
    "initiative_result",
    "initiative_terms",
    "roll_initiative_result",
    "survival_terms",
    "tactics_terms",
    "terms_text",
    "wound_modifier",
    "wound_terms",
]

WOUNDS_RULE = "Ch.7 wound penalties: -1 to all rolls per 3 damage"


@dataclass(frozen=True)
class Modifier:
    """One DM on the roll, with the rule it comes from."""

    label: str
    value: int
    rule: str


def wound_modifier(character: Character) -> int:
    """The character's DM from wounds (0 or negative): the one number every roll path adds."""
    return wound_penalty(character.damage)


def wound_terms(character: Character) -> tuple[Modifier, ...]:
    """The wounds term of a breakdown, or nothing for an unhurt character."""
    value = wound_modifier(character)
    return (Modifier("Wounds", value, WOUNDS_RULE),) if value else ()


def terms_text(terms: Iterable[Modifier]) -> str:
    """"DEX DM +1, Wounds -4": a breakdown for the log."""
    return ", ".join(f"{t.label} {t.value:+d}" for t in terms)


# --- initiative ---------------------------------------------------------------------------


@dataclass(frozen=True)
class InitiativeResult:
    """An initiative with the terms that made it (dice empty for an ambush's automatic 12)."""

    dice: tuple[int, ...]
    terms: tuple[Modifier, ...]
    value: int

    @property
    def modifier(self) -> int:
        return sum(t.value for t in self.terms)


def _dex(character: Character) -> int:
    return character.characteristic(Characteristic.DEX) or 0


def initiative_terms(character: Character, skill: str | None = None) -> tuple[Modifier, ...]:
    """DEX DM and the applied skill's level (Ch.6 initiative), then wounds (Ch.7)."""
    level = character.skill_level(skill) if skill else None
    base = initiative_modifier(_dex(character), level)
    label = "DEX DM" if not level else f"DEX DM + {skill}-{level}"
    return (Modifier(label, base, "Ch.6 initiative"), *wound_terms(character))


def initiative_result(
    character: Character, dice: tuple[int, ...], skill: str | None = None
) -> InitiativeResult:
    """Initiative from two dice (rolled in the app or at the table)."""
    terms = initiative_terms(character, skill)
    return InitiativeResult(dice, terms, sum(dice) + sum(t.value for t in terms))


def roll_initiative_result(
    rng: random.Random, character: Character, skill: str | None = None
) -> InitiativeResult:
    """Roll 2d6 + DEX DM + skill (the rules core's roll) and add the wounds."""
    level = character.skill_level(skill) if skill else None
    rolled = roll_initiative(rng, _dex(character), level)
    return initiative_result(character, tuple(rolled.dice), skill)


def ambush_result(character: Character) -> InitiativeResult:
    """Prepared in an ambush: an automatic 12 on the roll, + DEX DM, + wounds (a modifier to
    the roll like any other)."""
    dex = _dex(character)
    terms = (Modifier("DEX DM", characteristic_modifier(dex), "Ch.6 ambush: 12 + DEX DM"),
             *wound_terms(character))
    return InitiativeResult((), terms, ambush_initiative(dex) + sum(t.value for t in terms[1:]))


# --- other checks --------------------------------------------------------------------------


def skill_term(character: Character, skill: str) -> Modifier:
    """A check's skill term (Ch.3): the character's level in ``skill``, or unskilled -3.
    Every check of the app (attacks, Tactics, the check panel, timing) takes it from here."""
    level = character.skill_level(skill)
    if level is None:
        return Modifier(f"Unskilled ({skill})", UNSKILLED, "Ch.3 unskilled")
    return Modifier(f"{skill}-{level}", level, "Ch.3 skill modifier")


def tactics_terms(character: Character) -> tuple[Modifier, ...]:
    """A Tactics check: Tactics level (unskilled -3), INT DM, wounds. INT is the project's
    choice of characteristic; the referee can change the DM."""
    skill = skill_term(character, "Tactics")
    intelligence = Modifier("INT DM", character.characteristic_modifier(Characteristic.INT),
                            "Ch.3 characteristic modifier")
    return (skill, intelligence, *wound_terms(character))


def survival_terms(character: Character) -> tuple[Modifier, ...]:
    """Dying and massive-damage rolls: END DM with wound penalties (Ch.7 says they apply)."""
    endurance = character.characteristic(Characteristic.END) or 0
    return (Modifier("END DM", characteristic_modifier(endurance), "Ch.7 dying"),
            *wound_terms(character))
