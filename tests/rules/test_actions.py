"""Actions (Ch.6): every table and worked example of the chapter."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules.actions import (
    ACTION_CATALOG,
    AIM_CAP,
    FIRST_AID_ROUNDS,
    GRAPPLE_EFFECTS,
    HIT_LOCATIONS,
    MINOR_ACTIONS_PER_ROUND,
    ROUND_SECONDS,
    SPOTTER_CONDITION,
    TACTICS_DIFFICULTIES,
    THROW_DAMAGE,
    TWIST_DAMAGE,
    ActionEconomyError,
    ActionKind,
    ActionOption,
    BodyArea,
    DefenseKind,
    ExtendedAction,
    GrappleEffect,
    GrappleManeuver,
    Load,
    MovementMode,
    Stance,
    action_by_key,
    action_cost,
    add_aim,
    aim_after_target_change,
    aim_cap,
    ambush_initiative,
    ballistic_correction,
    can_spend,
    coordinating_difficulty,
    defend_modifier,
    defend_roll_modifier,
    extended_action_rounds,
    grapple_difficulty,
    grapple_effect,
    grapple_roll_modifier,
    hit_location,
    initiative_modifier,
    movement_metres,
    movement_spaces,
    roll_hit_location,
    roll_initiative,
    seriously_wounded_movement,
    spend,
    stance_change_cost,
    supporting_dm,
    sweep_effect_cost,
    tactics_attempts_allowed,
    tactics_capped_effect,
    tactics_initiative_bonus,
    tactics_max_effect,
    tactics_pool,
    throw_effect_cost,
    thrown_range,
    tracer_aim_bonus,
)
from mneme_desktop.rules.checks import TermKind
from mneme_desktop.rules.dice import two_d6_distribution

# --- action economy ---------------------------------------------------------------------


def test_action_costs() -> None:
    assert MINOR_ACTIONS_PER_ROUND == 3
    assert ROUND_SECONDS == 6
    costs = [action_cost(kind) for kind in ActionKind]
    assert costs == [0, 1, 2, 3]
    assert ActionKind.SIGNIFICANT.label == "Significant Action"


def test_spending_a_round() -> None:
    spent = spend(0, ActionKind.MINOR)
    spent = spend(spent, ActionKind.SIGNIFICANT)
    assert spent == 3
    assert spend(spent, ActionKind.FREE) == 3
    assert not can_spend(spent, ActionKind.MINOR)
    assert can_spend(0, ActionKind.FULL)
    assert not can_spend(1, ActionKind.FULL)
    assert can_spend(1, ActionKind.SIGNIFICANT)


def test_overspending_is_refused_clearly() -> None:
    with pytest.raises(ActionEconomyError, match="costs 2 minor actions but only 1 of 3"):
        spend(2, ActionKind.SIGNIFICANT)
    with pytest.raises(ActionEconomyError, match=r"0\.\.3"):
        can_spend(4, ActionKind.FREE)
    with pytest.raises(ActionEconomyError, match=r"0\.\.3"):
        spend(-1, ActionKind.MINOR)


EXPECTED_ACTIONS = {
    ActionKind.FREE: {"quick_phrase", "quick_glance", "snap"},
    ActionKind.MINOR: {
        "aim",
        "minor_movement",
        "changing_stance",
        "minor_readying",
        "quick_scan",
        "minor_stealth",
    },
    ActionKind.SIGNIFICANT: {
        "skill_action",
        "deliberate_stealth",
        "scan_search",
        "dash",
        "use_device",
        "use_tactics",
        "significant_readying",
        "defend",
        "attack",
        "supporting_action",
    },
    ActionKind.FULL: {"full_skill_action", "run", "extended_action"},
}


def test_catalog_holds_every_action_of_the_chapter() -> None:
    by_kind: dict[ActionKind, set[str]] = {}
    for action in ACTION_CATALOG:
        by_kind.setdefault(action.kind, set()).add(action.key)
        assert action.name
        assert action.category
        assert action.description.endswith(".")
    assert by_kind == EXPECTED_ACTIONS
    assert len({action.key for action in ACTION_CATALOG}) == len(ACTION_CATALOG)


def test_action_by_key() -> None:
    aim = action_by_key("aim")
    assert aim.description == "Gain a +1 DM to the next attack roll. Maximum +6 Aim bonus."
    assert action_by_key("defend").description == (
        "Double one Condition or Skill's value to reduce Fail effect."
    )
    with pytest.raises(KeyError, match="no action 'fly'"):
        action_by_key("fly")


def test_action_options() -> None:
    assert [option.label for option in ActionOption] == [
        "Reckless Action",
        "Coordinating Action",
        "Plan/Wait",
    ]
    assert "+2 DM" in ActionOption.RECKLESS.description
    assert "-3" in ActionOption.RECKLESS.roll_effect
    assert "Difficulty" in ActionOption.COORDINATING.roll_effect
    assert "Advantage" in ActionOption.PLAN_WAIT.roll_effect
    assert "Superiority" in ActionOption.COORDINATING.description


def test_coordinating_and_supporting() -> None:
    assert [coordinating_difficulty(v) for v in range(1, 5)] == [1, 2, 3, 4]
    for bad in (0, 5):
        with pytest.raises(ValueError, match="1 to 4"):
            coordinating_difficulty(bad)
    assert supporting_dm(3) == 3
    assert supporting_dm(0) == 0
    assert supporting_dm(-2) == 0


# --- movement ---------------------------------------------------------------------------

FINE_TABLE = {
    MovementMode.MOVE: (4, 3, 2, 1, None),
    MovementMode.DASH: (10, 7, 5, 3, 2),
    MovementMode.RUN: (15, 10, 7, 5, 3),
}
COARSE_TABLE = {
    MovementMode.MOVE: (1, 1, None, None, None),
    MovementMode.DASH: (3, 2, 2, 1, None),
    MovementMode.RUN: (5, 3, 3, 2, 1),
}
COLUMNS = (
    (Load.LIGHT, Stance.STANDING),
    (Load.MEDIUM, Stance.STANDING),
    (Load.LIGHT, Stance.CROUCHED),
    (Load.HEAVY, Stance.CROUCHED),
    (Load.LIGHT, Stance.PRONE),
)


@pytest.mark.parametrize(("scale", "table"), [(1.5, FINE_TABLE), ("4.5", COARSE_TABLE)])
def test_movement_table(scale: float | str, table: dict[MovementMode, tuple[int | None]]) -> None:
    for mode, row in table.items():
        got = tuple(movement_spaces(mode, load, stance, scale) for load, stance in COLUMNS)
        assert got == row


def test_medium_and_heavy_load_move_alike_and_crawl_ignores_load() -> None:
    for mode in MovementMode:
        for stance in Stance:
            assert movement_spaces(mode, Load.MEDIUM, stance) == movement_spaces(
                mode, Load.HEAVY, stance
            )
        assert movement_spaces(mode, Load.HEAVY, Stance.PRONE) == movement_spaces(
            mode, Load.LIGHT, Stance.PRONE
        )


def test_movement_metres() -> None:
    assert movement_metres(MovementMode.MOVE) == 6  # "Move 6m or 4 spaces"
    assert movement_metres(MovementMode.DASH) == 15
    assert movement_metres(MovementMode.RUN) == Fraction(45, 2)  # 22.5 m
    assert movement_metres(MovementMode.MOVE, Load.MEDIUM) == Fraction(9, 2)  # 4.5 m
    assert movement_metres(MovementMode.RUN, scale_m=Fraction(9, 2)) == Fraction(45, 2)
    assert movement_metres(MovementMode.MOVE, stance=Stance.PRONE) is None


def test_movement_scale_must_be_a_table_scale() -> None:
    with pytest.raises(ValueError, match=r"1\.5 m and 4\.5 m"):
        movement_spaces(MovementMode.MOVE, scale_m=2)


def test_movement_modes_action_kinds() -> None:
    assert MovementMode.MOVE.action_kind is ActionKind.MINOR
    assert MovementMode.DASH.action_kind is ActionKind.SIGNIFICANT
    assert MovementMode.RUN.action_kind is ActionKind.FULL


def test_seriously_wounded_movement() -> None:
    assert seriously_wounded_movement(4) == 3
    assert seriously_wounded_movement(3) == 2
    assert seriously_wounded_movement(1) == 1
    assert seriously_wounded_movement(0) == 0
    assert movement_spaces(MovementMode.MOVE, seriously_wounded=True) == 3
    assert movement_spaces(MovementMode.DASH, seriously_wounded=True) is None
    assert movement_spaces(MovementMode.RUN, seriously_wounded=True) is None
    assert movement_spaces(MovementMode.MOVE, stance=Stance.PRONE, seriously_wounded=True) is None
    assert movement_metres(MovementMode.MOVE, seriously_wounded=True) == Fraction(9, 2)


def test_stance_change_costs() -> None:
    assert stance_change_cost(Stance.STANDING, Stance.PRONE) == 1
    assert stance_change_cost(Stance.STANDING, Stance.CROUCHED) == 1
    assert stance_change_cost(Stance.PRONE, Stance.CROUCHED) == 2
    assert stance_change_cost(Stance.CROUCHED, Stance.STANDING) == 1
    assert stance_change_cost(Stance.PRONE, Stance.STANDING) == 3
    assert stance_change_cost(Stance.CROUCHED, Stance.PRONE) == 1
    for stance in Stance:
        assert stance_change_cost(stance, stance) == 0


# --- initiative -------------------------------------------------------------------------


def test_initiative_modifier() -> None:
    assert initiative_modifier(7) == 0
    assert initiative_modifier(9) == 1
    assert initiative_modifier(9, 2) == 3
    assert initiative_modifier(4, None) == -1
    assert initiative_modifier(4, 0) == -1


def test_roll_initiative() -> None:
    rolled = roll_initiative(random.Random(11), dex=12, skill_level=1)
    assert len(rolled.dice) == 2
    assert rolled.modifier == 3
    assert rolled.value == sum(rolled.dice) + 3
    assert roll_initiative(random.Random(11), 12, 1) == rolled


def test_ambush_initiative() -> None:
    assert ambush_initiative(7) == 12
    assert ambush_initiative(10) == 13
    assert ambush_initiative(2) == 10


# --- tactics ----------------------------------------------------------------------------


def test_tactics_table() -> None:
    assert TACTICS_DIFFICULTIES == (6, 8, 10, 12)
    assert [tactics_max_effect(d) for d in TACTICS_DIFFICULTIES] == [1, 2, 4, 8]
    for bad in (4, 7, 14):
        with pytest.raises(ValueError, match="6, 8, 10 or 12"):
            tactics_max_effect(bad)


def test_tactics_caps_both_ways() -> None:
    assert tactics_capped_effect(5, 8) == 2
    assert tactics_capped_effect(-5, 8) == -2
    assert tactics_capped_effect(3, 12) == 3
    assert tactics_capped_effect(-9, 12) == -8


def test_tactics_pool_and_attempts() -> None:
    assert tactics_pool(3, 10) == (3, 0)
    assert tactics_pool(6, 10) == (4, 0)
    assert tactics_pool(-3, 8) == (0, 2)
    assert tactics_pool(0, 6) == (0, 0)
    assert tactics_attempts_allowed(1) == 2  # "skill 1 in Tactics can try 2x in a battle"
    assert tactics_attempts_allowed(0) == 1
    with pytest.raises(ValueError, match="cannot be negative"):
        tactics_attempts_allowed(-1)


def test_tactics_initiative_bonus() -> None:
    assert tactics_initiative_bonus(3) == 3
    assert tactics_initiative_bonus(3, 8) == 2
    assert tactics_initiative_bonus(-1) == -1


# --- aim --------------------------------------------------------------------------------


def test_aim_caps_at_six() -> None:
    assert AIM_CAP == 6
    aim = 0
    for _ in range(8):
        aim = add_aim(aim)
    assert aim == 6


def test_weapon_aim_modifier_can_exceed_six() -> None:
    assert aim_cap(2) == 12
    assert aim_cap(0) == 6
    aim = 0
    for _ in range(7):
        aim = add_aim(aim, weapon_aim_modifier=2)
    assert aim == 12
    assert add_aim(0, 2) == 2


def test_aim_validation() -> None:
    for function in (add_aim, ballistic_correction):
        with pytest.raises(ValueError, match="cannot be negative"):
            function(-1)
    with pytest.raises(ValueError, match="cannot be negative"):
        aim_after_target_change(-1, True)
    with pytest.raises(ValueError, match="preserved aim cannot be negative"):
        aim_after_target_change(3, True, preserved=-1)


def test_changing_targets() -> None:
    assert aim_after_target_change(4, same_position_and_conditions=False) == 0
    assert aim_after_target_change(4, same_position_and_conditions=True) == 4
    assert aim_after_target_change(4, True, preserved=2) == 2
    assert aim_after_target_change(4, True, preserved=9) == 4


def test_ballistic_correction_and_tracers() -> None:
    assert ballistic_correction(3) == 4
    assert ballistic_correction(6) == 6
    assert ballistic_correction(6, weapon_aim_modifier=2) == 7
    assert tracer_aim_bonus(False) == 1
    assert tracer_aim_bonus(True) == 3
    assert SPOTTER_CONDITION == 2


# --- defend -----------------------------------------------------------------------------


def test_defend_doubles_one_modifier() -> None:
    assert defend_modifier(2, DefenseKind.SKILL) == 4
    assert defend_modifier(3, DefenseKind.SKILL) == 6
    assert defend_modifier(1, DefenseKind.COVER) == 2
    assert defend_modifier(2, DefenseKind.CONCEALMENT) == 4
    assert defend_modifier(4, DefenseKind.COVER) == 4  # never past 4
    assert defend_modifier(3, DefenseKind.CONCEALMENT) == 4
    with pytest.raises(ValueError, match="cannot be negative"):
        defend_modifier(-1, DefenseKind.COVER)


def test_defend_example_from_the_chapter() -> None:
    # "A Character with Skill 1 and ChM 0, rolls on a 1 DM" -- the ordinary roll.
    assert defend_roll_modifier(1, 0, skill_doubled=False) == 1
    # "If the Character has a Skill 2, the character rolls at a 4 DM" -- skill doubled.
    assert defend_roll_modifier(2, 0) == 4
    assert defend_roll_modifier(1, 0) == 2
    assert defend_roll_modifier(2, 1) == 5
    assert defend_roll_modifier(None, 1) == -2


# --- targeted attacks -------------------------------------------------------------------

LOCATION_TABLE = [
    (2, "2.78%", 3, "Vitals, Neck", BodyArea.VITALS),
    (3, "5.56%", 2, "Feet", BodyArea.EXTREMITY),
    (4, "8.33%", 2, "Secondary Leg", BodyArea.LIMB),
    (5, "11.11%", 1, "Primary Leg", BodyArea.LIMB),
    (6, "13.89%", 1, "Groin", BodyArea.BODY),
    (7, "16.67%", 0, "Core or Center of Mass", BodyArea.BODY),
    (8, "13.89%", 1, "Chest", BodyArea.BODY),
    (9, "11.11%", 1, "Primary Arm", BodyArea.LIMB),
    (10, "8.33%", 2, "Secondary Arm", BodyArea.LIMB),
    (11, "5.56%", 2, "Hands", BodyArea.EXTREMITY),
    (12, "2.78%", 3, "Head", BodyArea.HEAD),
]


@pytest.mark.parametrize(("roll", "odds", "modifier", "name", "area"), LOCATION_TABLE)
def test_hit_location_table(roll: int, odds: str, modifier: int, name: str, area: BodyArea) -> None:
    location = hit_location(roll)
    assert location.roll == roll
    assert location.name == name
    assert location.difficulty_modifier == modifier
    assert location.body_area is area
    assert location.sided == (name in ("Feet", "Hands"))
    assert f"{float(two_d6_distribution()[roll]) * 100:.2f}%" == odds


def test_hit_location_range() -> None:
    assert len(HIT_LOCATIONS) == 11
    for bad in (1, 13):
        with pytest.raises(ValueError, match=r"2\.\.12"):
            hit_location(bad)


def test_roll_hit_location_sides() -> None:
    seen_sided = False
    for seed in range(200):
        rolled = roll_hit_location(random.Random(seed))
        assert rolled.location == hit_location(sum(rolled.dice))
        if rolled.location.sided:
            seen_sided = True
            assert rolled.side_die is not None
            expected = "Primary" if rolled.side_die <= 3 else "Secondary"
            assert rolled.side == expected
            assert rolled.name == f"{expected} {rolled.location.name}"
        else:
            assert rolled.side_die is None
            assert rolled.side is None
            assert rolled.name == rolled.location.name
    assert seen_sided


# --- grappling --------------------------------------------------------------------------


def test_grapple_maneuvers() -> None:
    assert GrappleManeuver.TARGETED_LIMB.difficulty == 1
    assert GrappleManeuver.TARGETED_EXTREMITY.difficulty == 2
    assert GrappleManeuver.THROW.difficulty == 3
    assert GrappleManeuver.SWEEP.difficulty == 2
    assert GrappleManeuver.NONE.difficulty == 0
    assert GrappleManeuver.TARGETED_LIMB.label == "Targeted Limb"


def test_grapple_difficulty_terms() -> None:
    breakdown = grapple_difficulty(
        adversary_chm=1,
        maneuver=GrappleManeuver.THROW,
        adversary_skilled=False,
        weapon_factor=2,
    )
    assert [(t.label, t.value) for t in breakdown.terms] == [
        ("Base difficulty", 8),
        ("Adversary STR/DEX DM", 1),
        ("Adversary unskilled", -3),
        ("Weapons factor", 2),
        ("Maneuver: Throw", 3),
    ]
    assert breakdown.total == 11
    assert breakdown.total_of(TermKind.TARGETED) == 3
    assert grapple_difficulty(0).total == 8
    assert len(grapple_difficulty(0).terms) == 1


def test_grapple_roll_modifier_unskilled() -> None:
    assert grapple_roll_modifier(None, 0) == -3
    assert grapple_roll_modifier(2, 1) == 3


def test_grapple_effects_table() -> None:
    rows = {(row.effect, row.effect_cost, row.difficulty) for row in GRAPPLE_EFFECTS}
    assert rows == {
        (GrappleEffect.TARGET_LIMB, 2, 1),
        (GrappleEffect.TARGET_EXTREMITY, 3, 2),
        (GrappleEffect.DAMAGE, 2, 1),
        (GrappleEffect.BIND, 2, 1),
        (GrappleEffect.THROW, None, 3),
        (GrappleEffect.SWEEP, None, 2),
    }
    assert grapple_effect(GrappleEffect.DAMAGE).notes.startswith("Deal 1d3 damage")
    assert grapple_effect(GrappleEffect.SWEEP).target == "Legs"


def test_grapple_damage_and_costs() -> None:
    assert str(THROW_DAMAGE) == "2d3"
    assert str(TWIST_DAMAGE) == "1d3"
    assert throw_effect_cost(21) == 4  # 21 / 6 = 3.5, rounded up
    assert throw_effect_cost(18) == 3
    assert sweep_effect_cost(7) == 4
    assert sweep_effect_cost(8) == 4
    with pytest.raises(ValueError, match="at least 1"):
        throw_effect_cost(0)
    with pytest.raises(ValueError, match="cannot be negative"):
        sweep_effect_cost(-1)


# --- thrown weapons ---------------------------------------------------------------------


def test_thrown_examples() -> None:
    assert thrown_range(7, "0.5") == (3, 10)
    assert thrown_range(7, 0.5) == (3, 10)
    assert thrown_range(7, Fraction(3, 2)) == (10, 31)
    assert thrown_range(7, 1.5) == (10, 31)
    assert thrown_range(10, 1) == (10, 30)
    assert thrown_range(7, 1.1) == (7, 23)  # exact 7.7 and 23.1, not float noise


def test_thrown_validation() -> None:
    with pytest.raises(ValueError, match=r"like 0\.5"):
        thrown_range(7, "half")
    with pytest.raises(ValueError, match="cannot be negative"):
        thrown_range(7, -1)
    with pytest.raises(ValueError, match="cannot be negative"):
        thrown_range(-7, 1)
    with pytest.raises(TypeError, match="must be a number"):
        thrown_range(7, True)


# --- extended actions -------------------------------------------------------------------


def test_first_aid_takes_thirty_rounds() -> None:
    assert FIRST_AID_ROUNDS == 30
    task = ExtendedAction.start(FIRST_AID_ROUNDS)
    assert (task.total_rounds, task.remaining_rounds, task.rounds_taken) == (30, 30, 0)
    task = task.advance(0)
    assert task.remaining_rounds == 29
    task = task.advance(3)  # a Success Effect of 3 shortens by 3 more
    assert task.remaining_rounds == 25
    task = task.advance(-2)  # Fail Effect 2: the round counts but 2 rounds of progress are lost
    assert task.remaining_rounds == 26
    assert task.rounds_taken == 3
    assert not task.done


def test_extended_action_bounds() -> None:
    task = ExtendedAction.start(5).advance(-4)
    assert task.remaining_rounds == 5  # cannot lose progress never made
    done = task.advance(10)
    assert done.remaining_rounds == 0
    assert done.done
    with pytest.raises(ValueError, match="already complete"):
        done.advance(0)


def test_extended_action_validation() -> None:
    with pytest.raises(ValueError, match="at least 1 round"):
        ExtendedAction(0, 0)
    with pytest.raises(ValueError, match=r"remaining rounds must be 0\.\.5"):
        ExtendedAction(5, 6)
    with pytest.raises(ValueError, match="rounds taken"):
        ExtendedAction(5, 5, -1)


def test_extended_action_rounds_from_timing_roll() -> None:
    assert extended_action_rounds(FIRST_AID_ROUNDS, 0) == 30
    assert extended_action_rounds(FIRST_AID_ROUNDS, 2) == 8  # 7.5 rounds, rounded up
    assert extended_action_rounds(FIRST_AID_ROUNDS, -1) == 45


@given(
    st.integers(min_value=1, max_value=60),
    st.lists(st.integers(min_value=-8, max_value=8), max_size=80),
)
def test_extended_action_stays_in_bounds(total: int, effects: list[int]) -> None:
    task = ExtendedAction.start(total)
    for value in effects:
        if task.done:
            break
        before = task.remaining_rounds
        task = task.advance(value)
        assert 0 <= task.remaining_rounds <= total
        if value >= 0:
            assert task.remaining_rounds < before
