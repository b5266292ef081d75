"""Time ``--smoke-test`` (start, open a campaign, show the window, quit) for several builds.

    python packaging/measure_startup.py --campaign SAMPLE.mneme --runs 7 \\
        frozen=packaging/dist/mneme-desktop/mneme-desktop \\
        source=".venv/bin/python -m mneme_desktop"

Each command gets one untimed warm-up run (fills the OS file cache and Qt's font cache),
then the commands take turns so that machine noise falls on all of them alike. Prints the
median, fastest and slowest wall time of each and the ratio of each median to the last
command's. A measurement, not a test: it fails only if a run exits non-zero.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def parse_command(text: str) -> tuple[str, list[str]]:
    label, separator, command = text.partition("=")
    if not separator or not label or not command.strip():
        raise argparse.ArgumentTypeError(f"expected LABEL=COMMAND, got {text!r}")
    return label, shlex.split(command)


def time_run(command: Sequence[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} exited with {result.returncode}:\n"
                           f"{result.stderr[-2000:]}")
    return elapsed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaign", type=Path, required=True, help="the .mneme file to open")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (7)")
    parser.add_argument("commands", nargs="+", type=parse_command, metavar="LABEL=COMMAND")
    args = parser.parse_args(argv)
    commands = [(label, [*cmd, "--smoke-test", str(args.campaign)])
                for label, cmd in args.commands]
    times: dict[str, list[float]] = {label: [] for label, _ in commands}
    try:
        for _, command in commands:
            time_run(command)
        for _ in range(args.runs):
            for label, command in commands:
                times[label].append(time_run(command))
    except (RuntimeError, OSError) as exc:
        print(f"measure_startup: {exc}", file=sys.stderr)
        return 1
    reference = statistics.median(times[commands[-1][0]])
    print(f"start-up to window and back (--smoke-test), {args.runs} runs each after a warm-up:")
    print(f"{'build':<12}{'median':>9}{'fastest':>9}{'slowest':>9}{'vs ' + commands[-1][0]:>12}")
    for label, _ in commands:
        runs = times[label]
        median = statistics.median(runs)
        print(f"{label:<12}{median:>8.2f}s{min(runs):>8.2f}s{max(runs):>8.2f}s"
              f"{median / reference:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
