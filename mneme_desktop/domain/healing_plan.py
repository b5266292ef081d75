"""Healing plans, the campaign clock's effect on the wounded, and medical events (Ch.7).

Everything here is pure: functions read a :class:`Campaign` and return the changes to make,
as :class:`CampaignChange` objects that apply and revert exactly, so the UI can put them on
the undo stack as one step. Nothing here mutates the campaign it is given.

Healing follows the rules core day by day (``healing_rate``/``healing_rule`` and the
fractional-progress decision of the rules README): progress accrues at the rate of the
condition at the start of each day, a whole point heals when it reaches 1, the rest carries
over - also from one advance of the clock to the next, through ``Recovery.progress``.
Once a character is fully healed the same ``Recovery.progress`` counts toward the next
point of characteristic therapy (1 point per 3 days, one characteristic at a time).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.character import (
    Character,
    Characteristic,
    Condition,
    ConditionKind,
    DamageRecord,
    Recovery,
)
from mneme_desktop.domain.gametime import SECONDS_PER_DAY, GameTime
from mneme_desktop.rules.actions import FIRST_AID_ROUNDS, ROUND_SECONDS
from mneme_desktop.rules.checks import UNSKILLED, CheckResult
from mneme_desktop.rules.healing import (
    INTENSIVE_CARE_DIFFICULTY,
    INTENSIVE_CARE_HEALING,
    SUPERVISOR_MIN_MEDIC,
    SURGERY_DIFFICULTY,
    THERAPY_DAYS_PER_POINT,
    Activity,
    DayRecord,
    PlanSegment,
    care_level,
    first_aid_difficulty,
    first_aid_healing,
    first_aid_stabilisation_hours,
    healing_rate,
    healing_rule,
    surgery_outcome,
)
from mneme_desktop.rules.wounds import (
    DYING_DIFFICULTY,
    ThresholdBasis,
    WoundState,
    WoundThresholds,
    bleeding_damage_between,
    wound_state,
)

__all__ = [
    "FIRST_AID_SECONDS",
    "MAX_PROJECTION_DAYS",
    "THERAPY_ORDER",
    "CampaignChange",
    "CharacterChange",
    "ClockChange",
    "HealingPlan",
    "JournalChange",
    "MedicalRoll",
    "Notice",
    "Projection",
    "StateChange",
    "TherapyDay",
    "advance_campaign",
    "advance_character",
    "apply_changes",
    "first_aid",
    "heal_one_day",
    "healing_days_between",
    "intensive_care",
    "iter_patients",
    "project_plan",
    "revert_changes",
    "surgery",
]

MAX_PROJECTION_DAYS = 3 * 365
"""How far a projection continues the last segment looking for the day of full recovery."""

FIRST_AID_SECONDS = FIRST_AID_ROUNDS * ROUND_SECONDS
"""First aid takes 3 minutes (30 rounds)."""

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


# --------------------------------------------------------------------------- plans


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


# ------------------------------------------------------------------- day by day


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
    rate = healing_rate(state, activity, care)
    end = damage
    if rate:
        progress += rate
        healed = min(damage, int(progress))
        end -= healed
        progress -= healed
        if end == 0:
            progress = Fraction(0)
    return DayRecord(
        day, activity, care, damage, end, state, rate, healing_rule(state, activity, care),
        progress,
    )


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
            record = heal_one_day(
                day, self.damage, self.hp, activity, care, self.progress, self.thresholds
            )
            self.damage, self.progress = record.damage_end, record.progress
            self.healing.append(record)
        elif self.therapy:
            result = _therapy_day(day, self.points, self.progress)
            if result is not None:
                self.therapy_days.append(result[0])
                self.progress = result[1]


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
    day = 0
    while not course.done and day < horizon:
        day += 1
        segment = plan.regime(day)
        course.step(day, segment.activity, segment.care)
        if day > plan.total_days and course.healing and course.damage > 0:
            last = course.healing[-1]
            if last.day == day and not last.rate:
                break
    healed_day: int | None = 0 if start_damage == 0 else None
    fit_day: int | None = None
    limits = course.thresholds
    if wound_state(start_damage, course.hp, limits).severity <= WoundState.WOUNDED.severity:
        fit_day = 0
    for record in course.healing:
        after = wound_state(record.damage_end, course.hp, limits)
        if fit_day is None and after.severity <= WoundState.WOUNDED.severity:
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


# ------------------------------------------------------------------------ changes


class CampaignChange(Protocol):
    """One reversible change: ``apply`` then ``revert`` leaves the campaign as it was."""

    @property
    def description(self) -> str: ...

    def apply(self, campaign: Campaign) -> None: ...

    def revert(self, campaign: Campaign) -> None: ...


@dataclass(frozen=True)
class ClockChange:
    """The campaign clock moves from ``before`` to ``after``."""

    before: GameTime
    after: GameTime

    @property
    def description(self) -> str:
        return f"Clock: {self.before.label} → {self.after.label}"

    def apply(self, campaign: Campaign) -> None:
        campaign.game_time = self.after

    def revert(self, campaign: Campaign) -> None:
        campaign.game_time = self.before


def _replace(campaign: Campaign, character: Character) -> None:
    for index, old in enumerate(campaign.characters):
        if old.id == character.id:
            campaign.characters[index] = character.model_copy(deep=True)
            return
    raise KeyError(f"no character {character.id!r} in campaign {campaign.name!r}")


@dataclass(frozen=True)
class CharacterChange:
    """A campaign character's sheet replaced by ``after``; ``lines`` say what happened."""

    before: Character
    after: Character
    lines: tuple[str, ...]

    @property
    def character_id(self) -> str:
        return self.after.id

    @property
    def description(self) -> str:
        return f"{self.after.name}: " + "; ".join(self.lines)

    def apply(self, campaign: Campaign) -> None:
        _replace(campaign, self.after)

    def revert(self, campaign: Campaign) -> None:
        _replace(campaign, self.before)


