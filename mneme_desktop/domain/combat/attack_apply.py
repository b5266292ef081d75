"""Applying a resolved attack as one step: damage, bleeding and targeted effects on the
sheets it touched, harm on the attacker and their cover, and the log of it.
"""

from __future__ import annotations

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Condition, ConditionKind, DamageRecord
from mneme_desktop.domain.combat.actions import _spend
from mneme_desktop.domain.combat.aiming import last_shot
from mneme_desktop.domain.combat.attack_resolve import AttackOutcome, Harm, TargetHit
from mneme_desktop.domain.combat.attack_spec import AttackMode, AttackSpec
from mneme_desktop.domain.combat.attack_things import (
    apply_cover_rolls,
    apply_thing_hit,
    ignored_text,
)
from mneme_desktop.domain.combat.common import _combatant, _join, _signed, _state, _state_note
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.combat.next_roll import spend_next_roll, spend_tactics_roll
from mneme_desktop.domain.combat.survival import (
    MASSIVE_DUE_ACTION,
    _massive_outcome,
    survival_chance,
)
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.rules.actions import ActionKind, BodyArea, HitLocation
from mneme_desktop.rules.damage import DamageResult
from mneme_desktop.rules.dice import DiceExpression
from mneme_desktop.rules.wounds import TargetedEffect, bleeds, targeted_damage_effect


def _rolls_text(dice: DiceExpression, result: DamageResult, armor: int) -> str:
    against = f" against armor {armor} ({dice.with_modifier(-armor)})" if armor else ""
    parts = []
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        part = f"{raw}→{after}" if armor else str(raw)
        parts.append(part if kept else f"({part} dropped)")
    return f"{len(result.rolls)} × {dice}{against}: {', '.join(parts)}"


def _take_hits(
    builder: PatchBuilder, combatant: Combatant, result: DamageResult, source: str,
    location: HitLocation | None, where: str = "",
) -> list[str]:
    """Put kept damage rolls on a sheet: damage, a record per roll, Bleeding from a single
    roll of 1/3 HP or more, and the crippled/stunned/bleeding effect of the location hit
    (targeted, or rolled at random; ``where`` names it, "Primary Hands", default its row)."""
    before = _state(builder.campaign, builder.character(combatant))
    character = builder.edit_character(combatant)
    hp = character.hit_points
    area = location.body_area if location is not None else None
    changes: list[str] = []
    bleeding = character.has_condition(ConditionKind.BLEEDING)
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        if not kept or after <= 0:
            continue
        character.damage += after
        character.damage_history.append(DamageRecord(
            amount=after, rolled=raw, source=source, location=area, at=builder.now,
            round=builder.round, encounter_id=builder.encounter.id,
        ))
        if not bleeding and bleeds(after, hp):
            bleeding = True
            character.conditions.append(Condition(
                kind=ConditionKind.BLEEDING,
                started_at=builder.now, started_round=builder.round,
                encounter_id=builder.encounter.id,
            ))
            changes.append(f"{character.name}: Bleeding")
    if location is not None and area is not BodyArea.BODY and result.total:
        effect = targeted_damage_effect(location.body_area, result.total, hp)
        kinds = {TargetedEffect.CRIPPLED: ConditionKind.CRIPPLED,
                 TargetedEffect.STUNNED: ConditionKind.STUNNED,
                 TargetedEffect.BLEEDING: ConditionKind.BLEEDING}
        if effect is not None and not (effect is TargetedEffect.BLEEDING and bleeding):
            condition = Condition(kind=kinds[effect], detail=where or location.name,
                                  started_at=builder.now, started_round=builder.round,
                                  encounter_id=builder.encounter.id)
            character.conditions.append(condition)
            changes.append(f"{character.name}: {condition.label}")
    after_state = _state(builder.campaign, character)
    if after_state is not before:
        changes.insert(0, _state_note(character, after_state))
    return changes


