"""A Difficulty by name or by number: the Ch.3 ladder's names beside a spin box.

One widget wherever the referee enters a Difficulty (the check panel, the attack resolver's
base, an extended task's timing check and each round's check), so "Difficult" always means
10 and an off-ladder number is named from the rung below ("Average +1"), as
:func:`~mneme_desktop.rules.checks.difficulty_label` names it. The spin box stays the value's
one home: views read and set it as before (``picker.spin``); the name follows it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QSpinBox, QWidget

from mneme_desktop.rules.checks import DEFAULT_DIFFICULTY, Difficulty
from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "DifficultyPicker"

__all__ = ["DifficultyPicker", "difficulty_name"]

_RUNG_NAMES = {
    Difficulty.EASY: tr_noop(_CTX, "Easy"),
    Difficulty.ROUTINE: tr_noop(_CTX, "Routine"),
    Difficulty.AVERAGE: tr_noop(_CTX, "Average"),
    Difficulty.DIFFICULT: tr_noop(_CTX, "Difficult"),
    Difficulty.VERY_DIFFICULT: tr_noop(_CTX, "Very Difficult"),
    Difficulty.FORMIDABLE: tr_noop(_CTX, "Formidable"),
}


def difficulty_name(value: int) -> str:
    """The ladder's name of ``value``, translated; off the ladder, the rung below and the
    difference ("Average +1"), below Easy from Easy ("Easy -2")."""
    ladder = list(Difficulty)
    if value in ladder:
        return tr(_CTX, _RUNG_NAMES[Difficulty(value)])
    below = [rung for rung in ladder if rung.value < value]
    rung = below[-1] if below else ladder[0]
    return tr(_CTX, "{0} {1:+d}").format(tr(_CTX, _RUNG_NAMES[rung]), value - rung.value)


class DifficultyPicker(QWidget):
    """A combo of the ladder's names and the spin box of the number, kept in step.

    Choosing a name sets the number (and emits :attr:`named`, even when the number was
    already that, so a view can tell a choice from a value set by the program); typing or
    stepping a number shows its name, the last item naming an off-ladder value."""

    named = Signal(int)
    """The referee chose a rung by name (its value)."""

    def __init__(self, spin_name: str, combo_name: str, *, minimum: int = 2,
                 maximum: int = 20, value: int = DEFAULT_DIFFICULTY,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox(objectName=combo_name)
        for rung in Difficulty:
            self.combo.addItem(tr(_CTX, "{0} ({1})").format(difficulty_name(rung), rung.value),
                               rung.value)
        self.combo.addItem("", None)  # the name of an off-ladder value, set as it is shown
        self.combo.setToolTip(tr(_CTX, "The Difficulty by name (Ch.3: Easy 4, Routine 6, "
                                       "Average 8, Difficult 10, Very Difficult 12, "
                                       "Formidable 14)"))
        self.spin = QSpinBox(objectName=spin_name, minimum=minimum, maximum=maximum,
                             value=value)
        self.spin.setToolTip(tr(_CTX, "The Difficulty as a number"))
        self.spin.setAccessibleName(tr(_CTX, "Difficulty"))
        self.combo.setAccessibleName(tr(_CTX, "Difficulty by name"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.spin)
        self.combo.activated.connect(self._chosen)
        self.spin.valueChanged.connect(self._show_name)
        self._show_name(self.spin.value())

    def value(self) -> int:
        return self.spin.value()

    def setValue(self, value: int) -> None:
        self.spin.setValue(value)

    def _chosen(self, index: int) -> None:
        value = self.combo.itemData(index)
        if isinstance(value, int):
            self.spin.setValue(value)
            self.named.emit(value)
        else:
            self._show_name(self.spin.value())  # the off-ladder item only names

    def _show_name(self, value: int) -> None:
        last = self.combo.count() - 1
        index = self.combo.findData(value)
        self.combo.blockSignals(True)
        if index >= 0:
            self.combo.setItemText(last, tr(_CTX, "Other"))
            self.combo.setCurrentIndex(index)
        else:
            self.combo.setItemText(last, tr(_CTX, "{0} ({1})").format(difficulty_name(value),
                                                                      value))
            self.combo.setCurrentIndex(last)
        self.combo.blockSignals(False)
