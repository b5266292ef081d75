"""The exact chance of surviving a dying roll and a massive-damage roll, before the roll:
one function over the rules core, the same number on the panel, in the log and in a
massive-damage roll left to the table."""

from __future__ import annotations

import random

from mneme_desktop.domain import Characteristic, combat
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.domain.roll_terms import survival_terms
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.wounds import (
    DYING_DIFFICULTY,
    MASSIVE_DAMAGE_DIFFICULTY,
    dying_survival_chance,
    massive_damage_survival_chance,
)
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign, request


def test_survival_chance_is_the_rules_cores_and_matches_the_rolls_dm() -> None:
    campaign = make_campaign()
    mara = campaign.characters[0]
    for damage in (0, 5, 14, 30):
        sheet = mara.model_copy(update={"damage": damage})
        endurance = sheet.characteristic(Characteristic.END) or 0
        modifier = sum(term.value for term in survival_terms(sheet))
        dying = combat.survival_chance(sheet, dying=True)
        massive = combat.survival_chance(sheet, dying=False)
        assert dying == dying_survival_chance(endurance, damage) == \
            success_chance(modifier, DYING_DIFFICULTY)
        assert massive == massive_damage_survival_chance(endurance, damage) == \
            success_chance(modifier, MASSIVE_DAMAGE_DIFFICULTY)
        assert massive <= dying


def test_a_massive_roll_left_to_the_table_names_its_odds_and_is_due_until_entered() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 3), random.Random(1),
                                    typed_damage=[[16, 16, 16, 16]])
    brute = by_name(campaign, encounter, "Brute 1")
    assert not combat.massive_roll_due(encounter, brute.id)
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    sheet = campaign.combatant_character(brute)
    chance = chance_text(combat.survival_chance(sheet, dying=False))
    due = next(e for e in encounter.log if e.action == "Massive damage")
    assert f"vs 8, survives {chance})" in due.text
    assert combat.massive_roll_due(encounter, brute.id)
    combat.massive_damage_patch(campaign, encounter, brute.id,
                                DiceSource.table([6, 6])).apply(campaign)
    rolled = encounter.log[-1]
    assert rolled.action == "Massive damage roll"
    assert rolled.text.endswith(f"(chance to survive was {chance})")
    assert not combat.massive_roll_due(encounter, brute.id)


def test_the_dying_rolls_log_line_says_the_chance_it_had() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    sheet = campaign.combatant_character(raider)
    combat.set_damage_patch(campaign, encounter, raider.id, sheet.hit_points + 2).apply(campaign)
    chance = chance_text(combat.survival_chance(campaign.combatant_character(raider), True))
    combat.dying_roll_patch(campaign, encounter, raider.id,
                            DiceSource.table([6, 6])).apply(campaign)
    assert encounter.log[-1].text.endswith(f"(chance to survive was {chance})")
