"""The one atomic file writer: campaigns, exports and settings are all replaced through it.

The new content goes to a temp file in the same folder, is written in full and fsynced,
then renamed over the target with ``os.replace`` (atomic on POSIX and Windows), and the
folder is fsynced so the rename itself survives a power cut. At every instant the target
is either the old complete file or the new complete file, and a failure removes the temp
file. Stdlib only: settings are saved through it before pydantic is ever imported.

:mod:`mneme_desktop.storage.atomic` adds what campaigns need on top (folder lock, backups,
stale temp sweep) through the ``on_open`` and ``before_replace`` hooks.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "TEMP_NAME_CHARS",
    "ReadBackError",
    "fsync_directory",
    "read_sealed",
    "replace_file",
    "temp_path",
    "write_sealed",
]

log = logging.getLogger(__name__)

TEMP_NAME_CHARS = 40
"""A temp name keeps this much of the file's name, so a 250-character name still leaves
room for the rest of the temp name within the 255 a file system allows."""


def temp_path(path: Path) -> Path:
    """A fresh temp name beside ``path``: ``.name.<pid>-<hex>.tmp`` (the pid lets a later
    sweep tell whether its writer is gone)."""
    name = path.name[:TEMP_NAME_CHARS]
    # os.urandom is what secrets.token_hex reads; importing secrets (hmac, base64) was
    # ~1 ms before the window's first paint, where settings are read.
    return path.with_name(f".{name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")


class ReadBackError(OSError):
    """The file written does not read back as the bytes that were written."""


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


def _check_read_back(fd: int, data: bytes) -> None:
    """Read the written file back and compare it with ``data`` (ReadBackError if not equal).

    Catches a short or corrupted write (a writer that lost bytes, a file system that
    truncated or altered them) before the file replaces anything.
    """
    size = os.fstat(fd).st_size
    if size != len(data):
        raise ReadBackError(errno.EIO, f"the file written holds {size:,} bytes instead of "
                            f"{len(data):,}; the disk or its file system may be failing")
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    left = size + 1  # one more: a file still growing is not what was written either
    while left > 0:
        chunk = os.read(fd, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    back = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    if back != data:
        raise ReadBackError(errno.EIO, "the file written does not read back as written; the "
                            "disk or its file system may be failing")


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


def replace_file(
    path: Path,
    data: bytes,
    *,
    new_file_mode: int = 0o666,
    on_open: Callable[[int], None] | None = None,
    before_replace: Callable[[bool], None] | None = None,
    read_back: bool = False,
) -> None:
    """Replace ``path`` with ``data`` atomically and durably; OSError on failure, after
    removing the temp file, with ``path`` untouched.

    An existing file keeps its permissions, whatever the umask; a new one gets
    ``new_file_mode`` less the umask. ``on_open`` gets the temp file's descriptor before
    anything is written; ``before_replace`` is told whether ``path`` existed and runs after
    the data is on disk, just before the rename (an exception there cancels the save).
    With ``read_back``, the fsynced temp file is read again and must equal ``data``
    (ReadBackError, an OSError, otherwise): a short or corrupted write never replaces
    ``path``.
    """
    temp = temp_path(path)
    mode = _target_mode(path)
    access = os.O_RDWR if read_back else os.O_WRONLY
    flags = access | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(temp, flags, new_file_mode if mode is None else mode)
        try:
            if on_open is not None:
                on_open(fd)
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # keep the file's permissions, whatever the umask
            _write_all(fd, data)
            _fsync_file(fd)
            if read_back:
                _check_read_back(fd, data)
        finally:
            os.close(fd)
        if before_replace is not None:
            before_replace(mode is not None)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    fsync_directory(path.parent)


def write_sealed(path: Path, header: bytes, payload: bytes) -> bool:
    """Replace ``path`` (a cache file: private, its folder made) with ``header``, the SHA-256
    of ``payload`` and ``payload``; False, logged, if it could not be written: a cache that
    is not written costs only speed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, header + hashlib.sha256(payload).digest() + payload,
                     new_file_mode=0o600)
    except OSError as exc:
        log.info("Could not write %s: %s", path, exc)
        return False
    return True


def read_sealed(path: Path, header: bytes) -> bytes | None:
    """The payload :func:`write_sealed` wrote under ``header``; None if the file is
    missing, unreadable, damaged or written under another header."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    start = len(header) + 32
    if not data.startswith(header) or \
            hashlib.sha256(data[start:]).digest() != data[len(header):start]:
        log.info("Ignoring %s: damaged, or written by another version", path)
        return None
    return data[start:]
