"""The Athletics check of a Dash or Run (Ch.6) when obstacles, bad footing or fire call for
it: the Difficulty (8 + conditions, or the threats' DM under fire) and the odds before the
roll, then the roll (the app's or the table's dice) logged as one step. Opened from the
combatant panel; the panel's Dash and Run buttons do the moving."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain import Characteristic, Encounter
from mneme_desktop.domain.combat import parse_dice_source
from mneme_desktop.domain.combat.dash_run import (
    DashRunRequest,
    DashRunSpec,
    build_dash_run,
    dash_run_patch,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.next_roll import next_roll_of
from mneme_desktop.rules.checks import CheckResult
from mneme_desktop.rules.movement import MovementMode
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.widgets.narrow import fit_placeholder
from mneme_desktop.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["DashRunDialog"]

_CTX = "DashRunDialog"


class DashRunDialog(QDialog):
    """One Athletics check for a Dash or Run, rolled and logged as one step."""

    def __init__(self, document: CampaignDocument, encounter_id: str, combatant_id: str,
                 rng: random.Random, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Athletics for a Dash or Run"))
        self.setObjectName("dash_run_dialog")
        self._document = document
        self._encounter_id = encounter_id
        self._combatant_id = combatant_id
        self._rng = rng
        self._spec: DashRunSpec | None = None
        self.last_check: CheckResult | None = None
        form = QFormLayout(self)
        self.mode_combo = QComboBox(objectName="dash_run_mode")
        self.mode_combo.addItem(tr(_CTX, "Dash (significant action)"), MovementMode.DASH)
        self.mode_combo.addItem(tr(_CTX, "Run (full action)"), MovementMode.RUN)
        form.addRow(tr(_CTX, "Movement"), self.mode_combo)
        self.conditions_spin = QSpinBox(objectName="dash_run_conditions", minimum=0,
                                        maximum=8)
        self.conditions_spin.setAccessibleName(tr(_CTX, "Obstacles and bad footing"))
        self.conditions_spin.setToolTip(tr(_CTX, "Obstacles, rubble, mud, bad footing: added "
                                                 "to the Difficulty of 8"))
        form.addRow(tr(_CTX, "Conditions"), self.conditions_spin)
        row = QHBoxLayout()
        self.under_fire_check = QCheckBox(tr(_CTX, "Under fire"), objectName="dash_run_fire")
        self.under_fire_check.setToolTip(tr(_CTX, "Ch.6: under fire the adversaries' or "
                                                  "threats' DM takes the conditions' place"))
        self.threats_spin = QSpinBox(objectName="dash_run_threats_dm", minimum=-6, maximum=10)
        self.threats_spin.setAccessibleName(tr(_CTX, "The threats' DM"))
        self.threats_spin.setPrefix(tr(_CTX, "threats' DM "))
        self.threats_spin.setEnabled(False)
        row.addWidget(self.under_fire_check)
        row.addWidget(self.threats_spin)
        form.addRow(tr(_CTX, "Fire"), row)
        self.characteristic_combo = QComboBox(objectName="dash_run_characteristic")
        for code in (Characteristic.DEX, Characteristic.END):
            self.characteristic_combo.addItem(code.value.upper(), code.value)
        self.characteristic_combo.setToolTip(tr(_CTX, "Ch.6 running: Athletics + END or DEX"))
        form.addRow(tr(_CTX, "Characteristic"), self.characteristic_combo)
        self.next_roll_check = QCheckBox(objectName="dash_run_next_roll")
        self.next_roll_check.setChecked(True)
        form.addRow(self.next_roll_check)
        self.odds_label = QLabel(objectName="dash_run_odds")
        self.odds_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        self.odds_label.setWordWrap(True)
        form.addRow(self.odds_label)
        self.dice_edit = QLineEdit(objectName="dash_run_dice")
        self.dice_edit.setAccessibleName(tr(_CTX, "Athletics dice rolled at the table"))
        form.addRow(tr(_CTX, "Dice"), self.dice_edit)
        self.message = StatusLine("dash_run_message")
        form.addRow(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.roll_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.roll_button.setText(tr(_CTX, "Roll and log"))
        self.roll_button.setObjectName("dash_run_roll")
        self.roll_button.setAutoDefault(False)
        self.buttons.accepted.connect(self.roll)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.mode_combo.currentIndexChanged.connect(self._declared)
        self.characteristic_combo.currentIndexChanged.connect(self._declared)
        for spin in (self.conditions_spin, self.threats_spin):
            spin.valueChanged.connect(self._declared)
        self.under_fire_check.toggled.connect(self._fire_toggled)
        self.next_roll_check.toggled.connect(self._declared)
        self.dice_edit.returnPressed.connect(self.roll)
        self.dice_edit.textEdited.connect(lambda _text: self.message.clear_message())
        document.changed.connect(self._document_changed)
        self._declared()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter in the dice box rolls (once); elsewhere it does not roll by surprise."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def _encounter(self) -> Encounter | None:
        return self._document.encounter(self._encounter_id)

    def _fire_toggled(self, checked: bool) -> None:
        self.threats_spin.setEnabled(checked)
        self.conditions_spin.setEnabled(not checked)
        self._declared()

    def request(self) -> DashRunRequest:
        return DashRunRequest(
            combatant_id=self._combatant_id, mode=self.mode_combo.currentData(),
            conditions=self.conditions_spin.value(),
            threats_dm=self.threats_spin.value() if self.under_fire_check.isChecked()
            else None,
            characteristic=Characteristic(self.characteristic_combo.currentData()),
            use_next_roll=self.next_roll_check.isChecked())

    @property
    def spec(self) -> DashRunSpec | None:
        return self._spec

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id in summary.encounter_ids or summary.character_ids:
            self._declared()

    def _declared(self, *_args: object) -> None:
        encounter = self._encounter()
        self._spec = None
        if encounter is None:
            return
        try:
            spec = build_dash_run(self._document.campaign, encounter, self.request())
        except ValueError as exc:
            self.odds_label.clear()
            self.message.show_message(str(exc))
            self.roll_button.setEnabled(False)
            return
        self._spec = spec
        self.roll_button.setEnabled(True)
        combatant = encounter.find_combatant(self._combatant_id)
        waiting = next_roll_of(encounter, combatant) if combatant is not None else None
        self.next_roll_check.setText(
            tr(_CTX, "Next roll: {0}").format(waiting.text) if waiting else
            tr(_CTX, "Nothing waits on this combatant's next roll"))
        self.next_roll_check.setEnabled(bool(waiting))
        dms = ", ".join(f"{m.label} {m.value:+d}" for m in spec.modifiers)
        difficulty = " ".join(f"{t.value:+d} {t.label}" if i else str(t.value)
                              for i, t in enumerate(spec.difficulty.terms))
        dice = 2 + abs(spec.advantage)
        self.dice_edit.setPlaceholderText(tr(_CTX, "empty: the app rolls; or the table's {0} "
                                                   "dice").format(dice))
        fit_placeholder(self.dice_edit)
        self.odds_label.setText(tr(_CTX, "{0}: {1}d6 DM {2:+d} ({3}) vs {4} = {5}: keeps "
                                         "going {6}").format(
            spec.name, dice, spec.roll_modifier, dms, spec.difficulty.total, difficulty,
            format_percent(spec.chance)))

    def roll(self) -> bool:
        """Roll (or read the table's dice) and log it: one step; the dialog closes."""
        self._declared()
        spec, encounter = self._spec, self._encounter()
        if spec is None or encounter is None:
            return False
        try:
            source = parse_dice_source(self.dice_edit.text(), self._rng, 2 + abs(spec.advantage))
            patch, check = dash_run_patch(self._document.campaign, encounter, spec, source)
        except ValueError as exc:
            self.message.show_message(str(exc))
            return False
        self.last_check = check
        push_patch(self._document, patch)
        self.accept()
        return True
