"""The quick NPC generator: roll a UPP, pick skills from a package, take a name from a list.

What is rolled is shown as one-line NPCs before anything is added; Roll Again rolls anew,
and changing the package, the number of skills or of NPCs rolls again. Add puts exactly
what is shown into the campaign as one undo step. The rolls are
:mod:`mneme_desktop.domain.npc_generator`'s, with the ``random.Random`` given (tests seed it).
"""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Character, CharacterKind
from mneme_desktop.domain.npc_generator import (
    BUILTIN_NAMES,
    BUILTIN_PACKAGES,
    SkillPackage,
    generate_npc,
    package_of_template,
)
from mneme_desktop.domain.npc_line import format_npc_lines
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.library_commands import add_npcs
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "QuickNpcDialog"

__all__ = ["MAX_NPCS", "QuickNpcDialog"]

MAX_NPCS = 20
"""NPCs rolled at once: a crowd, not a census."""
MAX_SKILLS = 12


class QuickNpcDialog(QDialog):
    """Package, skills, how many, where to, the names; the rolled NPCs; Add."""

    def __init__(self, document: CampaignDocument, *, rng: random.Random | None = None,
                 as_templates: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("quick_npc_dialog")
        self.setWindowTitle(tr(_CTX, "Quick NPC"))
        self.document = document
        self.rng = rng or random.Random()
        self.rolled: list[Character] = []
        self.added_ids: list[str] = []

        self.package_combo = QComboBox()
        self.package_combo.setObjectName("npc_package_combo")
        packages: list[SkillPackage] = list(BUILTIN_PACKAGES)
        for package in BUILTIN_PACKAGES:
            self.package_combo.addItem(package.name, package.name)  # a trade: data
        for template in document.campaign.adversary_library:
            if template.stats.skills:
                packages.append(package_of_template(template))
                self.package_combo.addItem(tr(_CTX, "Library: {0}").format(template.name),
                                           template.id)
        self._packages = packages
        self.skills_spin = QSpinBox()
        self.skills_spin.setObjectName("npc_skills_spin")
        self.skills_spin.setRange(0, MAX_SKILLS)
        self.skills_spin.setValue(3)
        self.count_spin = QSpinBox()
        self.count_spin.setObjectName("npc_count_spin")
        self.count_spin.setRange(1, MAX_NPCS)
        self.target_combo = QComboBox()
        self.target_combo.setObjectName("npc_target_combo")
        self.target_combo.addItem(tr(_CTX, "NPCs"), False)
        self.target_combo.addItem(tr(_CTX, "Adversary templates"), True)
        self.target_combo.setCurrentIndex(1 if as_templates else 0)
        self.names_edit = QPlainTextEdit("\n".join(BUILTIN_NAMES))
        self.names_edit.setObjectName("npc_names_edit")
        self.names_edit.setAccessibleName(tr(_CTX, "Names to pick from, one a line"))
        self.names_edit.setMaximumHeight(self.fontMetrics().height() * 6)
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("npc_preview")
        self.preview.setReadOnly(True)
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.preview.setAccessibleName(tr(_CTX, "The NPCs rolled"))
        self.reroll_button = QPushButton(tr(_CTX, "&Roll Again"))
        self.reroll_button.setObjectName("npc_reroll_button")
        self.status = StatusLine("npc_status")

        form = QFormLayout()
        form.addRow(tr(_CTX, "Skills from:"), self.package_combo)
        form.addRow(tr(_CTX, "Skills each:"), self.skills_spin)
        form.addRow(tr(_CTX, "How many:"), self.count_spin)
        form.addRow(tr(_CTX, "Add as:"), self.target_combo)
        form.addRow(tr(_CTX, "Names:"), self.names_edit)
        roll_row = QHBoxLayout()
        roll_row.addWidget(QLabel(tr(_CTX, "Rolled (UPP 2d6 each):")))
        roll_row.addStretch(1)
        roll_row.addWidget(self.reroll_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(roll_row)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.status)
        self.buttons = ok_cancel_buttons(self, tr(_CTX, "&Add"))
        layout.addWidget(self.buttons)
        self.resize(720, 480)

        self.reroll_button.clicked.connect(self.roll)
        for spin in (self.skills_spin, self.count_spin):
            spin.valueChanged.connect(self.roll)
        self.package_combo.currentIndexChanged.connect(self.roll)
        self.target_combo.currentIndexChanged.connect(self.roll)
        self.roll()

    def as_templates(self) -> bool:
        return bool(self.target_combo.currentData())

    def names(self) -> list[str]:
        return [" ".join(line.split()) for line in self.names_edit.toPlainText().splitlines()
                if line.strip()]

    def package(self) -> SkillPackage:
        return self._packages[max(0, self.package_combo.currentIndex())]

    def roll(self) -> list[Character]:
        """Roll the NPCs anew and show them; nothing is added yet."""
        names = self.names()
        if not names:
            self.rolled = []
            self.preview.setPlainText("")
            self.status.setText(tr(_CTX, "Give at least one name to pick from."))
            return []
        campaign = self.document.campaign
        taken = [t.name for t in campaign.adversary_library] if self.as_templates() else \
            [c.name for c in campaign.characters]
        kind = CharacterKind.ADVERSARY if self.as_templates() else CharacterKind.NPC
        rolled: list[Character] = []
        for _ in range(self.count_spin.value()):
            npc = generate_npc(self.rng, self.package(), names,
                               skill_count=self.skills_spin.value(), taken=taken, kind=kind)
            taken.append(npc.name)
            rolled.append(npc)
        self.rolled = rolled
        self.preview.setPlainText(format_npc_lines(rolled))
        self.status.setText(tr(_CTX, "{0} rolled; Add puts them in the campaign as one step."
                               ).format(len(rolled)))
        return rolled

    def accept(self) -> None:
        if not self.rolled:
            self.status.setText(tr(_CTX, "Nothing rolled to add: give a name to pick from."))
            return
        self.added_ids = add_npcs(self.document, self.rolled, as_templates=self.as_templates())
        super().accept()
