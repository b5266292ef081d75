"""Opening and saving ``.mneme`` campaign files.

Loading never writes: a file that fails to load is left exactly as it was. Saving checks
that the bytes it is about to write open again, refuses to overwrite a file changed by
someone else since it was opened (when given the hash it was opened with), replaces the
file atomically with rotating backups, and reads the new file back before the replace
so a short or corrupted write never replaces the previous version.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.storage.atomic import (
    BackupError,
    atomic_write,
    real_target,
    sweep_stale_temps,
)
from mneme_desktop.storage.codec import (
    MAX_CAMPAIGN_BYTES,
    _too_big,
    campaign_from_json,
    campaign_to_json,
    verify_campaign_bytes,
)
from mneme_desktop.storage.errors import (
    CampaignLoadError,
    CampaignSaveError,
    FileChangedError,
    ReadOnlyFileError,
)
from mneme_desktop.storage.known_files import KnownContents
from mneme_desktop.storage.migrations import MIGRATIONS, MigrationRegistry
from mneme_desktop.storage.oslock import FolderLockTimeoutError, folder_lock
from mneme_desktop.storage.verified import VerifiedParts

__all__ = [
    "DEFAULT_BACKUPS",
    "LoadedCampaign",
    "content_hash",
    "file_hash",
    "load_campaign",
    "load_campaign_file",
    "read_limited",
    "save_campaign",
]

DEFAULT_BACKUPS = 5


def content_hash(data: bytes) -> str:
    """SHA-256 of a file's bytes, as hex: how a save tells whether the file changed."""
    return hashlib.sha256(data).hexdigest()


_HASH_BESIDE_BYTES = 1024 * 1024
"""Data at least this large is hashed in a thread while the campaign is validated:
hashlib lets go of the interpreter lock, so it costs nothing beside the validation
(~10 ms for the 18 MiB of 1,000 characters)."""


def _hash_meanwhile(data: bytes) -> Callable[[], str]:
    """Start hashing ``data``; the returned call gives its content_hash."""
    if len(data) < _HASH_BESIDE_BYTES:
        digest = content_hash(data)
        return lambda: digest
    result: list[str] = []
    thread = threading.Thread(target=lambda: result.append(content_hash(data)),
                              name="mneme-hash", daemon=True)
    thread.start()

    def wait() -> str:
        thread.join()
        return result[0] if result else content_hash(data)  # the thread failed: here, then

    return wait


def file_hash(path: Path) -> str | None:
    """Hash of the file now on disk, or None if there is none."""
    try:
        return content_hash(Path(path).read_bytes())
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class LoadedCampaign:
    """A campaign with what a later save needs to know about the file it came from."""

    campaign: Campaign
    path: Path
    content_hash: str
    size: int
    verified: VerifiedParts = field(default_factory=VerifiedParts)
    """What the load verified, so the next save checks only what changed (pass it on)."""


_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind_of(mode: int) -> str:
    return next((kind for test, kind in _NOT_REGULAR if test(mode)), "not a regular file")


