"""Things on the damage track (#18): vehicles, craft, structures and cover objects.

The chapter's examples (the shield of protection 2, scale immunity of a D-plated walker),
a cover object destroyed mid-fight, a vehicle with crew, and exact undo of every step.
"""

from __future__ import annotations

import json
import random

import pytest

from mneme_desktop.domain import Campaign, Side, Weapon, combat
from mneme_desktop.domain.combat import AttackRequest, CombatError
from mneme_desktop.domain.edits import Patch
from mneme_desktop.domain.thing_edits import (
    add_thing,
    add_thing_template,
    change_thing,
    remove_thing,
    remove_thing_template,
    set_thing_damage,
)
from mneme_desktop.domain.things import CrewPosition, Thing, ThingKind, ThingTemplate
from mneme_desktop.rules.dice import DiceSource, Scale
from mneme_desktop.rules.thing_damage import (
    ThingState,
    scale_notation,
    thing_damage_units,
    thing_state,
    thing_track,
)
from tests.domain.test_combat import by_name, check_with_effect, fight, make_campaign


def shield() -> ThingTemplate:
    return ThingTemplate(stats=Thing(name="Shield", kind=ThingKind.COVER, hp=12, protection=2))


def walker() -> ThingTemplate:
    return ThingTemplate(stats=Thing(
        name="Walker", kind=ThingKind.VEHICLE, hp=20, hp_scale=Scale.DEKA, armor=2,
        armor_scale=Scale.DEKA, crew=[CrewPosition(role="Pilot"), CrewPosition(role="Gunner")],
        weapons=[Weapon(name="Autocannon", damage="D 2d6", rate_of_attack=2,
                        skill="Gun Combat (Heavy Weapons)")]))


def with_things(campaign: Campaign) -> Campaign:
    for template in (shield(), walker()):
        add_thing_template(campaign, template).apply(campaign)
    return campaign


def applied(campaign: Campaign, patch: Patch) -> Patch:
    patch.apply(campaign)
    return patch


# --- the rules core ------------------------------------------------------------------------


def test_thing_thresholds_come_from_the_one_track():
    track = thing_track(0, 12)
    assert (track.thresholds.seriously, track.thresholds.critically) == (4, 8)
    assert thing_state(0, 12) is ThingState.INTACT
    assert thing_state(3, 12) is ThingState.DAMAGED
    assert thing_state(4, 12) is ThingState.SERIOUSLY_DAMAGED
    assert thing_state(12, 12) is ThingState.CRITICALLY_DAMAGED
    assert thing_state(13, 12) is ThingState.DESTROYED


def test_scale_units_round_up_and_destroyed_is_past_plain_hp():
    assert thing_damage_units(5, Scale.DEKA) == 1
    assert thing_damage_units(200, Scale.DEKA) == 20
    assert thing_state(200, 20, Scale.DEKA) is ThingState.CRITICALLY_DAMAGED
    assert thing_state(201, 20, Scale.DEKA) is ThingState.DESTROYED
    assert thing_track(65, 20, Scale.DEKA).damage == 7


def test_scale_notation_says_the_plain_value():
    assert scale_notation(20, Scale.DEKA, "HP") == "20 DHP = 200 HP"
    assert scale_notation(2, Scale.DEKA, "AR") == "DAR 2 = 20 AR"
    assert scale_notation(67, Scale.KILO, "HP") == "67 KHP = 67,000 HP"
    assert scale_notation(21, Scale.NONE, "HP") == "21 HP"


def test_a_thing_derives_its_numbers():
    thing = walker().stats
    assert (thing.plain_hp, thing.plain_armor, thing.scale) == (200, 20, Scale.DEKA)
    assert thing.hp_label == "20 DHP = 200 HP"
    assert thing.track.capacity >= 20


# --- campaign, edits, undo -----------------------------------------------------------------


