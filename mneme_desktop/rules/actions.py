"""Actions (Ch.6): the action economy, movement, initiative, aim, tactics, defend,
grappling, targeted attacks, thrown weapons and extended actions.

Every table of the chapter is data here so the UI can list it and the referee can see
which row produced a number; where the text leaves a gap the choice is documented on
the function that makes it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import NamedTuple

from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    UNSKILLED,
    DifficultyBreakdown,
    DifficultyTerm,
    TermKind,
    characteristic_modifier,
    resolve_time,
)
from mneme_desktop.rules.dice import DiceExpression, roll_two_d6

__all__ = [
    "ACTION_CATALOG",
    "AIM_CAP",
    "COORDINATING_DIFFICULTY_MAX",
    "COORDINATING_DIFFICULTY_MIN",
    "FIRST_AID_ROUNDS",
    "GRAPPLE_EFFECTS",
    "HIT_LOCATIONS",
    "MINOR_ACTIONS_PER_ROUND",
    "ROUND_SECONDS",
    "SPOTTER_CONDITION",
    "TACTICS_DIFFICULTIES",
    "THROW_DAMAGE",
    "TWIST_DAMAGE",
    "ActionDef",
    "ActionEconomyError",
    "ActionKind",
    "ActionOption",
    "BodyArea",
    "DefenseKind",
    "ExtendedAction",
    "GrappleEffect",
    "GrappleEffectDef",
    "GrappleManeuver",
    "HitLocation",
    "InitiativeRoll",
    "Load",
    "MovementMode",
    "RolledHitLocation",
    "Stance",
    "TacticsPool",
    "action_by_key",
    "action_cost",
    "add_aim",
    "aim_after_target_change",
    "aim_cap",
    "ambush_initiative",
    "ballistic_correction",
    "can_spend",
    "coordinating_difficulty",
    "defend_modifier",
    "defend_roll_modifier",
    "extended_action_rounds",
    "grapple_difficulty",
    "grapple_effect",
    "grapple_roll_modifier",
    "hit_location",
    "initiative_modifier",
    "movement_metres",
    "movement_spaces",
    "roll_hit_location",
    "roll_initiative",
    "seriously_wounded_movement",
    "spend",
    "stance_change_cost",
    "supporting_dm",
    "sweep_effect_cost",
    "tactics_attempts_allowed",
    "tactics_capped_effect",
    "tactics_initiative_bonus",
    "tactics_max_effect",
    "tactics_pool",
    "throw_effect_cost",
    "thrown_range",
    "tracer_aim_bonus",
]

ROUND_SECONDS = 6
MINOR_ACTIONS_PER_ROUND = 3


# --- action economy --------------------------------------------------------------------


class ActionKind(Enum):
    """Actions are priced in minor actions; a character has three per round."""

    FREE = "free"
    MINOR = "minor"
    SIGNIFICANT = "significant"
    FULL = "full"

    @property
    def cost(self) -> int:
        return _ACTION_COSTS[self]

    @property
    def label(self) -> str:
        return f"{self.value.capitalize()} Action"


_ACTION_COSTS = {
    ActionKind.FREE: 0,
    ActionKind.MINOR: 1,
    ActionKind.SIGNIFICANT: 2,
    ActionKind.FULL: 3,
}


def action_cost(kind: ActionKind) -> int:
    """Minor actions an action of this kind uses: free 0, minor 1, significant 2, full 3."""
    return kind.cost


class ActionEconomyError(ValueError):
    """A character tried to spend more minor actions than the round has left."""


def _check_spent(spent: int) -> None:
    if not 0 <= spent <= MINOR_ACTIONS_PER_ROUND:
        raise ActionEconomyError(
            f"minor actions spent must be 0..{MINOR_ACTIONS_PER_ROUND}, got {spent}"
        )


def can_spend(spent: int, kind: ActionKind) -> bool:
    """Whether a character who has used ``spent`` minor actions can still take this action."""
    _check_spent(spent)
    return spent + kind.cost <= MINOR_ACTIONS_PER_ROUND


def spend(spent: int, kind: ActionKind) -> int:
    """Minor actions used after taking this action; refuses to overspend the round."""
    if not can_spend(spent, kind):
        left = MINOR_ACTIONS_PER_ROUND - spent
        raise ActionEconomyError(
            f"a {kind.label} costs {kind.cost} minor actions but only {left} "
            f"of {MINOR_ACTIONS_PER_ROUND} are left this round"
        )
    return spent + kind.cost


class ActionDef(NamedTuple):
    """One row of the chapter's action tables."""

    key: str
    name: str
    kind: ActionKind
    category: str
    description: str


