"""Paste one-line NPCs (one or many) and add them as NPCs or adversary templates.

Each line is read as it is typed or pasted: the dialog says how many are ready, or lists
every line it cannot read with its number and what is wrong (a click on one puts the
cursor on that line). Adding is all or nothing, one undo step; a paste with a bad line adds
nothing. The reading is :mod:`mneme_desktop.domain.npc_line`'s.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Character, CharacterKind
from mneme_desktop.domain.npc_line import NpcLinesError, parse_npc_lines
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.library_commands import add_npcs, known_skills
from mneme_desktop.ui.models.roles import ItemRole
from mneme_desktop.ui.widgets.plain_text import TOOLTIP_LIMIT, clip
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "NpcLinesDialog"

__all__ = ["NpcLinesDialog"]

RECHECK_MS = 150
"""How long after the last key the lines are read again."""

LINE_ROLE = ItemRole.VALUE_ROLE
"""A problem's line number (an int) in the problem list."""


class NpcLinesDialog(QDialog):
    """The paste box, where the NPCs go, what is ready or wrong, and Add."""

    def __init__(self, document: CampaignDocument, *, as_templates: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("npc_lines_dialog")
        self.setWindowTitle(tr(_CTX, "Import NPC Lines"))
        self.document = document
        self.added_ids: list[str] = []

        intro = QLabel(tr(_CTX,
            "One NPC a line: name, UPP, then Age, careers, credits and skills, separated by "
            "tabs, commas or two spaces. For example:\n"
            "Jana Kell  789A87  Age 34  Marine (3 terms)  Cr2000  Gun Combat-2, Recon-0"))
        intro.setWordWrap(True)
        self.lines_edit = QPlainTextEdit()
        self.lines_edit.setObjectName("npc_lines_edit")
        self.lines_edit.setAccessibleName(tr(_CTX, "NPC lines"))
        self.lines_edit.setPlaceholderText(tr(_CTX, "Paste or type NPC lines here"))
        self.lines_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.paste_button = QPushButton(tr(_CTX, "&Paste from Clipboard"))
        self.paste_button.setObjectName("npc_paste_button")
        self.target_combo = QComboBox()
        self.target_combo.setObjectName("npc_target_combo")
        self.target_combo.addItem(tr(_CTX, "NPCs"), False)
        self.target_combo.addItem(tr(_CTX, "Adversary templates"), True)
        self.target_combo.setCurrentIndex(1 if as_templates else 0)
        self.summary_label = StatusLine("npc_lines_summary")
        self.problems_list = QListWidget()
        self.problems_list.setObjectName("npc_problems_list")
        self.problems_list.setAccessibleName(tr(_CTX, "Lines that cannot be read"))
        self.problems_list.setFixedHeight(self.fontMetrics().height() * 6)
        # Its room is kept while it is hidden: the paste box shrank under the typing hand
        # the moment a line could not be read, and grew back when it was fixed.
        policy = self.problems_list.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.problems_list.setSizePolicy(policy)

        form = QFormLayout()
        form.addRow(tr(_CTX, "Add as:"), self.target_combo)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.lines_edit, 1)
        layout.addWidget(self.paste_button)
        layout.addLayout(form)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.problems_list)
        self.buttons = ok_cancel_buttons(self, tr(_CTX, "&Add"))
        layout.addWidget(self.buttons)
        self.resize(720, 420)

        # Read again a moment after the typing stops: a paste of a thousand lines takes a
        # few tenths of a second to read, too long to repeat on every key.
        self._recheck = QTimer(self)
        self._recheck.setSingleShot(True)
        self._recheck.setInterval(RECHECK_MS)
        self._recheck.timeout.connect(self._check)
        self.paste_button.clicked.connect(self._paste)
        self.lines_edit.textChanged.connect(self._recheck.start)
        self.problems_list.itemActivated.connect(self._go_to_problem)
        self.problems_list.itemClicked.connect(self._go_to_problem)
        self._check()

    # --- reading ---------------------------------------------------------------------------

    def as_templates(self) -> bool:
        return bool(self.target_combo.currentData())

    def _read(self) -> list[Character]:
        kind = CharacterKind.ADVERSARY if self.as_templates() else CharacterKind.NPC
        return parse_npc_lines(self.lines_edit.toPlainText(), kind=kind,
                               known_skill=known_skills(self.document.campaign))

    def _check(self) -> bool:
        """Read the lines and say what is ready or wrong; True when all can be added."""
        self._recheck.stop()
        self.problems_list.clear()
        if not self.lines_edit.toPlainText().strip():
            self.summary_label.setText(tr(_CTX, "No lines yet."))
            self.problems_list.hide()
            return False
        try:
            characters = self._read()
        except NpcLinesError as exc:
            for error in exc.errors:
                item = QListWidgetItem(tr(_CTX, "Line {0}: {1}").format(error.line,
                                                                        error.message))
                item.setData(LINE_ROLE, error.line)
                item.setToolTip(clip(error.text, TOOLTIP_LIMIT))
                self.problems_list.addItem(item)
            self.problems_list.show()
            self.summary_label.setText(
                tr(_CTX, "1 line cannot be read; nothing will be added until it is fixed or "
                         "removed.") if len(exc.errors) == 1 else
                tr(_CTX, "{0} lines cannot be read; nothing will be added until they are "
                         "fixed or removed.").format(len(exc.errors)))
            return False
        self.problems_list.hide()
        names = ", ".join(c.name for c in characters[:5]) + ("…" if len(characters) > 5 else "")
        self.summary_label.setText(tr(_CTX, "{0} ready: {1}").format(len(characters), names))
        return True

    def _paste(self) -> None:
        text = QGuiApplication.clipboard().text()
        if text:
            self.lines_edit.insertPlainText(text if text.endswith("\n") else text + "\n")
        self.lines_edit.setFocus()

    def _go_to_problem(self, item: QListWidgetItem) -> None:
        line = int(item.data(LINE_ROLE))
        block = self.lines_edit.document().findBlockByNumber(line - 1)
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock,
                            QTextCursor.MoveMode.KeepAnchor)
        self.lines_edit.setTextCursor(cursor)
        self.lines_edit.setFocus()

    # --- adding ----------------------------------------------------------------------------

    def accept(self) -> None:
        """Add every line as one step, or nothing while a line cannot be read."""
        if not self._check():
            if self.problems_list.count():
                self.problems_list.setCurrentRow(0)
            self.lines_edit.setFocus()
            return
        characters = self._read()
        self.added_ids = add_npcs(self.document, characters, as_templates=self.as_templates())
        super().accept()
