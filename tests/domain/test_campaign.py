"""The campaign: lookups, integrity between its parts, and edits that keep it whole."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import (
    SCHEMA_VERSION,
    AdversaryTemplate,
    Campaign,
    CampaignIntegrityError,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Encounter,
    GameTime,
    JournalEntry,
    RulesOptions,
    Side,
)
from mneme_desktop.rules.wounds import ThresholdBasis


def _pc(name: str, character_id: str | None = None) -> Character:
    data: dict[str, object] = {
        "name": name,
        "characteristics": Characteristics.of(7, 7, 7, 7, 7, 7),
    }
    if character_id:
        data["id"] = character_id
    return Character.model_validate(data)


def _campaign() -> Campaign:
    mara, tomas = _pc("Mara", "mara"), _pc("Tomas", "tomas")
    raider = AdversaryTemplate(
        id="raider",
        stats=Character(
            name="Raider", kind=CharacterKind.ADVERSARY,
            characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
        ),
    )
    ford = Encounter(id="ford", name="Ford")
    ford.add_character(mara)
    ford.add_character(tomas)
    ford.add_from_template(raider, 2)
    return Campaign(
        name="Ashfall", characters=[mara, tomas], adversary_library=[raider], encounters=[ford]
    )


def test_defaults() -> None:
    campaign = Campaign(name="New campaign")
    assert campaign.schema_version == SCHEMA_VERSION
    assert campaign.format == "mneme-campaign"
    assert campaign.game_time == GameTime.at(1)
    assert campaign.rules_options.threshold_basis is ThresholdBasis.HP_FRACTIONS
    assert campaign.characters == [] and campaign.journal == []
    with pytest.raises(ValidationError):
        Campaign(name="x", schema_version=SCHEMA_VERSION + 1)
    with pytest.raises(ValidationError):
        Campaign(name="")


def test_lookups() -> None:
    campaign = _campaign()
    assert campaign.character("mara").name == "Mara"
    assert campaign.find_character("nobody") is None
    with pytest.raises(KeyError, match="no character 'nobody'"):
        campaign.character("nobody")
    assert campaign.template("raider").name == "Raider"
    assert campaign.find_template("x") is None
    assert campaign.encounter("ford").name == "Ford"
    with pytest.raises(KeyError):
        campaign.encounter("x")
    ford = campaign.encounter("ford")
    names = [campaign.combatant_character(c).name for c in ford.combatants]
    assert names == ["Mara", "Tomas", "Raider 1", "Raider 2"]
    assert [c.name for c in campaign.all_characters()] == names


def test_duplicate_ids_and_dangling_references_are_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        Campaign(name="x", characters=[_pc("A", "same"), _pc("B", "same")])
    error = caught.value.errors()[0]["ctx"]["error"]
    assert isinstance(error, CampaignIntegrityError)
    assert [str(p) for p in error.problems] == [
        "characters[1].id: duplicate id 'same' (also characters[0])"
    ]
    with pytest.raises(ValidationError, match=r"encounters\[0\]\.combatants\[0\]\.character_id"):
        Campaign(
            name="x", encounters=[Encounter(name="e", combatants=[Combatant(character_id="z")])]
        )
    aimer = Combatant(character_id="a", aim_target_id="gone")
    with pytest.raises(ValidationError, match="no combatant with id 'gone'"):
        Campaign(name="x", characters=[_pc("A", "a")],
                 encounters=[Encounter(name="e", combatants=[aimer])])
    with pytest.raises(ValidationError, match="duplicate id"):
        Campaign(name="x", journal=[JournalEntry(id="j"), JournalEntry(id="j")])


def test_integrity_problems_lists_what_edits_broke() -> None:
    campaign = _campaign()
    assert campaign.integrity_problems() == []
    campaign.characters.append(_pc("Copy", "mara"))  # list edits skip validation
    problems = campaign.integrity_problems()
    assert [p.where for p in problems] == ["characters[2].id"]


def test_add_character_avoids_id_clashes() -> None:
    campaign = _campaign()
    clone = _pc("Mara again", "mara")
    added = campaign.add_character(clone)
    assert added.id != "mara" and campaign.characters[-1] is added
    assert campaign.integrity_problems() == []


def test_remove_character_takes_it_out_of_encounters() -> None:
    campaign = _campaign()
    ford = campaign.encounter("ford")
    raider = ford.combatants[2]
    raider.aim_target_id = ford.combatants[0].id
    raider.aim = 2
    removed = campaign.remove_character("mara")
    assert removed.name == "Mara"
    assert [c.name for c in campaign.characters] == ["Tomas"]
    assert [campaign.combatant_character(c).name for c in ford.combatants] == [
        "Tomas", "Raider 1", "Raider 2"
    ]
    assert raider.aim_target_id is None
    assert campaign.integrity_problems() == []
    Campaign.model_validate(campaign.model_dump())  # still a valid campaign


def test_time_and_options() -> None:
    campaign = _campaign()
    campaign.game_time = GameTime.at(12, 14, 30)
    assert campaign.advance_time(rounds=5) == GameTime.at(12, 14, 30, 30)
    assert campaign.advance_time(days=1).label == "Day 13, 14:30:30"
    campaign.rules_options = RulesOptions(threshold_basis=ThresholdBasis.CHARACTERISTIC)
    with pytest.raises(ValidationError):
        campaign.rules_options = "loose"  # type: ignore[assignment]


def test_combatant_side_and_reference() -> None:
    campaign = _campaign()
    ford = campaign.encounter("ford")
    assert [c.side for c in ford.combatants] == [
        Side.PLAYERS, Side.PLAYERS, Side.ENEMIES, Side.ENEMIES
    ]
    assert ford.combatants[0].character_id == "mara"
