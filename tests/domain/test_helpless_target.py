"""A helpless target gives the attack an advantage, named with who and why (Ch.6 full and
extended actions, Ch.7 unconscious)."""

from __future__ import annotations

import random

from mneme_desktop.domain import combat
from mneme_desktop.domain.character import ConditionKind
from mneme_desktop.domain.combat import AttackMode
from mneme_desktop.rules.helpless import HelplessCause
from mneme_desktop.rules.movement import MovementMode
from tests.domain.test_combat import by_name, fight, make_campaign, request


def _setup():
    campaign = make_campaign()
    encounter = fight(campaign)
    return campaign, encounter


def _apply(campaign, patch) -> None:
    patch.apply(campaign)


def test_an_alert_target_gives_nothing():
    campaign, encounter = _setup()
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Raider 1", [("Tomas Okoro", 1)]))
    assert spec.helpless == () and spec.helpless_advantage == 0 and spec.advantages == 0
    assert combat.helpless_target(campaign, encounter,
                                  by_name(campaign, encounter, "Tomas Okoro")) is None


def test_first_aid_under_fire_gives_the_attacker_an_advantage():
    campaign, encounter = _setup()
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    _apply(campaign, combat.start_task_patch(campaign, encounter, tomas.id, "First aid",
                                             target_id=ilse.id, first_aid=True))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Raider 1", [("Tomas Okoro", 1)],
                                       advantages=1))
    (target,) = spec.helpless
    assert target.name == "Tomas Okoro"
    assert target.state.causes == (HelplessCause.EXTENDED_ACTION,)
    assert "First aid" in target.text and "30 rounds left" in target.text
    assert spec.helpless_advantage == 1 and spec.advantages == 2 and spec.net_advantage == 2
    assert any(o.startswith("Helpless target: +1 advantage") for o in spec.options)
    odds = combat.attack_odds(spec)
    plain = combat.attack_odds(combat.build_attack(
        campaign, encounter, request(campaign, encounter, "Raider 1", [("Tomas Okoro", 1)],
                                     advantages=1, aborting=(tomas.id,))))
    assert odds.chance > plain.chance


def test_aborting_to_defend_takes_the_advantage_away():
    campaign, encounter = _setup()
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    _apply(campaign, combat.start_task_patch(campaign, encounter, tomas.id, "Hack the lock"))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Raider 1", [("Tomas Okoro", 1)],
                                       aborting=(tomas.id,)))
    (target,) = spec.helpless
    assert target.state.aborted and not target.state.helpless
    assert target.text.endswith("aborts to defend")
    assert spec.helpless_advantage == 0 and spec.advantages == 0


def test_a_full_action_this_round_is_helpless_but_a_run_is_not():
    campaign, encounter = _setup()
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    _apply(campaign, combat.take_action_patch(campaign, encounter, ilse.id,
                                              "full_skill_action"))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Raider 1", [("Ilse Brandt", 1)]))
    (target,) = spec.helpless
    assert target.why == ("full action this round (Full Skill Action)",)
    assert spec.helpless_advantage == 1
    # Next round the full action is over.
    _apply(campaign, combat.end_round_patch(campaign, encounter, random.Random(1)))
    assert combat.helpless_target(campaign, encounter, ilse) is None
    # Running is a full action with its own defence: not helpless.
    mara = by_name(campaign, encounter, "Mara Vey")
    _apply(campaign, combat.move_patch(campaign, encounter, mara.id,
                                       MovementMode.RUN))
    assert combat.helpless_target(campaign, encounter, mara) is None


def test_the_unconscious_dead_and_marked_are_helpless_and_cannot_abort():
    campaign, encounter = _setup()
    raider = by_name(campaign, encounter, "Raider 2")
    _apply(campaign, combat.add_condition_patch(campaign, encounter, raider.id,
                                                ConditionKind.DEAD))
    for name, why in (("Brute 1", "unconscious (critically wounded)"),
                      ("Raider 1", "unconscious (dying)"), ("Raider 2", "dead")):
        combatant = by_name(campaign, encounter, name)
        hp = campaign.combatant_character(combatant).hit_points
        damage = hp * 2 // 3 if "critically" in why else hp + 1
        if name != "Raider 2":
            _apply(campaign, combat.set_damage_patch(campaign, encounter, combatant.id,
                                                     damage))
        found = combat.helpless_target(campaign, encounter, combatant, aborted=True)
        assert found is not None and found.why[0] == why
        assert found.state.helpless and not found.state.can_abort
        assert found.text.endswith("aborting leaves them helpless")
    ilse = by_name(campaign, encounter, "Ilse Brandt")
    _apply(campaign, combat.add_condition_patch(campaign, encounter, ilse.id,
                                                ConditionKind.UNCONSCIOUS))
    _apply(campaign, combat.add_condition_patch(campaign, encounter, ilse.id,
                                                ConditionKind.HELPLESS))
    found = combat.helpless_target(campaign, encounter, ilse)
    assert found is not None
    assert found.why == ("unconscious", "marked helpless")
    assert found.state.causes == (HelplessCause.UNCONSCIOUS, HelplessCause.MARKED)


def test_one_roll_for_several_targets_needs_every_target_helpless():
    campaign, encounter = _setup()
    tomas = by_name(campaign, encounter, "Tomas Okoro")
    _apply(campaign, combat.start_task_patch(campaign, encounter, tomas.id, "First aid"))
    both = request(campaign, encounter, "Mara Vey", [("Raider 1", 1), ("Brute 1", 1)])
    brute = by_name(campaign, encounter, "Brute 1")
    hp = campaign.combatant_character(brute).hit_points
    _apply(campaign, combat.set_damage_patch(campaign, encounter, brute.id, hp * 2 // 3))
    spec = combat.build_attack(campaign, encounter, both)
    assert [t.name for t in spec.helpless] == ["Brute 1"]
    assert spec.helpless_advantage == 0 and spec.advantages == 0
    raider = by_name(campaign, encounter, "Raider 1")
    _apply(campaign, combat.add_condition_patch(campaign, encounter, raider.id,
                                                ConditionKind.HELPLESS))
    spec = combat.build_attack(campaign, encounter, both)
    assert spec.helpless_advantage == 1 and spec.advantages == 1


def test_a_defend_action_gains_nothing_from_helpless_opponents():
    campaign, encounter = _setup()
    brute = by_name(campaign, encounter, "Brute 1")
    _apply(campaign, combat.add_condition_patch(campaign, encounter, brute.id,
                                                ConditionKind.HELPLESS))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 1)],
                                       mode=AttackMode.DEFEND))
    assert len(spec.helpless) == 1 and spec.helpless_advantage == 0


def test_the_log_records_the_advantage():
    campaign, encounter = _setup()
    brute = by_name(campaign, encounter, "Brute 1")
    _apply(campaign, combat.add_condition_patch(campaign, encounter, brute.id,
                                                ConditionKind.HELPLESS))
    spec = combat.build_attack(campaign, encounter,
                               request(campaign, encounter, "Mara Vey", [("Brute 1", 1)]))
    check = combat.attack_check(spec, combat.DiceSource.table([6, 6, 1]))
    outcome = combat.resolve_attack(spec, check, random.Random(2))
    patch = combat.attack_patch(campaign, encounter, outcome, True)
    _apply(campaign, patch)
    assert any("Helpless target: +1 advantage (Brute 1: marked helpless)" in entry.text
               for entry in encounter.log)
