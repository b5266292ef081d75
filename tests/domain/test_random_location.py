"""A random hit location (Ch.6: "Use 2d6 in the Targeted Attack Location table to determine
random Hit Location when necessary"): rolled after a hit, in the app or at the table, with the
1d6 for the primary or secondary foot or hand; it adds no Difficulty, and Apply puts the
location's targeted-damage effect (Ch.7) on the sheet and in the log, as one step."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import ConditionKind, combat
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.hit_locations import (
    BodyArea,
    hit_location,
    hit_location_from,
    roll_hit_location,
    typed_hit_location,
)
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign, request

# --- the table's dice -----------------------------------------------------------------------


def test_typed_location_reads_the_2d6_and_the_1d6_for_feet_and_hands():
    core = typed_hit_location((3, 4))
    assert core.location.key == "core" and core.side_die is None and core.name.startswith("Core")
    hands = typed_hit_location((5, 6, 2))
    assert hands.location.key == "hands" and hands.name == "Primary Hands"
    assert hands.table_dice == (5, 6, 2)
    assert hands.dice_text == "2d6 5+6 = 11, 1d6 2 (Primary)"
    feet = typed_hit_location([1, 2, 4])
    assert feet.name == "Secondary Feet"
    assert typed_hit_location((6, 6)).location.body_area is BodyArea.HEAD


@pytest.mark.parametrize(("dice", "says"), [
    ((5, 6), "add the 1d6"),            # hands need primary or secondary
    ((1, 2), "add the 1d6"),            # so do feet
    ((3, 4, 2), "takes no 1d6"),        # the core has no side
    ((3,), "2d6, then 1d6"),
    ((3, 4, 5, 6), "2d6, then 1d6"),
    ((0, 4), "not a die"),
    ((7, 1), "not a die"),
])
def test_a_mistyped_location_is_refused_and_says_why(dice, says):
    with pytest.raises(ValueError, match=says):
        typed_hit_location(dice)


def test_the_app_rolls_the_same_location_as_the_rules_core():
    for seed in range(40):
        assert hit_location_from(DiceSource.app(random.Random(seed))) == \
            roll_hit_location(random.Random(seed))


def test_location_sources_read_the_referees_box():
    rng = random.Random(1)
    (app,) = combat.location_sources("  ", rng)
    assert app.rng is rng
    assert [s.typed for s in combat.location_sources("562", None)] == [(5, 6, 2)]
    assert [s.typed for s in combat.location_sources("34", None)] == [(3, 4)]
    assert [s.typed for s in combat.location_sources("5 6 2; 3,4", None)] == [(5, 6, 2), (3, 4)]
    with pytest.raises(ValueError):
        combat.location_sources("5 x", None)


# --- after the hit, no Difficulty -----------------------------------------------------------


def brute_hit(effect: int = 0, damage: int = 5):
    """Mara's rifle hits Brute 1 (24 HP, no armor) with one damage roll typed at the table."""
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, effect), random.Random(1),
                                    typed_damage=[[damage] * (1 + effect)])
    return campaign, encounter, outcome


def test_a_random_location_adds_no_difficulty_and_leaves_the_roll_as_it_was():
    campaign, encounter, outcome = brute_hit()
    spec = outcome.spec
    assert "Targeted attack" not in {t.label for t in spec.difficulty.terms}
    assert spec.difficulty.total == 8
    odds = combat.attack_odds(spec)
    located = combat.locate_hits(outcome, DiceSource.table((6, 6)))
    assert located.spec is spec and located.check is outcome.check
    assert located.hits[0].random_location is not None
    assert located.hits[0].result == outcome.hits[0].result
    assert combat.attack_odds(located.spec) == odds
    # The same location aimed at would have cost +3.
    aimed = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", [("Brute 1", 4)], location=hit_location(12)))
    assert aimed.difficulty.total == spec.difficulty.total + 3


