"""The start-up baseline: a bare PySide6 window with one 20x6 table, nothing of ours.

Built frozen beside the app (``python packaging/build.py --bare-window``) so the frozen app's
start-up is compared with a frozen bare window, as users run both. It takes the app's
``--smoke-test [CAMPAIGN]`` arguments and ignores them, and does what the smoke test does:
show the window, process events, repaint, quit. With ``MNEME_DESKTOP_STARTUP_REPORT=1`` it
prints the same two timing marks as the app (``mneme_desktop.ui.startup_report``) instead.
"""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QTableWidget, QTableWidgetItem

# As mneme_desktop.ui.startup_report (not imported: nothing of ours in the baseline).
REPORT = os.environ.get("MNEME_DESKTOP_STARTUP_REPORT", "") not in ("", "0")


class Window(QMainWindow):
    """With the report asked for: the first paint's mark, then the fully shown one."""

    def __init__(self, app: QApplication) -> None:
        super().__init__()
        self._app = app
        self._painted = False

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if REPORT and not self._painted:
            self._painted = True
            print("first_paint", time.time(), flush=True)
            QTimer.singleShot(0, self._finish)

    def _finish(self) -> None:
        self._app.processEvents()
        self.repaint()
        print("fully_shown", time.time(), flush=True)
        self._app.quit()


def main() -> int:
    app = QApplication(sys.argv[:1])
    window = Window(app)
    window.setWindowTitle("Bare")
    table = QTableWidget(20, 6)
    for row in range(20):
        for column in range(6):
            table.setItem(row, column, QTableWidgetItem(f"{row}, {column}"))
    window.setCentralWidget(table)
    window.resize(1280, 820)
    window.show()
    if REPORT:
        return app.exec()
    app.processEvents()
    window.repaint()
    app.processEvents()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
