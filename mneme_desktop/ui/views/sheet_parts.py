"""What the sections of the character sheet share: spacing, small labels, the editor they
commit through.

Each section (identity, characteristics, hit points, gear tables, notes) is a group box of
its own module; none of them pushes an edit or shows a message itself. They ask the
:class:`SheetEditor` (the :class:`~mneme_desktop.ui.views.character_sheet.CharacterSheetView`)
so that there is one commit path and one message line for the whole sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QFormLayout, QLabel

from mneme_desktop.domain import Character

__all__ = ["SPACING", "SheetEditor", "label_buddies", "small_label"]

SPACING = 8
"""The gap between the sheet's groups, and the unit of every margin inside them."""


class SheetEditor(Protocol):
    """The sheet as its sections see it: the character shown, the commit path and the
    message line."""

    @property
    def updating(self) -> bool:
        """True while the sheet shows the document: a widget's signal then is no edit."""
        ...

    def character_id(self) -> str | None: ...

    def character(self) -> Character | None: ...

    def commit(self, text: str, change: Callable[[Character], object],
               merge_key: str | None = None, *, character: Character | None = None) -> bool:
        """Push one undoable edit; on refusal explain it and show the model's value again."""
        ...

    def refresh(self) -> None:
        """Show the document's character again, every section."""
        ...

    def show_message(self, text: str) -> None: ...

    def clear_message(self) -> None: ...

    def clear_range_refusal(self) -> None:
        """A keystroke a number field took: an earlier refusal no longer applies."""
        ...

    def show_dice_problem(self, problem: str) -> None:
        """What is wrong with the dice being typed in a table (empty: nothing now)."""
        ...


def small_label(text: str = "") -> QLabel:
    """A hint or a column header: smaller, in the placeholder colour, wrapped."""
    label = QLabel(text)
    font = label.font()
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
    label.setFont(font)
    label.setStyleSheet("color: palette(placeholder-text);")
    label.setWordWrap(True)
    return label


def label_buddies(form: QFormLayout) -> None:
    """Give every row's label its field as buddy, so the label's mnemonic focuses it."""
    for row in range(form.rowCount()):
        label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        if label is None or field is None:
            continue
        label_widget, field_widget = label.widget(), field.widget()
        if isinstance(label_widget, QLabel) and field_widget is not None:
            label_widget.setBuddy(field_widget)
