"""Healing plans, projections, the clock's effect on the wounded, and medical events."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    GameTime,
    Recovery,
)
from mneme_desktop.domain.edits import AddJournalEntry, SetClock
from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.domain.healing.changes import Outcome
from mneme_desktop.domain.healing.clock import (
    advance_campaign,
    advance_character,
    healing_days_between,
)
from mneme_desktop.domain.healing.days import heal_one_day
from mneme_desktop.domain.healing.medical import (
    FIRST_AID_SECONDS,
    MedicalRoll,
    first_aid,
    intensive_care,
    surgery,
)
from mneme_desktop.domain.healing.plan import HealingPlan, iter_patients, project_plan
from mneme_desktop.rules.checks import roll_check
from mneme_desktop.rules.healing import (
    Activity,
    PlanSegment,
    plan_characteristic_therapy,
    project_recovery,
    recovery_days,
)
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState, wound_thresholds

REST, LIGHT, MODERATE = Activity.FULL_REST, Activity.LIGHT, Activity.MODERATE
HP_FRACTIONS = ThresholdBasis.HP_FRACTIONS


def apply_changes(campaign: Campaign, changes: Outcome) -> None:
    changes.patch.apply(campaign)


def revert_changes(campaign: Campaign, changes: Outcome) -> None:
    changes.patch.revert(campaign)


def person(name: str = "Ann", damage: int = 0, *, stats: tuple[int, int, int] = (7, 8, 9),
           recovery: Recovery | None = None, **extra: object) -> Character:
    """A character with HP = sum of ``stats`` (24 by default: thresholds 8 and 16)."""
    return Character(
        name=name,
        characteristics=Characteristics.of(*stats, 10, 8, 7),
        damage=damage,
        recovery=recovery,
        **extra,  # type: ignore[arg-type]
    )


def campaign_of(*characters: Character, at: GameTime | None = None) -> Campaign:
    return Campaign(name="Test", characters=list(characters), game_time=at or GameTime())


# --------------------------------------------------------------------- the plan


def test_a_plan_needs_a_segment_and_continues_its_last_one() -> None:
    with pytest.raises(ValueError, match="at least one segment"):
        HealingPlan(())
    plan = HealingPlan((PlanSegment(REST, True, 2), PlanSegment(LIGHT, False, 3)), "Mixed")
    assert plan.total_days == 5
    assert [plan.regime(day).activity for day in (1, 2, 3, 5, 6, 40)] == [
        REST, REST, LIGHT, LIGHT, LIGHT, LIGHT]
    assert plan.label == "full rest + care 2 d, then light activity 3 d"
    with pytest.raises(ValueError):
        plan.regime(0)
    assert HealingPlan.single(LIGHT, True, 4).name == "light activity + care"


# ------------------------------------------------------------ one day, two ways


@settings(max_examples=300, deadline=None)
@given(
    hp=st.integers(1, 45),
    extra=st.integers(0, 10),
    damage_share=st.floats(0, 1),
    regimes=st.lists(
        st.tuples(st.sampled_from(list(Activity)), st.booleans(), st.integers(0, 12)),
        min_size=1, max_size=4),
)
def test_heal_one_day_takes_the_rules_core_step(hp: int, extra: int, damage_share: float,
                                                regimes: list[tuple[Activity, bool, int]]
                                                ) -> None:
    """From progress 0 the domain's day step agrees with project_recovery day for day."""
    damage = max(1, round(damage_share * (hp + extra)))
    limits = wound_thresholds(hp)
    segments = [PlanSegment(a, c, d) for a, c, d in regimes]
    expected = project_recovery(damage, hp, segments, limits, stop_when_healed=False)
    progress = Fraction(0)
    current = damage
    for record in expected:
        mine = heal_one_day(record.day, current, hp, record.activity, record.care, progress,
                            limits)
        assert mine == record
        current, progress = mine.damage_end, mine.progress


