"""Combat at the table: the rules core combined into turns, attacks, ticks and their log.

Nothing here changes the campaign directly. Every operation reads the campaign and returns
an :class:`EncounterPatch`: a short list of small, exact, reversible edits (a field of one
combatant, one character sheet, a few log entries). The UI pushes a patch as one undo step,
so undo restores exactly what was there, and a turn in a 200-combatant fight costs what the
handful of things it touches cost, never a copy of the campaign.

Decisions the chapters leave open are written on the function that makes them, so a referee
can see which rule produced a number.

One module per topic (edits, status, roster, initiative, turns, survival, conditions,
actions, tasks, attack_spec/_resolve/_apply, log); callers import from the package.
"""

from __future__ import annotations

from mneme_desktop.domain.combat.actions import (
    PlanOutcome,
    aim_patch,
    move_patch,
    movement_options,
    movement_scale_patch,
    stance_patch,
    take_action_patch,
)
from mneme_desktop.domain.combat.aiming import (
    correctable_shot,
    correction_patch,
    shift_aim_patch,
)
from mneme_desktop.domain.combat.attack_apply import attack_patch
from mneme_desktop.domain.combat.attack_resolve import (
    AttackOdds,
    AttackOutcome,
    Harm,
    TargetHit,
    attack_check,
    attack_odds,
    damage_from_values,
    locate_hits,
    location_sources,
    resolve_attack,
)
from mneme_desktop.domain.combat.attack_spec import (
    AttackMode,
    AttackRequest,
    AttackSpec,
    AttackTarget,
    Defence,
    HelplessTarget,
    ReturnFire,
    armor_of,
    build_attack,
    helpless_target,
)
from mneme_desktop.domain.combat.common import CombatError
from mneme_desktop.domain.combat.conditions import (
    add_condition_patch,
    remove_condition_patch,
    set_damage_patch,
)
from mneme_desktop.domain.combat.edits import (
    AppendLog,
    EncounterPatch,
    InsertCombatant,
    MoveCombatant,
    PatchBuilder,
    RemoveCombatant,
    ReplaceSheet,
    SetClock,
    SetCombatantField,
    SetEncounterField,
)
from mneme_desktop.domain.combat.initiative import (
    ambush_patch,
    initiative_from_text,
    initiative_patch,
    initiative_skill_choices,
    initiative_skill_patch,
    initiative_ties,
    move_in_ties_patch,
    own_initiative_skill,
    roll_initiative_patch,
    tactics_modifier,
    tactics_patch,
)
from mneme_desktop.domain.combat.log import format_log_entry, log_as_text
from mneme_desktop.domain.combat.roster import (
    add_adversaries_patch,
    add_characters_patch,
    note_patch,
    remove_combatants_patch,
    set_cover_patch,
    set_out_of_fight_patch,
    set_revealed_many_patch,
    set_revealed_patch,
    set_side_patch,
)
from mneme_desktop.domain.combat.status import (
    CombatantStatus,
    can_act,
    combatant_status,
    dying_roll_due,
)
from mneme_desktop.domain.combat.survival import (
    bleeding_ticks,
    dying_roll_patch,
    massive_damage_patch,
    massive_roll_due,
    survival_chance,
)
from mneme_desktop.domain.combat.tasks import (
    TaskTiming,
    abort_task_patch,
    first_aid_modifier,
    roll_task_timing,
    start_task_patch,
    task_skill_modifier,
    work_task_patch,
)
from mneme_desktop.domain.combat.things import (
    ThingInitiative,
    add_campaign_thing_patch,
    add_things_patch,
    cover_of,
    crew_patch,
    remove_thing_patch,
    set_thing_side_patch,
    take_cover_patch,
    thing_entry,
    thing_initiative,
)
from mneme_desktop.domain.combat.turns import (
    delay_patch,
    end_encounter_patch,
    end_round_patch,
    loose_ends,
    next_turn_patch,
    previous_turn_patch,
    start_patch,
)
from mneme_desktop.domain.roll_terms import Modifier

# ActionOption and check_from_dice: reached as ``combat.X`` by callers since the single module.
from mneme_desktop.rules.actions import ActionOption as ActionOption
from mneme_desktop.rules.checks import check_from_dice as check_from_dice
from mneme_desktop.rules.dice import (
    DiceSource,
    parse_dice_source,
    parse_dice_values,
    parse_roll_groups,
)

__all__ = [
    "AppendLog",
    "AttackMode",
    "AttackOdds",
    "AttackOutcome",
    "AttackRequest",
    "AttackSpec",
    "AttackTarget",
    "CombatError",
    "CombatantStatus",
    "Defence",
    "DiceSource",
    "EncounterPatch",
    "Harm",
    "HelplessTarget",
    "InsertCombatant",
    "Modifier",
    "MoveCombatant",
    "PatchBuilder",
    "PlanOutcome",
    "RemoveCombatant",
    "ReplaceSheet",
    "ReturnFire",
    "SetClock",
    "SetCombatantField",
    "SetEncounterField",
    "TargetHit",
    "TaskTiming",
    "ThingInitiative",
    "abort_task_patch",
    "add_adversaries_patch",
    "add_campaign_thing_patch",
    "add_characters_patch",
    "add_condition_patch",
    "add_things_patch",
    "aim_patch",
    "ambush_patch",
    "armor_of",
    "attack_check",
    "attack_odds",
    "attack_patch",
    "bleeding_ticks",
    "build_attack",
    "can_act",
    "combatant_status",
    "correctable_shot",
    "correction_patch",
    "cover_of",
    "crew_patch",
    "damage_from_values",
    "delay_patch",
    "dying_roll_due",
    "dying_roll_patch",
    "end_encounter_patch",
    "end_round_patch",
    "first_aid_modifier",
    "format_log_entry",
    "helpless_target",
    "initiative_from_text",
    "initiative_patch",
    "initiative_skill_choices",
    "initiative_skill_patch",
    "initiative_ties",
    "locate_hits",
    "location_sources",
    "log_as_text",
    "loose_ends",
    "massive_damage_patch",
    "massive_roll_due",
    "move_in_ties_patch",
    "move_patch",
    "movement_options",
    "movement_scale_patch",
    "next_turn_patch",
    "note_patch",
    "own_initiative_skill",
    "parse_dice_source",
    "parse_dice_values",
    "parse_roll_groups",
    "previous_turn_patch",
    "remove_combatants_patch",
    "remove_condition_patch",
    "remove_thing_patch",
    "resolve_attack",
    "roll_initiative_patch",
    "roll_task_timing",
    "set_cover_patch",
    "set_damage_patch",
    "set_out_of_fight_patch",
    "set_revealed_many_patch",
    "set_revealed_patch",
    "set_side_patch",
    "set_thing_side_patch",
    "shift_aim_patch",
    "stance_patch",
    "start_patch",
    "start_task_patch",
    "survival_chance",
    "tactics_modifier",
    "tactics_patch",
    "take_action_patch",
    "take_cover_patch",
    "task_skill_modifier",
    "thing_entry",
    "thing_initiative",
    "work_task_patch",
]
