"""Extended actions that fill a combatant's rounds, first aid above all: starting (its
length typed, or found by a timing roll on the Ch.3 time table), working a round at a time,
completing (healing, stopping bleeding, stabilising) and aborting.
"""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, Characteristic, Condition, ConditionKind
from mneme_desktop.domain.combat.actions import _spend
from mneme_desktop.domain.combat.common import (
    CombatError,
    _combatant,
    _name,
    _signed,
    _state,
    _state_note,
)
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter, ExtendedTask
from mneme_desktop.domain.medic_check import medic_modifier
from mneme_desktop.domain.quick_check import MAX_DURATION, TimeUnit, check_terms
from mneme_desktop.rules.actions import (
    FIRST_AID_ROUNDS,
    ROUND_SECONDS,
    ActionKind,
    ExtendedAction,
    extended_action_rounds,
)
from mneme_desktop.rules.checks import (
    CheckResult,
    TimeModifier,
    check_from,
    time_modifier_source,
    time_multiplier,
)
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.healing import first_aid_healing, first_aid_stabilisation_hours
from mneme_desktop.rules.wounds import WoundState


def first_aid_modifier(character: Character) -> int:
    """DM of a first-aid check: the medic's DM the Healing view uses too (Medic level,
    unskilled -3, + EDU DM + wound penalty); the referee can change it."""
    return medic_modifier(character).total


def task_skill_modifier(character: Character, skill: str) -> int:
    """DM of a timing check on ``skill`` (a label, "Gun Combat (Slug Rifle)"): its level or
    unskilled -3, and the wound penalty, as every other check of the app adds them up."""
    return sum(term.value for term in check_terms(character, skill))


@dataclass(frozen=True)
class TaskTiming:
    """A task's length found by its timing roll (Ch.6: "make a Timing roll for the task and
    then work out how many six second combat rounds it will take"): the median duration in
    rounds, minutes or hours, the Effect of the timing check and, when the app rolled it or
    read the table's dice, the check itself (None: the referee typed the Effect).

    Minutes and hours become rounds of ``ROUND_SECONDS`` (a minute is 10 rounds), the Ch.3
    time table multiplies them (-2 is the project's 175 %, flagged), and a part round counts
    as a whole one (``rules.extended_actions.extended_action_rounds``)."""

    median: int
    unit: TimeUnit
    effect: int
    check: CheckResult | None = None
    how: str = ""

    def __post_init__(self) -> None:
        if not 0 < self.median <= MAX_DURATION:
            raise CombatError(
                f"a median duration runs from 1 to {MAX_DURATION} {self.unit.value}, "
                f"got {self.median}")
        if self.check is not None and self.check.effect != self.effect:
            raise CombatError("the timing Effect must be the timing check's Effect")

    @property
    def median_rounds(self) -> int:
        """The median in combat rounds (whole: a minute and an hour are whole rounds)."""
        return self.median * self.unit.seconds // ROUND_SECONDS

    @property
    def modifier(self) -> TimeModifier:
        return time_multiplier(self.effect)

    @property
    def percent(self) -> str:
        """"50%", "175%": the share of the median this Effect takes."""
        return f"{float(self.modifier.multiplier * 100):g}%"

    @property
    def rounds(self) -> int:
        return extended_action_rounds(self.median_rounds, self.effect)

    @property
    def median_text(self) -> str:
        """"30 rounds", "3 minutes (30 rounds)"."""
        unit = self.unit.value[:-1] if self.median == 1 else self.unit.value
        text = f"{self.median} {unit}"
        if self.unit is not TimeUnit.ROUNDS:
            text += f" ({self.median_rounds} rounds)"
        return text

    @property
    def found_by(self) -> str:
        """How the Effect was found: typed, or the timing check with its dice."""
        check = self.check
        if check is None:
            return f"Effect {_signed(self.effect)} typed"
        dice = "+".join(map(str, check.dice))
        if len(check.dice) != len(check.kept):
            dice += f" (kept {'+'.join(map(str, check.kept))})"
        return (f"timing check {self.how or 'rolled'} {dice} DM {_signed(check.modifier)} "
                f"vs {check.difficulty} = {check.total}, Effect {_signed(self.effect)}")

    @property
    def text(self) -> str:
        """For the log: "timing roll on a median of 3 minutes (30 rounds): Effect +1 typed;
        Ch.3 time table, Success +1: 50% of median time = 15 rounds"."""
        return (f"timing roll on a median of {self.median_text}: {self.found_by}; "
                f"{time_modifier_source(self.effect)} = {self.rounds} rounds")


def roll_task_timing(
    median: int, unit: TimeUnit, source: DiceSource, modifier: int, difficulty: int,
    advantage: int = 0,
) -> TaskTiming:
    """The timing check made (app roll or the table's dice, ``modifier`` vs ``difficulty``)
    and the task's length that follows from its Effect."""
    try:
        check = check_from(source, modifier, difficulty, advantage)
    except ValueError as error:
        raise CombatError(str(error)) from None
    return TaskTiming(median, unit, check.effect, check, source.how)


