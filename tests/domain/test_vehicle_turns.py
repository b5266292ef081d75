"""A crewed vehicle's turn in the domain (#18): its place just before its best crew
member's, Start, Next and Previous turn through it, a campaign vehicle crewed by an
adversary, a stale turn ignored, and every step undone."""

from __future__ import annotations

import random

from mneme_desktop.domain import Side, Thing, ThingKind
from mneme_desktop.domain import combat as combat
from mneme_desktop.domain.combat.thing_turns import (
    current_slot,
    turn_slots,
    vehicle_turns,
)
from mneme_desktop.domain.edits import Patch
from mneme_desktop.domain.things import CrewPosition
from tests.domain.test_combat import by_name, fight, make_campaign
from tests.domain.test_things import applied, with_things


def set_initiatives(campaign, encounter, values: dict[str, int]) -> None:
    for name, value in values.items():
        by_name(campaign, encounter, name).initiative = value


def crewed(campaign, encounter, *crew: str) -> str:
    """The walker in the fight with ``crew`` in its seats; its entry id."""
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id, side=Side.PLAYERS))
    entry = encounter.things[-1]
    for seat, name in enumerate(crew):
        applied(campaign, combat.crew_patch(campaign, encounter, entry.id, seat,
                                            by_name(campaign, encounter, name).id))
    return entry.id


def slot_names(campaign, encounter) -> list[str]:
    order = encounter.initiative_order()
    return [s.vehicle.thing.name if s.vehicle is not None else
            campaign.combatant_character(s.combatant).name
            for s in turn_slots(order, vehicle_turns(campaign, encounter, order))]


INITIATIVES = {"Mara Vey": 12, "Ilse Brandt": 10, "Tomas Okoro": 8, "Raider 1": 6,
               "Raider 2": 5, "Brute 1": 4}


def test_start_and_next_turn_go_through_the_vehicles_turn():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    set_initiatives(campaign, encounter, INITIATIVES)
    entry_id = crewed(campaign, encounter, "Tomas Okoro", "Mara Vey")
    assert slot_names(campaign, encounter) == [
        "Walker 1", "Mara Vey", "Ilse Brandt", "Tomas Okoro", "Raider 1", "Raider 2",
        "Brute 1"]
    applied(campaign, combat.end_encounter_patch(campaign, encounter))
    start = applied(campaign, combat.start_patch(campaign, encounter))
    assert encounter.thing_turn == entry_id
    slot = current_slot(campaign, encounter)
    assert slot is not None and slot.vehicle is not None and slot.id == entry_id
    # The current combatant is its best crew member: the one who fires its weapons.
    assert encounter.current_combatant is by_name(campaign, encounter, "Mara Vey")
    rng = random.Random(1)
    steps: list[Patch] = []
    for expected in ("Mara Vey", "Ilse Brandt"):
        steps.append(applied(campaign, combat.next_turn_patch(campaign, encounter, rng)))
        assert steps[-1].text == f"Next turn: {expected}"
        assert encounter.thing_turn is None
    back = applied(campaign, combat.previous_turn_patch(campaign, encounter))
    back2 = applied(campaign, combat.previous_turn_patch(campaign, encounter))
    assert back2.text == "Previous turn: Walker 1" and encounter.thing_turn == entry_id
    for step in (back2, back, *reversed(steps)):
        step.revert(campaign)
    assert encounter.thing_turn == entry_id
    start.revert(campaign)
    assert encounter.thing_turn is None


def test_a_campaign_vehicle_crewed_by_an_adversary_takes_turns():
    campaign = with_things(make_campaign())
    car = Thing(name="Raider Buggy", kind=ThingKind.VEHICLE, hp=3,
                crew=[CrewPosition(role="Driver")])
    campaign.things.append(car)
    encounter = fight(campaign)
    set_initiatives(campaign, encounter, INITIATIVES)
    applied(campaign, combat.add_campaign_thing_patch(campaign, encounter, car.id,
                                                      Side.ENEMIES))
    entry = encounter.things[-1]
    raider = by_name(campaign, encounter, "Raider 2")
    seat = applied(campaign, combat.crew_patch(campaign, encounter, entry.id, 0, raider.id))
    names = slot_names(campaign, encounter)
    assert names.index("Raider Buggy") == names.index("Raider 2") - 1
    seat.revert(campaign)
    assert "Raider Buggy" not in slot_names(campaign, encounter)


def test_a_structure_or_cover_has_no_turn_and_a_stale_turn_is_ignored():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    set_initiatives(campaign, encounter, INITIATIVES)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[0].id))
    order = encounter.initiative_order()
    assert vehicle_turns(campaign, encounter, order) == {}
    entry_id = crewed(campaign, encounter, "Ilse Brandt")
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    encounter.turn_index = 1
    encounter.thing_turn = entry_id
    assert current_slot(campaign, encounter).id == entry_id
    # Ilse leaves the fight: the walker has nobody aboard, the turn is Tomas's.
    applied(campaign, combat.set_out_of_fight_patch(campaign, encounter, ilse.id, True))
    slot = current_slot(campaign, encounter)
    assert slot is not None and slot.vehicle is None
    assert campaign.combatant_character(slot.combatant).name == "Tomas Okoro"
    assert "Walker 1" not in slot_names(campaign, encounter)
