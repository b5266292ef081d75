"""Timing rolls for extended actions: the median (rounds, minutes or hours) times the Ch.3
time table's share for the timing check's Effect, the task started with the rounds that
follow in one step, and the log saying how they were found."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import combat
from mneme_desktop.domain.combat import CombatError, TaskTiming
from mneme_desktop.domain.quick_check import MAX_DURATION, TimeUnit
from mneme_desktop.rules.actions import FIRST_AID_ROUNDS, ROUND_SECONDS
from mneme_desktop.rules.checks import check_from_dice
from mneme_desktop.rules.dice import DiceSource
from tests.domain.test_combat import by_name, fight, make_campaign


@pytest.mark.parametrize(("effect", "rounds", "percent", "interpolated"), [
    (2, 8, "25%", False),      # 30 x 1/4 = 7.5, a part round counts whole
    (1, 15, "50%", False),
    (0, 30, "100%", False),
    (-1, 45, "150%", False),
    (-2, 53, "175%", True),    # the project's reading: 52.5, rounded up
    (-3, 60, "200%", False),
    (5, 8, "25%", True),       # past +2 the time stays at 25 %
    (-4, 68, "225%", True),    # past -3, +25 % a point
])
def test_the_time_table_on_first_aids_thirty_rounds(effect, rounds, percent, interpolated):
    timing = TaskTiming(FIRST_AID_ROUNDS, TimeUnit.ROUNDS, effect)
    assert timing.rounds == rounds
    assert timing.percent == percent
    assert timing.modifier.interpolated is interpolated
    assert timing.median_text == "30 rounds"


def test_minutes_and_hours_become_rounds_of_six_seconds():
    assert ROUND_SECONDS == 6
    minutes = TaskTiming(3, TimeUnit.MINUTES, 1)
    assert minutes.median_rounds == 30 and minutes.rounds == 15
    assert minutes.median_text == "3 minutes (30 rounds)"
    hour = TaskTiming(1, TimeUnit.HOURS, -2)
    assert hour.median_rounds == 600 and hour.rounds == 1050
    assert hour.median_text == "1 hour (600 rounds)"
    assert TaskTiming(1, TimeUnit.ROUNDS, 2).rounds == 1  # never less than a round
    assert TaskTiming(MAX_DURATION, TimeUnit.HOURS, -3).rounds == MAX_DURATION * 600 * 2


@pytest.mark.parametrize("median", [0, -1, MAX_DURATION + 1])
def test_a_median_out_of_range_is_refused(median):
    with pytest.raises(CombatError, match="median duration runs from 1"):
        TaskTiming(median, TimeUnit.MINUTES, 0)


def test_the_timing_check_from_the_table_or_the_app():
    timing = combat.roll_task_timing(30, TimeUnit.ROUNDS, DiceSource.table((4, 5)), 3, 8)
    assert timing.check == check_from_dice((4, 5), 3, 8)
    assert timing.effect == 4 and timing.rounds == 8 and timing.how == "dice at the table"
    assert timing.found_by == "timing check dice at the table 4+5 DM +3 vs 8 = 12, Effect +4"
    rolled = combat.roll_task_timing(2, TimeUnit.MINUTES, DiceSource.app(random.Random(3)),
                                     0, 8)
    again = combat.roll_task_timing(2, TimeUnit.MINUTES, DiceSource.app(random.Random(3)),
                                    0, 8)
    assert rolled == again and rolled.how == "rolled"  # a seeded roll repeats
    assert rolled.check is not None and rolled.effect == rolled.check.effect
    with pytest.raises(CombatError):
        combat.roll_task_timing(30, TimeUnit.ROUNDS, DiceSource.table((7, 1)), 0, 8)
    with pytest.raises(CombatError, match="timing check's Effect"):
        TaskTiming(30, TimeUnit.ROUNDS, 1, check_from_dice((4, 5), 3, 8))


def test_a_start_with_a_typed_effect_is_one_step_and_says_how():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    timing = TaskTiming(3, TimeUnit.MINUTES, 1)
    patch = combat.start_task_patch(campaign, encounter, mara.id, "Rig the door", 99,
                                    timing=timing)
    patch.apply(campaign)
    task = mara.extended_task
    assert task is not None and task.total_rounds == task.remaining_rounds == 15
    entry = encounter.log[-1]
    assert entry.text == (
        "Mara Vey starts Rig the door (15 rounds, timing roll on a median of 3 minutes "
        "(30 rounds): Effect +1 typed; Ch.3 time table, Success +1: 50% of median time "
        "= 15 rounds)")
    assert entry.dice == [] and entry.effect is None
    patch.revert(campaign)
    assert mara.extended_task is None and encounter.log[-1] is not entry


def test_a_start_with_a_rolled_timing_check_logs_the_dice():
    campaign = make_campaign()
    encounter = fight(campaign)
    tomas, ilse = (by_name(campaign, encounter, name) for name in ("Tomas Okoro",
                                                                     "Ilse Brandt"))
    modifier = combat.first_aid_modifier(campaign.combatant_character(tomas))
    timing = combat.roll_task_timing(FIRST_AID_ROUNDS, TimeUnit.ROUNDS,
                                     DiceSource.table((2, 2)), modifier, 8)
    assert timing.effect == modifier + 4 - 8
    combat.start_task_patch(campaign, encounter, tomas.id, "First Aid on Ilse Brandt",
                            target_id=ilse.id, first_aid=True, timing=timing).apply(campaign)
    task = tomas.extended_task
    assert task is not None and task.total_rounds == timing.rounds and task.first_aid
    entry = encounter.log[-1]
    assert entry.dice == [2, 2] and entry.modifier == modifier and entry.difficulty == 8
    assert entry.effect == timing.effect
    assert "timing check dice at the table 2+2" in entry.text
    assert f"= {timing.rounds} rounds)" in entry.text


def test_typing_the_rounds_still_works_and_says_so():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    combat.start_task_patch(campaign, encounter, mara.id, "Search", 12).apply(campaign)
    assert mara.extended_task is not None and mara.extended_task.total_rounds == 12
    assert encounter.log[-1].text == "Mara Vey starts Search (12 rounds, typed)"
    with pytest.raises(CombatError, match="at least 1 round"):
        combat.start_task_patch(campaign, encounter,
                                by_name(campaign, encounter, "Ilse Brandt").id, "Search", 0)


def test_the_timing_check_dm_from_a_skill_counts_wounds_and_unskilled():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = campaign.combatant_character(by_name(campaign, encounter, "Mara Vey"))
    assert combat.task_skill_modifier(mara, "Tactics") == 1
    assert combat.task_skill_modifier(mara, "Gun Combat (Slug Rifle)") == 2
    assert combat.task_skill_modifier(mara, "Medic") == -3
    mara.damage = 6  # -1 per 3 damage
    assert combat.task_skill_modifier(mara, "Tactics") == 1 - 2
