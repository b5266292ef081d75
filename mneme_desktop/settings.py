"""Every user setting, declared once with its type and default.

Settings live in one JSON file in the config folder (see :mod:`mneme_desktop.paths`);
there are no ad-hoc ``QSettings`` keys anywhere else. An unreadable or invalid settings
file falls back to the defaults rather than stopping the app: settings are convenience,
the campaign file is what must never be lost.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

log = logging.getLogger(__name__)

MAX_RECENT_FILES = 10


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


class PageSize(StrEnum):
    A4 = "A4"
    LETTER = "Letter"


class Settings(BaseModel):
    """The user's preferences. Campaign rules options live in the campaign, not here."""

    model_config = ConfigDict(validate_assignment=True, extra="ignore")

    theme: Theme = Theme.SYSTEM
    autosave_interval_s: int = Field(default=120, ge=10, le=3600,
                                     description="Seconds between autosaves of unsaved work")
    backup_count: int = Field(default=5, ge=0, le=50,
                              description="Rotating backups kept beside a campaign file")
    page_size: PageSize = PageSize.A4
    print_current_damage: bool = Field(default=False,
                                       description="Print sheets with current damage, not blank")
    recent_files: list[str] = Field(default_factory=list)
    last_campaign: str | None = None
    first_run_done: bool = False
    window_geometry: str = ""
    window_state: str = ""

    def add_recent(self, path: Path | str) -> None:
        text = str(Path(path).resolve())
        files = [text, *(f for f in self.recent_files if f != text)]
        self.recent_files = files[:MAX_RECENT_FILES]
        self.last_campaign = text


def load_settings(path: Path) -> Settings:
    """Read settings; a missing or damaged file gives the defaults (and is logged)."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        log.warning("Cannot read settings %s: %s", path, exc)
        return Settings()
    try:
        return Settings.model_validate(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        log.warning("Settings file %s is invalid, using defaults: %s", path, exc)
        return Settings()


def save_settings(settings: Settings, path: Path) -> None:
    """Write settings atomically (temp file and rename) so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
