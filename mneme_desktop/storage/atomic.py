"""Atomic, durable file replacement with rotating backups.

The new content goes to a temp file in the same folder, is flushed and fsynced, then
renamed over the target with ``os.replace`` (atomic on POSIX and Windows), and the folder
is fsynced so the rename itself survives a power cut. At every instant the target is
either the old complete file or the new complete file.

Before the rename the previous file becomes backup 1 (``name.bak1``; older backups move
up to ``name.bakN``). It is hard-linked, not copied, where the file system allows it, so
keeping backups costs no time on large campaigns.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import shutil
import sys
import time
from pathlib import Path

from mneme_desktop.storage._process import pid_alive

__all__ = [
    "MAX_BACKUPS",
    "atomic_write",
    "backup_path",
    "backup_paths",
    "fsync_directory",
]

log = logging.getLogger(__name__)

MAX_BACKUPS = 50
"""Backups beyond the configured count are pruned up to this number."""

STALE_TEMP_SECONDS = 60
"""A temp file left by a process that is gone is removed once it is this old (the age guards
a save in progress on another machine sharing the folder)."""

_TEMP_PATTERN = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[0-9a-f]+\.tmp$")


def backup_path(path: Path, number: int) -> Path:
    """Backup ``number`` of ``path``: 1 is the newest (``campaign.mneme.bak1``)."""
    return path.with_name(f"{path.name}.bak{number}")


def backup_paths(path: Path) -> list[Path]:
    """Existing backups of ``path``, newest first."""
    found = []
    for number in range(1, MAX_BACKUPS + 1):
        candidate = backup_path(path, number)
        if candidate.exists():
            found.append(candidate)
    return found


def _temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_file(fd: int) -> None:
    if sys.platform == "darwin":  # pragma: no cover - macOS only
        import fcntl

        try:
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)  # fsync alone does not reach the platter on macOS
            return
        except OSError:
            pass
    os.fsync(fd)


def fsync_directory(folder: Path) -> None:
    """Make a rename in ``folder`` durable. Not possible (nor needed) on Windows."""
    if os.name == "nt":  # pragma: no cover - Windows only
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError:  # some file systems (network, FUSE) refuse to fsync a folder
        pass
    finally:
        os.close(fd)


def _target_mode(path: Path) -> int | None:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return None


def atomic_write(path: Path, data: bytes, *, backups: int = 0) -> None:
    """Replace ``path`` with ``data`` atomically and durably, keeping ``backups`` old versions.

    Raises OSError on failure, after removing the temp file; ``path`` is then untouched.
    Backup problems are logged, never allowed to stop the save itself.
    """
    folder = path.parent
    _sweep_stale_temps(path)
    temp = _temp_path(path)
    mode = _target_mode(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(temp, flags, 0o666 if mode is None else mode)
        try:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # keep the file's permissions, whatever the umask
            _write_all(fd, data)
            _fsync_file(fd)
        finally:
            os.close(fd)
        if backups > 0 and mode is not None:
            _rotate_backups(path, backups)
        elif backups == 0:
            _prune_backups(path, 0)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    fsync_directory(folder)


def _rotate_backups(path: Path, count: int) -> None:
    try:
        _prune_backups(path, count)
        for number in range(count - 1, 0, -1):
            older = backup_path(path, number)
            if older.exists():
                os.replace(older, backup_path(path, number + 1))
        _snapshot(path, backup_path(path, 1))
    except OSError as exc:
        log.warning("Could not rotate backups of %s: %s", path, exc)


def _prune_backups(path: Path, keep: int) -> None:
    for number in range(keep + 1, MAX_BACKUPS + 1):
        with contextlib.suppress(FileNotFoundError):
            backup_path(path, number).unlink()


def _snapshot(path: Path, backup: Path) -> None:
    """Make ``backup`` hold the current ``path``: a hard link if possible, else a copy."""
    staging = _temp_path(backup)
    try:
        try:
            os.link(path, staging)
        except OSError:
            shutil.copy2(path, staging)
        os.replace(staging, backup)
    except BaseException:
        with contextlib.suppress(OSError):
            staging.unlink()
        raise


def _sweep_stale_temps(path: Path) -> None:
    """Remove temp files that a killed save of this file left behind."""
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        match = _TEMP_PATTERN.match(entry.name)
        if match is None or not match.group("name").startswith(path.name):
            continue
        pid = int(match.group("pid"))
        if pid == os.getpid() or pid_alive(pid):
            continue
        try:
            if now - entry.stat().st_mtime >= STALE_TEMP_SECONDS:
                os.unlink(entry.path)
        except OSError:
            continue
