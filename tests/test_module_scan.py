"""PySide6's "does this module use PySide6?" answered from the kept table."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from mneme_desktop.module_scan import ModuleScan


def _module(path: Path) -> types.ModuleType:
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    return module


def _never(module: types.ModuleType) -> bool:
    raise AssertionError(f"PySide6's own check asked about {module.__name__}")


def test_answers_are_kept_and_read_again_only_when_the_file_changed(tmp_path: Path) -> None:
    uses = tmp_path / "uses.py"
    uses.write_text("from PySide6.QtCore import Qt\n", encoding="utf-8")
    pure = tmp_path / "pure.py"
    pure.write_text("import json\n", encoding="utf-8")
    table = tmp_path / "cache" / "module-scan.bin"

    first = ModuleScan(table)
    assert first.load() == 0
    assert first.uses_pyside(_module(uses), _never) is True
    assert first.uses_pyside(_module(pure), _never) is False
    assert first.reads == 2 and first.save()
    assert not first.save()  # nothing new since

    second = ModuleScan(table)
    assert second.load() == 2
    assert second.uses_pyside(_module(uses), _never) is True
    assert second.uses_pyside(_module(pure), _never) is False
    assert (second.reads, second.kept) == (0, 2)

    pure.write_text("import json  # now with PySide6 in a comment\n", encoding="utf-8")
    assert second.uses_pyside(_module(pure), _never) is True  # size changed: read again
    stamp = uses.stat()
    uses.write_text("from PySide2.QtCore import Qt\n", encoding="utf-8")  # same size
    os.utime(uses, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    assert second.uses_pyside(_module(uses), _never) is False  # newer: read again
    assert second.reads == 2


def test_modules_without_a_source_file_get_pysides_own_answer(tmp_path: Path) -> None:
    asked: list[str] = []

    def upstream(module: types.ModuleType) -> bool:
        asked.append(module.__name__)
        return False

    scan = ModuleScan(None)
    built_in = types.ModuleType("builtin_like")
    compiled = _module(tmp_path / "ext.so")
    gone = _module(tmp_path / "gone.py")
    assert not scan.uses_pyside(built_in, upstream)
    assert not scan.uses_pyside(compiled, upstream)
    assert not scan.uses_pyside(gone, upstream)
    assert asked == ["builtin_like", "ext", "gone"]
    assert not scan.save()  # no file to write to


def test_a_damaged_or_foreign_table_means_reading_the_files(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("x = 1\n", encoding="utf-8")
    table = tmp_path / "module-scan.bin"
    scan = ModuleScan(table)
    scan.uses_pyside(_module(source), _never)
    assert scan.save()
    data = bytearray(table.read_bytes())
    data[-3] ^= 0xFF
    table.write_bytes(bytes(data))
    damaged = ModuleScan(table)
    assert damaged.load() == 0
    assert damaged.uses_pyside(_module(source), _never) is False and damaged.reads == 1
    table.write_bytes(b"something else entirely")
    assert ModuleScan(table).load() == 0


def test_an_unwritable_cache_folder_costs_only_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    source = tmp_path / "m.py"
    source.write_text("x = 1\n", encoding="utf-8")
    scan = ModuleScan(blocker / "module-scan.bin")
    assert scan.uses_pyside(_module(source), _never) is False
    assert scan.save() is False


class PyiFrozenLoader:
    """Stands in for PyInstaller's loader of a bundle's archive (matched by class name)."""

    def __init__(self, source: str | Exception | None) -> None:
        self.source = source

    def get_source(self, name: str) -> str | None:
        if isinstance(self.source, Exception):
            raise self.source
        return self.source


def _bundled(tmp_path: Path, name: str, source: str | Exception | None) -> types.ModuleType:
    module = _module(tmp_path / "_internal" / f"{name}.py")  # no such file, as in a bundle
    module.__loader__ = PyiFrozenLoader(source)
    return module


def test_bundled_modules_get_the_answer_pysides_check_reaches_without_its_look_ups(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import PySide6  # noqa: F401 - its check is the reference

    upstream = sys.modules["shibokensupport.feature"]._mod_uses_pyside
    upstream = getattr(upstream, "upstream", upstream)
    modules = [_bundled(tmp_path, "uses", "from PySide6.QtCore import Qt\n"),
               _bundled(tmp_path, "pure", "import json\n"),
               _bundled(tmp_path, "nosource", None),
               _bundled(tmp_path, "broken", ImportError("no archive"))]
    expected = [bool(upstream(module)) for module in modules]
    assert expected == [True, False, False, False]

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    scan = ModuleScan(None)
    assert [scan.uses_pyside(module, _never) for module in modules] == expected
    assert (scan.bundled, scan.reads) == (4, 0)

    monkeypatch.delattr(sys, "frozen")  # the same modules outside a bundle: PySide6's check
    asked: list[str] = []
    scan.uses_pyside(modules[0], lambda module: asked.append(module.__name__))
    assert asked == ["uses"]
