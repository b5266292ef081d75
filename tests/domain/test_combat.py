"""Combat resolution: the chapters' worked examples, round ticks and exact undo of patches."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Condition,
    ConditionKind,
    CoverItem,
    Encounter,
    RangeClass,
    Side,
    Skill,
    Weapon,
    combat,
)
from mneme_desktop.domain.combat import (
    AttackMode,
    AttackRequest,
    CombatError,
    PlanOutcome,
)
from mneme_desktop.rules.actions import (
    FIRST_AID_ROUNDS,
    ActionKind,
    DefenseKind,
    MovementMode,
    Stance,
    hit_location,
)
from mneme_desktop.rules.checks import CheckResult, CoverLevel, success_chance
from mneme_desktop.rules.damage import expected_damage
from mneme_desktop.rules.dice import DiceSource, Scale, parse_dice
from mneme_desktop.rules.wounds import WoundState


def rifle() -> Weapon:
    return Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=4,
                  range_class=RangeClass.LONG, skill="Gun Combat (Slug Rifle)")


def broadsword() -> Weapon:
    return Weapon(name="Broadsword", damage="3d3-2", range_class=RangeClass.MELEE,
                  skill="Melee Combat (Slashing)")


def club() -> Weapon:
    return Weapon(name="Club", damage="3d6", range_class=RangeClass.MELEE,
                  skill="Melee Combat (Bludgeon)")


def make_campaign() -> Campaign:
    """Mara (rifle, no armor), Ilse (broadsword, jack 3, shield 2), Tomas (medic, flak 4),
    and a library of raiders (broadsword, flak jacket) and brutes (club 3d6)."""
    mara = Character(
        name="Mara Vey", characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
        skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=2),
                Skill(name="Tactics", level=1)],
        weapons=[rifle()],
    )
    ilse = Character(
        name="Ilse Brandt", characteristics=Characteristics.of(10, 8, 9, 6, 7, 8),
        skills=[Skill(name="Melee Combat", specialty="Slashing", level=2)],
        weapons=[broadsword()], armor=[Armor(name="Jack", rating=3)],
        cover_items=[CoverItem(name="Shield", protection=2, hp=12)],
    )
    tomas = Character(
        name="Tomas Okoro", characteristics=Characteristics.of(6, 7, 7, 10, 11, 7),
        skills=[Skill(name="Medic", level=2)],
        weapons=[Weapon(name="Autopistol", damage="3d6-3", rate_of_attack=2,
                        range_class=RangeClass.SHORT, skill="Gun Combat (Slug Pistol)")],
        armor=[Armor(name="Flak Jacket", rating=4)],
    )
    raider = AdversaryTemplate(stats=Character(
        name="Raider", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
        skills=[Skill(name="Melee Combat", specialty="Slashing", level=1)],
        weapons=[broadsword()], armor=[Armor(name="Flak Jacket", rating=4)],
    ))
    brute = AdversaryTemplate(stats=Character(
        name="Brute", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(9, 6, 9, 5, 5, 4), weapons=[club()],
    ))
    walker = AdversaryTemplate(stats=Character(
        name="Walker", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(15, 5, 15, 4, 0, 0),
        weapons=[Weapon(name="Autocannon", damage="D 2d6", rate_of_attack=2)],
        armor=[Armor(name="Plating", rating=2, scale=Scale.DEKA)],
    ))
    return Campaign(name="Test", characters=[mara, ilse, tomas],
                    adversary_library=[raider, brute, walker],
                    encounters=[Encounter(name="Ford")])


def fight(campaign: Campaign, rng: random.Random | None = None) -> Encounter:
    """The three PCs against two raiders and a brute, initiative rolled, round 1 begun."""
    rng = rng or random.Random(5)
    encounter = campaign.encounters[0]
    apply = lambda patch: patch.apply(campaign)  # noqa: E731
    apply(combat.add_characters_patch(campaign, encounter,
                                      [c.id for c in campaign.characters], Side.PLAYERS))
    apply(combat.add_adversaries_patch(campaign, encounter, campaign.adversary_library[0], 2))
    apply(combat.add_adversaries_patch(campaign, encounter, campaign.adversary_library[1], 1))
    apply(combat.roll_initiative_patch(campaign, encounter, rng))
    apply(combat.start_patch(campaign, encounter))
    return encounter


def by_name(campaign: Campaign, encounter: Encounter, name: str):
    return next(c for c in encounter.combatants
                if campaign.combatant_character(c).name == name)


def dice_for(effect: int, modifier: int, difficulty: int) -> tuple[int, int]:
    """Two dice whose total + modifier - difficulty is ``effect``."""
    wanted = effect + difficulty - modifier
    for a in range(1, 7):
        for b in range(1, 7):
            if a + b == wanted:
                return (a, b)
    raise AssertionError(f"no 2d6 gives {wanted}")


def check_with_effect(spec: combat.AttackSpec, effect: int) -> CheckResult:
    return combat.attack_check(spec, DiceSource.table(
        dice_for(effect, spec.roll_modifier, spec.difficulty.total)))


# --- building and numbering -------------------------------------------------------------


def test_adversaries_are_numbered_and_numbering_continues():
    campaign = make_campaign()
    encounter = fight(campaign)
    names = [campaign.combatant_character(c).name for c in encounter.combatants]
    assert names[3:] == ["Raider 1", "Raider 2", "Brute 1"]
    more = combat.add_adversaries_patch(campaign, encounter, campaign.adversary_library[0], 2)
    more.apply(campaign)
    assert [campaign.combatant_character(c).name for c in encounter.combatants[-2:]] == [
        "Raider 3", "Raider 4"]


def test_adding_a_character_twice_is_refused():
    campaign = make_campaign()
    encounter = fight(campaign)
    with pytest.raises(CombatError, match="already in this encounter"):
        combat.add_characters_patch(campaign, encounter, [campaign.characters[0].id],
                                    Side.PLAYERS)


def test_remove_keeps_the_turn_and_clears_aim_and_undoes():
    campaign = make_campaign()
    encounter = fight(campaign)
    order = encounter.initiative_order()
    shooter, target = order[0], order[-1]
    combat.aim_patch(campaign, encounter, shooter.id, target.id).apply(campaign)
    current = encounter.current_combatant
    patch = combat.remove_combatants_patch(campaign, encounter, [target.id])
    patch.apply(campaign)
    assert target not in encounter.combatants
    assert shooter.aim == 0 and shooter.aim_target_id is None
    assert encounter.current_combatant is current
    patch.revert(campaign)
    combat.aim_patch(campaign, encounter, shooter.id, target.id)  # still valid
    assert encounter.find_combatant(target.id) is not None


# --- initiative ---------------------------------------------------------------------------


def test_initiative_from_text_number_or_two_dice():
    mara = make_campaign().characters[0]
    assert combat.initiative_from_text(mara, "11") == (11, ())
    # DEX 9 gives +1, Tactics-1 adds 1
    assert combat.initiative_from_text(mara, "4 5", "Tactics") == (11, (4, 5))
    assert combat.initiative_from_text(mara, "4,5") == (10, (4, 5))
    with pytest.raises(ValueError, match="neither an initiative value"):
        combat.initiative_from_text(mara, "four")


def test_ambush_prepared_side_gets_twelve_plus_dex_dm():
    campaign = make_campaign()
    encounter = fight(campaign)
    combat.ambush_patch(campaign, encounter, Side.ENEMIES, random.Random(1)).apply(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    assert raider.initiative == 12 + 0  # DEX 7: DM +0
    assert raider.initiative_dice == []


def test_tactics_effect_is_capped_and_added_to_the_unit():
    campaign = make_campaign()
    encounter = fight(campaign)
    players = [c for c in encounter.combatants if c.side is Side.PLAYERS]
    before = {c.id: c.initiative for c in players}
    # effect +4, capped to +2 at Difficulty 8
    patch = combat.tactics_patch(campaign, encounter, players[0].id, 8, DiceSource.table((6, 6)),
                                 [c.id for c in players], 0)
    patch.apply(campaign)
    assert {c.id: c.initiative for c in players} == {k: v + 2 for k, v in before.items()}
    assert encounter.log[-1].state_changes[0].endswith("initiative +2")


def test_ties_are_reported_and_can_be_reordered():
    campaign = make_campaign()
    encounter = fight(campaign)
    for combatant in encounter.combatants[:2]:
        combat.initiative_patch(campaign, encounter, combatant.id, 20).apply(campaign)
    order = encounter.initiative_order()
    ties = combat.initiative_ties(order)
    first, second = order[0], order[1]
    assert ties[first.id] == (1, 2) and ties[second.id] == (2, 2)
    combat.move_in_ties_patch(campaign, encounter, second.id, -1).apply(campaign)
    assert encounter.initiative_order()[:2] == [second, first]
    with pytest.raises(CombatError, match="not tied"):
        combat.move_in_ties_patch(campaign, encounter, second.id, -1)


# --- turns --------------------------------------------------------------------------------


def test_turns_advance_and_a_new_round_resets_actions_and_moves_the_clock():
    campaign = make_campaign()
    encounter = fight(campaign)
    start_time = campaign.game_time
    first = encounter.current_combatant
    combat.take_action_patch(campaign, encounter, first.id, "attack").apply(campaign)
    assert first.actions_spent == 2
    for _ in range(len(encounter.combatants) - 1):
        combat.next_turn_patch(campaign, encounter, random.Random(0)).apply(campaign)
    assert encounter.round == 1
    combat.next_turn_patch(campaign, encounter, random.Random(0)).apply(campaign)
    assert encounter.round == 2 and encounter.turn_index == 0
    assert first.actions_spent == 0
    assert campaign.game_time == start_time.advance(rounds=1)


def test_previous_turn_stops_at_the_start_of_the_round():
    campaign = make_campaign()
    encounter = fight(campaign)
    with pytest.raises(CombatError, match="Undo"):
        combat.previous_turn_patch(campaign, encounter)
    combat.next_turn_patch(campaign, encounter, random.Random(0)).apply(campaign)
    combat.previous_turn_patch(campaign, encounter).apply(campaign)
    assert encounter.turn_index == 0


def test_next_turn_passes_over_the_unconscious():
    campaign = make_campaign()
    encounter = fight(campaign)
    order = encounter.initiative_order()
    second = campaign.combatant_character(order[1])
    second.damage = second.hit_points  # critically wounded: unconscious
    combat.next_turn_patch(campaign, encounter, random.Random(0)).apply(campaign)
    assert encounter.current_combatant is order[2]


def test_delay_marks_and_passes_the_turn_then_acting_clears_it():
    campaign = make_campaign()
    encounter = fight(campaign)
    first = encounter.current_combatant
    combat.delay_patch(campaign, encounter, random.Random(0)).apply(campaign)
    assert first.delayed and encounter.current_combatant is not first
    combat.take_action_patch(campaign, encounter, first.id, "quick_scan").apply(campaign)
    assert not first.delayed and first.actions_spent == 1


# --- action economy -----------------------------------------------------------------------


def test_overspending_is_refused_with_the_reason():
    campaign = make_campaign()
    encounter = fight(campaign)
    who = encounter.current_combatant
    combat.take_action_patch(campaign, encounter, who.id, "attack").apply(campaign)
    with pytest.raises(CombatError, match="only 1 of 3 are left"):
        combat.take_action_patch(campaign, encounter, who.id, "attack")
    combat.take_action_patch(campaign, encounter, who.id, "quick_phrase").apply(campaign)
    assert who.actions_spent == 2


def test_aim_stacks_to_six_across_rounds_and_is_lost_on_changing_target():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    raider, other = by_name(campaign, encounter, "Raider 1"), by_name(campaign, encounter,
                                                                      "Raider 2")
    for _ in range(3):
        for _ in range(3):
            mara.actions_spent = 0
            combat.aim_patch(campaign, encounter, mara.id, raider.id).apply(campaign)
    assert mara.aim == 6
    mara.actions_spent = 0
    combat.aim_patch(campaign, encounter, mara.id, other.id).apply(campaign)
    assert mara.aim == 1 and mara.aim_target_id == other.id


def test_stance_costs_minor_actions_and_movement_follows_load_and_stance():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    combat.stance_patch(campaign, encounter, mara.id, Stance.PRONE).apply(campaign)
    assert mara.actions_spent == 1 and mara.stance is Stance.PRONE
    with pytest.raises(CombatError, match="cannot go crouched"):
        mara.actions_spent = 2
        combat.stance_patch(campaign, encounter, mara.id, Stance.CROUCHED)
    options = {mode: spaces for mode, spaces, _ in combat.movement_options(campaign, mara)}
    assert options == {MovementMode.MOVE: None, MovementMode.DASH: 2, MovementMode.RUN: 3}
    mara.stance = Stance.STANDING
    mara.actions_spent = 0
    patch = combat.move_patch(campaign, encounter, mara.id, MovementMode.MOVE)
    patch.apply(campaign)
    assert "4 spaces (6 m)" in encounter.log[-1].text


def test_first_aid_progress_heals_and_stops_bleeding():
    campaign = make_campaign()
    encounter = fight(campaign)
    tomas, ilse = by_name(campaign, encounter, "Tomas Okoro"), by_name(campaign, encounter,
                                                                       "Ilse Brandt")
    sheet = campaign.combatant_character(ilse)
    sheet.damage = 10
    sheet.conditions.append(Condition(kind=ConditionKind.BLEEDING, started_round=1,
                                      encounter_id=encounter.id))
    combat.start_task_patch(campaign, encounter, tomas.id, "First Aid on Ilse Brandt",
                            FIRST_AID_ROUNDS, ilse.id, first_aid=True).apply(campaign)
    assert tomas.extended_task.remaining_rounds == 30
    combat.work_task_patch(campaign, encounter, tomas.id,
                           DiceSource.table((6, 6)), 2, 8).apply(campaign)  # effect +6
    assert tomas.extended_task.remaining_rounds == 23 and tomas.actions_spent == 3
    tomas.actions_spent = 0
    combat.work_task_patch(campaign, encounter, tomas.id,
                           DiceSource.table((1, 1)), 2, 8).apply(campaign)  # effect -4
    assert tomas.extended_task.remaining_rounds == 26
    tomas.extended_task = tomas.extended_task.model_copy(update={"remaining_rounds": 1})
    tomas.actions_spent = 0
    combat.work_task_patch(campaign, encounter, tomas.id,
                           DiceSource.table((4, 5)), 2, 8).apply(campaign)  # effect +3
    sheet = campaign.combatant_character(ilse)
    assert tomas.extended_task is None
    assert sheet.damage == 7 and not sheet.has_condition(ConditionKind.BLEEDING)


# --- attacks: the chapters' worked examples -----------------------------------------------


def request(campaign, encounter, attacker, targets, **extra) -> AttackRequest:
    return AttackRequest(
        attacker_id=by_name(campaign, encounter, attacker).id, weapon_index=0,
        targets=tuple((by_name(campaign, encounter, name).id, share) for name, share in targets),
        **extra,
    )


def test_automatic_rifle_effect_2_rate_4_is_three_rolls_of_3d6_minus_2():
    campaign = make_campaign()
    encounter = fight(campaign)
    brute = campaign.combatant_character(by_name(campaign, encounter, "Brute 1"))
    assert brute.worn_armor == []
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 2), random.Random(3))
    (hit,) = outcome.hits
    assert (hit.rolled, hit.kept) == (3, 3)
    rng = random.Random(3)
    expected = [parse_dice("3d6-2").roll(rng) for _ in range(3)]
    assert list(hit.result.rolls) == expected
    assert hit.total == sum(expected)
    assert expected_damage(spec.dice, 2, 4, 0) == Fraction(51, 2)  # 3 x 8.5


def test_broadsword_effect_1_against_armor_3_is_two_rolls_of_3d3_minus_5():
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Raider 1", [("Ilse Brandt", 1)]))
    assert spec.targets[0].armor == 3
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 1), random.Random(8),
                                    typed_damage=[[7, 2]])
    (hit,) = outcome.hits
    assert hit.rolled == 2
    assert list(hit.result.after_armor) == [4, 0]  # 3d3-2 rolled 7 and 2: 3d3-5 is 4 and 0
    # With RoA 1 only the best roll counts.
    assert hit.total == 4 and hit.result.kept == (True, False)


def test_shield_with_protection_2_takes_two_of_three_rolls():
    campaign = make_campaign()
    encounter = fight(campaign)
    req = request(campaign, encounter, "Ilse Brandt", [("Brute 1", 1)], base_difficulty=12,
                  defence_cover_item=0, return_fire_from=by_name(campaign, encounter,
                                                                 "Brute 1").id)
    spec = combat.build_attack(campaign, encounter, req)
    # Ilse's skill 2 would be the third priority; give a fail effect of 5 so 3 remain
    # after the shield takes 2: conditions 0, cover 2, skill 2 -> 1 roll reaches her.
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -5), random.Random(2))
    harm = outcome.harm
    assert harm.mitigation.by_cover == 2 and harm.mitigation.by_skill == 2
    assert len(harm.cover.rolls) == 2 and len(harm.attacker.rolls) == 1
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    before = campaign.combatant_character(ilse).damage
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    sheet = campaign.combatant_character(ilse)
    assert sheet.cover_items[0].damage == min(12, sum(harm.cover.rolls))
    assert sheet.damage == before + harm.attacker.total
    assert "Shield: takes 2 damage rolls" in encounter.log[-1].state_changes[0]


def test_shield_example_three_rolls_split_two_and_one():
    """Ch.7: fail effect 3 behind a shield of protection 2 (no skill): shield 2, PC 1."""
    campaign = make_campaign()
    encounter = fight(campaign)
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    spec = combat.build_attack(campaign, encounter, AttackRequest(
        attacker_id=tomas.id, weapon_index=0,
        targets=((by_name(campaign, encounter, "Brute 1").id, 1),),
        defence_cover=CoverLevel.MOSTLY,
        return_fire_from=by_name(campaign, encounter, "Brute 1").id,
    ))
    spec = dataclasses.replace(spec, defence=combat.Defence(cover=2))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -3), random.Random(4))
    assert outcome.harm.mitigation.by_cover == 2
    assert (len(outcome.harm.cover.rolls), len(outcome.harm.attacker.rolls)) == (2, 1)


def test_flak_jacket_three_rolls_of_3d3_minus_6():
    """Ch.7: fail effect 3, adversaries allowing 3 attacks with 3d3-2 broadswords, flak 4."""
    campaign = make_campaign()
    encounter = fight(campaign)
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    raiders = [by_name(campaign, encounter, n) for n in ("Raider 1", "Raider 2")]
    spec = combat.build_attack(campaign, encounter, AttackRequest(
        attacker_id=tomas.id, weapon_index=0, targets=((raiders[0].id, 1), (raiders[1].id, 1)),
        return_fire_from=raiders[0].id, return_fire_rate=3,
    ))
    assert spec.attacker_armor == 4
    spec = dataclasses.replace(spec, defence=combat.Defence())
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -3), random.Random(6),
                                    typed_return_fire=[5, 7, 3])
    harm = outcome.harm
    assert harm.mitigation.remaining == 3
    assert list(harm.attacker.after_armor) == [1, 3, 0]  # 3d3-6 on the same dice
    assert harm.attacker.total == 4


def test_effect_6_always_does_at_least_one_point():
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Ilse Brandt", [("Raider 1", 1)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 6), random.Random(1),
                                    typed_damage=[[1, 2, 1, 1, 1, 1, 1]])
    assert outcome.hits[0].total == 1


def test_scale_immunity():
    campaign = make_campaign()
    encounter = campaign.encounters[0]
    combat.add_characters_patch(campaign, encounter, [campaign.characters[0].id],
                                Side.PLAYERS).apply(campaign)
    combat.add_adversaries_patch(campaign, encounter, campaign.adversary_library[2],
                                 1).apply(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Walker 1", 4)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 3), random.Random(1))
    assert outcome.hits[0].immune and outcome.hits[0].total == 0
    assert combat.attack_odds(spec).expected_damage == 0


def test_odds_are_exact_and_include_costly_success():
    campaign = make_campaign()
    encounter = fight(campaign)
    req = request(campaign, encounter, "Mara Vey", [("Brute 1", 4)])
    spec = combat.build_attack(campaign, encounter, req)
    odds = combat.attack_odds(spec)
    assert odds.chance == success_chance(spec.roll_modifier, 8)
    costly = combat.attack_odds(combat.build_attack(
        campaign, encounter, dataclasses.replace(req, costly_success=True)))
    assert costly.expected_damage > odds.expected_damage
    assert costly.expected_damage_if_hit == odds.expected_damage_if_hit


def test_difficulty_terms_and_advantage():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara = by_name(campaign, encounter, "Mara Vey")
    raider = by_name(campaign, encounter, "Raider 1")
    mara.aim, mara.aim_target_id = 3, raider.id
    req = request(campaign, encounter, "Mara Vey", [("Raider 1", 4)],
                  cover=CoverLevel.PARTIAL, concealment=CoverLevel.FULL, close_quarters=True,
                  range_mod=1, superiority=2, location=hit_location(12), advantages=2,
                  disadvantages=1, coordinating=2, plan=PlanOutcome.WRONG, reckless=True)
    spec = combat.build_attack(campaign, encounter, req)
    labels = {t.label: t.value for t in spec.difficulty.terms}
    assert labels == {
        "Base difficulty": 8, "Cover (partial)": 1, "Concealment (full)": 4,
        "Ranged attack in close quarters": 2, "Range, size and movement": 1,
        "Superiority (attacker)": -2, "Aim": -3, "Targeted attack": 3,
        "Coordinating action": 2,
    }
    assert spec.net_advantage == 0  # 2 advantages against 1 + a wrong plan
    assert spec.roll_modifier == 2 + 1 + 2  # Gun Combat-2, DEX 9 (+1), reckless +2
    assert [m.label for m in spec.roll_terms] == [
        "Gun Combat (Slug Rifle)-2", "DEX DM", "Reckless action"]


def test_reckless_success_can_still_harm():
    campaign = make_campaign()
    encounter = fight(campaign)
    req = request(campaign, encounter, "Ilse Brandt", [("Brute 1", 1)], reckless=True,
                  return_fire_from=by_name(campaign, encounter, "Brute 1").id)
    spec = combat.build_attack(campaign, encounter, req)
    spec = dataclasses.replace(spec, defence=combat.Defence())
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 1), random.Random(2))
    assert outcome.hit and outcome.success_effect == 0
    assert outcome.harm is not None and outcome.harm.fail_effect == 2


def test_defend_doubles_the_chosen_modifier():
    campaign = make_campaign()
    encounter = fight(campaign)
    req = request(campaign, encounter, "Ilse Brandt", [("Brute 1", 1)],
                  mode=AttackMode.DEFEND, doubled=DefenseKind.SKILL,
                  return_fire_from=by_name(campaign, encounter, "Brute 1").id)
    spec = combat.build_attack(campaign, encounter, req)
    assert spec.defence.effective == (0, 0, 4)
    assert spec.roll_terms[-1].label == "Defend: skill doubled"
    success = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(1))
    assert success.hits == () and success.harm is None


def test_targeted_head_hit_stuns_and_a_big_roll_bleeds():
    campaign = make_campaign()
    encounter = fight(campaign)
    req = request(campaign, encounter, "Mara Vey", [("Brute 1", 4)],
                  location=hit_location(12))
    spec = combat.build_attack(campaign, encounter, req)
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(1),
                                    typed_damage=[[8]])
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    brute = campaign.combatant_character(by_name(campaign, encounter, "Brute 1"))
    kinds = {c.kind for c in brute.conditions}
    assert kinds == {ConditionKind.STUNNED, ConditionKind.BLEEDING}  # 8 >= 24/3
    assert brute.damage_history[-1].amount == 8


def test_massive_damage_is_rolled_by_the_app_with_app_dice():
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    outcome = next(o for seed in range(200)
                   if (o := combat.resolve_attack(spec, check_with_effect(spec, 3),
                                                  random.Random(seed))).hits[0].total
                   > spec.targets[0].hp)
    assert outcome.hits[0].massive is not None and not outcome.hits[0].massive_due
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    assert any(e.action == "Massive damage roll" for e in encounter.log)


def test_massive_damage_from_table_dice_is_the_tables_roll():
    """Damage typed at the table leaves the massive-damage roll to the table: the app does
    not roll it behind the referee's back; the log says it is due and the panel takes it."""
    campaign = make_campaign()
    encounter = fight(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 3), random.Random(1),
                                    typed_damage=[[16, 16, 16, 16]])
    hit = outcome.hits[0]
    assert hit.total == 64 and hit.massive is None and hit.massive_due
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    due = [e for e in encounter.log if e.action == "Massive damage"]
    assert len(due) == 1 and "massive damage roll due" in due[0].text
    assert not any(e.action == "Massive damage roll" for e in encounter.log)
    brute = by_name(campaign, encounter, "Brute 1")
    combat.massive_damage_patch(campaign, encounter, brute.id,
                                DiceSource.table([6, 6])).apply(campaign)
    assert any(e.action == "Massive damage roll" for e in encounter.log)


