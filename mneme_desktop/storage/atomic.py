"""Atomic, durable file replacement with rotating backups.

The bytes are written by :func:`mneme_desktop.atomicfile.replace_file` (temp file in the
same folder, fsynced, renamed over the target, folder fsynced): at every instant the target
is either the old complete file or the new complete file.

Before the rename the previous file becomes backup 1 (``name.bak1``; older backups move
up to ``name.bakN``). It is hard-linked, not copied, where the file system allows it, so
keeping backups costs no time on large campaigns. If no backup can be made (no hard links
and the disk too full for a copy), the save fails: the previous version would otherwise be
in no file at all.

A symbolic link is followed: its target is replaced (in the target's folder, beside its
backups) and the link stays a link. Writers hold the folder's lock (:mod:`.oslock`) and
lock their temp file while writing, so a temp file is only ever swept once its writer is
gone.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import shutil
import time
from pathlib import Path

from mneme_desktop.atomicfile import TEMP_NAME_CHARS, replace_file, temp_path
from mneme_desktop.storage._process import pid_alive
from mneme_desktop.storage.oslock import folder_lock, temp_held_by_writer, try_lock_fd

__all__ = [
    "MAX_BACKUPS",
    "BackupError",
    "atomic_write",
    "backup_path",
    "backup_paths",
    "real_target",
    "sweep_stale_temps",
]

log = logging.getLogger(__name__)

MAX_BACKUPS = 50
"""Backups beyond the configured count are pruned up to this number."""

STALE_TEMP_SECONDS = 60
"""Where the folder cannot be locked, a temp file of a process that is gone is removed
once it is this old (the age guards a save in progress on another machine)."""

_TEMP_PATTERN = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[0-9a-f]+\.tmp$")

class BackupError(OSError):
    """The previous version could not be kept as a backup, so the save did not happen."""


def real_target(path: Path) -> Path:
    """The file a save of ``path`` must replace: the target of a symbolic link (chains
    followed), else ``path`` itself. Replacing the link would split the campaign in two."""
    if os.path.islink(path):
        return Path(os.path.realpath(path))
    return path


def backup_path(path: Path, number: int) -> Path:
    """Backup ``number`` of ``path``: 1 is the newest (``campaign.mneme.bak1``)."""
    return path.with_name(f"{path.name}.bak{number}")


def backup_paths(path: Path) -> list[Path]:
    """Existing backups of ``path``, newest first."""
    found = []
    for number in range(1, MAX_BACKUPS + 1):
        candidate = backup_path(path, number)
        if _exists(candidate):
            found.append(candidate)
    return found


def _exists(path: Path) -> bool:
    """Like Path.exists, but a name too long to exist (a long campaign name's ``.bak10``)
    is simply absent."""
    try:
        return path.exists()
    except OSError:
        return False


def atomic_write(path: Path, data: bytes, *, backups: int = 0, read_back: bool = False
                 ) -> None:
    """Replace ``path`` with ``data`` atomically and durably, keeping ``backups`` old versions.

    Raises OSError on failure, after removing the temp file; ``path`` is then untouched.
    A BackupError (an OSError) means the previous version could not be kept as backup 1,
    so it was not replaced. With ``read_back``, the written file must read back as
    ``data`` before it replaces anything (ReadBackError, an OSError, otherwise). Holds the
    folder's write lock (re-entrant) throughout.
    """
    path = real_target(Path(path))
    with folder_lock(path.parent) as locked:
        _sweep_stale_temps(path, locked=locked)
        _write_locked(path, data, backups, read_back)


def _write_locked(path: Path, data: bytes, backups: int, read_back: bool) -> None:
    def keep_backups(existed: bool) -> None:
        if backups > 0 and existed:
            _rotate_backups(path, backups)
        elif backups == 0:
            _prune_backups(path, 0)

    replace_file(path, data, on_open=_announce_writer, before_replace=keep_backups,
                 read_back=read_back)


def _announce_writer(fd: int) -> None:
    """Lock the temp file: says "a writer is here" to a sweep in another process."""
    if os.name != "nt":
        with contextlib.suppress(OSError):
            try_lock_fd(fd)


def _rotate_backups(path: Path, count: int) -> None:
    """Shift the backups up and keep the current file as backup 1, or raise BackupError.

    Pruning and shifting only ever lose the oldest backup; the current file stays until
    its snapshot exists.
    """
    try:
        _prune_backups(path, count)
        for number in range(count - 1, 0, -1):
            older = backup_path(path, number)
            if _exists(older):
                os.replace(older, backup_path(path, number + 1))
        _snapshot(path, backup_path(path, 1))
    except OSError as exc:
        log.warning("Could not keep a backup of %s: %s", path, exc)
        raise BackupError(exc.errno or 0, exc.strerror or str(exc)) from exc


def _prune_backups(path: Path, keep: int) -> None:
    for number in range(keep + 1, MAX_BACKUPS + 1):
        try:
            backup_path(path, number).unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno != errno.ENAMETOOLONG:  # too long a name to exist: nothing to prune
                raise


def _snapshot(path: Path, backup: Path) -> None:
    """Make ``backup`` hold the current ``path``: a hard link if possible, else a copy."""
    staging = temp_path(backup)
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


def sweep_stale_temps(path: Path) -> int:
    """Remove temp files that killed saves of ``path`` left behind (done when it is opened).

    Only when no other writer holds the folder's lock; returns how many were removed.
    """
    target = real_target(Path(path))
    try:
        with folder_lock(target.parent, wait=0) as locked:
            if not locked:
                return 0
            return _sweep_stale_temps(target, locked=True)
    except OSError:
        return 0


def _sweep_stale_temps(path: Path, *, locked: bool) -> int:
    """Remove this file's temp files whose writer is gone; returns how many.

    A temp file is ours by its name pattern. It is left alone if this process wrote it, or
    its writer still locks it; without the folder lock (a file system without locks), also
    while its process lives or it is younger than STALE_TEMP_SECONDS (another machine).
    """
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return 0
    now = time.time()
    prefix = path.name[:TEMP_NAME_CHARS]
    removed = 0
    for entry in entries:
        match = _TEMP_PATTERN.match(entry.name)
        if match is None or not match.group("name").startswith(prefix):
            continue
        pid = int(match.group("pid"))
        if pid == os.getpid() or temp_held_by_writer(entry.path):
            continue
        try:
            if not locked and (pid_alive(pid) or
                               now - entry.stat().st_mtime < STALE_TEMP_SECONDS):
                continue
            os.unlink(entry.path)
            removed += 1
        except OSError:
            continue
    return removed
