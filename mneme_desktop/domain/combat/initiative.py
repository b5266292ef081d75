"""Initiative: rolled, typed, ambushes, the Tactics bonus and the order of ties, each
keeping the turn with whoever had it when the order re-sorts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import MAX_AMOUNT, Character
from mneme_desktop.domain.combat.common import (
    CombatError,
    _combatant,
    _join,
    _name,
    _signed,
    _sorted_order,
)
from mneme_desktop.domain.combat.edits import EncounterPatch, MoveCombatant, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter, Side
from mneme_desktop.domain.roll_terms import (
    InitiativeResult,
    ambush_result,
    initiative_result,
    roll_initiative_result,
    tactics_terms,
    terms_text,
    wound_terms,
)
from mneme_desktop.rules.actions import ActionKind, tactics_initiative_bonus
from mneme_desktop.rules.checks import check_from
from mneme_desktop.rules.dice import DiceSource, parse_dice_values


def initiative_from_text(
    character: Character, text: str, skill: str | None = None
) -> tuple[int, tuple[int, ...]]:
    """Initiative typed by the referee: a number is the value itself; two dice ("4 5")
    are the physical 2d6, to which DEX DM, the chosen skill and the wounds are added."""
    cleaned = text.strip()
    if re.fullmatch(r"-?\d+", cleaned):
        return int(cleaned), ()
    try:
        dice = parse_dice_values(cleaned, 2)
    except ValueError:
        raise ValueError(
            f"{text!r} is neither an initiative value (e.g. 11) nor two dice (e.g. 4 5)"
        ) from None
    return initiative_result(character, dice, skill).value, dice


def initiative_patch(
    campaign: Campaign,
    encounter: Encounter,
    combatant_id: str,
    value: int,
    dice: Sequence[int] = (),
) -> EncounterPatch:
    """Set one combatant's initiative by hand (from physical dice or a known value)."""
    combatant = _combatant(encounter, combatant_id)
    if not -MAX_AMOUNT <= value <= MAX_AMOUNT:
        # Refused here: a value the model would reject must never reach the undo stack.
        raise ValueError(
            f"{value} is not a usable initiative: it must lie between {-MAX_AMOUNT:,} "
            f"and {MAX_AMOUNT:,}"
        )
    builder = PatchBuilder(campaign, encounter)
    _keep_turn(builder, encounter, {combatant.id: value})
    builder.set(combatant, "initiative", value)
    builder.set(combatant, "initiative_dice", list(dice))
    name = _name(campaign, combatant)
    shown = f" ({'+'.join(str(d) for d in dice)})" if dice else ""
    builder.log(
        actor_id=combatant.id, actor=name, action="Initiative", dice=list(dice),
        text=f"{name}: initiative {value}{shown} entered",
    )
    return builder.build(f"{name}: initiative {value}")


def _keep_turn(builder: PatchBuilder, encounter: Encounter, values: Mapping[str, int]) -> None:
    """Changing initiatives mid-fight re-sorts the order; the turn stays with its owner."""
    current = encounter.current_combatant
    if current is None:
        return
    active = [c for c in encounter.combatants if not c.out_of_fight]

    def key(c: Combatant) -> tuple[bool, int]:
        value = values.get(c.id, c.initiative)
        return (value is None, -(value or 0))

    order = sorted(active, key=key)  # stable: ties keep list order, as initiative_order
    builder.set_encounter("turn_index", order.index(current))


def own_initiative_skill(combatant: Combatant, skill: str | None = None) -> str | None:
    """The skill a combatant applies to initiative: their own choice (Ch.6: "Recon ...
    Tactics ... Weapon skill"), else ``skill``, the one chosen for everyone else."""
    return combatant.initiative_skill or skill


def initiative_skill_choices(character: Character) -> list[str]:
    """The skills worth offering for initiative: the Ch.6 examples (Recon, Tactics) and
    every skill on the sheet, each once, the sheet's own labels first."""
    labels = [skill.label for skill in character.skills]
    seen = {label.casefold() for label in labels}
    return labels + [name for name in ("Recon", "Tactics") if name.casefold() not in seen]


