"""The action economy: spending minor actions on catalog actions, aiming, changing stance
and moving (Ch.6), each refused with its reason when the actions are spent.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from enum import Enum
from fractions import Fraction

from mneme_desktop.domain.attack_terms import aim_cap_text, aim_weapon
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.common import CombatError, _combatant, _name, _state
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.rules.actions import (
    ActionDef,
    ActionKind,
    ActionOption,
    Load,
    MovementMode,
    Stance,
    action_by_key,
    add_aim,
    movement_metres,
    movement_spaces,
    spend,
    stance_change_cost,
)
from mneme_desktop.rules.movement import GridScale
from mneme_desktop.rules.wounds import WoundState


class PlanOutcome(Enum):
    """Plan/Wait: advantage if the prediction came true, disadvantage if not."""

    NONE = "none"
    CORRECT = "correct"
    WRONG = "wrong"


def _options_text(options: Iterable[ActionOption]) -> str:
    return "; ".join(f"{o.label}: {o.roll_effect}" for o in options)


def spend_refusal(name: str, spent: int, kind: ActionKind, what: str) -> str:
    """Why ``name`` cannot ``what`` with ``spent`` minor actions gone ("" when they can):
    the one wording of the refusal, for the step that spends and a dialog that warns."""
    try:
        spend(spent, kind)
    except ValueError as exc:
        return f"{name} cannot {what}: {exc}"
    return ""


def _spend(
    builder: PatchBuilder, combatant: Combatant, kind: ActionKind, what: str
) -> int:
    spent = builder.get_int(combatant, "actions_spent")
    refusal = spend_refusal(builder.character(combatant).name, spent, kind, what)
    if refusal:
        raise CombatError(refusal)
    after = spend(spent, kind)
    builder.set(combatant, "actions_spent", after)
    builder.set(combatant, "delayed", False)
    return after


def _kind_for_cost(cost: int) -> ActionKind:
    return {0: ActionKind.FREE, 1: ActionKind.MINOR, 2: ActionKind.SIGNIFICANT,
            3: ActionKind.FULL}[cost]


def take_action_patch(
    campaign: Campaign,
    encounter: Encounter,
    combatant_id: str,
    action_key: str,
    options: Sequence[ActionOption] = (),
    note: str = "",
) -> EncounterPatch:
    """Spend the minor actions an action from the chapter's catalog costs; overspending is
    refused with the reason. Options (reckless, coordinating, plan/wait) are recorded with
    their effect on the roll."""
    action: ActionDef = action_by_key(action_key)
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, action.kind, f"take {action.name}")
    name = _name(campaign, combatant)
    text = f"{name}: {action.name} ({action.kind.label}, {action.kind.cost} minor)"
    if options:
        text += f". Options: {_options_text(options)}"
    if note.strip():
        text += f". {note.strip()}"
    builder.log(actor_id=combatant.id, actor=name, action=action.name,
                action_kind=action.kind, text=text)
    return builder.build(f"{name}: {action.name}")


def aim_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, target_id: str,
    weapon_index: int | None = None,
) -> EncounterPatch:
    """One Aim minor action at ``target_id`` with the weapon chosen for the next attack
    (``weapon_index``, default the first): +1, or that weapon's Aim modifier, up to six aim
    actions' worth; kept across rounds, lost on changing target."""
    combatant = _combatant(encounter, combatant_id)
    target = _combatant(encounter, target_id)
    if target.id == combatant.id:
        raise CombatError("a combatant cannot aim at themselves")
    try:
        weapon = aim_weapon(campaign.combatant_character(combatant), weapon_index)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, ActionKind.MINOR, "aim")
    changed = combatant.aim_target_id not in (None, target.id)
    current = 0 if changed else combatant.aim
    new = add_aim(current, weapon.aim_modifier if weapon is not None else 0)
    builder.set(combatant, "aim", new)
    builder.set(combatant, "aim_target_id", target.id)
    name, target_name = _name(campaign, combatant), _name(campaign, target)
    lost = f" (aim of +{combatant.aim} on the old target lost)" if changed and combatant.aim else ""
    capped = " (at the cap)" if new == current else ""
    builder.log(actor_id=combatant.id, actor=name, action="Aim", action_kind=ActionKind.MINOR,
                target_id=target.id, target=target_name,
                text=f"{name} aims at {target_name}: +{new} ({aim_cap_text(weapon)})"
                f"{capped}{lost}")
    return builder.build(f"{name}: aim +{new}")


