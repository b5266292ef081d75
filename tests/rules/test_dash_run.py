"""Dash and Run (Ch.6): the Athletics Difficulty and the moving target's condition."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.checks import TermKind
from mneme_desktop.rules.dash_run import (
    ATHLETICS,
    dash_run_difficulty,
    moving_target_condition,
)
from mneme_desktop.rules.movement import MovementMode


def test_eight_plus_conditions_or_the_threats_dm_under_fire() -> None:
    assert ATHLETICS == "Athletics"
    assert dash_run_difficulty(MovementMode.DASH).total == 8
    rubble = dash_run_difficulty(MovementMode.RUN, conditions=2)
    assert [(t.label, t.value) for t in rubble.terms] == [("Base difficulty", 8),
                                                          ("Obstacles, bad footing", 2)]
    fire = dash_run_difficulty(MovementMode.DASH, conditions=2, threats_dm=3)
    assert fire.total == 11 and fire.total_of(TermKind.CONDITION) == 3


def test_only_a_dash_or_run_and_never_easier() -> None:
    with pytest.raises(ValueError, match="only a Dash or a Run"):
        dash_run_difficulty(MovementMode.MOVE)
    with pytest.raises(ValueError, match="not easier"):
        dash_run_difficulty(MovementMode.DASH, conditions=-1)


def test_a_mover_is_harder_to_hit() -> None:
    assert moving_target_condition(MovementMode.MOVE) == 0
    assert moving_target_condition(MovementMode.DASH) == 1
    assert moving_target_condition(MovementMode.RUN) == 2
