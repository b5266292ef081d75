"""GUI test safety net: a modal dialog nobody answers fails the test instead of hanging CI."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox


@pytest.fixture(autouse=True)
def no_forgotten_modal_dialogs(qapp):
    seen: list[str] = []

    def sweep() -> None:
        widget = QApplication.activeModalWidget()
        if widget is None:
            return
        text = widget.text() if isinstance(widget, QMessageBox) else ""
        seen.append(f"{type(widget).__name__} {widget.windowTitle()!r}: {text}")
        if isinstance(widget, QDialog):
            widget.reject()
        else:
            widget.close()

    timer = QTimer()
    timer.timeout.connect(sweep)
    timer.start(3000)
    yield
    timer.stop()
    assert not seen, f"a modal dialog was left open: {seen}"
