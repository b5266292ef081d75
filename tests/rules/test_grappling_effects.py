"""Grappling's weapons factor and what a set of effects costs (Ch.6 grappling)."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.grappling import (
    GrappleEffect,
    GrappleManeuver,
    GrappleWeapon,
    grapple_effects_cost,
)

E = GrappleEffect


def test_weapon_factors_are_the_chapters() -> None:
    assert GrappleWeapon.NONE.factor == 0
    assert GrappleWeapon.TARGET_CLOSE_QUARTERS.factor == 1
    assert GrappleWeapon.GRAPPLER_CLOSE_QUARTERS.factor == -1
    assert GrappleWeapon.PISTOL.factor == 2
    assert GrappleWeapon.CUMBERSOME.factor is None


def test_effects_cost_the_effect_column() -> None:
    assert grapple_effects_cost(frozenset()) == 0
    assert grapple_effects_cost(frozenset({E.DAMAGE})) == 2
    assert grapple_effects_cost(frozenset({E.DAMAGE, E.BIND})) == 4
    assert grapple_effects_cost(frozenset({E.TARGET_LIMB, E.DAMAGE})) == 4
    assert grapple_effects_cost(frozenset({E.TARGET_EXTREMITY, E.BIND})) == 5
    assert grapple_effects_cost(frozenset({E.THROW}), hp=21) == 4  # 21 / 6 rounded up
    assert grapple_effects_cost(frozenset({E.SWEEP}), dex=7) == 4  # 7 / 2 rounded up


def test_the_declared_maneuver_is_paid_by_its_difficulty() -> None:
    assert grapple_effects_cost(frozenset({E.THROW}), GrappleManeuver.THROW, hp=30) == 0
    assert grapple_effects_cost(frozenset({E.SWEEP, E.DAMAGE}), GrappleManeuver.SWEEP,
                                dex=9) == 2
    assert grapple_effects_cost(frozenset({E.TARGET_LIMB, E.DAMAGE}),
                                GrappleManeuver.TARGETED_LIMB) == 2
    # A declared maneuver whose effect is not taken saves nothing on the others.
    assert grapple_effects_cost(frozenset({E.BIND}), GrappleManeuver.THROW) == 2


@pytest.mark.parametrize(("effects", "message"), [
    ({E.TARGET_LIMB, E.TARGET_EXTREMITY, E.DAMAGE}, "not both"),
    ({E.THROW, E.SWEEP}, "throw or sweep"),
    ({E.TARGET_LIMB}, "with Bind or Damage"),
])
def test_sets_the_table_does_not_allow_are_refused(effects, message) -> None:
    with pytest.raises(ValueError, match=message):
        grapple_effects_cost(frozenset(effects))
