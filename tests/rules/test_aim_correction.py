"""Ch.6 ballistic correction, with and without tracer rounds, within the aim cap."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.aim import AIM_CAP, corrected_aim


def test_seen_impacts_keep_last_rounds_aim_and_add_one() -> None:
    assert corrected_aim(2) == 3
    assert corrected_aim(0) == 1
    assert corrected_aim(AIM_CAP) == AIM_CAP  # within the cap


def test_tracers_grant_one_or_three_on_full_auto_within_the_weapons_cap() -> None:
    assert corrected_aim(2, tracers=True) == 3
    assert corrected_aim(2, tracers=True, fully_automatic=True) == 5
    assert corrected_aim(5, tracers=True, fully_automatic=True) == AIM_CAP
    assert corrected_aim(10, weapon_aim_modifier=2, tracers=True, fully_automatic=True) == 12


def test_negative_aim_is_refused() -> None:
    with pytest.raises(ValueError):
        corrected_aim(-1)
