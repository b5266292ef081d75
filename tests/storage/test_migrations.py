"""Schema migrations: the registry, an injected step, and the fixture of every past schema."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from mneme_desktop.domain import SCHEMA_VERSION, ConditionKind, GameTime
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.storage import (
    MIGRATIONS,
    CampaignLoadError,
    MigrationError,
    MigrationRegistry,
    campaign_to_json,
    load_campaign,
    load_campaign_file,
)
from mneme_desktop.storage.migrations import MigrationStepError
from tests.storage.conftest import FIXTURES


def _rename(old: str, new: str, version_tag: str) -> Any:
    def step(data: dict[str, Any]) -> dict[str, Any]:
        data[new] = data.pop(old)
        data.setdefault("notes", "")
        data["notes"] += version_tag
        return data

    return step


def test_steps_run_in_order_and_set_the_version() -> None:
    registry = MigrationRegistry()
    registry.add(0, _rename("a", "b", "[0->1]"))
    registry.add(1, _rename("b", "c", "[1->2]"))
    registry.add(2, _rename("c", "d", "[2->3]"))
    result = registry.migrate({"a": 5, "schema_version": 0}, 0, 3)
    assert result == {"d": 5, "schema_version": 3, "notes": "[0->1][1->2][2->3]"}
    assert registry.versions == (0, 1, 2)
    assert registry.can_migrate(1, 3) and not registry.can_migrate(0, 4)
    assert registry.migrate({"x": 1}, 3, 3) == {"x": 1}


def test_registry_refuses_gaps_duplicates_and_bad_steps() -> None:
    registry = MigrationRegistry()

    @registry.register(0)
    def first(data: dict[str, Any]) -> dict[str, Any]:
        return data

    with pytest.raises(ValueError, match="already registered"):
        registry.add(0, first)
    with pytest.raises(ValueError, match="start at 0"):
        registry.add(-1, first)
    with pytest.raises(MigrationStepError, match="no upgrade from schema 1 to 2"):
        registry.migrate({}, 0, 2)
    with pytest.raises(MigrationStepError, match="cannot migrate down"):
        registry.migrate({}, 2, 1)
    registry.add(1, lambda data: [data])  # type: ignore[arg-type, return-value]
    with pytest.raises(MigrationStepError, match="returned list, not a campaign"):
        registry.migrate({}, 0, 2)
    registry.remove(1)
    registry.add(1, lambda data: data["missing"])
    with pytest.raises(MigrationStepError, match="from schema 1 to 2 failed: 'missing'"):
        registry.migrate({}, 0, 2)


def _v0_file(tmp_path: Path) -> Path:
    """A made-up schema 0 where characters were called "people" and had "title" for name."""
    document = json.loads((FIXTURES / f"schema_v{SCHEMA_VERSION}.mneme").read_bytes())
    document["schema_version"] = 0
    document["people"] = document.pop("characters")
    for person in document["people"]:
        person["title"] = person.pop("name")
    path = tmp_path / "old.mneme"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def _v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    data["characters"] = data.pop("people")
    for person in data["characters"]:
        person["name"] = person.pop("title")
    return data


def test_injected_step_upgrades_an_old_file_on_load(tmp_path: Path) -> None:
    path = _v0_file(tmp_path)
    before = path.read_bytes()
    with MIGRATIONS.temporarily(0, _v0_to_v1):
        loaded = load_campaign_file(path)
    assert loaded.campaign.schema_version == SCHEMA_VERSION
    assert loaded.campaign == load_campaign(FIXTURES / f"schema_v{SCHEMA_VERSION}.mneme")
    assert path.read_bytes() == before, "migrating must not rewrite the file on load"
    assert loaded.content_hash == hashlib.sha256(before).hexdigest()
    assert 0 not in MIGRATIONS.versions


def test_old_file_without_a_step_is_refused_untouched(tmp_path: Path) -> None:
    path = _v0_file(tmp_path)
    before = path.read_bytes()
    with pytest.raises(MigrationError) as caught:
        load_campaign(path)
    message = str(caught.value)
    assert f"uses campaign schema 0 and cannot be upgraded to schema {SCHEMA_VERSION}" in message
    assert "no upgrade from schema 0 to 1" in message
    assert path.read_bytes() == before


def test_failing_step_is_a_load_error(tmp_path: Path) -> None:
    path = _v0_file(tmp_path)

    def broken(data: dict[str, Any]) -> dict[str, Any]:
        raise KeyError("people")

    with MIGRATIONS.temporarily(0, broken), pytest.raises(MigrationError, match="failed"):
        load_campaign(path)


def test_step_that_leaves_invalid_data_is_reported(tmp_path: Path) -> None:
    path = _v0_file(tmp_path)
    with MIGRATIONS.temporarily(0, lambda data: data), pytest.raises(CampaignLoadError) as caught:
        load_campaign(path)
    assert "after upgrading it from schema 0" in str(caught.value)
    assert "people: is not a field" in str(caught.value)


def test_every_past_schema_has_a_fixture_that_opens() -> None:
    for version in range(1, SCHEMA_VERSION + 1):
        path = FIXTURES / f"schema_v{version}.mneme"
        assert path.exists(), f"schema {version} needs a fixture file: {path.name}"
        assert json.loads(path.read_bytes())["schema_version"] == version
        assert MIGRATIONS.can_migrate(version), f"no migration path from schema {version}"
        campaign = load_campaign(path)
        assert campaign.schema_version == SCHEMA_VERSION


def test_schema_v1_fixture_keeps_its_content() -> None:
    """The v1 fixture exercises every part of the schema; these values must survive."""
    campaign = load_campaign(FIXTURES / "schema_v1.mneme")
    assert campaign.name == "Schema 1 fixture"
    assert campaign.game_time == GameTime.at(12, 14, 30)
    assert campaign.rules_options.threshold_basis is ThresholdBasis.CHARACTERISTIC
    psyker = campaign.character("fixture-psyker")
    assert psyker.upp == "465C96B"
    assert psyker.characteristic("int") == 10 and psyker.characteristic("psi") == 8
    assert psyker.portrait is not None and psyker.portrait.image_bytes.startswith(b"\x89PNG")
    assert str(psyker.weapons[0].thrown) == "0.5"
    assert psyker.recovery is not None and psyker.recovery.progress.denominator == 3
    assert [c.kind for c in psyker.conditions] == [
        ConditionKind.DYING, ConditionKind.STABILISED, ConditionKind.UNCONSCIOUS
    ]
    assert "東京" in psyker.notes
    ford = campaign.encounters[0]
    assert ford.round == 2 and ford.combatants[0].extended_task is not None
    assert ford.combatants[-1].character_id == "fixture-psyker"
    assert ford.combatants[2].aim_target_id == ford.combatants[7].id
    assert len(campaign.adversary_library) == 6


def test_current_fixture_is_what_this_version_writes() -> None:
    """Loading and re-saving the newest fixture changes nothing: the schema did not drift
    without a version bump (if this fails, bump SCHEMA_VERSION and add a migration)."""
    path = FIXTURES / f"schema_v{SCHEMA_VERSION}.mneme"
    assert campaign_to_json(load_campaign(path)) == path.read_bytes()
