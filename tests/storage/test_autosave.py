"""Autosaves in the user data folder, and whether one is worth recovering."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign
from mneme_desktop.paths import AppPaths
from mneme_desktop.storage import (
    AutosaveStore,
    CampaignLoadError,
    CampaignSaveError,
    atomic,
    campaign_to_json,
    save_campaign,
)


@pytest.fixture
def store(tmp_path: Path) -> AutosaveStore:
    return AutosaveStore(AppPaths.under(tmp_path / "app").autosave_dir)


def _age(path: Path, seconds: float) -> None:
    """Make ``path`` look ``seconds`` older than now."""
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_write_find_load_discard(store: AutosaveStore, saved: Path, sample: Campaign) -> None:
    sample.notes = "unsaved work"
    entry = store.write(sample, source=saved)
    assert entry.data_path.parent == store.directory
    assert entry.source == saved.absolute()
    assert entry.untitled_id is None
    assert entry.campaign_name == "The Ashfall Marches"
    assert "The Ashfall Marches (autosaved " in entry.label
    assert store.find(source=saved) == entry
    assert store.load(entry) == sample
    assert entry.data_path.read_bytes() == campaign_to_json(sample)
    store.discard(entry)
    assert store.find(source=saved) is None
    assert list(store.directory.iterdir()) == []


def test_autosave_never_touches_the_campaign_folder(store: AutosaveStore, tmp_path: Path,
                                                     sample: Campaign) -> None:
    folder = tmp_path / "campaigns"
    folder.mkdir()
    path = folder / "c.mneme"
    save_campaign(sample, path)
    store.write(sample, source=path)
    assert sorted(p.name for p in folder.iterdir()) == ["c.mneme"]


def test_untitled_campaigns(store: AutosaveStore, sample: Campaign) -> None:
    entry = store.write(sample, untitled_id="abc123")
    assert entry.key == "untitled-abc123" and entry.source is None
    assert entry.untitled_id == "abc123"
    assert store.find(untitled_id="abc123") == entry
    assert store.key_for(untitled_id="../../etc/x") == "untitled-______etc_x"
    with pytest.raises(ValueError):
        store.key_for()
    with pytest.raises(ValueError):
        store.key_for(source=Path("a"), untitled_id="b")
    store.discard(untitled_id="abc123")
    assert store.entries() == []


def test_entries_newest_first(store: AutosaveStore, sample: Campaign, tmp_path: Path) -> None:
    older = store.write(sample, source=tmp_path / "a.mneme")
    _age(older.data_path, 100)
    newer = store.write(sample, untitled_id="n1")
    assert [e.key for e in store.entries()] == [newer.key, older.key]


def test_recoverable_only_when_newer_and_different(store: AutosaveStore, saved: Path,
                                                   sample: Campaign) -> None:
    assert store.recoverable(saved) is None  # nothing autosaved
    sample.notes = "typed after the last save"
    entry = store.write(sample, source=saved)
    _age(saved, 60)
    assert store.recoverable(saved) == entry
    # The referee saved after the autosave: nothing to recover.
    save_campaign(sample, saved)
    _age(entry.data_path, 60)
    assert store.recoverable(saved) is None


def test_identical_autosave_is_not_offered(store: AutosaveStore, saved: Path) -> None:
    from mneme_desktop.storage import load_campaign

    store.write(load_campaign(saved), source=saved)
    _age(saved, 60)
    assert store.recoverable(saved) is None


def test_autosave_of_a_missing_file_is_offered(store: AutosaveStore, saved: Path,
                                               sample: Campaign) -> None:
    entry = store.write(sample, source=saved)
    saved.unlink()
    assert store.recoverable(saved) == entry


def test_damaged_autosave_is_a_load_error(store: AutosaveStore, sample: Campaign) -> None:
    entry = store.write(sample, untitled_id="x")
    entry.data_path.write_bytes(b"{ half")
    with pytest.raises(CampaignLoadError):
        store.load(entry)


def test_missing_metadata_still_lists_the_autosave(store: AutosaveStore,
                                                   sample: Campaign) -> None:
    entry = store.write(sample, untitled_id="x")
    (store.directory / f"{entry.key}.json").write_text("not json")
    listed = store.entries()
    assert [e.key for e in listed] == [entry.key]
    assert listed[0].campaign_name == "Unknown campaign"


def test_disk_full_during_autosave(store: AutosaveStore, sample: Campaign,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "write", full)
    with pytest.raises(CampaignSaveError, match="disk is full"):
        store.write(sample, untitled_id="x")
    monkeypatch.undo()
    assert [p for p in store.directory.iterdir()] == []


# --- issue 15: decide by content, not by clock --------------------------------------------


def _touch_later(path: Path, seconds: float = 3600) -> None:
    """A sync client, a NAS with its clock ahead, a git checkout: the file looks newer."""
    when = time.time() + seconds
    os.utime(path, (when, when))


def test_a_crash_autosave_survives_the_file_being_touched_afterwards(
    store: AutosaveStore, saved: Path, sample: Campaign
) -> None:
    from mneme_desktop.storage import file_hash

    opened_hash = file_hash(saved)
    sample.notes = "typed after the last save"
    entry = store.write(sample, source=saved, base_hash=opened_hash)
    _touch_later(saved)
    assert store.recoverable(saved) == entry
    summary = store.recovery_summary(entry, saved)
    assert "Unsaved changes in the autosave: campaign details changed (notes)" in summary
    assert "also changed" not in summary


def test_a_file_changed_by_another_program_after_the_crash_is_summarised(
    store: AutosaveStore, saved: Path, sample: Campaign
) -> None:
    from mneme_desktop.domain import Character, Characteristics
    from mneme_desktop.storage import file_hash, load_campaign

    opened_hash = file_hash(saved)
    mine = sample.model_copy(deep=True)
    mine.add_character(Character(name="Ana Unsaved",
                                 characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    entry = store.write(mine, source=saved, base_hash=opened_hash)
    theirs = load_campaign(saved)
    theirs.characters[0].name = "Renamed Elsewhere"
    save_campaign(theirs, saved, backups=0)  # the other program does not make our backups
    _touch_later(saved)
    assert store.recoverable(saved) == entry
    summary = store.recovery_summary(entry, saved)
    assert "1 character added (Ana Unsaved)" in summary
    assert "1 character changed (Renamed Elsewhere)" in summary
    assert "also changed since it was opened" in summary


def test_an_old_autosave_without_a_base_is_still_offered_and_compared(
    store: AutosaveStore, saved: Path, sample: Campaign
) -> None:
    sample.name = "Renamed in the autosave"
    entry = store.write(sample, source=saved)
    _touch_later(saved)
    assert store.recoverable(saved) == entry
    assert "Compared with the file" in store.recovery_summary(entry, saved)
    store.discard(entry)
    assert list(store.directory.iterdir()) == []
