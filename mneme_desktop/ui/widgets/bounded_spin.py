"""A spin box that says why a keystroke was not taken, instead of ignoring it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QSpinBox, QWidget


class BoundedSpinBox(QSpinBox):
    """QSpinBox refuses a digit that would leave its range without a word; this one emits
    ``refused`` with the field's name and range, for the view to show."""

    refused = Signal(str)

    def __init__(self, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what

    def refusal(self) -> str:
        return f"{self.what} runs from {self.minimum()} to {self.maximum()}"

    def keyPressEvent(self, event: QKeyEvent) -> None:
        before = self.lineEdit().text()
        super().keyPressEvent(event)
        typed = event.text()
        if typed and (typed.isdigit() or typed == "-") and self.lineEdit().text() == before:
            self.refused.emit(self.refusal())
