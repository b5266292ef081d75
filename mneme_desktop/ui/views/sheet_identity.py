"""The sheet's Identity group: name, player, kind, load and portrait.

A name is required: an empty one is refused where it is typed (a red border and a line
under the field) and the sheet keeps the name it had.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from mneme_desktop.domain import MAX_PORTRAIT_BYTES, Character, CharacterKind
from mneme_desktop.rules.actions import Load
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.views.sheet_parts import SPACING, SheetEditor, label_buddies
from mneme_desktop.ui.views.sheet_portrait import (
    PORTRAIT_SIZE,
    PortraitError,
    read_portrait,
    show_portrait,
)
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "SheetIdentity"

__all__ = ["KIND_LABELS", "IdentityGroup"]

KIND_LABELS = {
    CharacterKind.PLAYER: tr_noop(_CTX, "Player character"),
    CharacterKind.NPC: tr_noop(_CTX, "NPC"),
    CharacterKind.ADVERSARY: tr_noop(_CTX, "Adversary"),
}

_LOAD_LABELS = {Load.LIGHT: tr_noop(_CTX, "Light"), Load.MEDIUM: tr_noop(_CTX, "Medium"),
                Load.HEAVY: tr_noop(_CTX, "Heavy")}


class IdentityGroup(QGroupBox):
    """Who the character is; every change commits through the sheet's editor."""

    def __init__(self, editor: SheetEditor) -> None:
        super().__init__(tr(_CTX, "Identity"))
        self._editor = editor
        self.setObjectName("identityGroup")
        row = QHBoxLayout(self)
        row.setSpacing(SPACING * 2)
        form = QFormLayout()
        form.setSpacing(SPACING // 2 + 2)
        row.addLayout(form, 1)
        row.addLayout(self._build_portrait())
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("nameEdit")
        self.name_edit.setMaxLength(200)
        self.name_error = StatusLine("nameErrorLabel")
        name_box = QVBoxLayout()
        name_box.setSpacing(2)
        name_box.addWidget(self.name_edit)
        name_box.addWidget(self.name_error)
        name_label = QLabel(tr(_CTX, "&Name:"))
        name_label.setBuddy(self.name_edit)
        form.addRow(name_label, name_box)
        self.player_edit = QLineEdit()
        self.player_edit.setObjectName("playerEdit")
        self.player_edit.setMaxLength(200)
        self.player_edit.setPlaceholderText(tr(_CTX, "nobody (an NPC or adversary)"))
        form.addRow(tr(_CTX, "&Player:"), self.player_edit)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("kindCombo")
        for kind, label in KIND_LABELS.items():
            self.kind_combo.addItem(tr(_CTX, label), kind.value)
        form.addRow(tr(_CTX, "&Kind:"), self.kind_combo)
        self.load_combo = QComboBox()
        self.load_combo.setObjectName("loadCombo")
        for load, label in _LOAD_LABELS.items():
            self.load_combo.addItem(tr(_CTX, label), load.value)
        self.load_combo.setToolTip(tr(_CTX, "The load carried: light, medium or heavy"))
        form.addRow(tr(_CTX, "&Load:"), self.load_combo)
        label_buddies(form)

    def _build_portrait(self) -> QVBoxLayout:
        layout = QVBoxLayout()
        layout.setSpacing(SPACING // 2)
        self.portrait_label = QLabel()
        self.portrait_label.setObjectName("portraitLabel")
        self.portrait_label.setFixedSize(PORTRAIT_SIZE, PORTRAIT_SIZE)
        self.portrait_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.portrait_label.setFrameShape(QFrame.Shape.StyledPanel)
        layout.addWidget(self.portrait_label, 0, Qt.AlignmentFlag.AlignHCenter)
        buttons = QHBoxLayout()
        self.set_portrait_button = QPushButton(tr(_CTX, "Set portrait…"))
        self.set_portrait_button.setObjectName("setPortraitButton")
        self.set_portrait_button.setToolTip(
            tr(_CTX, "A PNG, JPEG, GIF or WebP image of at most {0} MiB, kept inside the "
                     "campaign file").format(MAX_PORTRAIT_BYTES // (1024 * 1024))
        )
        self.remove_portrait_button = QPushButton(tr(_CTX, "Remove"))
        self.remove_portrait_button.setObjectName("removePortraitButton")
        buttons.addWidget(self.set_portrait_button)
        buttons.addWidget(self.remove_portrait_button)
        layout.addLayout(buttons)
        layout.addStretch(1)
        return layout

    def connect_edits(self) -> None:
        """Make the fields edit the character (after the sheet connected the document)."""
        self.name_edit.textEdited.connect(self._on_name_typed)
        self.name_edit.editingFinished.connect(self._on_name_finished)
        self.player_edit.editingFinished.connect(self._on_player_finished)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_chosen)
        self.load_combo.currentIndexChanged.connect(self._on_load_chosen)
        self.set_portrait_button.clicked.connect(self._choose_portrait)
        self.remove_portrait_button.clicked.connect(
            lambda: self._editor.commit(tr(_CTX, "Remove portrait"),
                                        lambda c: setattr(c, "portrait", None))
        )

    # --- showing -------------------------------------------------------------------------

    def forget_typing(self) -> None:
        """Another character: what was typed for the last one is not an edit any more."""
        self.name_edit.setModified(False)
        self.player_edit.setModified(False)
        self.show_name_error("")

    def show_character(self, character: Character) -> None:
        if not self.name_edit.isModified() and self.name_edit.text() != character.name:
            self.name_edit.setText(character.name)
        if not self.player_edit.isModified() and self.player_edit.text() != character.player:
            self.player_edit.setText(character.player)
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(character.kind.value))
        self.load_combo.setCurrentIndex(self.load_combo.findData(character.load.value))

    def show_portrait(self, character: Character) -> None:
        self.remove_portrait_button.setEnabled(character.portrait is not None)
        show_portrait(self.portrait_label, character.portrait)

    def show_name_error(self, text: str) -> None:
        self.name_error.show_message(text)
        self.name_edit.setStyleSheet("QLineEdit { border: 2px solid #c62828; }" if text else "")
        self.name_edit.setToolTip(text)

    # --- editing -------------------------------------------------------------------------

    def set_portrait_from_file(self, path: Path) -> bool:
        """Keep the image at ``path`` as the portrait; refuse non-images and large files."""
        try:
            portrait = read_portrait(path)
        except PortraitError as exc:
            self._editor.show_message(str(exc))
            return False
        return self._editor.commit(tr(_CTX,
                "Set portrait"), lambda c: setattr(c, "portrait", portrait))

    def _choose_portrait(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, tr(_CTX, "Choose a portrait"), "",
            tr(_CTX, "Images (*.png *.jpg *.jpeg *.gif *.webp);;All files (*)"),
        )
        if path:
            self.set_portrait_from_file(Path(path))

    def _on_name_typed(self, text: str) -> None:
        self.show_name_error("" if text.strip() else tr(_CTX, "A name is required."))

    def _on_name_finished(self) -> None:
        if self._editor.updating or not self.name_edit.isModified():
            return
        character = self._editor.character()
        if character is None:
            return
        name = self.name_edit.text().strip()
        if not name:
            message = tr(_CTX, "Name cannot be empty; the sheet keeps “{0}”.").format(
                    character.name)
            self.show_name_error(message)
            self._editor.show_message(message)
            return
        self.show_name_error("")
        if name == character.name:
            self.name_edit.setModified(False)
            self.name_edit.setText(name)
            return
        if self._editor.commit(tr(_CTX, "Rename {0} to {1}").format(character.name, name),
                               lambda c: setattr(c, "name", name), "field:name"):
            self.name_edit.setModified(False)
            self._editor.refresh()

    def _on_player_finished(self) -> None:
        if self._editor.updating or not self.player_edit.isModified():
            return
        player = self.player_edit.text().strip()
        character = self._editor.character()
        if character is not None and player != character.player:
            self._editor.commit(tr(_CTX, "Set player"), lambda c: setattr(c, "player", player),
                                "field:player")
        self.player_edit.setModified(False)
        self._editor.refresh()

    def _on_kind_chosen(self, _index: int) -> None:
        if self._editor.updating:
            return
        kind = CharacterKind(self.kind_combo.currentData())
        self._editor.commit(tr(_CTX, "Make {0}").format(tr(_CTX, KIND_LABELS[kind]).lower()),
                            lambda c: setattr(c, "kind", kind))

    def _on_load_chosen(self, _index: int) -> None:
        if self._editor.updating:
            return
        load = Load(self.load_combo.currentData())
        self._editor.commit(tr(_CTX, "Set load to {0}").format(
                                tr(_CTX, _LOAD_LABELS[load]).lower()),
                            lambda c: setattr(c, "load", load), "field:load")
