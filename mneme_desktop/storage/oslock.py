"""Operating-system locks that make a check-and-replace of a file atomic between writers.

Two writers of one campaign (the window and ``mneme-desktop import``, or twelve imports
started at once) must not both read version N, both pass the "unchanged since I read it"
check, and both replace it: one side's change would vanish while both report success.
Every writer therefore holds the lock of the file's folder from its check to its replace.

On POSIX the lock is ``flock`` on the folder itself (no file is left beside the campaign,
and every process, any user, any sandbox, sees the same lock). On Windows, where a folder
cannot be locked, it is ``msvcrt.locking`` on a lock file in the temp folder named by a
hash of the folder. The lock is released by the kernel when a process dies, so a killed
save never leaves it held. Where the file system refuses locks (some network drives), the
writer goes ahead unlocked, as before: the content-hash check still catches most races.

Within one process the lock is re-entrant (an import holds it over load, add and save,
and the save takes it again).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["FolderLockTimeoutError", "folder_lock", "temp_held_by_writer", "try_lock_fd"]

WAIT_SECONDS = 60.0
"""How long a writer waits for another writer of the same folder before giving up."""

_BUSY = {errno.EAGAIN, errno.EACCES, getattr(errno, "EWOULDBLOCK", errno.EAGAIN)}


class FolderLockTimeoutError(OSError):
    """Another writer held the folder's lock for longer than :data:`WAIT_SECONDS`."""


class _Held:
    __slots__ = ("count", "fd", "mutex")

    def __init__(self) -> None:
        self.mutex = threading.RLock()
        self.count = 0
        self.fd: int | None = None


_REGISTRY: dict[str, _Held] = {}
_REGISTRY_MUTEX = threading.Lock()


def _key(folder: Path) -> str:
    return os.path.normcase(os.path.realpath(folder))


def try_lock_fd(fd: int, *, exclusive: bool = True) -> bool:
    """Lock an open file (or folder) without waiting; False if someone else holds it.

    Raises OSError when the file system cannot lock at all.
    """
    if sys.platform == "win32":  # pragma: no cover - Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in _BUSY or exc.errno == errno.EDEADLK:
                return False
            raise
        return True
    import fcntl

    mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in _BUSY:
            return False
        raise
    return True


def _open_lock_target(folder: Path) -> int:
    if os.name == "nt":  # pragma: no cover - Windows only
        digest = hashlib.sha256(_key(folder).encode("utf-8", "surrogatepass")).hexdigest()
        lock_dir = Path(tempfile.gettempdir()) / "mneme-desktop-locks"
        lock_dir.mkdir(exist_ok=True)
        return os.open(lock_dir / f"{digest[:24]}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


def _os_lock(folder: Path, wait: float) -> tuple[int | None, bool]:
    """(fd, locked): locked False and fd None when the file system cannot lock, or when
    ``wait`` ran out (then FolderLockTimeoutError is raised unless ``wait`` is 0)."""
    try:
        fd = _open_lock_target(folder)
    except OSError:
        return None, False
    deadline = time.monotonic() + wait
    delay = 0.005
    try:
        while True:
            if try_lock_fd(fd):
                return fd, True
            if time.monotonic() >= deadline:
                os.close(fd)
                if wait <= 0:
                    return None, False
                raise FolderLockTimeoutError(
                    errno.EBUSY, "another program kept saving in this folder for over a minute"
                )
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
    except FolderLockTimeoutError:
        raise
    except OSError:  # the file system has no locks (some network drives): go on unlocked
        with contextlib.suppress(OSError):
            os.close(fd)
        return None, False


@contextlib.contextmanager
def folder_lock(folder: Path, *, wait: float | None = None) -> Iterator[bool]:
    """Hold the write lock of ``folder``; yields whether it is really held.

    With ``wait=0`` it does not wait: yields False if another process holds the lock.
    Raises FolderLockTimeoutError if another writer holds it longer than ``wait`` seconds
    (default :data:`WAIT_SECONDS`).
    """
    if wait is None:
        wait = WAIT_SECONDS
    key = _key(folder)
    with _REGISTRY_MUTEX:
        held = _REGISTRY.setdefault(key, _Held())
    if not held.mutex.acquire(blocking=wait > 0, timeout=wait if wait > 0 else -1):
        if wait > 0:  # another thread of this process kept saving there all that time
            raise FolderLockTimeoutError(
                errno.EBUSY, "another save kept this folder busy for over a minute"
            )
        yield False
        return
    try:
        if held.count == 0:
            held.fd, locked = _os_lock(folder, wait)
        else:
            locked = held.fd is not None
        held.count += 1
        try:
            yield locked
        finally:
            held.count -= 1
            if held.count == 0 and held.fd is not None:
                with contextlib.suppress(OSError):
                    os.close(held.fd)  # closing releases the lock
                held.fd = None
    finally:
        held.mutex.release()


def temp_held_by_writer(path: str) -> bool:
    """Whether a writer still holds the temp file ``path`` open and locked.

    A writer locks its temp file from creation until it is renamed into place; a killed
    writer's lock is gone. Unknown (no locks on this file system) counts as held.
    """
    if os.name == "nt":  # pragma: no cover - Windows only: an open file cannot be deleted
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return True
    try:
        return not try_lock_fd(fd, exclusive=False)
    except OSError:
        return True
    finally:
        os.close(fd)
