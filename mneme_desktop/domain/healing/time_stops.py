"""Where the campaign clock must stop: the moment a roll the rules require falls due (Ch.7).

Moving the clock must never make rolls silently. A Dying character makes an END roll
against Difficulty 4 every round unless first aid has stabilised them (for END hours) or
they are in intensive care; unsupervised intensive care needs a Difficulty 8 roll, whose
failure means a dying roll. So an advance runs up to the first such moment, stops there and
says who must roll, with the odds, before anything is rolled. The book does not say how
often the intensive-care roll is made; the project reads it as once per day of care, due
as each day of care completes (:data:`INTENSIVE_CARE_ROLL_SECONDS`).

Pure like :mod:`mneme_desktop.domain.healing.clock`: nothing here mutates the campaign.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.character import Character, Condition, ConditionKind
from mneme_desktop.domain.edits import AddJournalEntry, ReplaceSheet
from mneme_desktop.domain.gametime import SECONDS_PER_DAY, GameTime
from mneme_desktop.domain.healing.changes import Outcome
from mneme_desktop.domain.healing.clock import advance_campaign
from mneme_desktop.domain.healing.medical import MedicalRoll, dying_modifier
from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.rules.healing import INTENSIVE_CARE_DIFFICULTY, INTENSIVE_CARE_HEALING
from mneme_desktop.rules.wounds import (
    BLEED_INTERVAL_ROUNDS,
    DYING_DIFFICULTY,
    ThresholdBasis,
    WoundState,
    next_bleed_round,
)

__all__ = [
    "INTENSIVE_CARE_ROLL_SECONDS",
    "DueRoll",
    "RollDue",
    "StoppedAdvance",
    "advance_until_roll",
    "dying_outlook",
    "next_roll_due",
    "record_dying_roll",
]

INTENSIVE_CARE_ROLL_SECONDS = SECONDS_PER_DAY
"""Unsupervised intensive care: one Difficulty 8 roll per day of care (a reading)."""


class DueRoll(StrEnum):
    """The rolls a clock advance can run into."""

    DYING = "dying roll"
    INTENSIVE_CARE = "intensive-care roll"


def _odds(modifier: int, difficulty: int, chance: Fraction) -> str:
    """"2d6 -7 vs 4: 1/12 (8.3%)": the exact chance, as every roll offered shows it."""
    return f"2d6 {modifier:+d} vs {difficulty}: {chance_text(chance)}"


@dataclass(frozen=True)
class RollDue:
    """A roll the rules require of ``name`` at ``at``, with its odds, not yet rolled.

    For an intensive-care roll ``dying_modifier``/``dying_chance`` are the odds of the
    dying roll a failure calls for.
    """

    kind: DueRoll
    character_id: str
    name: str
    at: GameTime
    reason: str
    modifier: int
    difficulty: int
    chance: Fraction
    dying_modifier: int
    dying_chance: Fraction

    @property
    def odds(self) -> str:
        """"2d6 -5 vs 4: 5/18 (27.8%)" (the exact chance to succeed)."""
        return _odds(self.modifier, self.difficulty, self.chance)

    @property
    def short(self) -> str:
        """"Evan: dying roll due at Day 3, 17:00 (2d6 -5 vs 4: 5/18 (27.8%))"."""
        return f"{self.name}: {self.kind.value} due at {self.at.label} ({self.odds})"

    @property
    def text(self) -> str:
        """The whole message for the referee."""
        if self.kind is DueRoll.DYING:
            return (f"{self.name} {self.reason}: a dying roll is due at {self.at.label}, END "
                    f"{self.odds} to survive, and another every round until first aid "
                    "stabilises them or intensive care begins.")
        dying = _odds(self.dying_modifier, DYING_DIFFICULTY, self.dying_chance)
        return (f"{self.name} {self.reason}: an intensive-care roll is due at "
                f"{self.at.label}, {self.odds} to heal {INTENSIVE_CARE_HEALING}; a failure "
                f"means a dying roll (END {dying} to survive).")


@dataclass(frozen=True)
class StoppedAdvance:
    """An advance of the clock that may have stopped short of ``requested`` seconds."""

    requested: int
    advanced: int
    changes: Outcome
    due: RollDue | None

    @property
    def stopped(self) -> bool:
        return self.due is not None


@dataclass(frozen=True)
class _Stop:
    offset: int
    character_id: str
    kind: DueRoll
    reason: str


def _stabilised_until(character: Character) -> GameTime | None:
    ends = [c.expires_at for c in character.conditions_of(ConditionKind.STABILISED)
            if c.expires_at is not None]
    return max(ends) if ends else None


def _care_on(character: Character, plan: HealingPlan | None, day: int) -> bool:
    if plan is not None:
        return plan.regime(day).care
    return character.recovery is not None and character.recovery.care


def _bleeds_to_dying(character: Character, start: GameTime, seconds: int) -> int | None:
    """Seconds from ``start`` until bleeding takes ``character`` past their HP (None: not
    within ``seconds``)."""
    bleeding = character.conditions_of(ConditionKind.BLEEDING)
    if not bleeding:
        return None
    needed = character.hit_points + 1 - character.damage
    started = [c.started_at for c in bleeding if c.started_at is not None]
    anchor = (min(started) if started else start).total_seconds // ROUND_SECONDS
    first = next_bleed_round(anchor, start.total_seconds // ROUND_SECONDS)
    tick = first + (needed - 1) * BLEED_INTERVAL_ROUNDS
    offset = tick * ROUND_SECONDS - start.total_seconds
    return offset if offset <= seconds else None


def _stop_for(character: Character, start: GameTime, seconds: int,
              plan: HealingPlan | None, basis: ThresholdBasis,
              supervised: bool) -> _Stop | None:
    state = character.wound_state(basis)
    if state is WoundState.DEAD:
        return None
    if state is not WoundState.DYING:
        offset = _bleeds_to_dying(character, start, seconds)
        if offset is None:
            return None
        return _Stop(offset, character.id, DueRoll.DYING, "bleeds past their HP: Dying")
    if _care_on(character, plan, 1):
        if not supervised:
            recovery = character.recovery
            since = recovery.since if plan is None and recovery is not None else None
            anchor = start.total_seconds if plan is not None else (
                0 if since is None else since.total_seconds)
            elapsed = start.total_seconds - anchor
            offset = (elapsed // INTENSIVE_CARE_ROLL_SECONDS + 1) * (
                INTENSIVE_CARE_ROLL_SECONDS) - elapsed
            if offset <= seconds:
                return _Stop(offset, character.id, DueRoll.INTENSIVE_CARE,
                             "is Dying in intensive care without a Medic 2+ or AI supervisor")
        if plan is None:
            return None
        days = -(-seconds // SECONDS_PER_DAY)
        off = next((day for day in range(2, days + 1) if not plan.regime(day).care), None)
        if off is None:
            return None
        return _Stop((off - 1) * SECONDS_PER_DAY, character.id, DueRoll.DYING,
                     f"is Dying and the plan ends intensive care on day {off}")
    until = _stabilised_until(character)
    if until is None or until <= start:
        return _Stop(0, character.id, DueRoll.DYING, "is Dying, not stabilised and not in "
                     "intensive care")
    offset = start.seconds_until(until)
    if offset > seconds:
        return None
    return _Stop(offset, character.id, DueRoll.DYING,
                 "is Dying and not in intensive care, and the first-aid stabilisation ends")


def _first_stop(campaign: Campaign, seconds: int,
                plans: Mapping[str, HealingPlan]) -> _Stop | None:
    basis = campaign.rules_options.threshold_basis
    supervised = campaign.infirmary.supervises_intensive_care
    stops = [
        stop for character in campaign.characters
        if (stop := _stop_for(character, campaign.game_time, seconds,
                              plans.get(character.id), basis, supervised)) is not None
    ]
    return min(stops, key=lambda stop: stop.offset, default=None)


def _due(stop: _Stop, character: Character, at: GameTime) -> RollDue:
    dying_mod = dying_modifier(character)
    dying_chance = success_chance(dying_mod, DYING_DIFFICULTY)
    if stop.kind is DueRoll.DYING:
        return RollDue(stop.kind, character.id, character.name, at, stop.reason, dying_mod,
                       DYING_DIFFICULTY, dying_chance, dying_mod, dying_chance)
    return RollDue(stop.kind, character.id, character.name, at, stop.reason, 0,
                   INTENSIVE_CARE_DIFFICULTY, success_chance(0, INTENSIVE_CARE_DIFFICULTY),
                   dying_mod, dying_chance)


def next_roll_due(campaign: Campaign, seconds: int,
                  plans: Mapping[str, HealingPlan] | None = None) -> RollDue | None:
    """The first roll the rules require within the next ``seconds`` (None: none)."""
    return advance_until_roll(campaign, seconds, plans, journal=False).due


def advance_until_roll(
    campaign: Campaign,
    seconds: int,
    plans: Mapping[str, HealingPlan] | None = None,
    *,
    title: str = "",
    journal: bool = True,
) -> StoppedAdvance:
    """Advance the clock up to ``seconds``, stopping at the first moment a roll is due.

    The changes cover the time up to the stop (none when the roll is due now); ``due``
    says who must roll, why and with what odds. A stop that turns out unneeded (the patient
    healed out of Dying before it) is passed over and the whole advance runs.
    """
    plans = plans or {}
    if seconds < 0:
        raise ValueError("the campaign clock only moves forward; use Undo to take time back")
    stop = _first_stop(campaign, seconds, plans)
    if stop is not None:
        changes = (advance_campaign(campaign, stop.offset, plans, title=title,
                                    journal=journal) if stop.offset else Outcome.of("", ()))
        probe = campaign.model_copy(deep=True)
        changes.patch.apply(probe)
        patient = probe.character(stop.character_id)
        basis = probe.rules_options.threshold_basis
        if patient.wound_state(basis) is WoundState.DYING:
            return StoppedAdvance(seconds, stop.offset, changes,
                                  _due(stop, patient, probe.game_time))
    changes = advance_campaign(campaign, seconds, plans, title=title, journal=journal)
    return StoppedAdvance(seconds, seconds, changes, None)


def record_dying_roll(campaign: Campaign, patient_id: str,
                      roll: MedicalRoll) -> Outcome:
    """One dying roll (END vs 4 with wound penalties) at the current moment: a failure
    kills; the clock does not move (the roll covers the round it is made in)."""
    if roll.difficulty != DYING_DIFFICULTY:
        raise ValueError(f"a dying roll is Difficulty {DYING_DIFFICULTY}, not {roll.difficulty}")
    before = campaign.character(patient_id)
    if before.wound_state(campaign.rules_options.threshold_basis) is not WoundState.DYING:
        raise ValueError(f"{before.name} is not dying")
    after = before.model_copy(deep=True)
    at = campaign.game_time
    lines = [f"dying roll: {roll.text}"]
    if roll.success:
        lines.append("survived: still Dying")
    else:
        after.conditions = [*after.conditions, Condition(
            kind=ConditionKind.DEAD, detail="dying roll failed", started_at=at)]
        lines.append("failed the dying roll: dead")
    change = ReplaceSheet(before, after, tuple(lines))
    entry = JournalEntry(game_time=at, title=f"Dying roll: {before.name}",
                         text=change.description)
    return Outcome.of(entry.title, (change, AddJournalEntry(entry)))


def dying_outlook(character: Character, plan: HealingPlan, now: GameTime,
                  basis: ThresholdBasis, supervised: bool) -> str:
    """What a plan means for a Dying character, with the odds, before anything is rolled
    ("" for anyone not Dying): the table's healing rate for the Dying holds only while
    they survive their rolls."""
    if character.wound_state(basis) is not WoundState.DYING:
        return ""
    modifier = dying_modifier(character)
    dying = "END " + _odds(modifier, DYING_DIFFICULTY, success_chance(modifier, DYING_DIFFICULTY))
    name = character.name
    if plan.regime(1).care:
        if supervised:
            return (f"{name} is Dying: intensive care under supervision needs no rolls "
                    "(-1 dmg / 3 days).")
        care = _odds(0, INTENSIVE_CARE_DIFFICULTY,
                     success_chance(0, INTENSIVE_CARE_DIFFICULTY))
        return (f"{name} is Dying: each day of unsupervised intensive care needs a roll "
                f"({care}); a failure means a dying roll ({dying} to survive). Advancing "
                "stops at each.")
    until = _stabilised_until(character)
    if until is None or until <= now:
        return (f"{name} is Dying and not stabilised: a dying roll every round ({dying} to "
                "survive). Time cannot pass until first aid or intensive care.")
    return (f"{name} is Dying, stabilised until {until.label}. {plan.name} gives no "
            f"intensive care: dying rolls resume then ({dying} to survive, every round), "
            "and advancing stops there. The line past it assumes every roll survived.")