def test_rate_of_attack_split_is_checked():
    campaign = make_campaign()
    encounter = fight(campaign)
    with pytest.raises(CombatError, match="rate of attack of 1"):
        combat.build_attack(campaign, encounter, request(
            campaign, encounter, "Ilse Brandt", [("Raider 1", 1), ("Raider 2", 1)]))


def test_aim_is_used_up_by_the_attack():
    campaign = make_campaign()
    encounter = fight(campaign)
    mara, brute = by_name(campaign, encounter, "Mara Vey"), by_name(campaign, encounter,
                                                                    "Brute 1")
    combat.aim_patch(campaign, encounter, mara.id, brute.id).apply(campaign)
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
    assert spec.difficulty.total == 7
    check = combat.attack_check(spec, DiceSource.app(random.Random(1)))
    outcome = combat.resolve_attack(spec, check, random.Random(1))
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    assert mara.aim == 0 and mara.actions_spent == 3


# --- conditions in rounds -----------------------------------------------------------------


def test_bleeding_costs_a_point_every_ten_rounds():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    sheet = campaign.combatant_character(raider)
    sheet.conditions.append(Condition(kind=ConditionKind.BLEEDING, started_round=1,
                                      encounter_id=encounter.id))
    damage = []
    for _ in range(30):
        combat.end_round_patch(campaign, encounter, random.Random(0)).apply(campaign)
        damage.append(campaign.combatant_character(raider).damage)
    # rounds 2..31: points lost at rounds 11, 21 and 31
    assert damage[8:11] == [0, 1, 1] and damage[18:21] == [1, 2, 2] and damage[-1] == 3


