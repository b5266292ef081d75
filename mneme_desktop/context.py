"""The application context: what ``main()`` builds once and passes down (no singletons).

Its own module so that the window and the entry point both import it without importing
each other; it is light (dataclasses, platformdirs) because the window needs it before
its first paint.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mneme_desktop.logs import setup_logging
from mneme_desktop.paths import AppPaths
from mneme_desktop.settings import Settings, load_settings, save_settings

if TYPE_CHECKING:
    from mneme_desktop.storage.known_files import KnownContents
    from mneme_desktop.storage.schema_cache import SchemaCache

log = logging.getLogger("mneme_desktop")


@dataclass
class AppContext:
    """Everything the window needs, built once in ``main()`` and passed down (no singletons)."""

    paths: AppPaths
    settings: Settings
    smoke_test: bool = False
    errors: list[str] = field(default_factory=list)
    _known_contents: KnownContents | None = field(default=None, repr=False)
    _schema_cache: SchemaCache | None = field(default=None, repr=False)

    @property
    def known_contents(self) -> KnownContents:
        """Contents known to give no key twice, so loading them skips that check.

        Made on first use: the storage package is not imported before the first paint.
        """
        if self._known_contents is None:
            from mneme_desktop.storage.known_files import KnownContents

            self._known_contents = KnownContents(
                None if self.smoke_test else self.paths.cache_dir / "known-contents.json")
        return self._known_contents

    @property
    def schema_cache(self) -> SchemaCache:
        """The campaign validator's schema kept between starts (made on first use, as
        :attr:`known_contents`; a smoke test neither reads nor writes the file)."""
        if self._schema_cache is None:
            from mneme_desktop.storage.schema_cache import SchemaCache

            self._schema_cache = SchemaCache(
                None if self.smoke_test else self.paths.cache_dir / "schemas.bin")
        return self._schema_cache

    def save_settings(self) -> None:
        """Write the settings; a smoke test or screenshot run leaves the user's alone."""
        if self.smoke_test:
            return
        try:
            save_settings(self.settings, self.paths.settings_file)
        except OSError as exc:
            log.warning("Could not save settings: %s", exc)

    @classmethod
    def create(cls, paths: AppPaths | None = None, *, smoke_test: bool = False) -> AppContext:
        paths = (paths or AppPaths.default()).ensure()
        setup_logging(paths)
        return cls(paths=paths, settings=load_settings(paths.settings_file), smoke_test=smoke_test)
