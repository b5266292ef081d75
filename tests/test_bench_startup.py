"""``benchmarks/bench_startup.py`` runs as documented (a measurement, not a speed test):
without ``--frozen`` it prints the source rows only, and the measured start reopens the
sample an earlier start of the same folders installed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def bench_startup(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_startup

    yield bench_startup
    sys.modules.pop("bench_startup", None)


def test_one_run_from_source_prints_its_rows(bench_startup: ModuleType, capsys) -> None:
    assert bench_startup.main(["--runs", "1"]) == 0
    out = capsys.readouterr().out
    for row in ("bare PySide6 window", "Mneme Desktop, sample", "first start after install",
                "ratio (goal)"):
        assert row in out
    assert "frozen" not in out


def test_the_measured_start_is_the_second_in_its_folders(bench_startup: ModuleType,
                                                       monkeypatch) -> None:
    homes: list[str] = []

    def fake_run(command, env, home):
        homes.append(home)
        return {"first_paint": "1", "fully_shown": "2"}

    monkeypatch.setattr(bench_startup, "_run", fake_run)
    bench_startup.start_once(bench_startup.APP, "/some/cache")
    assert len(homes) == 2 and homes[0] == homes[1]
    homes.clear()
    bench_startup.start_once(bench_startup.APP)  # the first start after installing
    assert len(homes) == 1


def test_instruction_rows_say_when_valgrind_is_missing(bench_startup: ModuleType,
                                                      monkeypatch) -> None:
    monkeypatch.setattr(bench_startup.shutil, "which", lambda name: None)
    assert bench_startup.instruction_rows(frozen=True) == [
        "instructions: not measured: valgrind is not installed"]


def test_instruction_rows_compare_each_start_with_its_bare_window(bench_startup: ModuleType,
                                                                 monkeypatch) -> None:
    counted: list[tuple[str, ...]] = []
    counts = {bench_startup.BARE: 700e6, bench_startup.APP: 1750e6,
              bench_startup.FROZEN_BARE: 750e6, bench_startup.FROZEN_APP: 1950e6}

    def fake_count(command, cache):
        counted.append(tuple(command))
        return int(counts[tuple(command)])

    monkeypatch.setattr(bench_startup.shutil, "which", lambda name: "/usr/bin/valgrind")
    monkeypatch.setattr(bench_startup, "count_instructions", fake_count)
    rows = bench_startup.instruction_rows(frozen=True)
    assert counted == [bench_startup.BARE, bench_startup.APP, bench_startup.FROZEN_BARE,
                       bench_startup.FROZEN_APP]
    assert rows[0].startswith("instructions to exit") and rows[0].endswith("2.50x")
    assert rows[1].startswith("frozen instructions to exit") and rows[1].endswith("2.60x")
    assert "1,750 M ours" in rows[0]


def test_callgrind_counts_of_every_process_are_added(bench_startup: ModuleType,
                                                     monkeypatch) -> None:
    """The frozen bundle's bootloader starts the app as a child: both counts make the start."""
    class Done:
        returncode = 0
        stderr = ("==1== Collected : 1,000\n==2== Collected : 2,500,000\n")

    monkeypatch.setattr(bench_startup, "_run", lambda command, env, home: {})
    monkeypatch.setattr(bench_startup.subprocess, "run", lambda *a, **k: Done())
    assert bench_startup.count_instructions(("app",), "/cache") == 2_501_000
    Done.returncode = 1
    with pytest.raises(RuntimeError, match="callgrind of app failed"):
        bench_startup.count_instructions(("app",), "/cache")
