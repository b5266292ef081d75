"""The whole performance suite in one command, printed as one table.

Run: ``python3 benchmarks/run_all.py [--quick]``

Every figure is a ratio to a baseline measured in the same run on the same machine (a bare
PySide6 window, plain ``json``, a plain Qt table or PDF of the same size), so the table
means the same on a fast laptop and on a busy CI runner. A part whose code cannot be
imported yet is reported as such in its row, never as a number.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]


@dataclass(frozen=True)
class Row:
    """One line of the table: our figure, the baseline's, their ratio and the goal."""

    what: str
    ours: str
    baseline: str
    ratio: str
    goal: str
    verdict: str


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def _row(what: str, ours: float, baseline: float, baseline_name: str,
         goal: float | None) -> Row:
    ratio = ours / baseline
    verdict = "-" if goal is None else ("ok" if ratio < goal else "OVER")
    return Row(what, _seconds(ours), f"{_seconds(baseline)} ({baseline_name})",
               f"{ratio:.2f}x", "-" if goal is None else f"< {goal}x", verdict)


def _missing(what: str, exc: BaseException) -> Row:
    reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:90]
    return Row(what, f"not measured: {reason}", "-", "-", "-", "MISSING")


def _best(runs: int, job: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - started)
    return best


def _median(runs: int, job: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# --- the parts --------------------------------------------------------------------------------


def startup(runs: int) -> list[Row]:
    """From source; frozen against frozen too when ``packaging/build.py --bare-window`` has
    built the bundles."""
    from bench_startup import FIRST_PAINT_GOAL, FULLY_SHOWN_GOAL, frozen_built, measure

    result = measure(runs, frozen=frozen_built())
    rows = [
        _row("Start to first painted main window", result.app.first_paint,
             result.bare.first_paint, "bare window", FIRST_PAINT_GOAL),
        _row("Start to sample campaign fully shown", result.app.fully_shown,
             result.bare.fully_shown, "bare window", FULLY_SHOWN_GOAL),
        _row("Fully shown, first start (empty folders)", result.first_start.fully_shown,
             result.bare.fully_shown, "bare window", None),
    ]
    if result.frozen_app is not None and result.frozen_bare is not None:
        rows += [
            _row("Frozen: start to first painted window", result.frozen_app.first_paint,
                 result.frozen_bare.first_paint, "frozen bare window", FIRST_PAINT_GOAL),
            _row("Frozen: start to sample fully shown", result.frozen_app.fully_shown,
                 result.frozen_bare.fully_shown, "frozen bare window", FULLY_SHOWN_GOAL),
        ]
    return rows


def storage(runs: int) -> list[Row]:
    """Load against ``json.loads`` of the same file with the garbage collector paused, as
    our loader pauses it; save against the compact C encoder plus write and fsync."""
    from bench_storage import build_campaign, compact_json, gc_paused, write_and_fsync

    from mneme_desktop.storage import (
        KnownContents,
        campaign_to_json,
        load_campaign,
        load_campaign_file,
        save_campaign,
    )

    campaign = build_campaign(1000)
    data = campaign_to_json(campaign)
    document = json.loads(data)
    with tempfile.TemporaryDirectory() as folder:
        path, plain = Path(folder) / "bench.mneme", Path(folder) / "plain.json"
        known = KnownContents(Path(folder) / "known-contents.json")  # as the app keeps it
        save_campaign(campaign, path, known=known)
        plain.write_bytes(data)  # the very same bytes
        opened = load_campaign_file(path, known=known)
        last_hash = [opened.content_hash]
        edited = iter(range(10**6))

        def plain_save() -> None:
            write_and_fsync(plain, compact_json(document))

        def our_save() -> None:
            """As the app saves after an edit: one sheet changed since the last save,
            checked against the hash the file was opened with, 5 backups."""
            opened.campaign.characters[next(edited) % 1000].notes += "."
            last_hash[0] = save_campaign(opened.campaign, path, backups=5,
                                         expected_hash=last_hash[0],
                                         verified=opened.verified, known=known)

        load = _best(runs, lambda: load_campaign_file(path, known=known))
        load_json = _best(runs, gc_paused(lambda: json.loads(plain.read_bytes())))
        save = _best(runs, our_save)
        save_json = _best(runs, plain_save)
        foreign = _best(runs, lambda: load_campaign(plain))  # not known: keys counted
        whole = _best(runs, lambda: save_campaign(campaign, path, backups=5))
    size = len(data) / 1024 / 1024
    return [
        _row(f"Load 1,000 characters ({size:.1f} MiB), a file it saved", load, load_json,
             "read same file + json.loads, gc paused", 2),
        _row("Load the same bytes, a file new to this app", foreign, load_json,
             "read same file + json.loads, gc paused", None),
        _row("Save 1,000 characters after an edit (atomic, fsync, backups)", save, save_json,
             'json.dumps(separators=(",", ":"), ensure_ascii=False) + write + fsync', 1.5),
        _row("Save, whole file validated (a campaign new to the session)", whole, save_json,
             'json.dumps(separators=(",", ":"), ensure_ascii=False) + write + fsync', None),
    ]


def encounter(runs: int) -> list[Row]:
    """Each step timed until the screen is up to date: the undoable step, the rows' diffs
    and Qt's paint of what changed (``processEvents``). The baseline is one synchronous
    repaint of the whole encounter screen; the last row adds that repaint to a turn, the
    worst case where nothing on screen could be kept."""
    from bench_encounter import GOAL_MS, _last_turn_patch, build, timed
    from PySide6.QtWidgets import QApplication

    from mneme_desktop.domain import Side
    from mneme_desktop.ui.views.encounter_view import EncounterView

    app = QApplication.instance() or QApplication(sys.argv[:1])
    document, fight = build(200)
    view = EncounterView(document, rng=random.Random(7))
    view.resize(1280, 800)
    view.show()
    view.set_encounter(fight.id)
    app.processEvents()
    view.repaint()
    order = fight.initiative_order()
    shooter = next(c for c in order if c.side is Side.PLAYERS)
    targets = [c for c in order if c.side is Side.ENEMIES][:2]
    resolver = view.resolver
    resolver.spend_check.setChecked(False)
    repaint, turns, rounds, attacks, worst = [], [], [], [], []
    for _ in range(runs):
        repaint.append(timed(app, view, lambda: None, True)[0])
        if fight.turn_index + 1 >= len(order):
            view.next_turn()
        turns.append(timed(app, view, view.next_turn, False)[0])
        if fight.turn_index + 1 >= len(order):
            view.next_turn()
        worst.append(timed(app, view, view.next_turn, True)[0])
    for _ in range(max(3, runs // 3)):
        view.run(_last_turn_patch)
        rounds.append(timed(app, view, view.next_turn, False)[0])
    view.tabs.setCurrentIndex(1)
    for _ in range(runs):
        resolver.set_attacker(shooter.id)  # a fresh form for each attack
        resolver.spend_check.setChecked(False)  # the same shooter, many times a round
        resolver.set_targets([t.id for t in targets])
        if resolver.roll() is None:
            raise RuntimeError(resolver.problem_label.message())
        attacks.append(timed(app, view, resolver.apply, False)[0])
    base = statistics.median(repaint) / 1000
    rows = []
    for what, samples, goal in (
            ("Next turn, 200 combatants (screen up to date)", turns, True),
            ("Apply damage, attack on 2 (screen up to date)", attacks, True),
            ("Next turn into a new round (screen up to date)", rounds, False),
            ("Next turn + full repaint of the screen", worst, False)):
        ours = statistics.median(samples) / 1000
        row = _row(what, ours, base, "full repaint", None)
        if goal:
            rows.append(Row(row.what, row.ours, row.baseline, row.ratio,
                            f"< {GOAL_MS:.0f} ms", "ok" if ours * 1000 < GOAL_MS else "OVER"))
        else:
            rows.append(row)
    view.deleteLater()
    return rows


def export(runs: int) -> list[Row]:
    from bench_export import _batch_campaign, plain_text_pdf

    from mneme_desktop.export.build import build_document
    from mneme_desktop.export.document import ExportOptions, ExportTarget
    from mneme_desktop.export.fonts import ensure_gui_application
    from mneme_desktop.export.pdf import pdf_bytes
    from mneme_desktop.settings import PageSize
    from mneme_desktop.storage import build_sample_campaign

    ensure_gui_application()
    options = ExportOptions(page_size=PageSize.A4, show_damage=True)
    campaign = build_sample_campaign()
    one = ExportTarget.character(campaign.characters[0].id)
    pdf_bytes(build_document(campaign, one, options), options.page_size)  # fonts warm
    batch = _batch_campaign(100)
    everyone = ExportTarget.player_characters()

    # The baseline (plain_text_pdf): the same characters' data as plain text, one page each.
    sheet = _best(runs, lambda: pdf_bytes(build_document(campaign, one, options),
                                          options.page_size))
    sheet_base = _best(runs, lambda: plain_text_pdf([campaign.characters[0]]))
    batch_runs = max(1, runs // 3)
    many = _best(batch_runs, lambda: pdf_bytes(build_document(batch, everyone, options),
                                               options.page_size))
    many_base = _best(batch_runs, lambda: plain_text_pdf(list(batch.characters)))
    return [
        _row("One character sheet to PDF", sheet, sheet_base, "plain-text PDF", None),
        _row("100 character sheets to one PDF", many, many_base, "plain-text PDF", 2.5),
    ]


def healing(runs: int) -> list[Row]:
    from bench_scaling import planner_opener
    from PySide6.QtWidgets import QApplication, QTableWidget, QTableWidgetItem

    app = QApplication.instance() or QApplication(sys.argv[:1])
    open_planner = planner_opener(20)

    def plain_table() -> None:
        """The baseline: a plain table of the same size (365 days x 20 people), painted."""
        table = QTableWidget(365, 20)
        table.resize(1280, 820)
        for row in range(365):
            for column in range(20):
                table.setItem(row, column, QTableWidgetItem(str(row * column)))
        table.show()
        app.processEvents()
        table.repaint()
        table.close()
        table.deleteLater()
        app.processEvents()

    open_planner()  # warm-up
    ours = _median(runs, open_planner)
    base = _median(runs, plain_table)
    return [_row("Healing planner: 20 injured, 2 plans x 365 days", ours, base,
                 "365x20 QTableWidget", None)]


# --- the table -------------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    try:
        from PySide6 import __version__ as pyside
        from PySide6.QtCore import qVersion
        qt = f"Qt {qVersion()}, PySide6 {pyside}"
    except ImportError:
        qt = "Qt not importable"
    return [f"nproc {os.cpu_count()}, {cpu}",
            f"Python {platform.python_version()} on {platform.platform()}", qt,
            f"load average {os.getloadavg()[0]:.2f} at the end"]


def render(rows: list[Row]) -> str:
    head = Row("Measure", "Ours", "Baseline (same run)", "Ratio", "Goal", "")
    table = [head, *rows]
    widths = [max(len(getattr(r, f)) for r in table) for f in Row.__dataclass_fields__]
    lines = []
    for number, row in enumerate(table):
        cells = [getattr(row, f).ljust(w) for f, w in zip(Row.__dataclass_fields__, widths,
                                                           strict=True)]
        lines.append("| " + " | ".join(cells) + " |")
        if number == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


PARTS: list[tuple[str, Callable[[int], list[Row]], int]] = [
    ("Start-up", startup, 7),
    ("Load and save", storage, 5),
    ("Encounter", encounter, 30),
    ("Export", export, 5),
    ("Healing planner", healing, 5),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs of each (noisier)")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    for name, part, runs in PARTS:
        print(f"measuring: {name} ...", file=sys.stderr, flush=True)
        try:
            rows.extend(part(max(3, runs // 2) if args.quick else runs))
        except Exception as exc:  # a part still being written is reported, not faked
            traceback.print_exc(file=sys.stderr)
            rows.append(_missing(name, exc))
    print(render(rows))
    print()
    for line in machine():
        print(f"- {line}")
    print("- command: python3 benchmarks/run_all.py")
    return 1 if any(r.verdict == "MISSING" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
