"""PySide6's enums built by the fast builder are the enums the standard path builds."""

from __future__ import annotations

import enum
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mneme_desktop import qt_enums
from tests.qt_enum_probe import describe

REPO = Path(__file__).resolve().parent.parent


def _standard(base: type[enum.Enum], name: str, pairs: list[tuple[str, int]]) -> type:
    create = getattr(enum.EnumType, "_mneme_standard_create_", enum.EnumType._create_)
    built: type = create(base, name, pairs, module=__name__, boundary=enum.KEEP)
    return built


@pytest.mark.skipif(sys.version_info[:2] not in qt_enums.VERIFIED_PYTHONS,
                    reason="the fast builder stays off on this Python")
def test_every_qt_enum_built_fast_behaves_as_the_standard_one() -> None:
    """All ~630 enum classes of QtCore, QtGui and QtWidgets (~6,400 members), in a fresh
    process so PySide6 builds each through the fast builder, compared with the standard
    build of the same members: members, aliases, masks, iteration, lookups, repr, str,
    format, hashing, flag operations."""
    done = subprocess.run([sys.executable, "-m", "tests.qt_enum_probe"], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["active"] is True
    assert report["classes"] > 500 and report["members"] > 5000
    assert report["calls"] == {"fast": report["classes"], "standard": 0}
    assert report["different"] == 0, report["differences"]


@pytest.mark.parametrize("base", [enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag])
def test_the_comparison_sees_a_different_build(base: type[enum.Enum]) -> None:
    """The probe's description tells builds apart: the fast builder's output before its
    fix-up (a property per member in the class) and a build with another member differ."""
    pairs = [("Left", 1), ("Right", 2), ("Both", 3), ("Up", 4)]
    standard = describe(_standard(base, "Side", pairs))
    fast = qt_enums.fast_enum(base, "Side", pairs, __name__, enum.KEEP)
    assert fast is not None
    assert describe(fast) == standard
    raw = enum._simple_enum(base, boundary=enum.KEEP)(  # type: ignore[attr-defined]
        type("Side", (), {"__module__": __name__, **dict(pairs)}))
    assert describe(raw) != standard
    assert describe(_standard(base, "Side", [*pairs[:3], ("Up", 8)])) != standard


def test_only_the_call_pyside_makes_takes_the_fast_builder(monkeypatch) -> None:
    calls: list[str] = []
    fast = qt_enums.fast_enum

    def spy(*args, **kwargs):
        built = fast(*args, **kwargs)
        calls.append("fast" if built is not None else "refused")
        return built

    monkeypatch.setattr(qt_enums, "fast_enum", spy)
    was_installed = qt_enums.installed()
    if not qt_enums.install():
        pytest.skip("the fast builder stays off on this Python")
    try:
        shiboken_like = enum.IntEnum("Shape", [("Round", 1), ("Square", 2)],
                                     boundary=enum.KEEP)
        assert calls == ["fast"] and shiboken_like.Square == 2
        assert shiboken_like.__module__ == __name__  # the caller, as the standard path says
        enum.Enum("Colour", "RED GREEN")  # names as a string
        enum.IntEnum("Size", [("S", 1)])  # no boundary: not PySide6's call
        enum.Flag("Mode", [("A", 1)], boundary=enum.KEEP, module="elsewhere")
        assert calls == ["fast"]
        odd = enum.IntEnum("Odd", [("name", 1), ("value", 2)], boundary=enum.KEEP)
        assert calls == ["fast", "refused"] and odd["value"].value == 2
        with pytest.raises(TypeError):  # the standard refusal, unchanged
            enum.IntEnum("Twice", [("A", 1), ("A", 2)], boundary=enum.KEEP)
    finally:
        if not was_installed:
            qt_enums.uninstall()


def test_unverified_python_keeps_the_standard_path(monkeypatch) -> None:
    was_installed = qt_enums.installed()
    qt_enums.uninstall()
    try:
        monkeypatch.setattr(qt_enums, "VERIFIED_PYTHONS", frozenset())
        assert qt_enums.install() is False
        assert not qt_enums.installed()
        assert "_create_" in vars(enum.EnumType)
    finally:
        monkeypatch.undo()
        if was_installed:
            qt_enums.install()
