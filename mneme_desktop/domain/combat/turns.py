"""Turns and rounds: starting, passing the turn, delaying, new rounds and ending the fight
(with what it leaves open).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import ConditionKind
from mneme_desktop.domain.combat.common import CombatError, _has_active, _join, _name, _state
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.combat.status import can_act
from mneme_desktop.domain.combat.survival import (
    _bleed,
    _dying_outcome,
    _roll_survival,
    bleeding_ticks,
)
from mneme_desktop.domain.combat.thing_turns import (
    VehicleTurn,
    current_slot,
    slot_can_act,
    slot_position,
    turn_slots,
    vehicle_turns,
)
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, WoundState


def _first_able(
    campaign: Campaign, order: Sequence[Combatant], start: int,
    builder: PatchBuilder | None = None,
) -> int | None:
    """The first place from ``start`` whose combatant can act (judged on the sheets as
    ``builder`` has left them, if given)."""
    for index in range(start, len(order)):
        combatant = order[index]
        sheet = builder.character(combatant) if builder is not None else None
        if can_act(campaign, combatant, sheet):
            return index
    return None


def _give_turn(builder: PatchBuilder, order: Sequence[Combatant],
               vehicles: dict[str, list[VehicleTurn]], after: bool) -> bool:
    """Give the turn to the first turn that can be taken (a combatant's, or a crewed
    vehicle's just before its crew's): after the current one (``after``), or from the
    round's start. False when there is none left."""
    campaign = builder.campaign
    if not vehicles:  # no crewed vehicles: combatants only, as before
        index = _first_able(campaign, order, builder.turn_index + 1 if after else 0, builder)
        if index is None:
            return False
        builder.set_encounter("turn_index", index)
        if builder.get_encounter("thing_turn") is not None:
            builder.set_encounter("thing_turn", None)
        return True
    slots = turn_slots(order, vehicles)
    thing_turn = builder.get_encounter("thing_turn")
    start = slot_position(slots, builder.turn_index, thing_turn if isinstance(
        thing_turn, str) else None) + 1 if after else 0
    for slot in slots[start:]:
        if slot_can_act(campaign, slot, builder.character):
            builder.set_encounter("turn_index", slot.index)
            builder.set_encounter("thing_turn",
                                  slot.vehicle.entry.id if slot.vehicle is not None else None)
            return True
    return False


def start_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """Round 1 begins with the highest initiative; the clock starts."""
    if encounter.started and not encounter.ended:
        raise CombatError("the encounter is already under way")
    order = encounter.initiative_order()
    if not order:
        raise CombatError("add combatants before starting the encounter")
    missing = [_name(campaign, c) for c in order if c.initiative is None]
    if len(missing) == len(order):
        raise CombatError("roll or enter initiative before starting the encounter")
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("round", 1)
    builder.set_encounter("ended", False)
    builder.set_encounter("started_at", campaign.game_time)
    if not _give_turn(builder, order, vehicle_turns(campaign, encounter, order), after=False):
        builder.set_encounter("turn_index", 0)
        builder.set_encounter("thing_turn", None)
    for combatant in encounter.combatants:
        builder.set(combatant, "actions_spent", 0)
        builder.set(combatant, "delayed", False)
    text = "Round 1 begins"
    if missing:
        text += f"; without initiative, acting last: {_join(missing)}"
    builder.log(actor="Referee", action="Round", text=text)
    return builder.build("Start encounter")


def _require_running(encounter: Encounter) -> None:
    if not encounter.started:
        raise CombatError("start the encounter first")
    if encounter.ended:
        raise CombatError("the encounter has ended")


def next_turn_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """Pass the turn to the next combatant who can act; past the last, a new round."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    if _advance(builder, rng, auto_dying):
        return builder.build(f"Round {builder.round}")
    return builder.build(f"Next turn: {_turn_name(builder)}")


def _turn_name(builder: PatchBuilder) -> str:
    """Whose turn the step has given: the vehicle's name on a vehicle's turn."""
    encounter = builder.encounter
    current = encounter.initiative_order()[builder.turn_index]
    entry_id = builder.get_encounter("thing_turn")
    entry = encounter.find_thing_entry(entry_id) if isinstance(entry_id, str) else None
    if entry is not None:
        return builder.campaign.encounter_thing(entry).name
    return _name(builder.campaign, current)


def _advance(builder: PatchBuilder, rng: random.Random, auto_dying: bool) -> bool:
    """Move the turn on; True when that began a new round."""
    order = builder.encounter.initiative_order()
    vehicles = vehicle_turns(builder.campaign, builder.encounter, order)
    if _give_turn(builder, order, vehicles, after=True):
        return False
    _new_round(builder, rng, auto_dying, order, vehicles)
    return True


def previous_turn_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """Back to the previous combatant in this round. Earlier rounds are reached with Undo,
    which also takes back that round's bleeding and dying rolls."""
    _require_running(encounter)
    order = encounter.initiative_order()
    slots = turn_slots(order, vehicle_turns(campaign, encounter, order))
    position = slot_position(slots, min(encounter.turn_index, len(order) - 1),
                             encounter.thing_turn) - 1
    while position >= 0 and not slot_can_act(campaign, slots[position]):
        position -= 1
    if position < 0:
        raise CombatError(
            "this is the first turn of the round: use Undo (Ctrl+Z) to go back into the "
            "previous round"
        )
    slot = slots[position]
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("turn_index", slot.index)
    if slot.vehicle is not None or encounter.thing_turn is not None:
        builder.set_encounter("thing_turn",
                              slot.vehicle.entry.id if slot.vehicle is not None else None)
    name = slot.vehicle.thing.name if slot.vehicle is not None else _name(campaign,
                                                                             slot.combatant)
    return builder.build(f"Previous turn: {name}")