@dataclass(frozen=True)
class JournalChange:
    """An entry added to the campaign journal."""

    entry: JournalEntry

    @property
    def description(self) -> str:
        return f"Journal: {self.entry.title}"

    def apply(self, campaign: Campaign) -> None:
        campaign.journal.append(self.entry.model_copy(deep=True))

    def revert(self, campaign: Campaign) -> None:
        campaign.journal = [e for e in campaign.journal if e.id != self.entry.id]


@dataclass(frozen=True)
class Notice:
    """Something the referee must do that the clock cannot (a dying roll every round)."""

    text: str
    character_id: str | None = None

    @property
    def description(self) -> str:
        return self.text

    def apply(self, campaign: Campaign) -> None:
        """Nothing to change: a notice is only said."""

    def revert(self, campaign: Campaign) -> None:
        """Nothing to change back."""


def apply_changes(campaign: Campaign, changes: Sequence[CampaignChange]) -> None:
    for change in changes:
        change.apply(campaign)


def revert_changes(campaign: Campaign, changes: Sequence[CampaignChange]) -> None:
    for change in reversed(changes):
        change.revert(campaign)


# ---------------------------------------------------------------- the clock moves


def healing_days_between(start: GameTime, end: GameTime, since: GameTime | None) -> int:
    """Whole healing days completed between ``start`` and ``end``.

    Days are counted from ``since`` (when the regime began) or, without it, from midnight;
    so two advances of 12 hours heal exactly as much as one of a day.
    """
    anchor = 0 if since is None else since.total_seconds
    return (end.total_seconds - anchor) // SECONDS_PER_DAY - (
        start.total_seconds - anchor
    ) // SECONDS_PER_DAY


def _state_line(before: WoundState, after: WoundState) -> str:
    return f"now {after.label} (was {before.label})"


