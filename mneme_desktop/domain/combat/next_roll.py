"""The steps on what waits on a combatant's next roll (:mod:`mneme_desktop.domain.next_roll`
counts it): granting a term, using them up with the roll, striking one off."""

from __future__ import annotations

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.common import CombatError, _combatant, _name
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter, NextRollTerm, SideTactics
from mneme_desktop.domain.next_roll import (
    GRAPPLE_RULE,
    SUPPORT_RULE,
    NextRoll,
    live_next_roll,
    next_roll_of,
    next_roll_text,
    side_tactics,
    tactics_after_spending,
    tactics_text,
)

__all__ = [
    "GRAPPLE_RULE",
    "SUPPORT_RULE",
    "NextRoll",
    "drop_next_roll_patch",
    "grant_next_roll",
    "live_next_roll",
    "next_roll_of",
    "next_roll_text",
    "side_tactics",
    "spend_next_roll",
    "spend_tactics_roll",
    "tactics_text",
]


def grant_next_roll(builder: PatchBuilder, combatant: Combatant, term: NextRollTerm) -> None:
    """Add ``term`` to what waits on the combatant's next roll, in this step."""
    current = builder.get(combatant, "next_roll")
    assert isinstance(current, list)
    builder.set(combatant, "next_roll", [*current, term])


def spend_next_roll(builder: PatchBuilder, combatant: Combatant,
                    kept: tuple[NextRollTerm, ...] = ()) -> None:
    """The combatant's next roll is made in this step: every term is used up (or, past its
    last round, cleared), except ``kept`` (offered terms the referee left for later)."""
    current = builder.get(combatant, "next_roll")
    assert isinstance(current, list)
    left = [term for term in current if term in kept]
    if left != current:
        builder.set(combatant, "next_roll", left)


def drop_next_roll_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, index: int
) -> EncounterPatch:
    """The referee strikes one term off the combatant's next roll (a support that no longer
    applies, an advantage the situation took away)."""
    combatant = _combatant(encounter, combatant_id)
    if not 0 <= index < len(combatant.next_roll):
        raise CombatError("choose what to take off the next roll")
    term = combatant.next_roll[index]
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "next_roll",
                [t for i, t in enumerate(combatant.next_roll) if i != index])
    name = _name(campaign, combatant)
    text = f"{name}: {next_roll_text(term)} taken off the next roll"
    builder.log(actor_id=combatant.id, actor=name, action="Next roll", text=text)
    return builder.build(text)


def spend_tactics_roll(builder: PatchBuilder, combatant: Combatant) -> SideTactics:
    """Spend one roll of the combatant's side's Tactics pool in this step; the pool it came
    from (CombatError when the side has none left)."""
    encounter = builder.encounter
    pool = side_tactics(encounter, combatant.side)
    try:
        builder.set_encounter("tactics", tactics_after_spending(encounter, combatant.side))
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    assert pool is not None
    return pool
