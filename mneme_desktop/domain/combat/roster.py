"""Who is in the fight: adding characters and adversaries, removing them, their side,
cover, leaving and rejoining the fight, and the referee's free notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.common import (
    CombatError,
    _combatant,
    _join,
    _name,
    _signed,
    _sorted_order,
)
from mneme_desktop.domain.combat.edits import (
    EncounterPatch,
    InsertCombatant,
    PatchBuilder,
    RemoveCombatant,
)
from mneme_desktop.domain.encounter import Combatant, Encounter, Side
from mneme_desktop.rules.checks import CoverLevel


def add_characters_patch(
    campaign: Campaign, encounter: Encounter, character_ids: Sequence[str], side: Side
) -> EncounterPatch:
    """Bring campaign characters in by reference (their damage stays on their sheets)."""
    present = {c.character_id for c in encounter.combatants}
    builder = PatchBuilder(campaign, encounter)
    index = len(encounter.combatants)
    names = []
    for character_id in character_ids:
        character = campaign.character(character_id)
        if character_id in present:
            raise CombatError(f"{character.name} is already in this encounter")
        present.add(character_id)
        builder.structural(
            InsertCombatant(encounter.id, index, Combatant(character_id=character_id, side=side))
        )
        index += 1
        names.append(character.name)
    if not names:
        raise CombatError("choose at least one character to add")
    builder.log(actor="Referee", action="Join", target=_join(names),
                text=f"{_join(names)} join as {side.label}")
    return builder.build(f"Add {_join(names)}")


def add_adversaries_patch(
    campaign: Campaign,
    encounter: Encounter,
    template: AdversaryTemplate,
    count: int,
    side: Side = Side.ENEMIES,
    revealed: bool = True,
) -> EncounterPatch:
    """Add ``count`` numbered copies of a library template ("Raider 1".."Raider N"),
    continuing the numbering already used in this encounter; ``revealed=False`` keeps them
    off the player display until the referee reveals them (an ambush the players have not
    seen yet)."""
    if count < 1:
        raise CombatError(f"add at least one {template.name}, not {count}")
    first = encounter.next_instance_number(template)
    builder = PatchBuilder(campaign, encounter)
    index = len(encounter.combatants)
    names = []
    for offset in range(count):
        instance = template.make_instance(first + offset)
        builder.structural(
            InsertCombatant(encounter.id, index + offset,
                            Combatant(instance=instance, side=side, revealed=revealed))
        )
        names.append(instance.name)
    shown = names[0] if count == 1 else f"{names[0]}..{names[-1]}"
    hidden = "" if revealed else " (hidden from the players)"
    builder.log(actor="Referee", action="Join", target=shown,
                text=f"{shown} join as {side.label}{hidden}")
    return builder.build(f"Add {shown}")


def remove_combatants_patch(
    campaign: Campaign, encounter: Encounter, combatant_ids: Sequence[str]
) -> EncounterPatch:
    """Take combatants out; whoever aimed at them loses the aim, and the turn stays with
    whoever had it."""
    doomed = set(combatant_ids)
    if not doomed:
        raise CombatError("choose a combatant to remove")
    builder = PatchBuilder(campaign, encounter)
    order = encounter.initiative_order()
    current = encounter.current_combatant
    for combatant in encounter.combatants:
        if combatant.id not in doomed and combatant.aim_target_id in doomed:
            builder.set(combatant, "aim_target_id", None)
            builder.set(combatant, "aim", 0)
    names = []
    for index in sorted(
        (i for i, c in enumerate(encounter.combatants) if c.id in doomed), reverse=True
    ):
        combatant = encounter.combatants[index]
        names.append(_name(campaign, combatant))
        builder.structural(RemoveCombatant(encounter.id, index, combatant))
    remaining = [c for c in order if c.id not in doomed]
    if current is not None:
        if current.id in doomed:
            before = [c for c in order[: order.index(current)] if c.id not in doomed]
            turn = min(len(before), max(0, len(remaining) - 1))
        else:
            turn = remaining.index(current)
        builder.set_encounter("turn_index", turn)
    elif encounter.turn_index >= len(remaining):
        builder.set_encounter("turn_index", max(0, len(remaining) - 1))
    names.reverse()
    builder.log(actor="Referee", action="Leave", text=f"{_join(names)} removed")
    return builder.build(f"Remove {_join(names)}")


def set_side_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, side: Side
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "side", side)
    return builder.build(f"{_name(campaign, combatant)} fights for the {side.label}")


def set_cover_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, cover: CoverLevel
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "cover", cover)
    name = _name(campaign, combatant)
    builder.log(
        actor_id=combatant.id, actor=name, action="Cover",
        text=f"{name} is in {cover.label} cover ({_signed(int(cover))} Difficulty to hit)",
    )
    return builder.build(f"{name}: {cover.label} cover")


def set_out_of_fight_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, out: bool
) -> EncounterPatch:
    """Mark a combatant as having fled or surrendered (or back in); the turn stays with
    whoever had it, or passes to the next in order if they are the one leaving."""
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    current = encounter.current_combatant
    builder.set(combatant, "out_of_fight", out)
    after = _sorted_order(
        c for c in encounter.combatants
        if (not out if c.id == combatant_id else not c.out_of_fight)
    )
    if current is not None and after:
        anchor = current
        if current.id == combatant_id and out:
            before = encounter.initiative_order()
            later = [c for c in before[before.index(current) + 1 :] if c in after]
            anchor = later[0] if later else after[0]
        builder.set_encounter("turn_index", after.index(anchor))
    name = _name(campaign, combatant)
    text = f"{name} is out of the fight" if out else f"{name} is back in the fight"
    builder.log(actor_id=combatant.id, actor=name, action="Out" if out else "Back", text=text)
    return builder.build(text)


def set_revealed_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, revealed: bool
) -> EncounterPatch:
    """Show a combatant on the player display, or keep them off it until the players meet
    them (an ambusher in the tollhouse). The referee's window shows everyone either way."""
    combatant = _combatant(encounter, combatant_id)
    if combatant.revealed == revealed:
        state = "already shown to" if revealed else "already hidden from"
        raise CombatError(f"{_name(campaign, combatant)} is {state} the players")
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "revealed", revealed)
    name = _name(campaign, combatant)
    return builder.build(f"Reveal {name} to the players" if revealed
                         else f"Hide {name} from the players")


