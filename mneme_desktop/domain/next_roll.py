"""What waits on a combatant's next roll: a grapple's advantage or disadvantage (Ch.6: "on
the next round") and a supporter's Success Effect (Ch.6 supporting actions), counted the
way a roll takes them.

Every roll a combatant makes in the fight (an attack or defence in the resolver, a grapple,
a quick check) counts the live terms and uses them up in the same step
(:mod:`mneme_desktop.domain.combat.next_roll` builds those steps), so the referee never has
to remember them; a term past its last round is no longer live and is cleared with the
next roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mneme_desktop.domain.encounter import (
    Combatant,
    Encounter,
    NextRollKind,
    NextRollTerm,
    Side,
    SideTactics,
)
from mneme_desktop.domain.roll_terms import Modifier
from mneme_desktop.rules.checks import effect_distribution, net_advantage, success_chance

__all__ = [
    "GRAPPLE_RULE",
    "SUPPORT_RULE",
    "DeclaredCheck",
    "NextRoll",
    "live_next_roll",
    "next_roll_of",
    "next_roll_text",
    "side_tactics",
    "tactics_after_spending",
    "tactics_text",
]

GRAPPLE_RULE = "Ch.6 grappling step 3: on the next round"
SUPPORT_RULE = "Ch.6 supporting action: the supporter's Success Effect"


def _live(encounter: Encounter, term: NextRollTerm) -> bool:
    return term.last_round is None or encounter.round <= term.last_round


def live_next_roll(encounter: Encounter, combatant: Combatant) -> tuple[NextRollTerm, ...]:
    """The terms still waiting on the combatant's next roll (not past their last round)."""
    return tuple(term for term in combatant.next_roll if _live(encounter, term))


@dataclass(frozen=True)
class NextRoll:
    """The live terms of a combatant's next roll, counted the way a roll takes them."""

    terms: tuple[NextRollTerm, ...] = ()

    @property
    def advantages(self) -> int:
        return sum(t.value for t in self.terms if t.kind is NextRollKind.ADVANTAGE)

    @property
    def disadvantages(self) -> int:
        return sum(t.value for t in self.terms if t.kind is NextRollKind.DISADVANTAGE)

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """The DMs (a supporter's Effect), each named after who gave it."""
        return tuple(Modifier(t.source or "Support", t.value, SUPPORT_RULE)
                     for t in self.terms if t.kind is NextRollKind.DM)

    @property
    def dm(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def text(self) -> str:
        """"advantage (won the grapple with Raider 1); DM +2 (support from Ilse Brandt)"."""
        return "; ".join(next_roll_text(t) for t in self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms)


class DeclaredCheck:
    """A combatant's check declared before its roll (a Dash or Run's Athletics, a supporting
    action, a grapple): ``modifiers`` against ``difficulty_total``, with the advantage that
    waits on their ``next_roll``; the odds from the rules core. One reading of the odds for
    every such spec (a frozen dataclass that mixes this in)."""

    modifiers: tuple[Modifier, ...]
    next_roll: NextRoll

    @property
    def difficulty_total(self) -> int:
        raise NotImplementedError

    @property
    def roll_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def advantage(self) -> int:
        """Net advantage (positive) or disadvantage (negative) of the roll."""
        return net_advantage(self.next_roll.advantages, self.next_roll.disadvantages)

    @property
    def chance(self) -> Fraction:
        return success_chance(self.roll_modifier, self.difficulty_total, self.advantage)

    def chance_of_effect(self, at_least: int) -> Fraction:
        """The chance of a Success Effect of ``at_least`` or more."""
        odds = effect_distribution(self.roll_modifier, self.difficulty_total, self.advantage)
        return sum((p for effect, p in odds.items() if effect >= at_least), Fraction(0))


def next_roll_of(encounter: Encounter, combatant: Combatant) -> NextRoll:
    return NextRoll(live_next_roll(encounter, combatant))


def next_roll_text(term: NextRollTerm) -> str:
    """One term as the log and the panel say it."""
    if term.kind is NextRollKind.DM:
        what = f"DM {term.value:+d}"
    else:
        what = term.kind.value if term.value == 1 else f"{term.value} {term.kind.value}s"
    return f"{what} ({term.source})" if term.source else what


# --- a side's Tactics rolls (Ch.6 Tactics skill) -------------------------------------------


def side_tactics(encounter: Encounter, side: Side) -> SideTactics | None:
    """The side's Tactics pool with rolls left to spend, or None."""
    return next((pool for pool in encounter.tactics if pool.side is side and pool.left), None)


def tactics_text(pool: SideTactics) -> str:
    """"2 of 4 advantage rolls left (Mara Vey's Tactics at 10)"."""
    kind = pool.kind.value
    return (f"{pool.left} of {pool.granted} {kind} roll{'s' if pool.granted != 1 else ''} "
            f"left ({pool.leader}'s Tactics at {pool.difficulty})")


def tactics_after_spending(encounter: Encounter, side: Side) -> list[SideTactics]:
    """The encounter's pools once one roll of ``side``'s is spent (ValueError: none left)."""
    pool = side_tactics(encounter, side)
    if pool is None:
        raise ValueError(f"the {side.label} have no Tactics rolls left")
    return [p.model_copy(update={"left": p.left - 1}) if p is pool else p
            for p in encounter.tactics]
