"""Start-up time: launch to the first painted main window, and to the sample campaign fully
shown, against a bare PySide6 window with one table that imports nothing of ours, measured
in the same run; from source, and frozen against frozen when the bundles are built.

Run: ``python3 benchmarks/bench_startup.py [--runs N] [--frozen]``

Each start is a fresh process (``QT_QPA_PLATFORM=offscreen``, its own settings and data
folders) started with ``MNEME_DESKTOP_STARTUP_REPORT=1``: the app
(``mneme_desktop.ui.startup_report``) and the bare window (``packaging/bare_window.py``) then
print the wall clock at their main window's first paint, and again once fully shown (for the
app: the sample's first sheet built and current; then, for both, the event queue drained
and a synchronous repaint of the whole window), and quit. The parent notes the wall clock
just before it starts the child. Nothing is injected into the child, so each runs exactly
as a user's start would.

Measured as users start the app: with bytecode present (a warm-up start writes it), as
every pip or PyInstaller install has it; with the app's cache folder a previous start
filled (the compiled dataclass methods of ``mneme_desktop.code_cache``); and with settings
and data folders an earlier start of the same program left, so the app reopens the sample
that start installed, as its last campaign (every start but the first after installing).
The "first start" row has empty settings, data and cache folders each time: the sample is
copied in and the cache folder filled, as once after installing. ``--frozen`` adds the
bundles ``packaging/build.py --bare-window`` builds: the frozen app against the frozen bare
window. Goals: first paint under 1.5x the bare window, fully shown under 2.5x.

``--instructions`` adds a figure the machine's noise cannot move: the instructions each
start executes, counted by ``valgrind --tool=callgrind`` (one start each, the same folders
as the measured start, to the process's exit, children included for the frozen bundles'
bootloader). It counts work, not waiting: page faults, file reads and cache misses are not
in it, so its ratio runs below the wall-clock one; use it to compare two trees, and the
wall clock for the goal.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRST_PAINT_GOAL = 1.5
FULLY_SHOWN_GOAL = 2.5
REPORT = "MNEME_DESKTOP_STARTUP_REPORT"

BARE = (sys.executable, str(REPO / "packaging" / "bare_window.py"))
APP = (sys.executable, "-m", "mneme_desktop")
FROZEN_BARE = (str(REPO / "packaging" / "dist" / "bare-window" / "bare-window"),)
FROZEN_APP = (str(REPO / "packaging" / "dist" / "mneme-desktop" / "mneme-desktop"),)


@dataclass(frozen=True)
class Start:
    first_paint: float
    fully_shown: float


def start_once(command: Sequence[str], cache: str | None = None) -> Start:
    """One fresh process: seconds from launch to first paint and to fully shown.

    ``cache``: the cache folder to use (kept between starts, as a user's is), and the start
    measured is the second in its own settings and data folders (the first, not measured,
    leaves them as a user's earlier start would); None: one start with empty folders, as
    the first start after installing."""
    with tempfile.TemporaryDirectory() as home:
        env = _start_env(home, cache or f"{home}/cache")
        if cache is not None:
            _run(command, env, home)
        launched = time.time()
        marks = _run(command, env, home)
    return Start(float(marks["first_paint"]) - launched, float(marks["fully_shown"]) - launched)


def _start_env(home: str, cache: str) -> dict[str, str]:
    """A start's environment: offscreen, the report asked for, its own folders under
    ``home`` and the cache folder ``cache``, bytecode written and used as installed."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO),
           REPORT: "1", "HOME": home, "XDG_CONFIG_HOME": f"{home}/config",
           "XDG_DATA_HOME": f"{home}/data", "XDG_STATE_HOME": f"{home}/state",
           "XDG_CACHE_HOME": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(command: Sequence[str], env: dict[str, str], home: str) -> dict[str, str]:
    """Start ``command`` once; its timing marks."""
    done = subprocess.run(list(command), env=env, capture_output=True, text=True,
                          timeout=120, check=False, cwd=home)
    marks = dict(line.split() for line in done.stdout.splitlines() if line.count(" ") == 1)
    if done.returncode != 0 or "fully_shown" not in marks:
        raise RuntimeError(f"{command[-1]} failed ({done.returncode}): {done.stderr[-2000:]}")
    return marks


@dataclass(frozen=True)
class StartupResult:
    bare: Start
    app: Start
    first_start: Start
    runs: int
    frozen_bare: Start | None = None
    frozen_app: Start | None = None

    @property
    def first_paint_ratio(self) -> float:
        return self.app.first_paint / self.bare.first_paint

    @property
    def fully_shown_ratio(self) -> float:
        return self.app.fully_shown / self.bare.fully_shown


def frozen_built() -> bool:
    return all(Path(command[0]).is_file() for command in (FROZEN_BARE, FROZEN_APP))


def measure(runs: int = 7, *, frozen: bool = False) -> StartupResult:
    """Medians of ``runs`` starts of each, interleaved so machine noise hits all alike."""
    # Warm-up starts: they fill the file cache for Qt's libraries, write the bytecode of
    # every module a start imports, and the app's cache folder, as earlier starts have them.
    commands = {"bare": BARE, "app": APP}
    if frozen:
        commands |= {"frozen_bare": FROZEN_BARE, "frozen_app": FROZEN_APP}
    starts: dict[str, list[Start]] = {name: [] for name in [*commands, "first"]}
    with tempfile.TemporaryDirectory() as cache:
        for command in commands.values():
            start_once(command, cache)
        for _ in range(runs):
            for name, command in commands.items():
                starts[name].append(start_once(command, cache))
            starts["first"].append(start_once(APP))

    def median(name: str) -> Start | None:
        if not starts.get(name):
            return None
        return Start(statistics.median(s.first_paint for s in starts[name]),
                     statistics.median(s.fully_shown for s in starts[name]))

    bare, app, first = median("bare"), median("app"), median("first")
    assert bare is not None and app is not None and first is not None
    return StartupResult(bare, app, first, runs, median("frozen_bare"), median("frozen_app"))


def count_instructions(command: Sequence[str], cache: str) -> int:
    """Instructions one start of ``command`` executes, under callgrind, in folders an
    earlier start left (as the measured start's), to the process's exit."""
    with tempfile.TemporaryDirectory() as home:
        env = _start_env(home, cache)
        _run(command, env, home)
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--trace-children=yes",
             f"--callgrind-out-file={home}/callgrind.%p", *command],
            env=env, capture_output=True, text=True, timeout=600, check=False, cwd=home)
    counts = [int(n.replace(",", "")) for n in re.findall(r"Collected\s*:\s*([\d,]+)",
                                                           done.stderr)]
    if done.returncode != 0 or not counts:
        raise RuntimeError(f"callgrind of {command[-1]} failed ({done.returncode}): "
                           f"{done.stderr[-2000:]}")
    return sum(counts)