def end_round_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """Everyone has acted (or passes): the referee declares the round over."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    _new_round(builder, rng, auto_dying)
    return builder.build(f"End round {encounter.round}")


def delay_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """The current combatant holds their turn: marked delayed, the turn passes on. They act
    later this round by taking actions from their row (which clears the mark); an unused
    delay is lost when the round ends."""
    _require_running(encounter)
    current = encounter.current_combatant
    if current is None:
        raise CombatError("nobody has the turn")
    slot = current_slot(campaign, encounter)
    if slot is not None and slot.vehicle is not None:
        raise CombatError(f"{slot.vehicle.thing.name} acts on its crew's initiative and "
                          "cannot delay: pass its turn with Next turn")
    name = _name(campaign, current)
    builder = PatchBuilder(campaign, encounter)
    builder.set(current, "delayed", True)
    entry = builder.log(actor_id=current.id, actor=name, action="Delay",
                        text=f"{name} delays; act later this round from their row")
    if _advance(builder, rng, auto_dying):
        entry.text = f"{name} delays at the end of the round: the delay is lost"
    return builder.build(f"{name} delays")


def loose_ends(campaign: Campaign, encounter: Encounter) -> tuple[str, ...]:
    """Who leaves the fight dying, bleeding, stabilised or mid-task: what the referee is
    asked to confirm before "End fight", and what the log keeps of it."""
    lines: list[str] = []
    now = campaign.game_time
    for combatant in encounter.combatants:
        character = campaign.combatant_character(combatant)
        if _has_active(character, ConditionKind.DEAD, now):
            continue
        notes: list[str] = []
        if _state(campaign, character) is WoundState.DYING:
            stable = _has_active(character, ConditionKind.STABILISED, now)
            notes.append("dying, stabilised" if stable else "dying")
        elif _has_active(character, ConditionKind.STABILISED, now):
            notes.append("stabilised")
        if _has_active(character, ConditionKind.BLEEDING, now):
            notes.append("bleeding")
        task = combatant.extended_task
        if task is not None:
            notes.append(f"mid-task ({task.description})")
        if notes:
            lines.append(f"{character.name}: {', '.join(notes)}")
    return tuple(lines)


def end_encounter_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """End the fight; whoever is left dying, bleeding, stabilised or mid-task is logged."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("ended", True)
    text = f"Encounter ends in round {encounter.round}"
    ends = loose_ends(campaign, encounter)
    if ends:
        text += ". Left open: " + "; ".join(ends)
    builder.log(actor="Referee", action="End", text=text)
    return builder.build("End encounter")


def _new_round(
    builder: PatchBuilder, rng: random.Random, auto_dying: bool,
    order: list[Combatant] | None = None,
    vehicles: dict[str, list[VehicleTurn]] | None = None,
) -> None:
    """A new round: actions back, the clock moves six seconds, bleeding and dying tick.
    ``order`` is the encounter's initiative order, if the caller has it at hand (the
    combatants' initiatives are the same during the step)."""
    campaign, encounter = builder.campaign, builder.encounter
    old_round, old_time = builder.round, builder.now
    new_round = old_round + 1
    new_time = old_time.advance(rounds=1)
    builder.set_encounter("round", new_round)
    builder.set_time(new_time)
    for combatant in encounter.combatants:
        if builder.get(combatant, "actions_spent"):
            builder.set(combatant, "actions_spent", 0)
        if builder.get(combatant, "delayed"):
            builder.set(combatant, "delayed", False)
    builder.log(actor="Referee", action="Round", text=f"Round {new_round} begins")
    if order is None:
        order = encounter.initiative_order()
    bleeding_kind = ConditionKind.BLEEDING
    for combatant in order:
        character = builder.character(combatant)
        # Most sheets have no conditions at all: nothing to sort or judge for them.
        if character.conditions and any(c.kind is bleeding_kind for c in character.conditions):
            bleeding = sorted(
                character.conditions_of(bleeding_kind),
                key=lambda c: (c.started_round or 0, c.started_at or GameTime()),
            )
            if _state(campaign, character) is not WoundState.DEAD:
                points = bleeding_ticks(bleeding[0], encounter, old_round, new_round,
                                        old_time, new_time)
                if points:
                    _bleed(builder, combatant, points, new_round, new_time)
                    character = builder.character(combatant)
        if auto_dying:
            damage = character.damage
            if (
                damage  # an unhurt combatant is not dying (skips working out the HP)
                and damage > character.hit_points
                and _state(campaign, character) is WoundState.DYING
                and not _has_active(character, ConditionKind.STABILISED, new_time)
            ):
                source = DiceSource.app(rng)
                _dying_outcome(builder, combatant, _roll_survival(
                    character, DYING_DIFFICULTY, source), source.how)
    if vehicles is None:
        vehicles = vehicle_turns(campaign, encounter, order)
    if not _give_turn(builder, order, vehicles, after=False):
        builder.set_encounter("turn_index", 0)
        if builder.get_encounter("thing_turn") is not None:
            builder.set_encounter("thing_turn", None)
