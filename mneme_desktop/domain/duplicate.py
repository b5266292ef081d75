"""Copies of campaign items for the referee's Duplicate: fresh ids, a name not yet taken.

The copy is a new item, never a second reference to the original: every id inside it is
new (an encounter's combatants and their instances too), so editing one never edits both.
Nothing here puts the copy into the campaign; the caller does, as one undoable step.
"""

from __future__ import annotations

from collections.abc import Iterable

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, new_id
from mneme_desktop.domain.encounter import Encounter
from mneme_desktop.domain.things import Thing, ThingTemplate


def unique_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base 2``, ``base 3``… whichever is first not in ``taken``."""
    names = set(taken)
    if base not in names:
        return base
    number = 2
    while f"{base} {number}" in names:
        number += 1
    return f"{base} {number}"


def duplicate_character(campaign: Campaign, character_id: str) -> Character:
    """A copy of the campaign character, named "… (copy)"; raises KeyError if none."""
    original = campaign.character(character_id)
    copy = original.model_copy(deep=True, update={"id": new_id()})
    copy.name = unique_name(f"{original.name} (copy)", (c.name for c in campaign.characters))
    return copy


def duplicate_template(campaign: Campaign, template_id: str) -> AdversaryTemplate:
    """A copy of the adversary template with its own stat block; raises KeyError if none."""
    template = campaign.template(template_id)
    stats = template.stats.model_copy(deep=True, update={"id": new_id()})
    stats.name = unique_name(f"{template.name} (copy)",
                             (t.name for t in campaign.adversary_library))
    return AdversaryTemplate(stats=stats, tags=list(template.tags))


def duplicate_encounter(campaign: Campaign, encounter_id: str) -> Encounter:
    """A copy of the encounter with new combatant ids and no aims (they named the old ids)."""
    encounter = campaign.encounter(encounter_id)
    data = encounter.model_dump()
    data["id"] = new_id()
    data["name"] = unique_name(f"{encounter.name} (copy)", (e.name for e in campaign.encounters))
    sheets: dict[str, str] = {}
    for combatant in data["combatants"]:
        combatant["id"] = new_id()
        combatant["aim_target_id"] = None
        if combatant.get("instance"):
            sheets[combatant["instance"]["id"]] = new_id()
            combatant["instance"]["id"] = sheets[combatant["instance"]["id"]]
    entries: dict[str, str] = {}
    for entry in data.get("things", []):
        entries[entry["id"]] = new_id()
        entry["id"] = entries[entry["id"]]
        if entry.get("instance"):
            entry["instance"]["id"] = new_id()
            for position in entry["instance"]["crew"]:  # its crew: the copies' instances
                position["character_id"] = sheets.get(position["character_id"],
                                                      position["character_id"])
    for combatant in data["combatants"]:
        combatant["cover_thing_id"] = entries.get(combatant.get("cover_thing_id") or "")
    return Encounter.model_validate(data)


def duplicate_thing(campaign: Campaign, thing_id: str) -> Thing:
    """A copy of one of the campaign's things, named "… (copy)"; raises KeyError if none."""
    original = campaign.find_campaign_thing(thing_id)
    if original is None:
        raise KeyError(f"no thing {thing_id!r} in campaign {campaign.name!r}")
    copy = original.model_copy(deep=True, update={"id": new_id()})
    copy.name = unique_name(f"{original.name} (copy)", (t.name for t in campaign.things))
    return copy


def duplicate_thing_template(campaign: Campaign, template_id: str) -> ThingTemplate:
    """A copy of the thing template with its own stats; raises KeyError if none."""
    template = campaign.thing_template(template_id)
    stats = template.stats.model_copy(deep=True, update={"id": new_id()})
    stats.name = unique_name(f"{template.name} (copy)",
                             (t.name for t in campaign.thing_library))
    return ThingTemplate(stats=stats, tags=list(template.tags))
