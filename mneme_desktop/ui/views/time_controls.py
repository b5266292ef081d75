"""The campaign clock for the toolbar: the in-game date and time, and a way to move it on.

Moving the clock is one undoable command that also bleeds the bleeding, ends conditions
whose time is up and heals everyone on a regime (see
:func:`mneme_desktop.domain.healing.clock.advance_campaign`). It stops where a roll the rules
require falls due (a dying roll, an unsupervised intensive-care roll) and says so beside the
clock, offering the roll with its odds (:mod:`mneme_desktop.domain.healing.time_stops`).
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.views.roll_due_panel import RollDuePanel, duration_text

_CTX = "TimeControls"

__all__ = ["TimeControls", "TimeUnit"]


class TimeUnit(Enum):
    """The steps a referee moves the clock by, with their length in seconds."""

    ROUNDS = (tr_noop(_CTX, "rounds"), ROUND_SECONDS)
    MINUTES = (tr_noop(_CTX, "minutes"), 60)
    HOURS = (tr_noop(_CTX, "hours"), 3600)
    DAYS = (tr_noop(_CTX, "days"), SECONDS_PER_DAY)

    @property
    def label(self) -> str:
        """The untranslated name ("rounds"); :attr:`text` is what the user reads."""
        return self.value[0]

    @property
    def text(self) -> str:
        return tr(_CTX, self.label)

    @property
    def seconds(self) -> int:
        return self.value[1]

    def describe(self, amount: int) -> str:
        """"3 rounds", "1 minute"."""
        one, many = _UNIT_FORMS[self.label]
        return tr(_CTX, one if amount == 1 else many).format(amount)


_UNIT_FORMS = {
    "rounds": (tr_noop(_CTX, "{0} round"), tr_noop(_CTX, "{0} rounds")),
    "minutes": (tr_noop(_CTX, "{0} minute"), tr_noop(_CTX, "{0} minutes")),
    "hours": (tr_noop(_CTX, "{0} hour"), tr_noop(_CTX, "{0} hours")),
    "days": (tr_noop(_CTX, "{0} day"), tr_noop(_CTX, "{0} days")),
}


class TimeControls(QWidget):
    """Clock label, amount, unit and an Advance button.

    ``advanced`` carries a one-line summary of what the time did (bleeding, healing,
    notices), which the host may show in its status bar; the label's tooltip keeps it too.
    """

    advanced = Signal(str)

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document: CampaignDocument | None = None
        self.clock_label = QLabel(self)
        self.clock_label.setObjectName("clockLabel")
        self.clock_label.setMinimumWidth(self.clock_label.fontMetrics().horizontalAdvance(
            tr(_CTX, "Day 0000, 00:00:00")))
        self.amount_spin = QSpinBox(self)
        self.amount_spin.setObjectName("clockAmount")
        self.amount_spin.setRange(1, 9999)
        self.amount_spin.setAccessibleName(tr(_CTX, "Amount of time"))
        self.unit_combo = QComboBox(self)
        self.unit_combo.setObjectName("clockUnit")
        self.unit_combo.setAccessibleName(tr(_CTX, "Unit of time"))
        for unit in TimeUnit:
            self.unit_combo.addItem(unit.text, unit)
        self.advance_button = QPushButton(tr(_CTX, "Advance"), self)
        self.advance_button.setObjectName("clockAdvance")
        self.advance_button.setToolTip(
            tr(_CTX, "Move the campaign clock on: bleeding characters lose 1 damage a minute, "
                     "stabilisations end, each whole day heals everyone on a healing regime.")
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.clock_label)
        layout.addWidget(self.amount_spin)
        layout.addWidget(self.unit_combo)
        layout.addWidget(self.advance_button)
        self.roll_panel = RollDuePanel(document, self, compact=True)
        self.roll_panel.setObjectName("clockRollDue")
        layout.addWidget(self.roll_panel)
        self.advance_button.clicked.connect(self._advance)
        self.roll_panel.rolled.connect(self.advanced)
        self.set_document(document)

    @property
    def document(self) -> CampaignDocument | None:
        return self._document

    def set_document(self, document: CampaignDocument | None) -> None:
        if self._document is not None:
            self._document.changed.disconnect(self._document_changed)
        self._document = document
        if document is not None:
            document.changed.connect(self._document_changed)
            self.roll_panel.document = document
        self.roll_panel.show_due(None)
        self.setEnabled(document is not None)
        self._refresh()

    @property
    def unit(self) -> TimeUnit:
        unit = self.unit_combo.currentData()
        return unit if isinstance(unit, TimeUnit) else TimeUnit.MINUTES

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.time_changed:
            self._refresh()

    def _refresh(self) -> None:
        document = self._document
        self.clock_label.setText("" if document is None else document.campaign.game_time.label)

    def _advance(self) -> None:
        from mneme_desktop.ui.healing_commands import advance_clock  # ~7 ms: not at start

        document = self._document
        if document is None:
            return
        amount = self.amount_spin.value()
        unit = self.unit
        what = unit.describe(amount)
        result = advance_clock(document, amount * unit.seconds, tr(_CTX,
                "Advance the clock {0}").format(what))
        happened = result.changes.said
        passed = what if result.advanced == result.requested else duration_text(result.advanced)
        summary = (tr(_CTX, "{0} passed").format(passed) if result.advanced else tr(_CTX,
                "The clock did not move")) + (
            ": " + "; ".join(happened) if happened else "")
        if result.due is not None:
            summary += tr(_CTX, ". Stopped: {0}").format(result.due.text)
        moved = duration_text(result.advanced) if result.advanced else ""
        self.roll_panel.show_due(result.due, moved)
        self.clock_label.setToolTip(summary)
        self.advanced.emit(summary)
