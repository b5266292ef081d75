"""Damage outcomes (Ch.7): mitigation, damage rolls, rate of attack, armor, scale and cover.

A success effect buys extra damage rolls for the attacker; a fail effect, after the three
priorities of mitigating factors, is the number of damage rolls the PC takes. Armor is
applied to every damage roll separately. Dice values are taken from
:class:`~mneme_desktop.rules.dice.DiceExpression` as final damage points (its scale, if any,
already applied); armor passed here must be in the same units (see :func:`scaled_armor`).
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from mneme_desktop.rules.dice import DiceExpression, Scale

__all__ = [
    "CoverAbsorption",
    "DamageResult",
    "Mitigation",
    "apply_armor",
    "armored_distribution",
    "cover_absorption",
    "damage_rolls",
    "expected_damage",
    "expected_kept_damage",
    "fail_damage_rolls",
    "mitigate",
    "parse_armor_rating",
    "parse_hit_points",
    "roll_damage",
    "scale_immune",
    "scaled_armor",
    "scaled_hit_points",
]

MINIMUM_DAMAGE_EFFECT = 6
"""A hit with Effect 6+ always inflicts at least one point of damage."""


def _non_negative(name: str, value: int) -> None:
    if value < 0:
        raise ValueError(f"{name} cannot be negative, got {value}")


@dataclass(frozen=True)
class Mitigation:
    """How a fail effect was reduced by each priority of mitigating factors.

    ``by_cover`` is also the number of damage rolls the cover takes; ``remaining`` is the
    number of damage rolls that reach the character.
    """

    fail_effect: int
    by_conditions: int
    by_cover: int
    by_skill: int
    remaining: int

    @property
    def ordinary_failure(self) -> bool:
        """Reduced to zero: only the opportunity is lost."""
        return self.remaining == 0

    @property
    def cover_rolls(self) -> int:
        return self.by_cover


def mitigate(fail_effect: int, conditions: int, cover: int, skill: int) -> Mitigation:
    """Apply conditions, then cover, then skill to a fail effect, never below zero.

    Example (Ch.7): fail effect 7 with conditions 3, cover 2 and skill 2 is reduced by
    3, 2 and 2 to 0, an ordinary failure.
    """
    for name, value in (
        ("fail effect", fail_effect),
        ("conditions", conditions),
        ("cover", cover),
        ("skill", skill),
    ):
        _non_negative(name, value)
    left = fail_effect
    by_conditions = min(left, conditions)
    left -= by_conditions
    by_cover = min(left, cover)
    left -= by_cover
    by_skill = min(left, skill)
    left -= by_skill
    return Mitigation(fail_effect, by_conditions, by_cover, by_skill, left)


@dataclass(frozen=True)
class CoverAbsorption:
    """Damage rolls split between the cover and the character behind it."""

    cover_rolls: int
    character_rolls: int


def cover_absorption(fail_effect: int, cover_protection: int) -> CoverAbsorption:
    """The cover takes as many damage rolls as the fail effect it absorbs, up to its
    protection (its Difficulty modifier); the rest reach the character.

    ``fail_effect`` is the degree left after the first-priority conditions. Skill is applied
    to the character's share afterwards (see :func:`mitigate`). Shield example: fail effect
    3 behind a shield of protection 2 -> the shield takes 2 rolls, the PC 1.
    """
    _non_negative("fail effect", fail_effect)
    _non_negative("cover protection", cover_protection)
    cover_rolls = min(fail_effect, cover_protection)
    return CoverAbsorption(cover_rolls, fail_effect - cover_rolls)


def _check_rate(rate_of_attack: int | None) -> None:
    if rate_of_attack is not None and rate_of_attack < 1:
        raise ValueError(f"rate of attack must be at least 1, got {rate_of_attack}")


def damage_rolls(success_effect: int, rate_of_attack: int | None = None) -> tuple[int, int]:
    """(rolled, kept): one damage roll for the success plus one per point of success effect;
    a limited rate of attack keeps only that many of the highest rolls (None = unlimited)."""
    _non_negative("success effect", success_effect)
    _check_rate(rate_of_attack)
    rolled = 1 + success_effect
    kept = rolled if rate_of_attack is None else min(rolled, rate_of_attack)
    return rolled, kept


def fail_damage_rolls(fail_effect: int, rate_of_attack: int | None = None) -> tuple[int, int]:
    """(rolled, kept): one damage roll against the PC per point of (mitigated) fail effect,
    keeping the highest up to the adversaries' total rate of attack (None = unlimited)."""
    _non_negative("fail effect", fail_effect)
    _check_rate(rate_of_attack)
    kept = fail_effect if rate_of_attack is None else min(fail_effect, rate_of_attack)
    return fail_effect, kept


def apply_armor(damage: int, armor: int, effect: int = 0) -> int:
    """Damage of one roll after armor, never below 0.

    A hit with Effect 6+ always inflicts at least 1 point: the book says "always ...
    regardless of the target's armor", so the minimum also covers a roll that was 0 or less
    before armor.
    """
    _non_negative("armor", armor)
    after = max(0, damage - armor)
    if effect >= MINIMUM_DAMAGE_EFFECT:
        return max(1, after)
    return after


def scale_immune(target_scale: Scale, attack_scale: Scale) -> bool:
    """A target of a larger damage scale ignores damage of a lesser scale."""
    return target_scale.multiplier > attack_scale.multiplier