def test_add_change_damage_and_remove_a_thing_undo_exactly():
    campaign = make_campaign()
    original = campaign.model_dump()
    car = Thing(name="Ground Car", kind=ThingKind.VEHICLE, hp=8, hp_scale=Scale.DEKA)
    steps = [applied(campaign, add_thing(campaign, car))]
    assert campaign.find_thing(car.id) is not None
    steps.append(applied(campaign, change_thing(campaign, car.id,
                                                lambda t: setattr(t, "armor", 4))))
    steps.append(applied(campaign, set_thing_damage(campaign, car.id, 35)))
    assert campaign.thing(car.id).state is ThingState.SERIOUSLY_DAMAGED
    assert steps[-1].summary.thing_ids == {car.id}
    steps.append(applied(campaign, remove_thing(campaign, car.id)))
    assert campaign.find_thing(car.id) is None
    for step in reversed(steps):
        step.revert(campaign)
    assert campaign.model_dump() == original


def test_a_drag_of_thing_damage_folds_into_one_step():
    campaign = with_things(make_campaign())
    thing_id = campaign.thing_library[0].stats.id
    first = set_thing_damage(campaign, thing_id, 2)
    first.apply(campaign)
    second = set_thing_damage(campaign, thing_id, 5)
    second.apply(campaign)
    assert first.merge_key == second.merge_key
    folded = first.then(second)
    second.revert(campaign)
    first.revert(campaign)
    folded.apply(campaign)
    assert campaign.thing(thing_id).damage == 5
    folded.revert(campaign)
    assert campaign.thing(thing_id).damage == 0


def test_impossible_values_are_refused_before_the_campaign():
    campaign = with_things(make_campaign())
    thing_id = campaign.thing_library[0].stats.id
    with pytest.raises(ValueError):
        change_thing(campaign, thing_id, lambda t: setattr(t, "hp", 0))
    with pytest.raises(ValueError):
        set_thing_damage(campaign, thing_id, -1)


def test_removing_a_template_keeps_its_instances():
    campaign = with_things(make_campaign())
    encounter = campaign.encounters[0]
    template = campaign.thing_library[0]
    applied(campaign, combat.add_things_patch(campaign, encounter, template.id, 2))
    applied(campaign, remove_thing_template(campaign, template.id))
    assert [campaign.encounter_thing(t).name for t in encounter.things] == ["Shield 1",
                                                                          "Shield 2"]


def test_integrity_checks_thing_references():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[0].id))
    data = json.loads(campaign.model_dump_json())
    data["encounters"][0]["combatants"][0]["cover_thing_id"] = "nowhere"
    data["encounters"][0]["things"].append({"thing_id": "missing"})
    with pytest.raises(ValueError) as refused:
        Campaign.model_validate(data)
    assert "cover_thing_id" in str(refused.value) and "thing_id" in str(refused.value)


# --- in an encounter -----------------------------------------------------------------------


def behind_shield(campaign: Campaign):
    """Tomas (autopistol, flak 4, no combat skill) behind Shield 1 against Brute 1."""
    encounter = fight(with_things(campaign))
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[0].id))
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    entry = encounter.things[0]
    applied(campaign, combat.take_cover_patch(campaign, encounter, tomas.id, entry.id))
    return encounter, tomas, entry


def shield_request(encounter, tomas, entry, brute_name="Brute 1") -> AttackRequest:
    brute = next(c for c in encounter.combatants
                 if c.instance is not None and c.instance.name == brute_name)
    return AttackRequest(attacker_id=tomas.id, weapon_index=0, targets=((brute.id, 1),),
                         defence_cover_thing=entry.id, return_fire_from=brute.id,
                         spend_action=False)


def test_shield_example_protection_2_takes_two_of_three_3d6_rolls():
    """Ch.7: fail effect 3 behind a shield of protection 2: the shield takes two 3d6 rolls,
    the PC one; the shield's HP falls by what its rolls did."""
    campaign = make_campaign()
    encounter, tomas, entry = behind_shield(campaign)
    spec = combat.build_attack(campaign, encounter, shield_request(encounter, tomas, entry))
    assert spec.defence.cover == 2 and spec.defence.cover_thing_id == entry.instance.id
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -3), random.Random(1),
                                    typed_return_fire=[3, 4, 9])
    harm = outcome.harm
    assert (len(harm.cover.rolls), len(harm.attacker.rolls)) == (2, 1)
    before = campaign.combatant_character(tomas).damage
    patch = combat.attack_patch(campaign, encounter, outcome)
    patch.apply(campaign)
    assert campaign.encounter_thing(entry).damage == 7
    assert campaign.combatant_character(tomas).damage == before + 5  # 9 - flak 4
    text = encounter.log[-1].text
    assert "Shield 1 takes 2 damage rolls of 3d6: 3, 4 (7 damage, 5 HP left" in text
    patch.revert(campaign)
    assert campaign.encounter_thing(entry).damage == 0


