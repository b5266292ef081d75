"""The start-up baseline: a bare PySide6 window with one 20x6 table, nothing of ours.

Built frozen beside the app (``python packaging/build.py --bare-window``) so the frozen app's
start-up is compared with a frozen bare window, as users run both. It takes the app's
``--smoke-test [CAMPAIGN]`` arguments and ignores them, and does what the smoke test does:
show the window, process events, repaint, quit.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QMainWindow, QTableWidget, QTableWidgetItem


def main() -> int:
    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.setWindowTitle("Bare")
    table = QTableWidget(20, 6)
    for row in range(20):
        for column in range(6):
            table.setItem(row, column, QTableWidgetItem(f"{row}, {column}"))
    window.setCentralWidget(table)
    window.resize(1280, 820)
    window.show()
    app.processEvents()
    window.repaint()
    app.processEvents()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
