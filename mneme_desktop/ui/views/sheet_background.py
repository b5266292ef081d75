"""The sheet's Background group: species, age, credits, and the careers served with their
terms. Each field commits through the sheet's editor, one undo step per change; what the
domain refuses (an age of -3, credits past a billion) is said on the message line and
the field shows the sheet's value again."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)

from mneme_desktop.domain import Character
from mneme_desktop.domain.character import MAX_AMOUNT
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.sheet_gear_models import CareersTableModel, total_terms
from mneme_desktop.ui.views.sheet_parts import SPACING, SheetEditor, label_buddies
from mneme_desktop.ui.views.sheet_tables import ItemTableGroup
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox

_CTX = "SheetBackground"

__all__ = ["MAX_AGE", "BackgroundGroup", "parse_age"]

MAX_AGE = 100_000
"""The domain's bound on an age (long-lived species included)."""


def parse_age(text: str) -> int | None:
    """Whole years, or None for an empty field; ValueError naming what was typed."""
    text = text.strip()
    if not text:
        return None
    try:
        age = int(text)
    except ValueError:
        age = -1
    if not 0 <= age <= MAX_AGE:
        raise ValueError(
            tr(_CTX, "Age: “{0}” is not an age; type whole years from 0 to {1}, or leave it "
                     "empty when it is not known").format(text, MAX_AGE)
        )
    return age


class BackgroundGroup(QGroupBox):
    """Species, age, credits and careers; the careers are a table like the skills."""

    def __init__(self, editor: SheetEditor, careers_model: CareersTableModel) -> None:
        super().__init__(tr(_CTX, "Background"))
        self._editor = editor
        self.setObjectName("backgroundGroup")
        row = QHBoxLayout(self)
        row.setSpacing(SPACING * 2)
        form = QFormLayout()
        form.setSpacing(SPACING // 2 + 2)
        self.species_edit = QLineEdit()
        self.species_edit.setObjectName("speciesEdit")
        self.species_edit.setMaxLength(100)
        self.species_edit.setPlaceholderText(tr(_CTX, "e.g. Human"))
        form.addRow(tr(_CTX, "&Species:"), self.species_edit)
        self.age_edit = QLineEdit()
        self.age_edit.setObjectName("ageEdit")
        self.age_edit.setMaxLength(8)
        self.age_edit.setPlaceholderText(tr(_CTX, "years; empty if not known"))
        form.addRow(tr(_CTX, "A&ge:"), self.age_edit)
        self.credits_spin = BoundedSpinBox(tr(_CTX, "Credits"))
        self.credits_spin.setObjectName("creditsSpin")
        self.credits_spin.setRange(-MAX_AMOUNT, MAX_AMOUNT)
        self.credits_spin.setGroupSeparatorShown(True)
        self.credits_spin.setSuffix(tr(_CTX, " Cr"))
        self.credits_spin.setToolTip(tr(_CTX, "Cash in hand; below 0 for a debt"))
        form.addRow(tr(_CTX, "C&redits:"), self.credits_spin)
        self.terms_label = QLabel()
        self.terms_label.setObjectName("totalTermsLabel")
        form.addRow(tr(_CTX, "Terms:"), self.terms_label)
        label_buddies(form)
        row.addLayout(form, 1)
        self.careers = ItemTableGroup(editor, tr(_CTX, "Careers"), "careers", careers_model,
                                      "career", (0, 2))
        self.careers.setFlat(True)
        careers_box = QVBoxLayout()
        careers_box.addWidget(self.careers)
        row.addLayout(careers_box, 2)

    def connect_edits(self) -> None:
        """Make the fields edit the character (after the sheet connected the document)."""
        self.species_edit.editingFinished.connect(self._on_species_finished)
        self.age_edit.editingFinished.connect(self._on_age_finished)
        self.credits_spin.valueChanged.connect(self._on_credits)
        self.credits_spin.refused.connect(self._editor.show_message)
        self.careers.connect_edits()

    def flush(self) -> None:
        """Commit a species or age typed but not yet finished (before a save or a switch)."""
        self._on_species_finished()
        self._on_age_finished()

    def forget_typing(self) -> None:
        self.species_edit.setModified(False)
        self.age_edit.setModified(False)

    def show_character(self, character: Character) -> None:
        if not self.species_edit.isModified():
            self.species_edit.setText(character.species)
        if not self.age_edit.isModified():
            self.age_edit.setText("" if character.age is None else str(character.age))
        if self.credits_spin.value() != character.credits:
            self.credits_spin.setValue(character.credits)
        terms = total_terms(character)
        careers = len(character.careers)
        if not careers:
            self.terms_label.setText(tr(_CTX, "none"))
        elif careers == 1:
            self.terms_label.setText(tr(_CTX, "{0} in one career").format(terms))
        else:
            self.terms_label.setText(tr(_CTX, "{0} in {1} careers").format(terms, careers))

    # --- editing -------------------------------------------------------------------------

    def _on_species_finished(self) -> None:
        if self._editor.updating or not self.species_edit.isModified():
            return
        species = " ".join(self.species_edit.text().split())
        character = self._editor.character()
        self.species_edit.setModified(False)
        if character is not None and species != character.species:
            self._editor.commit(tr(_CTX, "Set species to {0}").format(species or "—"),
                                lambda c: setattr(c, "species", species), "field:species")
        self._editor.refresh()

    def _on_age_finished(self) -> None:
        if self._editor.updating or not self.age_edit.isModified():
            return
        character = self._editor.character()
        if character is None:
            return
        try:
            age = parse_age(self.age_edit.text())
        except ValueError as exc:
            self.age_edit.setModified(False)
            self._editor.show_message(str(exc))
            self._editor.refresh()
            return
        self.age_edit.setModified(False)
        if age != character.age:
            text = (tr(_CTX, "Set age to {0}").format(age) if age is not None
                    else tr(_CTX, "Clear age"))
            self._editor.commit(text, lambda c: setattr(c, "age", age), "field:age")
        self._editor.refresh()

    def _on_credits(self, value: int) -> None:
        if self._editor.updating:
            return
        self._editor.commit(tr(_CTX, "Set credits to {0}").format(value),
                            lambda c: setattr(c, "credits", value), "field:credits")