def read_limited(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` if it is a readable regular file of at most ``limit`` bytes.

    Raises CampaignLoadError with a referee-readable reason otherwise. A named pipe or
    device is refused without reading (reading one would wait forever).
    """
    name = f"'{path.name}'"
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise CampaignLoadError(
            f"{name} cannot be opened: there is no such file.", path=path
        ) from None
    except IsADirectoryError:
        raise CampaignLoadError(f"{name} is a folder, not a {what} file.", path=path) from None
    except PermissionError:
        if Path(path).is_dir():  # Windows refuses to open a folder
            raise CampaignLoadError(
                f"{name} is a folder, not a {what} file.", path=path
            ) from None
        raise CampaignLoadError(
            f"{name} cannot be opened: you do not have permission to read it.", path=path
        ) from None
    except OSError as exc:
        raise CampaignLoadError(
            f"{name} cannot be opened: {exc.strerror or exc}.", path=path
        ) from None
    try:
        status = os.fstat(fd)
        problem = None
        if stat.S_ISDIR(status.st_mode):
            problem = f"{name} is a folder, not a {what} file."
        elif not stat.S_ISREG(status.st_mode):
            problem = (f"{name} is {_kind_of(status.st_mode)}, not a {what} file, so it was "
                       "not read.")
        elif status.st_size > limit:
            reason = _too_big(status.st_size, limit, what)
            problem = f"{name} cannot be opened as a {what}: {reason}"
        if problem is not None:
            os.close(fd)
            raise CampaignLoadError(problem, path=path)
        with open(fd, "rb", closefd=True) as handle:
            # Asking for the size read (not limit + 1) spares a 256 MiB buffer (~8 ms).
            data = handle.read(status.st_size + 1)
            if len(data) > status.st_size:  # it grew while being read: up to the limit
                data += handle.read(limit + 1 - len(data))
    except OSError as exc:
        raise CampaignLoadError(
            f"{name} cannot be read: {exc.strerror or exc}.", path=path
        ) from None
    if len(data) > limit:
        raise CampaignLoadError(
            f"{name} cannot be opened as a {what}: {_too_big(len(data), limit, what)}",
            path=path,
        )
    return data


def load_campaign_file(
    path: Path | str, *, registry: MigrationRegistry = MIGRATIONS,
    known: KnownContents | None = None,
) -> LoadedCampaign:
    """Open a campaign and remember the hash of the bytes it came from.

    ``known``: contents already known to give no key twice (the app passes its list, and
    adds this file's content to it once it has opened).
    """
    file_path = Path(path)
    sweep_stale_temps(file_path)  # what killed saves left; never a live writer's
    data = read_limited(file_path, MAX_CAMPAIGN_BYTES, "campaign")
    digest = _hash_meanwhile(data)
    campaign = campaign_from_json(
        data, source=file_path, registry=registry,
        known_free_of_duplicates=None if known is None else lambda: digest() in known,
    )
    verified = VerifiedParts()
    verified.trust(data)
    if known is not None:
        known.add(digest())
    return LoadedCampaign(campaign, file_path, digest(), len(data), verified)


def load_campaign(path: Path | str) -> Campaign:
    """Open a ``.mneme`` file. Raises CampaignLoadError (never anything else) if it is not a
    campaign this version can open; the file is never modified."""
    return load_campaign_file(path).campaign


_SAVE_REASONS = {
    # EDQUOT first: where it does not exist it falls back to ENOSPC, which the next line sets.
    getattr(errno, "EDQUOT", errno.ENOSPC): "your disk quota is used up. Free some space, or "
    "save to another drive.",
    errno.ENOSPC: "the disk is full. Free some space, or save to another drive.",
    errno.EROFS: "the drive is read-only. Save to another folder.",
    errno.EACCES: "permission denied: the folder is read-only, or another program is holding "
    "the file. Close that program or save to another folder.",
    errno.EPERM: "the operation is not permitted: the folder or file is protected. Save to "
    "another folder.",
    errno.ENOENT: "the folder does not exist (was a drive unplugged?). Save to another folder.",
    errno.ENAMETOOLONG: "the file name is too long. Choose a shorter name.",
}


def save_error(path: Path, exc: OSError) -> CampaignSaveError:
    """An OSError from writing ``path`` as a message the referee can act on."""
    reason = _SAVE_REASONS.get(exc.errno or -1)
    if reason is None:
        reason = f"{exc.strerror or exc}."
    if isinstance(exc, FolderLockTimeoutError):
        reason = ("another program (another Mneme Desktop, or an import) kept saving in this "
                  "folder for over a minute. Try again in a moment.")
    elif isinstance(exc, BackupError):
        reason = ("the previous version could not be kept as a backup, so the file was not "
                  f"replaced: {reason[:1].lower()}{reason[1:]}")
    return CampaignSaveError(
        f"Could not save '{path.name}' in {path.parent}: {reason} "
        "The previous version of the file is unchanged.",
        path=path,
    )


def _is_read_only(path: Path) -> bool:
    """Whether ``path`` exists and is marked read-only (no write bit; on Windows, the
    read-only attribute). Permission bits, not access(): as root everything is writable."""
    try:
        return os.stat(path).st_mode & 0o222 == 0
    except OSError:
        return False


def _current_hash(path: Path, wanted: bool = True) -> Callable[[], str | None]:
    """Start hashing the file to be replaced (None: there is none); refuses what is not a
    regular file. Without ``wanted`` only the refusal is done (the call gives None)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return lambda: None
    if not stat.S_ISREG(mode):
        raise CampaignSaveError(
            f"Could not save '{path.name}': it is {_kind_of(mode)}, not a campaign file. "
            "Save under another name.",
            path=path,
        )
    if not wanted:
        return lambda: None
    result: list[str | None] = []
    thread = threading.Thread(target=lambda: result.append(file_hash(path)),
                              name="mneme-hash", daemon=True)
    thread.start()

    def wait() -> str | None:
        thread.join()
        return result[0] if result else file_hash(path)  # the thread failed: here, then

    return wait


def save_campaign(
    campaign: Campaign,
    path: Path | str,
    *,
    backups: int = DEFAULT_BACKUPS,
    expected_hash: str | None = None,
    overwrite_read_only: bool = False,
    verified: VerifiedParts | None = None,
    known: KnownContents | None = None,
) -> str:
    """Write ``campaign`` to ``path`` atomically; returns the hash of the bytes written.

    ``expected_hash`` is the hash the file had when it was opened (or last saved): if the
    file on disk now differs, FileChangedError is raised and nothing is written. A missing
    file is not a change (there is nothing to overwrite). ``backups`` previous versions are
    kept beside the file as ``name.bak1`` (newest) .. ``name.bakN``. A read-only file is
    refused with ReadOnlyFileError unless ``overwrite_read_only``. A symbolic link is
    followed (its target is replaced). The check and the replace happen under the folder's
    write lock, so no other writer can slip in between. The bytes are validated as a load
    would validate them before anything is written (CampaignSaveError if they would not
    open again), and the written file is read back and compared with them before it
    replaces the old one (CampaignSaveError if the write was short or corrupted).

    ``verified``: what the campaign's load or last save verified (the session keeps it
    per campaign); with it, only the records that changed since are validated, same
    verdict. ``known``: the list of contents free of duplicate keys this save adds to.
    """
    file_path = Path(path)
    if backups < 0:
        raise ValueError(f"backups cannot be negative, got {backups}")
    data = campaign_to_json(campaign)
    digest = _hash_meanwhile(data)
    target = real_target(file_path)

    def verify() -> None:
        if verified is None:
            verify_campaign_bytes(data, file_path.name)
        else:
            verified.check(data, campaign, file_path.name)

    if not target.parent.is_dir():
        verify()  # what would not reopen is said first
        raise CampaignSaveError(
            f"Could not save '{file_path.name}': the folder {target.parent} does not exist.",
            path=file_path,
        )
    try:
        with folder_lock(target.parent):
            # The file to be replaced is hashed (in a thread: reading and hashing let go of
            # the interpreter lock) while the new bytes are validated; both under the lock,
            # so what is compared is what will be replaced.
            current_hash = _current_hash(target, wanted=expected_hash is not None)
            verify()
            if not overwrite_read_only and _is_read_only(target):
                raise ReadOnlyFileError(
                    f"'{file_path.name}' is read-only, so it was not replaced. Save a copy "
                    "under another name, or overwrite it anyway.",
                    path=file_path,
                )
            current = current_hash()
            if expected_hash is not None and current is not None and current != expected_hash:
                raise FileChangedError(
                    f"'{file_path.name}' was changed by another program since it was opened "
                    "(a sync client, another copy of Mneme Desktop, an editor). Saving now "
                    "would overwrite those changes. Save under another name, or reopen the "
                    "file.",
                    path=file_path,
                    expected=expected_hash,
                    actual=current,
                )
            atomic_write(target, data, backups=backups, read_back=True)
    except OSError as exc:
        raise save_error(file_path, exc) from exc
    written = digest()
    if known is not None:
        known.add(written)
    return written
