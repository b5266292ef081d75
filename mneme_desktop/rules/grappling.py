"""Grappling (Ch.6): maneuvers and their Difficulty, the effects table, throws and sweeps."""

from __future__ import annotations

import math
from enum import Enum
from fractions import Fraction
from typing import NamedTuple

from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    UNSKILLED,
    DifficultyBreakdown,
    DifficultyTerm,
    TermKind,
)
from mneme_desktop.rules.dice import DiceExpression

__all__ = [
    "GRAPPLE_EFFECTS",
    "THROW_DAMAGE",
    "TWIST_DAMAGE",
    "GrappleEffect",
    "GrappleEffectDef",
    "GrappleManeuver",
    "GrappleWeapon",
    "grapple_difficulty",
    "grapple_effect",
    "grapple_effects_cost",
    "grapple_roll_modifier",
    "sweep_effect_cost",
    "throw_effect_cost",
]


class GrappleManeuver(Enum):
    """A grappling maneuver declared before the roll, with the Difficulty it adds."""

    NONE = "none"
    TARGETED_LIMB = "targeted_limb"
    TARGETED_EXTREMITY = "targeted_extremity"
    THROW = "throw"
    SWEEP = "sweep"

    @property
    def difficulty(self) -> int:
        return _MANEUVER_DIFFICULTY[self]

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()


_MANEUVER_DIFFICULTY = {
    GrappleManeuver.NONE: 0,
    GrappleManeuver.TARGETED_LIMB: 1,
    GrappleManeuver.TARGETED_EXTREMITY: 2,
    GrappleManeuver.THROW: 3,
    GrappleManeuver.SWEEP: 2,
}


class GrappleWeapon(Enum):
    """The chapter's weapons factor (Ch.6 grappling step 1): "Close quarter Weapons like
    knives, stun gloves factor the difficulty by 1 if someone has this over the other party.
    Pistols increase the difficulty by 2. Cumbersome objects like shields, rifles, spears can
    affect grappling Difficulty." A knife on the target's side makes the grapple harder, on
    the grappler's side easier; a pistol in the clinch is +2; a cumbersome object is the
    referee's number (``factor`` None)."""

    NONE = "none"
    TARGET_CLOSE_QUARTERS = "target_close_quarters"
    GRAPPLER_CLOSE_QUARTERS = "grappler_close_quarters"
    PISTOL = "pistol"
    CUMBERSOME = "cumbersome"

    @property
    def factor(self) -> int | None:
        return _WEAPON_FACTORS[self]


_WEAPON_FACTORS: dict[GrappleWeapon, int | None] = {
    GrappleWeapon.NONE: 0,
    GrappleWeapon.TARGET_CLOSE_QUARTERS: 1,
    GrappleWeapon.GRAPPLER_CLOSE_QUARTERS: -1,
    GrappleWeapon.PISTOL: 2,
    GrappleWeapon.CUMBERSOME: None,
}


def grapple_roll_modifier(skill: int | None, chm: int) -> int:
    """The grappler's DM: Natural Weapons / unarmed skill + ChM, or -3 unskilled."""
    return (UNSKILLED if skill is None else skill) + chm


def grapple_difficulty(
    adversary_chm: int,
    maneuver: GrappleManeuver = GrappleManeuver.NONE,
    adversary_skilled: bool = True,
    weapon_factor: int = 0,
    base: int = DEFAULT_DIFFICULTY,
) -> DifficultyBreakdown:
    """The Difficulty of a grappling roll, term by term.

    ``adversary_chm`` is the adversary's STR or DEX DM; an unskilled adversary lowers the
    Difficulty by 3. ``weapon_factor`` is the referee's weapons factor (a close-quarters
    weapon ±1, a pistol +2, cumbersome objects as judged).
    """
    candidates = (
        DifficultyTerm("Adversary STR/DEX DM", adversary_chm, "Ch.6 grappling step 1"),
        DifficultyTerm(
            "Adversary unskilled", 0 if adversary_skilled else UNSKILLED, "Ch.6 grappling step 1"
        ),
        DifficultyTerm("Weapons factor", weapon_factor, "Ch.6 grappling step 1"),
        DifficultyTerm(
            f"Maneuver: {maneuver.label}",
            maneuver.difficulty,
            "Ch.6 grappling step 2",
            TermKind.TARGETED,
        ),
    )
    terms = (
        DifficultyTerm("Base difficulty", base, "Ch.6 grappling", TermKind.BASE),
        *(term for term in candidates if term.value != 0),
    )
    return DifficultyBreakdown(terms)


class GrappleEffect(Enum):
    TARGET_LIMB = "target_limb"
    TARGET_EXTREMITY = "target_extremity"
    DAMAGE = "damage"
    BIND = "bind"
    THROW = "throw"
    SWEEP = "sweep"


