"""Terms of an attack that come from the state of the fight rather than from the form.

The target's cover is set on its row, the attacker's minor actions are counted by the turn,
the aim cap follows the weapon chosen for the next attack. The resolver and the domain both
ask here, so what the resolver shows before the roll is what the roll and the log use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mneme_desktop.domain.character import Character, Weapon
from mneme_desktop.domain.encounter import Combatant
from mneme_desktop.rules.actions import ActionKind, aim_cap, spend
from mneme_desktop.rules.checks import (
    CoverLevel,
    DifficultyBreakdown,
    SuperiorityBalance,
    TermKind,
)

__all__ = [
    "ATTACK_ACTION",
    "TargetCover",
    "aim_cap_text",
    "aim_weapon",
    "attack_refusal",
    "label_aim",
    "label_superiority",
    "label_target_cover",
    "target_cover",
]

ATTACK_ACTION = ActionKind.SIGNIFICANT
"""Attack and Defend are significant actions (2 minor) in Ch.6."""


@dataclass(frozen=True)
class TargetCover:
    """The cover term an attack's one Difficulty takes from the targets' rows."""

    level: CoverLevel
    names: tuple[str, ...]
    """The targets in that cover (several when tied)."""


def target_cover(targets: Sequence[tuple[Combatant, str]]) -> TargetCover:
    """The cover of the best-protected target among (combatant, name) pairs.

    Reading: one attack roll has one Difficulty ("8 + relevant Conditions", Ch.6). With
    several targets it takes the largest cover among them, so no target is hit more easily
    than its cover allows; the term names whose cover it is. Split the attack for separate
    odds against a target in the open.
    """
    level = max((c.cover for c, _ in targets), default=CoverLevel.NONE)
    names = tuple(name for c, name in targets if level and c.cover is level)
    return TargetCover(level, names)


def label_target_cover(breakdown: DifficultyBreakdown, cover: TargetCover) -> DifficultyBreakdown:
    """Name the target(s) on the cover term, so the referee sees it came from their row."""
    if not cover.level:
        return breakdown
    who = ", ".join(cover.names)
    terms = tuple(
        term._replace(label=f"{term.label}: {who}", rule=f"{term.rule} (target's row)")
        if term.kind is TermKind.COVER else term
        for term in breakdown.terms
    )
    return DifficultyBreakdown(terms)


def label_aim(breakdown: DifficultyBreakdown, weapon: Weapon) -> DifficultyBreakdown:
    """State the aim cap of the weapon fired (+12 with a +2 weapon), not the plain +6."""
    terms = tuple(
        term._replace(rule=f"Ch.6 aim: {aim_cap_text(weapon)}")
        if term.kind is TermKind.AIM else term
        for term in breakdown.terms
    )
    return DifficultyBreakdown(terms)


def label_superiority(breakdown: DifficultyBreakdown,
                      balance: SuperiorityBalance | None) -> DifficultyBreakdown:
    """Name the Ch.3 situations the superiority term sums ("ours: Superior Firepower +2"),
    when the term is their sum (a number typed by the referee keeps the plain rule)."""
    if balance is None or not balance.describe():
        return breakdown
    text = balance.describe()
    terms = tuple(
        term._replace(rule=f"Ch.3 superiority: {text}")
        if term.kind is TermKind.SUPERIORITY and -term.value == balance.modifier else term
        for term in breakdown.terms
    )
    return DifficultyBreakdown(terms)


def attack_refusal(name: str, actions_spent: int, spend_action: bool, verb: str) -> str:
    """Why the attacker cannot make this attack now ("" when they can): an attack that
    spends the significant action needs two minor actions left this round."""
    if not spend_action:
        return ""
    try:
        spend(actions_spent, ATTACK_ACTION)
    except ValueError as exc:
        return f"{name} cannot {verb}: {exc}"
    return ""


def aim_weapon(sheet: Character, weapon_index: int | None) -> Weapon | None:
    """The weapon the aim is for: the one chosen for the next attack (default the first)."""
    if not sheet.weapons:
        return None
    index = weapon_index if weapon_index is not None else 0
    if not 0 <= index < len(sheet.weapons):
        raise ValueError(f"{sheet.name} has no weapon number {index + 1}")
    return sheet.weapons[index]


def aim_cap_text(weapon: Weapon | None) -> str:
    """"max +12 with Laser Rifle": the cap for the chosen weapon (six aim actions' worth)."""
    if weapon is None:
        return f"max +{aim_cap()}"
    return f"max +{aim_cap(weapon.aim_modifier)} with {weapon.name}"
