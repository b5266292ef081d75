"""The Healing view's Planner tab: two plans side by side, their projections, and Advance.

The projection chart draws damage over days against the HP bar's bands, a day-by-day table
per plan names the rule and rate in force, where the state changes and the day the
character is fully healed; "Advance" applies a plan for N days as one undoable step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.healing.plan import HealingPlan, Projection, ProjectionCache
from mneme_desktop.domain.healing.regimes import plan_regime_note
from mneme_desktop.domain.healing.time_stops import dying_outlook
from mneme_desktop.rules.track import damage_track
from mneme_desktop.ui.healing_commands import advance_under_plan
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.healing_models import (
    ComparisonModel,
    PlanSegmentModel,
    ProjectionTableModel,
)
from mneme_desktop.ui.views.healing_page import ERROR_STYLE, NOTE_STYLE, HealingPage, table_view
from mneme_desktop.ui.views.healing_plans import PlanEditor, default_plans
from mneme_desktop.ui.views.roll_due_panel import RollDuePanel, duration_text
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.projection_chart import PLAN_COLORS, ChartSeries, ProjectionChart
from mneme_desktop.ui.widgets.status_line import StatusLine

__all__ = ["PlannerTab"]

_CTX = "HealingPlanner"


class PlannerTab(HealingPage):
    """The Planner tab of the Healing view: two plans compared, projected and advanced."""

    comparison_model: ComparisonModel
    comparison_box: QGroupBox
    _projections: dict[str, tuple[Projection, Projection]]
    _projection_cache: ProjectionCache
    _refreshing: bool

    def focus_character(self, character_id: str) -> None:
        """Show this checked character's projection in the chart and day tables."""
        index = self.focus_combo.findData(character_id)
        if index >= 0:
            self.focus_combo.setCurrentIndex(index)

    def plans(self) -> tuple[HealingPlan, HealingPlan]:
        return self.plan_a.plan(), self.plan_b.plan()

    def projection(self, character_id: str) -> tuple[Projection, Projection] | None:
        return self._projections.get(character_id)

    def _build_planner(self) -> QWidget:
        page = QWidget(self)
        # Each refresh asks for every checked patient's two projections; only those whose
        # patient or plan changed are projected again (a year each: the dear part).
        self._projection_cache = ProjectionCache()
        plan_a, plan_b = default_plans()
        self.plan_a = PlanEditor(tr(_CTX, "Plan A"), plan_a, PLAN_COLORS[0].name(), page,
                                 key="A")
        self.plan_b = PlanEditor(tr(_CTX, "Plan B"), plan_b, PLAN_COLORS[1].name(), page,
                                 key="B")
        top = QHBoxLayout()
        top.addWidget(self.plan_a, 1)
        top.addWidget(self.plan_b, 1)

        self.focus_combo = QComboBox(page)
        self.focus_combo.setObjectName("projectionFocus")
        self.focus_combo.setAccessibleName(tr(_CTX, "Character shown in the projection"))
        self.focus_combo.setMinimumContentsLength(16)
        self.outcome_label = QLabel(page)
        self.outcome_label.setObjectName("projectionOutcome")
        self.outcome_label.setWordWrap(True)
        set_rich_text(self.outcome_label, "")
        self.chart = ProjectionChart(page)
        self.chart.set_empty_text(tr(_CTX, "Check one or more injured characters on the left."))

        self.projection_a = ProjectionTableModel(self)
        self.projection_b = ProjectionTableModel(self)
        self.projection_table_a = table_view(self.projection_a, page, "projectionTableA")
        self.projection_table_b = table_view(self.projection_b, page, "projectionTableB")
        self.projection_table_a.setAccessibleName(tr(_CTX, "Plan A day by day"))
        self.projection_table_b.setAccessibleName(tr(_CTX, "Plan B day by day"))
        for table in (self.projection_table_a, self.projection_table_b):
            table.horizontalHeader().setSectionResizeMode(
                QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setStretchLastSection(True)
            table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
            # The rule text names the state and the regime already.
            table.setColumnHidden(ProjectionTableModel.STATE, True)
            table.setColumnHidden(ProjectionTableModel.REGIME, True)
        tables = QSplitter(Qt.Orientation.Horizontal, page)
        tables.addWidget(self.projection_table_a)
        tables.addWidget(self.projection_table_b)

        middle = QSplitter(Qt.Orientation.Vertical, page)
        middle.setObjectName("plannerSplitter")
        chart_area = QWidget(middle)
        chart_layout = QVBoxLayout(chart_area)
        chart_layout.setContentsMargins(0, 0, 0, 0)
        focus_row = QHBoxLayout()
        focus_row.addWidget(QLabel(tr(_CTX, "Projection for"), chart_area))
        focus_row.addWidget(self.focus_combo)
        focus_row.addWidget(self.outcome_label, 1)
        chart_layout.addLayout(focus_row)
        self.outlook_label = QLabel(chart_area)
        self.outlook_label.setObjectName("dyingOutlook")
        self.outlook_label.setTextFormat(Qt.TextFormat.PlainText)
        self.outlook_label.setWordWrap(True)
        self.outlook_label.setStyleSheet(ERROR_STYLE)
        self.outlook_label.hide()
        chart_layout.addWidget(self.outlook_label)
        chart_layout.addWidget(self.chart, 1)
        middle.addWidget(chart_area)
        middle.addWidget(tables)
        middle.setStretchFactor(0, 3)
        middle.setStretchFactor(1, 2)

        self.advance_days_spin = QSpinBox(page)
        self.advance_days_spin.setObjectName("advanceDays")
        self.advance_days_spin.setRange(1, PlanSegmentModel.MAX_DAYS)
        self.advance_days_spin.setSuffix(tr(_CTX, " days"))
        self.advance_days_spin.setAccessibleName(tr(_CTX, "Days to advance"))
        self.advance_plan_combo = QComboBox(page)
        self.advance_plan_combo.setObjectName("advancePlan")
        self.advance_plan_combo.addItem(tr(_CTX, "Plan A"), 0)
        self.advance_plan_combo.addItem(tr(_CTX, "Plan B"), 1)
        self.advance_button = QPushButton(tr(_CTX, "Advance"), page)
        self.advance_button.setObjectName("advanceUnderPlan")
        self.advance_button.setToolTip(tr(
            _CTX, "Heal the checked characters under the plan and move the campaign clock; "
                  "everyone else heals (or bleeds) by their own regime, and every patient "
                  "keeps their own regime afterwards. Stops where a roll is due. One undo "
                  "step."))
        self.regime_note_label = QLabel(page)
        self.regime_note_label.setObjectName("advanceRegimeNote")
        self.regime_note_label.setTextFormat(Qt.TextFormat.PlainText)
        self.regime_note_label.setWordWrap(True)
        self.regime_note_label.setStyleSheet(NOTE_STYLE)
        self.roll_panel = RollDuePanel(self.document, page, rng=self.rng)
        self.roll_panel.setObjectName("planRollDue")
        # The view's one message line: what an action did, or why it was refused. It sits
        # under the tabs (HealingView places it), so every tab's refusals are seen.
        self.status_label = StatusLine("healingStatus", page)
        advance_row = QHBoxLayout()
        advance_row.addWidget(QLabel(tr(_CTX, "Advance"), page))
        advance_row.addWidget(self.advance_days_spin)
        advance_row.addWidget(QLabel(tr(_CTX, "under"), page))
        advance_row.addWidget(self.advance_plan_combo)
        advance_row.addWidget(self.advance_button)
        advance_row.addStretch(1)

        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top, 0)
        layout.addWidget(middle, 1)
        layout.addLayout(advance_row)
        layout.addWidget(self.regime_note_label)
        layout.addWidget(self.roll_panel)
        for editor in (self.plan_a, self.plan_b):
            editor.setMaximumHeight(170)
            editor.plan_changed.connect(self._plans_changed)
        self.focus_combo.currentIndexChanged.connect(self._show_focus)
        self.advance_plan_combo.currentIndexChanged.connect(self._advance_plan_changed)
        self.advance_button.clicked.connect(self._advance)
        self.advance_days_spin.setValue(self.plan_a.plan().total_days)
        self.advance_days_spin.valueChanged.connect(self._show_regime_note)
        self.advance_plan_combo.currentIndexChanged.connect(self._show_regime_note)
        self.roll_panel.rolled.connect(self.status_changed)
        return page

    def _checked_changed(self) -> None:
        self._refresh_projections()

    def _plans_changed(self) -> None:
        editor = self.sender()
        index = self.advance_plan_combo.currentIndex()
        chosen = self.plan_a if index == 0 else self.plan_b
        if editor is chosen:
            self.advance_days_spin.setValue(chosen.plan().total_days)
        plan_a, plan_b = self.plans()
        self.advance_plan_combo.setItemText(0, tr(_CTX, "Plan A: {0}").format(plan_a.name))
        self.advance_plan_combo.setItemText(1, tr(_CTX, "Plan B: {0}").format(plan_b.name))
        self._refresh_projections()

    def _advance_plan_changed(self, index: int) -> None:
        chosen = self.plan_a if index == 0 else self.plan_b
        self.advance_days_spin.setValue(chosen.plan().total_days)

    def _refresh_projections(self) -> None:
        campaign = self.document.campaign
        basis = self.document.threshold_basis
        plan_a, plan_b = self.plans()
        cache = self._projection_cache
        self._projections = {}
        rows = []
        for character_id in self.patients_model.checked_ids():
            character = campaign.find_character(character_id)
            if character is None:
                continue
            pair = (cache.project(character, plan_a, basis),
                    cache.project(character, plan_b, basis))
            self._projections[character_id] = pair
            rows.append(pair)
        cache.sweep()
        self.comparison_model.set_rows(rows, campaign.game_time)
        self.comparison_model.set_plan_names(plan_a.name, plan_b.name)
        self.comparison_box.setTitle(tr(_CTX, "Plans compared: A = {0}, B = {1}").format(
            plan_a.name, plan_b.name))
        current = self.focus_combo.currentData()
        self._refreshing = True
        self.focus_combo.clear()
        for pair in rows:
            self.focus_combo.addItem(pair[0].name, pair[0].character_id)
        found = self.focus_combo.findData(current)
        self.focus_combo.setCurrentIndex(found if found >= 0 else (0 if rows else -1))
        self._refreshing = False
        self._show_focus()
        self._show_regime_note()
        self.advance_button.setEnabled(bool(rows))

    def _advance_plan(self) -> HealingPlan:
        index = self.advance_plan_combo.currentIndex()
        return (self.plan_a if index == 0 else self.plan_b).plan()

    def _show_regime_note(self, *_: object) -> None:
        """Say, before advancing, whose regime the plan leaves alone and whose it sets."""
        self.regime_note_label.setText(plan_regime_note(
            self.document.campaign, self.patients_model.checked_ids(), self._advance_plan(),
            self.advance_days_spin.value()))

    def _show_focus(self) -> None:
        if self._refreshing:
            return
        character_id = self.focus_combo.currentData()
        pair = self._projections.get(character_id) if character_id else None
        character = self.document.campaign.find_character(character_id) if pair else None
        start = self.document.campaign.game_time
        if pair is None or character is None:
            self.chart.set_chart(None, [])
            self.projection_a.set_projection(None, None)
            self.projection_b.set_projection(None, None)
            self.outcome_label.setText("")
            self.outlook_label.hide()
            return
        first, second = pair
        campaign = self.document.campaign
        supervised = campaign.infirmary.supervises_intensive_care
        outlook = [dying_outlook(character, p.plan, start, self.document.threshold_basis,
                                 supervised) for p in pair]
        labels = (tr(_CTX, "A: {0}"), tr(_CTX, "B: {0}"))
        outlook = [label.format(text) for label, text in zip(labels, outlook, strict=True)
                   if text]
        self.outlook_label.setText("\n".join(outlook))
        self.outlook_label.setVisible(bool(outlook))
        basis = self.document.threshold_basis
        track = damage_track(character.damage, character.hit_points,
                             character.wound_thresholds(basis))
        self.chart.set_chart(
            track,
            [
                ChartSeries.from_projection(first, labels[0].format(first.plan.name),
                                            PLAN_COLORS[0]),
                ChartSeries.from_projection(second, labels[1].format(second.plan.name),
                                            PLAN_COLORS[1], dashed=True),
            ],
            tr(_CTX, "{0} — damage {1}/{2}").format(character.name, character.damage,
                                                    character.hit_points),
        )
        self.projection_a.set_projection(first, start)
        self.projection_b.set_projection(second, start)
        set_rich_text(self.outcome_label, tr(_CTX, "<b>A</b> {}<br><b>B</b> {}"), first.outcome,
                      second.outcome)

    def _advance(self) -> None:
        ids = self.patients_model.checked_ids()
        plan = self._advance_plan()
        days = self.advance_days_spin.value()
        try:
            result = advance_under_plan(self.document, ids, plan, days)
        except (ValueError, KeyError) as exc:
            self._error(tr(_CTX, "Not advanced: {0}").format(exc))
            return
        asked = (tr(_CTX, "{0} day under {1}") if days == 1
                 else tr(_CTX, "{0} days under {1}")).format(days, plan.name)
        passed = duration_text(result.advanced)
        stopped = tr(_CTX, "Stopped after {0} of {1}").format(passed, asked)
        self._report(asked if not result.stopped else stopped,
                     result.changes)
        self.roll_panel.show_due(result.due, passed if result.advanced else "")
