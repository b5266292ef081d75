"""Autosaves of unsaved work, kept in the user data folder (never beside the campaign).

Each autosave is two files in :attr:`~mneme_desktop.paths.AppPaths.autosave_dir`:
``<key>.mneme`` (the campaign, same format as a saved file) and ``<key>.json`` (which
campaign file it belongs to, or which untitled campaign, and the hash of that file's
content when the session opened it), plus ``<key>.base``, a copy of that content, so the
recovery prompt can say what changed on each side. The key is a hash of the campaign's
path, or ``untitled-<id>`` for a campaign never saved. The app writes on a timer while
there are unsaved changes, discards after a successful save, and on the next start asks
:meth:`AutosaveStore.recoverable` whether there is anything to offer.

Whether to offer is decided by content, never by clocks: a sync client, a NAS with its
clock ahead, an import or a git checkout touching the file after a crash must not make
the crash's unsaved work look older than the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.storage.atomic import atomic_write
from mneme_desktop.storage.campaign_file import (
    content_hash,
    load_campaign_file,
    read_limited,
    save_error,
)
from mneme_desktop.storage.codec import MAX_CAMPAIGN_BYTES, campaign_from_json, campaign_to_json
from mneme_desktop.storage.errors import CampaignLoadError
from mneme_desktop.storage.oslock import folder_lock
from mneme_desktop.storage.recovery import describe_recovery

__all__ = ["AutosaveEntry", "AutosaveStore"]

_UNTITLED = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class AutosaveEntry:
    """One autosave: what it belongs to and when it was written (file time, seconds)."""

    key: str
    data_path: Path
    source: Path | None
    untitled_id: str | None
    campaign_name: str
    saved_at: float
    base_hash: str | None = None
    """Hash of the campaign file's content when the autosaved session opened it."""

    @property
    def saved_at_datetime(self) -> datetime:
        return datetime.fromtimestamp(self.saved_at)

    @property
    def label(self) -> str:
        """"Skyfall Campaign (autosaved 20 Nov 2026, 14:02)" for a recovery dialog."""
        when = self.saved_at_datetime.strftime("%d %b %Y, %H:%M")
        return f"{self.campaign_name} (autosaved {when})"


def _normalised(path: Path) -> str:
    return os.path.normcase(os.path.realpath(Path(path).absolute()))