def _bleed(character: Character, start: GameTime, end: GameTime, lines: list[str]) -> None:
    """Bleeding: 1 damage a minute, the first a minute after the wound (rules core)."""
    bleeding = character.conditions_of(ConditionKind.BLEEDING)
    if not bleeding or end <= start:
        return
    started = [c.started_at for c in bleeding if c.started_at is not None]
    anchor = min(started) if started else start
    if not started:
        # Time it from now, and remember that, so later advances count on from here.
        first = bleeding[0]
        index = character.conditions.index(first)
        character.conditions[index] = first.model_copy(update={"started_at": start})
        lines.append(f"bleeding had no start time: timed from {start.label}")
    points = bleeding_damage_between(
        anchor.total_seconds // ROUND_SECONDS,
        start.total_seconds // ROUND_SECONDS,
        end.total_seconds // ROUND_SECONDS,
    )
    if points <= 0:
        return
    before = character.damage
    character.damage += points
    character.damage_history.append(
        DamageRecord(amount=points, source="bleeding", at=end)
    )
    lines.append(f"bled {points} (damage {before} → {character.damage})")


def _expire_conditions(character: Character, end: GameTime, lines: list[str]) -> None:
    in_care = character.recovery is not None and character.recovery.care
    then = "intensive care goes on" if in_care else "dying rolls resume"
    kept: list[Condition] = []
    for condition in character.conditions:
        if condition.expired(end):
            assert condition.expires_at is not None
            if condition.kind is ConditionKind.STABILISED:
                lines.append(f"stabilisation ended at {condition.expires_at.label}: {then}")
            else:
                lines.append(f"{condition.label} ended at {condition.expires_at.label}")
        else:
            kept.append(condition)
    if len(kept) != len(character.conditions):
        character.conditions = kept


def _stabilised_until(character: Character) -> GameTime | None:
    """The latest moment a first-aid stabilisation lasts to (None: not stabilised)."""
    ends = [
        c.expires_at
        for c in character.conditions_of(ConditionKind.STABILISED)
        if c.expires_at is not None
    ]
    return max(ends) if ends else None


def advance_character(
    character: Character,
    days: int,
    basis: ThresholdBasis,
    plan: HealingPlan | None = None,
    *,
    since: GameTime | None = None,
) -> tuple[Character, list[str]]:
    """``character`` after ``days`` healing days under ``plan`` or their own regime.

    Without a plan the stored regime (``recovery``) applies; without either nothing heals.
    Healing progress and therapy progress carry over through ``Recovery.progress``. A plan
    never replaces the character's own regime: it is kept with the progress carried on;
    only a character without one is put on the plan's last-day regime (from ``since``),
    and a line says so.
    """
    after = character.model_copy(deep=True)
    lines: list[str] = []
    recovery = character.recovery
    if days <= 0 or (plan is None and recovery is None):
        return after, lines
    course = _Course.of(character, basis, True if plan is None else plan.therapy)
    if course.done:
        return after, lines
    start_state = wound_state(course.damage, course.hp, course.thresholds)
    start_damage = course.damage
    points_before = dict(course.points)
    activity = Activity.FULL_REST
    care = False
    for day in range(1, days + 1):
        if plan is not None:
            segment = plan.regime(day)
            activity, care = segment.activity, segment.care
        else:
            assert recovery is not None
            activity, care = recovery.activity, recovery.care
        course.step(day, activity, care)
    immobile = [r for r in course.healing if r.rate is None]
    if immobile:
        lines.append(
            f"{len(immobile)} day{'s' if len(immobile) != 1 else ''} immobile at "
            f"{immobile[0].activity.label}: no healing ({immobile[0].rule})"
        )
    if course.damage != start_damage:
        lines.append(f"healed {start_damage - course.damage} (damage {start_damage} → "
                     f"{course.damage})")
        end_state = wound_state(course.damage, course.hp, course.thresholds)
        if end_state is not start_state:
            lines.append(
                "fully healed" if course.damage == 0 else _state_line(start_state, end_state)
            )
    for code in THERAPY_ORDER:
        restored = points_before[code] - course.points[code]
        if restored:
            name = _CHARACTERISTIC_FIELDS[code]
            setattr(after.characteristic_damage, name, course.points[code])
            lines.append(
                f"therapy restored {restored} {code.value.upper()} "
                f"(damage {points_before[code]} → {course.points[code]})"
            )
    if course.damage == 0 and start_damage and any(course.points.values()) and not (
        course.therapy
    ):
        lines.append("characteristic damage left untreated")
    after.damage = course.damage
    if recovery is None:
        # No regime of their own to keep: the plan's last day becomes it, and says so.
        after.recovery = Recovery(activity=activity, care=care, progress=course.progress,
                                  since=since)
        lines.append(f"had no regime of their own: now on {_regime_text(activity, care)}")
    else:
        assert after.recovery is not None
        after.recovery = after.recovery.model_copy(update={"progress": course.progress})
    if course.progress != (Fraction(0) if recovery is None else recovery.progress) and (
        course.damage > 0 or any(course.points.values())
    ):
        lines.append(f"progress toward the next point: {course.progress}")
    return after, lines


