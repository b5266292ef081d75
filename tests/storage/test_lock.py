"""The campaign lock: warns about a second opening, takes over stale locks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mneme_desktop.paths import AppPaths
from mneme_desktop.storage import CampaignLock, LockedError
from mneme_desktop.storage._process import host_name, pid_alive


@pytest.fixture
def lock_dir(tmp_path: Path) -> Path:
    return AppPaths.under(tmp_path / "app").ensure().lock_dir


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _write_lock(lock: CampaignLock, **fields: object) -> None:
    content = {
        "pid": os.getpid(), "host": host_name(), "user": "someone", "since": time.time(),
        "campaign": str(lock.campaign_path), "token": "their-token", "app": "Mneme Desktop",
    }
    content.update(fields)
    lock.lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock.lock_path.write_text(json.dumps(content), encoding="utf-8")


def test_acquire_and_release(tmp_path: Path, lock_dir: Path) -> None:
    lock = CampaignLock(tmp_path / "c.mneme", lock_dir)
    lock.acquire()
    assert lock.held and lock.lock_path.exists()
    holder = lock.holder()
    assert holder is not None and holder.pid == os.getpid() and holder.host == host_name()
    assert holder.campaign == str((tmp_path / "c.mneme").absolute())
    lock.acquire()  # acquiring twice is harmless
    lock.release()
    assert not lock.held and not lock.lock_path.exists()
    assert [p.name for p in lock_dir.iterdir()] == []


def test_second_opening_is_refused_with_who_holds_it(tmp_path: Path, lock_dir: Path) -> None:
    path = tmp_path / "c.mneme"
    with CampaignLock(path, lock_dir):
        other = CampaignLock(path, lock_dir)
        with pytest.raises(LockedError) as caught:
            other.acquire()
        assert caught.value.holder.is_this_process
        assert "'c.mneme' is already open in this window" in str(caught.value)
        assert other.live_holder() is not None
    assert not CampaignLock(path, lock_dir).lock_path.exists()


def test_same_file_by_another_spelling_is_the_same_lock(
    tmp_path: Path, lock_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    first = CampaignLock(Path("../c.mneme"), lock_dir)
    second = CampaignLock(tmp_path / "c.mneme", lock_dir)
    assert first.lock_path == second.lock_path
    assert CampaignLock(tmp_path / "d.mneme", lock_dir).lock_path != first.lock_path


def test_lock_held_by_another_live_process(tmp_path: Path, lock_dir: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        lock = CampaignLock(tmp_path / "c.mneme", lock_dir)
        _write_lock(lock, pid=process.pid, user="alice")
        with pytest.raises(LockedError) as caught:
            lock.acquire()
        text = str(caught.value)
        assert f"by alice on {host_name()} (process {process.pid})" in text
        assert "in two places at once" in text
        lock.acquire(force=True)  # "open anyway"
        assert lock.holder() is not None and lock.holder().pid == os.getpid()  # type: ignore[union-attr]
        lock.release()
    finally:
        process.kill()
        process.wait()


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path: Path, lock_dir: Path) -> None:
    dead = _dead_pid()
    assert not pid_alive(dead)
    lock = CampaignLock(tmp_path / "c.mneme", lock_dir)
    _write_lock(lock, pid=dead)
    assert lock.live_holder() is None
    lock.acquire()
    assert lock.holder().pid == os.getpid()  # type: ignore[union-attr]
    lock.release()


def test_lock_from_another_host_is_respected(tmp_path: Path, lock_dir: Path) -> None:
    """We cannot see another machine's processes, so its lock counts as live."""
    lock = CampaignLock(tmp_path / "c.mneme", lock_dir)
    _write_lock(lock, pid=_dead_pid(), host="someone-elses-laptop")
    with pytest.raises(LockedError, match="on someone-elses-laptop"):
        lock.acquire()


