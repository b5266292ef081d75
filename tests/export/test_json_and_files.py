"""JSON export of the domain objects, file naming, and safe (atomic) writing."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    CharacterKind,
    Encounter,
)
from mneme_desktop.export import (
    ExportError,
    ExportFormat,
    ExportOptions,
    ExportTarget,
    default_file_name,
    write_export,
)
from mneme_desktop.export.files import safe_file_stem, write_file_atomically
from mneme_desktop.export.json_export import EXPORT_FORMAT, export_json
from mneme_desktop.storage import character_from_document

# --- JSON ----------------------------------------------------------------------------------


def test_one_character_is_importable_again(campaign: Campaign) -> None:
    ilse = next(c for c in campaign.characters if c.name == "Ilse Brandt")
    data = export_json(campaign, ExportTarget.character(ilse.id))
    assert json.loads(data)["format"] == "mneme-character"
    imported = character_from_document(data)
    assert imported.model_dump(exclude={"id"}) == ilse.model_dump(exclude={"id"})


def test_player_characters_are_the_domain_objects(campaign: Campaign) -> None:
    document = json.loads(export_json(campaign, ExportTarget.player_characters()))
    assert document["format"] == EXPORT_FORMAT
    assert document["contents"] == "characters"
    assert document["campaign"] == campaign.name
    players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    loaded = [Character.model_validate(raw) for raw in document["characters"]]
    assert loaded == players


def test_referee_pack_json_holds_encounter_characters_and_templates(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    document = json.loads(export_json(campaign, ExportTarget.referee_pack(ford.id)))
    assert document["contents"] == "referee-pack"
    assert Encounter.model_validate(document["encounter"]) == ford
    referenced = {c.character_id for c in ford.combatants if c.character_id}
    assert {raw["id"] for raw in document["characters"]} == referenced
    templates = [AdversaryTemplate.model_validate(raw) for raw in document["adversary_templates"]]
    assert {t.name for t in templates} == {"Raider", "Raider Gunner", "Shieldwall Raider",
                                           "Raider Chief"}


def test_json_keeps_non_ascii_readable(campaign: Campaign) -> None:
    mara = campaign.characters[0]
    mara.name = "Mára Vëy 雪"
    data = export_json(campaign, ExportTarget.character(mara.id))
    assert "Mára Vëy 雪".encode() in data


# --- file names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mara Vey", "Mara-Vey"),
        ("a/b\\c:d*e?f\"g<h>i|j", "a-b-c-d-e-f-g-h-i-j"),
        ("  ..  ", "export"),
        ("CON", "CON_"),
        ("Ilsé Brändt 雪", "Ilsé-Brändt-雪"),
        ("x" * 200, "x" * 60),
    ],
)
def test_safe_file_stem(text: str, expected: str) -> None:
    assert safe_file_stem(text) == expected


def test_default_file_names(campaign: Campaign) -> None:
    mara = campaign.characters[0]
    ford = campaign.encounters[0]
    assert default_file_name(campaign, ExportTarget.player_characters(), ExportFormat.PDF) == (
        "The-Ashfall-Marches-characters.pdf")
    assert default_file_name(campaign, ExportTarget.character(mara.id), ExportFormat.HTML) == (
        "The-Ashfall-Marches-Mara-Vey.html")
    assert default_file_name(campaign, ExportTarget.referee_pack(ford.id),
                             ExportFormat.JSON) == (
        "The-Ashfall-Marches-referee-Ambush-at-Cinder-Ford.json")


def test_format_from_suffix() -> None:
    assert ExportFormat.from_suffix(Path("a.PDF")) is ExportFormat.PDF
    assert ExportFormat.from_suffix(Path("a.htm")) is ExportFormat.HTML
    assert ExportFormat.from_suffix(Path("a.txt")) is None


# --- writing -------------------------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")
    write_file_atomically(target, b"new content")
    assert target.read_bytes() == b"new content"
    assert _leftovers(tmp_path) == []


def test_new_export_file_is_not_private(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("permission bits are POSIX")
    mask = os.umask(0o022)
    try:
        write_file_atomically(tmp_path / "sheet.pdf", b"x")
    finally:
        os.umask(mask)
    assert (tmp_path / "sheet.pdf").stat().st_mode & 0o777 == 0o644


def test_full_disk_leaves_old_file_and_no_temp(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ExportError, match="disk is full") as caught:
        write_file_atomically(target, b"new")
    assert "Nothing was written" in str(caught.value)
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_unwritable_folder_is_a_clear_error(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def refuse(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if str(path).endswith(".tmp"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(ExportError, match="permission denied"):
        write_file_atomically(tmp_path / "sheet.pdf", b"x")
    assert not (tmp_path / "sheet.pdf").exists()


def test_missing_folder_and_folder_in_the_way(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        write_file_atomically(tmp_path / "nowhere" / "sheet.pdf", b"x")
    (tmp_path / "sheet.pdf").mkdir()
    with pytest.raises(ExportError, match="folder with that name"):
        write_file_atomically(tmp_path / "sheet.pdf", b"x")


@pytest.mark.parametrize("fmt", list(ExportFormat))
def test_write_export_every_format(tmp_path: Path, campaign: Campaign,
                                   fmt: ExportFormat) -> None:
    path = tmp_path / f"out{fmt.suffix}"
    write_export(campaign, ExportTarget.player_characters(), fmt, path, ExportOptions())
    data = path.read_bytes()
    expected = {ExportFormat.PDF: b"%PDF", ExportFormat.HTML: b"<!DOCTYPE html>",
                ExportFormat.JSON: b"{"}[fmt]
    assert data.startswith(expected)