@pytest.mark.parametrize("activity", list(Activity))
@pytest.mark.parametrize("care", [False, True])
def test_single_regime_projection_matches_recovery_days(activity: Activity, care: bool) -> None:
    for stats in ((7, 8, 9), (4, 4, 4), (12, 10, 11)):
        hp = sum(stats)
        for damage in range(0, hp + 6):
            character = person(damage=damage, stats=stats)
            projection = project_plan(character, HealingPlan.single(activity, care, 1))
            assert projection.healed_day == recovery_days(damage, hp, activity, care), (
                stats, damage)


def test_hand_worked_multi_segment_plan() -> None:
    """HP 24 (seriously wounded from 8, critically from 16), damage 10.

    Days 1-2 full rest + care, SW at 1/day: 10 -> 9 -> 8.
    Days 3-6 light activity, no care: SW at 1/3 (days 3, 4, 5: 8 -> 8 -> 8 -> 7, now
    Wounded), then Wounded at 1/2 on day 6: progress 1/2, damage 7.
    Day 7 full rest, no care, Wounded at 1/day: progress 3/2 -> damage 6, 1/2 carried.
    Continuing full rest: 5, 4, 3, 2, 1, 0 on days 8-13.
    """
    plan = HealingPlan(
        (PlanSegment(REST, True, 2), PlanSegment(LIGHT, False, 4), PlanSegment(REST, False, 1)),
        "Hand-worked", therapy=False)
    projection = project_plan(person(damage=10), plan)
    assert [r.damage_end for r in projection.healing] == [9, 8, 8, 8, 7, 7, 6, 5, 4, 3, 2, 1, 0]
    assert [r.progress for r in projection.healing][:8] == [
        0, 0, Fraction(1, 3), Fraction(2, 3), 0, Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)]
    assert [r.rate for r in projection.healing][:7] == [
        1, 1, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3), Fraction(1, 2), 1]
    assert projection.healing[2].rule == "Seriously Wounded, light activity: -1 dmg / 3 days"
    assert projection.fit_day == 5
    assert projection.healed_day == 13
    assert [(c.day, c.before, c.after) for c in projection.state_changes] == [
        (5, WoundState.SERIOUSLY_WOUNDED, WoundState.WOUNDED),
        (13, WoundState.WOUNDED, WoundState.UNHURT),
    ]
    assert projection.damage_on(0) == 10
    assert projection.damage_on(6) == 7
    assert projection.outcome == "Fit to fight on day 5, fully healed on day 13."


def test_stored_progress_carries_into_the_first_day() -> None:
    half = Recovery(activity=LIGHT, care=False, progress=Fraction(1, 2))
    character = person(damage=1, recovery=half)
    assert project_plan(character, HealingPlan.single(LIGHT, False, 1)).healed_day == 1
    fresh = person(damage=1)
    assert project_plan(fresh, HealingPlan.single(LIGHT, False, 1)).healed_day == 2


def test_impossible_and_hopeless_plans_say_so() -> None:
    critical = person(damage=17)
    light = project_plan(critical, HealingPlan.single(LIGHT, True, 3))
    assert light.healed_day is None
    # The plan's 3 days, then the first continuing day shows the regime is stuck.
    assert light.impossible_days == (1, 2, 3, 4)
    assert "never fully healed" in light.outcome.lower()
    assert "immobile" in light.outcome
    wounded = person(damage=3)
    moderate = project_plan(wounded, HealingPlan.single(MODERATE, False, 4))
    assert moderate.healed_day is None
    assert len(moderate.healing) == 5
    assert moderate.healing[-1].rate == 0


