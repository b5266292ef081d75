"""The dialog an unhandled exception turns into: what happened, where the log is, what is safe."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from mneme_desktop.ui.i18n import tr

_CTX = "ErrorDialog"


def error_message(exc: BaseException, log_file: Path) -> str:
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return (
        tr(_CTX, "Something went wrong inside {0}:\n\n{1}\n\nYour unsaved work has been autosaved "
                 "and will be offered for recovery the next time you open this campaign.\n\nThe "
                 "details are in the log file:\n{2}").format('Mneme Desktop', what, log_file)
    )


def show_error_dialog(parent: object, exc: BaseException, details: str, log_file: Path) -> None:
    box = QMessageBox(parent if isinstance(parent, QWidget) else None)
    box.setObjectName("error_dialog")
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(tr(_CTX, "Unexpected error"))
    box.setTextFormat(Qt.TextFormat.PlainText)  # the message may quote user text
    box.setText(error_message(exc, log_file))
    box.setDetailedText(details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()