def test_dying_rolls_each_round_until_death_and_manual_entry():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    sheet = campaign.combatant_character(raider)
    sheet.damage = sheet.hit_points + 1
    assert combat.dying_roll_due(campaign, encounter, raider)
    patch = combat.dying_roll_patch(campaign, encounter, raider.id, DiceSource.table((1, 1)))
    patch.apply(campaign)
    assert campaign.combatant_character(raider).wound_state() is WoundState.DEAD
    assert not combat.dying_roll_due(campaign, encounter, raider)
    patch.revert(campaign)
    combat.end_round_patch(campaign, encounter, random.Random(0),
                           auto_dying=True).apply(campaign)
    assert encounter.log[-1].action == "Dying roll"


def test_status_shows_timers():
    campaign = make_campaign()
    encounter = fight(campaign)
    raider = by_name(campaign, encounter, "Raider 1")
    sheet = campaign.combatant_character(raider)
    sheet.conditions.append(Condition(kind=ConditionKind.BLEEDING, started_round=1,
                                      encounter_id=encounter.id))
    sheet.conditions.append(Condition(kind=ConditionKind.STUNNED, started_round=1,
                                      encounter_id=encounter.id))
    for _ in range(3):
        combat.end_round_patch(campaign, encounter, random.Random(0)).apply(campaign)
    status = combat.combatant_status(campaign, encounter, raider)
    assert status.conditions == ("Bleeding (-1 in 7 rd)", "Stunned (3 rd)")


