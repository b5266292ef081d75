"""Duplicating campaign items: a new item with its own ids, never a second reference."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Encounter,
)
from mneme_desktop.domain.duplicate import (
    duplicate_character,
    duplicate_encounter,
    duplicate_template,
    unique_name,
)


def _campaign() -> Campaign:
    mara = Character(id="mara", name="Mara", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))
    raider = AdversaryTemplate(
        id="raider", tags=["bandit"],
        stats=Character(name="Raider", kind=CharacterKind.ADVERSARY,
                        characteristics=Characteristics.of(8, 7, 8, 6, 5, 4)),
    )
    ford = Encounter(id="ford", name="Ford")
    ford.add_character(mara)
    ford.add_from_template(raider, 2)
    ford.combatants[1].aim_target_id = ford.combatants[0].id
    return Campaign(name="Ashfall", characters=[mara], adversary_library=[raider],
                    encounters=[ford])


def test_unique_name_counts_up_from_two() -> None:
    assert unique_name("New NPC", []) == "New NPC"
    assert unique_name("New NPC", ["New NPC"]) == "New NPC 2"
    assert unique_name("New NPC", ["New NPC", "New NPC 2"]) == "New NPC 3"


def test_a_character_copy_has_a_new_id_and_a_free_name() -> None:
    campaign = _campaign()
    copy = duplicate_character(campaign, "mara")
    assert copy.id != "mara" and copy.name == "Mara (copy)"
    assert copy.characteristics == campaign.character("mara").characteristics
    campaign.characters.append(copy)
    assert duplicate_character(campaign, "mara").name == "Mara (copy) 2"
    assert len(campaign.characters) == 2  # the caller inserts; nothing else was added


def test_a_template_copy_has_its_own_stat_block() -> None:
    campaign = _campaign()
    copy = duplicate_template(campaign, "raider")
    original = campaign.template("raider")
    assert copy.id != original.id and copy.stats.id != original.stats.id
    assert copy.name == "Raider (copy)" and copy.tags == ["bandit"]
    copy.tags.append("changed")
    assert original.tags == ["bandit"]


def test_an_encounter_copy_renews_every_id_and_drops_aims() -> None:
    campaign = _campaign()
    original = campaign.encounter("ford")
    copy = duplicate_encounter(campaign, "ford")
    assert copy.id != original.id and copy.name == "Ford (copy)"
    old_ids = {c.id for c in original.combatants}
    assert not old_ids & {c.id for c in copy.combatants}
    old_instances = {c.instance.id for c in original.combatants if c.instance is not None}
    new_instances = {c.instance.id for c in copy.combatants if c.instance is not None}
    assert len(new_instances) == 2 and not old_instances & new_instances
    assert all(c.aim_target_id is None for c in copy.combatants)
    assert copy.combatants[0].character_id == "mara"  # a PC stays the same PC


def test_duplicating_what_is_not_there_raises() -> None:
    with pytest.raises(KeyError):
        duplicate_character(_campaign(), "nobody")
