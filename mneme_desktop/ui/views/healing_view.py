"""The Healing view: how long until she can fight again, and what do the medics need?

Left, the campaign's characters with their wounds and healing regime; check the ones to
plan for. Three tabs:

* Planner - two plans side by side, each a list of segments (activity, care, days); the
  projection chart draws damage over days against the HP bar's bands, a day-by-day table
  per plan names the rule and rate in force, where the state changes and the day the
  character is fully healed; "Advance" applies a plan for N days as one undoable step.
* Medical care - first aid, surgery and intensive care, rolled here (with the view's
  ``random.Random``) or entered from the table, each logged on the sheet and in the journal.
* Infirmary - medics, supervision and facilities, every patient's care load against the
  capacity, with a warning and the fixes when over capacity.

Each tab is a mixin in a module of its own (``healing_planner``, ``healing_medical``,
``healing_infirmary``, over the shared ``healing_page``); this module composes them into
the one widget and keeps the patients list and what refreshes when.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import ConditionKind
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.healing.plan import Projection
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.healing_models import ComparisonModel, PatientListModel
from mneme_desktop.ui.views.healing_infirmary import InfirmaryTab
from mneme_desktop.ui.views.healing_medical import MedicalTab
from mneme_desktop.ui.views.healing_page import NOTE_STYLE, table_view
from mneme_desktop.ui.views.healing_planner import PlannerTab
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.status_line import clear_on_undo

__all__ = ["HealingView"]

_CTX = "HealingView"

_SIZED_ROWS = 200
"""Rows (besides those on screen) the patient and comparison columns are sized to: Qt
measures up to 1000 by default, half a second for a thousand patients on every open."""


class HealingView(PlannerTab, MedicalTab, InfirmaryTab, QWidget):
    """The Healing view over one open campaign.

    ``rng`` rolls the medical checks; pass a seeded ``random.Random`` for repeatable rolls.
    ``status_changed`` carries what the last action did (or why it was refused).
    """

    status_changed = Signal(str)

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None, *,
                 rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("healingView")
        self.document = document
        self.rng = rng if rng is not None else random.Random()
        self._projections: dict[str, tuple[Projection, Projection]] = {}
        self._refreshing = False
        self._stale = False

        self.patients_model = PatientListModel(document, self)
        self.patients_table = table_view(self.patients_model, self, "healingPatients")
        self.patients_table.setAccessibleName(tr(_CTX, "Patients"))
        self.patients_table.setItemDelegate(SheetItemDelegate(self.patients_table))
        self.patients_table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.SelectedClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed)
        header = self.patients_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Names are sized to their text (a stretched name column was squeezed to "arac" on
        # a 1280-pixel screen); the state takes what room is left.
        header.setSectionResizeMode(PatientListModel.STATE, QHeaderView.ResizeMode.Stretch)
        header.setResizeContentsPrecision(_SIZED_ROWS)

        self.comparison_model = ComparisonModel(self)
        self.comparison_table = table_view(self.comparison_model, self, "planComparison")
        self.comparison_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.comparison_table.horizontalHeader().setSectionResizeMode(
            ComparisonModel.NAME, QHeaderView.ResizeMode.Stretch)
        self.comparison_table.horizontalHeader().setResizeContentsPrecision(_SIZED_ROWS)
        self.comparison_box = QGroupBox(self)
        self.comparison_box.setObjectName("comparisonBox")
        box_layout = QVBoxLayout(self.comparison_box)
        box_layout.setContentsMargins(6, 6, 6, 6)
        box_layout.addWidget(self.comparison_table)

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("healingTabs")
        self.tabs.addTab(self._build_planner(), tr(_CTX, "Planner"))
        self.tabs.addTab(self._build_medical(), tr(_CTX, "Medical care"))
        self.tabs.addTab(self._build_infirmary(), tr(_CTX, "Infirmary"))

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        hint = QLabel(tr(_CTX, "Check the characters to plan for. Activity and Care set each "
                               "character's regime: the clock heals by it."), left)
        hint.setWordWrap(True)
        hint.setStyleSheet(NOTE_STYLE)
        left_layout.addWidget(hint)
        left_layout.addWidget(self.patients_table, 3)
        left_layout.addWidget(self.comparison_box, 2)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        # Room for the patients' columns when the screen has it, but no more than a third
        # of the table as a minimum: the planner must fit a 1280-pixel laptop screen.
        em = left.fontMetrics().horizontalAdvance("M")
        left.setMinimumWidth(em * 30)
        self.splitter.setSizes([em * 47, em * 70])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)
        layout.addWidget(self.status_label)  # under every tab: no refusal goes unseen
        for delegate in self.findChildren(SheetItemDelegate):  # table edits refused
            delegate.edit_refused.connect(self._error)

        # The injured are checked before the planner listens: opening projects once.
        self._select_injured()
        self.patients_model.checked_changed.connect(self._checked_changed)
        self.patients_model.edit_rejected.connect(self._error)
        document.changed.connect(self._document_changed)
        clear_on_undo(self.status_label, document.undo_stack)
        self._refresh_all()

    # ================================================================= public API

    def set_characters(self, ids: Sequence[str]) -> None:
        """Plan for these characters (the dead and unknown ids are skipped)."""
        self.patients_model.set_checked_ids(list(ids))
        checked = self.patients_model.checked_ids()
        if checked:
            self.focus_character(checked[0])

    # ================================================================ refreshing

    def _select_injured(self) -> None:
        injured = [
            c.id for c in self.document.campaign.characters
            if c.damage > 0 and not c.has_condition(ConditionKind.DEAD)
        ]
        self.patients_model.set_checked_ids(injured)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if not (summary.character_ids or summary.structure_changed or summary.time_changed
                or summary.rules_changed):
            if summary.infirmary_changed:
                self._refresh_infirmary()
            return
        # Projecting a year for every patient is the planner's dearest step: while the
        # planner is hidden (a fight is on screen) it waits until it is shown again.
        if not self.isVisible():
            self._stale = True
            return
        self._refresh_all()

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self._stale = False
            self._refresh_all()
        super().showEvent(event)

    def _refresh_all(self) -> None:
        self._refresh_projections()
        self._refresh_medical()
        self._refresh_infirmary()
