"""Steps that change things (vehicles, craft, structures, cover objects), each one
:class:`~mneme_desktop.domain.edits.Patch`: one undo step, one notice.

Campaign-level steps (add, remove, change a thing or a thing template, its damage) live
here; steps inside a fight (a thing joins an encounter, cover attached to a combatant, crew
aboard) are in :mod:`mneme_desktop.domain.combat.things`. ``text`` is the undo step's
name; the views pass a translated one.
"""

from __future__ import annotations

from collections.abc import Callable

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.edits import (
    Edit,
    InsertItem,
    Patch,
    RemoveEncounterThing,
    RemoveItem,
    ReplaceThing,
    SetCombatantField,
)
from mneme_desktop.domain.things import Thing, ThingTemplate

__all__ = [
    "add_thing",
    "add_thing_template",
    "change_thing",
    "encounter_things_out",
    "remove_thing",
    "remove_thing_template",
    "replace_thing",
    "set_thing_damage",
]


def add_thing(campaign: Campaign, thing: Thing, index: int | None = None,
              text: str = "") -> Patch:
    """A campaign thing (the party's ground car) added at ``index`` (default: the end)."""
    at = len(campaign.things) if index is None else index
    return Patch(text or f"Add {thing.name}",
                 (InsertItem("things", at, thing.model_copy(deep=True)),))


def add_thing_template(campaign: Campaign, template: ThingTemplate, index: int | None = None,
                       text: str = "") -> Patch:
    """A thing template ("Shield") added to the library."""
    at = len(campaign.thing_library) if index is None else index
    return Patch(text or f"Add template {template.name}",
                 (InsertItem("thing_library", at, template.model_copy(deep=True)),))


def remove_thing(campaign: Campaign, thing_id: str, text: str = "") -> Patch:
    """A campaign thing taken out, and with it out of every encounter it was in (anyone
    behind it as cover is no longer); undo brings all of it back."""
    index = next((i for i, t in enumerate(campaign.things) if t.id == thing_id), None)
    if index is None:
        raise KeyError(f"no thing {thing_id!r} in campaign {campaign.name!r}")
    thing = campaign.things[index]
    edits: list[Edit] = []
    for encounter in campaign.encounters:
        edits += encounter_things_out(encounter.id, campaign, [
            (position, entry.id) for position, entry in enumerate(encounter.things)
            if entry.thing_id == thing_id])
    edits.append(RemoveItem("things", index, thing.model_copy(deep=True)))
    return Patch(text or f"Delete {thing.name}", tuple(edits))


def encounter_things_out(encounter_id: str, campaign: Campaign,
                 positions: list[tuple[int, str]]) -> list[Edit]:
    """Edits taking the encounter things at ``positions`` out (highest first, so each
    index is right when reverted in turn), releasing the combatants behind them."""
    encounter = campaign.encounter(encounter_id)
    gone = {entry_id for _, entry_id in positions}
    edits: list[Edit] = [
        SetCombatantField(encounter_id, c.id, "cover_thing_id", c.cover_thing_id, None)
        for c in encounter.combatants if c.cover_thing_id in gone]
    for position, _ in sorted(positions, reverse=True):
        edits.append(RemoveEncounterThing(encounter_id, position,
                                          encounter.things[position].model_copy(deep=True)))
    return edits


def remove_thing_template(campaign: Campaign, template_id: str, text: str = "") -> Patch:
    """A template taken out of the library; the instances already made stay in their
    encounters (they are whole things of their own)."""
    index = next((i for i, t in enumerate(campaign.thing_library) if t.id == template_id),
                 None)
    if index is None:
        raise KeyError(f"no thing template {template_id!r} in campaign {campaign.name!r}")
    template = campaign.thing_library[index]
    return Patch(text or f"Delete template {template.name}",
                 (RemoveItem("thing_library", index, template.model_copy(deep=True)),))


def replace_thing(campaign: Campaign, after: Thing, text: str = "",
                  lines: tuple[str, ...] = (), merge_key: str | None = None) -> Patch:
    """The thing with ``after``'s id (wherever it lives) becomes ``after``, validated first
    so an impossible value never reaches the campaign. With a ``merge_key``, steps of the
    same thing in a row (typing, dragging its HP bar) merge into one undo step."""
    before = campaign.thing(after.id)
    checked = Thing.model_validate(after.model_dump())
    key = None if merge_key is None else f"{merge_key}\x1f{after.id}"
    return Patch(text or f"Edit {checked.name}",
                 (ReplaceThing(before.model_copy(deep=True), checked, lines),), key)


def change_thing(campaign: Campaign, thing_id: str, change: Callable[[Thing], object],
                 text: str = "", merge_key: str | None = None) -> Patch:
    """``change`` applied to a copy of the thing, as one step (see :func:`replace_thing`)."""
    edited = campaign.thing(thing_id).model_copy(deep=True)
    change(edited)
    return replace_thing(campaign, edited, text, merge_key=merge_key)


def set_thing_damage(campaign: Campaign, thing_id: str, damage: int, text: str = "",
                     merge_key: str | None = "thing-damage") -> Patch:
    """The damage a thing has taken (plain points) set by hand; a drag of its HP bar
    merges into one step by the default ``merge_key``."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    thing = campaign.thing(thing_id)
    after = thing.model_copy(deep=True)
    after.damage = damage
    line = f"damage {thing.damage} → {damage} ({after.state.label})"
    return replace_thing(campaign, after, text or f"{thing.name}: {line}", (line,), merge_key)