def start_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, description: str,
    rounds: int = FIRST_AID_ROUNDS, target_id: str | None = None, first_aid: bool = False,
    timing: TaskTiming | None = None,
) -> EncounterPatch:
    """Begin an extended action (first aid: 30 rounds) that fills the combatant's rounds:
    ``rounds`` as typed, or, given a ``timing``, the rounds its timing roll resolved to
    (the log says which, and how)."""
    if timing is not None:
        rounds = timing.rounds
    combatant = _combatant(encounter, combatant_id)
    if combatant.extended_task is not None:
        raise CombatError(
            f"{_name(campaign, combatant)} is already busy with "
            f"{combatant.extended_task.description}: finish or abort it first"
        )
    if target_id is not None:
        _combatant(encounter, target_id)
    if first_aid and target_id is None:
        raise CombatError("first aid needs a patient")
    if rounds < 1:
        raise CombatError(f"an extended action lasts at least 1 round, got {rounds}")
    task = ExtendedTask.from_rules(description, ExtendedAction.start(rounds))
    task = task.model_copy(update={"target_id": target_id, "first_aid": first_aid})
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "extended_task", task)
    name = _name(campaign, combatant)
    how = "typed" if timing is None else timing.text
    check = timing.check if timing is not None else None
    rolled: dict[str, object] = {} if check is None else {
        "dice": list(check.dice), "modifier": check.modifier,
        "difficulty": check.difficulty, "effect": check.effect}
    builder.log(actor_id=combatant.id, actor=name, action="Extended action",
                action_kind=ActionKind.FULL, target_id=target_id,
                target=_name(campaign, _combatant(encounter, target_id)) if target_id else "",
                text=f"{name} starts {description} ({rounds} rounds, {how})", **rolled)
    return builder.build(f"{name}: start {description}")


def work_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, source: DiceSource,
    modifier: int, difficulty: int,
) -> EncounterPatch:
    """One round on the extended action (a full action), its check (``modifier`` vs
    ``difficulty``) from either dice source: it counts one round, the Success Effect
    shortens what is left, a Fail Effect loses progress. Completed first aid heals its
    Effect (at least 1), stops bleeding and stabilises a dying patient for END hours."""
    combatant = _combatant(encounter, combatant_id)
    task = combatant.extended_task
    if task is None:
        raise CombatError(f"{_name(campaign, combatant)} has no extended action under way")
    check = check_from(source, modifier, difficulty)
    builder = PatchBuilder(campaign, encounter)
    name = _name(campaign, combatant)
    _spend(builder, combatant, ActionKind.FULL, f"work on {task.description}")
    progress = task.to_rules().advance(check.effect)
    changes: list[str] = []
    if progress.done:
        builder.set(combatant, "extended_task", None)
        changes.append(f"{name}: {task.description} complete")
        if task.first_aid and task.target_id is not None:
            changes += _complete_first_aid(builder, _combatant(encounter, task.target_id), check)
    else:
        builder.set(combatant, "extended_task", task.model_copy(update={
            "remaining_rounds": progress.remaining_rounds,
            "rounds_taken": progress.rounds_taken,
        }))
    builder.log(
        actor_id=combatant.id, actor=name, action=task.description,
        action_kind=ActionKind.FULL, target_id=task.target_id, dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=changes,
        text=f"{task.description}: Effect {_signed(check.effect)}, "
        f"{progress.remaining_rounds} of {task.total_rounds} rounds left",
    )
    return builder.build(f"{name}: {task.description}")


def _complete_first_aid(
    builder: PatchBuilder, patient: Combatant, check: CheckResult
) -> list[str]:
    character = builder.edit_character(patient)
    healed = min(character.damage, first_aid_healing(max(0, check.effect)))
    changes = []
    before = _state(builder.campaign, character)
    character.damage -= healed
    if healed:
        changes.append(f"{character.name}: first aid heals {healed}")
    if character.has_condition(ConditionKind.BLEEDING):
        character.conditions = [
            c for c in character.conditions if c.kind is not ConditionKind.BLEEDING
        ]
        changes.append(f"{character.name}: bleeding stopped")
    if _state(builder.campaign, character) is WoundState.DYING or before is WoundState.DYING:
        hours = first_aid_stabilisation_hours(character.characteristic(Characteristic.END) or 0)
        if _state(builder.campaign, character) is WoundState.DYING:
            character.conditions.append(Condition(
                kind=ConditionKind.STABILISED, detail="first aid", started_at=builder.now,
                started_round=builder.round, encounter_id=builder.encounter.id,
                expires_at=builder.now.advance(hours=hours),
            ))
            changes.append(f"{character.name}: stabilised for {hours} hours")
    after = _state(builder.campaign, character)
    if after is not before:
        changes.append(_state_note(character, after))
    return changes


def abort_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    task = combatant.extended_task
    if task is None:
        raise CombatError(f"{_name(campaign, combatant)} has no extended action to abort")
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "extended_task", None)
    name = _name(campaign, combatant)
    builder.log(actor_id=combatant.id, actor=name, action="Abort",
                text=f"{name} aborts {task.description} "
                f"({task.remaining_rounds} of {task.total_rounds} rounds were left)")
    return builder.build(f"{name}: abort {task.description}")
