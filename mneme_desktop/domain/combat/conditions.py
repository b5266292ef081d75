"""Conditions and damage the referee sets by hand, as corrections that undo exactly.
"""

from __future__ import annotations

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Condition, ConditionKind
from mneme_desktop.domain.combat.common import CombatError, _combatant
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Encounter


def add_condition_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, kind: ConditionKind,
    detail: str = "",
) -> EncounterPatch:
    """The referee marks a condition (stunned, unconscious, crippled ...) from this round."""
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    character.conditions.append(
        Condition(kind=kind, detail=detail.strip(), started_at=campaign.game_time,
                  started_round=encounter.round, encounter_id=encounter.id)
    )
    label = character.conditions[-1].label
    builder.log(actor="Referee", target_id=combatant.id, target=character.name,
                action="Condition", state_changes=[f"{character.name}: {label}"],
                text=f"{character.name} is {label.lower()}")
    return builder.build(f"{character.name}: {label}")


def remove_condition_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, index: int
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    if not 0 <= index < len(character.conditions):
        raise CombatError("that condition is no longer there")
    removed = character.conditions.pop(index)
    builder.log(actor="Referee", target_id=combatant.id, target=character.name,
                action="Condition", state_changes=[f"{character.name}: no longer {removed.label}"],
                text=f"{character.name}: {removed.label} ends")
    return builder.build(f"{character.name}: {removed.label} ends")


def set_damage_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, damage: int,
    gesture: str | None = None, start: int | None = None,
) -> EncounterPatch:
    """The referee sets the damage directly (dragging the HP bar); logged as a correction.

    Every step of one ``gesture`` (a press and its drag) carries the same merge key and the
    damage the gesture started from, so the merged step logs one line: start to final."""
    if damage < 0:
        raise CombatError("damage cannot be negative")
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    old = character.damage if start is None else start
    character.damage = damage
    name = character.name
    key = f"damage:{combatant_id}:{gesture}" if gesture is not None else None
    builder.log(actor="Referee", target_id=combatant.id, target=name, action="Damage",
                text=f"{name}: damage set from {old} to {damage}")
    return builder.build(f"{name}: damage {damage}", merge_key=key)
