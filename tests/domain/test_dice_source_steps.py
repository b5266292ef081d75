"""Every step that rolls takes the one dice source (issue 16): the same dice, typed at the
table or rolled by a seeded app, give the same result at each step."""

from __future__ import annotations

import random

from mneme_desktop.domain import combat
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.encounter import Encounter
from mneme_desktop.domain.healing.medical import (
    MedicalRoll,
    dying_modifier,
    dying_roll,
    first_aid,
    intensive_care_rolls,
)
from mneme_desktop.domain.roll_terms import survival_terms
from mneme_desktop.rules.checks import check_from
from mneme_desktop.rules.dice import DiceSource, roll_two_d6
from mneme_desktop.rules.healing import INTENSIVE_CARE_DIFFICULTY
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, dying_roll_modifier
from tests.domain.test_combat import by_name, fight, make_campaign
from tests.domain.test_combat_trust import request, wounded
from tests.domain.test_healing_trust import campaign_of, person

SEED = 4


def both(advantage: int = 0) -> tuple[DiceSource, DiceSource]:
    """An app source seeded with SEED and the table typing the dice it will roll."""
    dice = roll_two_d6(random.Random(SEED), advantage).dice
    return DiceSource.app(random.Random(SEED)), DiceSource.table(dice)


def last_roll(encounter: Encounter) -> tuple[list[int], int | None, int | None]:
    entry = encounter.log[-1]
    return list(entry.dice), entry.modifier, entry.effect


def test_the_attack_roll_takes_either_source() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", ["Raider 1"]))
    app, table = both(spec.net_advantage)
    assert combat.attack_check(spec, app) == combat.attack_check(spec, table)


def _survival(make, damage: int) -> None:
    results = []
    for source in both():
        campaign = make_campaign()
        encounter = fight(campaign)
        raider, _ = wounded(campaign, encounter, "Mara Vey", damage)
        patch = make(campaign, encounter, raider.id, source)
        patch.apply(campaign)
        results.append((last_roll(encounter), source.how in patch.log_entries[-1].text))
    assert results[0] == results[1] and results[0][1]


def test_the_dying_roll_takes_either_source() -> None:
    _survival(combat.dying_roll_patch, 27)


def test_the_massive_damage_roll_takes_either_source() -> None:
    _survival(combat.massive_damage_patch, 10)


def _first_aid_under_way(campaign: Campaign) -> tuple[Encounter, str]:
    encounter = fight(campaign)
    tomas, ilse = by_name(campaign, encounter, "Tomas Okoro"), by_name(campaign, encounter,
                                                                       "Ilse Brandt")
    campaign.combatant_character(ilse).damage = 10
    combat.start_task_patch(campaign, encounter, tomas.id, "First Aid on Ilse Brandt",
                            30, ilse.id, first_aid=True).apply(campaign)
    return encounter, tomas.id


def test_a_round_of_an_extended_task_takes_either_source() -> None:
    rounds = []
    for source in both():
        campaign = make_campaign()
        encounter, tomas = _first_aid_under_way(campaign)
        combat.work_task_patch(campaign, encounter, tomas, source, 2, 8).apply(campaign)
        rounds.append((last_roll(encounter),
                       encounter.find_combatant(tomas).extended_task.remaining_rounds))
    assert rounds[0] == rounds[1]


def test_the_tactics_check_takes_either_source_with_the_leaders_dm_by_default() -> None:
    outcomes = []
    for source in both():
        campaign = make_campaign()
        encounter = fight(campaign)
        players = [c.id for c in encounter.combatants if c.side.value == "players"]
        leader = by_name(campaign, encounter, "Mara Vey")
        combat.tactics_patch(campaign, encounter, leader.id, 8, source,
                             players).apply(campaign)
        outcomes.append((last_roll(encounter),
                         [encounter.find_combatant(p).initiative for p in players]))
    assert outcomes[0] == outcomes[1]
    modifier = combat.tactics_modifier(campaign.combatant_character(leader))
    assert outcomes[0][0][1] == modifier


def test_the_medical_checks_take_either_source() -> None:
    app, table = both()
    assert MedicalRoll.from_source(app, 1, 8).total == MedicalRoll.from_source(table, 1, 8).total
    assert "dice at the table" in MedicalRoll.from_source(table, 1, 8).text
    rolls = []
    for source in both():
        patient = person("Evan", 10)
        campaign = campaign_of(patient)
        first_aid(campaign, patient.id, MedicalRoll.from_source(source, 0, 8)).patch.apply(
            campaign)
        rolls.append(campaign.character(patient.id).damage)
    assert rolls[0] == rolls[1]


def test_the_dying_roll_of_the_healing_view_uses_the_encounters_terms() -> None:
    evan = person("Evan", 26)
    assert dying_modifier(evan) == sum(t.value for t in survival_terms(evan)) == \
        dying_roll_modifier(9, 26)
    app, table = both()
    assert dying_roll(evan, app).total == dying_roll(evan, table).total
    assert dying_roll(evan, table).difficulty == DYING_DIFFICULTY
    expected = check_from(DiceSource.table(table.typed or ()), dying_modifier(evan),
                          DYING_DIFFICULTY)
    assert dying_roll(evan, table).total == expected.total


def test_intensive_care_rolls_take_either_source() -> None:
    evan = person("Evan", 26)
    assert intensive_care_rolls(evan, DiceSource.table((1, 1)), 0, 2) == (None, None)
    failed, no_dying = intensive_care_rolls(evan, DiceSource.table((1, 1)), 0, None)
    assert failed is not None and not failed.success and no_dying is None
    assert failed.difficulty == INTENSIVE_CARE_DIFFICULTY
    _, dying = intensive_care_rolls(evan, DiceSource.table((1, 1)), 0, None,
                                    DiceSource.table((6, 6)))
    assert dying is not None and dying.total == 12 + dying_modifier(evan)
    rng = random.Random(2)
    while True:  # a seed whose first roll fails, so the app rolls the dying roll too
        seed = rng.randrange(1000)
        roll, dying = intensive_care_rolls(evan, DiceSource.app(random.Random(seed)), 0, None)
        if roll is not None and not roll.success:
            break
    assert dying is not None and dying.difficulty == DYING_DIFFICULTY