def test_corrupt_lock_file_is_replaced(tmp_path: Path, lock_dir: Path) -> None:
    lock = CampaignLock(tmp_path / "c.mneme", lock_dir)
    lock.lock_path.write_bytes(b"\x00garbage")
    old = time.time() - 60
    os.utime(lock.lock_path, (old, old))
    lock.acquire()
    assert lock.holder() is not None
    lock.release()


def test_release_leaves_a_lock_someone_forced_away(tmp_path: Path, lock_dir: Path) -> None:
    path = tmp_path / "c.mneme"
    first = CampaignLock(path, lock_dir)
    first.acquire()
    second = CampaignLock(path, lock_dir)
    second.acquire(force=True)
    first.release()
    assert second.holder() is not None and second.lock_path.exists()
    second.release()
    assert not second.lock_path.exists()


def test_lock_without_hard_links(tmp_path: Path, lock_dir: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*args: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "c.mneme"
    lock = CampaignLock(path, lock_dir)
    lock.acquire()
    with pytest.raises(LockedError):
        CampaignLock(path, lock_dir).acquire()
    lock.release()
    assert [p.name for p in lock_dir.iterdir()] == []


def test_pid_alive() -> None:
    assert pid_alive(os.getpid())
    assert not pid_alive(_dead_pid())
    assert not pid_alive(0) and not pid_alive(-5)


# --- issue 15: the write lock every writer takes for its check-and-replace -----------------


def _hold_folder_lock(folder: Path) -> subprocess.Popen[str]:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from mneme_desktop.storage.oslock import folder_lock\n"
        f"with folder_lock(Path({str(folder)!r})) as locked:\n"
        "    print('held' if locked else 'not held', flush=True)\n"
        "    sys.stdin.read()\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.skipif(sys.platform == "win32", reason="flock on a folder is POSIX")
def test_a_writer_in_another_process_is_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mneme_desktop.storage import (
        CampaignSaveError,
        build_sample_campaign,
        load_campaign,
        oslock,
        save_campaign,
    )

    path = tmp_path / "c.mneme"
    save_campaign(build_sample_campaign(), path)
    before = path.read_bytes()
    holder = _hold_folder_lock(tmp_path)
    try:
        with oslock.folder_lock(tmp_path, wait=0) as locked:
            assert not locked
        with pytest.raises(oslock.FolderLockTimeoutError), \
                oslock.folder_lock(tmp_path, wait=0.2):
            pass
        monkeypatch.setattr(oslock, "WAIT_SECONDS", 0.2)
        campaign = build_sample_campaign()
        campaign.notes = "while another program saves"
        with pytest.raises(CampaignSaveError, match="kept saving in this folder"):
            save_campaign(campaign, path)
        assert path.read_bytes() == before
    finally:
        holder.communicate("", timeout=30)
    save_campaign(campaign, path)
    assert load_campaign(path).notes == "while another program saves"


def test_the_write_lock_is_reentrant_within_a_process(tmp_path: Path) -> None:
    from mneme_desktop.storage.oslock import folder_lock

    with folder_lock(tmp_path) as outer:
        with folder_lock(tmp_path, wait=0) as inner:
            assert inner == outer
        with folder_lock(tmp_path) as again:
            assert again == outer
    assert list(tmp_path.iterdir()) == [], "the lock leaves no file beside the campaign"


def test_host_name_is_what_socket_reports() -> None:
    """Locks written before (``socket.gethostname``) still read as this host's."""
    import socket

    assert host_name() == (socket.gethostname() or "unknown host")


def test_opening_a_campaign_does_not_import_socket(tmp_path: Path) -> None:
    """Taking the lock names the host without ``socket`` (~3.5 ms of a start)."""
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from mneme_desktop.storage.lock import CampaignLock\n"
            f"lock = CampaignLock(Path({str(tmp_path / 'a.mneme')!r}), Path({str(tmp_path)!r}))\n"
            "lock.acquire()\n"
            "lock.release()\n"
            "print('socket' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.strip() == "False"
