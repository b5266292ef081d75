"""Start-up time: interpreter start to the first painted main window, and to the sample
campaign fully shown, against a bare PySide6 window with one table that imports nothing of
ours, measured in the same run.

Run: ``python3 benchmarks/bench_startup.py [--runs N]``

Each start is a fresh interpreter (``QT_QPA_PLATFORM=offscreen``, its own empty settings,
data and log folders, so every start is a first run that opens the sample). The parent
notes the wall clock just before it starts the child; the child prints the wall clock at
the first Paint event of its main window, and again once the window is fully shown (the
event queue drained after that paint, then a synchronous repaint of the whole window). The
median of N runs of each is reported, and the ratios to the bare window. Goals: first paint
under 1.5x the bare window, fully shown under 2.5x. Starts run with bytecode present (a
warm-up start writes it), as every pip or PyInstaller install has it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRST_PAINT_GOAL = 1.5
FULLY_SHOWN_GOAL = 2.5

# Shared by both children: report the first paint of the main window, then "fully shown".
# Not an application event filter: a Python filter sees events for Qt's private objects
# (QGestureManager, made with the first scroll area), and PySide6 answers an unknown class
# by creating every lazily made class of its modules, 170 enum classes or ~36 ms, which
# neither a bare window nor the app pays at that moment without the probe.
_PROBE = textwrap.dedent(
    """
    import time
    from PySide6.QtCore import QObject, QTimer

    class _Probe(QObject):
        def __init__(self, app, is_ready):
            super().__init__()
            self.app, self.is_ready, self.window = app, is_ready, None

        def painted(self, window):
            if self.window is None:
                self.window = window
                print("first_paint", time.time(), flush=True)
                QTimer.singleShot(0, self.finish)

        def finish(self):
            if not self.is_ready(self.window):
                QTimer.singleShot(1, self.finish)
                return
            self.app.processEvents()
            self.window.repaint()
            print("fully_shown", time.time(), flush=True)
            self.app.quit()
    """
)

BARE = _PROBE + textwrap.dedent(
    """
    import sys
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableWidget, QTableWidgetItem

    class Window(QMainWindow):
        def paintEvent(self, event):
            super().paintEvent(event)
            probe.painted(self)

    app = QApplication(sys.argv[:1])
    probe = _Probe(app, lambda window: True)
    window = Window()
    window.setWindowTitle("Bare")
    table = QTableWidget(20, 6)
    for row in range(20):
        for column in range(6):
            table.setItem(row, column, QTableWidgetItem(f"{row}, {column}"))
    window.setCentralWidget(table)
    window.resize(1280, 820)
    window.show()
    sys.exit(app.exec())
    """
)

# The installed script imports mneme_desktop.app before anything of Qt, so its modules are
# not put through PySide6's source check for newly imported modules: import it first here too.
# The main window's module is imported where the app imports it; the probe wraps the
# window's paintEvent as that import finishes.
APP = "from mneme_desktop.app import main  # the real entry point\n" + _PROBE + textwrap.dedent(
    """
    import importlib.abc
    import importlib.machinery
    import sys
    from PySide6.QtWidgets import QApplication

    def ready(window):
        document = getattr(window, "document", None)
        sheet = getattr(window, "sheet_view", None)
        return (document is not None and sheet is not None and sheet.isVisible()
                and bool(sheet.title_label.text()))

    def wrap_paint(module):
        window_class = module.MainWindow
        original = window_class.paintEvent

        def paintEvent(self, event):
            original(self, event)
            probe.painted(self)

        window_class.paintEvent = paintEvent

    class _WhenImported(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "mneme_desktop.ui.main_window":
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            loader = spec.loader
            run = loader.exec_module

            def exec_module(module):
                run(module)
                wrap_paint(module)

            loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _WhenImported())
    app = QApplication(sys.argv[:1])
    probe = _Probe(app, ready)
    sys.exit(main([]))
    """
)


@dataclass(frozen=True)
class Start:
    first_paint: float
    fully_shown: float


def start_once(script: str, cache: str | None = None) -> Start:
    """One fresh interpreter: seconds from launch to first paint and to fully shown.

    ``cache``: the cache folder to use (kept between starts, as a user's is); None: an
    empty one, as at the first start after installing."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO),
               "HOME": home, "XDG_CONFIG_HOME": f"{home}/config",
               "XDG_DATA_HOME": f"{home}/data", "XDG_STATE_HOME": f"{home}/state",
               "XDG_CACHE_HOME": cache or f"{home}/cache"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode written and used
        launched = time.time()
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, timeout=120, check=False)
    marks = dict(line.split() for line in done.stdout.splitlines() if line.count(" ") == 1)
    if done.returncode != 0 or "fully_shown" not in marks:
        raise RuntimeError(f"the child failed ({done.returncode}): {done.stderr[-2000:]}")
    return Start(float(marks["first_paint"]) - launched, float(marks["fully_shown"]) - launched)


@dataclass(frozen=True)
class StartupResult:
    bare: Start
    app: Start
    first_start: Start
    runs: int

    @property
    def first_paint_ratio(self) -> float:
        return self.app.first_paint / self.bare.first_paint

    @property
    def fully_shown_ratio(self) -> float:
        return self.app.fully_shown / self.bare.fully_shown


def measure(runs: int = 7) -> StartupResult:
    """Medians of ``runs`` starts of each, interleaved so machine noise hits all alike."""
    # Warm-up starts: they fill the file cache for Qt's libraries, write the bytecode of
    # every module a start imports, as pip and PyInstaller installs have it, and the app's
    # cache folder (mneme_desktop.code_cache), as any earlier start has it; the measured
    # starts then run as users run the app. Settings and data stay new at every start, so
    # each one opens the sample. "first start" has an empty cache folder each time.
    with tempfile.TemporaryDirectory() as cache:
        start_once(BARE, cache)
        start_once(APP, cache)
        bare: list[Start] = []
        app: list[Start] = []
        first: list[Start] = []
        for _ in range(runs):
            bare.append(start_once(BARE, cache))
            app.append(start_once(APP, cache))
            first.append(start_once(APP))

    def median(starts: list[Start]) -> Start:
        return Start(statistics.median(s.first_paint for s in starts),
                     statistics.median(s.fully_shown for s in starts))

    return StartupResult(median(bare), median(app), median(first), runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    result = measure(args.runs)
    print(f"median of {result.runs} starts each (seconds from launching the interpreter)")
    print(f"{'':<28}{'first paint':>12}{'fully shown':>13}")
    print(f"{'bare PySide6 window':<28}{result.bare.first_paint:>12.3f}"
          f"{result.bare.fully_shown:>13.3f}")
    print(f"{'Mneme Desktop, sample':<28}{result.app.first_paint:>12.3f}"
          f"{result.app.fully_shown:>13.3f}")
    print(f"{'first start (no cache)':<28}{result.first_start.first_paint:>12.3f}"
          f"{result.first_start.fully_shown:>13.3f}")
    print(f"{'ratio (goal)':<28}{result.first_paint_ratio:>7.2f}x (<{FIRST_PAINT_GOAL})"
          f"{result.fully_shown_ratio:>6.2f}x (<{FULLY_SHOWN_GOAL})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
