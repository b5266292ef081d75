"""What the combat roll dialogs opened from the combatant panel (Dash or Run, supporting
action, grapple) share: the encounter they watch, Enter that never rolls or applies by
surprise, the odds label, the dice box with its hint, the Ok button renamed for the step,
what waits on the roller's next roll, and the one path from a roll to a pushed step. One
place, so the three dialogs behave the same at the table."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from mneme_desktop.domain import Encounter
from mneme_desktop.domain.edits import ChangeSummary, Patch
from mneme_desktop.domain.next_roll import NextRoll
from mneme_desktop.domain.roll_terms import Modifier
from mneme_desktop.rules.checks import CheckResult
from mneme_desktop.rules.dice import DiceSource, parse_dice_source
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.widgets.narrow import fit_placeholder
from mneme_desktop.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["CombatRollDialog", "dice_hint", "dms_text", "plain_label"]

_CTX = "CombatRollDialog"


def plain_label(object_name: str) -> QLabel:
    """A wrapping label of names and numbers, never read as markup."""
    label = QLabel(objectName=object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def dice_hint(dice: int) -> str:
    """The dice box's hint: how many dice the table rolls when it rolls them itself."""
    return tr(_CTX, "empty: the app rolls; or the table's {0} dice").format(dice)


def dms_text(modifiers: Iterable[Modifier]) -> str:
    """"Skill -3, DEX DM +1": the DMs of a roll, as the odds show them."""
    return ", ".join(f"{m.label} {m.value:+d}" for m in modifiers)


class CombatRollDialog(QDialog):
    """A roll by one combatant of an encounter, its step pushed on the document. A subclass
    builds its form, then calls :meth:`_watch` once its widgets exist; it declares the roll
    in ``_declared`` (called again whenever the encounter or a sheet changes)."""

    message: StatusLine
    dice_edit: QLineEdit
    last_check: CheckResult | None

    def __init__(self, document: CampaignDocument, encounter_id: str, rng: random.Random,
                 title: str, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(object_name)
        self._document = document
        self._encounter_id = encounter_id
        self._rng = rng
        self.last_check = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter in the dice box rolls (once); elsewhere it does not roll or apply by
        surprise."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def _encounter(self) -> Encounter | None:
        return self._document.encounter(self._encounter_id)

    def _declared(self, *_args: object) -> None:
        raise NotImplementedError

    def _watch(self) -> None:
        """Declare the roll now and again whenever the encounter or a sheet changes."""
        self._document.changed.connect(self._document_changed)
        self._declared()

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id in summary.encounter_ids or summary.character_ids:
            self._declared()

    def _ok_buttons(self, form: QFormLayout, text: str, object_name: str,
                    accepted: Callable[[], object]) -> QPushButton:
        """Ok (renamed ``text``: the step it makes) and Cancel, at the foot of ``form``; the
        Ok button is returned. Neither is a default button: Enter is the dice box's."""
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        button.setText(text)
        button.setObjectName(object_name)
        button.setAutoDefault(False)
        self.buttons.accepted.connect(accepted)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        return button

    def _show_dice_hint(self, dice: int) -> None:
        self.dice_edit.setPlaceholderText(dice_hint(dice))
        fit_placeholder(self.dice_edit)

    @staticmethod
    def _show_next_roll(check: QCheckBox, waiting: NextRoll | None, nothing: str) -> None:
        """``check`` offers what waits on the roller's next roll, or says ``nothing`` does."""
        check.setText(tr(_CTX, "Next roll: {0}").format(waiting.text) if waiting else nothing)
        check.setEnabled(bool(waiting))

    def _roll_and_push(self, dice: int,
                       make: Callable[[Encounter, DiceSource], tuple[Patch, CheckResult]]
                       ) -> bool:
        """Roll ``dice`` d6 (or read the table's from the dice box), make the step and push
        it; the dialog closes. A bad dice text or a refused step stays, with its message."""
        encounter = self._encounter()
        if encounter is None:
            return False
        try:
            source = parse_dice_source(self.dice_edit.text(), self._rng, dice)
            patch, check = make(encounter, source)
        except ValueError as exc:
            self.message.show_message(str(exc))
            return False
        self.last_check = check
        return self._push(patch)

    def _push(self, patch: Patch) -> bool:
        """The step on the document's undo stack; the dialog closes."""
        push_patch(self._document, patch)
        self.accept()
        return True
