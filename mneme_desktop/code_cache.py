"""Compiled code that the standard library generates at run time, kept between starts.

``dataclasses`` writes the source of every dataclass's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and frozen ``__setattr__`` and compiles it while the class is
defined, and ``typing.ForwardRef`` compiles every string annotation pydantic resolves.
Python caches the bytecode of modules (``__pycache__``) but not of these: at start-up that
was ~690 compilations, ~45 ms of ~470. The same source with the same interpreter always
compiles to the same code, so the code is kept in the cache folder, like a ``.pyc`` file,
keyed by the interpreter's bytecode magic number and the exact source text.

Anything unexpected (no file, another Python, a damaged or foreign file, a write that
fails) means compiling as before; the file is replaced whole through the one atomic writer
(:mod:`mneme_desktop.atomicfile`), never written in place.
"""

from __future__ import annotations

import builtins
import hashlib
import importlib.util
import logging
import marshal
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from mneme_desktop.atomicfile import read_sealed, write_sealed

log = logging.getLogger(__name__)

_FORMAT = b"mneme-code-cache-1\n"
MAX_ENTRIES = 4000
"""More than start-up needs (~1,700 with pydantic's own); a file past it starts over."""

Key = bytes
"""A digest of the source text, the file name it is compiled under and the mode."""


def _key(source: str, filename: str, mode: str) -> Key:
    text = f"{mode}\0{filename}\0{source}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=16).digest()


class CodeCache:
    """Code objects by source text, loaded from ``path`` and written back when new ones
    were compiled (``path`` None: kept in memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._codes: dict[Key, CodeType] = {}
        self._stored: dict[Key, bytes] = {}  # marshalled, read back when first asked for
        self.hits = 0
        self.misses = 0
        self._restore: list[Callable[[], None]] = []

    # --- the file ----------------------------------------------------------------------

    def load(self) -> int:
        """Read the file; the number of entries it gave (0 if it is missing or unusable)."""
        if self.path is None:
            return 0
        payload = read_sealed(self.path, _header())
        stored = None if payload is None else _decode(payload)
        if stored is None:
            return 0
        self._stored.update(stored)
        return len(stored)

    def save(self) -> bool:
        """Write the entries back if this run compiled new ones (those this run used
        first, then the rest up to :data:`MAX_ENTRIES`); True if written."""
        if self.path is None or not self.misses:
            return False
        # This run's code first (an entry read back leaves _stored), then the unused rest.
        entries = [*((key, marshal.dumps(code)) for key, code in self._codes.items()),
                   *self._stored.items()]
        if not write_sealed(self.path, _header(), marshal.dumps(dict(entries[:MAX_ENTRIES]))):
            return False
        self.misses = 0
        return True

    # --- compiling ---------------------------------------------------------------------

    def compile(self, source: str, filename: str, mode: str) -> CodeType:
        key = _key(source, filename, mode)
        code = self._codes.get(key)
        if code is None and key in self._stored:
            code = _unmarshal(self._stored.pop(key))
            if code is not None:
                self._codes[key] = code
        if code is not None:
            self.hits += 1
            return code
        self.misses += 1
        code = builtins.compile(source, filename, mode)
        self._codes[key] = code
        return code

    def install(self) -> None:
        """Route ``dataclasses``' method source and ``typing.ForwardRef``'s annotation
        source through this cache, until :meth:`uninstall`."""
        import dataclasses
        import typing

        def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
            if isinstance(source, str):
                source = self.compile(source, "<string>", "exec")
            builtins.exec(source, globals, locals)

        def cached_compile(source: Any, filename: Any, mode: str, *args: Any,
                           **kwargs: Any) -> Any:
            if args or kwargs or not isinstance(source, str) or not isinstance(filename, str):
                return builtins.compile(source, filename, mode, *args, **kwargs)
            return self.compile(source, filename, mode)

        self._shadow(dataclasses, "exec", cached_exec)
        self._shadow(typing, "compile", cached_compile)

    def uninstall(self) -> None:
        while self._restore:
            self._restore.pop()()

    def _shadow(self, module: ModuleType, name: str, replacement: Callable[..., Any]) -> None:
        """Give ``module`` a global ``name`` in front of the builtin it looks up."""
        if name in vars(module):  # someone else shadows it already: leave it alone
            return
        setattr(module, name, replacement)
        self._restore.append(lambda: delattr(module, name))


def _header() -> bytes:
    """What the code depends on besides its source: the interpreter and its ``-O`` level
    (``compile`` drops asserts under it)."""
    version = f"{sys.implementation.cache_tag} -O{sys.flags.optimize}\n".encode()
    return _FORMAT + importlib.util.MAGIC_NUMBER + version


def _decode(payload: bytes) -> dict[Key, bytes] | None:
    """The entries of a cache file's payload, still marshalled; None if not usable."""
    try:
        stored = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(stored, dict):
        return None
    return {key: blob for key, blob in stored.items()
            if isinstance(key, bytes) and len(key) == 16 and isinstance(blob, bytes)}


def _unmarshal(blob: bytes) -> CodeType | None:
    try:
        code = marshal.loads(blob)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None
