"""Grappling at the table (Ch.6): the opposed Natural Weapons check, declared as a
:class:`GrappleRequest` and made a :class:`GrappleSpec` (DMs, the Difficulty term by term,
the odds) before any die is rolled, then resolved with the effects the winner spends their
Effect on, as one step.

Readings (see docs/rules.md): the grappler rolls Natural Weapons (unskilled -3) + STR DM
("just like a regular Melee Attack Roll"), the target's STR or DEX DM (the higher unless the
referee picks) and their being unskilled set the Difficulty; on a failure the target spends
the Fail Effect on the grappler ("the Success or Fail Effect can be used to determine
Grappling Effect"); the thrown target's 2d3, like twisting's 1d3, ignores armor (the table
gives no armor step for either).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Characteristic, Condition, ConditionKind
from mneme_desktop.domain.combat.actions import _spend, spend_refusal
from mneme_desktop.domain.combat.attack_apply import _take_hits
from mneme_desktop.domain.combat.common import CombatError, _combatant, _join, _name, _signed
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.combat.next_roll import (
    GRAPPLE_RULE,
    NextRoll,
    grant_next_roll,
    next_roll_of,
    side_tactics,
    spend_next_roll,
    spend_tactics_roll,
)
from mneme_desktop.domain.encounter import Combatant, Encounter, NextRollKind, NextRollTerm
from mneme_desktop.domain.next_roll import DeclaredCheck
from mneme_desktop.domain.roll_terms import Modifier, skill_term, wound_terms
from mneme_desktop.rules.actions import ActionKind, Stance
from mneme_desktop.rules.checks import (
    CheckResult,
    DifficultyBreakdown,
    check_from,
    net_advantage,
)
from mneme_desktop.rules.damage import DamageResult
from mneme_desktop.rules.dice import DiceExpression, DiceSource
from mneme_desktop.rules.grappling import (
    THROW_DAMAGE,
    TWIST_DAMAGE,
    GrappleEffect,
    GrappleManeuver,
    GrappleWeapon,
    grapple_difficulty,
    grapple_effect,
    grapple_effects_cost,
    sweep_effect_cost,
    throw_effect_cost,
)
from mneme_desktop.rules.hit_locations import HIT_LOCATIONS, BodyArea, HitLocation

__all__ = [
    "GRAPPLE_SKILL",
    "GrappleDamage",
    "GrappleRequest",
    "GrappleSpec",
    "build_grapple",
    "grapple_check",
    "grapple_patch",
]

GRAPPLE_SKILL = "Natural Weapons"
"""The skill of the opposed grappling check (Ch.6: "an opposed Natural Weapons skill
check"); a character without it rolls unskilled (-3), an opponent without it lowers the
Difficulty by 3."""

_TARGETED = {GrappleEffect.TARGET_LIMB: BodyArea.LIMB,
             GrappleEffect.TARGET_EXTREMITY: BodyArea.EXTREMITY}
_DECLARED = {GrappleManeuver.TARGETED_LIMB: GrappleEffect.TARGET_LIMB,
             GrappleManeuver.TARGETED_EXTREMITY: GrappleEffect.TARGET_EXTREMITY,
             GrappleManeuver.THROW: GrappleEffect.THROW,
             GrappleManeuver.SWEEP: GrappleEffect.SWEEP}


@dataclass(frozen=True)
class GrappleRequest:
    """The referee's choices before the grappling roll."""

    grappler_id: str
    target_id: str
    maneuver: GrappleManeuver = GrappleManeuver.NONE
    characteristic: Characteristic = Characteristic.STR
    """The grappler's characteristic (a melee roll: STR unless the referee says DEX)."""
    target_characteristic: Characteristic | None = None
    """The target's STR or DEX whose DM sets the Difficulty; None: the higher DM."""
    weapon: GrappleWeapon = GrappleWeapon.NONE
    weapon_factor: int | None = None
    """The weapons factor; None: the chapter's for ``weapon`` (a cumbersome object needs the
    referee's number)."""
    other_dm: int = 0
    use_next_roll: bool = True
    """Count what waits on the grappler's next roll (a grapple's advantage, a support)."""
    tactics_roll: bool = False
    """Spend one of the grappler's side's Tactics rolls on this roll (Ch.6 Tactics)."""
    spend_action: bool = True


@dataclass(frozen=True)
class GrappleSpec(DeclaredCheck):
    """A grappling roll declared: the DMs, the Difficulty term by term and the odds."""

    grappler_id: str
    grappler_name: str
    target_id: str
    target_name: str
    maneuver: GrappleManeuver
    modifiers: tuple[Modifier, ...]
    difficulty: DifficultyBreakdown
    next_roll: NextRoll = field(default_factory=NextRoll)
    target_hp: int = 1
    target_dex: int = 0
    refusal: str = ""
    """Why the grappler cannot grapple now (actions spent); "" when they can."""
    spend_action: bool = True
    tactics: NextRollKind | None = None
    """The Tactics roll spent on this roll (advantage or disadvantage), if any."""

    @property
    def difficulty_total(self) -> int:
        return self.difficulty.total

    @property
    def advantage(self) -> int:
        """What waits on the grappler's next roll, and the Tactics roll spent on it."""
        tactics = (1 if self.tactics is NextRollKind.ADVANTAGE else 0,
                   1 if self.tactics is NextRollKind.DISADVANTAGE else 0)
        return net_advantage(self.next_roll.advantages + tactics[0],
                             self.next_roll.disadvantages + tactics[1])

    @property
    def net_advantage(self) -> int:
        return self.advantage

    @property
    def throw_cost(self) -> int:
        return throw_effect_cost(self.target_hp)

    @property
    def sweep_cost(self) -> int:
        return sweep_effect_cost(self.target_dex)


def _chm(campaign: Campaign, combatant: Combatant, code: Characteristic) -> int:
    return campaign.combatant_character(combatant).characteristic_modifier(code)


def build_grapple(campaign: Campaign, encounter: Encounter,
                  request: GrappleRequest) -> GrappleSpec:
    """The grappling roll as the rules make it of the referee's choices (Ch.6 steps 1-2)."""
    grappler = _combatant(encounter, request.grappler_id)
    target = _combatant(encounter, request.target_id)
    if grappler.id == target.id:
        raise CombatError("a combatant cannot grapple themselves")
    sheet = campaign.combatant_character(grappler)
    their = campaign.combatant_character(target)
    code = request.target_characteristic
    if code is None:
        code = max((Characteristic.STR, Characteristic.DEX),
                   key=lambda c: _chm(campaign, target, c))
    factor = request.weapon.factor if request.weapon_factor is None else request.weapon_factor
    if factor is None:
        raise CombatError("a cumbersome object's weapons factor is the referee's: type it")
    chm = _chm(campaign, target, code)
    breakdown = grapple_difficulty(chm, request.maneuver,
                                   their.skill_level(GRAPPLE_SKILL) is not None, factor)
    # Name the target's characteristic in the breakdown ("Raider 1's DEX DM").
    difficulty = DifficultyBreakdown(tuple(
        t._replace(label=f"{their.name}'s {code.value.upper()} DM")
        if t.label == "Adversary STR/DEX DM" else
        t._replace(label=f"{their.name} unskilled in {GRAPPLE_SKILL}")
        if t.label == "Adversary unskilled" else t
        for t in breakdown.terms))
    modifiers = [skill_term(sheet, GRAPPLE_SKILL),
                 Modifier(f"{request.characteristic.value.upper()} DM",
                          sheet.characteristic_modifier(request.characteristic),
                          "Ch.6 grappling: like a melee attack roll")]
    modifiers.extend(wound_terms(sheet))
    next_roll = next_roll_of(encounter, grappler) if request.use_next_roll else NextRoll()
    modifiers.extend(next_roll.modifiers)
    if request.other_dm:
        modifiers.append(Modifier("Other DMs", request.other_dm, "the referee's DM"))
    tactics = None
    if request.tactics_roll:
        pool = side_tactics(encounter, grappler.side)
        if pool is None:
            raise CombatError(f"the {grappler.side.label} have no Tactics rolls left")
        tactics = pool.kind
    refusal = spend_refusal(sheet.name, grappler.actions_spent, ActionKind.SIGNIFICANT,
                            "grapple") if request.spend_action else ""
    return GrappleSpec(
        grappler_id=grappler.id, grappler_name=sheet.name, target_id=target.id,
        target_name=their.name, maneuver=request.maneuver, modifiers=tuple(modifiers),
        difficulty=difficulty, next_roll=next_roll, target_hp=their.hit_points,
        target_dex=their.characteristic(Characteristic.DEX) or 0, refusal=refusal,
        spend_action=request.spend_action, tactics=tactics,
    )


def grapple_check(spec: GrappleSpec, source: DiceSource) -> CheckResult:
    """The roll, from the table's dice (2, or 2 + |net advantage|) or the app's."""
    if spec.refusal:
        raise CombatError(spec.refusal)
    return check_from(source, spec.roll_modifier, spec.difficulty.total, spec.net_advantage)


@dataclass(frozen=True)
class GrappleDamage:
    """The damage dice of the effects, typed from the table (totals) or None: the app rolls."""

    twist: int | None = None
    throw: int | None = None


def _effects_taken(spec: GrappleSpec, check: CheckResult,
                   chosen: frozenset[GrappleEffect]) -> frozenset[GrappleEffect]:
    """On a success the declared throw or sweep happens; a declared limb or extremity is
    the one bound or damaged."""
    if not check.success:
        return chosen
    declared = _DECLARED.get(spec.maneuver)
    if declared in (GrappleEffect.THROW, GrappleEffect.SWEEP) or (
            declared is not None and chosen & {GrappleEffect.DAMAGE, GrappleEffect.BIND}):
        assert declared is not None
        return chosen | {declared}
    return chosen


def _damage_total(dice: DiceExpression, typed: int | None, rng: random.Random | None,
                  what: str) -> int:
    """The total typed from the table (checked against the dice), or rolled by the app."""
    if typed is None:
        if rng is None:
            raise CombatError(f"type the {what} rolled ({dice})")
        return dice.roll(rng)
    if not dice.minimum <= typed <= dice.maximum:
        raise CombatError(f"{typed} is not a {dice} roll: it runs {dice.minimum} to "
                          f"{dice.maximum}")
    return typed


def grapple_patch(
    campaign: Campaign,
    encounter: Encounter,
    spec: GrappleSpec,
    check: CheckResult,
    effects: frozenset[GrappleEffect] = frozenset(),
    damage: GrappleDamage = GrappleDamage(),
    rng: random.Random | None = None,
    where: str = "",
) -> EncounterPatch:
    """The grapple resolved as one step (Ch.6 step 3): the grappler's significant action,
    advantage (a success) or disadvantage (a failure) on the grappler's next roll this
    round or the next, the winner's Effect spent on ``effects`` against the loser (damage
    1d3 and a throw's 2d3 ignoring armor, bind, lying down or prone) and the log."""
    grappler = _combatant(encounter, spec.grappler_id)
    target = _combatant(encounter, spec.target_id)
    taken = _effects_taken(spec, check, effects)
    winner, loser = (grappler, target) if check.success else (target, grappler)
    budget = check.effect if check.success else -check.effect
    loser_sheet = campaign.combatant_character(loser)
    try:
        cost = grapple_effects_cost(
            taken, spec.maneuver if check.success else GrappleManeuver.NONE,
            loser_sheet.hit_points, loser_sheet.characteristic(Characteristic.DEX) or 0)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    if cost > budget:
        raise CombatError(f"those effects cost Effect {cost}; the "
                          f"{'Success' if check.success else 'Fail'} Effect is {budget}")
    builder = PatchBuilder(campaign, encounter)
    if spec.spend_action:
        _spend(builder, grappler, ActionKind.SIGNIFICANT, "grapple")
    if spec.next_roll:
        spend_next_roll(builder, grappler)
    if spec.tactics is not None:
        spend_tactics_roll(builder, grappler)
    winner_name, loser_name = _name(campaign, winner), _name(campaign, loser)
    changes: list[str] = []
    details: list[str] = []
    area = next((_TARGETED[e] for e in taken if e in _TARGETED), BodyArea.BODY)
    part = where.strip() or ("" if area is BodyArea.BODY else area.value)
    if GrappleEffect.BIND in taken:
        bound = f"bound by {winner_name}" + (f", {part}" if part else "")
        character = builder.edit_character(loser)
        character.conditions.append(Condition(
            kind=ConditionKind.OTHER, detail=bound, started_at=builder.now,
            started_round=builder.round, encounter_id=encounter.id))
        changes.append(f"{loser_name}: {bound}")
        details.append(f"Bind ({part or 'body'})")
    for effect, dice, typed in ((GrappleEffect.DAMAGE, TWIST_DAMAGE, damage.twist),
                                (GrappleEffect.THROW, THROW_DAMAGE, damage.throw)):
        if effect not in taken:
            continue
        what = "twisting damage" if effect is GrappleEffect.DAMAGE else "throw damage"
        total = _damage_total(dice, typed, rng, what)
        result = DamageResult((total,), (True,), (total,), total)
        location = _location(area) if effect is GrappleEffect.DAMAGE else None
        source = f"Grapple by {winner_name}: {grapple_effect(effect).name.lower()}"
        changes += _take_hits(builder, loser, result, source, location, part)
        details.append(f"{grapple_effect(effect).name} {dice} = {total} damage "
                       f"{'to the ' + part + ' ' if location is not None and part else ''}"
                       "(armor does not count)")
    for effect, lying in ((GrappleEffect.THROW, "lying down"), (GrappleEffect.SWEEP, "prone")):
        if effect in taken:
            builder.set(loser, "stance", Stance.PRONE)
            changes.append(f"{loser_name}: {lying}")
            if effect is GrappleEffect.SWEEP:
                details.append("Sweep")
    kind = NextRollKind.ADVANTAGE if check.success else NextRollKind.DISADVANTAGE
    position = "advantageous position" if check.success else "lost position"
    grant_next_roll(builder, grappler, NextRollTerm(
        kind=kind, source=f"grapple with {_name(campaign, target)}: {position}",
        granted_round=encounter.round, last_round=encounter.round + 1))
    grappler_name = _name(campaign, grappler)
    changes.append(f"{grappler_name}: {kind.value} on the next roll")
    shown = "+".join(map(str, check.dice))
    if len(check.dice) != len(check.kept):
        shown += f" (kept {'+'.join(map(str, check.kept))})"
    maneuver = "" if spec.maneuver is GrappleManeuver.NONE else f" ({spec.maneuver.label})"
    used = f"; next roll: {spec.next_roll.text}" if spec.next_roll else ""
    if spec.tactics is not None:
        used += f"; a Tactics {spec.tactics.value} roll spent"
    verdict = "wins" if check.success else "loses"
    spent = (f"; {winner_name} spends Effect {cost} of {budget}: {_join(details)}"
             if details else "")
    text = (f"{grappler_name} grapples {_name(campaign, target)}{maneuver} vs "
            f"{spec.difficulty.total}: {shown} {_signed(check.modifier)} = {check.total}, "
            f"Effect {_signed(check.effect)}, {verdict}{used}{spent}; {grappler_name} has "
            f"{kind.value} on the next roll ({GRAPPLE_RULE})")
    builder.log(actor_id=grappler.id, actor=grappler_name, action="Grapple",
                action_kind=ActionKind.SIGNIFICANT, target_id=target.id,
                target=_name(campaign, target), dice=list(check.dice),
                modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
                state_changes=changes, text=text)
    return builder.build(f"{grappler_name}: grapple {_name(campaign, target)}")


def _location(area: BodyArea) -> HitLocation | None:
    """The targeted-damage row twisting a limb or an extremity counts as (its thresholds
    cripple or stun as a targeted attack's would); None for the body."""
    if area is BodyArea.BODY:
        return None
    return next(row for row in HIT_LOCATIONS if row.body_area is area)
