"""A save reads the written file back before it replaces anything, and a load leaves the
garbage collector as it was with the campaign's objects frozen (later collections skip
them)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from mneme_desktop import atomicfile
from mneme_desktop.domain import Campaign
from mneme_desktop.storage import (
    CampaignSaveError,
    backup_paths,
    campaign_from_json,
    campaign_to_json,
    file_hash,
    load_campaign,
    load_campaign_file,
    save_campaign,
)


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("damage", ["drop the last bytes", "flip a byte"])
def test_a_short_or_corrupted_write_is_caught_and_replaces_nothing(
    saved: Path, sample: Campaign, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    before = saved.read_bytes()
    backups_before = [p.read_bytes() for p in backup_paths(saved)]
    real_write_all = atomicfile._write_all

    def faulty(fd: int, data: bytes) -> None:
        if damage == "drop the last bytes":
            real_write_all(fd, data[:-10])
        else:
            middle = len(data) // 2
            real_write_all(fd, data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:])

    monkeypatch.setattr(atomicfile, "_write_all", faulty)
    sample.notes = "never reaches the disk intact"
    with pytest.raises(CampaignSaveError) as caught:
        save_campaign(sample, saved)
    monkeypatch.undo()
    message = str(caught.value)
    assert "read back" in message or "bytes instead of" in message
    assert "previous version of the file is unchanged" in message
    assert saved.read_bytes() == before
    assert [p.read_bytes() for p in backup_paths(saved)] == backups_before
    assert not _leftovers(saved.parent)


def test_a_clean_save_is_read_back_and_returns_the_hash_of_the_file(
    tmp_path: Path, sample: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[int] = []
    real_check = atomicfile._check_read_back

    def spy(fd: int, data: bytes) -> None:
        checked.append(len(data))
        real_check(fd, data)

    monkeypatch.setattr(atomicfile, "_check_read_back", spy)
    path = tmp_path / "c.mneme"
    digest = save_campaign(sample, path)
    assert checked == [len(campaign_to_json(sample))]
    assert path.read_bytes() == campaign_to_json(sample)
    assert digest == file_hash(path)


def test_large_data_is_hashed_beside_the_work(tmp_path: Path, sample: Campaign) -> None:
    """Over a MiB the hash is taken in a thread: it must still be the file's hash."""
    sample.notes = "x" * (2 * 1024 * 1024)
    path = tmp_path / "big.mneme"
    digest = save_campaign(sample, path)
    assert digest == file_hash(path)
    assert load_campaign_file(path).content_hash == digest


@pytest.fixture
def collector() -> Iterator[None]:
    """Start with the collector on and nothing frozen; put things back afterwards."""
    was_enabled = gc.isenabled()
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    if not was_enabled:
        gc.disable()


def _frozen(objects: list[object]) -> bool:
    """Whether none of ``objects`` is in a generation a collection would walk."""
    walked = {id(o) for o in gc.get_objects()}  # the permanent generation is not listed
    return not any(id(o) in walked for o in objects)


@pytest.mark.usefixtures("collector")
def test_a_load_leaves_the_collector_on_and_the_campaign_frozen(saved: Path) -> None:
    frozen_before = gc.get_freeze_count()
    campaign = load_campaign(saved)
    assert gc.isenabled()
    assert gc.get_freeze_count() > frozen_before
    parts: list[object] = [campaign, campaign.characters, *campaign.characters]
    parts += [c.skills for c in campaign.characters] + list(campaign.encounters)
    assert all(gc.is_tracked(p) for p in parts)
    assert _frozen(parts)


@pytest.mark.usefixtures("collector")
def test_a_load_with_the_collector_off_leaves_it_off(sample_bytes: bytes) -> None:
    gc.disable()
    campaign = campaign_from_json(sample_bytes)
    assert not gc.isenabled()
    assert _frozen([campaign, *campaign.characters])


@pytest.mark.usefixtures("collector")
def test_a_refused_file_freezes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.mneme"
    path.write_bytes(b'{"format": "mneme-campaign", "schema_version": "x"}')
    frozen_before = gc.get_freeze_count()
    with pytest.raises(Exception, match="cannot be opened"):
        load_campaign(path)
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen_before


@pytest.mark.usefixtures("collector")
def test_a_frozen_campaign_is_still_freed_when_dropped(sample_bytes: bytes) -> None:
    import weakref

    campaign = campaign_from_json(sample_bytes)
    ref = weakref.ref(campaign.characters[0])
    del campaign
    assert ref() is None  # released by reference counting, frozen or not
