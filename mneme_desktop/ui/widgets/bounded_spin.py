"""A spin box that says why a keystroke was not taken, instead of ignoring it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeyEvent, QValidator
from PySide6.QtWidgets import QSpinBox, QWidget

from mneme_desktop.ui.i18n import tr

_CTX = "BoundedSpin"


class BoundedSpinBox(QSpinBox):
    """QSpinBox refuses a digit that would leave its range without a word; this one emits
    ``refused`` with the field's name and range, for the view to show, and ``input_accepted``
    for a keystroke it took, so the view can take an old refusal away.

    Whether a keystroke is refused is asked of the validator with the text the key would
    make, not read from an unchanged text: retyping a field's own value ("9" over a
    selected "9") leaves the text as it was and is no refusal."""

    refused = Signal(str)
    input_accepted = Signal()

    def __init__(self, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what

    def refusal(self) -> str:
        return tr(_CTX, "{0} runs from {1} to {2}").format(
                self.what, self.minimum(), self.maximum())

    def would_refuse(self, typed: str) -> bool:
        """True when typing ``typed`` at the cursor (over any selection) is invalid input."""
        edit = self.lineEdit()
        text = edit.text()
        if edit.hasSelectedText():
            start = edit.selectionStart()
            end = start + len(edit.selectedText())
        else:
            start = end = edit.cursorPosition()
        candidate = text[:start] + typed + text[end:]
        answer = self.validate(candidate, start + len(typed))
        state = answer[0] if isinstance(answer, tuple) else answer
        return state == QValidator.State.Invalid

    def keyPressEvent(self, event: QKeyEvent) -> None:
        typed = event.text()
        counts = bool(typed) and (typed.isdigit() or typed == "-")
        refused = counts and self.would_refuse(typed)
        super().keyPressEvent(event)
        if refused:
            self.refused.emit(self.refusal())
        elif counts:
            self.input_accepted.emit()
