"""The quick check: any character, any skill or characteristic, exact odds, one logged step."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from mneme_desktop.domain import Character, Characteristic, Characteristics, Skill
from mneme_desktop.domain.edits import AddJournalEntry, AppendLog
from mneme_desktop.domain.quick_check import (
    OPPOSING_CHARACTERISTICS,
    OPPOSING_SKILLS,
    CandidateKind,
    CheckRequest,
    Duration,
    QuickCheckError,
    TimeUnit,
    chance_text,
    check_candidates,
    check_odds,
    check_terms,
    combatant_sheet_id,
    opposing_characteristic,
    opposition,
    resolve_check,
    roll_expression,
)
from mneme_desktop.domain.roll_terms import tactics_terms
from mneme_desktop.rules.checks import UNSKILLED, roll_check, success_chance
from mneme_desktop.rules.dice import DiceSource, parse_dice
from tests.domain.test_combat import by_name, fight, make_campaign


def mara_request(**extra: object) -> tuple:
    campaign = make_campaign()
    mara = campaign.characters[0]
    values: dict[str, object] = {"sheet_id": mara.id, "skill": "Tactics",
                                 "characteristic": Characteristic.INT}
    values.update(extra)
    return campaign, mara, CheckRequest(**values)  # type: ignore[arg-type]


def test_terms_are_skill_characteristic_other_dm_and_wounds():
    campaign = make_campaign()
    mara = campaign.characters[0].model_copy(update={"damage": 7})
    terms = check_terms(mara, "Gun Combat (Slug Rifle)", Characteristic.DEX, other_dm=1)
    assert [(t.label, t.value) for t in terms] == [
        ("Gun Combat (Slug Rifle)-2", 2), ("DEX DM", 1), ("Other DM", 1), ("Wounds", -2)]


def test_a_skill_not_held_is_unskilled_minus_three_and_skill_zero_is_zero():
    campaign = make_campaign()
    mara = campaign.characters[0]
    (term,) = check_terms(mara, "Pilot")
    assert (term.label, term.value) == ("Unskilled (Pilot)", UNSKILLED)
    zero = Character(name="Zed", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
                     skills=[{"name": "Pilot", "level": 0}])  # type: ignore[list-item]
    (term,) = check_terms(zero, "pilot")
    assert (term.label, term.value) == ("pilot-0", 0)


def test_the_terms_agree_with_the_tactics_check_of_the_encounter():
    """One source of truth: the same skill, INT and wounds as the Tactics roll."""
    campaign = make_campaign()
    for person in campaign.characters:
        hurt = person.model_copy(update={"damage": 5})
        ours = sum(t.value for t in check_terms(hurt, "Tactics", Characteristic.INT))
        assert ours == sum(t.value for t in tactics_terms(hurt))


def test_the_chance_is_exact_and_follows_advantage():
    campaign, _mara, request = mara_request(difficulty=8)
    odds = check_odds(campaign, request)
    assert odds.modifier == 1  # Tactics-1, INT 7 is +0
    assert odds.chance == Fraction(7, 12)  # 2d6 >= 7
    assert chance_text(odds.chance) == "7/12 (58.3%)"
    assert odds.difficulty_text == "Average (8)"
    request = CheckRequest(request.sheet_id, "Tactics", Characteristic.INT, difficulty=10,
                           advantages=2, disadvantages=1)
    odds = check_odds(campaign, request)
    assert odds.advantage == 1 and odds.dice_count == 3
    assert odds.chance == success_chance(1, 10, 1) == Fraction(113, 216)
    assert chance_text(Fraction(1)) == "1 (100%)"
    assert chance_text(Fraction(0)) == "0 (0%)"
    assert check_odds(campaign, CheckRequest(request.sheet_id, difficulty=9)).difficulty_text \
        == "Average +1 (9)"


def test_impossible_requests_are_refused():
    campaign, mara, _ = mara_request()
    with pytest.raises(QuickCheckError, match="PSI"):
        check_odds(campaign, CheckRequest(mara.id, characteristic=Characteristic.PSI))
    with pytest.raises(QuickCheckError, match="no longer"):
        check_odds(campaign, CheckRequest("gone"))
    with pytest.raises(QuickCheckError):
        CheckRequest(mara.id, advantages=-1)
    with pytest.raises(QuickCheckError):
        Duration(0, TimeUnit.MINUTES)


def test_typed_dice_go_to_the_encounter_log_and_undo_takes_them_back():
    campaign, mara, request = mara_request(difficulty=10, advantages=1)
    encounter = campaign.encounters[0]
    outcome = resolve_check(campaign, request, DiceSource.table((3, 4, 5)),
                            encounter_id=encounter.id, duration=Duration(3, TimeUnit.ROUNDS))
    assert outcome.result.kept == (5, 4) and outcome.result.total == 10
    assert outcome.line == (
        "Mara Vey: Tactics (INT) vs Difficult (10): dice at the table 3+4+5 (kept 5+4) +1 "
        "(Tactics-1 +1, INT DM +0), net advantage +1 = 10; Effect +0, success "
        "(chance was 113/216 (52.3%)); took 3 rounds")
    (edit,) = outcome.patch.edits
    assert isinstance(edit, AppendLog)
    outcome.patch.apply(campaign)
    (entry,) = encounter.log
    assert (entry.actor, entry.action, entry.dice, entry.modifier, entry.difficulty,
            entry.effect) == ("Mara Vey", "Check: Tactics (INT)", [3, 4, 5], 1, 10, 0)
    assert entry.actor_id is None  # Mara is not fighting in it
    outcome.patch.revert(campaign)
    assert encounter.log == []
    assert campaign.find_sheet(mara.id) == mara  # a check changes no sheet


def test_an_app_roll_uses_the_seeded_rng_and_without_an_encounter_goes_to_the_journal():
    campaign, _mara, request = mara_request(difficulty=8)
    outcome = resolve_check(campaign, request, DiceSource.app(random.Random(3)))
    expected = roll_check(random.Random(3), 1, 8)
    assert outcome.result == expected
    assert f"rolled {expected.dice[0]}+{expected.dice[1]} +1" in outcome.line
    (edit,) = outcome.patch.edits
    assert isinstance(edit, AddJournalEntry)
    outcome.patch.apply(campaign)
    assert campaign.journal[-1].text == outcome.line
    assert campaign.journal[-1].title == "Check: Mara Vey, Tactics (INT)"
    outcome.patch.revert(campaign)
    assert campaign.journal == []


def test_wrong_dice_are_refused():
    campaign, _mara, request = mara_request(advantages=1)
    with pytest.raises(QuickCheckError, match="expected 3 dice"):
        resolve_check(campaign, request, DiceSource.table((3, 4)))


def test_a_combatant_rolls_with_its_own_sheet_and_is_named_in_the_log():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    sheet_id = combatant_sheet_id(campaign, encounter.id, raider.id)
    assert sheet_id == raider.instance.id
    candidates = check_candidates(campaign, encounter.id)
    assert [c.kind for c in candidates].count(CandidateKind.COMBATANT) == 3
    assert {c.name for c in candidates} >= {"Mara Vey", "Raider 1", "Raider 2", "Brute 1",
                                             "Raider"}
    request = CheckRequest(sheet_id, skill="Melee Combat (Slashing)",
                           characteristic=Characteristic.STR)
    outcome = resolve_check(campaign, request, DiceSource.table((6, 6)),
                            encounter_id=encounter.id)
    outcome.patch.apply(campaign)
    entry = encounter.log[-1]
    assert entry.actor_id == raider.id and entry.round == encounter.round
    assert entry.modifier == 1 + 0 and entry.effect == 12 + 1 - 8
    mara = by_name(campaign, encounter, "Mara Vey")
    assert combatant_sheet_id(campaign, encounter.id, mara.id) == campaign.characters[0].id


def test_a_bare_dice_expression_is_rolled_and_recorded():
    campaign = make_campaign()
    outcome = roll_expression(campaign, "3d6-2", random.Random(8), who="Mara Vey")
    assert outcome.roll.total == parse_dice("3d6-2").roll(random.Random(8))
    dice = "+".join(map(str, outcome.roll.dice))
    assert outcome.line == f"Mara Vey: rolled 3d6-2: {dice} -2 = {outcome.roll.total}"
    deka = roll_expression(campaign, "D 2d6", random.Random(8),
                           encounter_id=campaign.encounters[0].id)
    assert deka.roll.total == 10 * sum(deka.roll.dice)
    assert isinstance(deka.patch.edits[0], AppendLog)
    with pytest.raises(QuickCheckError, match="expected"):
        roll_expression(campaign, "3x6", random.Random(8))


def test_durations_read_as_said():
    assert Duration(1, TimeUnit.HOURS).text == "1 hour"
    assert Duration(10, TimeUnit.MINUTES).text == "10 minutes"
    assert Duration(2, TimeUnit.ROUNDS).seconds == 12


# --- against an opponent: Ch.6 Deliberate Stealth and Scan/Search ---------------------------


def scout_campaign():
    """Mara (no Stealth, DEX 9) and Tomas, given Recon-2 (INT 10) and 6 damage (wounds -2)."""
    campaign = make_campaign()
    mara, _ilse, tomas = campaign.characters
    tomas = tomas.model_copy(update={"damage": 6, "skills": [
        *tomas.skills, Skill(name="Recon", level=2)]})
    campaign.put_sheet(tomas)
    return campaign, mara, tomas


def test_stealth_against_an_opponent_is_eight_plus_recon_chm_and_wounds():
    campaign, mara, tomas = scout_campaign()
    request = CheckRequest(mara.id, "Stealth", Characteristic.DEX, difficulty=4,
                           opponent_id=tomas.id)
    odds = check_odds(campaign, request)
    assert [(t.label, t.value) for t in odds.difficulty_terms] == [
        ("Base difficulty", 8), ("Tomas Okoro: Recon-2", 2), ("Tomas Okoro: INT DM", 1),
        ("Tomas Okoro: wounds", -2)]
    assert odds.difficulty == 9  # the typed 4 is ignored against an opponent
    assert odds.opponent == "Tomas Okoro"
    assert odds.modifier == -2  # unskilled -3, DEX 9 +1
    assert odds.chance == success_chance(-2, 9)
    assert [t.value for t in odds.difficulty_terms] == [
        t.value for t in opposition(campaign.find_sheet(tomas.id), "Recon").terms]


def test_recon_against_an_opponent_takes_their_stealth_with_dex_and_can_be_changed():
    campaign, mara, tomas = scout_campaign()
    odds = check_odds(campaign, CheckRequest(tomas.id, "Recon", opponent_id=mara.id))
    assert [(t.label, t.value) for t in odds.difficulty_terms] == [
        ("Base difficulty", 8), ("Mara Vey: unskilled (Stealth)", UNSKILLED),
        ("Mara Vey: DEX DM", 1)]
    assert odds.difficulty == 6
    changed = check_odds(campaign, CheckRequest(
        tomas.id, "Recon", opponent_id=mara.id, opposing_skill="Stealth",
        opposing_characteristic=Characteristic.INT))
    assert changed.difficulty_terms[2].label == "Mara Vey: INT DM"
    assert changed.difficulty == 5
    assert opposing_characteristic("recon (urban)") is Characteristic.INT
    assert opposing_characteristic("Stealth") is Characteristic.DEX
    assert opposing_characteristic("Tactics") is None


def test_an_opposed_check_needs_an_opposing_skill_and_a_characteristic_the_sheet_has():
    campaign, mara, tomas = scout_campaign()
    with pytest.raises(QuickCheckError, match="Recon or Stealth"):
        check_odds(campaign, CheckRequest(mara.id, "Tactics", opponent_id=tomas.id))
    with pytest.raises(QuickCheckError, match="characteristic modifier"):
        check_odds(campaign, CheckRequest(mara.id, "Tactics", opponent_id=tomas.id,
                                          opposing_skill="Athletics"))
    with pytest.raises(QuickCheckError, match=r"Tomas Okoro: .*PSI"):
        check_odds(campaign, CheckRequest(mara.id, "Stealth", opponent_id=tomas.id,
                                          opposing_characteristic=Characteristic.PSI))
    with pytest.raises(QuickCheckError, match="no longer"):
        check_odds(campaign, CheckRequest(mara.id, "Stealth", opponent_id="gone"))
    assert OPPOSING_SKILLS == ("Recon", "Stealth")
    assert OPPOSING_CHARACTERISTICS["Recon"] is Characteristic.INT


def test_the_logged_line_says_who_it_was_against_and_how_the_difficulty_was_made():
    campaign, mara, tomas = scout_campaign()
    request = CheckRequest(mara.id, "Stealth", Characteristic.DEX, opponent_id=tomas.id)
    outcome = resolve_check(campaign, request, DiceSource.table((6, 5)))
    assert outcome.line == (
        "Mara Vey: Stealth (DEX) vs Average +1 (9) against Tomas Okoro (8, Tomas Okoro: "
        "Recon-2 +2, Tomas Okoro: INT DM +1, Tomas Okoro: wounds -2): dice at the table 6+5 "
        "-2 (Unskilled (Stealth) -3, DEX DM +1) = 9; Effect +0, success "
        f"(chance was {chance_text(success_chance(-2, 9))})")
    assert outcome.patch.text == "Check: Mara Vey, Stealth (DEX) against Tomas Okoro"
    (edit,) = outcome.patch.edits
    assert isinstance(edit, AddJournalEntry)


def test_superiority_situations_are_one_named_term_of_the_check():
    from dataclasses import replace

    from mneme_desktop.rules.checks import (
        SuperiorityBalance,
        SuperiorityKind,
        SuperioritySituations,
    )
    balance = SuperiorityBalance(
        SuperioritySituations(firepower=3),
        SuperioritySituations(outnumbers=SuperiorityKind.OUTNUMBERED_MINOR))
    campaign, _mara, request = mara_request(superiority=balance)
    plain = check_odds(campaign, replace(request, superiority=SuperiorityBalance()))
    odds = check_odds(campaign, request)
    assert odds.modifier == plain.modifier + 2
    term = next(t for t in odds.terms if t.label == "Superiority")
    assert term.value == 2
    assert term.rule == ("Ch.3 superiority: ours: Superior Firepower +3; "
                         "theirs: Outnumbered (minor) +1")
    level = SuperiorityBalance(SuperioritySituations(position=1),
                               SuperioritySituations(position=1))
    assert not any(t.label == "Superiority" for t in check_odds(
        campaign, replace(request, superiority=level)).terms)  # a zero sum adds nothing
