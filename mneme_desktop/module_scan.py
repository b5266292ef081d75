"""PySide6's question about every module imported after it, answered from a kept table.

PySide6 asks of each newly imported module whether its source mentions "PySide6"
(PYSIDE-2029: that sets the module's default for PySide6's ``__feature__`` switches), through
``inspect.getsource``, which tokenises the file. Reading the file's bytes instead gives the
same answer in ~30 us, but a start imports ~210 modules after PySide6: ~6 ms. The answer
depends on the file alone, so it is kept in the cache folder by path, size and modification
time (what Python's own ``.pyc`` check compares) and a file is read again only when one of
those changed. Anything unusual (no source file, a file that cannot be read) goes to
PySide6's own check; a missing, damaged or foreign table means reading every file, as
before.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from mneme_desktop.atomicfile import read_sealed, write_sealed

log = logging.getLogger(__name__)

_HEADER = b"mneme-module-scan-1\n"
MAX_ENTRIES = 5000
"""Far more than a start imports (~400 with PySide6's own); past it the table keeps the
newest entries (files read last), so paths of old installs fall out."""

FEATURE_MODULE = "shibokensupport.feature"
FROZEN_LOADER = "PyiFrozenLoader"
"""PyInstaller's loader for the modules in a bundle's archive."""

Entry = tuple[int, int, bool]
"""A source file's size, modification time (ns) and whether it mentions PySide6."""


class ModuleScan:
    """The answers by source path, loaded from ``path`` and written back when this run
    read a file the table did not know (``path`` None: kept in memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries: dict[str, Entry] = {}
        self.reads = 0
        self.kept = 0
        self.bundled = 0

    def load(self) -> int:
        """Read the table; the number of entries it gave (0 if missing or unusable)."""
        if self.path is None:
            return 0
        payload = read_sealed(self.path, _HEADER)
        if payload is None:
            return 0
        try:
            raw = json.loads(payload)
            entries = {path: (int(size), int(mtime), bool(uses))
                       for path, (size, mtime, uses) in raw.items() if isinstance(path, str)}
        except (ValueError, TypeError, AttributeError):
            log.info("Ignoring %s: not a module scan table", self.path)
            return 0
        self._entries.update(entries)
        return len(entries)

    def save(self) -> bool:
        """Write the table back if this run read a file it did not know; True if written."""
        if self.path is None or not self.reads:
            return False
        entries = dict(list(self._entries.items())[-MAX_ENTRIES:])
        payload = json.dumps(entries, separators=(",", ":")).encode("utf-8", "surrogatepass")
        if not write_sealed(self.path, _HEADER, payload):
            return False
        self.reads = 0
        return True

    def uses_pyside(self, module: ModuleType, upstream: Callable[[ModuleType], object]) -> bool:
        """Does ``module``'s source mention "PySide6"? ``upstream``: PySide6's own check,
        for modules without a ``.py`` file."""
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return bool(upstream(module))
        bundled = self._bundled_answer(module)
        if bundled is not None:
            return bundled
        try:
            status = os.stat(path)
        except OSError:
            return bool(upstream(module))
        entry = self._entries.get(path)
        if entry is not None and entry[0] == status.st_size and entry[1] == status.st_mtime_ns:
            self.kept += 1
            return entry[2]
        try:
            with open(path, "rb") as handle:
                uses = b"PySide6" in handle.read()
        except OSError:
            return bool(upstream(module))
        self.reads += 1
        self._entries.pop(path, None)  # to the end: the newest entries are the ones kept
        self._entries[path] = (status.st_size, status.st_mtime_ns, uses)
        return uses

    def _bundled_answer(self, module: ModuleType) -> bool | None:
        """For a module of a PyInstaller bundle (usually no ``.py`` file): the answer PySide6's
        check reaches through ``inspect`` and ``linecache`` (the loader's ``get_source``,
        False when it has none or fails), without their path look-ups (~15 us a module;
        the frozen app imports ~400 after PySide6, which PyInstaller's hook imports first).
        None for any other module."""
        loader: Any = getattr(module, "__loader__", None)
        if not getattr(sys, "frozen", False) or type(loader).__name__ != FROZEN_LOADER:
            return None
        self.bundled += 1
        try:
            source = loader.get_source(module.__name__)
        except Exception:
            return False
        return isinstance(source, str) and "PySide6" in source

    def install(self) -> bool:
        """Answer PySide6's check through :meth:`uses_pyside`; True if put in place (False:
        PySide6 is not imported, or this scan answers already). It takes over from a scan
        put in place earlier (the bundle's launcher installs one without the kept table)."""
        feature = sys.modules.get(FEATURE_MODULE)
        current = getattr(feature, "_mod_uses_pyside", None)
        if current is None or getattr(current, "scan", None) is self:
            return False
        upstream = getattr(current, "upstream", current)

        def mod_uses_pyside(module: ModuleType) -> bool:
            return self.uses_pyside(module, upstream)

        mod_uses_pyside.quickened = True  # type: ignore[attr-defined]
        mod_uses_pyside.upstream = upstream  # type: ignore[attr-defined]
        mod_uses_pyside.scan = self  # type: ignore[attr-defined]
        feature._mod_uses_pyside = mod_uses_pyside  # type: ignore[union-attr]
        return True
