"""The supporting action dialog (Ch.6 supporting actions): the supporter's check with its
DMs and odds before the roll, the allies it aids, then one step that rolls it (the app's
or the table's dice), spends the significant action and leaves the Success Effect as a DM
waiting on each ally's next roll. Opened from the combatant panel."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain import CHARACTERISTIC_CODES, Characteristic
from mneme_desktop.domain.combat.next_roll import next_roll_of
from mneme_desktop.domain.combat.support import (
    SupportRequest,
    SupportSpec,
    build_support,
    support_patch,
)
from mneme_desktop.ui.dialogs.roll_dialog_parts import CombatRollDialog, dms_text, plain_label
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import ID_ROLE
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.widgets.difficulty_picker import DifficultyPicker
from mneme_desktop.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["SupportDialog"]

_CTX = "SupportDialog"


class SupportDialog(CombatRollDialog):
    """One supporting action: declared, then rolled and applied as one step."""

    def __init__(self, document: CampaignDocument, encounter_id: str, supporter_id: str,
                 rng: random.Random, parent: QWidget | None = None) -> None:
        super().__init__(document, encounter_id, rng, tr(_CTX, "Supporting action"),
                         "support_dialog", parent)
        self._supporter_id = supporter_id
        self._spec: SupportSpec | None = None
        form = QFormLayout(self)
        self.supporter_label = QLabel(objectName="support_supporter")
        self.supporter_label.setTextFormat(Qt.TextFormat.PlainText)  # a name, never markup
        form.addRow(tr(_CTX, "Supporter"), self.supporter_label)
        self.ally_list = QListWidget(objectName="support_allies")
        self.ally_list.setToolTip(tr(_CTX, "Tick the ally or allies the action aids: the "
                                           "Success Effect becomes a DM on their next roll"))
        self.ally_list.setFixedHeight(110)  # ticking an ally must not shrink the list
        form.addRow(tr(_CTX, "Aids"), self.ally_list)
        self.skill_combo = QComboBox(objectName="support_skill")
        self.skill_combo.setEditable(True)
        self.skill_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.skill_combo.setToolTip(tr(_CTX, "The skill of the supporting action (suppression "
                                             "fire: a weapon skill); one not held rolls "
                                             "unskilled (-3)"))
        form.addRow(tr(_CTX, "Skill"), self.skill_combo)
        self.characteristic_combo = QComboBox(objectName="support_characteristic")
        self.characteristic_combo.addItem(tr(_CTX, "No characteristic"), None)
        for code in CHARACTERISTIC_CODES:
            self.characteristic_combo.addItem(code.value.upper(), code.value)
        form.addRow(tr(_CTX, "Characteristic"), self.characteristic_combo)
        self.difficulty_picker = DifficultyPicker("support_difficulty",
                                                  "support_difficulty_name")
        form.addRow(tr(_CTX, "Difficulty"), self.difficulty_picker)
        self.other_dm_spin = QSpinBox(objectName="support_other_dm", minimum=-10, maximum=10)
        self.other_dm_spin.setAccessibleName(tr(_CTX, "Other DM"))
        form.addRow(tr(_CTX, "Other DM"), self.other_dm_spin)
        self.next_roll_check = QCheckBox(objectName="support_next_roll")
        self.next_roll_check.setChecked(True)
        form.addRow(self.next_roll_check)
        self.spend_check = QCheckBox(tr(_CTX, "Spends the supporter's significant action"),
                                     objectName="support_spend")
        self.spend_check.setChecked(True)
        form.addRow(self.spend_check)
        self.odds_label = plain_label("support_odds")
        # Room for the odds before any ally is ticked, so they appear without moving the
        # list and buttons under the pointer.
        self.odds_label.setMinimumHeight(self.odds_label.fontMetrics().lineSpacing() * 3)
        form.addRow(self.odds_label)
        self.dice_edit = QLineEdit(objectName="support_dice")
        self.dice_edit.setAccessibleName(tr(_CTX, "Support dice rolled at the table"))
        self._show_dice_hint(2)  # its room from the start: the first tick moves nothing
        form.addRow(tr(_CTX, "Dice"), self.dice_edit)
        self.message = StatusLine("support_message")
        form.addRow(self.message)
        self.roll_button = self._ok_buttons(form, tr(_CTX, "Roll and apply"), "support_roll",
                                            self.roll)
        self._fill()
        self.ally_list.itemChanged.connect(self._declared)
        self.skill_combo.currentTextChanged.connect(self._declared)
        self.characteristic_combo.currentIndexChanged.connect(self._declared)
        self.difficulty_picker.spin.valueChanged.connect(self._declared)
        self.other_dm_spin.valueChanged.connect(self._declared)
        for box in (self.next_roll_check, self.spend_check):
            box.toggled.connect(self._declared)
        self.dice_edit.returnPressed.connect(self.roll)
        self.dice_edit.textEdited.connect(lambda _text: self.message.clear_message())
        self._watch()

    def _fill(self) -> None:
        encounter = self._encounter()
        supporter = encounter.find_combatant(self._supporter_id) if encounter else None
        if encounter is None or supporter is None:
            return
        campaign = self._document.campaign
        sheet = campaign.combatant_character(supporter)
        self.supporter_label.setText(sheet.name)
        # The supporter's own side first: they are the allies the action aids (the turn
        # order mixed the opponents in between them).
        order = encounter.initiative_order()
        order = ([c for c in order if c.side == supporter.side]
                 + [c for c in order if c.side != supporter.side])
        for combatant in order:
            if combatant.id == supporter.id:
                continue
            item = QListWidgetItem(campaign.combatant_character(combatant).name)
            item.setData(ID_ROLE, combatant.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.ally_list.addItem(item)
        self.skill_combo.addItem("")
        for skill in sheet.skills:
            self.skill_combo.addItem(skill.label)
        weapon_skill = next((w.skill for w in sheet.weapons if w.skill), None)
        if weapon_skill:  # suppression fire, the chapter's example
            self.skill_combo.setCurrentText(weapon_skill)

    def ally_ids(self) -> tuple[str, ...]:
        items = (self.ally_list.item(i) for i in range(self.ally_list.count()))
        return tuple(str(item.data(ID_ROLE)) for item in items
                     if item.checkState() == Qt.CheckState.Checked)

    def request(self) -> SupportRequest:
        code = self.characteristic_combo.currentData()
        return SupportRequest(
            supporter_id=self._supporter_id, ally_ids=self.ally_ids(),
            skill=self.skill_combo.currentText().strip() or None,
            characteristic=Characteristic.parse(code) if isinstance(code, str) else None,
            difficulty=self.difficulty_picker.value(), other_dm=self.other_dm_spin.value(),
            use_next_roll=self.next_roll_check.isChecked(),
            spend_action=self.spend_check.isChecked())

    @property
    def spec(self) -> SupportSpec | None:
        return self._spec

    def _declared(self, *_args: object) -> None:
        """The check as declared now: its DMs and the odds of each DM for the allies."""
        encounter = self._encounter()
        self._spec = None
        if encounter is None:
            return
        supporter = encounter.find_combatant(self._supporter_id)
        waiting = next_roll_of(encounter, supporter) if supporter is not None else None
        self._show_next_roll(self.next_roll_check, waiting,
                             tr(_CTX, "Nothing waits on the supporter's next roll"))
        try:
            self._spec = build_support(self._document.campaign, encounter, self.request())
        except ValueError as exc:
            self.odds_label.clear()
            self.message.show_message(str(exc))
            self.roll_button.setEnabled(False)
            return
        spec = self._spec
        self.message.show_message(spec.refusal)
        self.roll_button.setEnabled(not spec.refusal)
        dms = dms_text(spec.modifiers) or tr(_CTX, "no DM")
        dice = 2 + abs(spec.advantage)
        self._show_dice_hint(dice)
        self.odds_label.setText(tr(
            _CTX, "{0}d6 DM {1:+d} ({2}) vs {3}: succeeds {4}; DM +1 or more for {5} {6}, "
                  "+2 or more {7}").format(
            dice, spec.roll_modifier, dms, spec.difficulty, format_percent(spec.chance),
            ", ".join(spec.ally_names), format_percent(spec.chance_of_dm(1)),
            format_percent(spec.chance_of_dm(2))))

    def roll(self) -> bool:
        """Roll (or read the table's dice) and apply: one step; the dialog closes."""
        self._declared()
        spec = self._spec
        if spec is None:
            return False
        return self._roll_and_push(2 + abs(spec.advantage), lambda encounter, source:
                                   support_patch(self._document.campaign, encounter, spec,
                                                 source))
