"""Natural healing, medical care, first aid, surgery and therapy (Ch.7).

Healing rates come from the Natural Healing and Medical Care table, with the Critically
Wounded row read as damage >= floor(2 x HP/3) (the table's "< 2/3 HP" is a typo). "Care"
means the care level the wound state needs (light care for wounded, moderate for seriously,
serious for critically, intensive for dying).

Fractional rates: progress accrues day by day at the rate of the condition the character is
in at the start of that day; a whole point heals each time progress reaches 1 and leftover
progress carries over (also across a change of condition). A day at a rate of 0 (more
strenuous activity than the condition allows to heal) gains nothing that day.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import repeat

from mneme_desktop.rules.checks import UNSKILLED, CheckResult, roll_check, success_chance
from mneme_desktop.rules.wounds import WoundState, WoundThresholds, wound_state, wound_thresholds

__all__ = [
    "FIRST_AID_DIFFICULTY",
    "FIRST_AID_SELF_DIFFICULTY",
    "INTENSIVE_CARE_DIFFICULTY",
    "INTENSIVE_CARE_HEALING",
    "LIGHT_CARE_MONITORING",
    "MONITORING_NOTE",
    "SUPERVISOR_MIN_MEDIC",
    "SURGERY_DIFFICULTY",
    "SURGERY_MINUTES",
    "THERAPY_DAYS_PER_POINT",
    "Activity",
    "CareLevel",
    "DayRecord",
    "InfirmaryCapacity",
    "IntensiveCareResult",
    "PlanSegment",
    "SurgeryOutcome",
    "TherapyStep",
    "care_for_state",
    "care_level",
    "care_load",
    "characteristic_therapy_days",
    "first_aid_difficulty",
    "first_aid_healing",
    "first_aid_stabilisation_hours",
    "healing_rate",
    "healing_rule",
    "infirmary_capacity",
    "intensive_care_needs_roll",
    "intensive_care_success_chance",
    "medic_capacity",
    "medic_check_modifier",
    "plan_characteristic_therapy",
    "project_recovery",
    "recovery_days",
    "roll_intensive_care",
    "surgery_healing",
    "surgery_outcome",
    "total_care_load",
]

FIRST_AID_DIFFICULTY = 8
FIRST_AID_SELF_DIFFICULTY = 10

SURGERY_DIFFICULTY = 8
SURGERY_MINUTES = 30

INTENSIVE_CARE_DIFFICULTY = 8
INTENSIVE_CARE_HEALING = 2
SUPERVISOR_MIN_MEDIC = 2
"""Medic 2+ supervises intensive care without rolls and doubles supervised medics' capacity."""

LIGHT_CARE_MONITORING = 32
MONITORING_NOTE = "A character with Medic 0 can monitor 32 light care patients in a day."

THERAPY_DAYS_PER_POINT = 3


class Activity(Enum):
    """Activity level on a healing day, from most to least strenuous."""

    MODERATE = "moderate"
    LIGHT = "light"
    FULL_REST = "full_rest"

    @property
    def label(self) -> str:
        return {
            Activity.MODERATE: "moderate activity",
            Activity.LIGHT: "light activity",
            Activity.FULL_REST: "full rest",
        }[self]


class CareLevel(Enum):
    """Medical care levels and their patient load in light-care units."""

    LIGHT = "light"
    MODERATE = "moderate"
    SERIOUS = "serious"
    INTENSIVE = "intensive"

    @property
    def load(self) -> int:
        return care_load(self)

    @property
    def label(self) -> str:
        return f"{self.value} care"


_LOADS = {CareLevel.LIGHT: 1, CareLevel.MODERATE: 2, CareLevel.SERIOUS: 4, CareLevel.INTENSIVE: 8}

_CARE_FOR_STATE = {
    WoundState.WOUNDED: CareLevel.LIGHT,
    WoundState.SERIOUSLY_WOUNDED: CareLevel.MODERATE,
    WoundState.CRITICALLY_WOUNDED: CareLevel.SERIOUS,
    WoundState.DYING: CareLevel.INTENSIVE,
}

