"""Issue 14, "Trust at the table": one medic DM everywhere, no clock advance that skips the
rolls the rules require, and plans that leave the patients' own regimes alone."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    GameTime,
    Recovery,
    Skill,
)
from mneme_desktop.domain.combat import first_aid_modifier
from mneme_desktop.domain.edits import SetClock
from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.domain.healing.changes import Outcome
from mneme_desktop.domain.healing.medical import MedicalRoll, first_aid
from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.domain.healing.regimes import plan_regime_note
from mneme_desktop.domain.healing.time_stops import (
    DueRoll,
    advance_until_roll,
    dying_outlook,
    next_roll_due,
    record_dying_roll,
)
from mneme_desktop.domain.medic_check import MEDIC_CHARACTERISTIC, medic_modifier
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.rules.healing import Activity, medic_check_modifier
from mneme_desktop.rules.wounds import (
    DYING_DIFFICULTY,
    ThresholdBasis,
    WoundState,
    dying_roll_modifier,
    dying_survival_chance,
)

REST, LIGHT, MODERATE = Activity.FULL_REST, Activity.LIGHT, Activity.MODERATE
START = GameTime.at(3, 8)


def apply_changes(campaign: Campaign, changes: Outcome) -> None:
    changes.patch.apply(campaign)


def revert_changes(campaign: Campaign, changes: Outcome) -> None:
    changes.patch.revert(campaign)


def person(name: str, damage: int = 0, *, edu: int = 8, **extra: object) -> Character:
    """HP 24 (7 + 8 + 9): dying from 25 damage; END 9 (stabilised 9 hours by first aid)."""
    return Character(name=name, characteristics=Characteristics.of(7, 8, 9, 10, edu, 7),
                     damage=damage, **extra)  # type: ignore[arg-type]


def campaign_of(*characters: Character) -> Campaign:
    return Campaign(name="Trust", characters=list(characters), game_time=START)


def stabilised(campaign: Campaign, patient: Character) -> None:
    """First aid that succeeds (2d6 = 8 vs 8): 1 healed, stabilised for END hours."""
    apply_changes(campaign, first_aid(campaign, patient.id, MedicalRoll.entered(8, 0, 8)))
    assert campaign.character(patient.id).has_condition(ConditionKind.STABILISED)


# --------------------------------------------------------------- 1. one medic DM


def test_medic_dm_is_skill_edu_and_the_medics_own_wound_penalty() -> None:
    # Medic 2, EDU 9 (+1), damage 3 (-1): 2 + 1 - 1 = +2.
    doc = person("Doc", 3, edu=9, skills=[Skill(name="Medic", level=2)])
    terms = medic_modifier(doc)
    assert (terms.level, terms.characteristic, terms.characteristic_dm,
            terms.wound_penalty) == (2, MEDIC_CHARACTERISTIC, 1, -1)
    assert terms.total == 2 == medic_check_modifier(2, 1, -1)
    assert terms.terms == "Medic 2 +2, EDU +1, wounds -1"
    assert terms.with_level(None).total == -3 + 1 - 1
    with pytest.raises(ValueError, match="wound penalty"):
        medic_check_modifier(1, 0, 2)


@pytest.mark.parametrize(("level", "edu", "damage"), [
    (2, 9, 0),  # the medic: +3 in the encounter, +2 in the Healing view before
    (None, 12, 6),
    (0, 5, 11),
])
def test_the_encounter_and_the_healing_view_share_one_medic_dm(
        level: int | None, edu: int, damage: int) -> None:
    skills = [] if level is None else [Skill(name="Medic", level=level)]
    medic = person("Medic", damage, edu=edu, skills=skills)
    assert first_aid_modifier(medic) == medic_modifier(medic).total


# ------------------------------------------------- 2. the clock stops for rolls due


def test_a_stabilised_dying_patient_off_intensive_care_stops_the_clock_when_it_ends() -> None:
    """The issue's case: stabilised for END hours, then 7 days under full rest. Before, the
    character healed through 98100 rounds of dying rolls nobody made."""
    evan = person("Evan", 27)
    campaign = campaign_of(evan)
    stabilised(campaign, evan)
    now = campaign.game_time
    plan = HealingPlan.single(REST, False, 7)
    result = advance_until_roll(campaign, 7 * SECONDS_PER_DAY, {evan.id: plan}, title="Rest")
    assert result.stopped and result.requested == 7 * SECONDS_PER_DAY
    assert result.advanced == 9 * 3600  # END 9 hours, not 7 days
    clock = next(c for c in result.changes.edits if isinstance(c, SetClock))
    assert clock.after == now.advance(hours=9)
    assert not [c for c in result.changes.notices if "rounds" in c.text]
    due = result.due
    assert due is not None and due.kind is DueRoll.DYING and due.character_id == evan.id
    assert due.at == now.advance(hours=9)
    assert "stabilisation ends" in due.text
    # The odds are shown before anything is rolled: END 9 (+1), damage 26 (-8) vs 4.
    assert due.modifier == dying_roll_modifier(9, 26) == -7
    assert due.chance == dying_survival_chance(9, 26)
    assert due.odds == f"2d6 -7 vs {DYING_DIFFICULTY}: 1/12 (8.3%)"
    apply_changes(campaign, result.changes)
    after = campaign.character(evan.id)
    assert after.damage == 26 and after.wound_state() is WoundState.DYING
    assert after.recovery is None, "no day passed, so no regime was set"
    # Asked again, the clock does not move at all: the dying rolls are due now.
    again = advance_until_roll(campaign, SECONDS_PER_DAY)
    assert again.advanced == 0 and again.changes.empty and again.due is not None
    assert "not stabilised" in again.due.text


def test_an_unstabilised_dying_character_stops_the_clock_at_once() -> None:
    evan = person("Evan", 26)
    ann = person("Ann", 5, recovery=Recovery(activity=REST))
    campaign = campaign_of(evan, ann)
    due = next_roll_due(campaign, 60)
    assert due is not None and due.at == START and due.kind is DueRoll.DYING
    result = advance_until_roll(campaign, 3 * SECONDS_PER_DAY)
    assert result.changes.empty and campaign.character(ann.id).damage == 5


def test_unsupervised_intensive_care_stops_at_each_days_roll() -> None:
    evan = person("Evan", 26, recovery=Recovery(activity=REST, care=True, since=START))
    campaign = campaign_of(evan)
    result = advance_until_roll(campaign, 7 * SECONDS_PER_DAY)
    assert result.advanced == SECONDS_PER_DAY
    due = result.due
    assert due is not None and due.kind is DueRoll.INTENSIVE_CARE
    assert due.at == START.advance(days=1)
    assert due.chance == success_chance(0, 8) and due.odds == "2d6 +0 vs 8: 5/12 (41.7%)"
    assert due.dying_chance == dying_survival_chance(9, 26)
    assert "a failure means a dying roll" in due.text
    # Supervised (an AI sickbay), no roll is due: the table's 1 point per 3 days applies.
    campaign.infirmary.ai_supervision = True
    whole = advance_until_roll(campaign, 7 * SECONDS_PER_DAY)
    assert not whole.stopped and whole.advanced == 7 * SECONDS_PER_DAY
    apply_changes(campaign, whole.changes)
    assert campaign.character(evan.id).damage == 24


def test_a_plan_that_ends_intensive_care_stops_where_it_ends() -> None:
    evan = person("Evan", 26)
    campaign = campaign_of(evan)
    campaign.infirmary.ai_supervision = True
    plan = HealingPlan.single(REST, True, 2)
    plan = HealingPlan((*plan.segments, *HealingPlan.single(REST, False, 5).segments))
    result = advance_until_roll(campaign, 7 * SECONDS_PER_DAY, {evan.id: plan})
    assert result.advanced == 2 * SECONDS_PER_DAY
    assert result.due is not None and "ends intensive care on day 3" in result.due.text


def test_bleeding_into_dying_stops_the_clock_at_that_minute() -> None:
    bleeding = Condition(kind=ConditionKind.BLEEDING, started_at=START)
    bea = person("Bea", 22, conditions=[bleeding])  # 3 more points: 25 > HP 24
    campaign = campaign_of(bea)
    result = advance_until_roll(campaign, 3600)
    assert result.advanced == 3 * 60
    assert result.due is not None and "bleeds past their HP" in result.due.text
    apply_changes(campaign, result.changes)
    assert campaign.character(bea.id).damage == 25


def test_a_stop_the_patient_heals_past_is_not_made() -> None:
    # Stabilised across midnight with progress almost a point: healed out of Dying first.
    stable = Condition(kind=ConditionKind.STABILISED, started_at=START,
                       expires_at=START.advance(hours=20))
    evan = person("Evan", 25, conditions=[stable],
                  recovery=Recovery(activity=REST, progress=Fraction(6, 7)))
    campaign = campaign_of(evan)
    result = advance_until_roll(campaign, 2 * SECONDS_PER_DAY)
    assert not result.stopped and result.advanced == 2 * SECONDS_PER_DAY


def test_a_dying_roll_recorded_survives_or_kills_and_reverts() -> None:
    evan = person("Evan", 26)
    campaign = campaign_of(evan)
    before = campaign.model_dump()
    survived = record_dying_roll(campaign, evan.id, MedicalRoll.entered(12, -8, 4))
    apply_changes(campaign, survived)
    assert not campaign.character(evan.id).has_condition(ConditionKind.DEAD)
    assert "survived: still Dying" in next(
        c for c in survived.sheets).lines
    revert_changes(campaign, survived)
    assert campaign.model_dump() == before
    died = record_dying_roll(campaign, evan.id, MedicalRoll.entered(6, -8, 4))
    apply_changes(campaign, died)
    assert campaign.character(evan.id).has_condition(ConditionKind.DEAD)
    assert campaign.journal[-1].title == "Dying roll: Evan"
    with pytest.raises(ValueError, match="Difficulty 4"):
        record_dying_roll(campaign, evan.id, MedicalRoll.entered(6, 0, 8))


def test_the_planner_says_what_a_plan_means_for_the_dying_with_odds() -> None:
    evan = person("Evan", 26)
    campaign = campaign_of(evan)
    basis = ThresholdBasis.HP_FRACTIONS
    rest = HealingPlan.single(REST, False, 7, "Rest")
    care = HealingPlan.single(REST, True, 7, "Care")
    assert "not stabilised" in dying_outlook(evan, rest, START, basis, False)
    stabilised(campaign, evan)
    evan = campaign.character(evan.id)
    text = dying_outlook(evan, rest, campaign.game_time, basis, False)
    assert "stabilised until Day 3, 17:03" in text and "2d6 -7 vs 4: 1/12 (8.3%)" in text
    assert "2d6 +0 vs 8: 5/12 (41.7%)" in dying_outlook(evan, care, START, basis, False)
    assert "no rolls" in dying_outlook(evan, care, START, basis, True)
    assert dying_outlook(person("Ann", 5), rest, START, basis, False) == ""


# ---------------------------------------------------- 3. plans keep the own regimes


def test_a_plan_keeps_each_patients_own_regime_and_says_whose_it_sets() -> None:
    ann = person("Ann", 10, recovery=Recovery(activity=MODERATE, care=False))
    cyd = person("Cyd", 4)
    campaign = campaign_of(ann, cyd)
    plan = HealingPlan.single(REST, True, 3, "Rest")
    note = plan_regime_note(campaign, [ann.id, cyd.id], plan, 3)
    assert note == ("Own regimes kept after the plan: Ann (moderate activity). "
                    "Cyd has no regime: put on full rest + care (the plan's last day).")
    result = advance_until_roll(campaign, 3 * SECONDS_PER_DAY, {ann.id: plan, cyd.id: plan})
    apply_changes(campaign, result.changes)
    assert campaign.character(ann.id).damage == 7
    recovery = campaign.character(ann.id).recovery
    assert recovery is not None and recovery.activity is MODERATE and not recovery.care
    cyd_after = campaign.character(cyd.id)
    assert cyd_after.recovery is not None and cyd_after.recovery.care
    lines = next(c for c in result.changes.sheets
                 if c.character_id == cyd.id).lines
    assert "had no regime of their own: now on full rest + care" in lines


def test_a_stabilisation_ending_in_intensive_care_does_not_announce_dying_rolls() -> None:
    from mneme_desktop.domain import Recovery
    from mneme_desktop.domain.healing.clock import _expire_conditions

    for care, expected in ((True, "intensive care goes on"), (False, "dying rolls resume")):
        evan = person("Evan", 27)
        campaign = campaign_of(evan)
        stabilised(campaign, evan)
        patient = campaign.character(evan.id).model_copy(deep=True)
        patient.recovery = Recovery(activity=Activity.FULL_REST, care=care)
        lines: list[str] = []
        _expire_conditions(patient, campaign.game_time.advance(days=1), lines)
        assert len(lines) == 1 and lines[0].endswith(expected), lines
