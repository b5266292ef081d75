"""The Athletics check of a Dash or Run (Ch.6) when obstacles, bad footing or fire call for
it: the Difficulty (8 + conditions, or the threats' DM under fire) and the odds before the
roll, then the roll (the app's or the table's dice) logged as one step. Opened from the
combatant panel; the panel's Dash and Run buttons do the moving."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain import Characteristic
from mneme_desktop.domain.combat.dash_run import (
    DashRunRequest,
    DashRunSpec,
    build_dash_run,
    dash_run_patch,
)
from mneme_desktop.domain.next_roll import next_roll_of
from mneme_desktop.rules.movement import MovementMode
from mneme_desktop.ui.dialogs.roll_dialog_parts import CombatRollDialog, dms_text, plain_label
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["DashRunDialog"]

_CTX = "DashRunDialog"


class DashRunDialog(CombatRollDialog):
    """One Athletics check for a Dash or Run, rolled and logged as one step."""

    def __init__(self, document: CampaignDocument, encounter_id: str, combatant_id: str,
                 rng: random.Random, parent: QWidget | None = None) -> None:
        super().__init__(document, encounter_id, rng, tr(_CTX, "Athletics for a Dash or Run"),
                         "dash_run_dialog", parent)
        self._combatant_id = combatant_id
        self._spec: DashRunSpec | None = None
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
        self.odds_label = plain_label("dash_run_odds")
        form.addRow(self.odds_label)
        self.dice_edit = QLineEdit(objectName="dash_run_dice")
        self.dice_edit.setAccessibleName(tr(_CTX, "Athletics dice rolled at the table"))
        form.addRow(tr(_CTX, "Dice"), self.dice_edit)
        self.message = StatusLine("dash_run_message")
        form.addRow(self.message)
        self.roll_button = self._ok_buttons(form, tr(_CTX, "Roll and log"), "dash_run_roll",
                                            self.roll)
        self.mode_combo.currentIndexChanged.connect(self._declared)
        self.characteristic_combo.currentIndexChanged.connect(self._declared)
        for spin in (self.conditions_spin, self.threats_spin):
            spin.valueChanged.connect(self._declared)
        self.under_fire_check.toggled.connect(self._fire_toggled)
        self.next_roll_check.toggled.connect(self._declared)
        self.dice_edit.returnPressed.connect(self.roll)
        self.dice_edit.textEdited.connect(lambda _text: self.message.clear_message())
        self._watch()

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
        self.message.show_message(spec.refusal)
        self.roll_button.setEnabled(not spec.refusal)
        combatant = encounter.find_combatant(self._combatant_id)
        waiting = next_roll_of(encounter, combatant) if combatant is not None else None
        self._show_next_roll(self.next_roll_check, waiting,
                             tr(_CTX, "Nothing waits on this combatant's next roll"))
        dms = dms_text(spec.modifiers)
        difficulty = " ".join(f"{t.value:+d} {t.label}" if i else str(t.value)
                              for i, t in enumerate(spec.difficulty.terms))
        dice = 2 + abs(spec.advantage)
        self._show_dice_hint(dice)
        self.odds_label.setText(tr(_CTX, "{0}: {1}d6 DM {2:+d} ({3}) vs {4} = {5}: keeps "
                                         "going {6}").format(
            spec.name, dice, spec.roll_modifier, dms, spec.difficulty.total, difficulty,
            format_percent(spec.chance)))

    def roll(self) -> bool:
        """Roll (or read the table's dice) and log it: one step; the dialog closes."""
        self._declared()
        spec = self._spec
        if spec is None:
            return False
        return self._roll_and_push(2 + abs(spec.advantage), lambda encounter, source:
                                   dash_run_patch(self._document.campaign, encounter, spec,
                                                  source))
