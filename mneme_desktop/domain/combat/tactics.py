"""Tactics as Ch.6 has it: a check at a declared risk (6, 8, 10 or 12) whose capped Effect
becomes the side's pool of advantage (or, failed, disadvantage) rolls, spent one by one on
the side's rolls, re-tried only once the pool is spent and while the leader's attempts are
fewer than their Tactics skill + 1 (or the battle has changed a lot, by the referee's word);
or the Effect added to the unit's initiative (Ch.6 initiative), or both from one check.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.common import CombatError, _combatant, _name, _signed
from mneme_desktop.domain.combat.edits import EncounterPatch, Patch, PatchBuilder
from mneme_desktop.domain.combat.initiative import tactics_modifier, tactics_patch
from mneme_desktop.domain.combat.next_roll import spend_tactics_roll
from mneme_desktop.domain.encounter import Combatant, Encounter, NextRollKind, SideTactics
from mneme_desktop.domain.next_roll import side_tactics, tactics_text
from mneme_desktop.rules.actions import ActionKind
from mneme_desktop.rules.checks import check_from
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.tactics import tactics_attempts_allowed, tactics_pool

__all__ = [
    "TacticsUse",
    "spend_tactics_roll",
    "tactics_attempts",
    "tactics_check_patch",
]


class TacticsUse(Enum):
    """What a Tactics check's Effect buys."""

    POOL = "pool"
    """Ch.6 Tactics skill: advantage or disadvantage rolls for the side."""
    INITIATIVE = "initiative"
    """Ch.6 initiative: the Effect added to the initiative of the unit in communication."""
    BOTH = "both"


def tactics_attempts(campaign: Campaign, combatant: Combatant) -> tuple[int, int]:
    """(attempts made, attempts allowed) of a leader's Tactics checks for the pool this
    fight: skill + 1 (the project's reading for no Tactics skill: one attempt, at -3)."""
    level = campaign.combatant_character(combatant).skill_level("Tactics")
    return combatant.tactics_attempts, tactics_attempts_allowed(level or 0)


def tactics_check_patch(
    campaign: Campaign,
    encounter: Encounter,
    leader_id: str,
    declared_difficulty: int,
    source: DiceSource,
    unit_ids: Sequence[str] = (),
    modifier: int | None = None,
    use: TacticsUse = TacticsUse.POOL,
    battle_changed: bool = False,
) -> EncounterPatch:
    """One Tactics check, rolled once, its capped Effect put to ``use``: the side's pool,
    the unit's initiative, or both. A new pool is refused while the side's last is unspent
    and, past the leader's attempts, unless the referee says the battle changed a lot."""
    leader = _combatant(encounter, leader_id)
    if modifier is None:
        modifier = tactics_modifier(campaign.combatant_character(leader))
    if use is TacticsUse.INITIATIVE:
        return tactics_patch(campaign, encounter, leader_id, declared_difficulty, source,
                             unit_ids, modifier)
    name = _name(campaign, leader)
    waiting = side_tactics(encounter, leader.side)
    if waiting is not None:
        raise CombatError(f"the {leader.side.label}' Tactics rolls are not used up yet: "
                          f"{tactics_text(waiting)}")
    made, allowed = tactics_attempts(campaign, leader)
    if made >= allowed and not battle_changed:
        raise CombatError(f"{name} has made {made} of {allowed} Tactics attempts (skill + 1): "
                          "another only if the battle has changed a lot")
    check = check_from(source, modifier, declared_difficulty)
    pool = tactics_pool(check.effect, declared_difficulty)
    granted = pool.advantages or pool.disadvantages
    kind = NextRollKind.ADVANTAGE if pool.advantages or check.success else \
        NextRollKind.DISADVANTAGE
    builder = PatchBuilder(campaign, encounter)
    builder.set(leader, "tactics_attempts", made + 1)
    side_pool = SideTactics(side=leader.side, leader_id=leader.id, leader=name,
                            difficulty=declared_difficulty, kind=kind, granted=granted,
                            left=granted)
    builder.set_encounter("tactics", [*(p for p in encounter.tactics if p.side is not
                                        leader.side), side_pool])
    again = " (the battle changed)" if made >= allowed else ""
    rolls = (f"the {leader.side.label} gain {granted} {kind.value} roll"
             f"{'s' if granted != 1 else ''}" if granted else "no rolls either way")
    text = (f"Tactics at Difficulty {declared_difficulty}, attempt {made + 1} of "
            f"{allowed}{again}: {'+'.join(map(str, check.dice))} {_signed(check.modifier)} = "
            f"{check.total}, Effect {_signed(check.effect)}, capped to "
            f"{_signed(pool.advantages - pool.disadvantages)}: {rolls}")
    builder.log(actor_id=leader.id, actor=name, action="Tactics",
                action_kind=ActionKind.SIGNIFICANT, dice=list(check.dice),
                modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
                text=text)
    patch = builder.build(f"{name}: Tactics, {rolls}")
    if use is TacticsUse.POOL:
        return patch
    # Both: the same dice add the capped Effect to the unit's initiative too.
    initiative = tactics_patch(campaign, encounter, leader_id, declared_difficulty,
                               DiceSource.table(check.dice), unit_ids, modifier)
    return Patch(patch.text, (*initiative.edits, *patch.edits), None, encounter.id)