# --- patches are exact --------------------------------------------------------------------


def test_every_patch_reverts_exactly():
    campaign = make_campaign()
    encounter = fight(campaign)
    rng = random.Random(11)
    steps = []
    mara = by_name(campaign, encounter, "Mara Vey")
    brute = by_name(campaign, encounter, "Brute 1")

    def attack():
        spec = combat.build_attack(campaign, encounter, request(
            campaign, encounter, "Mara Vey", [("Brute 1", 4)]))
        return combat.attack_patch(campaign, encounter, combat.resolve_attack(
            spec, combat.attack_check(spec, DiceSource.app(rng)), rng))

    builders = [
        lambda: combat.aim_patch(campaign, encounter, mara.id, brute.id),
        lambda: combat.set_cover_patch(campaign, encounter, brute.id, CoverLevel.PARTIAL),
        lambda: combat.add_condition_patch(campaign, encounter, brute.id,
                                           ConditionKind.STUNNED),
        attack,
        lambda: combat.next_turn_patch(campaign, encounter, rng),
        lambda: combat.end_round_patch(campaign, encounter, rng),
        lambda: combat.set_side_patch(campaign, encounter, brute.id, Side.NEUTRAL),
        lambda: combat.set_out_of_fight_patch(campaign, encounter, brute.id, True),
        lambda: combat.end_encounter_patch(campaign, encounter),
    ]
    snapshots = [campaign.model_dump()]
    for build in builders:
        patch = build()
        patch.apply(campaign)
        steps.append(patch)
        snapshots.append(campaign.model_dump())
    for patch, snapshot in zip(reversed(steps), reversed(snapshots[:-1]), strict=True):
        patch.revert(campaign)
        assert campaign.model_dump() == snapshot


