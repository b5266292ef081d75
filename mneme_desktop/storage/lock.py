"""A lock file per open campaign, so the same campaign is not edited in two places at once.

Locks live in the app's lock folder (:attr:`mneme_desktop.paths.AppPaths.lock_dir`), named
by a hash of the campaign's full path, and record who holds them (process, host, user,
since when). A lock whose process is gone on this host is stale and is taken over
silently. A lock is a warning, not a wall: ``acquire(force=True)`` opens anyway; the
content hash check in :func:`~mneme_desktop.storage.save_campaign` is what protects the
file from being overwritten.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
import os
import secrets
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType

from mneme_desktop import APP_NAME
from mneme_desktop.storage._process import host_name, pid_alive

__all__ = ["CampaignLock", "LockHolder", "LockedError"]


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name (containers, services)
        return "unknown user"


@dataclass(frozen=True)
class LockHolder:
    """Who holds a campaign open, as written in the lock file."""

    pid: int
    host: str
    user: str
    since: float
    campaign: str
    token: str
    app: str = APP_NAME

    @property
    def on_this_host(self) -> bool:
        return self.host == host_name()

    @property
    def is_this_process(self) -> bool:
        return self.on_this_host and self.pid == os.getpid()

    @property
    def alive(self) -> bool:
        """False only when we can tell the holder is gone (its process, on this host)."""
        return not self.on_this_host or pid_alive(self.pid)

    def describe(self) -> str:
        """"opened by alice on laptop (process 4242) since 20 Nov 2026, 14:02"."""
        since = datetime.fromtimestamp(self.since).strftime("%d %b %Y, %H:%M")
        if self.is_this_process:
            return f"already open in this window of {self.app} (since {since})"
        return (
            f"opened in {self.app} by {self.user} on {self.host} (process {self.pid}) "
            f"since {since}"
        )


class LockedError(Exception):
    """The campaign is open elsewhere; ``holder`` says where."""

    def __init__(self, campaign: Path, holder: LockHolder) -> None:
        self.campaign = campaign
        self.holder = holder
        super().__init__(
            f"'{campaign.name}' is {holder.describe()}. Editing it in two places at once "
            "would lose one side's changes."
        )


class CampaignLock:
    """The lock for one campaign path. Use as a context manager or acquire/release."""

    def __init__(self, campaign_path: Path | str, lock_dir: Path) -> None:
        self.campaign_path = Path(campaign_path).absolute()
        self.lock_dir = Path(lock_dir)
        key = os.path.normcase(os.path.realpath(self.campaign_path))
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:24]
        self.lock_path = self.lock_dir / f"{digest}.lock"
        self._token = secrets.token_hex(8)
        self._held = False

    @property
    def held(self) -> bool:
        return self._held

    def holder(self) -> LockHolder | None:
        """The lock's current holder, or None if unlocked (or the lock file is unreadable)."""
        try:
            raw = json.loads(self.lock_path.read_text(encoding="utf-8"))
            return LockHolder(
                pid=int(raw["pid"]),
                host=str(raw["host"]),
                user=str(raw["user"]),
                since=float(raw["since"]),
                campaign=str(raw["campaign"]),
                token=str(raw["token"]),
                app=str(raw.get("app", APP_NAME)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def live_holder(self) -> LockHolder | None:
        """Someone else holding the lock who is (or may be) still running, else None."""
        holder = self.holder()
        if holder is None or holder.token == self._token or not holder.alive:
            return None
        return holder

    def acquire(self, *, force: bool = False) -> None:
        """Take the lock; raises LockedError if a live holder has it (unless ``force``)."""
        if self._held:
            return
        self.lock_dir.mkdir(parents=True, exist_ok=True)
        for attempt in range(5):
            if self._try_create():
                self._held = True
                return
            holder = self.holder()
            if holder is not None and holder.token == self._token:
                self._held = True
                return
            if holder is not None and holder.alive and not force:
                raise LockedError(self.campaign_path, holder)
            if holder is None and attempt < 3 and self._recently_written():
                time.sleep(0.05)  # someone is writing it right now: read it again
                continue
            self._remove_if(holder)
        holder = self.holder()
        if holder is not None:
            raise LockedError(self.campaign_path, holder)
        raise OSError(f"could not create the lock file {self.lock_path}")

    def release(self) -> None:
        """Drop the lock if it is still ours (a forced takeover elsewhere is left alone)."""
        if not self._held:
            return
        self._held = False
        holder = self.holder()
        if holder is not None and holder.token == self._token:
            with contextlib.suppress(FileNotFoundError):
                self.lock_path.unlink()

    def __enter__(self) -> CampaignLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()

    # --- internals ---------------------------------------------------------------------

    def _content(self) -> bytes:
        holder = LockHolder(
            pid=os.getpid(),
            host=host_name(),
            user=_user(),
            since=time.time(),
            campaign=str(self.campaign_path),
            token=self._token,
        )
        return json.dumps(asdict(holder), indent=2).encode("utf-8")

    def _try_create(self) -> bool:
        """Create the lock file with its content in one step: write a temp, hard-link it in
        (link fails if the lock exists). Falls back to O_EXCL where links are unsupported."""
        temp = self.lock_dir / f".{self.lock_path.name}.{os.getpid()}-{self._token}.tmp"
        temp.write_bytes(self._content())
        try:
            os.link(temp, self.lock_path)
            return True
        except FileExistsError:
            return False
        except OSError:
            return self._try_create_exclusive()
        finally:
            with contextlib.suppress(OSError):
                temp.unlink()

    def _try_create_exclusive(self) -> bool:
        try:
            fd = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "wb") as handle:
            handle.write(self._content())
        return True

    def _recently_written(self) -> bool:
        try:
            return time.time() - self.lock_path.stat().st_mtime < 2
        except OSError:
            return False

    def _remove_if(self, expected: LockHolder | None) -> None:
        """Remove a stale lock, unless it changed hands since we looked at it."""
        current = self.holder()
        if current != expected:
            return
        with contextlib.suppress(FileNotFoundError):
            self.lock_path.unlink()