def test_therapy_follows_full_healing_one_characteristic_at_a_time() -> None:
    character = person(damage=2)
    character.characteristic_damage.intelligence = 2
    character.characteristic_damage.education = 1
    character.characteristic_damage.psionic_strength = 3
    projection = project_plan(character, HealingPlan.single(REST, False, 5))
    assert projection.healed_day == 2
    steps = plan_characteristic_therapy([("INT", 2), ("EDU", 1)], first_day=3)
    assert [(t.day, t.characteristic.value, t.points_after) for t in projection.therapy] == [
        (3, "int", 2), (4, "int", 2), (5, "int", 1), (6, "int", 1), (7, "int", 1),
        (8, "int", 0), (9, "edu", 1), (10, "edu", 1), (11, "edu", 0)]
    assert projection.recovered_day == steps[-1].last_day == 11
    assert "characteristics restored on day 11" in projection.outcome
    untreated = project_plan(character, HealingPlan((PlanSegment(REST, False, 5),),
                                                    therapy=False))
    assert untreated.therapy == ()
    assert untreated.recovered_day is None
    assert "not treated" in untreated.outcome


def test_unhurt_character_has_nothing_to_heal() -> None:
    projection = project_plan(person(), HealingPlan.single(REST, False, 3))
    assert projection.healing == ()
    assert projection.healed_day == 0
    assert projection.fit_day == 0
    assert projection.outcome == "Unhurt."


# --------------------------------------------------------------- the clock moves


def test_healing_days_count_from_the_regime_start_or_midnight() -> None:
    start = GameTime.at(1, 12)
    assert healing_days_between(start, start.advance(hours=12), None) == 1
    assert healing_days_between(start, start.advance(hours=11), None) == 0
    assert healing_days_between(start, start.advance(hours=12), start) == 0
    assert healing_days_between(start, start.advance(hours=24), start) == 1


def test_advancing_days_heals_by_each_regime_and_reverts_exactly() -> None:
    ann = person("Ann", 10, recovery=Recovery(activity=REST, care=True))
    bob = person("Bob", 3, recovery=Recovery(activity=LIGHT, care=False))
    cyd = person("Cyd", 5)
    campaign = campaign_of(ann, bob, cyd)
    before = campaign.model_dump()
    changes = advance_campaign(campaign, 3 * SECONDS_PER_DAY)
    assert isinstance(changes.edits[0], SetClock)
    assert campaign.model_dump() == before, "advance_campaign must not mutate"
    apply_changes(campaign, changes)
    assert campaign.game_time == GameTime(day=4)
    assert campaign.character(ann.id).damage == 7  # SW + care: 1/day
    assert campaign.character(bob.id).damage == 2  # W light: 1/2 a day
    assert campaign.character(bob.id).recovery.progress == Fraction(1, 2)
    assert campaign.character(cyd.id).damage == 5
    notices = [c for c in changes.notices]
    assert [n.character_id for n in notices] == [cyd.id]
    assert "no healing regime" in notices[0].text
    journal = campaign.journal[-1]
    assert journal.title == "Time passes: 3 days"
    assert "Ann: healed 3 (damage 10 → 7)" in journal.text
    revert_changes(campaign, changes)
    assert campaign.model_dump() == before


