"""Everything that is not a campaign gives a CampaignLoadError a referee can act on, and a
failed load never changes the file."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mneme_desktop.domain import SCHEMA_VERSION, Campaign, Character, Characteristics, Skill
from mneme_desktop.storage import (
    MAX_CAMPAIGN_BYTES,
    CampaignLoadError,
    NewerSchemaError,
    campaign_from_json,
    campaign_to_json,
    character_to_json,
    load_campaign,
    save_campaign,
)
from tests.storage.conftest import CE_SAMPLES


def _edit(data: bytes, change: Callable[[dict], object]) -> bytes:
    document = json.loads(data)
    change(document)
    return json.dumps(document, indent=2).encode("utf-8")


def _set(path: tuple, value: object) -> Callable[[dict], object]:
    def change(document: dict) -> None:
        target = document
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return change


def corpus(good: bytes) -> dict[str, bytes]:
    """Named bad files derived from a real campaign file."""
    files: dict[str, bytes] = {}
    for tenth in range(10):
        files[f"truncated at {tenth * 10}%"] = good[: len(good) * tenth // 10]
    files["truncated by one byte"] = good[:-2]
    rng = random.Random(20261120)
    files["binary noise"] = bytes(rng.randrange(256) for _ in range(4096))
    files["noise after a valid start"] = good[:200] + bytes(rng.randrange(256) for _ in range(64))
    files["a NUL byte"] = good[:100] + b"\x00" + good[100:]
    files["only whitespace"] = b"  \n\t\n"
    files["not JSON at all"] = b"Campaign: The Ashfall Marches\nPlayers: 4\n"
    files["a JSON list"] = b"[1, 2, 3]"
    files["a JSON number"] = b"42"
    files["a JSON string"] = b'"campaign"'
    files["null"] = b"null"
    files["an empty object"] = b"{}"
    files["bad UTF-8"] = good[:300] + b"\xff\xfe\xc3" + good[300:]
    files["NaN"] = _edit(good, _set(("characters", 0, "damage"), 0)).replace(
        b'"damage": 0', b'"damage": NaN', 1
    )
    files["Infinity"] = good.replace(b'"day":12', b'"day": Infinity', 1)
    files["deep nesting"] = b'{"format": "mneme-campaign", "schema_version": 1, "notes": ' + (
        b"[" * 100_000
    ) + (b"]" * 100_000) + b"}"
    files["moderately deep nesting"] = b'{"format": "mneme-campaign", "schema_version": 1, ' + (
        b'"notes": ' + b"[" * 500 + b"]" * 500 + b"}"
    )
    files["newer schema"] = _edit(good, _set(("schema_version",), SCHEMA_VERSION + 1))
    files["schema_version as text"] = _edit(good, _set(("schema_version",), "1"))
    files["no schema_version"] = _edit(good, lambda d: d.pop("schema_version"))
    files["other format"] = _edit(good, _set(("format",), "spreadsheet"))
    files["negative characteristic"] = _edit(
        good, _set(("characters", 3, "characteristics", "str"), -1)
    )
    files["characteristic as text"] = _edit(
        good, _set(("characters", 0, "characteristics", "dex"), "seven")
    )
    files["negative rate of attack"] = _edit(
        good, _set(("characters", 0, "weapons", 0, "rate_of_attack"), -1)
    )
    files["bad dice"] = _edit(good, _set(("characters", 0, "weapons", 0, "damage"), "3x6"))
    files["characters is an object"] = _edit(good, _set(("characters",), {"a": 1}))
    files["unknown field"] = _edit(good, _set(("characters", 1, "favourite_colour"), "red"))
    files["missing name"] = _edit(good, lambda d: d["characters"][2].pop("name"))
    files["unknown enum value"] = _edit(good, _set(("characters", 0, "load"), "crushing"))
    files["duplicate character ids"] = _edit(
        good, lambda d: d["characters"][1].__setitem__("id", d["characters"][0]["id"])
    )
    files["dangling combatant reference"] = _edit(
        good, _set(("encounters", 0, "combatants", 0, "character_id"), "nobody")
    )
    files["combatant with no character"] = _edit(
        good, lambda d: d["encounters"][0]["combatants"][0].pop("character_id")
    )
    files["float where an int belongs"] = _edit(good, _set(("characters", 0, "damage"), 2.5))
    files["zero hit points"] = _edit(
        good,
        lambda d: d["characters"][0]["characteristics"].update({"str": 0, "dex": 0, "end": 0}),
    )
    files["a character export"] = character_to_json(
        Character(name="Solo", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))
    )
    files["a CE CharacterGen file"] = (CE_SAMPLES / "ce_char_1.json").read_bytes()
    return files


def _digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


@pytest.fixture(scope="module")
def good_bytes() -> bytes:
    from mneme_desktop.storage import build_sample_campaign

    return campaign_to_json(build_sample_campaign())


def test_corpus_is_rejected_with_a_load_error_and_left_untouched(
    tmp_path: Path, good_bytes: bytes
) -> None:
    for index, (name, data) in enumerate(corpus(good_bytes).items()):
        path = tmp_path / f"bad-{index}.mneme"
        path.write_bytes(data)
        before = _digest(path)
        with pytest.raises(CampaignLoadError) as caught:
            load_campaign(path)
        message = str(caught.value)
        assert message.startswith(f"'{path.name}'"), (name, message)
        assert "Traceback" not in message and len(message) < 2000, (name, message)
        assert _digest(path) == before, name
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            f"bad-{i}.mneme" for i in range(index + 1)
        ), f"{name}: a failed load created or removed files"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("truncated at 50%", r"not valid JSON: .* at line \d+, column \d+"),
        ("truncated at 0%", r"the file is empty"),
        ("only whitespace", r"the file is empty"),
        ("binary noise", r"not UTF-8 text|not valid JSON"),
        ("bad UTF-8", r"not UTF-8 text \(bad byte at line \d+\)"),
        ("NaN", r"NaN is not allowed"),
        ("Infinity", r"Infinity is not allowed"),
        ("deep nesting", r"nested too deeply"),
        ("a JSON list", r"holds a list, not a Mneme campaign"),
        ("an empty object", r"not a Mneme campaign"),
        ("newer schema", r"newer version of Mneme Desktop .*schema 3.*reads schemas up to 2"),
        ("schema_version as text", r'schema_version must be a whole number, but it is "1"'),
        ("other format", r'its format is "spreadsheet"'),
        ("negative characteristic",
         r"characters\[3\]\.characteristics\.str: must be at least 0 \(found -1\) \(line \d+\)"),
        ("characteristic as text",
         r'characters\[0\]\.characteristics\.dex: must be a whole number \(found "seven"\)'),
        ("negative rate of attack",
         r"characters\[0\]\.weapons\[0\]\.rate_of_attack: must be at least 1"),
        ("bad dice", r"characters\[0\]\.weapons\[0\]\.damage: not a dice expression: .*3x6"),
        ("unknown field", r"characters\[1\]\.favourite_colour: is not a field this version"),
        ("missing name", r"characters\[2\]\.name: is missing \(line \d+\)"),
        ("unknown enum value", r"characters\[0\]\.load: must be one of 'light', 'medium'"),
        ("duplicate character ids",
         r"characters\[1\]\.id: duplicate id .* \(also characters\[0\]\)"),
        ("dangling combatant reference",
         r"encounters\[0\]\.combatants\[0\]\.character_id: no character with id 'nobody'"),
        ("combatant with no character", r"exactly one of character_id"),
        ("float where an int belongs", r"characters\[0\]\.damage: must be a whole number"),
        ("zero hit points", r"STR \+ DEX \+ END must be at least 1"),
        ("a character export", r"single character exported from Mneme Desktop; use Import"),
        ("a CE CharacterGen file", r"CE CharacterGen; use Import Character"),
    ],
)
def test_messages_say_what_and_where(
    tmp_path: Path, good_bytes: bytes, name: str, expected: str
) -> None:
    path = tmp_path / "bad.mneme"
    path.write_bytes(corpus(good_bytes)[name])
    with pytest.raises(CampaignLoadError) as caught:
        load_campaign(path)
    assert re.search(expected, str(caught.value), re.DOTALL), str(caught.value)


def test_reported_line_is_the_line_of_the_bad_value(tmp_path: Path, good_bytes: bytes) -> None:
    data = corpus(good_bytes)["negative characteristic"]
    path = tmp_path / "bad.mneme"
    path.write_bytes(data)
    with pytest.raises(CampaignLoadError) as caught:
        load_campaign(path)
    lines = data.decode("utf-8").splitlines()
    assert caught.value.line is not None
    assert lines[caught.value.line - 1].strip() == '"str": -1,'
    assert caught.value.problems and "characters[3].characteristics.str" in (
        caught.value.problems[0]
    )


def test_truncation_reports_the_line(tmp_path: Path, good_bytes: bytes) -> None:
    data = good_bytes[: len(good_bytes) // 2]
    path = tmp_path / "bad.mneme"
    path.write_bytes(data)
    with pytest.raises(CampaignLoadError) as caught:
        load_campaign(path)
    assert caught.value.line == data.count(b"\n") + 1 or caught.value.line == data.count(b"\n")


def test_newer_schema_is_its_own_error(tmp_path: Path, good_bytes: bytes) -> None:
    path = tmp_path / "future.mneme"
    path.write_bytes(corpus(good_bytes)["newer schema"])
    before = _digest(path)
    with pytest.raises(NewerSchemaError) as caught:
        load_campaign(path)
    assert caught.value.file_version == SCHEMA_VERSION + 1
    assert caught.value.supported == SCHEMA_VERSION
    assert "has not been changed" in str(caught.value)
    assert _digest(path) == before


def test_many_problems_are_summarised(good_bytes: bytes) -> None:
    document = json.loads(good_bytes)
    for character in document["characters"]:
        character["damage"] = -1
        character["characteristics"]["edu"] = -1
    with pytest.raises(CampaignLoadError) as caught:
        campaign_from_json(json.dumps(document, indent=2).encode())
    message = str(caught.value)
    assert "(12 problems)" in message
    assert "... and 7 more problems" in message
    assert len(caught.value.problems) == 12


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(CampaignLoadError, match="there is no such file"):
        load_campaign(tmp_path / "nope.mneme")
    folder = tmp_path / "folder.mneme"
    folder.mkdir()
    with pytest.raises(CampaignLoadError, match="is a folder"):
        load_campaign(folder)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saved: Path) -> None:
    real_open = os.open

    def refuse(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(saved):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(CampaignLoadError, match="permission to read"):
        load_campaign(saved)


def test_huge_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.mneme"
    with open(path, "wb") as handle:  # sparse: no disk space used
        handle.truncate(MAX_CAMPAIGN_BYTES + 1)
    with pytest.raises(CampaignLoadError, match=r"larger than the 256 MiB"):
        load_campaign(path)
    assert path.stat().st_size == MAX_CAMPAIGN_BYTES + 1


def test_ten_thousand_characters_load(tmp_path: Path) -> None:
    base = Character(
        name="Trooper",
        characteristics=Characteristics.of(7, 8, 7, 6, 7, 5),
        skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=1)],
    )
    template = base.model_dump()
    people = []
    for number in range(10_000):
        template["id"] = f"trooper-{number}"
        template["name"] = f"Trooper {number}"
        people.append(template.copy())
    campaign = Campaign.model_validate({"name": "Army", "characters": people})
    path = tmp_path / "army.mneme"
    save_campaign(campaign, path)
    loaded = load_campaign(path)
    assert len(loaded.characters) == 10_000
    assert loaded.characters[9_999].name == "Trooper 9999"
    assert loaded == campaign


def test_bom_is_accepted(tmp_path: Path, good_bytes: bytes) -> None:
    path = tmp_path / "bom.mneme"
    path.write_bytes(b"\xef\xbb\xbf" + good_bytes)
    assert load_campaign(path).name == "The Ashfall Marches"


def test_load_never_writes(
    tmp_path: Path, good_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed load must not even try to open anything for writing."""
    path = tmp_path / "bad.mneme"
    path.write_bytes(good_bytes[:1000])
    real_open = os.open

    def no_writes(file: object, flags: int, *args: object) -> int:
        assert not flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT), f"opened {file} for writing"
        return real_open(file, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", no_writes)
    with pytest.raises(CampaignLoadError):
        load_campaign(path)


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("characters", 2, "recovery", "progress"), "1/0", "must be a fraction like 1/3"),
        (("characters", 0, "damage"), "HUGE", "thousands of digits"),
        (("game_time", "day"), 10**12, r"game_time\.day: must be at most 10000000"),
        (("encounters", 1, "log", 0, "dice"), [10**30], r"dice\[0\]: must be at most"),
        (("characters", 0, "portrait"), {"media_type": "image/png", "data": "%%"},
         "not valid base64"),
        (("characters", 0, "name"), "x" * 100_000, "at most 200 characters"),
    ],
)
def test_absurd_values_are_load_errors(good_bytes: bytes, path: tuple, value: object,
                                       expected: str) -> None:
    document = json.loads(good_bytes)
    _set(path, 0 if value == "HUGE" else value)(document)
    data = json.dumps(document).encode()
    if value == "HUGE":
        data = data.replace(b'"damage": 0', b'"damage": ' + b"9" * 5000, 1)
    with pytest.raises(CampaignLoadError, match=expected):
        campaign_from_json(data)


def test_unexpected_errors_still_become_load_errors(
    good_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever goes wrong inside, the caller only ever sees a CampaignLoadError."""
    from mneme_desktop.storage import codec

    def explode(*args: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(codec, "_slow_path", explode)
    with pytest.raises(CampaignLoadError, match=r"could not be read .*KeyError"):
        campaign_from_json(good_bytes[:-5])
