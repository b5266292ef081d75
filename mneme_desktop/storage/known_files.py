"""The contents this app has written or already checked for keys given twice.

JSON lets an object give a key twice; the fast parser keeps the last silently, so a load
checks every file for that (serialising the campaign again and comparing, or a second
parse: a third of loading 1,000 characters). Bytes this app wrote come from its own
serialiser, which cannot repeat a key, and bytes that passed the check once pass it
again. So the SHA-256 of those contents (which loads and saves compute anyway) is kept
in a small file in the cache folder, and a file whose content has a known hash skips the
check. It is validated in full as always: only the duplicate-key check is spared.

Losing the file costs only speed (the next load checks again), so it is written without
fsync and read leniently.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path

__all__ = ["MAX_KNOWN", "KnownContents"]

log = logging.getLogger(__name__)

MAX_KNOWN = 64
"""Hashes kept, newest first: the campaigns and their autosaves of a good while."""

_HASH_LENGTH = 64


class KnownContents:
    """The hashes of contents free of duplicate keys, kept in ``path`` (None: in memory)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._hashes: list[str] | None = None

    def __contains__(self, digest: object) -> bool:
        return isinstance(digest, str) and digest in self._load()

    def add(self, digest: str) -> None:
        """Remember ``digest`` (a content hash) as free of duplicate keys."""
        hashes = self._load()
        if hashes and hashes[0] == digest:
            return
        if digest in hashes:
            hashes.remove(digest)
        hashes.insert(0, digest)
        del hashes[MAX_KNOWN:]
        self._write(hashes)

    def _load(self) -> list[str]:
        if self._hashes is None:
            self._hashes = self._read()
        return self._hashes

    def _read(self) -> list[str]:
        if self.path is None:
            return []
        try:
            with open(self.path, "rb") as handle:
                raw = handle.read(MAX_KNOWN * (_HASH_LENGTH + 8) + 64)
            found = json.loads(raw)
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.info("Ignoring the list of known contents %s: %s", self.path, exc)
            return []
        if not isinstance(found, list):
            return []
        return [item for item in found[:MAX_KNOWN]
                if isinstance(item, str) and len(item) == _HASH_LENGTH
                and all(c in "0123456789abcdef" for c in item)]

    def _write(self, hashes: list[str]) -> None:
        if self.path is None:
            return
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(json.dumps(hashes), encoding="ascii")
            os.replace(temp, self.path)
        except OSError as exc:  # only speed is lost
            log.info("Could not keep the list of known contents %s: %s", self.path, exc)
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)
