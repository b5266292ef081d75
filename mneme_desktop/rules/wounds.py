"""Hit points, wound thresholds and the conditions that follow from damage (Ch.7).

Thresholds are computed here once; the damage track, healing and care levels all read them
from :class:`WoundThresholds` so that a referee sees the same number everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from mneme_desktop.rules.checks import (
    CheckResult,
    characteristic_modifier,
    roll_check,
    success_chance,
)
from mneme_desktop.rules.hit_locations import BodyArea

__all__ = [
    "BLEED_INTERVAL_ROUNDS",
    "DYING_DIFFICULTY",
    "MASSIVE_DAMAGE_DIFFICULTY",
    "SurvivalRoll",
    "TargetedEffect",
    "ThresholdBasis",
    "WoundEffects",
    "WoundState",
    "WoundThresholds",
    "bleeding_damage_between",
    "bleeds",
    "dying_roll_modifier",
    "dying_survival_chance",
    "hit_points",
    "is_massive_damage",
    "massive_damage_survival_chance",
    "next_bleed_round",
    "roll_dying",
    "roll_massive_damage",
    "targeted_damage_divisor",
    "targeted_damage_effect",
    "targeted_damage_threshold",
    "wound_effects",
    "wound_penalty",
    "wound_state",
    "wound_thresholds",
]

DYING_DIFFICULTY = 4
"""Dying: every round an END roll against Difficulty 4, wound penalties apply."""

MASSIVE_DAMAGE_DIFFICULTY = 8
"""Massive damage: more than HP from one attack calls for an END roll against Difficulty 8."""

BLEED_INTERVAL_ROUNDS = 10
"""Bleeding costs 1 damage every minute; a combat round is 6 seconds (First Aid: 3 min = 30)."""


class WoundState(Enum):
    """How badly hurt a character is, in increasing severity.

    ``DEAD`` is only ever the outcome of a failed dying or massive-damage roll;
    :func:`wound_state` never returns it because damage alone does not kill.
    """

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    SERIOUSLY_WOUNDED = "seriously_wounded"
    CRITICALLY_WOUNDED = "critically_wounded"
    DYING = "dying"
    DEAD = "dead"

    @property
    def label(self) -> str:
        """The book's name for the condition."""
        return _STATE_LABELS[self]

    @property
    def severity(self) -> int:
        """0 for unhurt up to 5 for dead, for ordering states."""
        return _STATE_ORDER.index(self)


_STATE_ORDER = tuple(WoundState)
_STATE_LABELS = {
    WoundState.UNHURT: "Unhurt",
    WoundState.WOUNDED: "Wounded",
    WoundState.SERIOUSLY_WOUNDED: "Seriously Wounded",
    WoundState.CRITICALLY_WOUNDED: "Critically Wounded",
    WoundState.DYING: "Dying",
    WoundState.DEAD: "Dead",
}


class ThresholdBasis(Enum):
    """Which of the chapter's two readings sets the seriously/critically thresholds.

    ``HP_FRACTIONS`` (the project default, from the Injury Conditions section):
    seriously wounded at damage >= floor(HP/3), critically at >= floor(2 x HP/3).

    ``CHARACTERISTIC`` (the Character HP Thresholds table, a campaign option):
    seriously wounded at damage >= the best physical characteristic (highest of STR, DEX,
    END) and critically at >= 2 x that same characteristic. The table says "physical
    characteristic" for the second row; we read it as the same best characteristic so the
    two thresholds stay in order. Because 2 x best can exceed HP (STR 15, DEX 1, END 1),
    the critical threshold is capped at HP, keeping "damage == HP is critically wounded".
    """

    HP_FRACTIONS = "hp_fractions"
    CHARACTERISTIC = "characteristic"


