"""User text on screen: shown literally, never parsed as HTML, and of bounded length.

Qt renders a label, tooltip or message-box text that merely *looks* like HTML as rich text:
a character named ``<img src="/dev/zero">`` made Qt read that file until the app ran out of
memory, and ``<img src="some/local.png">`` showed a local file. So every QLabel is plain
text, enforced for the whole application by :func:`plain_unless_rich` in the app guard
(Qt's own labels in message boxes and tooltips included). A label that needs formatting
is registered as rich through :func:`set_rich_text`, the one way to give it markup: a
constant template whose pieces are escaped.

Qt also lays out the whole text of a label or tooltip, so user text given to these helpers
is cut by :func:`clip` (to :data:`DISPLAY_LIMIT`, or :data:`TOOLTIP_LIMIT` for a tooltip
quoting a log entry or a message): a megabyte-long note would otherwise freeze the window.
Names are at most 200 characters in the domain; notes are shown only in their editor
(:mod:`.notes_edit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

if TYPE_CHECKING:  # made when first used: not before the window's first paint
    from PySide6.QtWidgets import QMessageBox

__all__ = [
    "DISPLAY_LIMIT",
    "RICH_PROPERTY",
    "TOOLTIP_LIMIT",
    "clip",
    "escaped",
    "is_registered_rich",
    "message_box",
    "plain_label",
    "plain_unless_rich",
    "set_rich_text",
]

DISPLAY_LIMIT = 300
"""Characters of one piece of user text shown in a label, cell, tooltip or title."""

TOOLTIP_LIMIT = 1000
"""Characters of a tooltip that quotes user text (a message, a log entry)."""

RICH_PROPERTY = "mnemeRichText"
"""Dynamic property marking a label (or message box) whose markup was built by escaping."""

_ELLIPSIS = "…"


def clip(text: object, limit: int = DISPLAY_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut), because Qt measures
    and lays out the whole string of every label, cell and tooltip it shows."""
    value = str(text)
    if len(value) <= limit:
        return value
    return value[: max(0, limit - 1)] + _ELLIPSIS


def escaped(template: str, *pieces: object, limit: int = DISPLAY_LIMIT) -> str:
    """Markup from a constant ``template`` (``str.format`` fields, ``{{`` for a brace) whose
    ``pieces`` are clipped and HTML-escaped, so user text can never become markup. Pieces go
    into element content only (quotes are left alone), never into an attribute."""
    return template.format(*(_escape(clip(piece, limit)) for piece in pieces))


def _escape(text: str) -> str:
    """``html.escape(text, quote=False)``, without importing ``html`` (and its entity
    tables, ~1.5 ms) before the window's first paint: & first, then < and >."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def set_rich_text(label: QLabel, template: str, *pieces: object) -> None:
    """Register ``label`` as rich and show ``template`` filled with escaped ``pieces``:
    the only way the app gives a label markup."""
    label.setProperty(RICH_PROPERTY, True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setText(escaped(template, *pieces))


def is_registered_rich(label: QLabel) -> bool:
    """True when the label (or the message box holding it) was registered as rich."""
    if bool(label.property(RICH_PROPERTY)):
        return True
    parent = label.parentWidget()
    if parent is None or not parent.property(RICH_PROPERTY):
        return False
    from PySide6.QtWidgets import QMessageBox

    return isinstance(parent, QMessageBox)


def plain_label(text: object = "", parent: QWidget | None = None, *,
                object_name: str = "") -> QLabel:
    """A label that shows ``text`` literally (clipped) from the start, before any guard."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    if object_name:
        label.setObjectName(object_name)
    label.setText(clip(text))
    return label


def message_box(icon: QMessageBox.Icon, title: str, text: str,
                buttons: QMessageBox.StandardButton, parent: QWidget | None = None, *,
                rich: bool = False) -> QMessageBox:
    """A message box whose text is plain (user names in it stay literal); ``rich=True`` only
    for a constant text or one built with :func:`escaped`."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(clip(title))
    box.setStandardButtons(buttons)
    if rich:
        box.setProperty(RICH_PROPERTY, True)
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(text)
    else:
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(clip(text, DISPLAY_LIMIT * 4))
    return box


def plain_unless_rich(label: QLabel) -> None:
    """The application's rule for every QLabel (applied by :mod:`mneme_desktop.ui.app_guard`
    when the label is first polished, before it is laid out or shown): plain text unless it
    was registered as rich by :func:`set_rich_text`. Tooltips are QLabels too: Qt polishes
    its tooltip label before giving it any text, so every tooltip renders literally."""
    if label.textFormat() != Qt.TextFormat.PlainText and not is_registered_rich(label):
        label.setTextFormat(Qt.TextFormat.PlainText)
