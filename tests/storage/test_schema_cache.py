"""The campaign validator's schema kept between starts (``storage/schema_cache.py``): used
only when made from the same code, read back safely, rebuilt whenever anything is off."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import types
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic_core import SchemaValidator

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Campaign
from mneme_desktop.paths import AppPaths
from mneme_desktop.storage import codec, schema_cache
from mneme_desktop.storage.sample import sample_campaign_path
from mneme_desktop.storage.schema_cache import SchemaCache, source_stamp


def _written(tmp_path: Path) -> Path:
    path = tmp_path / "schemas.bin"
    cache = SchemaCache(path)
    cache.prepare(Campaign)
    assert (cache.hits, cache.misses) == (0, 1)
    assert cache.save()
    return path


def test_a_second_start_uses_the_kept_schema_and_it_is_the_one_pydantic_generates(
        tmp_path: Path) -> None:
    path = _written(tmp_path)
    again = SchemaCache(path)
    again.prepare(Campaign)
    assert (again.hits, again.misses) == (1, 0)
    assert not again.save()  # nothing new: not written again
    kept_schema, kept_config = again._stored()[f"{Campaign.__module__}.Campaign"]
    schema, config = codec.fail_fast_schema(Campaign)
    assert kept_schema == schema and kept_config == config  # validators compared by identity
    raw = sample_campaign_path().read_bytes()
    kept = SchemaValidator(kept_schema, kept_config).validate_json(raw)
    built = SchemaValidator(schema, config).validate_json(raw)
    assert isinstance(kept, Campaign) and kept == built


def test_the_kept_schema_refuses_what_the_built_one_refuses(tmp_path: Path) -> None:
    kept_schema, kept_config = SchemaCache(_written(tmp_path))._stored()[
        f"{Campaign.__module__}.Campaign"]
    kept = SchemaValidator(kept_schema, kept_config)
    bad = b'{"format": "mneme-campaign", "schema_version": 1, "name": "x", "extra": 1}'
    with pytest.raises(ValueError) as from_kept:
        kept.validate_json(bad)
    with pytest.raises(ValueError) as from_built:
        codec.fail_fast_validator(Campaign).validate_json(bad)
    assert str(from_kept.value) == str(from_built.value)


def test_a_schema_made_from_other_code_is_not_used_and_is_written_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _written(tmp_path)
    monkeypatch.setattr(schema_cache, "source_stamp", lambda: b"another version".ljust(16))
    other = SchemaCache(path)
    other.prepare(Campaign)
    assert (other.hits, other.misses) == (0, 1)
    assert other.save()
    monkeypatch.undo()
    assert SchemaCache(path)._stored() == {}  # now keyed to the other code


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "foreign"])
def test_a_damaged_or_foreign_file_means_building_as_before(tmp_path: Path,
                                                            damage: str) -> None:
    path = _written(tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        del data[len(data) // 2:]
    elif damage == "empty":
        data.clear()
    else:
        data[:10] = b"not-ours!\n"
    path.write_bytes(bytes(data))
    cache = SchemaCache(path)
    cache.prepare(Campaign)
    assert (cache.hits, cache.misses) == (0, 1)
    assert cache.save() and SchemaCache(path)._stored()  # mended


def test_a_file_naming_anything_but_the_domain_is_refused(tmp_path: Path) -> None:
    """Checksummed but naming ``os.getcwd``: names are looked up only among the classes and
    functions the domain and rules define, so nothing else is reached or run."""
    schema = {"type": "function-plain", "function": {"type": "no-info",
                                                     "function": {"$ref": "os:getcwd"}}}
    payload = json.dumps({"key": source_stamp().hex(), "entries": {
        f"{Campaign.__module__}.Campaign": [schema, {}]}}).encode()
    path = tmp_path / "schemas.bin"
    path.write_bytes(schema_cache._FORMAT + hashlib.sha256(payload).digest() + payload)
    cache = SchemaCache(path)
    assert cache._stored() == {}
    cache.prepare(Campaign)
    assert cache.misses == 1


@pytest.mark.parametrize("name", [
    "os:system",  # not the domain's
    "mneme_desktop.domain.character:uuid4",  # imported there, not defined there
    "mneme_desktop.domain.campaign:Campaign.__init__",  # no dunder walks
    "mneme_desktop.domain.campaign:Campaign.__globals__",
    "mneme_desktop.domain.campaign:SCHEMA_VERSION",  # not a class or function
    "mneme_desktop.domain.no_such_module:Thing",  # nothing is imported
    "mneme_desktop.domain.campaign:",
])
def test_names_outside_the_domains_own_classes_and_functions_are_not_resolved(
        name: str) -> None:
    with pytest.raises(ValueError):
        schema_cache._named(name)


def test_the_domains_own_names_resolve() -> None:
    assert schema_cache._named("mneme_desktop.domain.campaign:Campaign") is Campaign
    character = importlib.import_module("mneme_desktop.domain.character")
    assert schema_cache._named("mneme_desktop.domain.character:new_id") is character.new_id


@pytest.mark.parametrize("value", [
    (1, "a"), frozenset({1}), {2}, Fraction(1, 3), Decimal("1.50"), [None, True, 2.5, -0.0],
    {"nested": [(1,), {"x": Fraction(2, 1)}]},
])
def test_plain_values_read_back_exactly(value: object) -> None:
    back = schema_cache._decode(json.loads(json.dumps(schema_cache._encode(value))))
    assert back == value and type(back) is type(value)


@pytest.mark.parametrize("value", [object(), os.getcwd, {1: "int key"}, {"$ref": "x"},
                                   lambda: None, b"bytes"])
def test_anything_else_is_not_kept(value: object) -> None:
    with pytest.raises(TypeError):
        schema_cache._encode(value)


def test_an_unwritable_cache_folder_costs_only_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = SchemaCache(blocker / "schemas.bin")  # its folder is a file
    cache.prepare(Campaign)
    assert not cache.save()


def test_without_a_path_nothing_is_read_or_written(tmp_path: Path) -> None:
    cache = SchemaCache(None)
    cache.prepare(Campaign)
    assert cache.misses == 1 and not cache.save()
    assert list(tmp_path.iterdir()) == []


def test_the_stamp_follows_each_source_file(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    package = types.ModuleType("fake")
    package.__path__ = [str(tmp_path)]  # type: ignore[attr-defined]
    (tmp_path / "sub").mkdir()
    module = tmp_path / "sub" / "models.py"
    module.write_text("x = 1\n")
    monkeypatch.setattr(schema_cache, "_SOURCES", (package,))
    first = source_stamp()
    assert source_stamp() == first
    module.write_text("x = 22\n")  # another size
    assert source_stamp() != first
    second = source_stamp()
    stat = module.stat()
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert source_stamp() != second
    (tmp_path / "sub" / "__pycache__").mkdir()
    (tmp_path / "sub" / "__pycache__" / "models.cpython-311.pyc").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a module")
    third = source_stamp()
    assert third == source_stamp()  # bytecode and other files do not count


def test_a_frozen_build_is_stamped_by_its_executable(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    package = types.ModuleType("fake")
    package.__path__ = [str(tmp_path / "inside-the-executable")]  # type: ignore[attr-defined]
    monkeypatch.setattr(schema_cache, "_SOURCES", (package,))
    executable = tmp_path / "mneme-desktop"
    executable.write_bytes(b"v1")
    monkeypatch.setattr(schema_cache.sys, "executable", str(executable))
    first = source_stamp()
    executable.write_bytes(b"v2 longer")
    assert source_stamp() != first


def test_the_context_keeps_the_schema_in_the_cache_folder(tmp_path: Path) -> None:
    paths = AppPaths.under(tmp_path)
    context = AppContext.create(paths)
    context.schema_cache.prepare(Campaign)
    assert context.schema_cache.save()
    assert (paths.cache_dir / "schemas.bin").is_file()
    later = AppContext.create(paths)
    later.schema_cache.prepare(Campaign)
    assert later.schema_cache.hits == 1
    smoke = AppContext.create(AppPaths.under(tmp_path / "smoke"), smoke_test=True)
    smoke.schema_cache.prepare(Campaign)
    assert not smoke.schema_cache.save()
