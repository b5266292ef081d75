"""What a combatant's row shows: wound state, condition timers, whether they can act and
whether a dying roll is due, computed from stored inputs only.
"""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character, Condition, ConditionKind
from mneme_desktop.domain.combat.common import _has_active, _state
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.roll_terms import wound_modifier
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.rules.wounds import (
    BLEED_INTERVAL_ROUNDS,
    WoundState,
    WoundThresholds,
    next_bleed_round,
    wound_effects,
    wound_state,
    wound_thresholds,
)


def can_act(
    campaign: Campaign, combatant: Combatant, character: Character | None = None,
    state: WoundState | None = None,
) -> bool:
    """Whether the combatant can take a turn: not out of the fight, dead or unconscious.

    Next turn passes over those who cannot act; the unconscious are the critically wounded
    and dying (Ch.7) and anyone the referee marked Unconscious. ``character`` is the sheet
    to judge by (default: the campaign's) and ``state`` its wound state, if known.
    """
    if combatant.out_of_fight:
        return False
    if character is None:
        character = campaign.combatant_character(combatant)
    if state is None:
        state = _state(campaign, character)
    if state is WoundState.DEAD or not wound_effects(state).conscious:
        return False
    return not character.has_condition(ConditionKind.UNCONSCIOUS)


@dataclass(frozen=True)
class CombatantStatus:
    """What a combatant's row shows, computed from stored inputs only."""

    name: str
    state: WoundState
    damage: int
    hp: int
    thresholds: WoundThresholds
    penalty: int
    conditions: tuple[str, ...]
    can_act: bool
    dying_roll_due: bool


def _condition_text(
    condition: Condition, encounter: Encounter, now: GameTime, round_number: int
) -> str:
    label = condition.label
    same_fight = condition.encounter_id == encounter.id and condition.started_round is not None
    if condition.kind is ConditionKind.BLEEDING:
        if same_fight and condition.started_round is not None:
            start = condition.started_round
            due = next_bleed_round(start, round_number)
            return f"{label} (-1 in {due - round_number} rd)"
        if condition.started_at is not None:
            minute = BLEED_INTERVAL_ROUNDS * ROUND_SECONDS
            elapsed = now.total_seconds - condition.started_at.total_seconds
            left = minute - elapsed % minute if elapsed >= 0 else minute - elapsed
            return f"{label} (-1 in {-(-left // ROUND_SECONDS)} rd)"
        return label
    if condition.expires_at is not None:
        seconds = now.seconds_until(condition.expires_at)
        if seconds <= 0:
            return f"{label} (expired)"
        if seconds >= 3600:
            return f"{label} ({seconds // 3600} h {seconds % 3600 // 60} min left)"
        return f"{label} ({max(1, seconds // ROUND_SECONDS)} rd left)"
    if condition.kind is ConditionKind.DEAD:
        return label
    if same_fight and condition.started_round is not None:
        return f"{label} ({round_number - condition.started_round} rd)"
    return label


def dying_roll_due(
    campaign: Campaign, encounter: Encounter, combatant: Combatant,
    character: Character | None = None, state: WoundState | None = None,
) -> bool:
    """Dying and not yet rolled for this round (the log is the record of rolls made)."""
    if not encounter.started or encounter.ended or combatant.out_of_fight:
        return False
    if character is None:
        character = campaign.combatant_character(combatant)
    if state is None:
        state = _state(campaign, character)
    if state is not WoundState.DYING:
        return False
    if _has_active(character, ConditionKind.STABILISED, campaign.game_time):
        return False
    return not any(
        entry.round == encounter.round
        and entry.target_id == combatant.id
        and entry.action == "Dying roll"
        for entry in reversed(encounter.log)
    )


def combatant_status(
    campaign: Campaign, encounter: Encounter, combatant: Combatant,
    character: Character | None = None,
) -> CombatantStatus:
    """Name, wound state and the conditions with their timers for a combatant's row."""
    if character is None:
        character = campaign.combatant_character(combatant)
    hp = character.hit_points
    thresholds = wound_thresholds(hp, campaign.rules_options.threshold_basis,
                                  character.characteristics.physical)
    dead = character.has_condition(ConditionKind.DEAD)
    state = WoundState.DEAD if dead else wound_state(character.damage, hp, thresholds)
    now = campaign.game_time
    texts = [_condition_text(c, encounter, now, encounter.round) for c in character.conditions]
    if state is not WoundState.DEAD and not wound_effects(state).conscious:
        texts.insert(0, f"Unconscious ({state.label.lower()})")
    return CombatantStatus(
        name=character.name,
        state=state,
        damage=character.damage,
        hp=hp,
        thresholds=thresholds,
        penalty=wound_modifier(character),
        conditions=tuple(texts),
        can_act=can_act(campaign, combatant, character, state),
        dying_roll_due=dying_roll_due(campaign, encounter, combatant, character, state),
    )