ACTION_CATALOG: tuple[ActionDef, ...] = (
    ActionDef(
        "quick_phrase",
        "Quick Phrase",
        ActionKind.FREE,
        "Speech",
        "Any speech that can be spoken in one breath. Repeating phrases over and over again, "
        "declaring action over the radio.",
    ),
    ActionDef(
        "quick_glance",
        "Quick Glance",
        ActionKind.FREE,
        "Perception",
        "A single quick glance without turning one's head.",
    ),
    ActionDef(
        "snap",
        "A Snap",
        ActionKind.FREE,
        "Manipulation",
        "Pressing a detonator button already at hand, activating a program with one press, "
        "dropping an item already held (e.g., dropping a charged grenade).",
    ),
    ActionDef(
        "aim",
        "Aim",
        ActionKind.MINOR,
        "Combat",
        "Gain a +1 DM to the next attack roll. Maximum +6 Aim bonus.",
    ),
    ActionDef(
        "minor_movement",
        "Minor Movement",
        ActionKind.MINOR,
        "Movement",
        "Move 6m or 4 spaces under Light Load. Move 4.5m or 3 spaces under Medium and Heavy load.",
    ),
    ActionDef(
        "changing_stance",
        "Changing Stance",
        ActionKind.MINOR,
        "Movement",
        "Change stance to prone, crouched, or standing. Standing to Prone or Crouching: "
        "1 action. Prone to Crouching: 2 actions. Crouching to Standing: 1 action.",
    ),
    ActionDef(
        "minor_readying",
        "Minor Readying",
        ActionKind.MINOR,
        "Manipulation",
        "Grabbing/Taking something accessible. Drawing from Open or Quick Release pouches, "
        "pockets, holsters, bands, or other containers. Arrows from Quivers.",
    ),
    ActionDef(
        "quick_scan",
        "Quick Scan",
        ActionKind.MINOR,
        "Perception",
        "A quick scan that can cover the 360° field of vision. Reveals anything not using "
        "Deliberate Stealth.",
    ),
    ActionDef(
        "minor_stealth",
        "Minor Stealth",
        ActionKind.MINOR,
        "Stealth",
        "Adversaries not using Quick Scan are not aware of this character. Move 3m (2 spaces).",
    ),
    ActionDef(
        "skill_action",
        "Skill Action",
        ActionKind.SIGNIFICANT,
        "Skill",
        "Use skills that can be performed in a significant action.",
    ),
    ActionDef(
        "deliberate_stealth",
        "Deliberate Stealth",
        ActionKind.SIGNIFICANT,
        "Stealth",
        "Move Stealthy 6m (4 spaces), roll Against Adversary Recon. Evade detection of "
        "anything less than Scan/Search (Quick Scans and Glances).",
    ),
    ActionDef(
        "scan_search",
        "Scan/Search",
        ActionKind.SIGNIFICANT,
        "Perception",
        "Roll Recon against the Deliberate Stealth of Adversaries. Detect anything less than "
        "Deliberate Stealth.",
    ),
    ActionDef(
        "dash",
        "Dash",
        ActionKind.SIGNIFICANT,
        "Movement",
        "Move 15m on a straight line. This makes the PC/Adversary harder to hit. Roll "
        "Athletics if terrain can cause a sudden stop or fall.",
    ),
    ActionDef(
        "use_device",
        "Use Device",
        ActionKind.SIGNIFICANT,
        "Manipulation",
        "Activate or Use a Device. Give commands to a Drone.",
    ),
    ActionDef(
        "use_tactics",
        "Use Tactics",
        ActionKind.SIGNIFICANT,
        "Skill",
        "Roll tactics against chosen difficulty level, gain a number of Advantage/Disadvantage "
        "rolls equal to skill+1 per combat.",
    ),
    ActionDef(
        "significant_readying",
        "Significant Readying",
        ActionKind.SIGNIFICANT,
        "Manipulation",
        "Reload, Draw ammo/mag, Getting a Bulky weapon or equipment ready, Getting equipment "
        "from an unready pouch.",
    ),
    ActionDef(
        "defend",
        "Defend",
        ActionKind.SIGNIFICANT,
        "Combat",
        "Double one Condition or Skill's value to reduce Fail effect.",
    ),
    ActionDef(
        "attack",
        "Attack",
        ActionKind.SIGNIFICANT,
        "Combat",
        "Attack one or more adversaries (Ranged or Melee).",
    ),
    ActionDef(
        "supporting_action",
        "Supporting Action",
        ActionKind.SIGNIFICANT,
        "Support",
        "Action OPTION Roll and Success effect is a DM bonus to characters that benefit from "
        "the Support.",
    ),
    ActionDef(
        "full_skill_action",
        "Full Skill Action",
        ActionKind.FULL,
        "Skill",
        "Roll Skill actions where success or fail effect determine how quickly an extended "
        "action can be accomplished.",
    ),
    ActionDef(
        "run",
        "Run",
        ActionKind.FULL,
        "Movement",
        "Roll Athletics running through obstacles, hazards, or enemy fire.",
    ),
    ActionDef(
        "extended_action",
        "Extended Action",
        ActionKind.FULL,
        "Skill",
        "Some skill checks will take longer than a single combat round to complete. Make a "
        "Timing roll for the task and then work out how many six second combat rounds it will "
        "take to complete. Example is First aid takes 30 rounds.",
    ),
)

