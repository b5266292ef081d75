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