_F = Fraction
# (state, activity) -> (rate without care, rate with the care the state needs); None: immobile.
_RATES: dict[tuple[WoundState, Activity], tuple[Fraction | None, Fraction | None]] = {
    (WoundState.WOUNDED, Activity.MODERATE): (_F(0), _F(1, 3)),
    (WoundState.WOUNDED, Activity.LIGHT): (_F(1, 2), _F(1)),
    (WoundState.WOUNDED, Activity.FULL_REST): (_F(1), _F(2)),
    (WoundState.SERIOUSLY_WOUNDED, Activity.MODERATE): (_F(0), _F(0)),
    (WoundState.SERIOUSLY_WOUNDED, Activity.LIGHT): (_F(1, 3), _F(1, 2)),
    (WoundState.SERIOUSLY_WOUNDED, Activity.FULL_REST): (_F(1, 2), _F(1)),
    (WoundState.CRITICALLY_WOUNDED, Activity.MODERATE): (None, None),
    (WoundState.CRITICALLY_WOUNDED, Activity.LIGHT): (None, None),
    (WoundState.CRITICALLY_WOUNDED, Activity.FULL_REST): (_F(1, 7), _F(1, 3)),
    (WoundState.DYING, Activity.MODERATE): (None, None),
    (WoundState.DYING, Activity.LIGHT): (None, None),
    (WoundState.DYING, Activity.FULL_REST): (_F(1, 7), _F(1, 3)),
}


def care_load(level: CareLevel) -> int:
    """Patient load in light-care units: light 1, moderate 2, serious 4, intensive 8."""
    return _LOADS[level]


def care_for_state(state: WoundState) -> CareLevel | None:
    """The care level a wound state needs; None when unhurt (or dead)."""
    return _CARE_FOR_STATE.get(state)


def care_level(damage: int, hp: int, thresholds: WoundThresholds | None = None) -> CareLevel | None:
    """The care level for ``damage``, on the same thresholds as :func:`wound_state`.

    Light below the seriously threshold, moderate from it, serious from critically wounded
    (including damage == HP), intensive when dying; None for an unhurt character.
    """
    return care_for_state(wound_state(damage, hp, thresholds))


def total_care_load(levels: Iterable[CareLevel]) -> int:
    """Sum of patient loads in light-care units."""
    return sum(care_load(level) for level in levels)


def healing_rate(state: WoundState, activity: Activity, care: bool) -> Fraction | None:
    """Damage healed per day; 0 for no healing, None when the activity is impossible
    (critically wounded and dying characters are immobile)."""
    if state is WoundState.UNHURT:
        return Fraction(0)
    if state is WoundState.DEAD:
        raise ValueError("the dead do not heal")
    without_care, with_care = _RATES[(state, activity)]
    return with_care if care else without_care


def _rate_text(rate: Fraction | None) -> str:
    if rate is None:
        return "immobile, cannot heal"
    if rate == 0:
        return "no healing"
    if rate.numerator == 1:
        return "-1 dmg / day" if rate.denominator == 1 else f"-1 dmg / {rate.denominator} days"
    return f"-{rate} dmg / day"


def healing_rule(state: WoundState, activity: Activity, care: bool) -> str:
    """The table cell in words, e.g. "Seriously Wounded, full rest + moderate care:
    -1 dmg / day", so a planner can show which rule produced each day."""
    rate = healing_rate(state, activity, care)
    regime = activity.label
    needed = care_for_state(state)
    if care and needed is not None:
        regime += f" + {needed.label}"
    return f"{state.label}, {regime}: {_rate_text(rate)}"


@dataclass(frozen=True)
class PlanSegment:
    """A stretch of days spent at one activity level, with or without the needed care."""

    activity: Activity
    care: bool
    days: int

    def __post_init__(self) -> None:
        if self.days < 0:
            raise ValueError(f"a plan segment cannot last {self.days} days")


@dataclass(frozen=True)
class DayRecord:
    """One projected healing day: the condition at its start, the rule in force, the rate,
    damage before and after, and the progress carried into the next day."""

    day: int
    activity: Activity
    care: bool
    damage_start: int
    damage_end: int
    state: WoundState
    rate: Fraction | None
    rule: str
    progress: Fraction


def _simulate(
    damage: int,
    hp: int,
    regimes: Iterable[tuple[Activity, bool]],
    thresholds: WoundThresholds | None,
) -> Iterator[DayRecord]:
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    limits = wound_thresholds(hp) if thresholds is None else thresholds
    progress = Fraction(0)
    for day, (activity, care) in enumerate(regimes, start=1):
        start = damage
        state = wound_state(damage, hp, limits)
        rate = healing_rate(state, activity, care)
        if rate:
            progress += rate
            healed = min(damage, int(progress))
            damage -= healed
            progress -= healed
            if damage == 0:
                progress = Fraction(0)
        yield DayRecord(
            day,
            activity,
            care,
            start,
            damage,
            state,
            rate,
            healing_rule(state, activity, care),
            progress,
        )


