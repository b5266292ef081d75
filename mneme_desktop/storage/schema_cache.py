"""The campaign file's validator, kept between starts.

Opening a campaign needs the validator of :class:`~mneme_desktop.domain.campaign.Campaign`
(:func:`mneme_desktop.storage.codec.fail_fast_validator`). pydantic builds it from a core
schema it generates in Python, walking ~35 models and their ~240 fields: ~20 ms of every
start, once the domain is imported. The schema it generates is data (dicts, lists, strings,
numbers) apart from references to the domain's own classes, functions and enum members,
and the same code generates the same schema. So it is kept in the cache folder as JSON, the
references written as names, and pydantic-core builds the validator from it again (~1 ms).

Nothing stale is used: the file's key holds the versions of Python, pydantic and
pydantic-core and, for each module of ``mneme_desktop.domain`` and ``mneme_desktop.rules``
(what the schema is generated from), its size and modification time, as Python's own
bytecode cache checks a module's source (a frozen build: the executable's). Nothing in the
file is run: a name is looked up among the classes and functions the domain and rules
modules define (already imported), never imported or evaluated, and the file is checked
against a SHA-256 of its bytes. Anything else (no file, another key, a damaged file, a name
not found) means building the validator as before; a file that cannot be written costs
only speed. The file is replaced whole through :mod:`mneme_desktop.atomicfile`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import FunctionType, MethodType, ModuleType
from typing import Any

import pydantic
import pydantic_core
from pydantic import BaseModel
from pydantic_core import CoreConfig, SchemaValidator

import mneme_desktop.domain
import mneme_desktop.rules
from mneme_desktop.atomicfile import read_sealed, write_sealed
from mneme_desktop.storage import codec

__all__ = ["SchemaCache", "source_stamp"]

log = logging.getLogger(__name__)

_FORMAT = b"mneme-schema-cache-1\n"
_SOURCES: tuple[ModuleType, ...] = (mneme_desktop.domain, mneme_desktop.rules)
_BUILTINS: dict[str, type] = {kind.__name__: kind for kind in (
    list, dict, set, frozenset, tuple, str, int, float, bool, bytes)}
"""Types a schema may name as a default factory."""


def source_stamp() -> bytes:
    """What the domain's schemas are generated from: each module's path, size and
    modification time (a frozen build: the executable's), and the libraries' versions."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (sys.version, pydantic.VERSION, pydantic_core.__version__):
        digest.update(part.encode() + b"\0")
    found = False
    for package in _SOURCES:
        for folder in package.__path__:
            for path in sorted(_python_files(Path(folder))):
                try:
                    status = path.stat()
                except OSError:
                    continue
                found = True
                digest.update(f"{path.relative_to(folder)}\0{status.st_size}\0"
                              f"{status.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
    if not found:  # frozen: the modules are inside the executable
        status = Path(sys.executable).stat()
        digest.update(f"{sys.executable}\0{status.st_size}\0{status.st_mtime_ns}".encode(
            "utf-8", "surrogateescape"))
    return digest.digest()


def _python_files(folder: Path) -> list[Path]:
    found: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        if entry.name.endswith(".py") and entry.is_file():
            found.append(Path(entry.path))
        elif entry.is_dir() and entry.name != "__pycache__":
            found.extend(_python_files(Path(entry.path)))
    return found


# --- schema <-> JSON ---------------------------------------------------------------------


def _own(module: str) -> bool:
    return any(module == package.__name__ or module.startswith(f"{package.__name__}.")
               for package in _SOURCES)


def _name_of(thing: Any) -> str:
    """``module:qualname`` of a class or function the domain or rules define."""
    module, qualname = getattr(thing, "__module__", ""), getattr(thing, "__qualname__", "")
    if not (_own(module) and isinstance(thing, (type, FunctionType)) and
            "<" not in qualname and _named(f"{module}:{qualname}") is thing):
        raise TypeError(f"{thing!r} is not one of the domain's own classes or functions")
    return f"{module}:{qualname}"


def _named(name: str) -> Any:
    """The class or function a :func:`_name_of` name names, among modules already imported;
    nothing is imported or run (a property or descriptor on the way is refused)."""
    module_name, _, qualname = name.partition(":")
    module = sys.modules.get(module_name) if _own(module_name) else None
    if module is None or not qualname:
        raise ValueError(f"no such class or function: {name}")
    found: Any = module
    for part in qualname.split("."):
        holder = vars(found) if isinstance(found, (ModuleType, type)) else {}
        if part.startswith("__") or part not in holder:
            raise ValueError(f"no such class or function: {name}")
        found = holder[part]
    if not isinstance(found, (type, FunctionType)) or found.__module__ != module_name:
        raise ValueError(f"not a class or function defined in {module_name}: {name}")
    return found


def _encode(node: Any) -> Any:
    """``node`` as JSON values; anything but plain data and the domain's own classes,
    functions, class methods and enum members raises TypeError (then nothing is kept)."""
    if node is None or type(node) in (bool, str, int, float):  # not their subclasses (enums)
        return node
    if type(node) is list:
        return [_encode(item) for item in node]
    if type(node) is dict:
        if not all(isinstance(key, str) and not key.startswith("$") for key in node):
            raise TypeError("a dict whose keys are not plain strings")
        return {key: _encode(value) for key, value in node.items()}
    if type(node) in (tuple, set, frozenset):
        return {f"${type(node).__name__}": [_encode(item) for item in node]}
    if type(node) is Fraction:
        return {"$fraction": [node.numerator, node.denominator]}
    if type(node) is Decimal:
        return {"$decimal": str(node)}
    if isinstance(node, Enum):
        return {"$enum": _name_of(type(node)), "value": _encode(node.value)}
    if isinstance(node, MethodType) and isinstance(node.__self__, type):
        name = node.__func__.__name__
        if getattr(node.__self__, name, None) != node:
            raise TypeError(f"{node!r} is not its class's method {name}")
        return {"$method": _name_of(node.__self__), "name": name}
    if isinstance(node, type) and node.__module__ == "builtins":
        if _BUILTINS.get(node.__name__) is not node:
            raise TypeError(f"{node!r} is not a plain type")
        return {"$builtin": node.__name__}
    return {"$ref": _name_of(node)}


def _decode(node: Any) -> Any:
    """The schema :func:`_encode` wrote; ValueError for anything else."""
    if isinstance(node, list):
        return [_decode(item) for item in node]
    if not isinstance(node, dict):
        return node
    tags = [key for key in node if key.startswith("$")]
    if not tags:
        return {key: _decode(value) for key, value in node.items()}
    tag = tags[0]
    value = node[tag]
    if tag in ("$tuple", "$set", "$frozenset") and isinstance(value, list) and len(node) == 1:
        items = [_decode(item) for item in value]
        return tuple(items) if tag == "$tuple" else set(items) if tag == "$set" \
            else frozenset(items)
    if tag == "$fraction" and len(node) == 1 and isinstance(value, list) and len(value) == 2 \
            and all(type(part) is int for part in value) and value[1] > 0:
        return Fraction(value[0], value[1])
    if tag == "$decimal" and len(node) == 1 and isinstance(value, str):
        return Decimal(value)
    if tag == "$builtin" and len(node) == 1 and value in _BUILTINS:
        return _BUILTINS[value]
    if isinstance(value, str):
        if tag == "$ref" and len(node) == 1:
            return _named(value)
        if tag == "$enum" and set(node) == {"$enum", "value"}:
            kind = _named(value)
            if isinstance(kind, type) and issubclass(kind, Enum):
                return kind(_decode(node["value"]))
        if tag == "$method" and set(node) == {"$method", "name"} and \
                isinstance(node["name"], str) and not node["name"].startswith("__"):
            owner = _named(value)
            method = vars(owner).get(node["name"]) if isinstance(owner, type) else None
            if isinstance(method, classmethod):
                return method.__get__(None, owner)
    raise ValueError(f"not a schema value: {tag}")


class SchemaCache:
    """Fail-fast validators of domain models whose schemas are kept in ``path`` (None:
    nothing read or written; validators are built as without a cache)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._stamp: bytes | None = None
        self._read: dict[str, tuple[Any, CoreConfig]] | None = None
        self._new: dict[str, tuple[Any, CoreConfig]] = {}
        self.hits = 0
        self.misses = 0

    def prepare(self, model: type[BaseModel]) -> SchemaValidator:
        """``model``'s fail-fast validator, from the file when it holds one generated from
        the same code; built otherwise (and kept for :meth:`save`). The codec uses it from
        then on."""
        name = f"{model.__module__}.{model.__qualname__}"
        stored = self._stored().get(name)
        if stored is not None:
            try:
                validator = SchemaValidator(*stored)
            except Exception as exc:  # pydantic-core refused it: build instead
                log.info("Ignoring the kept schema of %s: %s", name, exc)
            else:
                self.hits += 1
                return codec.use_fail_fast_validator(model, validator)
        self.misses += 1
        schema, config = codec.fail_fast_schema(model)
        if self.path is not None:
            self._new[name] = (schema, config)
        return codec.use_fail_fast_validator(model, SchemaValidator(schema, config))

    def save(self) -> bool:
        """Write the file if this run built schemas it did not hold; True if written."""
        if self.path is None or not self._new:
            return False
        entries = {**self._stored(), **self._new}
        try:
            payload = json.dumps({"key": self._key().hex(), "entries": {
                name: [_encode(schema), _encode(config)]
                for name, (schema, config) in entries.items()}},
                separators=(",", ":")).encode()
            if _entries(json.loads(payload)) != entries:  # kept only if it reads back the same
                raise ValueError("the schema does not read back as it was")
        except (TypeError, ValueError) as exc:
            log.info("Not keeping the schemas: %s", exc)
            self._new.clear()
            return False
        if not write_sealed(self.path, _FORMAT, payload):
            return False
        self._read = entries
        self._new.clear()
        return True

    def _key(self) -> bytes:
        if self._stamp is None:
            self._stamp = source_stamp()
        return self._stamp

    def _stored(self) -> dict[str, tuple[Any, CoreConfig]]:
        if self._read is None:
            self._read = self._load()
        return self._read

    def _load(self) -> dict[str, tuple[Any, CoreConfig]]:
        if self.path is None:
            return {}
        payload = read_sealed(self.path, _FORMAT)
        if payload is None:
            return {}
        try:
            document = json.loads(payload)
            if not isinstance(document, dict) or document.get("key") != self._key().hex():
                return {}  # made from other code: built again, and written over
            return _entries(document)
        except (TypeError, ValueError, RecursionError) as exc:
            log.info("Ignoring the schema cache %s: %s", self.path, exc)
            return {}


def _entries(document: Any) -> dict[str, tuple[Any, CoreConfig]]:
    """The schemas of a file's document, by model name; ValueError if it is not one."""
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        raise ValueError("no schemas")
    decoded: dict[str, tuple[Any, CoreConfig]] = {}
    for name, entry in entries.items():
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict)):
            raise ValueError(f"not a schema: {name}")
        decoded[name] = (_decode(entry[0]), CoreConfig(**_decode(entry[1])))
    return decoded