def set_revealed_many_patch(
    campaign: Campaign, encounter: Encounter, combatant_ids: Sequence[str], revealed: bool
) -> EncounterPatch:
    """Show several combatants on the player display at once, or hide them (the turn
    order's context menu): one step, leaving alone those already that way."""
    chosen = [_combatant(encounter, combatant_id) for combatant_id in combatant_ids]
    if not chosen:
        raise CombatError("choose a combatant first")
    changing = [c for c in chosen if c.revealed != revealed]
    if not changing:
        if len(chosen) == 1:
            return set_revealed_patch(campaign, encounter, chosen[0].id, revealed)
        state = "already shown to" if revealed else "already hidden from"
        raise CombatError(f"they are all {state} the players")
    builder = PatchBuilder(campaign, encounter)
    for combatant in changing:
        builder.set(combatant, "revealed", revealed)
    names = _join([_name(campaign, c) for c in changing])
    return builder.build(f"Reveal {names} to the players" if revealed
                         else f"Hide {names} from the players")


def note_patch(campaign: Campaign, encounter: Encounter, text: str) -> EncounterPatch:
    """A referee's free note in the log."""
    if not text.strip():
        raise CombatError("the note is empty")
    builder = PatchBuilder(campaign, encounter)
    builder.log(actor="Referee", action="Note", text=text.strip())
    return builder.build("Add note")