@dataclass(frozen=True)
class WoundThresholds:
    """The damage at which each wound state begins, plus the rule text that produced it.

    ``seriously`` and ``critically`` are the first damage values of those states; dying
    starts at ``hp + 1``. Both are at least 1 and ``seriously <= critically <= hp``.
    """

    seriously: int
    critically: int
    hp: int
    basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS

    def __post_init__(self) -> None:
        if self.hp < 1:
            raise ValueError(f"hit points must be at least 1, not {self.hp}")
        if not 1 <= self.seriously <= self.critically <= self.hp:
            raise ValueError(
                "wound thresholds must satisfy 1 <= seriously <= critically <= HP, got "
                f"seriously {self.seriously}, critically {self.critically}, HP {self.hp}"
            )

    @property
    def dying(self) -> int:
        """The first damage value that is Dying (damage > HP)."""
        return self.hp + 1

    @property
    def wounded_rule(self) -> str:
        return "Wounded: any damage (damage >= 1)"

    @property
    def seriously_rule(self) -> str:
        if self.basis is ThresholdBasis.CHARACTERISTIC:
            return f"Seriously wounded: damage >= best physical characteristic = {self.seriously}"
        if self.hp // 3 < 1:
            return f"Seriously wounded: damage >= max(1, floor(HP/3)) = {self.seriously}"
        return f"Seriously wounded: damage >= floor(HP/3) = {self.seriously}"

    @property
    def critically_rule(self) -> str:
        if self.basis is ThresholdBasis.CHARACTERISTIC:
            if self.critically == self.hp and self.critically < 2 * self.seriously:
                return (
                    "Critically wounded: damage >= min(2 x best physical characteristic, HP)"
                    f" = {self.critically}"
                )
            return (
                "Critically wounded: damage >= 2 x best physical characteristic"
                f" = {self.critically}"
            )
        if 2 * self.hp // 3 < self.seriously:
            return (
                f"Critically wounded: damage >= max(seriously, floor(2 x HP/3)) = {self.critically}"
            )
        return f"Critically wounded: damage >= floor(2 x HP/3) = {self.critically}"

    @property
    def dying_rule(self) -> str:
        return f"Dying: damage > HP = {self.hp}"

    def rule_for(self, state: WoundState) -> str:
        """The rule text that places a damage value in ``state``."""
        rules = {
            WoundState.UNHURT: "Unhurt: no damage",
            WoundState.WOUNDED: self.wounded_rule,
            WoundState.SERIOUSLY_WOUNDED: self.seriously_rule,
            WoundState.CRITICALLY_WOUNDED: self.critically_rule,
            WoundState.DYING: self.dying_rule,
        }
        if state not in rules:
            raise ValueError(f"{state.label} is not reached by damage alone")
        return rules[state]


def hit_points(strength: int, dexterity: int, endurance: int) -> int:
    """Character HP = STR + DEX + END."""
    for name, value in (("STR", strength), ("DEX", dexterity), ("END", endurance)):
        if value < 0:
            raise ValueError(f"{name} cannot be negative, got {value}")
    return strength + dexterity + endurance


