"""Every action of the Ch.6 tables as data, so the UI can list them and name the row used."""

from __future__ import annotations

from typing import NamedTuple

from mneme_desktop.rules.action_economy import ActionKind

__all__ = [
    "ACTION_CATALOG",
    "ActionDef",
    "action_by_key",
]

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
