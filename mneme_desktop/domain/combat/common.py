"""Small helpers every combat topic shares: the refusal error, finding a combatant,
names, wound states and the text of signed numbers and lists.

Kept apart so the topic modules depend on this and on :mod:`.edits`, never on each other
in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, ConditionKind
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.rules.wounds import WoundState


class CombatError(ValueError):
    """Something the referee asked for that the rules or the state refuse; says why."""


def _combatant(encounter: Encounter, combatant_id: str) -> Combatant:
    found = encounter.find_combatant(combatant_id)
    if found is None:
        raise CombatError("that combatant is no longer in this encounter")
    return found


def _name(campaign: Campaign, combatant: Combatant) -> str:
    return campaign.combatant_character(combatant).name


def _state(campaign: Campaign, character: Character) -> WoundState:
    return character.wound_state(campaign.rules_options.threshold_basis)


def _state_note(character: Character, state: WoundState) -> str:
    extra = {
        WoundState.CRITICALLY_WOUNDED: " (unconscious)",
        WoundState.DYING: " (END roll vs 4 each round)",
    }.get(state, "")
    return f"{character.name}: {state.label}{extra}"


def _has_active(character: Character, kind: ConditionKind, now: GameTime) -> bool:
    return any(c.kind is kind and not c.expired(now) for c in character.conditions)


def _signed(value: int) -> str:
    return f"{value:+d}"


def _join(items: Iterable[object]) -> str:
    return ", ".join(str(i) for i in items)


def _sorted_order(combatants: Iterable[Combatant]) -> list[Combatant]:
    """Initiative order as :meth:`Encounter.initiative_order` sorts it."""
    return sorted(combatants, key=lambda c: (c.initiative is None, -(c.initiative or 0)))