_ACTIONS_BY_KEY = {action.key: action for action in ACTION_CATALOG}


def action_by_key(key: str) -> ActionDef:
    try:
        return _ACTIONS_BY_KEY[key]
    except KeyError:
        raise KeyError(f"no action {key!r}; known actions: {', '.join(_ACTIONS_BY_KEY)}") from None


class ActionOption(Enum):
    """Options that modify a significant action; they can be combined."""

    RECKLESS = "reckless"
    COORDINATING = "coordinating"
    PLAN_WAIT = "plan_wait"

    @property
    def label(self) -> str:
        return _OPTION_TEXT[self][0]

    @property
    def description(self) -> str:
        return _OPTION_TEXT[self][1]

    @property
    def roll_effect(self) -> str:
        """What the option does to the roll, in one line for the resolver."""
        return _OPTION_TEXT[self][2]


_OPTION_TEXT = {
    ActionOption.RECKLESS: (
        "Reckless Action",
        "Gain a +2 DM, but even if success and after resolving success, apply a -3 to Effect. "
        "If the Effect would have been negative resolve the negative outcome.",
        "+2 DM to the roll; -3 to the Effect afterwards",
    ),
    ActionOption.COORDINATING: (
        "Coordinating Action",
        "This action is considered to have resolved simultaneously with another character. "
        "Gain Superiority Modifier to the Roll or a special effect the Coordination intended.",
        "+1 to +4 Difficulty; gain Superiority, Advantage, or offset Disadvantage",
    ),
    ActionOption.PLAN_WAIT: (
        "Plan/Wait",
        "Predict Adversary Action, gain Advantage if plan is sound and prediction is correct or "
        "Disadvantage if prediction is wrong.",
        "Advantage if the prediction is correct, Disadvantage if it is wrong",
    ),
}

COORDINATING_DIFFICULTY_MIN = 1
COORDINATING_DIFFICULTY_MAX = 4


def coordinating_difficulty(value: int) -> int:
    """The referee's 1-4 Difficulty for coordinating (also the Plan/Wait shortcut range)."""
    if not COORDINATING_DIFFICULTY_MIN <= value <= COORDINATING_DIFFICULTY_MAX:
        raise ValueError(
            f"coordination adds {COORDINATING_DIFFICULTY_MIN} to "
            f"{COORDINATING_DIFFICULTY_MAX} Difficulty, got {value}"
        )
    return value


def supporting_dm(effect: int) -> int:
    """A Supporting Action's roll gives its Success Effect to the ally as a DM (0 on failure)."""
    return max(0, effect)


# --- movement --------------------------------------------------------------------------


class Load(Enum):
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class Stance(Enum):
    STANDING = "standing"
    CROUCHED = "crouched"
    PRONE = "prone"