def test_log_text_export():
    campaign = make_campaign()
    encounter = fight(campaign)
    text = combat.log_as_text(encounter)
    assert text.startswith("Encounter: Ford\n")
    assert "Round 1" in text and "Initiative 2d6 + DEX DM" in text


def test_parse_dice_values():
    assert combat.parse_dice_values("4 5") == (4, 5)
    assert combat.parse_dice_values("45", 2) == (4, 5)
    assert combat.parse_dice_values("3+4+6") == (3, 4, 6)
    with pytest.raises(ValueError, match="not a die"):
        combat.parse_dice_values("4 7")
    with pytest.raises(ValueError, match="expected 3 dice"):
        combat.parse_dice_values("4 5", 3)
    assert combat.parse_roll_groups("7, 9; 5") == [[7, 9], [5]]


def test_action_kinds_logged():
    campaign = make_campaign()
    encounter = fight(campaign)
    who = encounter.current_combatant
    combat.take_action_patch(campaign, encounter, who.id, "dash",
                             options=[combat.ActionOption.RECKLESS]).apply(campaign)
    entry = encounter.log[-1]
    assert entry.action_kind is ActionKind.SIGNIFICANT
    assert "Reckless Action: +2 DM to the roll" in entry.text


def test_a_turn_is_one_small_edit_and_a_round_touches_only_what_changed():
    campaign = make_campaign()
    encounter = fight(campaign)
    patch = combat.next_turn_patch(campaign, encounter, random.Random(0))
    assert [(type(e).__name__, getattr(e, "name", "")) for e in patch.edits] == [
        ("SetEncounterField", "turn_index")]
    patch.apply(campaign)
    who = encounter.current_combatant
    combat.take_action_patch(campaign, encounter, who.id, "attack").apply(campaign)
    round_patch = combat.end_round_patch(campaign, encounter, random.Random(0))
    fields = [(e.combatant_id, e.name) for e in round_patch.edits
              if isinstance(e, combat.SetCombatantField)]
    assert fields == [(who.id, "actions_spent")]  # the others had nothing to reset
    assert not round_patch.character_ids  # nobody bleeds or dies: no sheet is copied