def attack_patch(
    campaign: Campaign, encounter: Encounter, outcome: AttackOutcome, spend_action: bool = True
) -> EncounterPatch:
    """Apply a resolved attack to every sheet it touched, as one step: damage and conditions
    on the targets, harm on the attacker and their cover, aim used up, the action spent,
    and the log (the roll, then one entry per sheet hit)."""
    spec = outcome.spec
    attacker = _combatant(encounter, spec.attacker_id)
    builder = PatchBuilder(campaign, encounter)
    verb = "Defend" if spec.mode is AttackMode.DEFEND else "Attack"
    if spend_action:
        _spend(builder, attacker, ActionKind.SIGNIFICANT, verb.lower())
    if spec.next_roll:
        spend_next_roll(builder, attacker)
    if spec.tactics_roll:
        spend_tactics_roll(builder, attacker)
    if spec.mode is AttackMode.ATTACK and not spec.keeps_aim and (
            builder.get(attacker, "aim") or attacker.aim_target_id):
        builder.set(attacker, "aim", 0)
        builder.set(attacker, "aim_target_id", None)
    if spec.mode is AttackMode.ATTACK:
        builder.set(attacker, "last_shot", last_shot(spec, encounter.round))
    check = outcome.check
    target_names = _join(t.name for t in spec.targets)
    terms = " ".join(f"{_signed(t.value) if i else t.value} {t.label[:1].lower()}{t.label[1:]}"
                     for i, t in enumerate(spec.difficulty.terms))
    dms = ", ".join(f"{m.label} {_signed(m.value)}" for m in spec.roll_terms)
    if spec.mode is AttackMode.DEFEND:
        verdict = "defended: no damage" if check.effect >= 0 else "defence fails"
    elif outcome.hit:
        rolls = 1 + outcome.success_effect
        verdict = f"hit, {rolls} damage roll{'s' if rolls != 1 else ''} per target"
    else:
        verdict = "miss"
    advantage = f", net advantage {_signed(spec.net_advantage)}" if spec.net_advantage else ""
    text = (f"{verb} with {spec.weapon}: Difficulty {spec.difficulty.total} = {terms}; "
            f"DM {_signed(spec.roll_modifier)} ({dms}){advantage}; Effect "
            f"{_signed(check.effect)}: {verdict}")
    extras = [*spec.options, *outcome.notes]
    if extras:
        text += ". " + "; ".join(extras)
    builder.log(
        actor_id=attacker.id, actor=spec.attacker_name, action=f"{verb}: {spec.weapon}",
        action_kind=ActionKind.SIGNIFICANT,
        target_id=spec.targets[0].combatant_id if len(spec.targets) == 1 else None,
        target=target_names, dice=list(check.dice), modifier=check.modifier,
        difficulty=check.difficulty, effect=check.effect, text=text,
    )
    source = f"{spec.attacker_name}: {spec.weapon}"
    for hit in outcome.hits:
        if hit.target.thing_id is not None:
            _thing_hit(builder, spec, attacker, hit)
            continue
        target = _combatant(encounter, hit.target.combatant_id)
        if hit.immune or hit.result is None:
            builder.log(actor_id=attacker.id, actor=spec.attacker_name,
                        action=f"Damage: {spec.weapon}", target_id=target.id,
                        target=hit.target.name,
                        text=ignored_text(hit.target.name, hit.target.scale, spec.dice.scale))
            continue
        landed = outcome.where(hit)
        changes = _take_hits(builder, target, hit.result, source,
                             landed[0] if landed else None, landed[1] if landed else "")
        where = f" to the {landed[1]}" if landed is not None else ""
        if hit.random_location is not None and landed is not None:
            where += f" (random hit location: {hit.random_location.dice_text})"
        builder.log(
            actor_id=attacker.id, actor=spec.attacker_name, action=f"Damage: {spec.weapon}",
            target_id=target.id, target=hit.target.name,
            damage=list(hit.result.kept_damage), state_changes=changes,
            text=f"{_rolls_text(spec.dice, hit.result, hit.target.armor)}; "
            f"{hit.result.total} damage{where}",
        )
        if hit.massive is not None:
            _massive_outcome(builder, target, hit.massive, "rolled")
        elif hit.massive_due:
            _massive_due(builder, target, hit.target.name)
    if outcome.harm is not None:
        _apply_harm(builder, attacker, spec, outcome.harm)
    return builder.build(f"{spec.attacker_name}: {verb.lower()} {target_names}".strip())


