"""Any valid campaign saves and loads equal, and the file form is stable."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from mneme_desktop.domain import SCHEMA_VERSION, Campaign
from mneme_desktop.storage import (
    campaign_from_json,
    campaign_to_json,
    load_campaign,
    load_campaign_file,
    save_campaign,
)
from mneme_desktop.storage.campaign_file import content_hash
from tests.storage.strategies import campaigns

ROUND_TRIP = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@ROUND_TRIP
@given(campaigns())
def test_any_campaign_saves_and_loads_equal(campaign: Campaign) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.mneme"
        written = save_campaign(campaign, path, backups=1)
        loaded = load_campaign_file(path)
        assert loaded.campaign == campaign
        assert loaded.content_hash == written
        # Saving what was loaded gives the same bytes: files only change when data does.
        assert campaign_to_json(loaded.campaign) == path.read_bytes()


@ROUND_TRIP
@given(campaigns())
def test_bytes_round_trip_in_memory(campaign: Campaign) -> None:
    data = campaign_to_json(campaign)
    assert campaign_from_json(data) == campaign
    assert campaign_from_json(data.decode("utf-8")) == campaign


def test_file_is_utf8_json_one_record_per_line_with_schema_first(
    saved: Path, sample: Campaign
) -> None:
    text = saved.read_text(encoding="utf-8")
    document = json.loads(text)
    assert list(document)[:2] == ["format", "schema_version"]
    assert document["format"] == "mneme-campaign"
    assert document["schema_version"] == SCHEMA_VERSION
    assert text.endswith("\n}\n")
    lines = text.split("\n")
    # the campaign's own fields on the first line, compact
    assert lines[0].startswith('{"format":"mneme-campaign","schema_version":')
    assert '"name":"The Ashfall Marches"' in lines[0]
    # each list opens on its line, then one record per line, each a JSON object
    opened = lines.index('"characters":[')
    for index, character in enumerate(document["characters"]):
        line = lines[opened + 1 + index]
        assert json.loads(line.removesuffix(",")) == character
    assert lines[opened + 1 + len(document["characters"])] in ("]", "],")
    # compact: no space after separators outside strings (what a compact dump writes)
    assert text.replace("\n", "") == json.dumps(
        document, separators=(",", ":"), ensure_ascii=False
    )


def test_non_ascii_text_is_written_as_is(tmp_path: Path, sample: Campaign) -> None:
    sample.notes = "Ærø, 東京 and 🎲"
    path = tmp_path / "c.mneme"
    save_campaign(sample, path)
    assert "Ærø, 東京 and 🎲" in path.read_text(encoding="utf-8")
    assert load_campaign(path).notes == "Ærø, 東京 and 🎲"


def test_serialisation_is_deterministic(sample: Campaign) -> None:
    first = campaign_to_json(sample)
    rebuilt = Campaign.model_validate_json(first)
    assert campaign_to_json(rebuilt) == first
    assert content_hash(first) == content_hash(campaign_to_json(sample))


def test_derived_values_are_not_stored(sample_bytes: bytes) -> None:
    """HP, ChM, UPP and wound state come from the rules core and never appear in the file."""
    document = json.loads(sample_bytes)
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            keys.update(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    for derived in ("hit_points", "hp_max", "upp", "wound_state", "wound_penalty", "chm",
                    "thresholds", "modifier_str"):
        assert derived not in keys
