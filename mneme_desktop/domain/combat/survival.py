"""What wounds do between blows: bleeding a point a minute, the dying roll each round and
the massive-damage roll, with the wound penalties in their DMs.
"""

from __future__ import annotations

from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import (
    Character,
    Characteristic,
    Condition,
    ConditionKind,
    DamageRecord,
)
from mneme_desktop.domain.combat.common import CombatError, _combatant, _signed, _state, _state_note
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.domain.roll_terms import survival_terms, terms_text
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.rules.checks import check_from
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.wounds import (
    BLEED_INTERVAL_ROUNDS,
    DYING_DIFFICULTY,
    MASSIVE_DAMAGE_DIFFICULTY,
    SurvivalRoll,
    WoundState,
    bleeding_damage_between,
    dying_survival_chance,
    massive_damage_survival_chance,
)

MASSIVE_DUE_ACTION = "Massive damage"
"""The log's action for a massive-damage roll left to the table (see ``attack_apply``)."""
MASSIVE_ROLL_ACTION = "Massive damage roll"


def survival_chance(character: Character, dying: bool) -> Fraction:
    """The exact chance that ``character`` survives a dying roll (END vs 4) or a
    massive-damage roll (END vs 8) made now, wound penalties counted (Ch.7): the rules
    core's :func:`~mneme_desktop.rules.wounds.dying_survival_chance` and
    :func:`~mneme_desktop.rules.wounds.massive_damage_survival_chance`."""
    endurance = character.characteristic(Characteristic.END) or 0
    if dying:
        return dying_survival_chance(endurance, character.damage)
    return massive_damage_survival_chance(endurance, character.damage)


def massive_roll_due(encounter: Encounter, combatant_id: str) -> bool:
    """A massive-damage roll was left to the table for this combatant (damage typed over
    HP) and has not been entered since: the log is the record."""
    for entry in reversed(encounter.log):
        if entry.target_id != combatant_id:
            continue
        if entry.action == MASSIVE_ROLL_ACTION:
            return False
        if entry.action == MASSIVE_DUE_ACTION:
            return True
    return False


def bleeding_ticks(
    condition: Condition, encounter: Encounter, from_round: int, to_round: int,
    from_time: GameTime, to_time: GameTime,
) -> int:
    """Points bled between two moments: 1 a minute, the first a minute after the wound.

    A wound taken in this encounter counts in rounds (10 rounds a minute, from its round);
    one from elsewhere counts in game time from when it started.
    """
    if condition.kind is not ConditionKind.BLEEDING:
        return 0
    if condition.encounter_id == encounter.id and condition.started_round is not None:
        return bleeding_damage_between(condition.started_round, from_round, to_round)
    if condition.started_at is None:
        return 0
    start = condition.started_at.total_seconds
    minute = BLEED_INTERVAL_ROUNDS * ROUND_SECONDS

    def ticks(moment: GameTime) -> int:
        return max(0, (moment.total_seconds - start) // minute)

    return ticks(to_time) - ticks(from_time)


def _bleed(
    builder: PatchBuilder, combatant: Combatant, points: int, round_number: int, now: GameTime
) -> None:
    before = _state(builder.campaign, builder.character(combatant))
    character = builder.edit_character(combatant)
    character.damage += points
    character.damage_history.append(
        DamageRecord(amount=points, source="Bleeding", at=now, round=round_number,
                     encounter_id=builder.encounter.id)
    )
    after = _state(builder.campaign, character)
    changes = [_state_note(character, after)] if after is not before else []
    builder.log(
        actor="Bleeding", target_id=combatant.id, target=character.name, action="Bleeding",
        damage=[1] * points, state_changes=changes,
        text=f"{character.name} bleeds: {points} damage (1 a minute until first aid)",
    )


def _dying_outcome(
    builder: PatchBuilder, combatant: Combatant, roll: SurvivalRoll, how: str
) -> None:
    character = builder.character(combatant)
    check = roll.check
    changes = []
    if not roll.survived:
        edited = builder.edit_character(combatant)
        edited.conditions.append(
            Condition(kind=ConditionKind.DEAD, detail="failed dying roll",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        changes.append(f"{character.name}: Dead")
    chance = chance_text(survival_chance(character, True))
    verdict = "survives the round" if roll.survived else "dies"
    builder.log(
        actor=character.name, actor_id=combatant.id, target_id=combatant.id,
        target=character.name, action="Dying roll", dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=changes,
        text=f"Dying roll ({how}): DM {_signed(check.modifier)} "
        f"({terms_text(survival_terms(character))}) vs "
        f"{DYING_DIFFICULTY}: {check.total}, {character.name} {verdict} "
        f"(chance to survive was {chance})",
    )


def _roll_survival(character: Character, difficulty: int, source: DiceSource) -> SurvivalRoll:
    """A dying (vs 4) or massive-damage (vs 8) roll: END DM with the wounds of
    :func:`~mneme_desktop.domain.roll_terms.survival_terms`, from either dice source."""
    modifier = sum(term.value for term in survival_terms(character))
    return SurvivalRoll(check_from(source, modifier, difficulty))


def dying_roll_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, source: DiceSource,
) -> EncounterPatch:
    """This round's dying roll (END vs 4 with wound penalties), rolled or from the table."""
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    if _state(campaign, character) is not WoundState.DYING:
        raise CombatError(f"{character.name} is not dying")
    roll = _roll_survival(character, DYING_DIFFICULTY, source)
    builder = PatchBuilder(campaign, encounter)
    _dying_outcome(builder, combatant, roll, source.how)
    return builder.build(f"{character.name}: dying roll")


def _massive_outcome(
    builder: PatchBuilder, combatant: Combatant, roll: SurvivalRoll, how: str
) -> list[str]:
    chance = chance_text(survival_chance(builder.character(combatant), False))
    character = builder.edit_character(combatant)
    if roll.survived:
        character.conditions.append(
            Condition(kind=ConditionKind.CRIPPLED, detail="massive damage",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        result = [f"{character.name}: survives massive damage, Crippled"]
    else:
        character.conditions.append(
            Condition(kind=ConditionKind.DEAD, detail="massive damage",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        result = [f"{character.name}: Dead (massive damage)"]
    check = roll.check
    builder.log(
        actor=character.name, actor_id=combatant.id, target_id=combatant.id,
        target=character.name, action=MASSIVE_ROLL_ACTION, dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=result,
        text=f"Massive damage roll ({how}): DM {_signed(check.modifier)} "
        f"({terms_text(survival_terms(character))}) vs {MASSIVE_DAMAGE_DIFFICULTY}: "
        f"{check.total} (chance to survive was {chance})",
    )
    return result


def massive_damage_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, source: DiceSource,
) -> EncounterPatch:
    """A massive-damage roll (END vs 8 with wound penalties) asked for by the referee."""
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    roll = _roll_survival(character, MASSIVE_DAMAGE_DIFFICULTY, source)
    builder = PatchBuilder(campaign, encounter)
    _massive_outcome(builder, combatant, roll, source.how)
    return builder.build(f"{character.name}: massive damage roll")
