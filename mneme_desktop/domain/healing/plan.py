"""Healing plans and their projections: how long until she can fight again (Ch.7).

A plan is segments of days at one activity level, with or without care; a projection runs
it day by day (:mod:`mneme_desktop.domain.healing.days`) from a character's current damage
and stored progress, so two plans can be compared side by side. Pure: nothing here mutates
the campaign.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, ConditionKind
from mneme_desktop.domain.healing.days import TherapyDay, _Course, _therapy_points
from mneme_desktop.rules.healing import Activity, DayRecord, PlanSegment
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState, WoundThresholds, wound_state

__all__ = [
    "MAX_PROJECTION_DAYS",
    "HealingPlan",
    "Projection",
    "ProjectionCache",
    "StateChange",
    "iter_patients",
    "project_plan",
    "projection_key",
]

MAX_PROJECTION_DAYS = 3 * 365
"""How far a projection continues the last segment looking for the day of full recovery."""


def _regime_text(activity: Activity, care: bool) -> str:
    return activity.label + (" + care" if care else "")


@dataclass(frozen=True)
class HealingPlan:
    """Segments of days at one activity level, with or without the care the wound needs.

    Past its last day a plan continues its last segment, so a projection can say when the
    character would be fully healed. ``therapy``: once fully healed, characteristic damage
    is treated (1 point per 3 days, one characteristic at a time).
    """

    segments: tuple[PlanSegment, ...]
    name: str = "Plan"
    therapy: bool = True

    def __post_init__(self) -> None:
        if not self.segments:
            raise ValueError("a healing plan needs at least one segment")

    @classmethod
    def single(cls, activity: Activity, care: bool, days: int, name: str = "") -> HealingPlan:
        """A plan of one regime, named after it unless a name is given."""
        return cls((PlanSegment(activity, care, days),), name or _regime_text(activity, care))

    @property
    def total_days(self) -> int:
        return sum(segment.days for segment in self.segments)

    def regime(self, day: int) -> PlanSegment:
        """The segment in force on ``day`` (1-based); past the end, the last segment."""
        if day < 1:
            raise ValueError(f"plan days start at 1, not {day}")
        elapsed = 0
        for segment in self.segments:
            elapsed += segment.days
            if day <= elapsed:
                return segment
        return self.segments[-1]

    @property
    def label(self) -> str:
        """"full rest + care 5 d, then light activity 3 d"."""
        return ", then ".join(
            f"{_regime_text(s.activity, s.care)} {s.days} d" for s in self.segments
        )



@dataclass(frozen=True)
class StateChange:
    """The wound state changed at the end of ``day``."""

    day: int
    before: WoundState
    after: WoundState


@dataclass(frozen=True)
class Projection:
    """What a plan does to one character, day by day, until fully recovered.

    ``healing`` holds the healing days (rules-core :class:`DayRecord` rows), ``therapy`` the
    therapy days that follow. Days after ``plan.total_days`` continue the last segment.
    ``healed_day`` is the day damage reaches 0 (0: unhurt at the start; None: never under
    this plan); ``fit_day`` the day the character is no worse than Wounded again (full
    movement, can Dash); ``recovered_day`` the day characteristic damage is gone too.
    """

    plan: HealingPlan
    character_id: str
    name: str
    hp: int
    thresholds: WoundThresholds
    start_damage: int
    start_progress: Fraction
    healing: tuple[DayRecord, ...]
    therapy: tuple[TherapyDay, ...]
    healed_day: int | None
    fit_day: int | None
    recovered_day: int | None
    remaining_characteristic_damage: int
    start_characteristic_damage: int = 0

    @property
    def start_state(self) -> WoundState:
        return wound_state(self.start_damage, self.hp, self.thresholds)

    @property
    def last_day(self) -> int:
        days = [r.day for r in self.healing] + [t.day for t in self.therapy]
        return max(days, default=0)

    @property
    def impossible_days(self) -> tuple[int, ...]:
        """Days the plan asks an immobile character to be active: nothing heals."""
        return tuple(r.day for r in self.healing if r.rate is None)

    @property
    def state_changes(self) -> tuple[StateChange, ...]:
        changes: list[StateChange] = []
        for record in self.healing:
            after = wound_state(record.damage_end, self.hp, self.thresholds)
            if after is not record.state:
                changes.append(StateChange(record.day, record.state, after))
        return tuple(changes)

    def damage_on(self, day: int) -> int:
        """Damage at the end of ``day`` (day 0: the start)."""
        damage = self.start_damage
        for record in self.healing:
            if record.day > day:
                break
            damage = record.damage_end
        return damage

    @property
    def outcome(self) -> str:
        """One sentence: when the character is fit, healed and recovered, or why never."""
        parts: list[str] = []
        if self.start_damage == 0:
            parts.append("unhurt")
        else:
            if self.fit_day and self.start_state.severity > WoundState.WOUNDED.severity:
                parts.append(f"fit to fight on day {self.fit_day}")
            if self.healed_day is None:
                last = self.healing[-1] if self.healing else None
                reason = "" if last is None else f" ({last.rule})"
                parts.append(f"never fully healed under this plan{reason}")
            else:
                parts.append(f"fully healed on day {self.healed_day}")
        if self.start_characteristic_damage:
            if not self.plan.therapy:
                parts.append("characteristic damage not treated under this plan")
            elif self.recovered_day is not None:
                parts.append(f"characteristics restored on day {self.recovered_day}")
            elif self.healed_day is not None:
                parts.append(
                    f"characteristic therapy unfinished after {self.last_day} days"
                )
        text = ", ".join(parts)
        return text[:1].upper() + text[1:] + "."


def project_plan(
    character: Character,
    plan: HealingPlan,
    basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS,
    *,
    horizon: int = MAX_PROJECTION_DAYS,
) -> Projection:
    """Project ``plan`` for ``character`` from their current damage and stored progress.

    Runs until fully recovered, continuing the last segment past the plan's own days, and
    stops early when that last regime can no longer heal (a rate of 0 or an immobile
    character asked to move) or at ``horizon`` days.
    """
    course = _Course.of(character, basis, plan.therapy)
    start_damage, start_progress = course.damage, course.progress
    start_points = sum(course.points.values())
    total_days = plan.total_days
    day = 0
    while not course.done and day < horizon:
        day += 1
        segment = plan.regime(day)
        course.step(day, segment.activity, segment.care)
        if day > total_days and course.healing and course.damage > 0:
            last = course.healing[-1]
            if last.day == day and not last.rate:
                break
    healed_day: int | None = 0 if start_damage == 0 else None
    fit_day: int | None = None
    limits = course.thresholds
    if wound_state(start_damage, course.hp, limits).severity <= WoundState.WOUNDED.severity:
        fit_day = 0
    wounded = WoundState.WOUNDED.severity
    for record in course.healing:
        if record.damage_end == record.damage_start:
            continue  # the state at the day's end is the one at its start, seen already
        after = wound_state(record.damage_end, course.hp, limits)
        if fit_day is None and after.severity <= wounded:
            fit_day = record.day
        if record.damage_end == 0:
            healed_day = record.day
    remaining = sum(course.points.values())
    recovered_day: int | None = None
    if healed_day is not None and remaining == 0:
        recovered_day = course.therapy_days[-1].day if course.therapy_days else healed_day
    return Projection(
        plan=plan,
        character_id=character.id,
        name=character.name,
        hp=course.hp,
        thresholds=limits,
        start_damage=start_damage,
        start_progress=start_progress,
        healing=tuple(course.healing),
        therapy=tuple(course.therapy_days),
        healed_day=healed_day,
        fit_day=fit_day,
        recovered_day=recovered_day,
        remaining_characteristic_damage=remaining,
        start_characteristic_damage=start_points,
    )


def projection_key(
    character: Character,
    plan: HealingPlan,
    basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS,
    horizon: int = MAX_PROJECTION_DAYS,
) -> Hashable:
    """Everything :func:`project_plan` reads: equal keys, equal projections."""
    recovery = character.recovery
    return (
        character.id,
        character.name,
        character.damage,
        Fraction(0) if recovery is None else recovery.progress,
        tuple(_therapy_points(character).items()),
        character.hit_points,
        character.wound_thresholds(basis),
        plan,
        basis,
        horizon,
    )


class ProjectionCache:
    """Projections by their inputs (:func:`projection_key`), for a view that shows them
    again after each change: only a patient or plan that changed is projected again.

    :meth:`sweep` after each refresh keeps only the projections that refresh used, so the
    cache holds one screenful, never a history.
    """

    def __init__(self) -> None:
        self._kept: dict[Hashable, Projection] = {}
        self._used: dict[Hashable, Projection] = {}

    def project(
        self,
        character: Character,
        plan: HealingPlan,
        basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS,
    ) -> Projection:
        key = projection_key(character, plan, basis)
        found = self._used.get(key)
        if found is None:
            found = self._kept.get(key)
            if found is None:
                found = project_plan(character, plan, basis)
            self._used[key] = found
        return found

    def sweep(self) -> None:
        """Forget the projections not asked for since the last sweep."""
        self._kept, self._used = self._used, {}


def iter_patients(campaign: Campaign) -> Iterator[Character]:
    """Campaign characters who are alive and hurt (damage or characteristic damage)."""
    for character in campaign.characters:
        if character.has_condition(ConditionKind.DEAD):
            continue
        if character.damage > 0 or character.characteristic_damage.is_damaged:
            yield character
