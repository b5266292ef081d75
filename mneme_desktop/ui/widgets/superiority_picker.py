"""The Ch.3 superiority situations as a picker: each party's superior firepower (+1 to +3),
superior position or action (+1 to +2) and how far it outnumbers the other (minor +1,
significant +2, overwhelming +3). The modifier is their sum, ours minus theirs, worked out by
:class:`~mneme_desktop.rules.checks.SuperiorityBalance`; the picker only asks.

Where a view already has a superiority spin box (the attack resolver), :meth:`follow` keeps
the two in step: a situation picked sets the spin box to the sum, and a number typed there
that no longer is the sum clears the situations (the number is then the referee's own).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QSpinBox, QWidget

from mneme_desktop.rules.checks import (
    MAX_SUPERIORITY,
    OUTNUMBERED_KINDS,
    SuperiorityBalance,
    SuperiorityKind,
    SuperioritySituations,
)
from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "SuperiorityPicker"

__all__ = ["MAX_SUPERIORITY", "SuperiorityPicker"]

_OUTNUMBER_NAMES = {
    SuperiorityKind.OUTNUMBERED_MINOR: tr_noop(_CTX, "minor +1"),
    SuperiorityKind.OUTNUMBERED_SIGNIFICANT: tr_noop(_CTX, "significant +2"),
    SuperiorityKind.OUTNUMBERED_OVERWHELMING: tr_noop(_CTX, "overwhelming +3"),
}
_KIND_NAMES = {
    SuperiorityKind.FIREPOWER: tr_noop(_CTX, "firepower"),
    SuperiorityKind.POSITION: tr_noop(_CTX, "position"),
    SuperiorityKind.OUTNUMBERED_MINOR: tr_noop(_CTX, "outnumbers (minor)"),
    SuperiorityKind.OUTNUMBERED_SIGNIFICANT: tr_noop(_CTX, "outnumbers (significant)"),
    SuperiorityKind.OUTNUMBERED_OVERWHELMING: tr_noop(_CTX, "outnumbers (overwhelming)"),
}


class _Side:
    """One party's three controls (a column of the picker)."""

    def __init__(self, name: str, label: str) -> None:
        self.label = QLabel(label)
        self.firepower = QSpinBox(objectName=f"{name}_firepower",
                                  minimum=0, maximum=SuperiorityKind.FIREPOWER.maximum)
        self.firepower.setPrefix("+")
        self.firepower.setAccessibleName(tr(_CTX, "{0}: superior firepower").format(label))
        self.firepower.setToolTip(tr(_CTX, "Superior firepower: +1 to +3 (Ch.3)"))
        self.position = QSpinBox(objectName=f"{name}_position",
                                 minimum=0, maximum=SuperiorityKind.POSITION.maximum)
        self.position.setPrefix("+")
        self.position.setAccessibleName(tr(_CTX, "{0}: superior position").format(label))
        self.position.setToolTip(tr(_CTX, "Superior position or action: +1 to +2 (Ch.3)"))
        self.outnumbers = QComboBox(objectName=f"{name}_outnumbers")
        self.outnumbers.addItem(tr(_CTX, "no"), None)
        for kind in OUTNUMBERED_KINDS:
            self.outnumbers.addItem(tr(_CTX, _OUTNUMBER_NAMES[kind]), kind)
        self.outnumbers.setAccessibleName(tr(_CTX, "{0}: outnumbers the other").format(label))
        self.outnumbers.setToolTip(tr(_CTX, "How far this party outnumbers the other: minor "
                                            "+1, significant +2, overwhelming +3 (Ch.3)"))

    def situations(self) -> SuperioritySituations:
        kind = self.outnumbers.currentData()
        return SuperioritySituations(self.firepower.value(), self.position.value(),
                                     kind if isinstance(kind, SuperiorityKind) else None)

    def clear(self) -> None:
        self.firepower.setValue(0)
        self.position.setValue(0)
        self.outnumbers.setCurrentIndex(0)


class SuperiorityPicker(QWidget):
    """Both parties' situations; :attr:`changed` after each choice the referee makes."""

    changed = Signal()

    def __init__(self, name: str, ours: str, theirs: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._quiet = False
        self._spin: QSpinBox | None = None
        self._spin_tip = ""
        self.ours = _Side(f"{name}_ours", ours)
        self.theirs = _Side(f"{name}_theirs", theirs)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for row, text in enumerate((tr(_CTX, "Firepower"), tr(_CTX, "Position"),
                                    tr(_CTX, "Outnumbers")), start=1):
            grid.addWidget(QLabel(text), row, 0)
        for column, side in enumerate((self.ours, self.theirs), start=1):
            grid.addWidget(side.label, 0, column)
            grid.addWidget(side.firepower, 1, column)
            grid.addWidget(side.position, 2, column)
            grid.addWidget(side.outnumbers, 3, column)
            grid.setColumnStretch(column, 1)
            side.firepower.valueChanged.connect(self._picked)
            side.position.valueChanged.connect(self._picked)
            side.outnumbers.currentIndexChanged.connect(self._picked)

    def balance(self) -> SuperiorityBalance:
        return SuperiorityBalance(self.ours.situations(), self.theirs.situations())

    def modifier(self) -> int:
        """The sum: ours minus theirs."""
        return self.balance().modifier

    def describe(self) -> str:
        """The situations in words, translated: "ours: firepower +2; theirs: position +1"."""
        parts = []
        for side in (self.ours, self.theirs):
            rows = side.situations().situations()
            if rows:
                parts.append(tr(_CTX, "{0}: {1}").format(side.label.text(), ", ".join(
                    tr(_CTX, "{0} +{1}").format(tr(_CTX, _KIND_NAMES[kind]), value)
                    for kind, value in rows)))
        return "; ".join(parts)

    def clear(self) -> None:
        """No situations, without telling anyone (the caller sets the sum it wants)."""
        self._quiet = True
        try:
            for side in (self.ours, self.theirs):
                side.clear()
        finally:
            self._quiet = False
        self._show_sum()

    def follow(self, spin: QSpinBox) -> None:
        """Keep ``spin`` at the sum; a value typed there that is not the sum clears the
        situations."""
        self._spin = spin
        self._spin_tip = spin.toolTip()
        spin.valueChanged.connect(self._spin_changed)
        self._show_sum()

    def _picked(self) -> None:
        if self._quiet:
            return
        if self._spin is not None:
            self._quiet = True
            try:
                self._spin.setValue(self.modifier())
            finally:
                self._quiet = False
        self._show_sum()
        self.changed.emit()

    def _spin_changed(self, value: int) -> None:
        if not self._quiet and value != self.modifier():
            self.clear()

    def _show_sum(self) -> None:
        text = self.describe()
        self.setToolTip(tr(_CTX, "Superiority {0:+d} = {1}").format(self.modifier(), text)
                        if text else tr(_CTX, "No superiority situation picked"))
        if self._spin is not None:
            self._spin.setToolTip("\n".join(tip for tip in (self._spin_tip, self.toolTip())
                                             if tip))