def test_cover_destroyed_mid_fight_stops_absorbing_and_the_log_says_so():
    campaign = make_campaign()
    encounter, tomas, entry = behind_shield(campaign)
    spec = combat.build_attack(campaign, encounter, shield_request(encounter, tomas, entry))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -2), random.Random(1),
                                    typed_return_fire=[6, 8])
    combat.attack_patch(campaign, encounter, outcome, spend_action=False).apply(campaign)
    shield_now = campaign.encounter_thing(entry)
    assert shield_now.remaining_hp == 0 and not shield_now.absorbs
    assert "Shield 1: destroyed (0 HP): it stops absorbing" in encounter.log[-1].state_changes
    assert "stops absorbing" in encounter.log[-1].text
    again = combat.build_attack(campaign, encounter, shield_request(encounter, tomas, entry))
    assert again.defence.cover == 0
    assert any("no longer absorbs" in o and "Cover Absorption" in o for o in again.options)
    outcome = combat.resolve_attack(again, check_with_effect(again, -2), random.Random(1),
                                    typed_return_fire=[6, 8])
    assert outcome.harm.cover is None and len(outcome.harm.attacker.rolls) == 2
    combat.attack_patch(campaign, encounter, outcome, spend_action=False).apply(campaign)
    assert "no longer absorbs" in encounter.log[-2].text


def test_walker_ignores_a_lesser_scale_weapon_and_a_deka_one_hurts_it():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id, side=Side.ENEMIES))
    entry = encounter.things[0]
    mara = by_name(campaign, encounter, "Mara Vey")
    spec = combat.build_attack(campaign, encounter, AttackRequest(
        attacker_id=mara.id, weapon_index=0, targets=((entry.id, 4),), spend_action=False))
    target = spec.targets[0]
    assert (target.scale, target.armor, target.hp, target.thing_id) == (
        Scale.DEKA, 20, 200, entry.instance.id)
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 2), random.Random(3))
    assert outcome.hits[0].immune
    assert any("Scale Immunity" in note for note in outcome.notes)
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    assert campaign.encounter_thing(entry).damage == 0
    assert "ignores personal-scale damage" in encounter.log[-1].text
    # A Deka weapon: (2d6) x 10 against DAR 2 = 20 AR, on plain HP.
    walker_template = campaign.adversary_library[2]
    applied(campaign, combat.add_adversaries_patch(campaign, encounter, walker_template, 1))
    cannon = encounter.combatants[-1]
    spec = combat.build_attack(campaign, encounter, AttackRequest(
        attacker_id=cannon.id, weapon_index=0, targets=((entry.id, 1),), spend_action=False))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(3),
                                    typed_damage=[[70]])
    patch = combat.attack_patch(campaign, encounter, outcome)
    patch.apply(campaign)
    assert campaign.encounter_thing(entry).damage == 50
    assert campaign.encounter_thing(entry).state is ThingState.DAMAGED
    patch.revert(campaign)
    assert campaign.encounter_thing(entry).damage == 0


