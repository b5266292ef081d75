"""The sheet's Notes: typed freely, committed after a pause in typing, on leaving the field
or before the file is written, so that one burst of typing is one undo step."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QGroupBox, QVBoxLayout

from mneme_desktop.domain import Character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.views.sheet_parts import SheetEditor
from mneme_desktop.ui.widgets.notes_edit import NotesEdit

_CTX = "SheetNotes"

__all__ = ["NOTES_COMMIT_DELAY_MS", "NotesGroup"]

NOTES_COMMIT_DELAY_MS = 800
"""Notes are committed after this pause in typing: one undo step per burst of typing."""


class NotesGroup(QGroupBox):
    """The notes field, holding back what is typed until :meth:`flush` commits it."""

    def __init__(self, editor: SheetEditor, document: CampaignDocument) -> None:
        super().__init__(tr(_CTX, "Notes"))
        self._editor = editor
        self._document = document
        self._pending = False
        self._character_id: str | None = None
        self.setObjectName("notesGroup")
        layout = QVBoxLayout(self)
        self.notes_edit = NotesEdit()
        self.notes_edit.setObjectName("notesEdit")
        self.notes_edit.setMinimumHeight(90)
        self.notes_edit.setTabChangesFocus(True)
        self.notes_edit.installEventFilter(self)
        layout.addWidget(self.notes_edit)
        self.timer = QTimer(self)
        self.timer.setObjectName("notesTimer")
        self.timer.setSingleShot(True)
        self.timer.setInterval(NOTES_COMMIT_DELAY_MS)
        self.timer.timeout.connect(self.flush)

    def connect_edits(self) -> None:
        """Hold back what is typed for the character shown (after the sheet connected the
        document)."""
        self.notes_edit.textChanged.connect(self._on_notes_typed)

    def flush(self) -> None:
        """Commit notes typed but not yet committed (call before saving or closing)."""
        self.timer.stop()
        if not self._pending:
            return
        self._pending = False
        character_id = self._character_id
        text = self.notes_edit.toPlainText()
        character = self._document.character(character_id) if character_id else None
        if character is None or character.notes == text:
            return
        self._editor.commit(tr(_CTX, "Edit notes"), lambda c: setattr(c, "notes", text),
                            character=character)

    def show_character(self, character: Character) -> None:
        if not self._pending and self.notes_edit.toPlainText() != character.notes:
            self.notes_edit.setPlainText(character.notes)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusOut and watched is self.notes_edit:
            self.flush()
        return super().eventFilter(watched, event)

    def _on_notes_typed(self) -> None:
        if self._editor.updating:
            return
        self._pending = True
        self._character_id = self._editor.character_id()
        self.timer.start()