def project_recovery(
    damage: int,
    hp: int,
    segments: Sequence[PlanSegment],
    thresholds: WoundThresholds | None = None,
    *,
    stop_when_healed: bool = True,
) -> list[DayRecord]:
    """Day-by-day projection of a healing plan made of segments.

    Stops after the day the damage reaches 0 unless ``stop_when_healed`` is False. Days whose
    rate is None are impossible (the character is immobile) and gain nothing; the planner
    should flag them. A single long segment agrees with :func:`recovery_days`.
    """
    regimes = (
        (segment.activity, segment.care) for segment in segments for _ in range(segment.days)
    )
    records: list[DayRecord] = []
    if damage == 0 and stop_when_healed:
        return records
    for record in _simulate(damage, hp, regimes, thresholds):
        records.append(record)
        if stop_when_healed and record.damage_end == 0:
            break
    return records


def recovery_days(
    damage: int,
    hp: int,
    activity: Activity,
    care: bool,
    thresholds: WoundThresholds | None = None,
) -> int | None:
    """Whole days to heal all damage under one regime, the rate changing as thresholds are
    crossed; None when the character never heals fully that way (a rate of 0 or an
    impossible activity somewhere on the way down). 0 damage takes 0 days."""
    if damage == 0:
        return 0
    for record in _simulate(damage, hp, repeat((activity, care)), thresholds):
        if not record.rate:
            return None
        if record.damage_end == 0:
            return record.day
    raise AssertionError("unreachable: the regime is endless")  # pragma: no cover


def first_aid_difficulty(on_self: bool = False) -> int:
    """Difficulty 8 on another character, 10 on oneself (the 30 rounds it takes are
    ``actions.FIRST_AID_ROUNDS``)."""
    return FIRST_AID_SELF_DIFFICULTY if on_self else FIRST_AID_DIFFICULTY


def medic_check_modifier(medic_level: int | None, characteristic_dm: int,
                         wound_penalty: int) -> int:
    """DM of a Medic check (first aid, surgery), the Ch.3 sum of modifiers: the Medic level
    (unskilled -3), the characteristic's ChM and the medic's own wound penalty (Ch.7: -1 to
    all mental and physical rolls per 3 damage). Tools and assistance are the referee's.

    One sum for every view, so the same medic rolls with the same DM everywhere.
    """
    if wound_penalty > 0:
        raise ValueError(f"a wound penalty is 0 or less, not {wound_penalty}")
    return (UNSKILLED if medic_level is None else medic_level) + characteristic_dm + (
        wound_penalty
    )


def first_aid_healing(effect: int) -> int:
    """Damage removed by successful first aid: the Effect, at minimum 1; a failed check
    (negative effect) removes nothing."""
    if effect < 0:
        return 0
    return max(1, effect)


def first_aid_stabilisation_hours(endurance: int) -> int:
    """First aid stops dying rolls for hours equal to the dying character's END."""
    if endurance < 0:
        raise ValueError(f"END cannot be negative, got {endurance}")
    return endurance


def surgery_healing(effect: int) -> int:
    """Successful surgery removes twice the success effect."""
    if effect < 0:
        raise ValueError(f"surgery failed (effect {effect}); use surgery_outcome")
    return 2 * effect


@dataclass(frozen=True)
class SurgeryOutcome:
    """Result of one surgery check.

    ``fail_effect`` is what is left after the Medic skill; ``minutes`` is the 30-minute task
    multiplied by that remainder (at least once); ``damage`` is harm done to the patient.
    """

    healed: int
    fail_effect: int
    minutes: int
    damage: int


def surgery_outcome(roll_effect: int, medic_skill: int, endurance: int) -> SurgeryOutcome:
    """Surgery on a success heals 2 x effect; on a failure the fail effect is reduced by the
    Medic skill (unskilled reduces nothing), the remainder multiplies the time, and a
    remainder exceeding half the patient's END damages the patient by double the remainder.
    """
    if endurance < 0:
        raise ValueError(f"END cannot be negative, got {endurance}")
    if roll_effect >= 0:
        return SurgeryOutcome(surgery_healing(roll_effect), 0, SURGERY_MINUTES, 0)
    remaining = max(0, -roll_effect - max(0, medic_skill))
    minutes = SURGERY_MINUTES * max(1, remaining)
    harm = 2 * remaining if 2 * remaining > endurance else 0
    return SurgeryOutcome(0, remaining, minutes, harm)


