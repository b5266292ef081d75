"""Things in a fight: vehicles and objects join an encounter (a crewed vehicle acting on its
crew's initiative) or stand as cover attached to a combatant, each step one patch.

*Reading:* a vehicle has no initiative of its own; it acts when its crew act, so a crewed
vehicle's initiative is the best of its crew's in this encounter, and an uncrewed one has
none (a parked car is a target and cover, not a combatant taking turns).
"""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.common import CombatError, _combatant
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.edits import InsertEncounterThing, SetEncounterThingField
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterThing, Side
from mneme_desktop.domain.thing_edits import encounter_things_out
from mneme_desktop.domain.things import Thing, next_thing_number

__all__ = [
    "ThingInitiative",
    "add_campaign_thing_patch",
    "add_things_patch",
    "cover_of",
    "crew_patch",
    "remove_thing_patch",
    "set_thing_side_patch",
    "take_cover_patch",
    "thing_entry",
    "thing_initiative",
]


def thing_entry(encounter: Encounter, entry_id: str) -> EncounterThing:
    found = encounter.find_thing_entry(entry_id)
    if found is None:
        raise CombatError("that thing is no longer in this encounter")
    return found


def add_things_patch(
    campaign: Campaign, encounter: Encounter, template_id: str, count: int = 1,
    side: Side = Side.NEUTRAL,
) -> EncounterPatch:
    """``count`` numbered instances of a thing template ("Shield 1".."Shield N"),
    continuing the numbering of the ones already here."""
    if count < 1:
        raise CombatError(f"add at least one, not {count}")
    template = campaign.find_thing_template(template_id)
    if template is None:
        raise CombatError("that thing template is no longer in the library")
    here = [campaign.encounter_thing(t) for t in encounter.things]
    first = next_thing_number(template, here)
    builder = PatchBuilder(campaign, encounter)
    names = []
    for offset in range(count):
        entry = EncounterThing(instance=template.make_instance(first + offset), side=side)
        assert entry.instance is not None
        names.append(entry.instance.name)
        builder.structural(InsertEncounterThing(encounter.id, len(encounter.things) + offset,
                                                entry))
    verb = "joins" if len(names) == 1 else "join"
    builder.log(action="Thing joins", text=f"{', '.join(names)} {verb} the encounter")
    return builder.build(f"Add {', '.join(names)}")


def add_campaign_thing_patch(
    campaign: Campaign, encounter: Encounter, thing_id: str, side: Side = Side.NEUTRAL
) -> EncounterPatch:
    """One of the campaign's own things (the party's car) joins by reference: the damage
    it takes stays on it after the fight."""
    thing = campaign.find_campaign_thing(thing_id)
    if thing is None:
        raise CombatError("that thing is no longer in the campaign")
    if any(t.thing_id == thing_id for t in encounter.things):
        raise CombatError(f"{thing.name} is already in this encounter")
    builder = PatchBuilder(campaign, encounter)
    builder.structural(InsertEncounterThing(encounter.id, len(encounter.things),
                                            EncounterThing(thing_id=thing_id, side=side)))
    builder.log(action="Thing joins", text=f"{thing.name} joins the encounter")
    return builder.build(f"Add {thing.name}")


def remove_thing_patch(campaign: Campaign, encounter: Encounter, entry_id: str) -> EncounterPatch:
    """A thing taken out of the encounter; whoever was behind it has no cover object."""
    position = next((i for i, t in enumerate(encounter.things) if t.id == entry_id), None)
    if position is None:
        raise CombatError("that thing is no longer in this encounter")
    name = campaign.encounter_thing(encounter.things[position]).name
    builder = PatchBuilder(campaign, encounter)
    for edit in encounter_things_out(encounter.id, campaign, [(position, entry_id)]):
        builder.structural(edit)
    builder.log(action="Thing leaves", text=f"{name} leaves the encounter")
    return builder.build(f"Remove {name}")


