"""Natural healing, care levels, medics, first aid, surgery, intensive care and therapy."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mneme_desktop.rules import (
    FIRST_AID_ROUNDS,
    LIGHT_CARE_MONITORING,
    MONITORING_NOTE,
    Activity,
    CareLevel,
    PlanSegment,
    ThresholdBasis,
    WoundState,
    care_for_state,
    care_level,
    care_load,
    characteristic_therapy_days,
    first_aid_difficulty,
    first_aid_healing,
    first_aid_stabilisation_hours,
    healing_rate,
    healing_rule,
    infirmary_capacity,
    intensive_care_needs_roll,
    intensive_care_success_chance,
    medic_capacity,
    plan_characteristic_therapy,
    project_recovery,
    recovery_days,
    roll_intensive_care,
    surgery_healing,
    surgery_outcome,
    total_care_load,
    wound_thresholds,
)

W = WoundState.WOUNDED
S = WoundState.SERIOUSLY_WOUNDED
C = WoundState.CRITICALLY_WOUNDED
D = WoundState.DYING
MOD, LIGHT, REST = Activity.MODERATE, Activity.LIGHT, Activity.FULL_REST
F = Fraction

TABLE = [
    # state, moderate, moderate + care, light, light + care, full rest, full rest + care
    (W, F(0), F(1, 3), F(1, 2), F(1), F(1), F(2)),
    (S, F(0), F(0), F(1, 3), F(1, 2), F(1, 2), F(1)),
    (C, None, None, None, None, F(1, 7), F(1, 3)),
    (D, None, None, None, None, F(1, 7), F(1, 3)),
]


@pytest.mark.parametrize("row", TABLE, ids=lambda row: row[0].name)
def test_natural_healing_and_medical_care_table(row: tuple[object, ...]) -> None:
    state = row[0]
    assert isinstance(state, WoundState)
    cells = [(MOD, False), (MOD, True), (LIGHT, False), (LIGHT, True), (REST, False), (REST, True)]
    for (activity, care), expected in zip(cells, row[1:], strict=True):
        assert healing_rate(state, activity, care) == expected, (activity, care)


def test_unhurt_heals_nothing_and_the_dead_not_at_all() -> None:
    assert healing_rate(WoundState.UNHURT, REST, True) == 0
    with pytest.raises(ValueError, match="dead"):
        healing_rate(WoundState.DEAD, REST, True)


@pytest.mark.parametrize(
    ("state", "activity", "care", "text"),
    [
        (S, REST, True, "Seriously Wounded, full rest + moderate care: -1 dmg / day"),
        (W, REST, True, "Wounded, full rest + light care: -2 dmg / day"),
        (C, REST, False, "Critically Wounded, full rest: -1 dmg / 7 days"),
        (D, LIGHT, True, "Dying, light activity + intensive care: immobile, cannot heal"),
        (W, MOD, False, "Wounded, moderate activity: no healing"),
        (WoundState.UNHURT, REST, True, "Unhurt, full rest: no healing"),
    ],
)
def test_healing_rule_names_the_table_cell(
    state: WoundState, activity: Activity, care: bool, text: str
) -> None:
    assert healing_rule(state, activity, care) == text


# --- recovery --------------------------------------------------------------------------


def test_wounded_full_rest_heals_a_point_a_day() -> None:
    assert recovery_days(2, 21, REST, care=False) == 2


def test_crossing_from_seriously_to_wounded() -> None:
    """HP 21, damage 8, full rest: 2 days per point at 8 and 7, then 1 a day from 6."""
    assert recovery_days(8, 21, REST, care=False) == 2 + 2 + 6


def test_light_activity_crossing_from_seriously_to_wounded() -> None:
    """HP 21, damage 7, light activity: 3 days for the point at 7, then 2 days per point."""
    assert recovery_days(7, 21, LIGHT, care=False) == 3 + 6 * 2


def test_critically_wounded_with_serious_care_all_the_way_down() -> None:
    """HP 21, damage 15: 3 days each at 15 and 14, 1 a day for 13..7, 2 a day for 6..1."""
    assert recovery_days(15, 21, REST, care=True) == 6 + 7 + 3


def test_dying_under_intensive_care_heals_a_point_every_3_days() -> None:
    records = project_recovery(22, 21, [PlanSegment(REST, True, 6)])
    assert [r.state for r in records] == [D] * 3 + [C] * 3
    assert records[2].damage_end == 21
    assert records[5].damage_end == 20


def test_never_heals_returns_none() -> None:
    assert recovery_days(2, 21, MOD, care=False) is None
    assert recovery_days(15, 21, LIGHT, care=True) is None
    assert recovery_days(8, 21, MOD, care=True) is None
    assert recovery_days(2, 21, MOD, care=True) == 6
    assert recovery_days(0, 21, MOD, care=False) == 0


def test_recovery_under_characteristic_thresholds() -> None:
    thresholds = wound_thresholds(21, ThresholdBasis.CHARACTERISTIC, (9, 7, 5))
    # Damage 8 is only wounded on this basis: 8 days of full rest.
    assert recovery_days(8, 21, REST, False, thresholds) == 8


def test_leftover_progress_carries_over_between_segments() -> None:
    plan = [PlanSegment(LIGHT, False, 1), PlanSegment(MOD, True, 3)]
    records = project_recovery(3, 21, plan)
    assert [r.progress for r in records] == [F(1, 2), F(5, 6), F(1, 6), F(1, 2)]
    assert [r.damage_end for r in records] == [3, 3, 2, 2]
    assert [r.rate for r in records] == [F(1, 2), F(1, 3), F(1, 3), F(1, 3)]
    assert records[0].rule == "Wounded, light activity: -1 dmg / 2 days"
    assert records[1].rule == "Wounded, moderate activity + light care: -1 dmg / 3 days"
    assert [r.day for r in records] == [1, 2, 3, 4]


def test_a_strenuous_day_gains_nothing_but_keeps_earlier_progress() -> None:
    plan = [PlanSegment(LIGHT, False, 1), PlanSegment(MOD, False, 1), PlanSegment(LIGHT, False, 1)]
    records = project_recovery(3, 21, plan)
    assert [r.progress for r in records] == [F(1, 2), F(1, 2), F(0)]
    assert [r.damage_end for r in records] == [3, 3, 2]


def test_impossible_days_are_recorded_with_no_rate() -> None:
    records = project_recovery(15, 21, [PlanSegment(LIGHT, False, 2)])
    assert [r.rate for r in records] == [None, None]
    assert all(r.damage_end == 15 for r in records)
    assert "immobile" in records[0].rule


def test_projection_stops_when_healed_unless_asked() -> None:
    plan = [PlanSegment(REST, True, 5)]
    assert len(project_recovery(3, 21, plan)) == 2
    assert project_recovery(0, 21, plan) == []
    full = project_recovery(3, 21, plan, stop_when_healed=False)
    assert len(full) == 5
    assert full[-1].state is WoundState.UNHURT
    assert full[1].damage_end == 0 and full[1].progress == 0


def test_rate_two_heals_two_points_in_one_day() -> None:
    records = project_recovery(5, 21, [PlanSegment(REST, True, 10)])
    assert [(r.damage_start, r.damage_end) for r in records] == [(5, 3), (3, 1), (1, 0)]


def test_bad_plans_are_rejected() -> None:
    with pytest.raises(ValueError, match="days"):
        PlanSegment(REST, False, -1)
    with pytest.raises(ValueError, match="negative"):
        project_recovery(-1, 21, [PlanSegment(REST, False, 1)])


regimes = st.sampled_from([(a, c) for a in Activity for c in (False, True)])


@settings(max_examples=150)
@given(hp=st.integers(1, 45), regime=regimes, data=st.data())
def test_recovery_days_terminates_and_never_decreases(
    hp: int, regime: tuple[Activity, bool], data: st.DataObject
) -> None:
    activity, care = regime
    damage = data.draw(st.integers(0, hp + 5))
    now = recovery_days(damage, hp, activity, care)
    more = recovery_days(damage + 1, hp, activity, care)
    if now is None:
        assert more is None
    elif more is not None:
        assert more >= now


@settings(max_examples=100)
@given(hp=st.integers(1, 45), regime=regimes, data=st.data())
def test_one_long_segment_agrees_with_recovery_days(
    hp: int, regime: tuple[Activity, bool], data: st.DataObject
) -> None:
    activity, care = regime
    damage = data.draw(st.integers(1, hp + 5))
    days = recovery_days(damage, hp, activity, care)
    records = project_recovery(damage, hp, [PlanSegment(activity, care, 400)])
    if days is None:
        assert records[-1].damage_end > 0
    else:
        assert len(records) == days
        assert records[-1].damage_end == 0
        assert all(a.damage_end == b.damage_start for a, b in pairwise(records))


@given(
    hp=st.integers(1, 45),
    damage=st.integers(0, 50),
    days=st.lists(st.integers(0, 6), min_size=1, max_size=4),
    data=st.data(),
)
def test_splitting_a_segment_changes_nothing(
    hp: int, damage: int, days: list[int], data: st.DataObject
) -> None:
    activity, care = data.draw(regimes)
    split = [PlanSegment(activity, care, n) for n in days]
    whole = [PlanSegment(activity, care, sum(days))]
    assert project_recovery(damage, hp, split) == project_recovery(damage, hp, whole)


# --- care levels and medics ----------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "level"),
    [
        (0, None),
        (6, CareLevel.LIGHT),
        (7, CareLevel.MODERATE),
        (13, CareLevel.MODERATE),
        (14, CareLevel.SERIOUS),
        (21, CareLevel.SERIOUS),
        (22, CareLevel.INTENSIVE),
    ],
)
def test_care_level_uses_the_wound_thresholds(damage: int, level: CareLevel | None) -> None:
    assert care_level(damage, 21) is level


def test_care_for_state_and_loads() -> None:
    assert care_for_state(WoundState.UNHURT) is None
    assert care_for_state(WoundState.DEAD) is None
    assert care_for_state(D) is CareLevel.INTENSIVE
    assert [care_load(level) for level in CareLevel] == [1, 2, 4, 8]
    assert CareLevel.SERIOUS.load == 4
    assert CareLevel.MODERATE.label == "moderate care"
    assert total_care_load([CareLevel.LIGHT, CareLevel.INTENSIVE, CareLevel.MODERATE]) == 11


def test_medic_capacity_doubles_per_level() -> None:
    assert [medic_capacity(level) for level in range(4)] == [8, 16, 32, 64]
    assert medic_capacity(None) == 0
    with pytest.raises(ValueError):
        medic_capacity(-1)
    assert LIGHT_CARE_MONITORING == 32
    assert "32" in MONITORING_NOTE


def test_medic_2_supervision_doubles_the_supervised_medics() -> None:
    team = infirmary_capacity([0, 0], supervisor_level=3)
    assert (team.staff, team.supervision_bonus, team.supervisor, team.total) == (16, 16, 64, 96)
    weak = infirmary_capacity([0, 0], supervisor_level=1)
    assert (weak.supervision_bonus, weak.total) == (0, 32)
    alone = infirmary_capacity([1])
    assert alone.total == 16


# --- first aid, surgery, intensive care ---------------------------------------------


def test_first_aid() -> None:
    assert first_aid_difficulty() == 8
    assert first_aid_difficulty(on_self=True) == 10
    assert FIRST_AID_ROUNDS == 30
    assert first_aid_healing(0) == 1
    assert first_aid_healing(4) == 4
    assert first_aid_healing(-2) == 0
    assert first_aid_stabilisation_hours(7) == 7
    with pytest.raises(ValueError):
        first_aid_stabilisation_hours(-1)


def test_surgery_success_heals_twice_the_effect() -> None:
    assert surgery_healing(3) == 6
    outcome = surgery_outcome(2, medic_skill=1, endurance=7)
    assert (outcome.healed, outcome.fail_effect, outcome.minutes, outcome.damage) == (4, 0, 30, 0)
    with pytest.raises(ValueError):
        surgery_healing(-1)


@pytest.mark.parametrize(
    ("effect", "skill", "end", "expected"),
    [
        (-5, 2, 5, (0, 3, 90, 6)),  # remaining 3 > END/2 = 2.5: double damage
        (-4, 1, 6, (0, 3, 90, 0)),  # remaining 3 is not more than half of END 6
        (-3, 3, 7, (0, 0, 30, 0)),  # skill absorbs the whole fail effect
        (-2, -3, 3, (0, 2, 60, 4)),  # unskilled reduces nothing
    ],
)
def test_surgery_failure(effect: int, skill: int, end: int, expected: tuple[int, ...]) -> None:
    outcome = surgery_outcome(effect, skill, end)
    assert (outcome.healed, outcome.fail_effect, outcome.minutes, outcome.damage) == expected


def test_surgery_rejects_negative_endurance() -> None:
    with pytest.raises(ValueError):
        surgery_outcome(1, 0, -1)


def test_intensive_care_roll_unless_medic_2_supervises() -> None:
    assert intensive_care_needs_roll(None)
    assert intensive_care_needs_roll(1)
    assert not intensive_care_needs_roll(2)
    assert intensive_care_success_chance(0, supervisor_level=2) == 1
    assert intensive_care_success_chance(0) == F(15, 36)
    supervised = roll_intensive_care(random.Random(0), 0, supervisor_level=2)
    assert (supervised.check, supervised.healed, supervised.dying_roll_required) == (None, 2, False)


def test_unsupervised_intensive_care_heals_or_calls_for_a_dying_roll() -> None:
    rng = random.Random(5)
    seen = set()
    for _ in range(100):
        result = roll_intensive_care(rng, 0)
        assert result.check is not None
        assert result.check.difficulty == 8
        if result.check.success:
            assert (result.healed, result.dying_roll_required) == (2, False)
        else:
            assert (result.healed, result.dying_roll_required) == (0, True)
        seen.add(result.dying_roll_required)
    assert seen == {True, False}


# --- characteristic therapy ----------------------------------------------------------


def test_characteristic_therapy_one_point_per_3_days_one_at_a_time() -> None:
    assert characteristic_therapy_days(2) == 6
    with pytest.raises(ValueError):
        characteristic_therapy_days(-1)
    steps = plan_characteristic_therapy([("INT", 2), ("SOC", 0), ("EDU", 1)], first_day=11)
    assert [(s.characteristic, s.points, s.first_day, s.last_day) for s in steps] == [
        ("INT", 2, 11, 16),
        ("EDU", 1, 17, 19),
    ]