def wound_thresholds(
    hp: int,
    basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS,
    physical: tuple[int, int, int] | None = None,
) -> WoundThresholds:
    """Seriously and critically wounded thresholds for ``hp`` under ``basis``.

    HP fractions round down as the book says; for HP below 3 the seriously threshold is
    raised to 1 so that damage 0 is never a wound. ``physical`` is (STR, DEX, END) and is
    required for the characteristic basis.
    """
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, not {hp}")
    if basis is ThresholdBasis.HP_FRACTIONS:
        seriously = max(1, hp // 3)
        critically = max(seriously, 2 * hp // 3)
        return WoundThresholds(seriously, critically, hp, basis)
    if physical is None:
        raise ValueError(
            "the characteristic threshold basis needs the physical characteristics (STR, DEX, END)"
        )
    if min(physical) < 0:
        raise ValueError(f"physical characteristics cannot be negative, got {physical}")
    best = max(physical)
    seriously = min(max(1, best), hp)
    critically = min(max(seriously, 2 * best), hp)
    return WoundThresholds(seriously, critically, hp, basis)


def _checked_thresholds(hp: int, thresholds: WoundThresholds | None) -> WoundThresholds:
    if thresholds is None:
        return wound_thresholds(hp)
    if thresholds.hp != hp:
        raise ValueError(f"thresholds were computed for HP {thresholds.hp}, not HP {hp}")
    return thresholds


def wound_state(damage: int, hp: int, thresholds: WoundThresholds | None = None) -> WoundState:
    """The wound state for total ``damage``; damage equal to HP is still critically wounded."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    limits = _checked_thresholds(hp, thresholds)
    if damage == 0:
        return WoundState.UNHURT
    if damage > hp:
        return WoundState.DYING
    if damage >= limits.critically:
        return WoundState.CRITICALLY_WOUNDED
    if damage >= limits.seriously:
        return WoundState.SERIOUSLY_WOUNDED
    return WoundState.WOUNDED


def wound_penalty(damage: int) -> int:
    """-1 to all mental and physical rolls for every 3 damage (0 or negative)."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    return -(damage // 3)


def bleeds(roll_damage: int, hp: int) -> bool:
    """Whether one damage roll starts Bleeding: damage >= floor(HP/3) from that single roll.

    The trigger is quoted in HP fractions, so it stays on them even under the characteristic
    threshold option. A roll that does no damage never bleeds.
    """
    if roll_damage < 0:
        raise ValueError(f"damage cannot be negative, got {roll_damage}")
    return roll_damage >= 1 and roll_damage >= wound_thresholds(hp).seriously


def next_bleed_round(start_round: int, current_round: int) -> int:
    """The first round after ``current_round`` in which bleeding started at ``start_round``
    costs a point: every :data:`BLEED_INTERVAL_ROUNDS` rounds, the first a minute after."""
    if current_round < start_round:
        return start_round + BLEED_INTERVAL_ROUNDS
    ticks_so_far = (current_round - start_round) // BLEED_INTERVAL_ROUNDS
    return start_round + (ticks_so_far + 1) * BLEED_INTERVAL_ROUNDS


def bleeding_damage_between(start_round: int, from_round: int, to_round: int) -> int:
    """Bleeding damage taken in rounds ``from_round`` (exclusive) to ``to_round`` (inclusive).

    The bleeding wound was taken in ``start_round``; the first point is lost a minute later
    (``start_round + 10``) and one more every minute until first aid stops it.
    """
    if to_round < from_round:
        raise ValueError(f"round {to_round} is before round {from_round}")

    def ticks_up_to(round_number: int) -> int:
        if round_number < start_round:
            return 0
        return (round_number - start_round) // BLEED_INTERVAL_ROUNDS

    return ticks_up_to(to_round) - ticks_up_to(from_round)


@dataclass(frozen=True)
class SurvivalRoll:
    """An END roll to stay alive (2d6 + END modifier + wound penalty vs a Difficulty),
    keeping the whole check so the table can see the dice."""

    check: CheckResult

    @property
    def survived(self) -> bool:
        return self.check.success

    @property
    def outcome(self) -> WoundState:
        """Still dying after a success (damage > HP either way); dead after a failure."""
        return WoundState.DYING if self.survived else WoundState.DEAD


def _survival_modifier(endurance: int, damage: int) -> int:
    return characteristic_modifier(endurance) + wound_penalty(damage)


def dying_roll_modifier(endurance: int, damage: int) -> int:
    """END characteristic modifier plus the wound penalty for the current damage."""
    return _survival_modifier(endurance, damage)


def dying_survival_chance(endurance: int, damage: int) -> Fraction:
    """Exact chance of surviving one round of dying (END roll vs Difficulty 4)."""
    return success_chance(_survival_modifier(endurance, damage), DYING_DIFFICULTY)


def roll_dying(rng: random.Random, endurance: int, damage: int) -> SurvivalRoll:
    """One round's dying roll; a failure means the character is dead."""
    return SurvivalRoll(roll_check(rng, _survival_modifier(endurance, damage), DYING_DIFFICULTY))


def is_massive_damage(attack_damage: int, hp: int) -> bool:
    """More than HP in total damage from one attack calls for a massive-damage roll."""
    if attack_damage < 0:
        raise ValueError(f"damage cannot be negative, got {attack_damage}")
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, not {hp}")
    return attack_damage > hp


def massive_damage_survival_chance(endurance: int, damage: int) -> Fraction:
    """Exact chance of surviving massive damage: END roll vs 8 with wound penalties.

    ``damage`` is the character's total damage after the attack (it sets the penalty).
    """
    return success_chance(_survival_modifier(endurance, damage), MASSIVE_DAMAGE_DIFFICULTY)


def roll_massive_damage(rng: random.Random, endurance: int, damage: int) -> SurvivalRoll:
    """The massive-damage roll; a survivor is crippled and dying, a failure is dead."""
    modifier = _survival_modifier(endurance, damage)
    return SurvivalRoll(roll_check(rng, modifier, MASSIVE_DAMAGE_DIFFICULTY))


@dataclass(frozen=True)
class WoundEffects:
    """What a wound state does to the character, for the tracker and combat screens."""

    movement: Fraction
    can_dash: bool
    conscious: bool
    mobile: bool
    dying_rolls: bool
    care_note: str


_EFFECTS = {
    WoundState.UNHURT: WoundEffects(Fraction(1), True, True, True, False, ""),
    WoundState.WOUNDED: WoundEffects(Fraction(1), True, True, True, False, ""),
    WoundState.SERIOUSLY_WOUNDED: WoundEffects(
        Fraction(3, 4),
        False,
        True,
        True,
        False,
        "Movement at 3/4 and no Dash; needs surgery after first aid.",
    ),
    WoundState.CRITICALLY_WOUNDED: WoundEffects(
        Fraction(0),
        False,
        False,
        False,
        False,
        "Typically knocked out: unconscious and helpless; stimulants can wake the character, "
        "violent actions cause Bleeding.",
    ),
    WoundState.DYING: WoundEffects(
        Fraction(0),
        False,
        False,
        False,
        True,
        "Unconscious and immobile; END roll vs 4 every round; needs intensive care. First aid "
        "stabilises for END hours.",
    ),
    WoundState.DEAD: WoundEffects(Fraction(0), False, False, False, False, "Dead."),
}


def wound_effects(state: WoundState) -> WoundEffects:
    """Movement, consciousness and care notes for a wound state."""
    return _EFFECTS[state]


class TargetedEffect(Enum):
    """What a targeted hit does once it passes the location's threshold."""

    CRIPPLED = "crippled"
    STUNNED = "stunned"
    BLEEDING = "bleeding"


_TARGETED = {
    BodyArea.LIMB: (3, TargetedEffect.CRIPPLED),
    BodyArea.EXTREMITY: (10, TargetedEffect.CRIPPLED),
    BodyArea.HEAD: (10, TargetedEffect.STUNNED),
    BodyArea.VITALS: (10, TargetedEffect.BLEEDING),
}


def targeted_damage_divisor(body_area: BodyArea) -> int | None:
    """The fraction of HP a location's threshold is (3 for limbs' 1/3, 10 for 1/10); None
    for the body, which has no targeted effect."""
    rule = _TARGETED.get(body_area)
    return None if rule is None else rule[0]


def targeted_damage_threshold(body_area: BodyArea, hp: int) -> int | None:
    """Damage to one location that triggers its special effect, or None for the body.

    Limbs need 1/3 HP, extremities, head and vitals 1/10 HP, rounded down like every other
    HP fraction in the chapter, but at least 1 so that a scratch never cripples.
    """
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, not {hp}")
    rule = _TARGETED.get(body_area)
    if rule is None:
        return None
    return max(1, hp // rule[0])


def targeted_damage_effect(body_area: BodyArea, damage: int, hp: int) -> TargetedEffect | None:
    """The special effect of ``damage`` taken at a targeted location, if it reaches the
    threshold (limbs >= 1/3 HP crippled; extremities >= 1/10 HP crippled; head >= 1/10 HP
    stunned; vitals >= 1/10 HP bleeding)."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    threshold = targeted_damage_threshold(body_area, hp)
    if threshold is None or damage < threshold:
        return None
    return _TARGETED[body_area][1]
