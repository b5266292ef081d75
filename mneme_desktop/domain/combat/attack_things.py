"""Things in an attack (Ch.7): a vehicle or object as a target, with scale immunity and
scaled armor, and a cover object that takes the damage rolls it absorbs.

*Cover Absorption:* the fail-effect rolls the cover absorbs (up to its protection) are
rolled against the cover object: its armor comes off each, a cover of a larger scale than
the weapon ignores them, and its HP falls by the rest. Cover at 0 HP stops absorbing: it
gives no protection from then on, and the log says so when it happens and whenever it is
chosen again.
"""

from __future__ import annotations

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, Weapon
from mneme_desktop.domain.combat.common import CombatError
from mneme_desktop.domain.combat.edits import PatchBuilder
from mneme_desktop.domain.encounter import Encounter, EncounterThing
from mneme_desktop.domain.things import Thing
from mneme_desktop.rules.damage import DamageResult
from mneme_desktop.rules.dice import DiceExpression, Scale
from mneme_desktop.rules.thing_damage import (
    COVER_ABSORPTION_RULE,
    SCALE_IMMUNITY_RULE,
    cover_hit,
)

__all__ = [
    "CoverThing",
    "apply_cover_rolls",
    "apply_thing_hit",
    "attack_weapons",
    "cover_thing",
    "crew_weapons",
    "ignored_text",
    "thing_entry_of",
]


def crew_weapons(campaign: Campaign, encounter: Encounter, sheet_id: str
                 ) -> list[tuple[Thing, Weapon]]:
    """The weapons of the vehicles in this encounter that the sheet ``sheet_id`` is crew
    of (still in the fight): a gunner fires the walker's autocannon with their own skill."""
    found = []
    for entry in encounter.things:
        if entry.out_of_fight:
            continue
        thing = campaign.encounter_thing(entry)
        if any(p.character_id == sheet_id for p in thing.crew):
            found += [(thing, weapon) for weapon in thing.weapons]
    return found


def attack_weapons(campaign: Campaign, encounter: Encounter, sheet: Character
                   ) -> list[Weapon]:
    """What a combatant can attack with, in the resolver's order: their own weapons, then
    those of the vehicles they crew."""
    return [*sheet.weapons,
            *(weapon for _, weapon in crew_weapons(campaign, encounter, sheet.id))]


def thing_entry_of(encounter: Encounter, entry_id: str) -> EncounterThing | None:
    """The encounter thing an attack names by id (targets are combatants or things)."""
    return encounter.find_thing_entry(entry_id)


class CoverThing:
    """The cover object an attacker is behind, as the defence reads it."""

    def __init__(self, thing: Thing) -> None:
        self.thing_id = thing.id
        self.name = thing.name
        self.protection = thing.protection if thing.absorbs else 0
        self.note = "" if thing.absorbs else (
            f"{thing.name} is at 0 HP: it no longer absorbs fail effect ({COVER_ABSORPTION_RULE})")


def cover_thing(campaign: Campaign, encounter: Encounter, entry_id: str) -> CoverThing:
    """The cover object ``entry_id`` names, refused if it is not in this encounter."""
    entry = thing_entry_of(encounter, entry_id)
    if entry is None:
        raise CombatError("that cover object is no longer in this encounter")
    return CoverThing(campaign.encounter_thing(entry))


def ignored_text(name: str, target_scale: Scale, attack_scale: Scale) -> str:
    """Scale immunity in words, with the rule's name."""
    return (f"{name} ignores {attack_scale.label}-scale damage: it is of the "
            f"{target_scale.label} scale ({SCALE_IMMUNITY_RULE})")


def _state_line(before: Thing, after: Thing) -> list[str]:
    if after.state is before.state:
        return []
    return [f"{after.name}: {after.state.label}"]


def apply_thing_hit(
    builder: PatchBuilder, thing_id: str, result: DamageResult
) -> tuple[int, list[str]]:
    """The kept damage rolls of a hit put on a thing: (damage taken, state changes)."""
    before = builder.thing(thing_id)
    total = result.total
    if not total:
        return 0, []
    thing = builder.edit_thing(thing_id, f"takes {total} damage")
    thing.damage += total
    return total, _state_line(before, thing)


def apply_cover_rolls(
    builder: PatchBuilder, thing_id: str, dice: DiceExpression, rolls: tuple[int, ...]
) -> tuple[str, list[str]]:
    """The damage rolls the cover absorbed, rolled against the cover object: its armor off
    each, nothing from a lesser scale, its HP falls (never below 0). Returns the log text
    and the state changes (destroyed: it stops absorbing)."""
    before = builder.thing(thing_id)
    hit = cover_hit(rolls, dice.scale, before.scale, before.plain_armor, before.plain_hp,
                    before.damage)
    count = f"{len(rolls)} damage roll{'s' if len(rolls) != 1 else ''}"
    if hit.immune:
        return (f"{before.name} takes {count} of {dice} and "
                + ignored_text(before.name, before.scale, dice.scale)), []
    armor = before.plain_armor
    parts = ", ".join(f"{raw}→{after}" if armor else str(raw)
                      for raw, after in zip(hit.rolls, hit.after_armor, strict=True))
    against = f" against armor {armor}" if armor else ""
    text = (f"{before.name} takes {count} of {dice}{against}: {parts} "
            f"({hit.taken} damage, {hit.left_after} HP left; {COVER_ABSORPTION_RULE})")
    changes: list[str] = []
    if hit.taken:
        thing = builder.edit_thing(thing_id, f"takes {hit.taken} damage as cover")
        thing.damage += hit.taken
        changes += _state_line(before, thing)
    if hit.destroyed:
        changes.append(f"{before.name}: destroyed (0 HP): it stops absorbing")
        text += f"; {before.name} is at 0 HP and stops absorbing"
    return text, changes


