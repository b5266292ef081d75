"""Movement at the 4.5 m scale, chosen per encounter (Ch.6 movement table)."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import Encounter, combat
from mneme_desktop.domain.combat import CombatError
from mneme_desktop.rules.actions import MovementMode
from mneme_desktop.rules.movement import GridScale
from tests.domain.test_combat import by_name, fight, make_campaign


def test_an_encounter_moves_in_1_5_m_spaces_unless_chosen_and_old_files_load() -> None:
    assert Encounter(name="Old").movement_scale is GridScale.FINE
    loaded = Encounter.model_validate({"name": "Old file"})  # no movement_scale stored
    assert loaded.movement_scale is GridScale.FINE
    assert Encounter.model_validate({"name": "New", "movement_scale": "4.5"}).movement_scale \
        is GridScale.COARSE


def test_the_scale_is_one_undoable_step_and_moves_use_it() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    patch = combat.movement_scale_patch(campaign, encounter, GridScale.COARSE)
    patch.apply(campaign)
    assert encounter.movement_scale is GridScale.COARSE
    assert encounter.log[-1].text == ("Movement in 4.5 m spaces (Ch.6 movement table), was "
                                      "1.5 m")
    options = {mode: (spaces, metres) for mode, spaces, metres in
               combat.movement_options(campaign, mara, encounter.movement_scale)}
    assert options[MovementMode.DASH] == (3, 27 / 2)  # light load: 3 spaces of 4.5 m
    move = combat.move_patch(campaign, encounter, mara.id, MovementMode.DASH)
    move.apply(campaign)
    assert encounter.log[-1].text.startswith("Mara Vey: dash 3 spaces (13.5 m)")
    assert encounter.log[-1].text.endswith("(4.5 m spaces)")
    with pytest.raises(CombatError, match=r"already moves in 4\.5 m"):
        combat.movement_scale_patch(campaign, encounter, GridScale.COARSE)
    move.revert(campaign)
    patch.revert(campaign)
    assert encounter.movement_scale is GridScale.FINE
