"""One day of healing or of characteristic therapy, as the rules core counts it (Ch.7).

Progress accrues at the rate of the condition at the start of each day, a whole point heals
when it reaches 1, the rest carries over - also from one advance of the clock to the next,
through ``Recovery.progress``. Once a character is fully healed the same progress counts
toward the next point of characteristic therapy (1 point per 3 days, one characteristic at
a time). Projections and clock advances both step through days here, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from mneme_desktop.domain.character import Character, Characteristic
from mneme_desktop.rules.healing import (
    THERAPY_DAYS_PER_POINT,
    Activity,
    DayRecord,
    healing_rate,
    healing_rule,
)
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState, WoundThresholds, wound_state

__all__ = [
    "THERAPY_ORDER",
    "TherapyDay",
    "heal_one_day",
]

THERAPY_ORDER: tuple[Characteristic, ...] = (
    Characteristic.STR,
    Characteristic.DEX,
    Characteristic.END,
    Characteristic.INT,
    Characteristic.EDU,
    Characteristic.SOC,
)
"""Therapy takes one characteristic at a time, in UPP order. Psionic Strength is not healed
by therapy: its loss falls under the Exhaustion rules."""

_CHARACTERISTIC_FIELDS = {
    Characteristic.STR: "strength",
    Characteristic.DEX: "dexterity",
    Characteristic.END: "endurance",
    Characteristic.INT: "intelligence",
    Characteristic.EDU: "education",
    Characteristic.SOC: "social_standing",
}

_THERAPY_STEP = Fraction(1, THERAPY_DAYS_PER_POINT)


def heal_one_day(
    day: int,
    damage: int,
    hp: int,
    activity: Activity,
    care: bool,
    progress: Fraction,
    thresholds: WoundThresholds,
) -> DayRecord:
    """One healing day as the rules core counts it, starting from ``progress`` carried in.

    This is the step of :func:`mneme_desktop.rules.healing.project_recovery`, which always
    starts at progress 0; a character's stored progress must carry into the first day, so
    the step is taken here (tests pin the two together for progress 0).
    """
    state = wound_state(damage, hp, thresholds)
    rate, rule = _rate_and_rule(state, activity, care)
    return _heal_day(day, damage, state, activity, care, progress, rate, rule)


def _heal_day(
    day: int,
    damage: int,
    state: WoundState,
    activity: Activity,
    care: bool,
    progress: Fraction,
    rate: Fraction | None,
    rule: str,
) -> DayRecord:
    """:func:`heal_one_day` with the day's state, rate and rule already known."""
    end = damage
    if rate:
        progress += rate
        healed = min(damage, int(progress))
        if healed:
            end -= healed
            progress -= healed
            if end == 0:
                progress = Fraction(0)
    return DayRecord(day, activity, care, damage, end, state, rate, rule, progress)


_RATES_AND_RULES: dict[tuple[WoundState, Activity, bool], tuple[Fraction | None, str]] = {}


def _rate_and_rule(
    state: WoundState, activity: Activity, care: bool
) -> tuple[Fraction | None, str]:
    """The rules core's rate and rule text for a day, asked once per regime: a year's
    projection asks for the same few hundreds of times."""
    key = (state, activity, care)
    found = _RATES_AND_RULES.get(key)
    if found is None:
        found = (healing_rate(state, activity, care), healing_rule(state, activity, care))
        _RATES_AND_RULES[key] = found
    return found


@dataclass(frozen=True)
class TherapyDay:
    """One day of characteristic therapy: ``points_after`` is that characteristic's damage
    at the end of the day and ``progress`` the fraction of the next point carried on."""

    day: int
    characteristic: Characteristic
    points_before: int
    points_after: int
    progress: Fraction

    @property
    def rule(self) -> str:
        return (
            f"Characteristic therapy ({self.characteristic.value.upper()}): "
            f"-1 point / {THERAPY_DAYS_PER_POINT} days, one characteristic at a time"
        )


def _therapy_points(character: Character) -> dict[Characteristic, int]:
    damage = character.characteristic_damage
    return {code: int(getattr(damage, name)) for code, name in _CHARACTERISTIC_FIELDS.items()}


def _therapy_day(
    day: int, points: dict[Characteristic, int], progress: Fraction
) -> tuple[TherapyDay, Fraction] | None:
    """Advance therapy one day in place; None when there is nothing left to treat."""
    code = next((c for c in THERAPY_ORDER if points[c] > 0), None)
    if code is None:
        return None
    before = points[code]
    progress += _THERAPY_STEP
    if progress >= 1:
        points[code] -= 1
        progress -= 1
    if not any(points.values()):
        progress = Fraction(0)
    return TherapyDay(day, code, before, points[code], progress), progress


@dataclass
class _Course:
    """The running state of one character through simulated days."""

    damage: int
    progress: Fraction
    points: dict[Characteristic, int]
    hp: int
    thresholds: WoundThresholds
    therapy: bool
    healing: list[DayRecord] = field(default_factory=list)
    therapy_days: list[TherapyDay] = field(default_factory=list)
    _state: tuple[int, WoundState] | None = field(default=None, repr=False, compare=False)
    """The wound state at a damage, kept while the damage stays (most days heal nothing)."""
    _rule: tuple[WoundState, Activity, bool, Fraction | None, str] | None = field(
        default=None, repr=False, compare=False)
    """The rate and rule of the last day's state and regime (they rarely change)."""

    @classmethod
    def of(cls, character: Character, basis: ThresholdBasis, therapy: bool) -> _Course:
        recovery = character.recovery
        return cls(
            damage=character.damage,
            progress=Fraction(0) if recovery is None else recovery.progress,
            points=_therapy_points(character),
            hp=character.hit_points,
            thresholds=character.wound_thresholds(basis),
            therapy=therapy,
        )

    @property
    def done(self) -> bool:
        return self.damage == 0 and (not self.therapy or not any(self.points.values()))

    def step(self, day: int, activity: Activity, care: bool) -> None:
        if self.damage > 0:
            # heal_one_day, with the state and the rule kept from the day before when they
            # are the same: a year's projection takes hundreds of identical days.
            damage = self.damage
            known = self._state
            if known is not None and known[0] == damage:
                state = known[1]
            else:
                state = wound_state(damage, self.hp, self.thresholds)
                self._state = (damage, state)
            last = self._rule
            if last is not None and last[0] is state and last[1] is activity \
                    and last[2] == care:
                rate, rule = last[3], last[4]
            else:
                rate, rule = _rate_and_rule(state, activity, care)
                self._rule = (state, activity, care, rate, rule)
            record = _heal_day(day, damage, state, activity, care, self.progress, rate, rule)
            self.damage, self.progress = record.damage_end, record.progress
            self.healing.append(record)
        elif self.therapy:
            result = _therapy_day(day, self.points, self.progress)
            if result is not None:
                self.therapy_days.append(result[0])
                self.progress = result[1]
