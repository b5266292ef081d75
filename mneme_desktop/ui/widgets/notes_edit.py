"""The notes editor: a QPlainTextEdit that stays responsive with a huge unbroken line.

Qt's default wrap mode (at a word boundary, else anywhere) is quadratic in the length of a
run without a break opportunity: a 1,000,000-character single-word note took about 20 s to
lay out and froze the window again on every resize. Wrapping anywhere is linear, so the
editor switches to it whenever the text holds a run longer than :data:`LONG_RUN` characters
(checked before Qt lays the text out: on load and on paste) and keeps word wrapping for
ordinary notes. The editor still holds the whole text.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QPlainTextEdit, QWidget

__all__ = ["LONG_RUN", "NotesEdit", "has_long_run"]

LONG_RUN = 1000
"""A run of this many non-space characters is wrapped anywhere, not at word boundaries."""

_LONG_RUN_RE = re.compile(rf"\S{{{LONG_RUN}}}")


def has_long_run(text: str) -> bool:
    """True when ``text`` holds a run of :data:`LONG_RUN` characters without white space."""
    return len(text) >= LONG_RUN and _LONG_RUN_RE.search(text) is not None


class NotesEdit(QPlainTextEdit):
    """Plain-text notes; wraps anywhere while a very long unbroken run is in the text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)

    def setPlainText(self, text: str) -> None:
        self._fit_wrap_mode(text, reset=True)
        super().setPlainText(text)

    def insertFromMimeData(self, source: QMimeData) -> None:
        if source.hasText():
            self._fit_wrap_mode(source.text(), reset=False)
        super().insertFromMimeData(source)

    def _fit_wrap_mode(self, text: str, *, reset: bool) -> None:
        """Wrap anywhere before Qt lays out a long run; back to word wrap on a new text."""
        if has_long_run(text):
            mode = QTextOption.WrapMode.WrapAnywhere
        elif reset:
            mode = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        else:
            return
        if self.wordWrapMode() != mode:
            self.setWordWrapMode(mode)