class AutosaveStore:
    """Pure-Python autosave bookkeeping; the Qt timer and dialog live in the UI."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    # --- keys ----------------------------------------------------------------------------

    @staticmethod
    def key_for(*, source: Path | str | None = None, untitled_id: str | None = None) -> str:
        """The autosave key of a campaign file, or of an untitled campaign's id."""
        if (source is None) == (untitled_id is None):
            raise ValueError("give exactly one of source (a campaign file) or untitled_id")
        if source is not None:
            digest = hashlib.sha256(
                _normalised(Path(source)).encode("utf-8", "surrogatepass")
            ).hexdigest()
            return f"file-{digest[:24]}"
        assert untitled_id is not None
        cleaned = _UNTITLED.sub("_", untitled_id)[:64]
        if not cleaned:
            raise ValueError("an untitled id needs at least one letter or digit")
        return f"untitled-{cleaned}"

    def _data_path(self, key: str) -> Path:
        return self.directory / f"{key}.mneme"

    def _meta_path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def _base_path(self, key: str) -> Path:
        return self.directory / f"{key}.base"

    # --- writing and discarding ------------------------------------------------------------

    def write(
        self,
        campaign: Campaign,
        *,
        source: Path | str | None = None,
        untitled_id: str | None = None,
        base_hash: str | None = None,
    ) -> AutosaveEntry:
        """Autosave ``campaign`` (atomically, no backups). Raises CampaignSaveError.

        ``base_hash`` is the hash of the campaign file as this session opened (or last
        saved) it; its content is kept once, to show later what changed on each side.
        """
        key = self.key_for(source=source, untitled_id=untitled_id)
        data = campaign_to_json(campaign)
        meta = {
            "source": str(Path(source).absolute()) if source is not None else None,
            "untitled_id": untitled_id,
            "campaign_name": campaign.name,
            "base_hash": base_hash,
        }
        data_path = self._data_path(key)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with folder_lock(self.directory):
                atomic_write(data_path, data)
                atomic_write(self._meta_path(key), json.dumps(meta, indent=2).encode("utf-8"))
                if source is not None and base_hash is not None:
                    self._keep_base(key, Path(source), base_hash)
        except OSError as exc:
            raise save_error(data_path, exc) from exc
        entry = self._entry(key)
        assert entry is not None
        return entry

    def _keep_base(self, key: str, source: Path, base_hash: str) -> None:
        """Copy the file's content as opened, once, if the file still holds it."""
        base_path = self._base_path(key)
        try:
            if content_hash(base_path.read_bytes()) == base_hash:
                return
        except OSError:
            pass
        try:
            current = read_limited(source, MAX_CAMPAIGN_BYTES, "campaign")
        except CampaignLoadError:
            return
        if content_hash(current) == base_hash:
            atomic_write(base_path, current)

    def discard(
        self,
        entry: AutosaveEntry | None = None,
        *,
        source: Path | str | None = None,
        untitled_id: str | None = None,
    ) -> None:
        """Delete an autosave (after a save, or when the referee declines to recover it)."""
        key = entry.key if entry is not None else self.key_for(
            source=source, untitled_id=untitled_id
        )
        for path in (self._data_path(key), self._meta_path(key), self._base_path(key)):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    # --- finding -----------------------------------------------------------------------

    def _entry(self, key: str) -> AutosaveEntry | None:
        data_path = self._data_path(key)
        try:
            saved_at = data_path.stat().st_mtime
        except OSError:
            return None
        try:
            meta = json.loads(self._meta_path(key).read_text(encoding="utf-8"))
            source = Path(meta["source"]) if meta.get("source") else None
            untitled = meta.get("untitled_id")
            name = str(meta.get("campaign_name") or "Untitled campaign")
            base = meta.get("base_hash")
            base_hash = base if isinstance(base, str) else None
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            source, untitled, name, base_hash = None, None, "Unknown campaign", None
        return AutosaveEntry(
            key=key,
            data_path=data_path,
            source=source,
            untitled_id=str(untitled) if untitled is not None else None,
            campaign_name=name,
            saved_at=saved_at,
            base_hash=base_hash,
        )

    def find(
        self, *, source: Path | str | None = None, untitled_id: str | None = None
    ) -> AutosaveEntry | None:
        return self._entry(self.key_for(source=source, untitled_id=untitled_id))

    def entries(self) -> list[AutosaveEntry]:
        """Every autosave, newest first (for offering untitled work after a crash)."""
        if not self.directory.is_dir():
            return []
        found = []
        for data_path in self.directory.glob("*.mneme"):
            entry = self._entry(data_path.stem)
            if entry is not None:
                found.append(entry)
        return sorted(found, key=lambda e: e.saved_at, reverse=True)

    def load(self, entry: AutosaveEntry) -> Campaign:
        """The autosaved campaign (CampaignLoadError if it is damaged)."""
        data = read_limited(entry.data_path, MAX_CAMPAIGN_BYTES, "campaign")
        return campaign_from_json(data, source=entry.data_path)

    def recoverable(self, source: Path | str) -> AutosaveEntry | None:
        """An autosave of ``source`` worth offering: one whose content differs from the file.

        Decided by content, not by file times. Also offered when the file is gone or cannot
        be read. None when there is nothing to recover.
        """
        entry = self.find(source=source)
        if entry is None:
            return None
        try:
            saved = entry.data_path.read_bytes()
            current = read_limited(Path(source), MAX_CAMPAIGN_BYTES, "campaign")
        except (OSError, CampaignLoadError):
            return entry
        if saved == current:
            return None
        return entry

    def recovery_summary(self, entry: AutosaveEntry, source: Path | str) -> str:
        """What recovering ``entry`` would change, on each side, for the recovery prompt."""
        try:
            autosaved = self.load(entry)
        except CampaignLoadError as exc:
            return f"The autosave is damaged: {exc}"
        current: Campaign | None = None
        problem = None
        try:
            loaded = load_campaign_file(source)
            current = loaded.campaign
        except CampaignLoadError as exc:
            problem = str(exc)
        base: Campaign | None = None
        if current is not None and entry.base_hash is not None:
            same = entry.base_hash == loaded.content_hash
            base = current if same else self._load_base(entry)
        return describe_recovery(autosaved, current, base, current_problem=problem)

    def _load_base(self, entry: AutosaveEntry) -> Campaign | None:
        try:
            data = read_limited(self._base_path(entry.key), MAX_CAMPAIGN_BYTES, "campaign")
            if content_hash(data) != entry.base_hash:
                return None
            return campaign_from_json(data, source=self._base_path(entry.key))
        except CampaignLoadError:
            return None