def test_a_targeted_attack_has_its_location_and_a_miss_has_none():
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", [("Brute 1", 4)], location=hit_location(9)))
    hit = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(1), [[4]])
    assert not hit.can_locate
    with pytest.raises(combat.CombatError, match="targeted attack"):
        combat.locate_hits(hit, DiceSource.app(random.Random(1)))
    plain = combat.build_attack(campaign, encounter,
                                request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    miss = combat.resolve_attack(plain, check_with_effect(plain, -1), random.Random(1))
    assert not miss.hit and not miss.can_locate
    with pytest.raises(combat.CombatError, match="after a hit"):
        combat.locate_hits(miss, DiceSource.app(random.Random(1)))


def test_apply_puts_the_random_locations_effect_on_the_sheet_and_in_the_log():
    campaign, encounter, outcome = brute_hit(damage=5)
    located = combat.locate_hits(outcome, combat.location_sources("5 6 2", None))
    hit = located.hits[0]
    assert located.where(hit) == (hit_location(11), "Primary Hands")
    assert located.location_effect(hit) is not None  # 5 >= 24 // 10
    brute_id = by_name(campaign, encounter, "Brute 1").id
    before = campaign.combatant_character(by_name(campaign, encounter, "Brute 1")).model_copy(
        deep=True)
    log_before = len(encounter.log)
    patch = combat.attack_patch(campaign, encounter, located)
    patch.apply(campaign)
    brute = campaign.combatant_character(by_name(campaign, encounter, "Brute 1"))
    crippled = [c for c in brute.conditions if c.kind is ConditionKind.CRIPPLED]
    assert [c.detail for c in crippled] == ["Primary Hands"]
    assert brute.damage == 5 and brute.damage_history[-1].location is BodyArea.EXTREMITY
    damage_line = next(e for e in encounter.log[log_before:]
                       if e.target_id == brute_id and e.action.startswith("Damage"))
    assert "5 damage to the Primary Hands (random hit location: 2d6 5+6 = 11, 1d6 2 " \
           "(Primary))" in damage_line.text
    assert any("Crippled" in change for change in damage_line.state_changes)
    patch.revert(campaign)  # one step: undone whole
    assert campaign.combatant_character(by_name(campaign, encounter, "Brute 1")) == before
    assert len(encounter.log) == log_before


@pytest.mark.parametrize(("dice", "damage", "kind"), [
    ((3, 4), 16, None),                        # core: the body has no targeted effect
    ((1, 1), 2, ConditionKind.BLEEDING),       # vitals: 2 >= 24 // 10 bleeds
    ((6, 6), 2, ConditionKind.STUNNED),        # head: 2 >= 24 // 10 stuns
    ((6, 6), 1, None),                         # below the head's threshold
    ((2, 3), 8, ConditionKind.CRIPPLED),       # primary leg: 8 >= 24 // 3 cripples
    ((2, 3), 7, None),                         # a limb needs a third of HP
])
def test_each_area_takes_its_chapter_7_effect(dice, damage, kind):
    campaign, encounter, outcome = brute_hit(damage=damage)
    located = combat.locate_hits(outcome, DiceSource.table(dice))
    combat.attack_patch(campaign, encounter, located).apply(campaign)
    brute = campaign.combatant_character(by_name(campaign, encounter, "Brute 1"))
    located_kinds = {c.kind for c in brute.conditions if c.detail}
    assert located_kinds == ({kind} if kind else set())


def test_every_target_hit_gets_its_own_location():
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter, request(
        campaign, encounter, "Mara Vey", [("Brute 1", 2), ("Raider 1", 2)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(4))
    rolled = combat.locate_hits(outcome, DiceSource.app(random.Random(9)))
    again = combat.locate_hits(outcome, DiceSource.app(random.Random(9)))
    assert [h.random_location for h in rolled.hits] == [h.random_location for h in again.hits]
    assert all(h.random_location is not None for h in rolled.hits)
    with pytest.raises(ValueError, match="one hit location per target hit"):
        combat.locate_hits(outcome, combat.location_sources("3 4", None))
    typed = combat.locate_hits(outcome, combat.location_sources("3 4; 6 6", None))
    assert [h.random_location.name for h in typed.hits] == [  # type: ignore[union-attr]
        "Core or Center of Mass", "Head"]