def test_progress_carries_across_separate_advances() -> None:
    bob = person("Bob", 3, recovery=Recovery(activity=LIGHT, care=False))
    campaign = campaign_of(bob)
    for _ in range(2):
        apply_changes(campaign, advance_campaign(campaign, SECONDS_PER_DAY))
    assert campaign.character(bob.id).damage == 2
    assert campaign.character(bob.id).recovery.progress == 0
    for _ in range(4):
        apply_changes(campaign, advance_campaign(campaign, SECONDS_PER_DAY // 2))
    assert campaign.character(bob.id).damage == 1


def test_bleeding_costs_a_point_a_minute_and_is_logged() -> None:
    now = GameTime.at(2, 10)
    bleeding = Condition(kind=ConditionKind.BLEEDING, started_at=now)
    ann = person("Ann", 7, conditions=[bleeding])
    campaign = campaign_of(ann, at=now)
    changes = advance_campaign(campaign, 5 * 60)
    apply_changes(campaign, changes)
    after = campaign.character(ann.id)
    assert after.damage == 12
    assert after.damage_history[-1].amount == 5
    assert after.damage_history[-1].source == "bleeding"
    line = next(c for c in changes.sheets).lines
    assert "bled 5 (damage 7 → 12)" in line
    assert "now Seriously Wounded (was Wounded)" in line


def test_bleeding_without_a_start_time_is_timed_from_now() -> None:
    ann = person("Ann", 2, conditions=[Condition(kind=ConditionKind.BLEEDING)])
    campaign = campaign_of(ann, at=GameTime.at(1, 9))
    apply_changes(campaign, advance_campaign(campaign, 30))
    assert campaign.character(ann.id).damage == 2
    assert campaign.character(ann.id).conditions[0].started_at == GameTime.at(1, 9)
    apply_changes(campaign, advance_campaign(campaign, 30))
    assert campaign.character(ann.id).damage == 3


def test_stabilisation_ends_and_the_dying_are_reminded_of_their_rolls() -> None:
    now = GameTime.at(1, 8)
    stable = Condition(kind=ConditionKind.STABILISED, started_at=now,
                       expires_at=now.advance(hours=1))
    evan = person("Evan", 25, conditions=[stable])
    campaign = campaign_of(evan, at=now)
    short = advance_campaign(campaign, 30 * 60)
    assert not [c for c in short.notices]
    changes = advance_campaign(campaign, 2 * 3600)
    apply_changes(campaign, changes)
    assert not campaign.character(evan.id).has_condition(ConditionKind.STABILISED)
    sheet = next(c for c in changes.sheets)
    assert any("stabilisation ended" in line for line in sheet.lines)
    notice = next(c for c in changes.notices)
    # The stabilisation held for the first hour: the notice says when it ended and what is
    # due after it, never "not stabilised" beside the first-aid line "stabilised for 1 hour".
    assert "not stabilised" not in notice.text
    assert "first-aid stabilisation ends at Day 1, 09:00" in notice.text
    assert "600 rounds in this time after it" in notice.text  # the hour after it ran out
    never = campaign_of(person("Fay", 25), at=now)
    (plain,) = advance_campaign(never, 60).notices
    assert "Dying and not stabilised" in plain.text


def test_the_dying_in_intensive_care_are_reminded_of_its_rolls() -> None:
    evan = person("Evan", 26, recovery=Recovery(activity=REST, care=True))
    campaign = campaign_of(evan)
    changes = advance_campaign(campaign, 3 * SECONDS_PER_DAY)
    notice = next(c for c in changes.notices)
    assert "Dying in intensive care" in notice.text
    apply_changes(campaign, changes)
    assert campaign.character(evan.id).damage == 25  # 1 point per 3 days


def test_the_dead_are_left_alone() -> None:
    dead = person("Dan", 30, conditions=[Condition(kind=ConditionKind.DEAD)],
                  recovery=Recovery())
    campaign = campaign_of(dead)
    changes = advance_campaign(campaign, 5 * SECONDS_PER_DAY,
                               {dead.id: HealingPlan.single(REST, True, 5)})
    assert not [c for c in changes.sheets]
    assert any("dead" in c.text for c in changes.notices)
    assert list(iter_patients(campaign)) == []


def test_plans_apply_for_their_days_and_leave_the_own_regime_kept() -> None:
    ann = person("Ann", 10, recovery=Recovery(activity=MODERATE, care=False))
    bob = person("Bob", 4, recovery=Recovery(activity=REST, care=False))
    campaign = campaign_of(ann, bob, at=GameTime.at(3, 6))
    plan = HealingPlan((PlanSegment(REST, True, 2), PlanSegment(LIGHT, False, 4)), "Mixed")
    changes = advance_campaign(campaign, 4 * SECONDS_PER_DAY, {ann.id: plan}, title="Mixed")
    apply_changes(campaign, changes)
    after = campaign.character(ann.id)
    assert after.damage == 8  # 10, 9, 8 under rest + care; two SW light days: 2/3 progress
    # Issue 14: the plan no longer replaces Ann's own regime; the progress carries on in it.
    assert after.recovery.activity is MODERATE and not after.recovery.care
    assert after.recovery.progress == Fraction(2, 3)
    assert campaign.character(bob.id).damage == 0
    assert campaign.journal[-1].title == "Mixed"


def test_advance_character_without_regime_or_days_changes_nothing() -> None:
    character = person(damage=5)
    assert advance_character(character, 3, HP_FRACTIONS)[0] == character
    assert advance_character(character, 0, HP_FRACTIONS,
                             HealingPlan.single(REST, True, 1))[0] == character


def test_bad_advances_are_refused() -> None:
    campaign = campaign_of(person())
    with pytest.raises(ValueError, match="only moves forward"):
        advance_campaign(campaign, -60)
    with pytest.raises(KeyError):
        advance_campaign(campaign, 60, {"nobody": HealingPlan.single(REST, True, 1)})


# -------------------------------------------------------------- medical events


def test_medical_rolls_rolled_or_entered() -> None:
    check = roll_check(random.Random(4), 2, 8)
    rolled = MedicalRoll.from_check(check)
    assert rolled.effect == check.effect
    assert rolled.text.startswith("rolled ")
    entered = MedicalRoll.entered(9, 1, 8)
    assert (entered.total, entered.effect, entered.success) == (10, 2, True)
    assert entered.text == "entered 2d6 9 +1 = 10 vs 8 (Effect +2)"
    with pytest.raises(ValueError, match="2 to 12"):
        MedicalRoll.entered(13, 0, 8)


def test_first_aid_heals_the_effect_stops_bleeding_and_takes_its_time() -> None:
    now = GameTime.at(1, 10)
    bleeding = Condition(kind=ConditionKind.BLEEDING, started_at=now)
    ann = person("Ann", 9, conditions=[bleeding])
    campaign = campaign_of(ann, at=now)
    before = campaign.model_dump()
    changes = first_aid(campaign, ann.id, MedicalRoll.entered(10, 0, 8), medic="Doc")
    apply_changes(campaign, changes)
    after = campaign.character(ann.id)
    # 3 minutes of bleeding (+3), then first aid with Effect 2 heals 2.
    assert after.damage == 10
    assert not after.has_condition(ConditionKind.BLEEDING)
    assert campaign.game_time == now.advance(seconds=FIRST_AID_SECONDS)
    assert campaign.journal[-1].title == "First aid: Ann"
    assert "first aid by Doc" in campaign.journal[-1].text
    revert_changes(campaign, changes)
    assert campaign.model_dump() == before


def test_first_aid_heals_at_least_one_and_fails_harmlessly() -> None:
    ann = person("Ann", 4)
    campaign = campaign_of(ann)
    bare = first_aid(campaign, ann.id, MedicalRoll.entered(8, 0, 8), advance_clock=False)
    assert not any(isinstance(c, SetClock) for c in bare.edits)
    apply_changes(campaign, bare)
    assert campaign.character(ann.id).damage == 3
    failed = first_aid(campaign, ann.id, MedicalRoll.entered(5, 0, 8), advance_clock=False)
    apply_changes(campaign, failed)
    assert campaign.character(ann.id).damage == 3
    assert "first aid failed" in campaign.journal[-1].text
    with pytest.raises(ValueError, match="Difficulty 10"):
        first_aid(campaign, ann.id, MedicalRoll.entered(8, 0, 8), on_self=True)


def test_first_aid_stabilises_a_dying_character_for_end_hours() -> None:
    now = GameTime.at(1, 10)
    evan = person("Evan", 30, stats=(7, 8, 9))
    campaign = campaign_of(evan, at=now)
    apply_changes(campaign, first_aid(campaign, evan.id, MedicalRoll.entered(9, 0, 8),
                                      advance_clock=False))
    after = campaign.character(evan.id)
    assert after.damage == 29
    stable = after.conditions_of(ConditionKind.STABILISED)
    assert len(stable) == 1
    assert stable[0].expires_at == now.advance(hours=9)


def test_surgery_needs_a_sickbay_heals_twice_the_effect_or_harms() -> None:
    ann = person("Ann", 12)
    campaign = campaign_of(ann, at=GameTime.at(1, 10))
    with pytest.raises(ValueError, match="hospital or sickbay"):
        surgery(campaign, ann.id, MedicalRoll.entered(10, 0, 8), medic_skill=1, sickbay=False)
    healed = surgery(campaign, ann.id, MedicalRoll.entered(11, 0, 8), medic_skill=1,
                     sickbay=True)
    apply_changes(campaign, healed)
    assert campaign.character(ann.id).damage == 6
    assert campaign.game_time == GameTime.at(1, 10, 30)
    # Fail effect 6 less Medic 1 = 5: 5 x 30 minutes, and 5 > END 9 / 2 harms by 10.
    failed = surgery(campaign, ann.id, MedicalRoll.entered(2, 0, 8), medic_skill=1,
                     sickbay=True)
    apply_changes(campaign, failed)
    after = campaign.character(ann.id)
    assert after.damage == 16
    assert after.damage_history[-1].amount == 10
    assert campaign.game_time == GameTime.at(1, 13)
    # Unskilled reduces nothing: fail effect 1 multiplies the time once, no harm.
    apply_changes(campaign, surgery(campaign, ann.id, MedicalRoll.entered(7, 0, 8),
                                    medic_skill=None, sickbay=True, advance_clock=False))
    assert campaign.character(ann.id).damage == 16


def test_intensive_care_rolls_and_dying_rolls() -> None:
    evan = person("Evan", 26)
    campaign = campaign_of(evan, person("Ann", 3))
    with pytest.raises(ValueError, match="not dying"):
        intensive_care(campaign, campaign.characters[1].id, None)
    apply_changes(campaign, intensive_care(campaign, evan.id, None))
    assert campaign.character(evan.id).damage == 24
    campaign.characters[0].damage = 26
    apply_changes(campaign, intensive_care(campaign, evan.id, MedicalRoll.entered(8, 0, 8)))
    assert campaign.character(evan.id).damage == 24
    campaign.characters[0].damage = 26
    survived = intensive_care(campaign, evan.id, MedicalRoll.entered(5, 0, 8),
                              MedicalRoll.entered(6, -1, 4))
    apply_changes(campaign, survived)
    assert campaign.character(evan.id).damage == 26
    assert not campaign.character(evan.id).has_condition(ConditionKind.DEAD)
    unrecorded = intensive_care(campaign, evan.id, MedicalRoll.entered(5, 0, 8))
    assert any("dying roll" in c.text for c in unrecorded.notices)
    died = intensive_care(campaign, evan.id, MedicalRoll.entered(5, 0, 8),
                          MedicalRoll.entered(2, -1, 4))
    apply_changes(campaign, died)
    assert campaign.character(evan.id).has_condition(ConditionKind.DEAD)
    assert "dead" in campaign.journal[-1].text
    with pytest.raises(ValueError, match="dead"):
        first_aid(campaign, evan.id, MedicalRoll.entered(12, 0, 8))
    revert_changes(campaign, died)
    assert not campaign.character(evan.id).has_condition(ConditionKind.DEAD)


def test_every_event_ends_with_one_journal_entry() -> None:
    ann = person("Ann", 5)
    campaign = campaign_of(ann)
    changes = first_aid(campaign, ann.id, MedicalRoll.entered(9, 0, 8))
    assert sum(isinstance(c, AddJournalEntry) for c in changes.edits) == 1
    assert isinstance(changes.edits[-1], AddJournalEntry)
