"""One line of feedback that never moves the layout under the pointer."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent, QUndoStack
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from mneme_desktop.ui.widgets.plain_text import TOOLTIP_LIMIT, clip


class StatusLine(QLabel):
    """One line of feedback that never changes the layout: its height is fixed, long text
    is elided (the whole text is the tooltip) and an empty line is simply blank, so a
    message appearing repaints the line, not the window (a message line that grew pushed
    the sheet down and the next click landed on the row above).

    The text is plain: names typed by the referee are never read as markup."""

    _STYLE = ("QLabel { padding: 1px 6px; border: 1px solid transparent; border-radius: 3px; }"
              " QLabel[active=\"true\"] { background: palette(tool-tip-base);"
              " color: palette(tool-tip-text); border-color: palette(mid); }")

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet(self._STYLE)
        self.setFixedHeight(self.fontMetrics().height() + 6)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._message = ""
        self._undo_stack: QUndoStack | None = None

    def sizeHint(self) -> QSize:
        """The same whatever the message: a new message must not ask for a new layout
        (the width is Ignored by the layout anyway; the text is elided to what it gets)."""
        return QSize(self.fontMetrics().averageCharWidth() * 12, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.height())

    def message(self) -> str:
        """The whole message (the label may show it elided)."""
        return self._message

    def show_message(self, text: str) -> None:
        if text == self._message:
            return
        self._message = text
        self.setToolTip(_plain_tooltip(text))
        self.setAccessibleDescription(text)
        active = bool(text)
        if bool(self.property("active")) != active:
            self.setProperty("active", active)
            self.style().unpolish(self)
            self.style().polish(self)
        self._elide()

    def clear_message(self) -> None:
        self.show_message("")

    def follow_undo(self, stack: QUndoStack) -> None:
        """Clear the message whenever ``stack`` steps back below its top (an undo)."""
        self._undo_stack = stack
        stack.indexChanged.connect(self._undo_moved)

    def _undo_moved(self, index: int) -> None:
        stack = self._undo_stack
        if stack is not None and shiboken6.isValid(stack) and index < stack.count():
            self.clear_message()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(0, self.contentsRect().width() - 12)
        self.setText(self.fontMetrics().elidedText(self._message, Qt.TextElideMode.ElideRight,
                                                   width))


def _plain_tooltip(text: str) -> str:
    """The message as the tooltip, bounded. No escaping: the application's PlainTextGuard
    (:mod:`mneme_desktop.ui.widgets.plain_text`) shows every tooltip as plain text, so an
    escaped message would show its entities and tags literally."""
    return clip(text, TOOLTIP_LIMIT)


def clear_on_undo(line: StatusLine, stack: QUndoStack) -> None:
    """Take ``line``'s message away when a step is undone: it spoke of a state the campaign
    is no longer in ("Applied: Mara hits Raider 1" after Ctrl+Z)."""
    line.follow_undo(stack)