def initiative_skill_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, skill: str | None
) -> EncounterPatch:
    """Remember the skill a combatant rolls initiative with (None: the one chosen when
    rolling); the next roll (or two dice typed) uses it."""
    combatant = _combatant(encounter, combatant_id)
    chosen = (skill or "").strip() or None
    if chosen is not None and len(chosen) > 200:
        raise CombatError("a skill name is at most 200 characters")
    if chosen == combatant.initiative_skill:
        raise CombatError("that is already the combatant's initiative skill")
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "initiative_skill", chosen)
    name = _name(campaign, combatant)
    if chosen is None:
        text = f"{name} rolls initiative with the skill chosen for everyone"
    else:
        level = campaign.combatant_character(combatant).skill_level(chosen)
        held = f"{chosen}-{level}" if level is not None else f"{chosen} (not held: +0)"
        text = f"{name} rolls initiative with {held}"
    builder.log(actor_id=combatant.id, actor=name, action="Initiative skill", text=text)
    # Stepping through the choices with the arrow keys is one step and one log line.
    return builder.build(text, merge_key=f"initiative skill\x1f{combatant.id}")


def roll_initiative_patch(
    campaign: Campaign,
    encounter: Encounter,
    rng: random.Random,
    skill: str | None = None,
    only_missing: bool = False,
) -> EncounterPatch:
    """Everyone rolls 2d6 + DEX DM + their level in their own initiative skill, or in
    ``skill`` for those without one (none: no bonus) + wounds."""
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    lines = []
    for combatant in encounter.combatants:
        if combatant.out_of_fight or (only_missing and combatant.initiative is not None):
            continue
        character = campaign.combatant_character(combatant)
        rolled = roll_initiative_result(rng, character, own_initiative_skill(combatant, skill))
        values[combatant.id] = rolled.value
        builder.set(combatant, "initiative", rolled.value)
        builder.set(combatant, "initiative_dice", list(rolled.dice))
        lines.append(f"{character.name} {_initiative_text(rolled)}")
    if not values:
        raise CombatError("nobody needs an initiative roll")
    _keep_turn(builder, encounter, values)
    with_skill = f" + {skill}" if skill else ""
    own = " (or their own skill)" if any(
        encounter.combatant(cid).initiative_skill for cid in values) else ""
    builder.log(actor="Referee", action="Initiative",
                text=f"Initiative 2d6 + DEX DM{with_skill}{own} + wounds: " + "; ".join(lines))
    return builder.build("Roll initiative")


def _initiative_text(rolled: InitiativeResult) -> str:
    """"9 (4+5, DEX DM +1, Wounds -4)" or, for an ambush, "13 (automatic 12, DEX DM +1)"."""
    dice = "+".join(map(str, rolled.dice)) if rolled.dice else "automatic 12"
    return f"{rolled.value} ({dice}, {terms_text(rolled.terms)})"


def ambush_patch(
    campaign: Campaign,
    encounter: Encounter,
    prepared: Side,
    rng: random.Random,
    skill: str | None = None,
) -> EncounterPatch:
    """An ambush: the prepared side counts an automatic 12 (12 + DEX DM); the others roll
    2d6 + DEX DM (+ skill). Wounds count against both (Ch.7: all rolls)."""
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    lines = []
    for combatant in encounter.combatants:
        if combatant.out_of_fight:
            continue
        character = campaign.combatant_character(combatant)
        if combatant.side is prepared:
            rolled = ambush_result(character)
        else:
            rolled = roll_initiative_result(rng, character,
                                            own_initiative_skill(combatant, skill))
        value = rolled.value
        lines.append(f"{character.name} {_initiative_text(rolled)}")
        values[combatant.id] = value
        builder.set(combatant, "initiative", value)
        builder.set(combatant, "initiative_dice", list(rolled.dice))
    if not values:
        raise CombatError("there is nobody in the encounter")
    _keep_turn(builder, encounter, values)
    builder.log(actor="Referee", action="Ambush",
                text=f"{prepared.label} are prepared: " + "; ".join(lines))
    return builder.build(f"Ambush by the {prepared.label}")


def tactics_modifier(character: Character) -> int:
    """DM of a Tactics check: Tactics level (unskilled -3) + INT DM + wounds
    (:func:`~mneme_desktop.domain.roll_terms.tactics_terms`)."""
    return sum(term.value for term in tactics_terms(character))


