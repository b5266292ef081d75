"""Issue 14: every number the combat domain produces is the one the referee meant.

The target's cover from its row, wound penalties on every roll, aim with the weapon of the
next attack, and an attack that cannot be afforded refused before any die is rolled.
"""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import RangeClass, Side, Weapon, combat, medic_check, roll_terms
from mneme_desktop.domain.combat import AttackRequest, CombatError
from mneme_desktop.rules.actions import ambush_initiative, roll_initiative
from mneme_desktop.rules.checks import CoverLevel, characteristic_modifier
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.wounds import dying_roll_modifier
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign


def request(campaign, encounter, attacker, targets, **extra) -> AttackRequest:
    share = 1
    return AttackRequest(
        attacker_id=by_name(campaign, encounter, attacker).id, weapon_index=0,
        targets=tuple((by_name(campaign, encounter, t).id, share) for t in targets), **extra)


def apply(campaign, patch) -> None:
    patch.apply(campaign)


def terms(spec) -> list[tuple[str, int]]:
    return [(t.label, t.value) for t in spec.difficulty.terms]


# --- 1. the target's cover ---------------------------------------------------------------


def test_target_cover_set_on_its_row_enters_the_difficulty_as_its_own_term():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    apply(campaign, combat.set_cover_patch(campaign, encounter, raider.id, CoverLevel.MOSTLY))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", ["Raider 1"]))
    assert spec.difficulty.total == 10  # was 8: the row's cover was ignored
    assert terms(spec) == [("Base difficulty", 8), ("Cover (mostly): Raider 1", 2)]
    assert "target's row" in spec.difficulty.terms[1].rule
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -1), random.Random(1))
    patch = combat.attack_patch(campaign, encounter, outcome)
    assert "Difficulty 10 = 8 base difficulty +2 cover (mostly): Raider 1;" in \
        patch.log_entries[0].text


def test_the_referee_can_override_the_rows_cover_and_concealment_is_a_term_of_its_own():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    apply(campaign, combat.set_cover_patch(campaign, encounter, raider.id, CoverLevel.FULL))
    spec = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", ["Raider 1"], concealment=CoverLevel.PARTIAL))
    assert terms(spec) == [("Base difficulty", 8), ("Cover (full): Raider 1", 4),
                           ("Concealment (partial)", 1)]
    spec = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", ["Raider 1"], cover=CoverLevel.NONE))
    assert spec.difficulty.total == 8


def test_several_targets_take_the_best_protected_ones_cover_and_name_it():
    campaign = make_campaign()
    encounter = fight(campaign)
    for name, level in (("Raider 1", CoverLevel.PARTIAL), ("Raider 2", CoverLevel.FULL)):
        combatant = by_name(campaign, encounter, name)
        apply(campaign, combat.set_cover_patch(campaign, encounter, combatant.id, level))
    spec = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", ["Raider 1", "Raider 2", "Brute 1"]))
    assert terms(spec) == [("Base difficulty", 8), ("Cover (full): Raider 2", 4)]


# --- 2. wound penalties on every roll ------------------------------------------------------


def wounded(campaign, encounter, name: str, damage: int):
    combatant = by_name(campaign, encounter, name)
    apply(campaign, combat.set_damage_patch(campaign, encounter, combatant.id, damage))
    return combatant, campaign.combatant_character(combatant)


def test_a_wounded_character_rolls_initiative_with_the_wound_penalty():
    campaign = make_campaign()
    encounter = fight(campaign)
    wounded(campaign, encounter, "Mara Vey", 12)
    patch = combat.roll_initiative_patch(campaign, encounter, random.Random(3))
    apply(campaign, patch)
    mara_id = by_name(campaign, encounter, "Mara Vey").id
    clean = roll_initiative(random.Random(3), 9)  # Mara rolls first: same dice, no wounds
    assert encounter.combatant(mara_id).initiative == clean.value - 4
    assert "Mara Vey " + str(clean.value - 4) in patch.log_entries[-1].text
    assert "Wounds -4" in patch.log_entries[-1].text


def test_ambush_and_typed_initiative_take_the_wound_penalty():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara_combatant, mara = wounded(campaign, encounter, "Mara Vey", 12)
    apply(campaign, combat.ambush_patch(campaign, encounter, Side.PLAYERS, random.Random(1)))
    assert mara_combatant.initiative == ambush_initiative(9) - 4 == 9
    assert "Mara Vey 9 (automatic 12, DEX DM +1, Wounds -4)" in encounter.log[-1].text
    assert combat.initiative_from_text(mara, "4 5") == (9 + 1 - 4, (4, 5))
    assert combat.initiative_from_text(mara, "11") == (11, ())  # a typed value is final