def test_vehicle_with_crew_acts_on_its_crews_initiative():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id, side=Side.PLAYERS))
    entry = encounter.things[0]
    assert combat.thing_initiative(campaign, encounter, entry).initiative is None
    mara = by_name(campaign, encounter, "Mara Vey")
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    steps = [applied(campaign, combat.crew_patch(campaign, encounter, entry.id, 0, mara.id)),
             applied(campaign, combat.crew_patch(campaign, encounter, entry.id, 1, ilse.id))]
    crew = campaign.crew_of(campaign.encounter_thing(entry))
    assert [(p.role, s.name) for p, s in crew] == [("Pilot", "Mara Vey"),
                                                   ("Gunner", "Ilse Brandt")]
    found = combat.thing_initiative(campaign, encounter, entry)
    assert found.initiative == max(mara.initiative, ilse.initiative)
    assert set(found.crew) == {"Mara Vey", "Ilse Brandt"}
    # One seat each: Mara moving to the gunner's seat leaves the pilot's empty.
    steps.append(applied(campaign, combat.crew_patch(campaign, encounter, entry.id, 1,
                                                     mara.id)))
    assert [p.character_id for p in campaign.encounter_thing(entry).crew] == [
        None, campaign.combatant_character(mara).id]
    for step in reversed(steps):
        step.revert(campaign)
    assert all(p.character_id is None for p in campaign.encounter_thing(entry).crew)


def test_things_join_and_leave_and_cover_is_released_all_undoable():
    campaign = make_campaign()
    encounter = fight(with_things(campaign))
    original = campaign.model_dump()
    steps = [applied(campaign, combat.add_things_patch(campaign, encounter,
                                                       campaign.thing_library[0].id, 2))]
    assert [campaign.encounter_thing(t).name for t in encounter.things] == ["Shield 1",
                                                                          "Shield 2"]
    assert encounter.log[-1].text == "Shield 1, Shield 2 join the encounter"
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    steps.append(applied(campaign, combat.take_cover_patch(campaign, encounter, tomas.id,
                                                           encounter.things[1].id)))
    steps.append(applied(campaign, combat.remove_thing_patch(campaign, encounter,
                                                             encounter.things[1].id)))
    assert tomas.cover_thing_id is None and len(encounter.things) == 1
    steps.append(applied(campaign, combat.add_things_patch(campaign, encounter,
                                                           campaign.thing_library[0].id)))
    assert campaign.encounter_thing(encounter.things[-1]).name == "Shield 2"
    assert encounter.log[-1].text == "Shield 2 joins the encounter"  # QA: was "join"
    for step in reversed(steps):
        step.revert(campaign)
    assert campaign.model_dump() == original


def test_cover_needs_protection_and_a_thing_in_the_encounter():
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id))
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    with pytest.raises(CombatError, match="no protection"):
        combat.take_cover_patch(campaign, encounter, tomas.id, encounter.things[0].id)
    with pytest.raises(CombatError):
        combat.take_cover_patch(campaign, encounter, tomas.id, "gone")


def test_app_dice_shield_rolls_fall_on_the_shield():
    campaign = make_campaign()
    encounter, tomas, entry = behind_shield(campaign)
    spec = combat.build_attack(campaign, encounter, shield_request(encounter, tomas, entry))
    check = combat.attack_check(spec, DiceSource.table((1, 1)))
    outcome = combat.resolve_attack(spec, check, random.Random(9))
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    taken = min(12, sum(outcome.harm.cover.rolls))
    assert campaign.encounter_thing(entry).damage == taken


def test_a_duplicated_encounter_gets_its_own_things_cover_and_crew():
    from mneme_desktop.domain.duplicate import duplicate_encounter, duplicate_thing_template

    campaign = make_campaign()
    encounter, _, _ = behind_shield(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id))
    raider = by_name(campaign, encounter, "Raider 1")
    applied(campaign, combat.crew_patch(campaign, encounter, encounter.things[1].id, 0,
                                        raider.id))
    copy = duplicate_encounter(campaign, encounter.id)
    campaign.encounters.append(copy)
    Campaign.model_validate(campaign.model_dump())
    assert {t.id for t in copy.things}.isdisjoint({t.id for t in encounter.things})
    behind = next(c for c in copy.combatants if c.cover_thing_id is not None)
    assert behind.cover_thing_id == copy.things[0].id
    copied_raider = next(c for c in copy.combatants
                         if c.instance is not None and c.instance.name == "Raider 1")
    assert copy.things[1].instance.crew[0].character_id == copied_raider.instance.id
    assert campaign.find_thing(copy.things[0].instance.id) is copy.things[0].instance
    template = duplicate_thing_template(campaign, campaign.thing_library[0].id)
    assert template.name == "Shield (copy)" and template.stats.id != \
        campaign.thing_library[0].stats.id


