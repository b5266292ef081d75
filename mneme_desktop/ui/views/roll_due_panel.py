"""Where an advance of the clock stopped, and the roll it stopped for, with its odds.

Shown by the Healing view's planner and by the clock in the toolbar: the message names who
must roll, why and the chance, before anything is rolled; the button rolls it and records
it as one undo step (a dying roll, or an intensive-care roll and the dying roll a failure
calls for).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.ui.i18n import tr, tr_noop

if TYPE_CHECKING:
    from mneme_desktop.domain.healing.time_stops import RollDue
    from mneme_desktop.ui.document import CampaignDocument

# The clock's panel is built with the first campaign; the rolls' code (the healing commands,
# ~7 ms of imports) is imported when a roll falls due or is rolled.

_CTX = "RollDuePanel"

__all__ = ["RollDuePanel", "duration_text"]

_STYLE = "color: #a33; font-weight: bold;"

_DURATION_UNITS = (
    (tr_noop(_CTX, "{0} day"), tr_noop(_CTX, "{0} days"), SECONDS_PER_DAY),
    (tr_noop(_CTX, "{0} hour"), tr_noop(_CTX, "{0} hours"), 3600),
    (tr_noop(_CTX, "{0} minute"), tr_noop(_CTX, "{0} minutes"), 60),
    (tr_noop(_CTX, "{0} round"), tr_noop(_CTX, "{0} rounds"), ROUND_SECONDS),
)


def duration_text(seconds: int) -> str:
    """"2 days 7 hours 30 minutes 3 rounds": how far an advance that stopped short went."""
    parts: list[str] = []
    for one, many, length in _DURATION_UNITS:
        amount, seconds = divmod(seconds, length)
        if amount:
            parts.append(tr(_CTX, one if amount == 1 else many).format(amount))
    return " ".join(parts) or tr(_CTX, "no time")


class RollDuePanel(QWidget):
    """Hidden until an advance stops; ``compact`` shows the one-line message (the toolbar)
    with the whole of it in the tooltip. ``rolled`` carries what the roll did."""

    rolled = Signal(str)

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None, *,
                 compact: bool = False, rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.rng = rng if rng is not None else random.Random()
        self.compact = compact
        self.due: RollDue | None = None
        self.message_label = QLabel(self)
        self.message_label.setObjectName("rollDueMessage")
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)
        self.message_label.setWordWrap(not compact)
        if compact:  # a toolbar: the whole message is in the tooltip
            self.message_label.setMaximumWidth(
                self.message_label.fontMetrics().horizontalAdvance("M") * 36)
        self.message_label.setStyleSheet(_STYLE)
        self.roll_button = QPushButton(tr(_CTX, "Roll"), self)  # the text until a roll is due
        self.roll_button.setObjectName("rollDueRoll")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message_label, 1)
        layout.addWidget(self.roll_button)
        self.roll_button.clicked.connect(self._roll)
        self.hide()

    def show_due(self, due: RollDue | None, stopped_after: str = "") -> None:
        """Say where the clock stopped and offer the roll (None: hide)."""
        self.due = due
        if due is None:
            self.message_label.clear()
            self.hide()
            return
        from mneme_desktop.domain.healing.time_stops import DueRoll

        head = tr(_CTX, "Stopped after {0}. ").format(
                stopped_after) if stopped_after else tr(_CTX, "Not advanced. ")
        self.message_label.setText(head + (due.short if self.compact else due.text))
        self.message_label.setStyleSheet(_STYLE)
        self.setToolTip(head + due.text)
        what = tr(_CTX, "dying roll") if due.kind is DueRoll.DYING else tr(_CTX,
                "intensive-care roll")
        self.roll_button.setText(tr(_CTX, "Roll it ({0})").format(due.odds) if self.compact
                                 else tr(_CTX, "Roll the {0} for {1} ({2})").format(
                                         what, due.name, due.odds))
        self.roll_button.show()
        self.show()

    def _roll(self) -> None:
        from mneme_desktop.domain.healing.medical import dying_roll, intensive_care_rolls
        from mneme_desktop.domain.healing.time_stops import DueRoll
        from mneme_desktop.rules.dice import DiceSource
        from mneme_desktop.rules.wounds import WoundState
        from mneme_desktop.ui.healing_commands import record_dying_roll, record_intensive_care

        due = self.due
        if due is None:
            return
        campaign = self.document.campaign
        patient = campaign.find_character(due.character_id)
        basis = self.document.threshold_basis
        if patient is None or patient.wound_state(basis) is not WoundState.DYING:
            self._said(tr(_CTX, "{0} is no longer Dying: no roll needed.").format(due.name))
            return
        source = DiceSource.app(self.rng)
        if due.kind is DueRoll.DYING:
            changes = record_dying_roll(self.document, patient.id, dying_roll(patient, source))
        else:
            supervisor = campaign.infirmary.supervisor
            roll, dying = intensive_care_rolls(
                patient, source, 0, None if supervisor is None else supervisor.level)
            changes = record_intensive_care(self.document, patient.id, roll, dying)
        lines = [c.description for c in changes.sheets]
        self._said("; ".join(lines))

    def _said(self, text: str) -> None:
        self.due = None
        self.message_label.setStyleSheet("")
        self.message_label.setText(text)
        self.setToolTip(text)
        self.roll_button.hide()
        self.rolled.emit(text)