def take_cover_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, entry_id: str | None
) -> EncounterPatch:
    """A combatant takes cover behind an encounter's thing (None: comes out from behind
    it). The thing's protection then absorbs fail effect and takes those damage rolls."""
    combatant = _combatant(encounter, combatant_id)
    who = campaign.combatant_character(combatant).name
    builder = PatchBuilder(campaign, encounter)
    if entry_id is None:
        if combatant.cover_thing_id is None:
            return builder.build("")
        old = encounter.find_thing_entry(combatant.cover_thing_id)
        builder.set(combatant, "cover_thing_id", None)
        name = campaign.encounter_thing(old).name if old is not None else "cover"
        builder.log(actor_id=combatant.id, actor=who, action="Leave cover",
                    text=f"{who} leaves cover behind {name}")
        return builder.build(f"{who}: leave cover")
    thing = campaign.encounter_thing(thing_entry(encounter, entry_id))
    if thing.protection < 1:
        raise CombatError(f"{thing.name} gives no protection as cover: set its protection "
                          "on its sheet first")
    builder.set(combatant, "cover_thing_id", entry_id)
    state = "" if thing.absorbs else " (it has no HP left and absorbs nothing)"
    builder.log(actor_id=combatant.id, actor=who, action="Take cover",
                text=f"{who} takes cover behind {thing.name}, protection {thing.protection}"
                f"{state}")
    return builder.build(f"{who}: cover behind {thing.name}")


def cover_of(campaign: Campaign, encounter: Encounter, combatant: Combatant) -> Thing | None:
    """The thing a combatant is behind, or None."""
    if combatant.cover_thing_id is None:
        return None
    entry = encounter.find_thing_entry(combatant.cover_thing_id)
    return None if entry is None else campaign.encounter_thing(entry)


def crew_patch(
    campaign: Campaign, encounter: Encounter, entry_id: str, position: int,
    combatant_id: str | None,
) -> EncounterPatch:
    """A combatant boards a vehicle's crew position (None: the position is left empty)."""
    thing = campaign.encounter_thing(thing_entry(encounter, entry_id))
    if not 0 <= position < len(thing.crew):
        raise CombatError(f"{thing.name} has no such crew position")
    builder = PatchBuilder(campaign, encounter)
    role = thing.crew[position].role
    if combatant_id is None:
        sheet_id = None
        text = f"{thing.name}: {role} left empty"
    else:
        sheet = campaign.combatant_character(_combatant(encounter, combatant_id))
        sheet_id = sheet.id
        text = f"{sheet.name} boards {thing.name} as {role}"
    edited = builder.edit_thing(thing.id, text)
    for other in edited.crew:  # one seat each
        if sheet_id is not None and other.character_id == sheet_id:
            other.character_id = None
    edited.crew[position].character_id = sheet_id
    builder.log(action="Crew", target=thing.name, text=text)
    return builder.build(text)


def set_thing_side_patch(
    campaign: Campaign, encounter: Encounter, entry_id: str, side: Side
) -> EncounterPatch:
    """The side a thing in the encounter is on (a vehicle joins its crew's)."""
    entry = thing_entry(encounter, entry_id)
    name = campaign.encounter_thing(entry).name
    return EncounterPatch(f"{name}: {side.label}",
                          (SetEncounterThingField(encounter.id, entry_id, "side", entry.side,
                                                  side),), None, encounter.id)


@dataclass(frozen=True)
class ThingInitiative:
    """A crewed vehicle's initiative: its best crew member's, and who that is."""

    initiative: int | None
    crew: tuple[str, ...]
    """The names of the crew aboard in this encounter."""


def thing_initiative(campaign: Campaign, encounter: Encounter, entry: EncounterThing
                     ) -> ThingInitiative:
    """The initiative a thing acts on: the best of its crew's in this encounter (None:
    no crew aboard, or none of them has initiative yet)."""
    thing = campaign.encounter_thing(entry)
    aboard = {p.character_id for p in thing.crew if p.character_id is not None}
    best: int | None = None
    names: list[str] = []
    for combatant in encounter.combatants:
        sheet = campaign.combatant_character(combatant)
        if sheet.id not in aboard or combatant.out_of_fight:
            continue
        names.append(sheet.name)
        if combatant.initiative is not None and (best is None or combatant.initiative > best):
            best = combatant.initiative
    return ThingInitiative(best, tuple(names))