def test_a_deka_cover_absorbs_personal_rolls_and_ignores_their_damage():
    """Behind a D-plated walker (protection 4), the brute's 3d6 rolls it absorbs do it no
    harm: scale immunity, named in the log."""
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    walker_id = campaign.thing_library[1].stats.id
    applied(campaign, change_thing(campaign, walker_id, lambda t: setattr(t, "protection", 4)))
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id))
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    entry = encounter.things[0]
    applied(campaign, combat.take_cover_patch(campaign, encounter, tomas.id, entry.id))
    spec = combat.build_attack(campaign, encounter, shield_request(encounter, tomas, entry))
    outcome = combat.resolve_attack(spec, check_with_effect(spec, -3), random.Random(1),
                                    typed_return_fire=[18, 18, 18])
    assert outcome.harm.mitigation.by_cover == 3 and outcome.harm.attacker is None
    combat.attack_patch(campaign, encounter, outcome).apply(campaign)
    assert campaign.encounter_thing(entry).damage == 0
    assert "Scale Immunity" in encounter.log[-1].text


def test_a_campaign_thing_joins_by_reference_and_its_damage_reaches_the_fight():
    campaign = make_campaign()
    encounter = fight(campaign)
    car = Thing(name="Ground Car", kind=ThingKind.VEHICLE, hp=8, hp_scale=Scale.DEKA,
                armor=4, protection=3)
    applied(campaign, add_thing(campaign, car))
    joined = applied(campaign, combat.add_campaign_thing_patch(campaign, encounter, car.id,
                                                               Side.PLAYERS))
    entry = encounter.things[0]
    assert entry.thing_id == car.id and campaign.encounter_thing(entry) is campaign.things[0]
    with pytest.raises(CombatError, match="already in this encounter"):
        combat.add_campaign_thing_patch(campaign, encounter, car.id)
    hurt = set_thing_damage(campaign, car.id, 30)
    assert hurt.summary.reach(campaign).encounter_ids == {encounter.id}
    assert hurt.summary.touches_thing(car.id, campaign)
    hurt.apply(campaign)
    assert campaign.thing(car.id).state is ThingState.SERIOUSLY_DAMAGED
    assert campaign.thing_encounters(car.id) == [encounter]
    # Deleting the car takes it out of the fight; undo puts both back.
    gone = applied(campaign, remove_thing(campaign, car.id))
    assert encounter.things == []
    gone.revert(campaign)
    assert encounter.things[0].thing_id == car.id
    assert joined.summary.encounter_ids == {encounter.id}


def test_a_gunner_fires_the_vehicles_weapon():
    """Seated as the walker's gunner, Ilse has its autocannon after her own broadsword: a
    Deka-scale weapon, (2d6) x 10 against the raider's flak jacket."""
    campaign = with_things(make_campaign())
    encounter = fight(campaign)
    applied(campaign, combat.add_things_patch(campaign, encounter,
                                              campaign.thing_library[1].id, side=Side.PLAYERS))
    entry = encounter.things[0]
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    raider = by_name(campaign, encounter, "Raider 1")
    request = AttackRequest(attacker_id=ilse.id, weapon_index=1, targets=((raider.id, 1),),
                            spend_action=False)
    with pytest.raises(CombatError, match="choose one of the attacker's weapons"):
        combat.build_attack(campaign, encounter, request)
    applied(campaign, combat.crew_patch(campaign, encounter, entry.id, 1, ilse.id))
    spec = combat.build_attack(campaign, encounter, request)
    assert (spec.weapon, spec.dice.scale) == ("Autocannon", Scale.DEKA)
    outcome = combat.resolve_attack(spec, check_with_effect(spec, 0), random.Random(3),
                                    typed_damage=[[60]])
    assert outcome.hits[0].result.total == 56  # 60 - flak jacket 4
