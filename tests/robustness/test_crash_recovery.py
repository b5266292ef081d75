"""Crash of the app: an unhandled exception in a slot shows the error dialog, writes the
traceback to the log, autosaves, and the next start offers the autosave with the last edit.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from mneme_desktop.app import install_exception_hook
from mneme_desktop.context import AppContext
from mneme_desktop.domain import CharacterKind
from mneme_desktop.paths import AppPaths
from mneme_desktop.storage import AutosaveStore, build_sample_campaign, save_campaign
from mneme_desktop.ui.dialogs import error_dialog
from mneme_desktop.ui.main_window import MainWindow

Button = QMessageBox.StandardButton
EDITED_NAME = "Vesna Kade, who survived the crash"


class PlantedSlotError(RuntimeError):
    """The bug in a slot that this test plants."""


@pytest.fixture
def own_log_handler() -> Iterator[None]:
    """Logging is set up once per process; give this test's AppPaths their own log file."""
    logger = logging.getLogger("mneme_desktop")
    previous = [h for h in logger.handlers if getattr(h, "_mneme", False)]
    level = logger.level
    for handler in previous:
        logger.removeHandler(handler)
    yield
    for handler in [h for h in logger.handlers if getattr(h, "_mneme", False)]:
        logger.removeHandler(handler)
        handler.close()
    for handler in previous:
        logger.addHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def restore_excepthook() -> Iterator[None]:
    saved = sys.excepthook
    yield
    sys.excepthook = saved


def test_an_exception_in_a_slot_is_logged_autosaved_and_recovered_on_the_next_start(
    qtbot, tmp_path: Path, monkeypatch, own_log_handler, restore_excepthook
) -> None:
    paths = AppPaths.under(tmp_path / "appdirs").ensure()
    campaign_file = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), campaign_file, backups=0)
    earlier = time.time() - 60  # saved a minute ago, so the autosave is newer than the file
    os.utime(campaign_file, (earlier, earlier))
    file_bytes = campaign_file.read_bytes()

    shown: list[tuple[BaseException, str, Path]] = []
    monkeypatch.setattr(error_dialog, "show_error_dialog",
                        lambda _parent, exc, details, log_file: shown.append(
                            (exc, details, log_file)))

    context = AppContext.create(paths)
    window = MainWindow(context)
    qtbot.addWidget(window)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    install_exception_hook(context, app, window)
    assert window.open_initial(campaign_file)
    window.show()
    qtbot.waitExposed(window)

    # The last edit before the crash: a new character, renamed on its sheet by typing.
    character = window.add_character(CharacterKind.PLAYER)
    assert character is not None
    sheet = window.sheet_view
    sheet.name_edit.setFocus()
    sheet.name_edit.selectAll()
    qtbot.keyClicks(sheet.name_edit, EDITED_NAME)
    qtbot.keyClick(sheet.name_edit, Qt.Key.Key_Return)
    assert window.document.campaign.character(character.id).name == EDITED_NAME
    assert window.document.modified

    # A slot with a bug, run by the event loop like any button or timer.
    def broken_slot() -> None:
        raise PlantedSlotError("the planted bug in a slot")

    QTimer.singleShot(0, broken_slot)
    qtbot.waitUntil(lambda: bool(shown), timeout=5000)

    exc, details, log_file = shown[0]
    assert isinstance(exc, PlantedSlotError)
    assert "broken_slot" in details and "PlantedSlotError: the planted bug in a slot" in details
    assert log_file == paths.log_file
    for handler in logging.getLogger("mneme_desktop").handlers:
        handler.flush()
    log_text = paths.log_file.read_text(encoding="utf-8")
    assert "Unhandled exception" in log_text
    assert "Traceback (most recent call last)" in log_text
    assert "PlantedSlotError: the planted bug in a slot" in log_text
    assert context.errors and "PlantedSlotError" in context.errors[0]

    # The campaign file is untouched; the edit is in the autosave.
    assert campaign_file.read_bytes() == file_bytes
    entry = AutosaveStore(paths.autosave_dir).recoverable(campaign_file)
    assert entry is not None
    assert AutosaveStore(paths.autosave_dir).load(entry).character(character.id).name == \
        EDITED_NAME

    # The process dies here: no save, no close. Its lock dies with it.
    window.session.release_lock()
    window.autosave_timer.stop()

    # Next start: same folders, nothing named on the command line, so the last campaign.
    again_context = AppContext.create(paths)
    again = MainWindow(again_context)
    qtbot.addWidget(again)
    again.queue_dialog_answer(Button.Yes)  # "Recover unsaved changes?"
    assert again.open_initial(None)
    assert not again._dialog_answers, "the recovery question was not asked"
    assert again.document is not None
    assert again.document.path is not None
    assert again.document.path.resolve() == campaign_file.resolve()
    recovered = again.document.campaign.find_character(character.id)
    assert recovered is not None and recovered.name == EDITED_NAME
    assert again.document.modified  # recovered work is unsaved until the referee saves
    assert campaign_file.read_bytes() == file_bytes

    for win in (window, again):
        win.document.undo_stack.setClean()
        win.document._unsaved_without_undo = False
        win.autosave_timer.stop()
