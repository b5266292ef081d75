"""Actions (Ch.6), one import for the whole chapter: the action economy, movement,
initiative, aim, tactics, defend, grappling, targeted attacks, thrown weapons and extended
actions.

Each topic lives in its own module (:mod:`.action_economy`, :mod:`.action_catalog`,
:mod:`.movement`, :mod:`.initiative`, :mod:`.tactics`, :mod:`.aim`, :mod:`.defend`,
:mod:`.hit_locations`, :mod:`.grappling`, :mod:`.thrown`, :mod:`.extended_actions`); this
module gathers their names because the domain and the UI read the chapter as one.
"""

from __future__ import annotations

from mneme_desktop.rules.action_catalog import (
    ACTION_CATALOG,
    ActionDef,
    action_by_key,
)
from mneme_desktop.rules.action_economy import (
    COORDINATING_DIFFICULTY_MAX,
    COORDINATING_DIFFICULTY_MIN,
    MINOR_ACTIONS_PER_ROUND,
    ROUND_SECONDS,
    ActionEconomyError,
    ActionKind,
    ActionOption,
    action_cost,
    can_spend,
    coordinating_difficulty,
    spend,
    supporting_dm,
)
from mneme_desktop.rules.aim import (
    AIM_CAP,
    SPOTTER_CONDITION,
    add_aim,
    aim_after_target_change,
    aim_cap,
    ballistic_correction,
    tracer_aim_bonus,
)
from mneme_desktop.rules.defend import (
    DefenseKind,
    defend_modifier,
    defend_roll_modifier,
)
from mneme_desktop.rules.extended_actions import (
    FIRST_AID_ROUNDS,
    ExtendedAction,
    extended_action_rounds,
)
from mneme_desktop.rules.grappling import (
    GRAPPLE_EFFECTS,
    THROW_DAMAGE,
    TWIST_DAMAGE,
    GrappleEffect,
    GrappleEffectDef,
    GrappleManeuver,
    GrappleWeapon,
    grapple_difficulty,
    grapple_effect,
    grapple_effects_cost,
    grapple_roll_modifier,
    sweep_effect_cost,
    throw_effect_cost,
)
from mneme_desktop.rules.hit_locations import (
    HIT_LOCATIONS,
    BodyArea,
    HitLocation,
    RolledHitLocation,
    hit_location,
    roll_hit_location,
)
from mneme_desktop.rules.initiative import (
    InitiativeRoll,
    ambush_initiative,
    initiative_modifier,
    roll_initiative,
)
from mneme_desktop.rules.movement import (
    Load,
    MovementMode,
    Stance,
    movement_metres,
    movement_spaces,
    seriously_wounded_movement,
    stance_change_cost,
)
from mneme_desktop.rules.tactics import (
    TACTICS_DIFFICULTIES,
    TacticsPool,
    tactics_attempts_allowed,
    tactics_capped_effect,
    tactics_initiative_bonus,
    tactics_max_effect,
    tactics_pool,
)
from mneme_desktop.rules.thrown import (
    thrown_range,
)

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
    "GrappleWeapon",
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
    "grapple_effects_cost",
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
