"""Shared fixtures: every test runs offscreen and with its own app folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# As the app does before PySide6 is first imported: Qt's enums through the fast builder,
# so the whole suite runs on the enums users get.
from mneme_desktop import qt_enums

qt_enums.install()

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def app_paths(tmp_path: Path):
    from mneme_desktop.paths import AppPaths

    return AppPaths.under(tmp_path / "appdirs").ensure()


@pytest.fixture(autouse=True)
def no_forgotten_modal_dialogs(request):
    """A modal dialog nobody answers fails the GUI test instead of hanging CI."""
    if "qtbot" not in request.fixturenames and "qapp" not in request.fixturenames:
        yield
        return
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

    request.getfixturevalue("qapp")
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


def _hypothesis_profile() -> None:
    """No per-example deadline: CI machines are shared and slow examples are not failures."""
    from hypothesis import settings

    settings.register_profile("mneme", deadline=None)
    settings.load_profile("mneme")


_hypothesis_profile()