def scaled_armor(armor: int, scale: Scale) -> int:
    """Armor in plain AR: DAR 2 = 20 AR, HAR 9 = 900 AR, KAR 3 = 3,000 AR."""
    _non_negative("armor", armor)
    return armor * scale.multiplier


def scaled_hit_points(hp: int, scale: Scale) -> int:
    """Hit points in plain HP: 20 DHP = 200 HP, 3 HHP = 300 HP, 67 KHP = 67,000 HP."""
    _non_negative("hit points", hp)
    return hp * scale.multiplier


_ARMOR_RE = re.compile(r"^\s*([DHK]?)AR\s*(\d+)\s*$", re.IGNORECASE)
_HP_RE = re.compile(r"^\s*(\d+)\s*([DHK]?)HP\s*$", re.IGNORECASE)


def parse_armor_rating(text: str) -> int:
    """Plain armor from notation such as "AR 5", "DAR 2" (20) or "KAR 3" (3,000)."""
    match = _ARMOR_RE.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not an armor rating such as 'AR 5' or 'DAR 2'")
    return scaled_armor(int(match.group(2)), Scale.from_prefix(match.group(1)))


def parse_hit_points(text: str) -> int:
    """Plain HP from notation such as "21 HP", "20 DHP" (200) or "67 KHP" (67,000)."""
    match = _HP_RE.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not hit points such as '21 HP' or '20 DHP'")
    return scaled_hit_points(int(match.group(1)), Scale.from_prefix(match.group(2)))


@dataclass(frozen=True)
class DamageResult:
    """One attack's damage rolls: raw values, which were kept, each after armor, and total.

    ``after_armor`` has an entry for every roll (what it would have done); only kept rolls
    count towards ``total``.
    """

    rolls: tuple[int, ...]
    kept: tuple[bool, ...]
    after_armor: tuple[int, ...]
    total: int

    @property
    def kept_damage(self) -> tuple[int, ...]:
        return tuple(d for d, k in zip(self.after_armor, self.kept, strict=True) if k)


def _check_rolls(rolls: int, keep: int) -> None:
    _non_negative("damage rolls", rolls)
    if not 0 <= keep <= rolls:
        raise ValueError(f"cannot keep {keep} of {rolls} damage rolls")


def roll_damage(
    rng: random.Random,
    dice: DiceExpression,
    rolls: int,
    keep: int,
    armor: int = 0,
    effect: int = 0,
) -> DamageResult:
    """Roll ``rolls`` damage rolls of ``dice``, keep the ``keep`` highest (earliest wins ties)
    and apply armor to each roll separately."""
    _check_rolls(rolls, keep)
    _non_negative("armor", armor)
    raw = tuple(dice.roll(rng) for _ in range(rolls))
    best = sorted(range(rolls), key=lambda i: (-raw[i], i))[:keep]
    kept = tuple(i in best for i in range(rolls))
    after = tuple(apply_armor(value, armor, effect) for value in raw)
    total = sum(value for value, k in zip(after, kept, strict=True) if k)
    return DamageResult(raw, kept, after, total)


def armored_distribution(
    dice: DiceExpression, armor: int = 0, effect: int = 0
) -> dict[int, Fraction]:
    """Exact odds of one damage roll after armor (3d3-2 against armor 3 is 3d3-5, floored
    at 0, or at 1 for a hit with Effect 6+)."""
    _non_negative("armor", armor)
    per_roll: dict[int, Fraction] = {}
    for value, chance in dice.distribution().items():
        damage = apply_armor(value, armor, effect)
        per_roll[damage] = per_roll.get(damage, Fraction(0)) + chance
    return dict(sorted(per_roll.items()))


@functools.lru_cache(maxsize=1024)
def expected_kept_damage(
    dice: DiceExpression, rolls: int, keep: int, armor: int = 0, effect: int = 0
) -> Fraction:
    """Exact expected total of the best ``keep`` of ``rolls`` independent damage rolls after
    armor.

    Armor is monotone, so the best rolls before armor are the best after it. For damage
    Y >= 0, E[sum of the top k] = sum over t >= 1 of E[min(k, #rolls with Y >= t)], and that
    count is binomial with p = P(Y >= t); p only changes at the support values.
    """
    _check_rolls(rolls, keep)
    per_roll = armored_distribution(dice, armor, effect)
    total = Fraction(0)
    previous = 0
    at_least = Fraction(sum(per_roll.values()))  # P(Y >= t) for t just above `previous`
    for value in sorted(per_roll):
        if value > previous:
            total += (value - previous) * _expected_min_binomial(rolls, at_least, keep)
            previous = value
        at_least -= per_roll[value]
    return total


def _expected_min_binomial(n: int, p: Fraction, k: int) -> Fraction:
    """E[min(k, X)] for X ~ Binomial(n, p), summed over one denominator in integers (the
    same exact value as summing Fractions term by term, a good deal faster)."""
    a, b = p.numerator, p.denominator
    total = sum(comb(n, i) * a**i * (b - a) ** (n - i) * min(i, k) for i in range(n + 1))
    return Fraction(total, b**n)


def expected_damage(
    dice: DiceExpression,
    success_effect: int,
    rate_of_attack: int | None = None,
    armor: int = 0,
) -> Fraction:
    """Exact expected damage of a successful attack before rolling: 1 + effect rolls, the
    best ``rate_of_attack`` kept, armor per roll, and the Effect 6+ minimum of 1."""
    rolled, kept = damage_rolls(success_effect, rate_of_attack)
    return expected_kept_damage(dice, rolled, kept, armor, success_effect)