def stance_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, stance: Stance
) -> EncounterPatch:
    """Change stance for its cost in minor actions (prone to crouched is 2)."""
    combatant = _combatant(encounter, combatant_id)
    cost = stance_change_cost(combatant.stance, stance)
    if cost == 0:
        raise CombatError(f"already {stance.value}")
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, _kind_for_cost(cost), f"go {stance.value} ({cost} minor actions)")
    builder.set(combatant, "stance", stance)
    name = _name(campaign, combatant)
    builder.log(actor_id=combatant.id, actor=name, action="Changing Stance",
                action_kind=_kind_for_cost(cost),
                text=f"{name}: {combatant.stance.value} to {stance.value} ({cost} minor)")
    return builder.build(f"{name}: {stance.value}")


def movement_options(
    campaign: Campaign, combatant: Combatant, scale_m: float | GridScale = GridScale.FINE
) -> list[tuple[MovementMode, int | None, Fraction | None]]:
    """Spaces and metres of Move, Dash and Run for this combatant's load, stance and wounds
    (the Ch.6 movement table at the encounter's scale, ``Encounter.movement_scale``; None
    where the table says NA or wounds forbid it)."""
    character = campaign.combatant_character(combatant)
    seriously = _state(campaign, character) is WoundState.SERIOUSLY_WOUNDED
    return list(_movement(character.load, combatant.stance, scale_m, seriously))


@functools.lru_cache(maxsize=64)
def _movement(
    load: Load, stance: Stance, scale_m: float | GridScale, seriously: bool
) -> tuple[tuple[MovementMode, int | None, Fraction | None], ...]:
    return tuple(
        (
            mode,
            movement_spaces(mode, load, stance, scale_m, seriously),
            movement_metres(mode, load, stance, scale_m, seriously),
        )
        for mode in MovementMode
    )


def move_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, mode: MovementMode,
    scale_m: float | GridScale | None = None,
) -> EncounterPatch:
    """Move, Dash or Run at the encounter's scale (``scale_m`` None) or the one given."""
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    if scale_m is None:
        scale_m = encounter.movement_scale
    options = {m: (s, metres) for m, s, metres in movement_options(campaign, combatant, scale_m)}
    spaces, metres = options[mode]
    name = character.name
    if spaces is None or metres is None:
        raise CombatError(
            f"{name} cannot {mode.value} ({character.load.value} load, "
            f"{combatant.stance.value}, {_state(campaign, character).label.lower()})"
        )
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, mode.action_kind, mode.value)
    builder.log(actor_id=combatant.id, actor=name, action=mode.value.capitalize(),
                action_kind=mode.action_kind,
                text=f"{name}: {mode.value} {spaces} spaces ({float(metres):g} m), "
                f"{character.load.value} load, {combatant.stance.value}"
                + (f" ({float(metres / spaces):g} m spaces)" if spaces else ""))
    return builder.build(f"{name}: {mode.value}")


def movement_scale_patch(
    campaign: Campaign, encounter: Encounter, scale: GridScale
) -> EncounterPatch:
    """Choose the movement table's spaces for this encounter (Ch.6: 1.5 m or 4.5 m)."""
    if encounter.movement_scale is scale:
        raise CombatError(f"this encounter already moves in {scale.value} m spaces")
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("movement_scale", scale)
    builder.log(action="Movement scale",
                text=f"Movement in {scale.value} m spaces (Ch.6 movement table), was "
                f"{encounter.movement_scale.value} m")
    return builder.build(f"Movement in {scale.value} m spaces")
