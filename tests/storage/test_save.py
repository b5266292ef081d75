"""Saving: atomic replace, rotating backups, change detection, and clear failures that leave
the old file intact and no temp file behind."""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign, Combatant
from mneme_desktop.storage import (
    CampaignSaveError,
    FileChangedError,
    atomic,
    backup_path,
    backup_paths,
    campaign_to_json,
    file_hash,
    load_campaign,
    load_campaign_file,
    save_campaign,
)


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_save_creates_the_file_without_leftovers(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / "c.mneme"
    digest = save_campaign(sample, path)
    assert _names(tmp_path) == ["c.mneme"]
    assert path.read_bytes() == campaign_to_json(sample)
    assert digest == file_hash(path)


def test_backups_rotate_and_keep_the_configured_count(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / "c.mneme"
    versions = []
    for number in range(8):
        sample.notes = f"version {number}"
        save_campaign(sample, path, backups=5)
        versions.append(path.read_bytes())
    assert [p.name for p in backup_paths(path)] == [f"c.mneme.bak{n}" for n in range(1, 6)]
    # Backup 1 is the version before the current one, backup 5 the oldest kept.
    for number in range(1, 6):
        assert backup_path(path, number).read_bytes() == versions[-1 - number]
        assert load_campaign(backup_path(path, number)).notes == f"version {7 - number}"


def test_fewer_backups_prunes_the_rest(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / "c.mneme"
    for _ in range(6):
        save_campaign(sample, path, backups=5)
    save_campaign(sample, path, backups=2)
    assert [p.name for p in backup_paths(path)] == ["c.mneme.bak1", "c.mneme.bak2"]
    save_campaign(sample, path, backups=0)
    assert backup_paths(path) == []
    with pytest.raises(ValueError, match="negative"):
        save_campaign(sample, path, backups=-1)


def test_backups_fall_back_to_copies_without_hard_links(
    tmp_path: Path, sample: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.mneme"
    save_campaign(sample, path)
    first = path.read_bytes()

    def no_links(*args: object) -> None:
        raise OSError(errno.EPERM, "links not supported")

    monkeypatch.setattr(os, "link", no_links)
    sample.notes = "second"
    save_campaign(sample, path)
    assert backup_path(path, 1).read_bytes() == first
    assert not [n for n in _names(tmp_path) if n.endswith(".tmp")]


def test_file_permissions_are_kept(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / "c.mneme"
    save_campaign(sample, path)
    os.chmod(path, 0o640)
    save_campaign(sample, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_changed_on_disk_is_refused(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / "c.mneme"
    save_campaign(sample, path)
    loaded = load_campaign_file(path)
    # Someone else saves a different version (a sync client, another window).
    other = loaded.campaign.model_copy(deep=True)
    other.notes = "changed elsewhere"
    save_campaign(other, path)
    theirs = path.read_bytes()
    loaded.campaign.notes = "changed here"
    with pytest.raises(FileChangedError) as caught:
        save_campaign(loaded.campaign, path, expected_hash=loaded.content_hash)
    assert "changed by another program" in str(caught.value)
    assert caught.value.expected == loaded.content_hash
    assert caught.value.actual == file_hash(path)
    assert path.read_bytes() == theirs
    # Saving without the check (the referee chose to overwrite) works.
    new_hash = save_campaign(loaded.campaign, path)
    assert load_campaign(path).notes == "changed here"
    # The returned hash is what the next save must expect.
    save_campaign(loaded.campaign, path, expected_hash=new_hash)


def test_unchanged_file_saves_with_its_hash(tmp_path: Path, saved: Path) -> None:
    loaded = load_campaign_file(saved)
    loaded.campaign.notes = "more"
    save_campaign(loaded.campaign, saved, expected_hash=loaded.content_hash)
    assert load_campaign(saved).notes == "more"


def test_deleted_file_is_not_a_change(tmp_path: Path, saved: Path) -> None:
    loaded = load_campaign_file(saved)
    saved.unlink()
    save_campaign(loaded.campaign, saved, expected_hash=loaded.content_hash)
    assert load_campaign(saved) == loaded.campaign


def test_a_campaign_that_would_not_reopen_is_not_saved(tmp_path: Path, saved: Path) -> None:
    campaign = load_campaign(saved)
    before = saved.read_bytes()
    # Appending to a list skips validation: a combatant pointing at nobody.
    campaign.encounters[0].combatants.append(Combatant(character_id="ghost"))
    with pytest.raises(CampaignSaveError) as caught:
        save_campaign(campaign, saved)
    message = str(caught.value)
    assert "would stop it from opening again" in message
    assert "encounters[0].combatants[8].character_id: no character with id 'ghost'" in message
    assert saved.read_bytes() == before
    assert _names(saved.parent) == [saved.name]


def test_missing_folder(tmp_path: Path, sample: Campaign) -> None:
    with pytest.raises(CampaignSaveError, match="does not exist"):
        save_campaign(sample, tmp_path / "gone" / "c.mneme")


def _assert_intact(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert load_campaign(path) is not None
    assert not [n for n in _names(path.parent) if n.endswith(".tmp")], _names(path.parent)


def test_disk_full_mid_write(tmp_path: Path, saved: Path, sample: Campaign,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()
    backups_before = [p.read_bytes() for p in backup_paths(saved)]
    real_write = os.write
    calls = {"n": 0}

    def fill_up(fd: int, data: bytes | memoryview) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, bytes(data[:100]))  # a partial write, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "write", fill_up)
    sample.notes = "will not fit"
    with pytest.raises(CampaignSaveError) as caught:
        save_campaign(sample, saved)
    monkeypatch.undo()
    assert calls["n"] == 2
    message = str(caught.value)
    assert "disk is full" in message and "previous version of the file is unchanged" in message
    assert f"'{saved.name}'" in message
    _assert_intact(saved, before)
    assert [p.read_bytes() for p in backup_paths(saved)] == backups_before


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (errno.EACCES, "permission denied"),
        (errno.EROFS, "the drive is read-only"),
        (errno.EPERM, "not permitted"),
        (errno.EIO, "Input/output error"),
    ],
)
def test_folder_not_writable(tmp_path: Path, saved: Path, sample: Campaign,
                             monkeypatch: pytest.MonkeyPatch, error: int, expected: str) -> None:
    """Tests run as root, where chmod does not stop writes: the refusal is simulated."""
    before = saved.read_bytes()
    real_open = os.open

    def refuse(file: object, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT and Path(str(file)).parent == saved.parent:
            raise OSError(error, os.strerror(error), str(file))
        return real_open(file, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "open", refuse)
    sample.notes = "nowhere to go"
    with pytest.raises(CampaignSaveError, match=expected):
        save_campaign(sample, saved)
    monkeypatch.undo()
    _assert_intact(saved, before)


def test_rename_refused(tmp_path: Path, saved: Path, sample: Campaign,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    """E.g. Windows refusing to replace a file another program holds open."""
    before = saved.read_bytes()
    real_replace = os.replace

    def refuse(source: object, target: object) -> None:
        if Path(str(target)) == saved:
            raise PermissionError(errno.EACCES, "Permission denied")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(CampaignSaveError, match="another program is holding the file"):
        save_campaign(sample, saved)
    monkeypatch.undo()
    _assert_intact(saved, before)


def test_fsync_failure_is_a_save_error(tmp_path: Path, saved: Path, sample: Campaign,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    before = saved.read_bytes()

    def broken(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(atomic.os, "fsync", broken)
    with pytest.raises(CampaignSaveError, match="Input/output error"):
        save_campaign(sample, saved)
    monkeypatch.undo()
    _assert_intact(saved, before)


def test_stale_temp_files_of_dead_processes_are_swept(tmp_path: Path, saved: Path,
                                                      sample: Campaign) -> None:
    dead = _dead_pid()
    stale = tmp_path / f".{saved.name}.{dead}-abcd1234.tmp"
    stale.write_bytes(b"half a campaign")
    fresh = tmp_path / f".{saved.name}.{dead}-ffff0000.tmp"
    fresh.write_bytes(b"maybe another machine, still saving")
    mine = tmp_path / f".{saved.name}.{os.getpid()}-00000000.tmp"
    mine.write_bytes(b"this process")
    old = time.time() - atomic.STALE_TEMP_SECONDS - 5
    os.utime(stale, (old, old))
    os.utime(mine, (old, old))
    save_campaign(sample, saved)
    assert not stale.exists()
    # Under the folder lock a temp no writer holds is garbage, however young (issue 15).
    assert not fresh.exists()
    assert mine.exists()


def test_a_temp_file_held_by_a_live_writer_is_kept(tmp_path: Path, saved: Path,
                                                  sample: Campaign) -> None:
    import fcntl

    held = tmp_path / f".{saved.name}.{_dead_pid()}-abcdef01.tmp"
    held.write_bytes(b"being written")
    with open(held, "rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # as a writer in another process does
        save_campaign(sample, saved)
        load_campaign_file(saved)
        assert held.exists()
    load_campaign_file(saved)
    assert not held.exists()


def test_temps_of_killed_saves_are_cleaned_when_the_file_is_opened(
    tmp_path: Path, saved: Path
) -> None:
    stale = tmp_path / f".{saved.name}.{_dead_pid()}-abcd1234.tmp"
    stale.write_bytes(b"half a campaign")
    other = tmp_path / f".other.mneme.{_dead_pid()}-abcd1234.tmp"
    other.write_bytes(b"another file's")
    unrelated = tmp_path / ".notes.txt"
    unrelated.write_bytes(b"not ours")
    load_campaign_file(saved)
    assert not stale.exists()
    assert other.exists() and unrelated.exists()


def _dead_pid() -> int:
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


# --- issue 15: never lose a campaign ----------------------------------------------------------


def test_a_symlinked_campaign_stays_one_file(tmp_path: Path, sample: Campaign) -> None:
    real_folder = tmp_path / "sync"
    real_folder.mkdir()
    target = real_folder / "real.mneme"
    save_campaign(sample, target)
    first = target.read_bytes()
    link = tmp_path / "link.mneme"
    link.symlink_to(target)
    loaded = load_campaign_file(link)
    sample.notes = "edited through the link"
    save_campaign(sample, link, expected_hash=loaded.content_hash)
    assert link.is_symlink(), "the link was replaced by a regular file"
    assert target.read_bytes() == campaign_to_json(sample)
    backup = backup_path(target, 1)
    assert backup.read_bytes() == first
    assert not backup.is_symlink()
    assert not backup_path(link, 1).exists(), "backups belong beside the real file"
    assert not [n for n in _names(tmp_path) + _names(real_folder) if n.endswith(".tmp")]


def test_a_chain_of_links_is_followed(tmp_path: Path, sample: Campaign) -> None:
    target = tmp_path / "real.mneme"
    save_campaign(sample, target)
    (tmp_path / "a.mneme").symlink_to(target)
    (tmp_path / "b.mneme").symlink_to(tmp_path / "a.mneme")
    sample.notes = "via two links"
    save_campaign(sample, tmp_path / "b.mneme")
    assert (tmp_path / "a.mneme").is_symlink() and (tmp_path / "b.mneme").is_symlink()
    assert load_campaign(target).notes == "via two links"


def test_no_backup_possible_means_no_save(
    tmp_path: Path, sample: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FAT/exFAT stick, nearly full: no hard links and the copy fails. The previous version
    must not end up in no file at all."""
    import shutil

    path = tmp_path / "c.mneme"
    save_campaign(sample, path)
    before = path.read_bytes()

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "links not supported")

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "link", no_links)
    monkeypatch.setattr(shutil, "copy2", disk_full)
    sample.notes = "second"
    with pytest.raises(CampaignSaveError, match="backup") as caught:
        save_campaign(sample, path)
    assert "disk is full" in str(caught.value)
    assert path.read_bytes() == before
    assert not [n for n in _names(tmp_path) if n.endswith(".tmp")]


def test_without_backups_no_copy_is_needed(
    tmp_path: Path, sample: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    path = tmp_path / "c.mneme"
    save_campaign(sample, path)

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "link", fail)
    monkeypatch.setattr(shutil, "copy2", fail)
    sample.notes = "second"
    save_campaign(sample, path, backups=0)
    assert load_campaign(path).notes == "second"


def test_a_250_character_name_can_be_saved(tmp_path: Path, sample: Campaign) -> None:
    path = tmp_path / ("c" * 244 + ".mneme")
    assert len(path.name) == 250
    save_campaign(sample, path)
    sample.notes = "again"
    save_campaign(sample, path)
    assert load_campaign(path).notes == "again"
    assert backup_path(path, 1).exists()


def test_a_read_only_campaign_is_not_silently_replaced(tmp_path: Path, saved: Path,
                                                       sample: Campaign) -> None:
    from mneme_desktop.storage import ReadOnlyFileError

    before = saved.read_bytes()
    saved.chmod(0o444)
    sample.notes = "changed"
    with pytest.raises(ReadOnlyFileError, match="read-only"):
        save_campaign(sample, saved)
    assert saved.read_bytes() == before
    save_campaign(sample, saved, overwrite_read_only=True)
    assert load_campaign(saved).notes == "changed"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o444


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path, sample: Campaign) -> None:
    from mneme_desktop.storage import CampaignLoadError, import_character

    fifo = tmp_path / "pipe.mneme"
    os.mkfifo(fifo)
    with pytest.raises(CampaignLoadError, match="named pipe"):
        load_campaign(fifo)
    with pytest.raises(Exception, match="named pipe"):
        import_character(fifo)
    with pytest.raises(CampaignSaveError, match="named pipe"):
        save_campaign(sample, fifo, expected_hash="0" * 64)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