def tactics_patch(
    campaign: Campaign,
    encounter: Encounter,
    leader_id: str,
    declared_difficulty: int,
    source: DiceSource,
    unit_ids: Sequence[str],
    modifier: int | None = None,
) -> EncounterPatch:
    """A Tactics check at the declared Difficulty, from either dice source: its Effect
    (capped by the declared risk) is added to the initiative of everyone in the leader's
    unit in direct communication. ``modifier`` is the referee's DM; by default the
    leader's :func:`tactics_modifier`."""
    leader = _combatant(encounter, leader_id)
    if modifier is None:
        modifier = tactics_modifier(campaign.combatant_character(leader))
    check = check_from(source, modifier, declared_difficulty)
    bonus = tactics_initiative_bonus(check.effect, declared_difficulty)
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    names = []
    for combatant_id in unit_ids:
        member = _combatant(encounter, combatant_id)
        if member.initiative is None:
            raise CombatError(f"{_name(campaign, member)} has no initiative yet: roll it first")
        values[member.id] = member.initiative + bonus
        builder.set(member, "initiative", member.initiative + bonus)
        names.append(_name(campaign, member))
    if not names:
        raise CombatError("choose the unit that hears the leader")
    _keep_turn(builder, encounter, values)
    name = _name(campaign, leader)
    wounds = wound_terms(campaign.combatant_character(leader))
    wounded = f" (DM {_signed(check.modifier)}, {terms_text(wounds)} in it)" if wounds else ""
    builder.log(
        actor_id=leader.id, actor=name, action="Tactics", action_kind=ActionKind.SIGNIFICANT,
        dice=list(check.dice), modifier=check.modifier, difficulty=check.difficulty,
        effect=check.effect,
        state_changes=[f"{n}: initiative {_signed(bonus)}" for n in names],
        text=f"Tactics at Difficulty {declared_difficulty}{wounded}: Effect "
        f"{_signed(check.effect)}, "
        f"capped to {_signed(bonus)} for {_join(names)}",
    )
    return builder.build(f"{name}: Tactics {_signed(bonus)}")


def initiative_ties(order: Sequence[Combatant]) -> dict[str, tuple[int, int]]:
    """For each combatant tied on initiative: (place in the tie, size of the tie).

    Ties act in the order the combatants were added; the referee may reorder them.
    """
    groups: dict[int, list[str]] = {}
    for combatant in order:
        if combatant.initiative is not None:
            groups.setdefault(combatant.initiative, []).append(combatant.id)
    ties: dict[str, tuple[int, int]] = {}
    for members in groups.values():
        if len(members) > 1:
            for place, member in enumerate(members, start=1):
                ties[member] = (place, len(members))
    return ties


def move_in_ties_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, step: int
) -> EncounterPatch:
    """Move a combatant one place earlier (step -1) or later (+1) among those tied with it."""
    combatant = _combatant(encounter, combatant_id)
    order = encounter.initiative_order()
    tied = [c for c in order if c.initiative == combatant.initiative and c.initiative is not None]
    place = tied.index(combatant) if combatant in tied else -1
    if len(tied) < 2 or not 0 <= place + step < len(tied):
        raise CombatError(
            f"{_name(campaign, combatant)} is not tied with anyone in that direction: "
            "only ties can be reordered (change the initiative instead)"
        )
    other = tied[place + step]
    from_index = encounter.combatants.index(combatant)
    # Inserting at the other's index lands before it when moving up, after it when down.
    to_index = encounter.combatants.index(other)
    builder = PatchBuilder(campaign, encounter)
    builder.structural(MoveCombatant(encounter.id, from_index, to_index))
    current = encounter.current_combatant
    if current is not None:
        moved = list(encounter.combatants)
        moved.insert(to_index, moved.pop(from_index))
        new_order = _sorted_order(c for c in moved if not c.out_of_fight)
        builder.set_encounter("turn_index", new_order.index(current))
    direction = "before" if step < 0 else "after"
    text = f"{_name(campaign, combatant)} acts {direction} {_name(campaign, other)}"
    builder.log(actor="Referee", action="Tie", text=f"Tie on {combatant.initiative}: {text}")
    return builder.build(text)
