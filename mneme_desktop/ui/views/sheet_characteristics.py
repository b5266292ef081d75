"""The sheet's Characteristics group: each value and its damage, the current value, its
ChM, psionics and the UPP.

The ChM of a value being typed is previewed before it is committed; every number shown is
asked of the domain and the rules core.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QGroupBox, QLabel, QSpinBox

from mneme_desktop.domain import (
    CHARACTERISTIC_CODES,
    MAX_CHARACTERISTIC,
    Character,
    Characteristic,
    CharacteristicDamage,
    Characteristics,
)
from mneme_desktop.rules.checks import characteristic_modifier
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.sheet_models import format_modifier
from mneme_desktop.ui.views.sheet_parts import SPACING, SheetEditor, small_label
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox
from mneme_desktop.ui.widgets.plain_text import set_rich_text

_CTX = "SheetCharacteristics"

__all__ = ["CharacteristicsGroup"]

_CHARACTERISTIC_NAMES = {
    Characteristic.STR: tr_noop(_CTX, "Strength"),
    Characteristic.DEX: tr_noop(_CTX, "Dexterity"),
    Characteristic.END: tr_noop(_CTX, "Endurance"),
    Characteristic.INT: tr_noop(_CTX, "Intelligence"),
    Characteristic.EDU: tr_noop(_CTX, "Education"),
    Characteristic.SOC: tr_noop(_CTX, "Social Standing"),
    Characteristic.PSI: tr_noop(_CTX, "Psionic Strength"),
}

_DAMAGED_STYLE = "color: #b71c1c;"
"""A current value lowered by characteristic damage: data to notice, not a refusal."""


class CharacteristicsGroup(QGroupBox):
    """One row per characteristic: value, damage, current and ChM."""

    def __init__(self, editor: SheetEditor) -> None:
        super().__init__(tr(_CTX, "Characteristics"))
        self._editor = editor
        self.setObjectName("characteristicsGroup")
        self.spin_boxes: dict[str, QSpinBox] = {}
        self.damage_spin_boxes: dict[str, QSpinBox] = {}
        self.current_labels: dict[str, QLabel] = {}
        self.chm_labels: dict[str, QLabel] = {}
        grid = QGridLayout(self)
        grid.setHorizontalSpacing(SPACING + 2)
        grid.setVerticalSpacing(SPACING // 2)
        for column, header in enumerate(("", tr(_CTX, "Value"), tr(_CTX, "Damage"), tr(_CTX,
                "Current"), tr(_CTX, "ChM"))):
            label = small_label(header)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(label, 0, column)
        for row, code in enumerate(CHARACTERISTIC_CODES, start=1):
            key = code.value
            name = QLabel()
            set_rich_text(name, "<b>{}</b>", key.upper())
            full_name = tr(_CTX, _CHARACTERISTIC_NAMES[code])
            name.setToolTip(full_name)
            spin = BoundedSpinBox(full_name)
            spin.refused.connect(editor.show_message)
            spin.input_accepted.connect(editor.clear_range_refusal)
            spin.setObjectName(f"{key}Spin")
            spin.setRange(0, MAX_CHARACTERISTIC)
            spin.setKeyboardTracking(False)
            spin.setAccessibleName(full_name)
            spin.setToolTip(tr(_CTX, "{0} (0 to {1})").format(full_name, MAX_CHARACTERISTIC))
            name.setBuddy(spin)
            damage = BoundedSpinBox(tr(_CTX, "{0} damage").format(key.upper()))
            damage.refused.connect(editor.show_message)
            damage.input_accepted.connect(editor.clear_range_refusal)
            damage.setObjectName(f"{key}DamageSpin")
            damage.setRange(0, MAX_CHARACTERISTIC)
            damage.setKeyboardTracking(False)
            damage.setAccessibleName(tr(_CTX, "{0} damage").format(full_name))
            damage.setToolTip(tr(_CTX, "Points of damage to {0} (drained, poisoned ...)").format(
                    key.upper()))
            current = QLabel()
            current.setObjectName(f"{key}CurrentLabel")
            current.setAlignment(Qt.AlignmentFlag.AlignCenter)
            chm = QLabel()
            chm.setObjectName(f"{key}ChmLabel")
            chm.setAlignment(Qt.AlignmentFlag.AlignCenter)
            chm.setMinimumWidth(chm.fontMetrics().horizontalAdvance("+10") + 8)
            chm.setToolTip(tr(_CTX, "Characteristic modifier of the current value: floor(value / "
                                    "3) - 2"))
            self.spin_boxes[key] = spin
            self.damage_spin_boxes[key] = damage
            self.current_labels[key] = current
            self.chm_labels[key] = chm
            for column, widget in enumerate((name, spin, damage, current, chm)):
                grid.addWidget(widget, row, column)
        self.psionic_check = QCheckBox(tr(_CTX, "Psionic"))
        self.psionic_check.setObjectName("psionicCheck")
        self.psionic_check.setToolTip(tr(_CTX, "Only psionic characters have PSI"))
        grid.addWidget(self.psionic_check, len(CHARACTERISTIC_CODES) + 1, 1, 1, 2)
        self.upp_label = QLabel()
        self.upp_label.setObjectName("uppLabel")
        self.upp_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.upp_label.setToolTip(tr(_CTX, "The characteristics in UPP order, in pseudo-hex (A = "
                                           "10)"))
        grid.addWidget(self.upp_label, len(CHARACTERISTIC_CODES) + 2, 0, 1, 5)

    def connect_edits(self) -> None:
        """Make the fields edit the character (after the sheet connected the document)."""
        for key, spin in self.spin_boxes.items():
            spin.valueChanged.connect(lambda value, key=key: self._on_characteristic(key, value))
            spin.textChanged.connect(lambda _text, key=key: self._preview_characteristic(key))
        for key, spin in self.damage_spin_boxes.items():
            spin.valueChanged.connect(
                lambda value, key=key: self._on_characteristic_damage(key, value)
            )
        self.psionic_check.toggled.connect(self._on_psionic_toggled)

    def show_character(self, character: Character) -> None:
        psionic = character.characteristics.psionic_strength is not None
        self.psionic_check.setChecked(psionic)
        for code in CHARACTERISTIC_CODES:
            key = code.value
            value = character.characteristic(code, current=False)
            damage = character.characteristic_damage.value_of(code) or 0
            spin, damage_spin = self.spin_boxes[key], self.damage_spin_boxes[key]
            enabled = value is not None
            spin.setEnabled(enabled)
            damage_spin.setEnabled(enabled)
            if value is not None and spin.value() != value:
                spin.setValue(value)
            if damage_spin.value() != damage:
                damage_spin.setValue(damage)
            if value is None:
                self.current_labels[key].setText("—")
                self.chm_labels[key].setText("—")
                continue
            current = character.characteristic(code)
            self.current_labels[key].setText(str(current))
            self.current_labels[key].setStyleSheet(_DAMAGED_STYLE if damage else "")
            self.chm_labels[key].setText(format_modifier(character.characteristic_modifier(code)))
        set_rich_text(self.upp_label, tr(_CTX, "UPP: <b>{}</b>"), character.upp)

    def _preview_characteristic(self, key: str) -> None:
        """Show the ChM of what is being typed, before it is committed."""
        if self._editor.updating:
            return
        spin = self.spin_boxes[key]
        text = spin.cleanText().strip()
        if not text.isdigit():
            return
        current = max(0, int(text) - self.damage_spin_boxes[key].value())
        self.current_labels[key].setText(str(current))
        self.chm_labels[key].setText(format_modifier(characteristic_modifier(current)))

    def _on_characteristic(self, key: str, value: int) -> None:
        if self._editor.updating:
            return

        def change(character: Character) -> None:
            data = character.characteristics.model_dump(by_alias=True)
            data[key] = value
            character.characteristics = Characteristics.model_validate(data)

        self._editor.commit(tr(_CTX, "Set {0} to {1}").format(
                key.upper(), value), change, f"field:{key}")

    def _on_characteristic_damage(self, key: str, value: int) -> None:
        if self._editor.updating:
            return

        def change(character: Character) -> None:
            data = character.characteristic_damage.model_dump(by_alias=True)
            data[key] = value
            character.characteristic_damage = CharacteristicDamage.model_validate(data)

        self._editor.commit(tr(_CTX, "Set {0} damage to {1}").format(key.upper(), value), change,
                            f"field:{key}-damage")

    def _on_psionic_toggled(self, checked: bool) -> None:
        if self._editor.updating:
            return
        value = self.spin_boxes[Characteristic.PSI.value].value() if checked else None

        def change(character: Character) -> None:
            data = character.characteristics.model_dump(by_alias=True)
            data[Characteristic.PSI.value] = value
            character.characteristics = Characteristics.model_validate(data)

        self._editor.commit(tr(_CTX, "Make psionic") if checked else tr(_CTX,
                "Remove psionics"), change)