class MovementMode(Enum):
    """Move is a minor action, Dash a significant action, Run a full action."""

    MOVE = "move"
    DASH = "dash"
    RUN = "run"

    @property
    def action_kind(self) -> ActionKind:
        return _MODE_KINDS[self]


_MODE_KINDS = {
    MovementMode.MOVE: ActionKind.MINOR,
    MovementMode.DASH: ActionKind.SIGNIFICANT,
    MovementMode.RUN: ActionKind.FULL,
}

_FINE_SCALE = Fraction(3, 2)
_COARSE_SCALE = Fraction(9, 2)

# Columns: light, medium/heavy, light crouch, medium/heavy crouch, crawl. None = NA.
_MOVEMENT_TABLE: dict[tuple[Fraction, MovementMode], tuple[int | None, ...]] = {
    (_FINE_SCALE, MovementMode.MOVE): (4, 3, 2, 1, None),
    (_FINE_SCALE, MovementMode.DASH): (10, 7, 5, 3, 2),
    (_FINE_SCALE, MovementMode.RUN): (15, 10, 7, 5, 3),
    (_COARSE_SCALE, MovementMode.MOVE): (1, 1, None, None, None),
    (_COARSE_SCALE, MovementMode.DASH): (3, 2, 2, 1, None),
    (_COARSE_SCALE, MovementMode.RUN): (5, 3, 3, 2, 1),
}


def _grid_scale(scale_m: float | Fraction | str) -> Fraction:
    value = Fraction(str(scale_m)) if isinstance(scale_m, float | str) else Fraction(scale_m)
    if value not in (_FINE_SCALE, _COARSE_SCALE):
        raise ValueError(f"the movement table has 1.5 m and 4.5 m spaces, not {scale_m} m")
    return value


