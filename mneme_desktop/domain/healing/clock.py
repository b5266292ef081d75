"""The campaign clock's effect on the wounded: what moving time forward does (Ch.7).

Conditions whose time is up end, bleeding characters lose 1 damage a minute, and each whole
day heals every character under their regime or a plan, step by step as
:mod:`mneme_desktop.domain.healing.days` counts it. The result is an
:class:`~mneme_desktop.domain.healing.changes.Outcome`: a patch of the one edit vocabulary to
apply and revert, and notices beside it; nothing here mutates the campaign it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.character import (
    Character,
    Condition,
    ConditionKind,
    DamageRecord,
    Recovery,
)
from mneme_desktop.domain.edits import AddJournalEntry, Edit, ReplaceSheet, SetClock
from mneme_desktop.domain.gametime import SECONDS_PER_DAY, GameTime
from mneme_desktop.domain.healing.changes import Notice, Outcome
from mneme_desktop.domain.healing.days import _CHARACTERISTIC_FIELDS, THERAPY_ORDER, _Course
from mneme_desktop.domain.healing.plan import HealingPlan, _regime_text
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.rules.healing import INTENSIVE_CARE_DIFFICULTY, SUPERVISOR_MIN_MEDIC, Activity
from mneme_desktop.rules.wounds import (
    DYING_DIFFICULTY,
    ThresholdBasis,
    WoundState,
    bleeding_damage_between,
    wound_state,
)

__all__ = [
    "advance_campaign",
    "advance_character",
    "healing_days_between",
]


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

    clock: SetClock
    sheets: dict[str, tuple[Character, Character, list[str]]]
    notices: list[Notice]

    def character_changes(self) -> list[ReplaceSheet]:
        return [
            ReplaceSheet(before, after, tuple(lines))
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
            elif rounds and covered > 0 and stabilised is not None:
                # Stabilised for part of this time: say when it ends, not "not stabilised"
                # (the first-aid line said "stabilised for N hours" a moment ago).
                notices.append(
                    Notice(
                        f"{after.name}'s first-aid stabilisation ends at {stabilised.label}: "
                        f"Dying after it, an END roll against Difficulty {DYING_DIFFICULTY} "
                        f"every round ({rounds} rounds in this time after it) unless first "
                        "aid or intensive care is given again",
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
    return _Advance(SetClock(start, end), sheets, notices)


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


def _journal(at: GameTime, title: str, lines: Iterable[str]) -> AddJournalEntry:
    return AddJournalEntry(JournalEntry(game_time=at, title=title, text="\n".join(lines)))


def advance_campaign(
    campaign: Campaign,
    seconds: int,
    plans: Mapping[str, HealingPlan] | None = None,
    *,
    title: str = "",
    journal: bool = True,
) -> Outcome:
    """What moving the clock ``seconds`` forward does, as a patch to apply and revert.

    Conditions whose time is up end (a first-aid stabilisation); bleeding characters lose
    1 damage a minute; each whole day heals every character under their regime, or under
    ``plans[character_id]`` for the characters given a plan; Dying characters who are not
    stabilised get a notice (dying rolls are the referee's to make). Campaign characters
    only: adversary instances bleed through their encounter's rounds. A journal entry
    records what happened to anyone.
    """
    advance = _advance(campaign, seconds, plans)
    changes: list[Edit] = [advance.clock]
    character_changes = advance.character_changes()
    changes += character_changes
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
    return Outcome.of("Advance the clock", changes, advance.notices)