def _apply_harm(builder: PatchBuilder, attacker: Combatant, spec: AttackSpec, harm: Harm) -> None:
    mitigation = harm.mitigation
    steps = [f"fail effect {harm.fail_effect}"]
    for label, amount in (("conditions", mitigation.by_conditions),
                          ("cover", mitigation.by_cover), ("skill", mitigation.by_skill)):
        if amount:
            steps.append(f"-{amount} {label}")
    changes: list[str] = []
    damage: list[int] = []
    fire = spec.return_fire
    if fire is None:
        text = (f"{', '.join(steps)}: {mitigation.remaining} damage roll(s) owed, but no "
                "opponent can strike back")
        if mitigation.ordinary_failure:
            text = f"{', '.join(steps)}: ordinary failure"
        builder.log(actor="Fail effect", target_id=attacker.id, target=spec.attacker_name,
                    action="Fail effect", effect=-harm.fail_effect, text=text)
        return
    parts = [", ".join(steps)]
    if harm.cover is not None and spec.defence.cover_thing_id is not None:
        cover_text, cover_changes = apply_cover_rolls(
            builder, spec.defence.cover_thing_id, fire.dice, harm.cover.rolls)
        parts.append(cover_text)
        changes += cover_changes
    elif harm.cover is not None:
        cover_total = sum(harm.cover.rolls)
        parts.append(f"{spec.defence.cover_name or 'cover'} takes "
                     f"{_rolls_text(fire.dice, harm.cover, 0)}")
        if spec.defence.cover_item is not None:
            character = builder.edit_character(attacker)
            item = character.cover_items[spec.defence.cover_item]
            if item.hp:
                taken = min(item.remaining_hp, max(0, cover_total))
                item.damage += taken
                state = "destroyed" if item.remaining_hp == 0 else f"{item.remaining_hp} HP left"
                changes.append(f"{item.name}: takes {len(harm.cover.rolls)} damage rolls "
                               f"({taken} damage), {state}")
            else:
                changes.append(f"{item.name}: takes {len(harm.cover.rolls)} damage rolls "
                               f"({cover_total} damage)")
        else:
            changes.append(f"{spec.defence.cover_name or 'Cover'}: takes "
                           f"{len(harm.cover.rolls)} damage rolls ({cover_total} damage)")
    if harm.immune:
        parts.append(f"{spec.attacker_name} ignores {fire.dice.scale.label}-scale damage")
    elif harm.attacker is not None:
        parts.append(f"{spec.attacker_name} takes "
                     f"{_rolls_text(fire.dice, harm.attacker, spec.attacker_armor)}")
        damage = list(harm.attacker.kept_damage)
        changes += _take_hits(builder, attacker, harm.attacker, fire.source, None)
    elif mitigation.ordinary_failure:
        parts.append("ordinary failure")
    builder.log(actor=fire.source, target_id=attacker.id, target=spec.attacker_name,
                action="Return fire", effect=-harm.fail_effect, damage=damage,
                state_changes=changes, text="; ".join(parts))
    if harm.attacker is not None and harm.massive is not None:
        _massive_outcome(builder, attacker, harm.massive, "rolled")
    elif harm.attacker is not None and harm.massive_due:
        _massive_due(builder, attacker, spec.attacker_name)


def _thing_hit(builder: PatchBuilder, spec: AttackSpec, attacker: Combatant,
               hit: TargetHit) -> None:
    """A hit on a vehicle or object: ignored for its scale, or its HP falls."""
    target = hit.target
    assert target.thing_id is not None
    common = {"actor_id": attacker.id, "actor": spec.attacker_name,
              "action": f"Damage: {spec.weapon}", "target_id": target.combatant_id,
              "target": target.name}
    if hit.immune or hit.result is None:
        builder.log(**common, text=ignored_text(target.name, target.scale, spec.dice.scale))
        return
    _, changes = apply_thing_hit(builder, target.thing_id, hit.result)
    left = builder.thing(target.thing_id).remaining_hp
    builder.log(**common, damage=list(hit.result.kept_damage), state_changes=changes,
                text=f"{_rolls_text(spec.dice, hit.result, target.armor)}; "
                f"{hit.result.total} damage, {left} HP left")


def _massive_due(builder: PatchBuilder, combatant: Combatant, name: str) -> None:
    """Damage typed at the table over HP: the massive-damage roll is the table's to make."""
    chance = chance_text(survival_chance(builder.character(combatant), False))
    builder.log(target_id=combatant.id, target=name, action=MASSIVE_DUE_ACTION,
                text=MASSIVE_DUE.format(name=name, chance=chance))


MASSIVE_DUE = ("{name}: massive damage roll due (2d6 + END DM with wound penalties vs 8, "
               "survives {chance}): roll it at the table and enter it with Massive damage on "
               "{name}'s panel")
