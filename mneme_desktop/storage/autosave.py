"""Autosaves of unsaved work, kept in the user data folder (never beside the campaign).

Each autosave is two files in :attr:`~mneme_desktop.paths.AppPaths.autosave_dir`:
``<key>.mneme`` (the campaign, same format as a saved file) and ``<key>.json`` (which
campaign file it belongs to, or which untitled campaign). The key is a hash of the
campaign's path, or ``untitled-<id>`` for a campaign never saved. The app writes on a
timer while there are unsaved changes, discards after a successful save, and on the next
start asks :meth:`AutosaveStore.recoverable` whether there is anything to offer.
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
from mneme_desktop.storage.campaign_file import read_limited, save_error
from mneme_desktop.storage.codec import MAX_CAMPAIGN_BYTES, campaign_from_json, campaign_to_json

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

    # --- writing and discarding ------------------------------------------------------------

    def write(
        self,
        campaign: Campaign,
        *,
        source: Path | str | None = None,
        untitled_id: str | None = None,
    ) -> AutosaveEntry:
        """Autosave ``campaign`` (atomically, no backups). Raises CampaignSaveError."""
        key = self.key_for(source=source, untitled_id=untitled_id)
        self.directory.mkdir(parents=True, exist_ok=True)
        data = campaign_to_json(campaign)
        meta = {
            "source": str(Path(source).absolute()) if source is not None else None,
            "untitled_id": untitled_id,
            "campaign_name": campaign.name,
        }
        data_path = self._data_path(key)
        try:
            atomic_write(data_path, data)
            atomic_write(self._meta_path(key), json.dumps(meta, indent=2).encode("utf-8"))
        except OSError as exc:
            raise save_error(data_path, exc) from exc
        entry = self._entry(key)
        assert entry is not None
        return entry

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
        for path in (self._data_path(key), self._meta_path(key)):
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
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            source, untitled, name = None, None, "Unknown campaign"
        return AutosaveEntry(
            key=key,
            data_path=data_path,
            source=source,
            untitled_id=str(untitled) if untitled is not None else None,
            campaign_name=name,
            saved_at=saved_at,
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
        """An autosave of ``source`` worth offering: newer than the file and different from it.

        Also offered when the file itself is gone. None when there is nothing to recover.
        """
        entry = self.find(source=source)
        if entry is None:
            return None
        try:
            stat = os.stat(source)
        except FileNotFoundError:
            return entry
        except OSError:
            return entry
        if entry.saved_at <= stat.st_mtime:
            return None
        try:
            if entry.data_path.read_bytes() == Path(source).read_bytes():
                return None
        except OSError:
            return entry
        return entry
