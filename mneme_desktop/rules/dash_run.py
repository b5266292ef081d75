"""Dash and Run (Ch.6): the Athletics check when terrain or fire calls for it, and a
runner's movement as a condition on attacks against them.

"Roll athletics against Difficulty 8 + Conditions if there are Obstacles or bad footing.
The difficulty may be replaced by Adversaries or Threats DM if the character is Under Fire."
The project reads the second sentence as the threats' DM taking the place of the
conditions' term (8 + the threats' DM), so the 8 stays the Average base of every check.

"Running grants a Move Difficulty Adversary Condition which becomes a Defense Modifier";
a Dash "makes the PC/Adversary harder to hit". The chapter gives no number: the project's
reading is +1 for a Dash and +2 for a Run (a Run covers half as much ground again), a
condition added to the Difficulty of attacks on the mover in the round they moved.
"""

from __future__ import annotations

from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    DifficultyBreakdown,
    DifficultyTerm,
    TermKind,
)
from mneme_desktop.rules.movement import MovementMode

__all__ = [
    "ATHLETICS",
    "MOVING_TARGET",
    "dash_run_difficulty",
    "moving_target_condition",
]

ATHLETICS = "Athletics"
"""The skill of a Dash or Run through obstacles, bad footing or fire."""

MOVING_TARGET: dict[MovementMode, int] = {MovementMode.DASH: 1, MovementMode.RUN: 2}
"""The condition a Dash or a Run adds to attacks on the mover (the project's reading)."""


def dash_run_difficulty(mode: MovementMode, conditions: int = 0,
                        threats_dm: int | None = None) -> DifficultyBreakdown:
    """The Athletics Difficulty of a Dash or Run: 8 + the conditions (obstacles, bad
    footing), or under fire 8 + the adversaries' or threats' DM in their place."""
    if mode is MovementMode.MOVE:
        raise ValueError("a minor Move needs no Athletics check: only a Dash or a Run")
    if conditions < 0:
        raise ValueError(f"conditions make a Dash or Run harder, not easier: {conditions}")
    terms = [DifficultyTerm("Base difficulty", DEFAULT_DIFFICULTY, "Ch.6 dash and run",
                            TermKind.BASE)]
    if threats_dm is not None:
        terms.append(DifficultyTerm("Under fire (the threats' DM)", threats_dm,
                                    "Ch.6 dash: replaced by the threats' DM under fire",
                                    TermKind.CONDITION))
    elif conditions:
        terms.append(DifficultyTerm("Obstacles, bad footing", conditions,
                                    "Ch.6 dash: 8 + conditions", TermKind.CONDITION))
    return DifficultyBreakdown(tuple(terms))


def moving_target_condition(mode: MovementMode) -> int:
    """What a Dash or a Run this round adds to attacks on the mover (0 for a Move)."""
    return MOVING_TARGET.get(mode, 0)
