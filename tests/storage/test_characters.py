"""Characters in and out: our export format, CE CharacterGen's ce-char-1, and the CLI helper."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from mneme_desktop.domain import SCHEMA_VERSION, Campaign, CharacterKind
from mneme_desktop.paths import AppPaths
from mneme_desktop.rules.wounds import hit_points
from mneme_desktop.storage import (
    CampaignLock,
    CharacterImportError,
    LockedError,
    backup_paths,
    character_to_json,
    export_character,
    import_character,
    import_into_campaign,
    load_campaign,
    load_campaign_file,
)
from mneme_desktop.storage.characters import character_report, readable_name
from mneme_desktop.storage.migrations import MIGRATIONS
from tests.storage.conftest import CE_SAMPLES


def test_export_and_import_round_trip(tmp_path: Path, sample: Campaign) -> None:
    ilse = sample.characters[2]
    path = tmp_path / "ilse.json"
    export_character(ilse, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "mneme-character"
    assert document["schema_version"] == SCHEMA_VERSION
    assert document["exported_by"].startswith("Mneme Desktop ")
    assert list(document) == ["format", "schema_version", "exported_by", "character"]
    assert import_character(path) == ilse


def test_exported_character_moves_into_another_campaign(tmp_path: Path, sample: Campaign,
                                                        saved: Path) -> None:
    export = tmp_path / "sef.json"
    export_character(sample.characters[3], export)
    other = tmp_path / "other.mneme"
    from mneme_desktop.storage import save_campaign

    save_campaign(Campaign(name="Other"), other)
    added = import_into_campaign(export, other)
    assert load_campaign(other).characters == [added]
    # Importing again into a campaign that already has that id gives the copy a new id.
    again = import_into_campaign(export, other)
    assert again.id != added.id and again.name == added.name
    assert len(load_campaign(other).characters) == 2
    assert [p.name for p in backup_paths(other)] == ["other.mneme.bak1", "other.mneme.bak2"]


def test_import_into_campaign_respects_a_live_lock(tmp_path: Path, sample: Campaign,
                                                   saved: Path) -> None:
    export = tmp_path / "sef.json"
    export_character(sample.characters[3], export)
    lock_dir = AppPaths.under(tmp_path / "app").ensure().lock_dir
    before = saved.read_bytes()
    with CampaignLock(saved, lock_dir), pytest.raises(LockedError):
        import_into_campaign(export, saved, lock_dir=lock_dir)
    assert saved.read_bytes() == before
    import_into_campaign(export, saved, lock_dir=lock_dir)  # released: now it works
    assert len(load_campaign(saved).characters) == len(sample.characters) + 1


def test_ce_chargen_samples_import(tmp_path: Path) -> None:
    elf = import_character(CE_SAMPLES / "ce_char_1.json")
    assert elf.name == "Sample 1"
    assert elf.kind is CharacterKind.PLAYER
    assert elf.upp == "375B8F"
    # HP by the Mneme rules (STR + DEX + END), not the file's derived "hit_points": 5.
    assert elf.hit_points == hit_points(3, 7, 5) == 15
    assert elf.wound_thresholds().seriously == 5
    # CE's "medicine" is the Medic skill the healing rules read; the rename is noted.
    assert {(s.name, s.level) for s in elf.skills} == {
        ("Leadership", 2), ("Religion", 1), ("Medic", 1), ("History", 1), ("Persuade", 1),
        ("Language", 1), ("Occult", 1),
    }
    assert "Skills under their Mneme CE names: Medicine as Medic." in elf.notes
    assert (elf.species, elf.age, elf.credits) == ("Elf", 26, 31_500)  # both cash assets
    assert [(c.name, c.terms, c.rank) for c in elf.careers] == [("Cleric", 2, "Rank 1")]
    assert [(e.name, e.count, e.notes) for e in elf.equipment] == [
        ("Healers Kit", 1, "Gained from cleric")]
    notes = elf.notes
    for expected in (
        "Imported from CE CharacterGen (ce-char-1, created 2026-11-20).",
        "Kept here, the sheet has no field for them: background, connections, career "
        "history, hero coins, supernatural.",
        "Background: Minor Noble (background skill: Leadership)",
        "- Ally: Gained from cleric",
        "- Cleric, term 1 (from age 18): advanced; Pilgrimage; skills History, Language, "
        "Persuade",
        "CE CharacterGen: hero coins 3, supernatural -10",
    ):
        assert expected in notes, expected
    assert character_report(elf) == ("background, connections, career history, hero coins, "
                                     "supernatural")
    assert "hit_points" not in notes and "armor_class" not in notes

    dwarf = import_character(CE_SAMPLES / "ce_char_2.json")
    assert dwarf.upp == "A46789" and dwarf.hit_points == 20
    assert "Thief, term 1 (from age 18): mishap: Severely injured during escape." in (
        dwarf.notes
    )
    assert dwarf.skill_level("Stealth") == 0 and dwarf.skill_level("Pilot") is None
    assert dwarf.skill_level("Animals (Riding)") == 1  # CE riding
    assert [(e.name, e.notes) for e in dwarf.equipment] == [("Safehouse", "Gained from thief")]

    hunter = import_character(CE_SAMPLES / "ce_char_3.json")
    assert hunter.upp == "95A98B" and hunter.hit_points == 24
    assert hunter.skill_level("survival") == 3
    assert hunter.skill_level("Gun Combat (Archery)") == 0  # CE archery
    assert [(c.name, c.terms) for c in hunter.careers] == [("Hunter", 4)]
    assert ("Hunting Lodge", "Gained from hunter") in [(e.name, e.notes)
                                                       for e in hunter.equipment]


_HOMELESS_IN_NOTES = ("Species:", "Age:", "Assets:", "Equipment:", "Cash", "Careers (")
"""What the old importer wrote into the notes that now has a field on the sheet."""


@pytest.mark.parametrize("sample", sorted(p.name for p in CE_SAMPLES.glob("*.json")))
def test_ce_samples_leave_nothing_with_a_home_in_the_notes(sample: str) -> None:
    """Every field of ce-char-1 the sheet has a place for is in that place, not the notes."""
    document = json.loads((CE_SAMPLES / sample).read_text(encoding="utf-8"))["character"]
    character = import_character(CE_SAMPLES / sample)
    for marker in _HOMELESS_IN_NOTES:
        assert marker not in character.notes, marker
    for asset in document["assets"]:
        if asset.get("amount") is not None:
            assert f"{asset['amount']:,}" not in character.notes
    assert character.species.casefold() == document["species_id"].replace("_", " ")
    assert character.age == document["age"]
    assert sum(c.terms for c in character.careers) == document["total_terms"]
    assert character.credits == sum(a["amount"] for a in document["assets"]
                                    if a["type"] == "cash")
    things = [a for a in document["assets"]
              if a["type"] not in ("cash", "ally", "contact", "rival", "enemy")]
    assert len(character.equipment) == len(document["equipment"]) + len(things)
    assert len(character.skills) <= len(document["skills"])


def test_ce_equipment_objects_and_an_impossible_age(tmp_path: Path) -> None:
    def change(d: dict) -> None:
        d["character"]["equipment"] = [
            "rope", {"name": "rations", "count": 5, "mass": 0.5, "colour": "grey"},
            {"type": "lantern", "weight": "1.25"}, {"name": "sack", "count": True}]
        d["character"]["age"] = -4
    path = _ce(tmp_path, change)
    character = import_character(path)
    assert [(e.name, e.count, e.mass, e.notes) for e in character.equipment[:4]] == [
        ("Rope", 1, None, ""), ("Rations", 5, Decimal("0.5"), "colour: grey"),
        ("Lantern", 1, Decimal("1.25"), ""), ("Sack", 1, None, "")]
    assert character.age is None
    assert "age -4 (not a possible age)" in character_report(character)


def test_readable_names() -> None:
    assert readable_name("gun_combat") == "Gun Combat"
    assert readable_name("sleight_of_hand") == "Sleight of Hand"
    assert readable_name("of_mice") == "Of Mice"
    assert readable_name("vacc_suit") == "Vacc Suit"
    assert readable_name("jack-of-all-trades") == "Jack of All Trades"


def _ce(tmp_path: Path, change: object) -> Path:
    document = json.loads((CE_SAMPLES / "ce_char_3.json").read_text(encoding="utf-8"))
    change(document)  # type: ignore[operator]
    path = tmp_path / "ce.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def test_ce_with_bad_values_says_where(tmp_path: Path) -> None:
    path = _ce(tmp_path, lambda d: d["character"]["abilities"].__setitem__("dex", -2))
    with pytest.raises(CharacterImportError) as caught:
        import_character(path)
    message = str(caught.value)
    assert message.startswith("'ce.json' cannot be imported as a character")
    assert "character.abilities.dex: must be at least 0 (found -2) (line 9)" in message
    path = _ce(tmp_path, lambda d: d["character"]["skills"].__setitem__("survival", 40))
    with pytest.raises(CharacterImportError, match=r"character\.skills\.survival: must be at most"):
        import_character(path)
    path = _ce(tmp_path, lambda d: d["character"].pop("abilities"))
    with pytest.raises(CharacterImportError, match=r"character\.abilities: is missing"):
        import_character(path)
    path = _ce(tmp_path, lambda d: d["character"]["abilities"].update(str=0, dex=0, end=0))
    with pytest.raises(CharacterImportError, match=r"STR \+ DEX \+ END must be at least 1"):
        import_character(path)


def test_ce_without_a_name_uses_the_file_name(tmp_path: Path) -> None:
    path = _ce(tmp_path, lambda d: d["character"].__setitem__("name", "  "))
    assert import_character(path).name == "ce"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "the file is empty"),
        (b"{ nope", "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"name": "Bob"}', "not a format Mneme Desktop knows"),
        (b'{"format": "gurps-4e"}', 'its format is "gurps-4e"'),
        (b'{"format": "mneme-campaign", "schema_version": 1}', "a whole campaign"),
        (b'{"format": "mneme-character", "schema_version": 99, "character": {}}',
         "newer version of Mneme Desktop"),
        (b'{"format": "mneme-character", "schema_version": 1}', "no character in it"),
        (b'{"format": "mneme-character", "schema_version": 2, "character": {"name": "X"}}',
         r"character\.characteristics: is missing \(line 1\)"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_unknown_or_broken_files(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(CharacterImportError, match=expected):
        import_character(path)


def test_missing_character_file(tmp_path: Path) -> None:
    with pytest.raises(CharacterImportError, match="no such file"):
        import_character(tmp_path / "nobody.json")


def test_older_export_is_upgraded_by_the_campaign_migrations(tmp_path: Path,
                                                             sample: Campaign) -> None:
    document = json.loads(character_to_json(sample.characters[0]))
    document["schema_version"] = 0
    document["character"]["title"] = document["character"].pop("name")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    def step(data: dict) -> dict:
        for person in data["characters"]:
            person["name"] = person.pop("title")
        return data

    with pytest.raises(CharacterImportError, match="cannot be upgraded"):
        import_character(path)
    with MIGRATIONS.temporarily(0, step):
        assert import_character(path) == sample.characters[0]


def test_import_into_campaign_checks_the_file_did_not_change(tmp_path: Path, saved: Path,
                                                              sample: Campaign) -> None:
    """The campaign is loaded and saved with its hash, so nothing between is overwritten."""
    export = tmp_path / "mara.json"
    export_character(sample.characters[0], export)
    loaded = load_campaign_file(saved)
    import_into_campaign(export, saved)
    assert load_campaign_file(saved).content_hash != loaded.content_hash