@dataclass
class _Advance:
    """The clock moved: each touched character's sheet before and after, with lines."""

    clock: ClockChange
    sheets: dict[str, tuple[Character, Character, list[str]]]
    notices: list[Notice]

    def character_changes(self) -> list[CharacterChange]:
        return [
            CharacterChange(before, after, tuple(lines))
            for before, after, lines in self.sheets.values()
            if lines or before != after
        ]


def _advance(
    campaign: Campaign,
    seconds: int,
    plans: Mapping[str, HealingPlan] | None,
) -> _Advance:
    if seconds < 0:
        raise ValueError("the campaign clock only moves forward; use Undo to take time back")
    plans = plans or {}
    unknown = [cid for cid in plans if campaign.find_character(cid) is None]
    if unknown:
        raise KeyError(f"no character {unknown[0]!r} in campaign {campaign.name!r}")
    start = campaign.game_time
    end = start.advance(seconds=seconds)
    basis = campaign.rules_options.threshold_basis
    sheets: dict[str, tuple[Character, Character, list[str]]] = {}
    notices: list[Notice] = []
    for character in campaign.characters:
        plan = plans.get(character.id)
        if character.has_condition(ConditionKind.DEAD):
            if plan is not None:
                notices.append(Notice(f"{character.name} is dead: not healed", character.id))
            continue
        after = character.model_copy(deep=True)
        lines: list[str] = []
        state_before = after.wound_state(basis)
        stabilised = _stabilised_until(after)
        _expire_conditions(after, end, lines)
        _bleed(after, start, end, lines)
        state_bled = after.wound_state(basis)
        if state_bled is not state_before:
            lines.append(_state_line(state_before, state_bled))
        recovery = after.recovery
        since = None if recovery is None else recovery.since
        days = healing_days_between(start, end, start if plan is not None else since)
        if days > 0 and (plan is not None or recovery is not None):
            after, healed = advance_character(after, days, basis, plan, since=start)
            lines += healed
        elif days > 0 and after.damage > 0:
            notices.append(
                Notice(
                    f"{after.name} has no healing regime: not healed over {days} day"
                    f"{'s' if days != 1 else ''} (choose one in the Healing view)",
                    after.id,
                )
            )
        if after.wound_state(basis) is WoundState.DYING and seconds > 0:
            covered = 0 if stabilised is None else max(0, stabilised.total_seconds - (
                start.total_seconds))
            rounds = max(0, seconds - covered) // ROUND_SECONDS
            in_care = after.recovery is not None and after.recovery.care
            if in_care:
                if seconds >= SECONDS_PER_DAY:
                    notices.append(
                        Notice(
                            f"{after.name} is Dying in intensive care: unless a Medic "
                            f"{SUPERVISOR_MIN_MEDIC}+ or an AI sickbay supervises, record "
                            f"the intensive-care rolls (Difficulty {INTENSIVE_CARE_DIFFICULTY})",
                            after.id,
                        )
                    )
            elif rounds:
                notices.append(
                    Notice(
                        f"{after.name} is Dying and not stabilised: an END roll against "
                        f"Difficulty {DYING_DIFFICULTY} every round ({rounds} rounds in this "
                        "time) unless first aid or intensive care is given",
                        after.id,
                    )
                )
        if lines or after != character:
            sheets[character.id] = (character, after, lines)
    return _Advance(ClockChange(start, end), sheets, notices)


