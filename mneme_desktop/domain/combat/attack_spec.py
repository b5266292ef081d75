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
from mneme_desktop.domain.combat.common import (
    CombatError,
    _combatant,
    _has_active,
    _name,
    _state,
)
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.roll_terms import Modifier, skill_term, wound_terms
from mneme_desktop.rules.actions import (
    ActionKind,
    ActionOption,
    DefenseKind,
    HitLocation,
    defend_modifier,
)
from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    RECKLESS_ROLL_BONUS,
    CoverLevel,
    DifficultyBreakdown,
    DifficultyTerm,
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
    refusal: str = ""
    """Why the attacker cannot make this attack now (no actions left); "" when they can.
    The odds are still shown, but it cannot be rolled."""
    helpless: tuple[HelplessTarget, ...] = ()
    """The targets that are (or were, before aborting) helpless, with why."""
    helpless_advantage: int = 0
    """Advantages the helpless targets give the roll, already counted in ``advantages``."""

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
    doubled: DefenseKind | None = None
    return_fire_from: str | None = None
    return_fire_weapon: int = 0
    return_fire_rate: int | None = None
    spend_action: bool = True
    """The attack spends the attacker's significant action (refused without two minor)."""
    aborting: tuple[str, ...] = ()
    """Targets (combatant ids) whose players abort their full or extended action to
    defend themselves: no longer helpless for it (Ch.6 full actions)."""


def _default_characteristic(weapon: Weapon) -> Characteristic:
    """Melee weapons roll with STR, everything else with DEX (the referee may change it)."""
    return Characteristic.STR if weapon.range_class is RangeClass.MELEE else Characteristic.DEX


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
    if not sheet.weapons:
        raise CombatError(f"{sheet.name} has no weapon: add one on the character sheet")
    if not 0 <= request.weapon_index < len(sheet.weapons):
        raise CombatError("choose one of the attacker's weapons")
    weapon = sheet.weapons[request.weapon_index]
    target_combatants = [_combatant(encounter, cid) for cid, _ in request.targets]
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
    if request.extra_dm:
        modifiers.append(Modifier("Other DMs", request.extra_dm, "Ch.3 equipment and actions"))
    target_ids = {t.id for t in target_combatants}
    aim = attacker.aim if attacker.aim_target_id in target_ids else 0
    other: list[DifficultyTerm] = []
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
    if gained:
        options.append(f"Helpless target: +{gained} advantage "
                       f"({'; '.join(h.text for h in helpless)})")
    if aim:
        options.append(f"Aim +{aim} on the target")
    elif attacker.aim and attacker.aim_target_id is not None:
        options.append("Aim was on another target: lost on changing target")
    cover_protection = int(request.defence_cover)
    cover_name = f"{request.defence_cover.label} cover" if cover_protection else ""
    if request.defence_cover_item is not None:
        if not 0 <= request.defence_cover_item < len(sheet.cover_items):
            raise CombatError("choose one of the attacker's cover items")
        item = sheet.cover_items[request.defence_cover_item]
        cover_protection, cover_name = item.protection, item.name
    defence = Defence(
        conditions=request.defence_conditions, cover=cover_protection, cover_name=cover_name,
        cover_item=request.defence_cover_item, skill=level or 0,
        doubled=request.doubled if request.mode is AttackMode.DEFEND else None,
    )
    return_fire = None
    if request.return_fire_from is not None:
        opponent = _combatant(encounter, request.return_fire_from)
        their = campaign.combatant_character(opponent)
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
        targets=tuple(_target(campaign, c, share)
                      for c, (_, share) in zip(target_combatants, request.targets, strict=True)),
        advantages=advantages, disadvantages=disadvantages, location=request.location,
        mode=request.mode, reckless=request.reckless,
        costly_success=request.costly_success and request.mode is AttackMode.ATTACK,
        defence=defence, return_fire=return_fire, options=tuple(options),
        refusal=attack_refusal(sheet.name, attacker.actions_spent, request.spend_action,
                               "defend" if request.mode is AttackMode.DEFEND else "attack"),
        helpless=helpless, helpless_advantage=gained,
    )
