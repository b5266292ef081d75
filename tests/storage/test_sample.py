"""The shipped sample campaign: reproducible, and a real campaign to play."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign, CharacterKind
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.storage import (
    build_sample_campaign,
    campaign_to_json,
    install_sample_campaign,
    load_campaign,
    sample_campaign_path,
)
from tests.storage.conftest import REPO

SHIPPED = REPO / "resources" / "sample_campaign.mneme"
_PACKAGED = importlib.util.find_spec("mneme_desktop.resources") is not None


def _shipped_path() -> Path:
    """The packaged sample once ``pip install -e .`` maps resources/; the repo file before."""
    return sample_campaign_path() if _PACKAGED else SHIPPED


def test_shipped_file_is_a_fresh_build() -> None:
    assert _shipped_path().read_bytes() == campaign_to_json(build_sample_campaign()), (
        "resources/sample_campaign.mneme is stale: regenerate it with "
        "python3 -m mneme_desktop.storage.sample resources/sample_campaign.mneme"
    )


@pytest.mark.skipif(not _PACKAGED, reason="needs `pip install -e .` (resources -> package)")
def test_sample_path_comes_from_the_package() -> None:
    assert sample_campaign_path().resolve() == SHIPPED.resolve()


def test_build_is_deterministic() -> None:
    assert campaign_to_json(build_sample_campaign()) == campaign_to_json(build_sample_campaign())


@pytest.fixture(scope="module")
def campaign() -> Campaign:
    return load_campaign(_shipped_path())


def test_has_four_player_characters_with_table_skills(campaign: Campaign) -> None:
    players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    assert len(players) >= 4
    assert all(c.player for c in players)
    labels = {skill.label for c in campaign.characters for skill in c.skills}
    for wanted in ("Gun Combat (Slug Rifle)", "Melee Combat (Slashing)", "Medic", "Tactics"):
        assert wanted in labels


def test_library_uses_the_chapters_examples(campaign: Campaign) -> None:
    library = campaign.adversary_library
    assert len(library) >= 6
    weapons = {(w.name, w.damage, w.rate_of_attack) for t in library for w in t.stats.weapons}
    assert ("Broadsword", "3d3-2", 3) in weapons
    assert ("Automatic Rifle", "3d6-2", 4) in weapons
    armor = {(a.name, a.rating) for t in library for a in t.stats.armor}
    assert ("Flak Jacket", 4) in armor
    shields = [c for t in library for c in t.stats.cover_items if c.name == "Shield"]
    assert shields and all(s.protection == 2 for s in shields)
    assert any(w.scale is Scale.DEKA for t in library for w in t.stats.weapons)
    assert all(t.stats.kind is CharacterKind.ADVERSARY for t in library)


def test_an_encounter_is_set_up(campaign: Campaign) -> None:
    ready = [e for e in campaign.encounters if not e.started and not e.ended]
    assert ready
    encounter = ready[0]
    assert len(encounter.combatants) >= 6
    assert all(c.initiative is not None for c in encounter.combatants)
    names = [campaign.combatant_character(c).name for c in encounter.combatants]
    assert "Raider 1" in names and "Raider 2" in names and "Raider Chief 1" in names
    order = encounter.initiative_order()
    assert [c.initiative for c in order] == sorted((c.initiative for c in order), reverse=True)


def test_one_character_is_wounded_mid_recovery(campaign: Campaign) -> None:
    basis = campaign.rules_options.threshold_basis
    recovering = [
        c for c in campaign.characters
        if c.damage > 0 and c.recovery is not None and 0 < c.recovery.progress < 1
    ]
    assert len(recovering) == 1
    ilse = recovering[0]
    assert ilse.wound_state(basis) is WoundState.SERIOUSLY_WOUNDED
    assert sum(record.amount for record in ilse.damage_history) > ilse.damage
    caregiver = campaign.character(ilse.recovery.caregiver_id)  # type: ignore[union-attr, arg-type]
    assert caregiver.skill_level("Medic") == 2


def test_install_copies_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _PACKAGED:
        pytest.skip("needs `pip install -e .` (resources -> package)")
    target = tmp_path / "docs" / "Sample.mneme"
    assert install_sample_campaign(target) == target
    assert target.read_bytes() == SHIPPED.read_bytes()
    target.write_bytes(b"the referee's own edits")
    install_sample_campaign(target)
    assert target.read_bytes() == b"the referee's own edits"