def _duration_text(seconds: int) -> str:
    days, rest = divmod(seconds, SECONDS_PER_DAY)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{value} {unit}{'s' if value != 1 else ''}"
        for value, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"), (secs, "second"))
        if value
    ]
    return " ".join(parts) or "no time"


def _journal(at: GameTime, title: str, lines: Iterable[str]) -> JournalChange:
    return JournalChange(JournalEntry(game_time=at, title=title, text="\n".join(lines)))


def advance_campaign(
    campaign: Campaign,
    seconds: int,
    plans: Mapping[str, HealingPlan] | None = None,
    *,
    title: str = "",
    journal: bool = True,
) -> list[CampaignChange]:
    """What moving the clock ``seconds`` forward does, as changes to apply and revert.

    Conditions whose time is up end (a first-aid stabilisation); bleeding characters lose
    1 damage a minute; each whole day heals every character under their regime, or under
    ``plans[character_id]`` for the characters given a plan; Dying characters who are not
    stabilised get a notice (dying rolls are the referee's to make). Campaign characters
    only: adversary instances bleed through their encounter's rounds. A journal entry
    records what happened to anyone.
    """
    advance = _advance(campaign, seconds, plans)
    changes: list[CampaignChange] = [advance.clock]
    character_changes = advance.character_changes()
    changes += character_changes
    changes += advance.notices
    if journal and (character_changes or advance.notices):
        heading = title or f"Time passes: {_duration_text(seconds)}"
        changes.append(
            _journal(
                advance.clock.after,
                heading,
                [c.description for c in character_changes]
                + [n.text for n in advance.notices],
            )
        )
    return changes


# -------------------------------------------------------------- medical events


@dataclass(frozen=True)
class MedicalRoll:
    """A check for a medical event, rolled by the app or entered from the table."""

    total: int
    difficulty: int
    text: str

    @property
    def effect(self) -> int:
        return self.total - self.difficulty

    @property
    def success(self) -> bool:
        return self.effect >= 0

    @classmethod
    def from_check(cls, check: CheckResult) -> MedicalRoll:
        dice = "+".join(str(d) for d in check.kept)
        shown = f"{dice} {check.modifier:+d}" if check.modifier else dice
        return cls(
            check.total,
            check.difficulty,
            f"rolled {shown} = {check.total} vs {check.difficulty} (Effect {check.effect:+d})",
        )

    @classmethod
    def entered(cls, dice: int, modifier: int, difficulty: int) -> MedicalRoll:
        """A 2d6 result rolled at the table (2-12) plus the DMs."""
        if not 2 <= dice <= 12:
            raise ValueError(f"a 2d6 roll is 2 to 12, not {dice}")
        total = dice + modifier
        shown = f"{dice} {modifier:+d}" if modifier else str(dice)
        return cls(
            total,
            difficulty,
            f"entered 2d6 {shown} = {total} vs {difficulty} (Effect {total - difficulty:+d})",
        )


def _event(
    campaign: Campaign,
    patient_id: str,
    seconds: int,
) -> tuple[_Advance, Character, Character, list[str]]:
    """The clock advanced by the event's duration, and the patient as it then stands."""
    patient = campaign.character(patient_id)
    if patient.has_condition(ConditionKind.DEAD):
        raise ValueError(f"{patient.name} is dead: medical care cannot help")
    advance = _advance(campaign, seconds, None)
    before, current, lines = advance.sheets.pop(
        patient_id, (patient, patient.model_copy(deep=True), [])
    )
    return advance, before, current, list(lines)


