"""Encounters: numbered adversary instances, initiative order, turns and rounds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import (
    AdversaryTemplate,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Condition,
    ConditionKind,
    Encounter,
    EncounterLogEntry,
    ExtendedTask,
    Side,
    Weapon,
)
from mneme_desktop.rules.actions import MINOR_ACTIONS_PER_ROUND, ExtendedAction


def _template(name: str = "Raider") -> AdversaryTemplate:
    return AdversaryTemplate(
        stats=Character(
            name=name,
            kind=CharacterKind.ADVERSARY,
            characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
            weapons=[Weapon(name="Broadsword", damage="3d3-2")],
            damage=3,
            conditions=[Condition(kind=ConditionKind.PRONE)],
        ),
        tags=["raiders"],
    )


def _pc(name: str = "Mara") -> Character:
    return Character(name=name, characteristics=Characteristics.of(8, 9, 8, 7, 8, 6))


def test_instances_are_numbered_and_numbering_continues() -> None:
    raider = _template()
    encounter = Encounter(name="Ford")
    first = encounter.add_from_template(raider, 3)
    assert [c.instance.name for c in first] == ["Raider 1", "Raider 2", "Raider 3"]  # type: ignore[union-attr]
    assert all(c.side is Side.ENEMIES for c in first)
    encounter.remove_combatant(first[2].id)
    more = encounter.add_from_template(raider, 2)
    assert [c.instance.name for c in more] == ["Raider 3", "Raider 4"]  # type: ignore[union-attr]
    chief = encounter.add_from_template(_template("Raider Chief"))
    assert chief[0].instance.name == "Raider Chief 1"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="at least one"):
        encounter.add_from_template(raider, 0)


def test_instances_are_fresh_independent_copies() -> None:
    raider = _template()
    encounter = Encounter(name="Ford")
    one, two = encounter.add_from_template(raider, 2)
    a, b = one.instance, two.instance
    assert a is not None and b is not None
    assert len({a.id, b.id, raider.stats.id}) == 3
    assert a.template_id == raider.id and a.kind is CharacterKind.ADVERSARY
    assert a.damage == 0 and a.conditions == []  # unhurt, whatever the template shows
    a.weapons[0].name = "Notched Broadsword"
    assert raider.stats.weapons[0].name == "Broadsword" and b.weapons[0].name == "Broadsword"


def test_combatant_needs_exactly_one_source() -> None:
    with pytest.raises(ValidationError, match="exactly one of character_id"):
        Combatant()
    with pytest.raises(ValidationError, match="exactly one of character_id"):
        Combatant(character_id="x", instance=_pc())
    with pytest.raises(ValidationError):
        Combatant(character_id="x", actions_spent=MINOR_ACTIONS_PER_ROUND + 1)
    assert Combatant(character_id="x", actions_spent=1).actions_left == 2


def _fight() -> tuple[Encounter, list[Combatant]]:
    encounter = Encounter(name="Ford")
    mara = encounter.add_character(_pc("Mara"))
    tomas = encounter.add_character(_pc("Tomas"))
    raiders = encounter.add_from_template(_template(), 2)
    mara.initiative, tomas.initiative = 9, None
    raiders[0].initiative, raiders[1].initiative = 11, 9
    return encounter, [mara, tomas, *raiders]


def test_initiative_order_is_descending_with_stable_ties() -> None:
    encounter, (mara, tomas, r1, r2) = _fight()
    assert encounter.initiative_order() == [r1, mara, r2, tomas]
    r2.out_of_fight = True
    assert encounter.initiative_order() == [r1, mara, tomas]


def test_turns_and_rounds() -> None:
    encounter, (mara, tomas, r1, _r2) = _fight()
    assert encounter.current_combatant is None and not encounter.started
    with pytest.raises(ValueError, match="not started"):
        encounter.next_turn()
    mara.actions_spent = 3
    encounter.start()
    assert encounter.round == 1 and encounter.current_combatant is r1
    assert mara.actions_spent == 0
    assert encounter.next_turn() is False and encounter.current_combatant is mara
    mara.actions_spent = 2
    mara.aim = 2
    encounter.next_turn()
    encounter.next_turn()
    assert encounter.current_combatant is tomas
    assert encounter.next_turn() is True  # a new round
    assert encounter.round == 2 and encounter.current_combatant is r1
    assert mara.actions_spent == 0 and mara.aim == 2  # aim builds up over rounds
    encounter.end()
    assert encounter.current_combatant is None
    with pytest.raises(ValueError, match="ended"):
        encounter.next_turn()


def test_removing_a_combatant_keeps_whose_turn_it_is() -> None:
    encounter, (mara, tomas, r1, r2) = _fight()
    encounter.start()
    encounter.next_turn()
    encounter.next_turn()
    assert encounter.current_combatant is r2
    r2.aim_target_id, r2.aim = mara.id, 3
    encounter.remove_combatant(r1.id)  # someone earlier in the order leaves
    assert encounter.current_combatant is r2
    encounter.remove_combatant(mara.id)
    assert r2.aim_target_id is None and r2.aim == 0
    assert encounter.current_combatant is r2
    encounter.remove_combatant(r2.id)  # the current one leaves: the next one is up
    assert encounter.current_combatant is tomas
    with pytest.raises(KeyError):
        encounter.combatant(r2.id)
    assert encounter.find_combatant(tomas.id) is tomas


def test_log_entries_take_the_current_round() -> None:
    encounter, _ = _fight()
    encounter.start()
    encounter.next_turn()
    entry = encounter.add_log(EncounterLogEntry(actor="Mara", action="Aim"))
    assert entry.round == 1 and encounter.log == [entry]
    kept = encounter.add_log(EncounterLogEntry(round=7, text="set by hand"))
    assert kept.round == 7


def test_extended_task_matches_the_rules_core() -> None:
    task = ExtendedTask.from_rules("First aid", ExtendedAction.start(30))
    assert (task.total_rounds, task.remaining_rounds, task.rounds_taken) == (30, 30, 0)
    advanced = ExtendedTask.from_rules(task.description, task.to_rules().advance(2))
    assert advanced.remaining_rounds == 27 and advanced.rounds_taken == 1
    with pytest.raises(ValidationError, match="cannot exceed"):
        ExtendedTask(description="x", total_rounds=3, remaining_rounds=4)
