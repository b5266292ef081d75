"""The app's log file: rotated at start, and never a reason for the app to fail."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from mneme_desktop.paths import AppPaths

LOG_MAX_BYTES = 1_000_000
LOG_KEEP = 3


def rotate_log(path: Path, *, max_bytes: int = LOG_MAX_BYTES, keep: int = LOG_KEEP) -> None:
    """At start, move a log over ``max_bytes`` to ``.1`` (and older ones up), keeping ``keep``."""
    try:
        if path.stat().st_size <= max_bytes:
            return
    except FileNotFoundError:
        return
    for number in range(keep - 1, 0, -1):
        older = path.with_name(f"{path.name}.{number}")
        if older.exists():
            os.replace(older, path.with_name(f"{path.name}.{number + 1}"))
    os.replace(path, path.with_name(f"{path.name}.1"))


class _SafeStreamHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stderr handler that escapes what the console cannot encode (lone surrogates)."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        encoding = getattr(self.stream, "encoding", None) or "utf-8"
        return text.encode(encoding, "backslashreplace").decode(encoding, "replace")


def setup_logging(paths: AppPaths) -> None:
    """Log to the app's log file; a context with other paths (tests) moves the log there."""
    root = logging.getLogger("mneme_desktop")
    for old in [h for h in root.handlers if getattr(h, "_mneme", False)]:
        if getattr(old, "baseFilename", None) == str(paths.log_file.absolute()):
            return
        root.removeHandler(old)
        old.close()
    try:
        rotate_log(paths.log_file)
        # backslashreplace: a lone surrogate in user text must not make logging fail
        handler: logging.Handler = logging.FileHandler(paths.log_file, encoding="utf-8",
                                                       errors="backslashreplace")
    except OSError:
        handler = _SafeStreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._mneme = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.INFO)
