"""Start-up timing marks for the benchmarks, from the source and from frozen builds alike.

With ``MNEME_DESKTOP_STARTUP_REPORT=1`` in the environment the app prints the wall clock
(``time.time()``) on standard output twice and then quits:

* ``first_paint <seconds>`` at the main window's first paint (its frame, before the campaign);
* ``fully_shown <seconds>`` once the start campaign is shown: the document and the first
  page built, the event queue drained, and a synchronous repaint of the whole window.

A frozen build can be timed from outside only through something it prints itself, so
``benchmarks/bench_startup.py`` reads these two lines from the app started from source, from
the frozen app and from the bare windows (``packaging/bare_window.py`` prints the same), and
every start is measured the same way.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

ENVIRONMENT = "MNEME_DESKTOP_STARTUP_REPORT"


def requested() -> bool:
    return os.environ.get(ENVIRONMENT, "") not in ("", "0")


class StartupReport:
    """Prints the two marks for ``window`` and quits ``app`` after the second."""

    def __init__(self, app: QApplication, window: QWidget) -> None:
        self._app = app
        self._window = window
        self.painted_once = False
        self.finished = False

    def painted(self) -> None:
        """The window painted; the first time is the first mark."""
        if not self.painted_once:
            self.painted_once = True
            print("first_paint", time.time(), flush=True)

    def opened(self) -> None:
        """The start campaign is shown: the second mark once what it queued is done."""
        QTimer.singleShot(0, self._finish)

    def _finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        self._app.processEvents()
        self._window.repaint()
        print("fully_shown", time.time(), flush=True)
        self._app.quit()
