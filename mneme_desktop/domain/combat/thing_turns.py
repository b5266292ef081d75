"""A crewed vehicle's turn: where it falls in the turn order and who acts in it.

*Reading:* a vehicle has no initiative of its own; it acts on its crew's (the best of
theirs, as :func:`~mneme_desktop.domain.combat.things.thing_initiative` shows it). Its turn
comes just before the turn of the crew member whose initiative it takes (its *anchor*):
that is where the crew drive it and fire its weapons, spending their own minor actions,
and each crew member keeps their own turn for anything else. An uncrewed vehicle, a
structure or a cover object has no turn; a destroyed vehicle keeps its place greyed out
(as a dead combatant does) and Next turn passes over it, as over a vehicle whose crew
cannot act.

The turn order stays :meth:`Encounter.initiative_order` (combatants) with
:attr:`Encounter.turn_index` into it; :attr:`Encounter.thing_turn` names the vehicle whose
turn it is, which is then the one just before the combatant at ``turn_index``. A stored
``thing_turn`` that no longer fits (the vehicle left, its crew changed) is ignored: the
turn is the combatant's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character
from mneme_desktop.domain.combat.status import can_act
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterThing
from mneme_desktop.domain.things import Thing

__all__ = [
    "TurnSlot",
    "VehicleTurn",
    "acting_crew",
    "current_slot",
    "slot_can_act",
    "slot_position",
    "turn_slots",
    "vehicle_turns",
]


@dataclass(frozen=True)
class VehicleTurn:
    """A crewed vehicle taking turns: the vehicle and its crew aboard, best first."""

    entry: EncounterThing
    thing: Thing
    crew: tuple[Combatant, ...]
    """The combatants aboard (in initiative order); the first is the anchor."""

    @property
    def anchor(self) -> Combatant:
        return self.crew[0]

    @property
    def initiative(self) -> int | None:
        return self.anchor.initiative


@dataclass(frozen=True)
class TurnSlot:
    """One place in the turn order: a combatant's turn, or a vehicle's just before its
    anchor's. ``index`` is the combatant's place in the initiative order."""

    index: int
    combatant: Combatant
    vehicle: VehicleTurn | None = None

    @property
    def id(self) -> str:
        """The row's id: the vehicle's encounter entry, else the combatant."""
        return self.vehicle.entry.id if self.vehicle is not None else self.combatant.id


def _sheet_id(combatant: Combatant) -> str:
    if combatant.character_id is not None:
        return combatant.character_id
    assert combatant.instance is not None
    return combatant.instance.id


def vehicle_turns(campaign: Campaign, encounter: Encounter, order: Sequence[Combatant]
                  ) -> dict[str, list[VehicleTurn]]:
    """The crewed vehicles that take turns, by their anchor's combatant id (in the order
    the vehicles joined). Empty, at no cost, for an encounter without things."""
    if not encounter.things:
        return {}
    seated: list[tuple[EncounterThing, Thing, set[str]]] = []
    for entry in encounter.things:
        if entry.out_of_fight:
            continue
        thing = campaign.encounter_thing(entry)
        seats = {p.character_id for p in thing.crew if p.character_id is not None}
        if thing.kind.crewed and seats:
            seated.append((entry, thing, seats))
    if not seated:
        return {}
    aboard: dict[str, list[Combatant]] = {entry.id: [] for entry, _, _ in seated}
    for combatant in order:
        sheet_id = _sheet_id(combatant)
        for entry, _, seats in seated:
            if sheet_id in seats:
                aboard[entry.id].append(combatant)
    turns: dict[str, list[VehicleTurn]] = {}
    for entry, thing, _ in seated:
        crew = aboard[entry.id]
        if crew:
            turns.setdefault(crew[0].id, []).append(VehicleTurn(entry, thing, tuple(crew)))
    return turns


def turn_slots(order: Sequence[Combatant], vehicles: dict[str, list[VehicleTurn]]
               ) -> list[TurnSlot]:
    """Every turn of a round in order: each combatant's, a vehicle's just before its
    anchor's."""
    slots = []
    for index, combatant in enumerate(order):
        for vehicle in vehicles.get(combatant.id, ()):
            slots.append(TurnSlot(index, combatant, vehicle))
        slots.append(TurnSlot(index, combatant))
    return slots


def slot_position(slots: Sequence[TurnSlot], turn_index: int, thing_turn: str | None) -> int:
    """Where (``turn_index``, ``thing_turn``) is in ``slots``: the vehicle's slot when
    ``thing_turn`` is a vehicle anchored there, else the combatant's."""
    fallback = 0
    for position, slot in enumerate(slots):
        if slot.index != turn_index:
            continue
        if slot.vehicle is None:
            return position
        if slot.vehicle.entry.id == thing_turn:
            return position
    if slots and turn_index >= slots[-1].index:  # past the end: the last combatant's
        fallback = len(slots) - 1
    return fallback


def current_slot(campaign: Campaign, encounter: Encounter,
                 order: Sequence[Combatant] | None = None) -> TurnSlot | None:
    """Whose turn it is, a vehicle's or a combatant's (None before the start, after the
    end, or with nobody left)."""
    if not encounter.started or encounter.ended:
        return None
    if order is None:
        order = encounter.initiative_order()
    if not order:
        return None
    index = min(encounter.turn_index, len(order) - 1)
    if encounter.thing_turn is not None:
        for vehicle in vehicle_turns(campaign, encounter, order).get(order[index].id, ()):
            if vehicle.entry.id == encounter.thing_turn:
                return TurnSlot(index, order[index], vehicle)
    return TurnSlot(index, order[index])


def slot_can_act(campaign: Campaign, slot: TurnSlot,
                 sheet_of: Callable[[Combatant], Character] | None = None) -> bool:
    """Whether the slot's turn is taken: a combatant who can act, or a vehicle not
    destroyed with a crew member aboard who can act (``sheet_of``: the sheets as a step
    has left them)."""
    if slot.vehicle is None:
        sheet = sheet_of(slot.combatant) if sheet_of is not None else None
        return can_act(campaign, slot.combatant, sheet)
    if slot.vehicle.thing.destroyed:
        return False
    return any(can_act(campaign, c, sheet_of(c) if sheet_of is not None else None)
               for c in slot.vehicle.crew)


def acting_crew(campaign: Campaign, vehicle: VehicleTurn) -> Combatant:
    """The crew member who acts first in the vehicle's turn: the best aboard who can act
    (the anchor when no one can)."""
    return next((c for c in vehicle.crew if can_act(campaign, c)), vehicle.anchor)