def _finish(
    advance: _Advance,
    seconds: int,
    before: Character,
    after: Character,
    lines: list[str],
    title: str,
) -> list[CampaignChange]:
    changes: list[CampaignChange] = []
    if seconds:
        changes.append(advance.clock)
    others = advance.character_changes()
    changes += others
    patient = CharacterChange(before, after, tuple(lines))
    changes.append(patient)
    changes += advance.notices
    text = [patient.description] + [c.description for c in others]
    text += [n.text for n in advance.notices]
    changes.append(_journal(advance.clock.after if seconds else advance.clock.before, title,
                            text))
    return changes


def _heal(character: Character, amount: int, lines: list[str], what: str) -> None:
    before = character.damage
    character.damage = max(0, before - amount)
    lines.append(f"{what} healed {before - character.damage} (damage {before} → "
                 f"{character.damage})")


def first_aid(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll,
    *,
    on_self: bool = False,
    medic: str = "",
    advance_clock: bool = True,
) -> list[CampaignChange]:
    """First aid: Difficulty 8 (10 on oneself), 30 rounds; heals the Effect, at least 1;
    stops bleeding; a character still dying is stabilised for END hours.

    With ``advance_clock`` the clock moves the 3 minutes the task takes first (the patient
    bleeds meanwhile). A failed check changes nothing but the time, and is logged.
    """
    wanted = first_aid_difficulty(on_self)
    if roll.difficulty != wanted:
        raise ValueError(
            f"first aid {'on oneself ' if on_self else ''}is Difficulty {wanted}, "
            f"not {roll.difficulty}"
        )
    seconds = FIRST_AID_SECONDS if advance_clock else 0
    advance, before, after, lines = _event(campaign, patient_id, seconds)
    at = advance.clock.after
    by = f" by {medic}" if medic and not on_self else ""
    lines.append(f"first aid{' on oneself' if on_self else by}: {roll.text}")
    if roll.success:
        _heal(after, first_aid_healing(roll.effect), lines, "first aid")
        if after.has_condition(ConditionKind.BLEEDING):
            after.conditions = [
                c for c in after.conditions if c.kind is not ConditionKind.BLEEDING
            ]
            lines.append("bleeding stopped")
        basis = campaign.rules_options.threshold_basis
        if after.wound_state(basis) is WoundState.DYING:
            hours = first_aid_stabilisation_hours(after.characteristic(Characteristic.END) or 0)
            until = at.advance(hours=hours)
            after.conditions = [
                c for c in after.conditions if c.kind is not ConditionKind.STABILISED
            ] + [
                Condition(
                    kind=ConditionKind.STABILISED,
                    detail="first aid",
                    started_at=at,
                    expires_at=until,
                )
            ]
            lines.append(
                f"stabilised for {hours} hours (END), until {until.label}: no dying rolls, "
                "needs medical treatment"
            )
    else:
        lines.append("first aid failed: no effect")
    return _finish(advance, seconds, before, after, lines, f"First aid: {before.name}")