def test_every_roll_path_takes_its_wounds_from_one_function(monkeypatch):
    """Patch the one function: initiative, ambush, Tactics, attacks, dying rolls and first
    aid all follow."""
    campaign = make_campaign()
    encounter = fight(campaign)
    mara_combatant = by_name(campaign, encounter, "Mara Vey")
    mara = campaign.combatant_character(mara_combatant)
    before = {
        "initiative": combat.initiative_from_text(mara, "4 5")[0],
        "ambush": roll_terms.ambush_result(mara).value,
        "tactics": combat.tactics_modifier(mara),
        "attack": combat.build_attack(campaign, encounter, request(
            campaign, encounter, "Mara Vey", ["Raider 1"])).roll_modifier,
        "survival": sum(t.value for t in roll_terms.survival_terms(mara)),
        "first aid": combat.first_aid_modifier(mara),
    }
    for module in (roll_terms, medic_check):  # medic_check imports the function by name
        monkeypatch.setattr(module, "wound_modifier", lambda character: -7)
    after = {
        "initiative": combat.initiative_from_text(mara, "4 5")[0],
        "ambush": roll_terms.ambush_result(mara).value,
        "tactics": combat.tactics_modifier(mara),
        "attack": combat.build_attack(campaign, encounter, request(
            campaign, encounter, "Mara Vey", ["Raider 1"])).roll_modifier,
        "survival": sum(t.value for t in roll_terms.survival_terms(mara)),
        "first aid": combat.first_aid_modifier(mara),
    }
    assert {key: after[key] - before[key] for key in before} == dict.fromkeys(before, -7)


def test_tactics_log_names_the_wounds_in_the_dm():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara_combatant, mara = wounded(campaign, encounter, "Mara Vey", 6)
    modifier = combat.tactics_modifier(mara)
    assert modifier == 1 + characteristic_modifier(7) - 2  # Tactics-1, INT 7, wounds -2
    patch = combat.tactics_patch(campaign, encounter, mara_combatant.id, 8,
                                 DiceSource.table((5, 5)), [mara_combatant.id], modifier)
    assert "Wounds -2" in patch.log_entries[-1].text


def test_dying_roll_takes_the_wound_penalty_and_shows_it():
    """Ch.7: "Every Round, PC makes an End roll against Difficulty 4 (Wound Penalties apply)"."""
    campaign = make_campaign()
    encounter = fight(campaign)
    mara_combatant, mara = wounded(campaign, encounter, "Mara Vey", 27)  # HP 25: dying
    expected = characteristic_modifier(8) - 9
    assert sum(t.value for t in roll_terms.survival_terms(mara)) == expected == \
        dying_roll_modifier(8, 27)
    patch = combat.dying_roll_patch(campaign, encounter, mara_combatant.id,
                                     DiceSource.table((6, 6)))
    entry = patch.log_entries[-1]
    assert entry.modifier == expected
    assert "END DM +0, Wounds -9" in entry.text


# --- 3. aim with the weapon of the next attack --------------------------------------------


def laser() -> Weapon:
    return Weapon(name="Laser Rifle", damage="3d6", range_class=RangeClass.LONG, aim_modifier=2,
                  skill="Gun Combat (Energy)")


def test_aim_uses_the_chosen_weapons_aim_modifier_and_its_cap():
    campaign = make_campaign()
    campaign.characters[0].weapons.append(laser())  # Mara: rifle (no modifier), laser +2
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    raider = by_name(campaign, encounter, "Raider 1")
    patch = combat.aim_patch(campaign, encounter, mara.id, raider.id, 1)
    apply(campaign, patch)
    assert mara.aim == 2  # was +1: the first weapon's modifier
    assert "max +12 with Laser Rifle" in patch.log_entries[-1].text
    for _ in range(8):
        mara.actions_spent = 0
        apply(campaign, combat.aim_patch(campaign, encounter, mara.id, raider.id, 1))
    assert mara.aim == 12
    mara.actions_spent = 0
    other = by_name(campaign, encounter, "Raider 2")
    patch = combat.aim_patch(campaign, encounter, mara.id, other.id, 0)
    assert "+1 (max +6 with Automatic Rifle)" in patch.log_entries[-1].text
    with pytest.raises(CombatError, match="no weapon number 3"):
        combat.aim_patch(campaign, encounter, mara.id, raider.id, 2)


# --- 5. an attack that cannot be afforded ------------------------------------------------


def test_an_attack_that_cannot_be_afforded_is_refused_before_rolling():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    apply(campaign, combat.take_action_patch(campaign, encounter, mara.id, "quick_scan"))
    apply(campaign, combat.take_action_patch(campaign, encounter, mara.id, "quick_scan"))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", ["Raider 1"]))
    assert spec.refusal == ("Mara Vey cannot attack: a Significant Action costs 2 minor "
                            "actions but only 1 of 3 are left this round")
    with pytest.raises(CombatError, match="cannot attack"):
        combat.attack_check(spec, DiceSource.app(random.Random(1)))
    with pytest.raises(CombatError, match="cannot attack"):
        combat.attack_check(spec, DiceSource.table((6, 6)))
    free = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", ["Raider 1"], spend_action=False))
    assert free.refusal == ""
    check = check_with_effect(free, 1)
    with pytest.raises(CombatError, match="cannot attack"):
        combat.resolve_attack(spec, check, random.Random(1))