def seriously_wounded_movement(spaces: int) -> int:
    """A Seriously Wounded character moves at 3/4 speed: rounded down, but at least 1 space
    so that any movement the table allows stays possible."""
    if spaces <= 0:
        return 0
    return max(1, spaces * 3 // 4)


def movement_spaces(
    mode: MovementMode,
    load: Load = Load.LIGHT,
    stance: Stance = Stance.STANDING,
    scale_m: float | Fraction | str = 1.5,
    seriously_wounded: bool = False,
) -> int | None:
    """Spaces moved by one movement action, from the Ch.6 movement table.

    Prone is the table's Crawl column (load does not change it). ``None`` means the
    movement is not possible (an NA cell). A Seriously Wounded character (Ch.7) cannot
    Dash, and since a Run is faster than a Dash it cannot Run either; a Move is at 3/4.
    """
    row = _MOVEMENT_TABLE[(_grid_scale(scale_m), mode)]
    if stance is Stance.PRONE:
        column = 4
    else:
        column = (0 if load is Load.LIGHT else 1) + (2 if stance is Stance.CROUCHED else 0)
    spaces = row[column]
    if spaces is None or not seriously_wounded:
        return spaces
    if mode is not MovementMode.MOVE:
        return None
    return seriously_wounded_movement(spaces)


def movement_metres(
    mode: MovementMode,
    load: Load = Load.LIGHT,
    stance: Stance = Stance.STANDING,
    scale_m: float | Fraction | str = 1.5,
    seriously_wounded: bool = False,
) -> Fraction | None:
    """Distance of :func:`movement_spaces` in metres (spaces x space size; the table's
    spaces are authoritative where the prose rounds, e.g. a loaded Dash is 7 x 1.5 = 10.5 m)."""
    spaces = movement_spaces(mode, load, stance, scale_m, seriously_wounded)
    return None if spaces is None else spaces * _grid_scale(scale_m)


_STANCE_COSTS = {
    (Stance.STANDING, Stance.PRONE): 1,
    (Stance.STANDING, Stance.CROUCHED): 1,
    (Stance.PRONE, Stance.CROUCHED): 2,
    (Stance.CROUCHED, Stance.STANDING): 1,
    # Not in the text: dropping prone from a crouch is taken to be as quick as from standing,
    # and getting up from prone goes through crouching (2 + 1).
    (Stance.CROUCHED, Stance.PRONE): 1,
    (Stance.PRONE, Stance.STANDING): 3,
}


def stance_change_cost(current: Stance, target: Stance) -> int:
    """Minor actions needed to change stance (0 when already there)."""
    if current is target:
        return 0
    return _STANCE_COSTS[(current, target)]


# --- initiative ------------------------------------------------------------------------


class InitiativeRoll(NamedTuple):
    dice: tuple[int, ...]
    modifier: int
    value: int


def initiative_modifier(dex: int, skill_level: int | None = None) -> int:
    """Initiative DM: Dexterity DM, plus the level of the skill applied (Recon, Tactics,
    weapon) if any. No skill is not "unskilled" here: unprepared combatants roll 2d6 + DEX DM."""
    return characteristic_modifier(dex) + (skill_level or 0)


def roll_initiative(rng: random.Random, dex: int, skill_level: int | None = 0) -> InitiativeRoll:
    """Roll 2d6 + DEX DM + skill once at the start of combat; the value is kept all combat."""
    rolled = roll_two_d6(rng)
    modifier = initiative_modifier(dex, skill_level)
    return InitiativeRoll(rolled.dice, modifier, rolled.total + modifier)


def ambush_initiative(dex: int) -> int:
    """Combatants ready when others are not (an ambush) count an automatic 12: 12 + DEX DM."""
    return 12 + characteristic_modifier(dex)


# --- tactics ---------------------------------------------------------------------------

TACTICS_DIFFICULTIES: tuple[int, ...] = (6, 8, 10, 12)
_TACTICS_MAX_EFFECT = {6: 1, 8: 2, 10: 4, 12: 8}


def tactics_max_effect(difficulty: int) -> int:
    """The riskier the declared tactic, the larger its Effect may be: 6->1, 8->2, 10->4, 12->8."""
    try:
        return _TACTICS_MAX_EFFECT[difficulty]
    except KeyError:
        raise ValueError(
            f"tactics are declared at Difficulty 6, 8, 10 or 12, not {difficulty}"
        ) from None


def tactics_capped_effect(effect: int, difficulty: int) -> int:
    """A Tactics Effect limited both ways (success and failure) by the declared risk."""
    cap = tactics_max_effect(difficulty)
    return max(-cap, min(cap, effect))


class TacticsPool(NamedTuple):
    """Advantage (or disadvantage) rolls a Tactics check grants the character's side."""

    advantages: int
    disadvantages: int


def tactics_pool(effect: int, difficulty: int) -> TacticsPool:
    """The pool is the capped Effect: a success grants that many Advantage rolls, a failure
    that many Disadvantage rolls; a bare success (Effect 0) grants none."""
    capped = tactics_capped_effect(effect, difficulty)
    return TacticsPool(max(0, capped), max(0, -capped))


def tactics_attempts_allowed(skill: int) -> int:
    """A character may re-try Tactics in one battle while attempts < skill + 1."""
    if skill < 0:
        raise ValueError(f"Tactics skill level cannot be negative, got {skill}")
    return skill + 1


def tactics_initiative_bonus(effect: int, difficulty: int | None = None) -> int:
    """The Tactics Effect added to the Initiative of everyone in the unit in direct contact.

    The Effect is signed (a failed plan costs the unit initiative) and, when the declared
    ``difficulty`` is given, capped like every other Tactics Effect.
    """
    return effect if difficulty is None else tactics_capped_effect(effect, difficulty)


# --- aim -------------------------------------------------------------------------------

AIM_CAP = 6
"""At most six minor actions of aim count toward the next ranged attack."""
SPOTTER_CONDITION = 2


def aim_cap(weapon_aim_modifier: int = 0) -> int:
    """Largest aim bonus: six aim actions, each worth the weapon's Aim modifier (or +1)."""
    return AIM_CAP * max(1, weapon_aim_modifier)


def add_aim(current: int, weapon_aim_modifier: int = 0) -> int:
    """Aim bonus after one more Aim minor action.

    Each aim is worth the weapon's Aim modifier, or +1 without one; the book's "+6 or more
    because of weapon aim modifier" is read as at most six aim actions' worth.
    """
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    return min(current + max(1, weapon_aim_modifier), aim_cap(weapon_aim_modifier))


def aim_after_target_change(
    current: int, same_position_and_conditions: bool, preserved: int | None = None
) -> int:
    """Aim kept when switching targets: lost unless the new target shares the old one's
    position and conditions, where the referee decides how much is kept (``preserved``,
    by default all of it)."""
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    if not same_position_and_conditions:
        return 0
    if preserved is None:
        return current
    if preserved < 0:
        raise ValueError(f"preserved aim cannot be negative, got {preserved}")
    return min(current, preserved)


def ballistic_correction(current: int, weapon_aim_modifier: int = 0) -> int:
    """Seeing where the last shots hit keeps last round's aim and adds +1 (within the cap)."""
    if current < 0:
        raise ValueError(f"aim bonus cannot be negative, got {current}")
    return min(current + 1, aim_cap(weapon_aim_modifier))


def tracer_aim_bonus(fully_automatic: bool) -> int:
    """Tracer rounds grant up to +1 aim, or up to +3 on fully automatic fire."""
    return 3 if fully_automatic else 1


# --- defend ----------------------------------------------------------------------------


class DefenseKind(Enum):
    """The one defense modifier a Defend action doubles."""

    COVER = "cover"
    CONCEALMENT = "concealment"
    SKILL = "skill"


_CONDITION_CAP = 4


def defend_modifier(value: int, kind: DefenseKind) -> int:
    """The doubled defense modifier. Cover and concealment never exceed 4, doubled or not."""
    if value < 0:
        raise ValueError(f"a defense modifier cannot be negative, got {value}")
    doubled = value * 2
    if kind is DefenseKind.SKILL:
        return doubled
    return min(doubled, _CONDITION_CAP)


def defend_roll_modifier(skill: int | None, chm: int, skill_doubled: bool = True) -> int:
    """The DM of a Defend roll: skill (doubled when Skill is the modifier chosen) + ChM.

    Ch.6's example: "Skill 1 and ChM 0 rolls on a 1 DM" is the ordinary, undoubled roll;
    "Skill 2 rolls at a 4 DM" is that skill doubled. ``None`` is unskilled (-3, which
    there is no skill to double).
    """
    if skill is None:
        return UNSKILLED + chm
    return skill * (2 if skill_doubled else 1) + chm


# --- targeted attacks ------------------------------------------------------------------


class BodyArea(Enum):
    """Which Ch.7 targeted-damage threshold a hit location uses (BODY has none)."""

    BODY = "body"
    LIMB = "limb"
    EXTREMITY = "extremity"
    HEAD = "head"
    VITALS = "vitals"


class HitLocation(NamedTuple):
    """One row of the Targeted Attack Location table."""

    roll: int
    key: str
    name: str
    difficulty_modifier: int
    body_area: BodyArea
    sided: bool = False
    """Feet and hands: roll 1d6, 1-3 primary, 4-6 secondary."""


HIT_LOCATIONS: tuple[HitLocation, ...] = (
    HitLocation(2, "vitals", "Vitals, Neck", 3, BodyArea.VITALS),
    HitLocation(3, "feet", "Feet", 2, BodyArea.EXTREMITY, sided=True),
    HitLocation(4, "secondary_leg", "Secondary Leg", 2, BodyArea.LIMB),
    HitLocation(5, "primary_leg", "Primary Leg", 1, BodyArea.LIMB),
    HitLocation(6, "groin", "Groin", 1, BodyArea.BODY),
    HitLocation(7, "core", "Core or Center of Mass", 0, BodyArea.BODY),
    HitLocation(8, "chest", "Chest", 1, BodyArea.BODY),
    HitLocation(9, "primary_arm", "Primary Arm", 1, BodyArea.LIMB),
    HitLocation(10, "secondary_arm", "Secondary Arm", 2, BodyArea.LIMB),
    HitLocation(11, "hands", "Hands", 2, BodyArea.EXTREMITY, sided=True),
    HitLocation(12, "head", "Head", 3, BodyArea.HEAD),
)


def hit_location(total_2d6: int) -> HitLocation:
    """The location a 2d6 total lands on (also the Difficulty to aim at it)."""
    if not 2 <= total_2d6 <= 12:
        raise ValueError(f"hit locations are rolled on 2d6 (2..12), got {total_2d6}")
    return HIT_LOCATIONS[total_2d6 - 2]


class RolledHitLocation(NamedTuple):
    location: HitLocation
    dice: tuple[int, ...]
    side_die: int | None

    @property
    def side(self) -> str | None:
        if self.side_die is None:
            return None
        return "Primary" if self.side_die <= 3 else "Secondary"

    @property
    def name(self) -> str:
        side = self.side
        return self.location.name if side is None else f"{side} {self.location.name}"


def roll_hit_location(rng: random.Random) -> RolledHitLocation:
    """Roll a random hit location, with 1d6 for primary/secondary on feet and hands."""
    rolled = roll_two_d6(rng)
    location = hit_location(rolled.total)
    side_die = rng.randint(1, 6) if location.sided else None
    return RolledHitLocation(location, rolled.dice, side_die)


# --- grappling -------------------------------------------------------------------------


class GrappleManeuver(Enum):
    """A grappling maneuver declared before the roll, with the Difficulty it adds."""

    NONE = "none"
    TARGETED_LIMB = "targeted_limb"
    TARGETED_EXTREMITY = "targeted_extremity"
    THROW = "throw"
    SWEEP = "sweep"

    @property
    def difficulty(self) -> int:
        return _MANEUVER_DIFFICULTY[self]

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()


_MANEUVER_DIFFICULTY = {
    GrappleManeuver.NONE: 0,
    GrappleManeuver.TARGETED_LIMB: 1,
    GrappleManeuver.TARGETED_EXTREMITY: 2,
    GrappleManeuver.THROW: 3,
    GrappleManeuver.SWEEP: 2,
}


def grapple_roll_modifier(skill: int | None, chm: int) -> int:
    """The grappler's DM: Natural Weapons / unarmed skill + ChM, or -3 unskilled."""
    return (UNSKILLED if skill is None else skill) + chm


def grapple_difficulty(
    adversary_chm: int,
    maneuver: GrappleManeuver = GrappleManeuver.NONE,
    adversary_skilled: bool = True,
    weapon_factor: int = 0,
    base: int = DEFAULT_DIFFICULTY,
) -> DifficultyBreakdown:
    """The Difficulty of a grappling roll, term by term.

    ``adversary_chm`` is the adversary's STR or DEX DM; an unskilled adversary lowers the
    Difficulty by 3. ``weapon_factor`` is the referee's weapons factor (a close-quarters
    weapon ±1, a pistol +2, cumbersome objects as judged).
    """
    candidates = (
        DifficultyTerm("Adversary STR/DEX DM", adversary_chm, "Ch.6 grappling step 1"),
        DifficultyTerm(
            "Adversary unskilled", 0 if adversary_skilled else UNSKILLED, "Ch.6 grappling step 1"
        ),
        DifficultyTerm("Weapons factor", weapon_factor, "Ch.6 grappling step 1"),
        DifficultyTerm(
            f"Maneuver: {maneuver.label}",
            maneuver.difficulty,
            "Ch.6 grappling step 2",
            TermKind.TARGETED,
        ),
    )
    terms = (
        DifficultyTerm("Base difficulty", base, "Ch.6 grappling", TermKind.BASE),
        *(term for term in candidates if term.value != 0),
    )
    return DifficultyBreakdown(terms)


class GrappleEffect(Enum):
    TARGET_LIMB = "target_limb"
    TARGET_EXTREMITY = "target_extremity"
    DAMAGE = "damage"
    BIND = "bind"
    THROW = "throw"
    SWEEP = "sweep"


class GrappleEffectDef(NamedTuple):
    """A row of the grappling effects table.

    ``effect_cost`` is the Success Effect spent after the roll (None = depends on the
    target: see :func:`throw_effect_cost` and :func:`sweep_effect_cost`); ``difficulty``
    is the Difficulty added when declared before the roll instead.
    """

    effect: GrappleEffect
    name: str
    target: str
    effect_cost: int | None
    difficulty: int
    notes: str


GRAPPLE_EFFECTS: tuple[GrappleEffectDef, ...] = (
    GrappleEffectDef(
        GrappleEffect.TARGET_LIMB, "Target Limb", "Limb", 2, 1, "Target a limb with Bind or Damage"
    ),
    GrappleEffectDef(
        GrappleEffect.TARGET_EXTREMITY,
        "Target Extremity",
        "Extremity",
        3,
        2,
        "Target a hand/foot with bind or damage.",
    ),
    GrappleEffectDef(
        GrappleEffect.DAMAGE,
        "Damage",
        "Body, limb or extremity",
        2,
        1,
        "Deal 1d3 damage to the target. Twisting of limbs and extremities; armor does not "
        "affect this damage. No target assumes a body Throw.",
    ),
    GrappleEffectDef(
        GrappleEffect.BIND,
        "Bind",
        "Target",
        2,
        1,
        "Render the target unusable or bound while grappled.",
    ),
    GrappleEffectDef(
        GrappleEffect.THROW,
        "Throws",
        "Body",
        None,
        3,
        "Throw an adversary with Effect equal to 1/6 (round up) their HP. Target is lying "
        "down. Takes 2d3 damage.",
    ),
    GrappleEffectDef(
        GrappleEffect.SWEEP,
        "Sweeps",
        "Legs",
        None,
        2,
        "Throw an adversary with Effect/Diff equal to 1/2 (round up) their Dex. Target is Prone.",
    ),
)

THROW_DAMAGE = DiceExpression(2, 3)
"""Damage a thrown grappling target takes."""
TWIST_DAMAGE = DiceExpression(1, 3)
"""Grappling damage (twisting limbs and extremities); armor does not reduce it."""


def grapple_effect(effect: GrappleEffect) -> GrappleEffectDef:
    return next(row for row in GRAPPLE_EFFECTS if row.effect is effect)


def throw_effect_cost(hp: int) -> int:
    """Success Effect needed to throw an adversary: 1/6 of their HP, rounded up."""
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, got {hp}")
    return math.ceil(Fraction(hp, 6))


def sweep_effect_cost(dex: int) -> int:
    """Success Effect needed to sweep an adversary: 1/2 of their DEX, rounded up."""
    if dex < 0:
        raise ValueError(f"DEX cannot be negative, got {dex}")
    return math.ceil(Fraction(dex, 2))


# --- thrown weapons --------------------------------------------------------------------


def _exact(value: int | float | Fraction | str, what: str) -> Fraction:
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number, got {value!r}")
    try:
        exact = Fraction(str(value)) if isinstance(value, float | str) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{what} must be a number like 0.5 or 1.5, got {value!r}") from None
    if exact < 0:
        raise ValueError(f"{what} cannot be negative, got {value!r}")
    return exact


def thrown_range(strength: int, thrown: int | float | Fraction | str) -> tuple[int, int]:
    """(straight, lobbed) range in whole metres: STR x Thrown, and three times that for a
    lob, each rounded down (Thrown 0.5 at STR 7 is 3 m straight, 10 m lobbed)."""
    straight = _exact(strength, "strength") * _exact(thrown, "the Thrown value")
    return math.floor(straight), math.floor(straight * 3)


# --- extended actions ------------------------------------------------------------------

FIRST_AID_ROUNDS = 30


def extended_action_rounds(median_rounds: int, effect: int) -> int:
    """Rounds an extended task takes after its timing roll (Ch.3 time, rounded up)."""
    return math.ceil(resolve_time(median_rounds, effect))


@dataclass(frozen=True)
class ExtendedAction:
    """A task lasting several rounds (First Aid: 30), advanced one rolled round at a time."""

    total_rounds: int
    remaining_rounds: int
    rounds_taken: int = 0

    def __post_init__(self) -> None:
        if self.total_rounds < 1:
            raise ValueError(f"an extended action lasts at least 1 round, got {self.total_rounds}")
        if not 0 <= self.remaining_rounds <= self.total_rounds:
            raise ValueError(
                f"remaining rounds must be 0..{self.total_rounds}, got {self.remaining_rounds}"
            )
        if self.rounds_taken < 0:
            raise ValueError(f"rounds taken cannot be negative, got {self.rounds_taken}")

    @classmethod
    def start(cls, total_rounds: int) -> ExtendedAction:
        return cls(total_rounds, total_rounds)

    @property
    def done(self) -> bool:
        return self.remaining_rounds == 0

    def advance(self, effect: int) -> ExtendedAction:
        """One more round worked: it counts 1, a Success Effect shortens the rest by its
        degree, a Fail Effect loses that much progress (never more than was made)."""
        if self.done:
            raise ValueError("the extended action is already complete")
        remaining = self.remaining_rounds - 1 - effect
        remaining = max(0, min(self.total_rounds, remaining))
        return ExtendedAction(self.total_rounds, remaining, self.rounds_taken + 1)
