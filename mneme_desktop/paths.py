"""Every folder the app writes to, from platformdirs.

Nothing is ever written next to the program (a frozen bundle may be read-only);
tests build an ``AppPaths`` under a temporary folder instead of the user's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

from mneme_desktop import APP_ID, ORG_NAME


@dataclass(frozen=True)
class AppPaths:
    """The app's folders; created on demand by :meth:`ensure`."""

    config_dir: Path
    data_dir: Path
    cache_dir: Path
    log_dir: Path

    @classmethod
    def default(cls) -> AppPaths:
        return cls(
            config_dir=Path(platformdirs.user_config_dir(APP_ID, ORG_NAME)),
            data_dir=Path(platformdirs.user_data_dir(APP_ID, ORG_NAME)),
            cache_dir=Path(platformdirs.user_cache_dir(APP_ID, ORG_NAME)),
            log_dir=Path(platformdirs.user_log_dir(APP_ID, ORG_NAME)),
        )

    @classmethod
    def under(cls, root: Path) -> AppPaths:
        """All folders below one root: for tests and portable installs."""
        return cls(
            config_dir=root / "config",
            data_dir=root / "data",
            cache_dir=root / "cache",
            log_dir=root / "log",
        )

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def autosave_dir(self) -> Path:
        return self.data_dir / "autosave"

    @property
    def lock_dir(self) -> Path:
        return self.data_dir / "locks"

    @property
    def log_file(self) -> Path:
        return self.log_dir / "mneme-desktop.log"

    def ensure(self) -> AppPaths:
        for folder in (self.config_dir, self.data_dir, self.cache_dir, self.log_dir,
                       self.autosave_dir, self.lock_dir):
            folder.mkdir(parents=True, exist_ok=True)
        return self