def instruction_rows(frozen: bool) -> list[str]:
    """The instruction counts of the bare window and the app (and the bundles), or a line
    saying why they were not measured."""
    if shutil.which("valgrind") is None:
        return ["instructions: not measured: valgrind is not installed"]
    pairs = [("", BARE, APP)]
    if frozen:
        pairs.append(("frozen ", FROZEN_BARE, FROZEN_APP))
    lines = []
    with tempfile.TemporaryDirectory() as cache:
        for label, bare, app in pairs:
            bare_count = count_instructions(bare, cache)
            app_count = count_instructions(app, cache)
            lines.append(f"{label + 'instructions to exit':<28}"
                         f"{bare_count / 1e6:>7,.0f} M bare{app_count / 1e6:>7,.0f} M ours"
                         f"{app_count / bare_count:>7.2f}x")
    return lines


def _row(label: str, start: Start) -> str:
    return f"{label:<28}{start.first_paint:>12.3f}{start.fully_shown:>13.3f}"


def _ratios(label: str, ours: Start, bare: Start) -> str:
    return (f"{label:<28}{ours.first_paint / bare.first_paint:>7.2f}x (<{FIRST_PAINT_GOAL})"
            f"{ours.fully_shown / bare.fully_shown:>6.2f}x (<{FULLY_SHOWN_GOAL})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--frozen", action="store_true",
                        help="also the frozen app against the frozen bare window (built by "
                        "packaging/build.py --bare-window)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each start's instructions under valgrind (noise-free; "
                        "~1 minute)")
    args = parser.parse_args(argv)
    if args.frozen and not frozen_built():
        print("bench_startup: build the bundles first: python packaging/build.py --bare-window",
              file=sys.stderr)
        return 1
    result = measure(args.runs, frozen=args.frozen)
    print(f"median of {result.runs} starts each (seconds from launching the process)")
    print(f"{'':<28}{'first paint':>12}{'fully shown':>13}")
    print(_row("bare PySide6 window", result.bare))
    print(_row("Mneme Desktop, sample", result.app))
    print(_row("first start after install", result.first_start))
    print(_ratios("ratio (goal)", result.app, result.bare))
    if result.frozen_bare is not None and result.frozen_app is not None:
        print(_row("frozen bare window", result.frozen_bare))
        print(_row("frozen Mneme Desktop", result.frozen_app))
        print(_ratios("frozen ratio (goal)", result.frozen_app, result.frozen_bare))
    if args.instructions:
        for line in instruction_rows(args.frozen):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
