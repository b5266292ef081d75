"""Issue 15: bad files are refused quickly, in bounded work, and never half-read.

The budget is checked by counting work (paths located, characters walked, errors kept),
never by the clock: a slow CI machine must not fail these, and a quadratic regression
must, whatever the machine.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from mneme_desktop.storage import (
    CampaignLoadError,
    CharacterImportError,
    build_sample_campaign,
    campaign_from_json,
    campaign_to_json,
    import_character,
    load_campaign,
)
from mneme_desktop.storage.diagnostics import MAX_REPORTED_PROBLEMS, WORK

HEADER = 2
"""Paths the loader locates besides the problems: the "format" and "schema_version" keys."""

CE_SAMPLES = Path(__file__).parents[1] / "storage" / "fixtures" / "ce-char-1"


@pytest.fixture
def document() -> dict[str, object]:
    return json.loads(campaign_to_json(build_sample_campaign()))  # type: ignore[no-any-return]


def _bytes(document: object) -> bytes:
    return json.dumps(document, indent=2).encode("utf-8")


# --- locating errors: one walk, only the errors shown ----------------------------------------


def test_twenty_thousand_bad_entries_locate_only_what_is_shown(
    document: dict[str, object]
) -> None:
    """A 270 KB file with 20,000 bad entries took 198 s: each error was located by its own
    walk over the text."""
    journal = [{"id": f"j{i}", "title": 5} for i in range(20_000)]
    document["journal"] = journal
    raw = _bytes(document)
    WORK.reset()
    with pytest.raises(CampaignLoadError) as caught:
        campaign_from_json(raw)
    assert WORK.paths <= MAX_REPORTED_PROBLEMS + HEADER
    assert WORK.chars <= len(raw)
    message = str(caught.value)
    assert "journal[0].title: must be text in quotes (found 5) (line" in message
    assert len(caught.value.problems) <= 100


def test_ten_million_zeros_make_one_error_not_ten_million(document: dict[str, object]) -> None:
    """A 20 MB list of zeros gave 10^7 errors and 13.9 GB of memory. Here 10^6 (2 MB)."""
    text = _bytes(document).decode()
    raw = text.replace('"characters": [', '"characters": [' + "0," * 1_000_000, 1).encode()
    WORK.reset()
    with pytest.raises(CampaignLoadError) as caught:
        campaign_from_json(raw)
    assert "characters[0]: must be an object" in str(caught.value)
    assert len(caught.value.problems) == 1
    assert WORK.paths <= MAX_REPORTED_PROBLEMS + HEADER
    assert WORK.chars <= len(raw)


def test_small_files_still_count_every_problem(document: dict[str, object]) -> None:
    for character in document["characters"]:  # type: ignore[attr-defined]
        character["damage"] = -1
    WORK.reset()
    with pytest.raises(CampaignLoadError) as caught:
        campaign_from_json(_bytes(document))
    count = len(document["characters"])  # type: ignore[arg-type]
    assert f"({count} problems)" in str(caught.value)
    assert f"... and {count - MAX_REPORTED_PROBLEMS} more problem" in str(caught.value)
    # one walk for the problems shown, one that stops at the "format" line at the top
    assert WORK.walks == 2 and WORK.paths == MAX_REPORTED_PROBLEMS + 2


def test_character_import_with_ten_thousand_negative_skills(tmp_path: Path) -> None:
    """166 s before: every skill error located by its own walk."""
    document = json.loads((CE_SAMPLES / "ce_char_3.json").read_text(encoding="utf-8"))
    document["character"]["skills"] = {f"skill_{i}": -1 for i in range(10_000)}
    path = tmp_path / "ce.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    WORK.reset()
    with pytest.raises(CharacterImportError) as caught:
        import_character(path)
    assert WORK.walks <= MAX_REPORTED_PROBLEMS
    assert WORK.chars <= MAX_REPORTED_PROBLEMS * path.stat().st_size
    message = str(caught.value)
    assert "(10000 problems)" in message
    assert "character.skills.skill_0: must be at least 0 (found -1) (line" in message


def test_mneme_character_export_with_many_bad_skills(tmp_path: Path) -> None:
    from mneme_desktop.storage import character_to_json

    character = build_sample_campaign().characters[0]
    document = json.loads(character_to_json(character))
    document["character"]["skills"] = [{"name": "", "level": -1}] * 50_000
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    WORK.reset()
    with pytest.raises(CharacterImportError) as caught:
        import_character(path)
    assert WORK.paths <= MAX_REPORTED_PROBLEMS
    assert "character.skills[0]" in str(caught.value)


# --- duplicate keys ---------------------------------------------------------------------


def test_a_duplicate_top_level_key_is_refused_with_its_line(document: dict[str, object]) -> None:
    text = _bytes(document).decode()
    raw = text.replace('"characters": [', '"characters": [],\n  "characters": [', 1).encode()
    with pytest.raises(CampaignLoadError) as caught:
        campaign_from_json(raw)
    message = str(caught.value)
    assert re.search(r'the key "characters" appears twice .*line \d+', message), message
    expected_line = text[: text.index('"characters": [')].count("\n") + 2
    assert caught.value.line == expected_line


def test_a_duplicate_nested_key_is_refused(document: dict[str, object]) -> None:
    text = _bytes(document).decode()
    first = text.index('"str": ')
    raw = (text[:first] + '"str": 3,\n        ' + text[first:]).encode()
    with pytest.raises(CampaignLoadError, match=r'"str" appears twice.*characters\[0\]'):
        campaign_from_json(raw)


def test_a_duplicate_key_in_a_character_file_is_refused(tmp_path: Path) -> None:
    text = (CE_SAMPLES / "ce_char_3.json").read_text(encoding="utf-8")
    path = tmp_path / "ce.json"
    path.write_text(text.replace('"str":', '"str": 1, "str":', 1), encoding="utf-8")
    with pytest.raises(CharacterImportError, match='"str" appears twice'):
        import_character(path)


def test_a_hand_formatted_file_without_duplicates_still_loads(
    document: dict[str, object]
) -> None:
    raw = json.dumps(document).encode()  # not our formatting: the slower check runs
    assert campaign_from_json(raw).name == document["name"]


# --- booleans are not numbers ----------------------------------------------------------


def test_true_is_not_strength_one(tmp_path: Path) -> None:
    document = json.loads((CE_SAMPLES / "ce_char_3.json").read_text(encoding="utf-8"))
    document["character"]["abilities"]["str"] = True
    path = tmp_path / "ce.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CharacterImportError, match=r"abilities\.str: must be a whole number"):
        import_character(path)


def test_true_is_not_a_characteristic_in_a_campaign(document: dict[str, object]) -> None:
    document["characters"][0]["characteristics"]["str"] = True  # type: ignore[index]
    with pytest.raises(CampaignLoadError, match=r"characteristics\.str: must be a whole number"):
        campaign_from_json(_bytes(document))


def test_an_unnamed_skill_says_which_skill(tmp_path: Path) -> None:
    document = json.loads((CE_SAMPLES / "ce_char_3.json").read_text(encoding="utf-8"))
    skills = document["character"]["skills"]
    document["character"]["skills"] = {**dict(list(skills.items())[:3]), "": 1}
    path = tmp_path / "ce.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    with pytest.raises(CharacterImportError) as caught:
        import_character(path)
    assert re.search(r"character\.skills\[3\] \(row 4\)\.name: must not be empty \(line \d+\)",
                     str(caught.value)), str(caught.value)


# --- not a regular file, too big ---------------------------------------------------------


def test_a_character_file_over_its_own_limit_names_that_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(17 * 1024 * 1024)
    with pytest.raises(CharacterImportError) as caught:
        import_character(path)
    assert "16 MiB a character file may be" in str(caught.value)
    assert "256" not in str(caught.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "campaign.mneme"
    os.mkfifo(fifo)
    with pytest.raises(CampaignLoadError, match="is a named pipe, not a campaign file"):
        load_campaign(fifo)
    character = tmp_path / "character.json"
    os.mkfifo(character)
    with pytest.raises(CharacterImportError, match="named pipe"):
        import_character(character)


# --- too dense to be a campaign: refused before parsing ---------------------------------


def test_a_large_file_of_tiny_values_is_refused_unparsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """256 MiB of ``0,`` needed 4 GB to parse (32 bytes per value) just to be refused."""
    # (The check is by count of separators, so a 4 MiB file stands for a 256 MiB one.)
    from mneme_desktop.storage import codec

    def never(*args: object) -> None:
        raise AssertionError("a file this dense must not reach the parser")

    monkeypatch.setattr(codec, "fail_fast_validator", never)
    monkeypatch.setattr(codec, "parse_json_document", never)
    head = b'{"format": "mneme-campaign", "schema_version": 1, "name": "x", "characters": ['
    raw = head + b"0," * (codec.DENSE_CHECK_BYTES // 2) + b"0]}"
    million = round(codec.DENSE_CHECK_BYTES / 2 / 1e6)
    mib = codec.DENSE_CHECK_BYTES // 1024 // 1024
    with pytest.raises(CampaignLoadError, match=rf"packs about {million} million values into "
                                                rf"{mib} MiB"):
        campaign_from_json(raw)


def test_a_large_real_campaign_written_without_spaces_is_not_dense() -> None:
    from mneme_desktop.storage import codec

    campaign = json.loads(campaign_to_json(build_sample_campaign()))
    characters = campaign["characters"]
    while len(json.dumps(campaign, separators=(",", ":"))) < codec.DENSE_CHECK_BYTES:
        characters.extend(characters[: len(characters)])
    raw = json.dumps(campaign, separators=(",", ":")).encode()
    assert len(raw) >= codec.DENSE_CHECK_BYTES
    codec._refuse_dense(raw, None)  # no error: about 10 bytes per value, well above 6


def test_a_large_valid_file_of_tiny_records_is_refused_unparsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1.8 million empty journal entries (``{}``, all defaults) in 40 MB loaded in 24 s and
    3 GB: each became a model. Counted, not parsed: the parser is never reached."""
    from mneme_desktop.storage import codec

    def never(*args: object) -> None:
        raise AssertionError("a file of this many records must not reach the parser")

    monkeypatch.setattr(codec, "fail_fast_validator", never)
    monkeypatch.setattr(codec, "parse_json_document", never)
    head = b'{"format": "mneme-campaign", "schema_version": 1, "name": "x", "journal": ['
    count = codec.DENSE_CHECK_BYTES // 28
    raw = head + b", ".join([b'{"title": "a", "text": "b"}'] * count) + b"]}"
    assert len(raw) >= codec.DENSE_CHECK_BYTES
    with pytest.raises(CampaignLoadError, match="records in"):
        campaign_from_json(raw)