def medic_capacity(medic_level: int | None) -> int:
    """Light-care patients one medic can care for: 8 at Medic 0, doubled per level.
    A character without the Medic skill (None) has no capacity."""
    if medic_level is None:
        return 0
    if medic_level < 0:
        raise ValueError(f"Medic level cannot be negative, got {medic_level}")
    return 8 << medic_level


@dataclass(frozen=True)
class InfirmaryCapacity:
    """Care capacity in light-care units, split so the referee sees the supervision rule."""

    staff: int
    supervision_bonus: int
    supervisor: int

    @property
    def total(self) -> int:
        return self.staff + self.supervision_bonus + self.supervisor


def infirmary_capacity(
    medic_levels: Sequence[int], supervisor_level: int | None = None
) -> InfirmaryCapacity:
    """Capacity of a team of medics, optionally supervised.

    A supervisor with Medic 2+ doubles the capacity of the medics they supervise
    (``medic_levels``); the supervisor's own capacity is counted too. A supervisor below
    Medic 2 simply adds their own capacity.
    """
    staff = sum(medic_capacity(level) for level in medic_levels)
    supervisor = medic_capacity(supervisor_level)
    supervises = supervisor_level is not None and supervisor_level >= SUPERVISOR_MIN_MEDIC
    return InfirmaryCapacity(staff, staff if supervises else 0, supervisor)


def intensive_care_needs_roll(supervisor_level: int | None) -> bool:
    """Intensive care needs a Difficulty 8 roll unless a Medic 2+ supervises it."""
    return supervisor_level is None or supervisor_level < SUPERVISOR_MIN_MEDIC


def intensive_care_success_chance(modifier: int, supervisor_level: int | None = None) -> Fraction:
    """Exact chance an intensive-care roll heals rather than calls for a dying roll
    (certain under Medic 2+ supervision)."""
    if not intensive_care_needs_roll(supervisor_level):
        return Fraction(1)
    return success_chance(modifier, INTENSIVE_CARE_DIFFICULTY)


@dataclass(frozen=True)
class IntensiveCareResult:
    """One intensive-care check; ``check`` is None when supervision made a roll unnecessary."""

    check: CheckResult | None
    healed: int
    dying_roll_required: bool


def roll_intensive_care(
    rng: random.Random, modifier: int, supervisor_level: int | None = None
) -> IntensiveCareResult:
    """Unsupervised intensive care: 2d6 + modifier vs 8; success heals 2, failure means the
    patient makes a dying roll. Medic 2+ supervision needs no roll and heals 2. The book
    does not say how often the roll is made; the referee decides (typically once a day)."""
    if not intensive_care_needs_roll(supervisor_level):
        return IntensiveCareResult(None, INTENSIVE_CARE_HEALING, False)
    check = roll_check(rng, modifier, INTENSIVE_CARE_DIFFICULTY)
    if check.success:
        return IntensiveCareResult(check, INTENSIVE_CARE_HEALING, False)
    return IntensiveCareResult(check, 0, True)


def characteristic_therapy_days(points: int) -> int:
    """Days of therapy to recover characteristic damage: 1 point per 3 days."""
    if points < 0:
        raise ValueError(f"characteristic damage cannot be negative, got {points}")
    return THERAPY_DAYS_PER_POINT * points


@dataclass(frozen=True)
class TherapyStep:
    """Therapy for one characteristic over days ``first_day`` to ``last_day`` inclusive."""

    characteristic: str
    points: int
    first_day: int
    last_day: int


def plan_characteristic_therapy(
    damage: Sequence[tuple[str, int]], first_day: int = 1
) -> list[TherapyStep]:
    """Therapy one characteristic at a time, in the order given, starting on ``first_day``
    (the day after the character is fully healed; therapy cannot start before)."""
    steps: list[TherapyStep] = []
    day = first_day
    for name, points in damage:
        days = characteristic_therapy_days(points)
        if days == 0:
            continue
        steps.append(TherapyStep(name, points, day, day + days - 1))
        day += days
    return steps
