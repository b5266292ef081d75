"""Declaring an attack: the referee's choices (:class:`AttackRequest`) made into a spec
(:class:`AttackSpec`) of DMs, the Difficulty term by term, defence and return fire.

Declared before any die is rolled, so the resolver can show the odds of exactly what
will be rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from mneme_desktop.domain.attack_terms import (
    attack_refusal,
    label_aim,
    label_superiority,
    label_target_cover,
    target_cover,
)
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import (
    Character,
    Characteristic,
    ConditionKind,
    RangeClass,
    Weapon,
)
from mneme_desktop.domain.combat.actions import PlanOutcome
from mneme_desktop.domain.combat.attack_things import (
    attack_weapons,
    cover_thing,
    thing_entry_of,
)
from mneme_desktop.domain.combat.common import (
    CombatError,
    _combatant,
    _has_active,
    _name,
    _state,
)
from mneme_desktop.domain.combat.dash_run import moving_target_term
from mneme_desktop.domain.combat.next_roll import (
    NextRoll,
    next_roll_of,
    side_tactics,
    tactics_text,
)
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterThing, NextRollKind
from mneme_desktop.domain.roll_terms import Modifier, skill_term, wound_terms
from mneme_desktop.domain.things import Thing
from mneme_desktop.rules.actions import (
    ActionKind,
    ActionOption,
    DefenseKind,
    HitLocation,
    defend_modifier,
)
from mneme_desktop.rules.aim import SPOTTER_CONDITION
from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    RECKLESS_ROLL_BONUS,
    CoverLevel,
    DifficultyBreakdown,
    DifficultyTerm,
    SuperiorityBalance,
    TermKind,
    attack_difficulty,
    net_advantage,
)
from mneme_desktop.rules.damage import scaled_armor
from mneme_desktop.rules.dice import DiceExpression, Scale
from mneme_desktop.rules.helpless import (
    HelplessCause,
    Helplessness,
    helpless_advantage,
)
from mneme_desktop.rules.wounds import WoundState, wound_effects


class AttackMode(Enum):
    ATTACK = "attack"
    DEFEND = "defend"


def armor_of(character: Character) -> tuple[int, Scale]:
    """Worn armor in plain AR (the ratings of every worn piece add up) and the largest
    scale among them, which is the scale the wearer counts as for scale immunity."""
    total = 0
    scale = Scale.NONE
    for armor in character.worn_armor:
        total += scaled_armor(armor.rating, armor.scale)
        if armor.scale.multiplier > scale.multiplier:
            scale = armor.scale
    return total, scale


@dataclass(frozen=True)
class AttackTarget:
    combatant_id: str
    name: str
    hp: int
    damage: int
    endurance: int
    armor: int
    scale: Scale
    rate_share: int
    """Damage rolls kept against this target (its part of the declared rate of attack)."""
    thing_id: str | None = None
    """A vehicle or object (the thing's id; ``combatant_id`` is then its encounter entry):
    no massive damage, no wounds, its HP falls."""


@dataclass(frozen=True)
class Defence:
    """The attacker's mitigating factors against a Fail Effect, in Ch.7 order."""

    conditions: int = 0
    cover: int = 0
    cover_name: str = ""
    cover_item: int | None = None
    """Index of the attacker's cover item (shield) that takes the absorbed rolls."""
    skill: int = 0
    doubled: DefenseKind | None = None
    cover_thing_id: str | None = None
    """The cover object (a thing's id) that takes the absorbed rolls: rolled against its
    armor, scale and HP (:mod:`.attack_things`)."""

    @property
    def effective(self) -> tuple[int, int, int]:
        """(conditions, cover, skill) after a Defend action doubles one; cover and
        concealment never exceed 4 that way."""
        conditions, cover, skill = self.conditions, self.cover, self.skill
        if self.doubled is DefenseKind.CONCEALMENT:
            conditions = max(conditions, defend_modifier(conditions, DefenseKind.CONCEALMENT))
        elif self.doubled is DefenseKind.COVER:
            cover = max(cover, defend_modifier(cover, DefenseKind.COVER))
        elif self.doubled is DefenseKind.SKILL:
            skill = defend_modifier(skill, DefenseKind.SKILL)
        return conditions, cover, skill


@dataclass(frozen=True)
class ReturnFire:
    """What hits the attacker on a Fail Effect: the opponents' weapon and their total rate
    of attack (None: unlimited)."""

    source: str
    dice: DiceExpression
    rate_of_attack: int | None


@dataclass(frozen=True)
class HelplessTarget:
    """A target that cannot defend itself, and why (Ch.6 full and extended actions, Ch.7
    unconscious); ``state.aborted``: its player aborts the action to defend."""

    combatant_id: str
    name: str
    why: tuple[str, ...]
    state: Helplessness

    @property
    def text(self) -> str:
        """"Mira: extended action (First aid, 12 rounds left)", or what aborting left."""
        text = f"{self.name}: {'; '.join(self.why)}"
        if self.state.aborted:
            text += " - aborts to defend" if not self.state.helpless else \
                " - aborting leaves them helpless"
        return text


@dataclass(frozen=True)
class AttackSpec:
    """Everything an attack roll needs, declared before rolling."""

    attacker_id: str
    attacker_name: str
    attacker_hp: int
    attacker_damage: int
    attacker_endurance: int
    attacker_armor: int
    attacker_scale: Scale
    weapon: str
    dice: DiceExpression
    rate_of_attack: int
    modifiers: tuple[Modifier, ...]
    difficulty: DifficultyBreakdown
    targets: tuple[AttackTarget, ...]
    advantages: int = 0
    disadvantages: int = 0
    location: HitLocation | None = None
    mode: AttackMode = AttackMode.ATTACK
    reckless: bool = False
    costly_success: bool = False
    defence: Defence = field(default_factory=Defence)
    return_fire: ReturnFire | None = None
    options: tuple[str, ...] = ()
    keeps_aim: bool = False
    """A melee attack: it neither uses nor loses the attacker's aim (``MELEE_AIM_READING``)."""
    refusal: str = ""
    """Why the attacker cannot make this attack now (no actions left); "" when they can.
    The odds are still shown, but it cannot be rolled."""
    helpless: tuple[HelplessTarget, ...] = ()
    """The targets that are (or were, before aborting) helpless, with why."""
    helpless_advantage: int = 0
    """Advantages the helpless targets give the roll, already counted in ``advantages``."""
    next_roll: NextRoll = field(default_factory=NextRoll)
    tactics_roll: bool = False
    """One of the attacker's side's Tactics rolls is spent on this roll (counted already)."""
    """What waited on the attacker's next roll (a grapple's advantage, a support's DM),
    already counted in the DMs and advantages; the attack uses it up."""

    def __post_init__(self) -> None:
        if self.mode is AttackMode.ATTACK:
            if not self.targets:
                raise CombatError("choose at least one target")
            shares = [t.rate_share for t in self.targets]
            if min(shares) < 1:
                raise CombatError("every target needs at least one of the weapon's attacks")
            if sum(shares) > self.rate_of_attack:
                raise CombatError(
                    f"{self.weapon} has a rate of attack of {self.rate_of_attack}: it cannot "
                    f"make {sum(shares)} attacks (split among {len(shares)} targets)"
                )

    @property
    def roll_terms(self) -> tuple[Modifier, ...]:
        """The DMs of the roll, reckless and a doubled-skill defence included."""
        terms = list(self.modifiers)
        if self.reckless:
            terms.append(Modifier("Reckless action", RECKLESS_ROLL_BONUS, "Ch.6 action options"))
        if self.mode is AttackMode.DEFEND and self.defence.doubled is DefenseKind.SKILL:
            terms.append(Modifier("Defend: skill doubled", self.defence.skill, "Ch.6 defend"))
        return tuple(terms)

    @property
    def roll_modifier(self) -> int:
        return sum(term.value for term in self.roll_terms)

    @property
    def net_advantage(self) -> int:
        return net_advantage(self.advantages, self.disadvantages)


@dataclass(frozen=True)
class AttackRequest:
    """The referee's choices in the attack resolver, before the rules make a spec of them."""

    attacker_id: str
    weapon_index: int
    targets: tuple[tuple[str, int], ...]
    """(combatant id, damage rolls kept against it) for each target."""
    characteristic: Characteristic | None = None
    base_difficulty: int = DEFAULT_DIFFICULTY
    cover: CoverLevel | None = None
    """The targets' cover; None: as set on their rows (the usual case)."""
    concealment: CoverLevel = CoverLevel.NONE
    close_quarters: bool = False
    range_mod: int = 0
    superiority: int = 0
    spotter: bool = False
    """A spotter calls out coordinates for this attack (Ch.6 ballistic correction)."""
    superiority_from: SuperiorityBalance | None = None
    """The Ch.3 situations the referee picked; named on the term when it is their sum."""
    location: HitLocation | None = None
    advantages: int = 0
    disadvantages: int = 0
    coordinating: int = 0
    plan: PlanOutcome = PlanOutcome.NONE
    extra_dm: int = 0
    mode: AttackMode = AttackMode.ATTACK
    reckless: bool = False
    costly_success: bool = False
    defence_conditions: int = 0
    defence_cover: CoverLevel = CoverLevel.NONE
    defence_cover_item: int | None = None
    defence_cover_thing: str | None = None
    """An encounter thing (entry id) the attacker is behind, whose protection absorbs the
    fail effect and which takes those rolls; overrides the other cover choices."""
    doubled: DefenseKind | None = None
    return_fire_from: str | None = None
    return_fire_weapon: int = 0
    return_fire_rate: int | None = None
    spend_action: bool = True
    """The attack spends the attacker's significant action (refused without two minor)."""
    aborting: tuple[str, ...] = ()
    use_next_roll: bool = True
    tactics_roll: bool = False
    """Spend one of the attacker's side's Tactics rolls (Ch.6): an advantage, or the
    disadvantage a failed plan left."""
    """Count what waits on the attacker's next roll (a grapple's advantage or disadvantage,
    a supporter's Effect as a DM); the attack uses it up."""
    """Targets (combatant ids) whose players abort their full or extended action to
    defend themselves: no longer helpless for it (Ch.6 full actions)."""


MELEE_AIM_READING = ("aim is for ranged attacks (Ch.6: \"up to 6 minor actions for a +6 ... "
                     "to their next range weapon attack\"; melee Difficulty factors name no "
                     "aim)")
"""The project's reading of aim on melee attacks (docs/rules.md)."""

SPOTTER_RULE = ("Ch.6 ballistic correction: \"A spotter who can call out coordinates can "
                "grant a 2 Conditions as well\"")


def _default_characteristic(weapon: Weapon) -> Characteristic:
    """Melee weapons roll with STR, everything else with DEX (the referee may change it)."""
    return Characteristic.STR if weapon.range_class is RangeClass.MELEE else Characteristic.DEX


def _thing_target(campaign: Campaign, entry: EncounterThing, share: int) -> AttackTarget:
    """A vehicle or object as a target: its plain HP, scaled armor and scale."""
    thing = campaign.encounter_thing(entry)
    return AttackTarget(
        combatant_id=entry.id, name=thing.name, hp=thing.plain_hp, damage=thing.damage,
        endurance=0, armor=thing.plain_armor, scale=thing.scale, rate_share=share,
        thing_id=thing.id,
    )


def _any_target(
    campaign: Campaign, encounter: Encounter, target_id: str, share: int
) -> AttackTarget:
    entry = thing_entry_of(encounter, target_id)
    if entry is not None:
        return _thing_target(campaign, entry, share)
    return _target(campaign, _combatant(encounter, target_id), share)


def _armed(campaign: Campaign, encounter: Encounter, source_id: str) -> Character | Thing:
    """Who strikes back: a combatant's sheet, or a vehicle's (its crew firing its weapons)."""
    entry = thing_entry_of(encounter, source_id)
    if entry is not None:
        return campaign.encounter_thing(entry)
    return campaign.combatant_character(_combatant(encounter, source_id))


def _target(campaign: Campaign, combatant: Combatant, share: int) -> AttackTarget:
    character = campaign.combatant_character(combatant)
    armor, scale = armor_of(character)
    return AttackTarget(
        combatant_id=combatant.id, name=character.name, hp=character.hit_points,
        damage=character.damage,
        endurance=character.characteristic(Characteristic.END) or 0,
        armor=armor, scale=scale, rate_share=share,
    )


_MOVEMENT_FULL_ACTIONS = frozenset({"Run"})
"""Full actions that are movement: running gives its own defence (a Move Difficulty), so a
runner is not helpless (Ch.6 running)."""


def _full_action_this_round(encounter: Encounter, combatant: Combatant) -> str | None:
    """The full action the log records for this combatant in the current round, if any
    (not a run)."""
    if not encounter.started or encounter.ended:
        return None
    for entry in reversed(encounter.log):
        if entry.round != encounter.round:
            break
        if entry.actor_id == combatant.id and entry.action_kind is ActionKind.FULL and \
                entry.action not in _MOVEMENT_FULL_ACTIONS:
            return entry.action or "full action"
    return None


def helpless_target(
    campaign: Campaign, encounter: Encounter, combatant: Combatant, aborted: bool = False
) -> HelplessTarget | None:
    """Whether ``combatant`` is helpless now, and why: an extended action under way, a full
    action taken this round, out (critically wounded, dying, dead or marked unconscious),
    or marked helpless; None when it can defend itself."""
    character = campaign.combatant_character(combatant)
    causes: list[HelplessCause] = []
    why: list[str] = []
    task = combatant.extended_task
    if task is not None and not task.to_rules().done:
        causes.append(HelplessCause.EXTENDED_ACTION)
        why.append(f"extended action ({task.description}, {task.remaining_rounds} rounds left)")
    else:
        full = _full_action_this_round(encounter, combatant)
        if full is not None:
            causes.append(HelplessCause.FULL_ACTION)
            why.append(f"full action this round ({full})")
    state = _state(campaign, character)
    now = campaign.game_time
    if state is WoundState.DEAD or _has_active(character, ConditionKind.DEAD, now):
        causes.append(HelplessCause.UNCONSCIOUS)
        why.append("dead")
    elif not wound_effects(state).conscious:
        causes.append(HelplessCause.UNCONSCIOUS)
        why.append(f"unconscious ({state.label.lower()})")
    elif _has_active(character, ConditionKind.UNCONSCIOUS, now) or \
            _has_active(character, ConditionKind.DYING, now):
        causes.append(HelplessCause.UNCONSCIOUS)
        why.append("unconscious")
    if _has_active(character, ConditionKind.HELPLESS, now):
        causes.append(HelplessCause.MARKED)
        why.append("marked helpless")
    if not causes:
        return None
    return HelplessTarget(combatant.id, character.name, tuple(why),
                          Helplessness(tuple(causes), aborted))


def build_attack(campaign: Campaign, encounter: Encounter, request: AttackRequest) -> AttackSpec:
    """Turn the resolver's choices into a spec: DMs from the sheet (skill, characteristic,
    wounds), the Difficulty term by term (the targets' cover from their rows unless the
    referee overrides it), the attacker's aim if it is on a target, the defence against a
    Fail Effect, the return fire, and whether the attacker can afford it."""
    attacker = _combatant(encounter, request.attacker_id)
    sheet = campaign.combatant_character(attacker)
    weapons = attack_weapons(campaign, encounter, sheet)  # a vehicle's too, for its crew
    if not weapons:
        raise CombatError(f"{sheet.name} has no weapon: add one on the character sheet")
    if not 0 <= request.weapon_index < len(weapons):
        raise CombatError("choose one of the attacker's weapons")
    weapon = weapons[request.weapon_index]
    target_things = {cid for cid, _ in request.targets if thing_entry_of(encounter, cid)}
    target_combatants = [_combatant(encounter, cid) for cid, _ in request.targets
                         if cid not in target_things]
    if any(t.id == attacker.id for t in target_combatants):
        raise CombatError(f"{sheet.name} cannot attack themselves")
    modifiers: list[Modifier] = []
    level = sheet.skill_level(weapon.skill) if weapon.skill else None
    if weapon.skill:
        modifiers.append(skill_term(sheet, weapon.skill))
    code = request.characteristic or _default_characteristic(weapon)
    modifiers.append(Modifier(f"{code.value.upper()} DM", sheet.characteristic_modifier(code),
                              "Ch.3 characteristic modifier"))
    modifiers.extend(wound_terms(sheet))
    next_roll = next_roll_of(encounter, attacker) if request.use_next_roll else NextRoll()
    modifiers.extend(next_roll.modifiers)
    if request.extra_dm:
        modifiers.append(Modifier("Other DMs", request.extra_dm, "Ch.3 equipment and actions"))
    target_ids = {t.id for t in target_combatants}
    melee = weapon.range_class is RangeClass.MELEE
    aim = attacker.aim if attacker.aim_target_id in target_ids and not melee else 0
    other: list[DifficultyTerm] = []
    moving = moving_target_term(campaign, encounter, target_combatants) \
        if request.mode is AttackMode.ATTACK else None
    if moving is not None:
        other.append(moving)
    if request.spotter:
        other.append(DifficultyTerm("Spotter", -SPOTTER_CONDITION, SPOTTER_RULE,
                                    TermKind.CONDITION))
    if request.coordinating:
        other.append(DifficultyTerm("Coordinating action", request.coordinating,
                                    "Ch.6 coordinating action: +1 to +4", TermKind.OTHER))
    row_cover = target_cover([(c, _name(campaign, c)) for c in target_combatants])
    cover = row_cover.level if request.cover is None else request.cover
    difficulty = attack_difficulty(
        base=request.base_difficulty, cover=cover, concealment=request.concealment,
        close_quarters=request.close_quarters, range_mod=request.range_mod,
        superiority=request.superiority, aim=aim,
        targeted=request.location.difficulty_modifier if request.location else 0,
        other=other,
    )
    if request.cover is None:
        difficulty = label_target_cover(difficulty, row_cover)
    difficulty = label_aim(difficulty, weapon)
    difficulty = label_superiority(difficulty, request.superiority_from)
    advantages, disadvantages = request.advantages, request.disadvantages
    options: list[str] = []
    states = [(c, helpless_target(campaign, encounter, c, c.id in request.aborting))
              for c in target_combatants]
    helpless = tuple(h for _, h in states if h is not None)
    gained = 0
    if request.mode is AttackMode.ATTACK:
        gained = helpless_advantage([h.state if h is not None else Helplessness()
                                     for _, h in states])
    advantages += gained
    if request.plan is PlanOutcome.CORRECT:
        advantages += 1
        options.append("Plan/Wait: prediction correct, advantage")
    elif request.plan is PlanOutcome.WRONG:
        disadvantages += 1
        options.append("Plan/Wait: prediction wrong, disadvantage")
    if request.reckless:
        options.append(f"{ActionOption.RECKLESS.label}: {ActionOption.RECKLESS.roll_effect}")
    if request.coordinating:
        options.append(f"{ActionOption.COORDINATING.label}: +{request.coordinating} Difficulty")
    if request.costly_success:
        options.append("Costly success if the roll fails: fail effect x 2 + 3")
    advantages += next_roll.advantages
    disadvantages += next_roll.disadvantages
    if next_roll:
        options.append(f"Next roll: {next_roll.text}")
    if request.tactics_roll:
        pool = side_tactics(encounter, attacker.side)
        if pool is None:
            raise CombatError(f"the {attacker.side.label} have no Tactics rolls left")
        if pool.kind is NextRollKind.ADVANTAGE:
            advantages += 1
        else:
            disadvantages += 1
        options.append(f"Tactics roll: {pool.kind.value} ({tactics_text(pool)} before this)")
    if gained:
        options.append(f"Helpless target: +{gained} advantage "
                       f"({'; '.join(h.text for h in helpless)})")
    situations = request.superiority_from
    if situations is not None and situations.describe() \
            and situations.modifier == request.superiority:
        options.append(f"Superiority {request.superiority:+d} ({situations.describe()})")
    if aim:
        options.append(f"Aim +{aim} on the target")
    elif melee and attacker.aim and attacker.aim_target_id is not None:
        options.append(f"Aim +{attacker.aim} not used and kept: {MELEE_AIM_READING}")
    elif attacker.aim and attacker.aim_target_id is not None:
        options.append("Aim was on another target: lost on changing target")
    cover_protection = int(request.defence_cover)
    cover_name = f"{request.defence_cover.label} cover" if cover_protection else ""
    if request.defence_cover_item is not None:
        if not 0 <= request.defence_cover_item < len(sheet.cover_items):
            raise CombatError("choose one of the attacker's cover items")
        item = sheet.cover_items[request.defence_cover_item]
        cover_protection, cover_name = item.protection, item.name
    cover_thing_id = None
    if request.defence_cover_thing is not None:
        behind = cover_thing(campaign, encounter, request.defence_cover_thing)
        cover_protection, cover_name = behind.protection, behind.name
        cover_thing_id = behind.thing_id
        if behind.note:
            options.append(behind.note)
    defence = Defence(
        conditions=request.defence_conditions, cover=cover_protection, cover_name=cover_name,
        cover_item=request.defence_cover_item, skill=level or 0,
        doubled=request.doubled if request.mode is AttackMode.DEFEND else None,
        cover_thing_id=cover_thing_id,
    )
    return_fire = None
    if request.return_fire_from is not None:
        their = _armed(campaign, encounter, request.return_fire_from)
        if their.weapons:
            index = min(max(0, request.return_fire_weapon), len(their.weapons) - 1)
            their_weapon = their.weapons[index]
            rate = request.return_fire_rate
            return_fire = ReturnFire(f"{their.name}: {their_weapon.name}",
                                     their_weapon.damage_dice, rate)
    armor, scale = armor_of(sheet)
    return AttackSpec(
        attacker_id=attacker.id, attacker_name=sheet.name, attacker_hp=sheet.hit_points,
        attacker_damage=sheet.damage,
        attacker_endurance=sheet.characteristic(Characteristic.END) or 0,
        attacker_armor=armor, attacker_scale=scale,
        weapon=weapon.name, dice=weapon.damage_dice, rate_of_attack=weapon.rate_of_attack,
        modifiers=tuple(modifiers), difficulty=difficulty,
        targets=tuple(_any_target(campaign, encounter, target_id, share)
                      for target_id, share in request.targets),
        advantages=advantages, disadvantages=disadvantages, location=request.location,
        mode=request.mode, reckless=request.reckless,
        costly_success=request.costly_success and request.mode is AttackMode.ATTACK,
        defence=defence, return_fire=return_fire, options=tuple(options),
        refusal=attack_refusal(sheet.name, attacker.actions_spent, request.spend_action,
                               "defend" if request.mode is AttackMode.DEFEND else "attack"),
        helpless=helpless, helpless_advantage=gained, next_roll=next_roll,
        tactics_roll=request.tactics_roll, keeps_aim=melee,
    )
