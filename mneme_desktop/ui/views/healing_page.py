"""What the Healing view's tabs share: table and label styles, and the page they read."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractItemModel, SignalInstance
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableView, QWidget

from mneme_desktop.domain.healing.changes import Outcome
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.healing_models import PatientListModel
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.status_line import StatusLine

__all__ = ["ERROR_STYLE", "NOTE_STYLE", "WARNING_STYLE", "HealingPage", "table_view"]

_CTX = "HealingPage"


ERROR_STYLE = "color: #b71c1c;"
WARNING_STYLE = (
    "QLabel { color: #7f1d1d; background: #fdecea; border: 1px solid #e57373; "
    "border-radius: 3px; padding: 4px; }"
)
NOTE_STYLE = "color: palette(placeholder-text);"


def table_view(model: QAbstractItemModel, parent: QWidget, name: str) -> QTableView:
    """A table the way every Healing table shows its rows: whole rows, no numbers."""
    table = QTableView(parent)
    table.setObjectName(name)
    table.setModel(model)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    return table


if TYPE_CHECKING:
    _Widget = QWidget
else:
    _Widget = object


class HealingPage(_Widget):
    """What every tab of the Healing view reads and says: the campaign, the patients, the
    infirmary and the status line.

    The tabs are mixins of :class:`~mneme_desktop.ui.views.healing_view.HealingView`, which
    is the only widget; this base names the state it sets up, so each tab's module can stand
    on its own (for a type checker it is a ``QWidget``, at run time a plain mixin).
    """

    status_changed: SignalInstance
    document: CampaignDocument
    rng: random.Random
    patients_model: PatientListModel
    status_label: StatusLine
    result_label: QLabel

    @property
    def infirmary(self) -> Infirmary:
        """The campaign's infirmary, which every tab reads and the Infirmary tab edits."""
        return self.document.campaign.infirmary

    def _report(self, what: str, changes: Outcome) -> None:
        happened = changes.said
        text = tr(_CTX, "{0}: {1}").format(what, "; ".join(happened)) if happened \
            else tr(_CTX, "{0}: nothing changed").format(what)
        self.status_label.show_message(text)
        self.status_changed.emit(text)

    def _error(self, message: str) -> None:
        self.status_label.show_message(message)
        set_rich_text(self.result_label, "<span style='" + ERROR_STYLE + "'>{}</span>", message)
        self.status_changed.emit(message)