class GrappleEffectDef(NamedTuple):
    """A row of the grappling effects table.

    ``effect_cost`` is the Success Effect spent after the roll (None = depends on the
    target: see :func:`throw_effect_cost` and :func:`sweep_effect_cost`); ``difficulty``
    is the Difficulty added when declared before the roll instead.
    """

    effect: GrappleEffect
    name: str
    target: str
    effect_cost: int | None
    difficulty: int
    notes: str


GRAPPLE_EFFECTS: tuple[GrappleEffectDef, ...] = (
    GrappleEffectDef(
        GrappleEffect.TARGET_LIMB, "Target Limb", "Limb", 2, 1, "Target a limb with Bind or Damage"
    ),
    GrappleEffectDef(
        GrappleEffect.TARGET_EXTREMITY,
        "Target Extremity",
        "Extremity",
        3,
        2,
        "Target a hand/foot with bind or damage.",
    ),
    GrappleEffectDef(
        GrappleEffect.DAMAGE,
        "Damage",
        "Body, limb or extremity",
        2,
        1,
        "Deal 1d3 damage to the target. Twisting of limbs and extremities; armor does not "
        "affect this damage. No target assumes a body Throw.",
    ),
    GrappleEffectDef(
        GrappleEffect.BIND,
        "Bind",
        "Target",
        2,
        1,
        "Render the target unusable or bound while grappled.",
    ),
    GrappleEffectDef(
        GrappleEffect.THROW,
        "Throws",
        "Body",
        None,
        3,
        "Throw an adversary with Effect equal to 1/6 (round up) their HP. Target is lying "
        "down. Takes 2d3 damage.",
    ),
    GrappleEffectDef(
        GrappleEffect.SWEEP,
        "Sweeps",
        "Legs",
        None,
        2,
        "Throw an adversary with Effect/Diff equal to 1/2 (round up) their Dex. Target is Prone.",
    ),
)

THROW_DAMAGE = DiceExpression(2, 3)
"""Damage a thrown grappling target takes."""
TWIST_DAMAGE = DiceExpression(1, 3)
"""Grappling damage (twisting limbs and extremities); armor does not reduce it."""


def grapple_effect(effect: GrappleEffect) -> GrappleEffectDef:
    return next(row for row in GRAPPLE_EFFECTS if row.effect is effect)


def throw_effect_cost(hp: int) -> int:
    """Success Effect needed to throw an adversary: 1/6 of their HP, rounded up."""
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, got {hp}")
    return math.ceil(Fraction(hp, 6))


def sweep_effect_cost(dex: int) -> int:
    """Success Effect needed to sweep an adversary: 1/2 of their DEX, rounded up."""
    if dex < 0:
        raise ValueError(f"DEX cannot be negative, got {dex}")
    return math.ceil(Fraction(dex, 2))


_DECLARED = {
    GrappleManeuver.TARGETED_LIMB: GrappleEffect.TARGET_LIMB,
    GrappleManeuver.TARGETED_EXTREMITY: GrappleEffect.TARGET_EXTREMITY,
    GrappleManeuver.THROW: GrappleEffect.THROW,
    GrappleManeuver.SWEEP: GrappleEffect.SWEEP,
}


def grapple_effects_cost(
    effects: frozenset[GrappleEffect],
    declared: GrappleManeuver = GrappleManeuver.NONE,
    hp: int = 1,
    dex: int = 0,
) -> int:
    """The Success Effect a set of grappling effects costs (Ch.6 step 3, the Effect column).

    The effect of the maneuver declared before the roll is already paid for by its
    Difficulty (the table's Difficulty column) and costs nothing; a throw costs 1/6 of the
    target's ``hp`` and a sweep 1/2 of their ``dex``, rounded up. A limb or an extremity is
    targeted "with Bind or Damage", so it needs one of them; one limb or one extremity, and
    a throw or a sweep, not both. Raises ValueError for a set the table does not allow.
    """
    if {GrappleEffect.TARGET_LIMB, GrappleEffect.TARGET_EXTREMITY} <= effects:
        raise ValueError("target a limb or an extremity, not both")
    if {GrappleEffect.THROW, GrappleEffect.SWEEP} <= effects:
        raise ValueError("throw or sweep, not both")
    targeted = effects & {GrappleEffect.TARGET_LIMB, GrappleEffect.TARGET_EXTREMITY}
    if targeted and not effects & {GrappleEffect.DAMAGE, GrappleEffect.BIND}:
        raise ValueError("a limb or an extremity is targeted with Bind or Damage")
    free = _DECLARED.get(declared)
    cost = 0
    paid = effects if free is None else effects - {free}
    for effect in paid:
        row = grapple_effect(effect)
        if row.effect_cost is not None:
            cost += row.effect_cost
        elif effect is GrappleEffect.THROW:
            cost += throw_effect_cost(hp)
        else:
            cost += sweep_effect_cost(dex)
    return cost