def surgery(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll,
    *,
    medic_skill: int | None,
    sickbay: bool,
    medic: str = "",
    advance_clock: bool = True,
) -> list[CampaignChange]:
    """Surgery: Difficulty 8, 30 minutes, in a hospital or sickbay; heals 2 x Effect.

    On a failure the fail effect less the Medic skill multiplies the time, and a remainder
    above half the patient's END harms them by double the remainder (rules core).
    """
    if not sickbay:
        raise ValueError("surgery requires a hospital or sickbay")
    if roll.difficulty != SURGERY_DIFFICULTY:
        raise ValueError(f"surgery is Difficulty {SURGERY_DIFFICULTY}, not {roll.difficulty}")
    patient = campaign.character(patient_id)
    endurance = patient.characteristic(Characteristic.END) or 0
    outcome = surgery_outcome(
        roll.effect, UNSKILLED if medic_skill is None else medic_skill, endurance
    )
    seconds = outcome.minutes * 60 if advance_clock else 0
    advance, before, after, lines = _event(campaign, patient_id, seconds)
    by = f" by {medic}" if medic else ""
    lines.append(f"surgery{by}: {roll.text}, {outcome.minutes} minutes")
    if roll.success:
        _heal(after, outcome.healed, lines, "surgery")
    else:
        lines.append(
            f"surgery failed: fail effect {outcome.fail_effect} after the Medic skill"
        )
        if outcome.damage:
            damage_before = after.damage
            after.damage += outcome.damage
            after.damage_history.append(
                DamageRecord(
                    amount=outcome.damage,
                    source=f"surgery (fail effect {outcome.fail_effect})",
                    at=advance.clock.after if seconds else advance.clock.before,
                )
            )
            lines.append(
                f"harmed by the surgery: {outcome.damage} (damage {damage_before} → "
                f"{after.damage})"
            )
    return _finish(advance, seconds, before, after, lines, f"Surgery: {before.name}")


def intensive_care(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll | None,
    dying_roll: MedicalRoll | None = None,
) -> list[CampaignChange]:
    """One round of intensive care for a dying patient.

    ``roll`` None means a Medic 2+ or an AI sickbay supervises: no roll, 2 damage healed.
    Unsupervised, a Difficulty 8 success heals 2; a failure means a dying roll
    (``dying_roll``, END vs 4 with wound penalties), and failing that the patient dies.
    """
    patient = campaign.character(patient_id)
    basis = campaign.rules_options.threshold_basis
    level = care_level(patient.damage, patient.hit_points, patient.wound_thresholds(basis))
    if patient.wound_state(basis) is not WoundState.DYING:
        needed = "no care" if level is None else level.label
        raise ValueError(
            f"{patient.name} is not dying and needs {needed}, not intensive care"
        )
    if roll is not None and roll.difficulty != INTENSIVE_CARE_DIFFICULTY:
        raise ValueError(
            f"intensive care is Difficulty {INTENSIVE_CARE_DIFFICULTY}, not {roll.difficulty}"
        )
    if dying_roll is not None and dying_roll.difficulty != DYING_DIFFICULTY:
        raise ValueError(f"a dying roll is Difficulty {DYING_DIFFICULTY}, not "
                         f"{dying_roll.difficulty}")
    advance, before, after, lines = _event(campaign, patient_id, 0)
    at = advance.clock.before
    if roll is None:
        lines.append("intensive care under supervision: no roll")
        _heal(after, INTENSIVE_CARE_HEALING, lines, "intensive care")
    else:
        lines.append(f"intensive care without supervision: {roll.text}")
        if roll.success:
            _heal(after, INTENSIVE_CARE_HEALING, lines, "intensive care")
        elif dying_roll is None:
            lines.append("failed: a dying roll is required (not recorded)")
            advance.notices.append(
                Notice(f"{patient.name} must make a dying roll (END vs {DYING_DIFFICULTY})",
                       patient.id)
            )
        else:
            lines.append(f"failed: dying roll {dying_roll.text}")
            if dying_roll.success:
                lines.append("survived the dying roll: still dying")
            else:
                after.conditions = [
                    *after.conditions,
                    Condition(kind=ConditionKind.DEAD, detail="dying roll failed",
                              started_at=at),
                ]
                lines.append("failed the dying roll: dead")
    return _finish(advance, 0, before, after, lines, f"Intensive care: {before.name}")


def iter_patients(campaign: Campaign) -> Iterator[Character]:
    """Campaign characters who are alive and hurt (damage or characteristic damage)."""
    for character in campaign.characters:
        if character.has_condition(ConditionKind.DEAD):
            continue
        if character.damage > 0 or character.characteristic_damage.is_damaged:
            yield character
