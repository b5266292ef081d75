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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import QAbstractItemModel, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Character, Characteristic, ConditionKind
from mneme_desktop.domain.healing_plan import (
    CampaignChange,
    CharacterChange,
    HealingPlan,
    MedicalRoll,
    Notice,
    Projection,
    project_plan,
)
from mneme_desktop.domain.infirmary import Infirmary, Medic, infirmary_report
from mneme_desktop.domain.medic_check import MedicModifier, medic_modifier
from mneme_desktop.domain.plan_regimes import plan_regime_note
from mneme_desktop.domain.time_stops import dying_outlook
from mneme_desktop.rules.actions import FIRST_AID_ROUNDS
from mneme_desktop.rules.checks import UNSKILLED, roll_check, success_chance
from mneme_desktop.rules.healing import (
    INTENSIVE_CARE_DIFFICULTY,
    INTENSIVE_CARE_HEALING,
    SUPERVISOR_MIN_MEDIC,
    SURGERY_DIFFICULTY,
    SURGERY_MINUTES,
    Activity,
    PlanSegment,
    first_aid_difficulty,
    roll_intensive_care,
)
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import (
    DYING_DIFFICULTY,
    WoundState,
    dying_roll_modifier,
    roll_dying,
)
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.healing_commands import (
    advance_under_plan,
    campaign_infirmary,
    record_first_aid,
    record_intensive_care,
    record_surgery,
    set_infirmary,
    supports_stored_infirmary,
)
from mneme_desktop.ui.models.healing_models import (
    ComparisonModel,
    InfirmaryLoadModel,
    InfirmaryStaffModel,
    PatientListModel,
    PlanSegmentModel,
    ProjectionTableModel,
)
from mneme_desktop.ui.views.roll_due_panel import RollDuePanel, duration_text
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.projection_chart import PLAN_COLORS, ChartSeries, ProjectionChart

__all__ = ["HealingView", "MedicalEvent", "PlanEditor", "default_plans"]

_ERROR_STYLE = "color: #b71c1c;"
_WARNING_STYLE = (
    "QLabel { color: #7f1d1d; background: #fdecea; border: 1px solid #e57373; "
    "border-radius: 3px; padding: 4px; }"
)
_NOTE_STYLE = "color: palette(placeholder-text);"


_EVENT_RULES = {
    "first_aid": (
        f"First aid heals the Effect (at least 1), stops bleeding and stabilises a dying "
        f"character for END hours. {FIRST_AID_ROUNDS} rounds (3 minutes); Difficulty 10 on "
        "oneself. A failure does nothing."),
    "surgery": (
        f"Surgery heals 2 x Effect. On a failure the fail effect less the Medic skill "
        f"multiplies the {SURGERY_MINUTES} minutes; a remainder above half the patient's END "
        "harms them by double the remainder. Needs a hospital or sickbay."),
    "intensive_care": (
        f"For dying patients. Unsupervised: Difficulty {INTENSIVE_CARE_DIFFICULTY}; success "
        f"heals {INTENSIVE_CARE_HEALING}, failure calls for a dying roll (END vs "
        f"{DYING_DIFFICULTY}). A Medic {SUPERVISOR_MIN_MEDIC}+ supervisor or an AI sickbay "
        "needs no roll."),
}


_EVENT_TITLES = {"first_aid": "First aid", "surgery": "Surgery",
                 "intensive_care": "Intensive care"}


def default_plans() -> tuple[HealingPlan, HealingPlan]:
    """The comparison a referee asks first: full rest alone against light activity with
    care (the book's "double the rate with care")."""
    return (
        HealingPlan.single(Activity.FULL_REST, False, 7, "Full rest"),
        HealingPlan.single(Activity.LIGHT, True, 7, "Light + care"),
    )


_PRESETS: tuple[tuple[str, Activity, bool], ...] = (
    ("Full rest", Activity.FULL_REST, False),
    ("Full rest + care", Activity.FULL_REST, True),
    ("Light activity", Activity.LIGHT, False),
    ("Light + care", Activity.LIGHT, True),
    ("Moderate + care", Activity.MODERATE, True),
)


def _table(model: QAbstractItemModel, parent: QWidget, name: str) -> QTableView:
    table = QTableView(parent)
    table.setObjectName(name)
    table.setModel(model)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    return table


class PlanEditor(QGroupBox):
    """One plan: its name, its segments, presets and whether therapy follows."""

    plan_changed = Signal()

    def __init__(self, title: str, plan: HealingPlan, color_name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setObjectName(f"planEditor{title.split()[-1]}")
        self.model = PlanSegmentModel(plan, self)
        self.name_edit = QLineEdit(plan.name, self)
        self.name_edit.setObjectName("planName")
        self.name_edit.setAccessibleName(f"{title} name")
        self.name_edit.setMaxLength(60)
        self.name_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("M") * 6)
        swatch = QLabel("■", self)
        swatch.setStyleSheet(f"color: {color_name}; font-size: 16px;")
        swatch.setToolTip("The colour of this plan's line in the chart")
        self.preset_combo = QComboBox(self)
        self.preset_combo.setObjectName("planPreset")
        self.preset_combo.addItem("Preset…", None)
        for label, activity, care in _PRESETS:
            self.preset_combo.addItem(label, (activity, care))
        self.table = _table(self.model, self, "planSegments")
        self.table.setItemDelegate(SheetItemDelegate(self.table))
        self.table.verticalHeader().setVisible(True)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(PlanSegmentModel.ACTIVITY, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PlanSegmentModel.CARE,
                                    QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PlanSegmentModel.DAYS,
                                    QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = QPushButton("Add", self)
        self.add_button.setToolTip("Add a segment (a copy of the last one)")
        self.add_button.setObjectName("addSegment")
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Remove the selected segment")
        self.remove_button.setObjectName("removeSegment")
        self.therapy_check = QCheckBox("Then characteristic therapy", self)
        self.therapy_check.setObjectName("planTherapy")
        self.therapy_check.setChecked(plan.therapy)
        self.therapy_check.setToolTip(
            "Once fully healed: 1 point of characteristic damage per 3 days, one "
            "characteristic at a time (STR, DEX, END, INT, EDU, SOC in that order)")
        self.total_label = QLabel(self)
        self.total_label.setObjectName("planTotal")
        self.total_label.setToolTip(
            "Past its last day a plan continues its last segment, so the projection can "
            "say when the character is fully healed.")

        top = QHBoxLayout()
        top.addWidget(swatch)
        top.addWidget(self.name_edit, 1)
        top.addWidget(self.preset_combo)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(self.total_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.therapy_check)

        self.name_edit.textChanged.connect(self._name_changed)
        self.preset_combo.activated.connect(self._preset)
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.therapy_check.toggled.connect(self.model.set_therapy)
        self.model.plan_changed.connect(self._changed)
        self._changed()

    def plan(self) -> HealingPlan:
        return self.model.plan()

    def _changed(self) -> None:
        plan = self.model.plan()
        self.total_label.setText(f"{plan.total_days} days")
        self.remove_button.setEnabled(self.model.rowCount() > 1)
        self.plan_changed.emit()

    def _name_changed(self, text: str) -> None:
        self.model.set_name(text.strip() or self.title())

    def _preset(self, index: int) -> None:
        choice = self.preset_combo.itemData(index)
        self.preset_combo.setCurrentIndex(0)
        if choice is None:
            return
        activity, care = choice
        days = self.model.plan().total_days
        label = self.preset_combo.itemText(index)
        self.name_edit.setText(label)
        self.model.set_plan(HealingPlan((PlanSegment(activity, care, days),), label,
                                        self.therapy_check.isChecked()))

    def _add(self) -> None:
        row = self.model.add_segment()
        self.table.setCurrentIndex(self.model.index(row, PlanSegmentModel.ACTIVITY))

    def _remove(self) -> None:
        row = self.table.currentIndex().row()
        self.model.remove_segment(row if row >= 0 else self.model.rowCount() - 1)


class MedicalEvent(StrEnum):
    """The kinds of medical event the Medical care tab records."""

    FIRST_AID = "first_aid"
    SURGERY = "surgery"
    INTENSIVE_CARE = "intensive_care"


class HealingView(QWidget):
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
        self._local_infirmary = Infirmary()
        self._projections: dict[str, tuple[Projection, Projection]] = {}
        self._refreshing = False
        self._stale = False

        self.patients_model = PatientListModel(document, self)
        self.patients_table = _table(self.patients_model, self, "healingPatients")
        self.patients_table.setAccessibleName("Patients")
        self.patients_table.setItemDelegate(SheetItemDelegate(self.patients_table))
        self.patients_table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.SelectedClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed)
        header = self.patients_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PatientListModel.NAME, QHeaderView.ResizeMode.Stretch)

        self.comparison_model = ComparisonModel(self)
        self.comparison_table = _table(self.comparison_model, self, "planComparison")
        self.comparison_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.comparison_table.horizontalHeader().setSectionResizeMode(
            ComparisonModel.NAME, QHeaderView.ResizeMode.Stretch)
        self.comparison_box = QGroupBox(self)
        self.comparison_box.setObjectName("comparisonBox")
        box_layout = QVBoxLayout(self.comparison_box)
        box_layout.setContentsMargins(6, 6, 6, 6)
        box_layout.addWidget(self.comparison_table)

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("healingTabs")
        self.tabs.addTab(self._build_planner(), "Planner")
        self.tabs.addTab(self._build_medical(), "Medical care")
        self.tabs.addTab(self._build_infirmary(), "Infirmary")

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        hint = QLabel("Check the characters to plan for. Activity and Care set each "
                      "character's regime: the clock heals by it.", left)
        hint.setWordWrap(True)
        hint.setStyleSheet(_NOTE_STYLE)
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

        self.patients_model.checked_changed.connect(self._checked_changed)
        self.patients_model.edit_rejected.connect(self._error)
        document.character_changed.connect(self._document_changed)
        document.structure_changed.connect(self._document_changed)
        document.time_changed.connect(self._document_changed)
        document.rules_changed.connect(self._document_changed)
        document.undo_stack.indexChanged.connect(self._refresh_infirmary)
        self._select_injured()
        self._refresh_all()

    # ================================================================= public API

    def set_characters(self, ids: Sequence[str]) -> None:
        """Plan for these characters (the dead and unknown ids are skipped)."""
        self.patients_model.set_checked_ids(list(ids))
        checked = self.patients_model.checked_ids()
        if checked:
            self.focus_character(checked[0])

    def focus_character(self, character_id: str) -> None:
        """Show this checked character's projection in the chart and day tables."""
        index = self.focus_combo.findData(character_id)
        if index >= 0:
            self.focus_combo.setCurrentIndex(index)

    @property
    def infirmary(self) -> Infirmary:
        """The campaign's infirmary, or the view's own while the campaign keeps none."""
        stored = campaign_infirmary(self.document.campaign)
        return stored if stored is not None else self._local_infirmary

    def plans(self) -> tuple[HealingPlan, HealingPlan]:
        return self.plan_a.plan(), self.plan_b.plan()

    def projection(self, character_id: str) -> tuple[Projection, Projection] | None:
        return self._projections.get(character_id)

    # ================================================================ building

    def _build_planner(self) -> QWidget:
        page = QWidget(self)
        plan_a, plan_b = default_plans()
        self.plan_a = PlanEditor("Plan A", plan_a, PLAN_COLORS[0].name(), page)
        self.plan_b = PlanEditor("Plan B", plan_b, PLAN_COLORS[1].name(), page)
        top = QHBoxLayout()
        top.addWidget(self.plan_a, 1)
        top.addWidget(self.plan_b, 1)

        self.focus_combo = QComboBox(page)
        self.focus_combo.setObjectName("projectionFocus")
        self.focus_combo.setAccessibleName("Character shown in the projection")
        self.focus_combo.setMinimumContentsLength(16)
        self.outcome_label = QLabel(page)
        self.outcome_label.setObjectName("projectionOutcome")
        self.outcome_label.setWordWrap(True)
        set_rich_text(self.outcome_label, "")
        self.chart = ProjectionChart(page)
        self.chart.set_empty_text("Check one or more injured characters on the left.")

        self.projection_a = ProjectionTableModel(self)
        self.projection_b = ProjectionTableModel(self)
        self.projection_table_a = _table(self.projection_a, page, "projectionTableA")
        self.projection_table_b = _table(self.projection_b, page, "projectionTableB")
        self.projection_table_a.setAccessibleName("Plan A day by day")
        self.projection_table_b.setAccessibleName("Plan B day by day")
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
        focus_row.addWidget(QLabel("Projection for", chart_area))
        focus_row.addWidget(self.focus_combo)
        focus_row.addWidget(self.outcome_label, 1)
        chart_layout.addLayout(focus_row)
        self.outlook_label = QLabel(chart_area)
        self.outlook_label.setObjectName("dyingOutlook")
        self.outlook_label.setTextFormat(Qt.TextFormat.PlainText)
        self.outlook_label.setWordWrap(True)
        self.outlook_label.setStyleSheet(_ERROR_STYLE)
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
        self.advance_days_spin.setSuffix(" days")
        self.advance_days_spin.setAccessibleName("Days to advance")
        self.advance_plan_combo = QComboBox(page)
        self.advance_plan_combo.setObjectName("advancePlan")
        self.advance_plan_combo.addItem("Plan A", 0)
        self.advance_plan_combo.addItem("Plan B", 1)
        self.advance_button = QPushButton("Advance", page)
        self.advance_button.setObjectName("advanceUnderPlan")
        self.advance_button.setToolTip(
            "Heal the checked characters under the plan and move the campaign clock; "
            "everyone else heals (or bleeds) by their own regime, and every patient keeps "
            "their own regime afterwards. Stops where a roll is due. One undo step.")
        self.regime_note_label = QLabel(page)
        self.regime_note_label.setObjectName("advanceRegimeNote")
        self.regime_note_label.setTextFormat(Qt.TextFormat.PlainText)
        self.regime_note_label.setWordWrap(True)
        self.regime_note_label.setStyleSheet(_NOTE_STYLE)
        self.roll_panel = RollDuePanel(self.document, page, rng=self.rng)
        self.roll_panel.setObjectName("planRollDue")
        self.status_label = QLabel(page)
        self.status_label.setObjectName("healingStatus")
        self.status_label.setWordWrap(True)
        advance_row = QHBoxLayout()
        advance_row.addWidget(QLabel("Advance", page))
        advance_row.addWidget(self.advance_days_spin)
        advance_row.addWidget(QLabel("under", page))
        advance_row.addWidget(self.advance_plan_combo)
        advance_row.addWidget(self.advance_button)
        advance_row.addWidget(self.status_label, 1)

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

    def _build_medical(self) -> QWidget:
        page = QWidget(self)
        self.event_patient_combo = QComboBox(page)
        self.event_patient_combo.setObjectName("eventPatient")
        self.event_patient_combo.setMinimumContentsLength(20)
        self.event_state_label = QLabel(page)
        self.event_state_label.setObjectName("eventPatientState")
        self.first_aid_radio = QRadioButton(
            f"First aid (Difficulty {first_aid_difficulty()}, {FIRST_AID_ROUNDS} rounds)", page)
        self.surgery_radio = QRadioButton(
            f"Surgery (Difficulty {SURGERY_DIFFICULTY}, {SURGERY_MINUTES} minutes)", page)
        self.intensive_radio = QRadioButton(
            f"Intensive care (Difficulty {INTENSIVE_CARE_DIFFICULTY} unsupervised)", page)
        self.first_aid_radio.setObjectName("eventFirstAid")
        self.surgery_radio.setObjectName("eventSurgery")
        self.intensive_radio.setObjectName("eventIntensiveCare")
        self.first_aid_radio.setChecked(True)
        self.event_group = QButtonGroup(page)
        for radio in (self.first_aid_radio, self.surgery_radio, self.intensive_radio):
            self.event_group.addButton(radio)
        self.medic_combo = QComboBox(page)
        self.medic_combo.setObjectName("eventMedic")
        self.medic_skill_spin = QSpinBox(page)
        self.medic_skill_spin.setObjectName("eventMedicSkill")
        self.medic_skill_spin.setAccessibleName("Medic skill level")
        self.medic_skill_spin.setRange(-1, 15)
        self.medic_skill_spin.setSpecialValueText(f"unskilled ({UNSKILLED:+d})")
        self.medic_skill_spin.setValue(-1)
        self.dm_spin = QSpinBox(page)
        self.dm_spin.setObjectName("eventDm")
        self.dm_spin.setAccessibleName("Other DMs")
        self.dm_spin.setRange(-12, 12)
        self.dm_spin.setPrefix("DM ")
        self.dm_spin.setToolTip("Other DMs: tools, assistance … (a listed medic's EDU DM and "
                                "wound penalty are counted already, as in the encounter)")
        self.on_self_check = QCheckBox("On oneself (Difficulty 10)", page)
        self.on_self_check.setObjectName("eventOnSelf")
        self.advance_clock_check = QCheckBox("Advance the clock by the time it takes", page)
        self.advance_clock_check.setObjectName("eventAdvanceClock")
        self.advance_clock_check.setChecked(True)
        self.advance_clock_check.setToolTip(
            "The patient goes on bleeding while the task takes its time.")
        self.check_label = QLabel(page)
        self.check_label.setObjectName("eventCheck")
        self.event_rule_label = QLabel(page)
        self.event_rule_label.setObjectName("eventRule")
        self.event_rule_label.setWordWrap(True)
        self.event_rule_label.setStyleSheet(_NOTE_STYLE)
        self.requirement_label = QLabel(page)
        self.requirement_label.setObjectName("eventRequirement")
        self.requirement_label.setWordWrap(True)
        self.requirement_label.setStyleSheet(_ERROR_STYLE)
        self.roll_button = QPushButton("Roll and apply", page)
        self.roll_button.setObjectName("eventRoll")
        self.entered_spin = QSpinBox(page)
        self.entered_spin.setObjectName("eventEntered")
        self.entered_spin.setAccessibleName("2d6 rolled at the table")
        self.entered_spin.setRange(2, 12)
        self.entered_spin.setValue(7)
        self.entered_spin.setPrefix("2d6 = ")
        self.dying_spin = QSpinBox(page)
        self.dying_spin.setObjectName("eventDyingEntered")
        self.dying_spin.setAccessibleName("Dying roll, 2d6 rolled at the table")
        self.dying_spin.setRange(2, 12)
        self.dying_spin.setValue(7)
        self.dying_spin.setPrefix("dying roll 2d6 = ")
        self.dying_spin.setToolTip("Used only if the intensive-care roll fails")
        self.apply_entered_button = QPushButton("Apply entered roll", page)
        self.apply_entered_button.setObjectName("eventApplyEntered")
        self.result_label = QLabel(page)
        self.result_label.setObjectName("eventResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        form = QFormLayout()
        patient_row = QHBoxLayout()
        patient_row.addWidget(self.event_patient_combo)
        patient_row.addWidget(self.event_state_label, 1)
        form.addRow("Patient", patient_row)
        events = QVBoxLayout()
        events.addWidget(self.first_aid_radio)
        events.addWidget(self.surgery_radio)
        events.addWidget(self.intensive_radio)
        form.addRow("Event", events)
        form.addRow("", self.event_rule_label)
        medic_row = QHBoxLayout()
        medic_row.addWidget(self.medic_combo)
        medic_row.addWidget(QLabel("Medic skill", page))
        medic_row.addWidget(self.medic_skill_spin)
        medic_row.addWidget(self.dm_spin)
        medic_row.addStretch(1)
        form.addRow("Medic", medic_row)
        options = QHBoxLayout()
        options.addWidget(self.on_self_check)
        options.addWidget(self.advance_clock_check)
        options.addStretch(1)
        form.addRow("", options)
        form.addRow("Check", self.check_label)
        rolls = QGridLayout()
        rolls.addWidget(self.roll_button, 0, 0)
        rolls.addWidget(QLabel("or rolled at the table:", page), 0, 1)
        rolls.addWidget(self.entered_spin, 0, 2)
        rolls.addWidget(self.dying_spin, 0, 3)
        rolls.addWidget(self.apply_entered_button, 0, 4)
        rolls.setColumnStretch(5, 1)
        form.addRow("", rolls)
        form.addRow("", self.requirement_label)
        result_box = QGroupBox("Last event", page)
        result_layout = QVBoxLayout(result_box)
        result_layout.addWidget(self.result_label, 1)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(result_box, 1)

        self.event_patient_combo.currentIndexChanged.connect(self._update_event_form)
        self.event_group.buttonToggled.connect(self._update_event_form)
        self.medic_combo.currentIndexChanged.connect(self._medic_chosen)
        for spin in (self.medic_skill_spin, self.dm_spin):
            spin.valueChanged.connect(self._update_event_form)
        self.on_self_check.toggled.connect(self._medic_chosen)
        self.roll_button.clicked.connect(self._roll_event)
        self.apply_entered_button.clicked.connect(self._apply_entered_event)
        return page

    def _build_infirmary(self) -> QWidget:
        page = QWidget(self)
        self.staff_model = InfirmaryStaffModel(self.infirmary, self)
        self.staff_table = _table(self.staff_model, page, "infirmaryStaff")
        self.staff_table.setItemDelegate(SheetItemDelegate(self.staff_table))
        self.staff_table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.Stretch)
        self.add_medic_button = QPushButton("Add medic", page)
        self.add_medic_button.setObjectName("addMedic")
        self.add_medic_level_spin = QSpinBox(page)
        self.add_medic_level_spin.setObjectName("addMedicLevel")
        self.add_medic_level_spin.setRange(0, 15)
        self.add_medic_level_spin.setPrefix("Medic ")
        self.add_from_combo = QComboBox(page)
        self.add_from_combo.setObjectName("addMedicFrom")
        self.add_from_button = QPushButton("Add as medic", page)
        self.add_from_button.setObjectName("addMedicCharacter")
        self.remove_medic_button = QPushButton("Remove medic", page)
        self.remove_medic_button.setObjectName("removeMedic")
        self.supervisor_spin = QSpinBox(page)
        self.supervisor_spin.setObjectName("supervisorLevel")
        self.supervisor_spin.setRange(-1, 15)
        self.supervisor_spin.setSpecialValueText("no supervisor")
        self.supervisor_spin.setPrefix("Medic ")
        self.supervisor_spin.setValue(-1)
        self.supervisor_name_edit = QLineEdit(page)
        self.supervisor_name_edit.setObjectName("supervisorName")
        self.supervisor_name_edit.setPlaceholderText("Supervisor's name")
        self.sickbay_check = QCheckBox("Hospital or sickbay at hand (surgery needs one)", page)
        self.sickbay_check.setObjectName("infirmarySickbay")
        self.ai_check = QCheckBox("AI sickbay supervises intensive care", page)
        self.ai_check.setObjectName("infirmaryAi")
        self.load_model = InfirmaryLoadModel(self)
        self.load_table = _table(self.load_model, page, "infirmaryLoad")
        self.load_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.load_table.horizontalHeader().setSectionResizeMode(
            InfirmaryLoadModel.NAME, QHeaderView.ResizeMode.Stretch)
        self.capacity_label = QLabel(page)
        self.capacity_label.setObjectName("infirmaryCapacity")
        self.capacity_label.setWordWrap(True)
        self.warning_label = QLabel(page)
        self.warning_label.setObjectName("infirmaryWarning")
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet(_WARNING_STYLE)
        self.warning_label.hide()
        self.monitoring_label = QLabel(page)
        self.monitoring_label.setObjectName("infirmaryMonitoring")
        self.monitoring_label.setWordWrap(True)
        self.monitoring_label.setStyleSheet(_NOTE_STYLE)
        self.storage_label = QLabel(page)
        self.storage_label.setWordWrap(True)
        self.storage_label.setStyleSheet(_NOTE_STYLE)
        if not supports_stored_infirmary():
            self.storage_label.setText(
                "The infirmary is kept while this view is open; it is not yet saved with the "
                "campaign.")

        staff_box = QGroupBox("Medics", page)
        staff_layout = QVBoxLayout(staff_box)
        staff_layout.addWidget(self.staff_table, 1)
        add_row = QHBoxLayout()
        add_row.addWidget(self.add_medic_level_spin)
        add_row.addWidget(self.add_medic_button)
        add_row.addStretch(1)
        add_row.addWidget(self.remove_medic_button)
        staff_layout.addLayout(add_row)
        from_row = QHBoxLayout()
        from_row.addWidget(self.add_from_combo, 1)
        from_row.addWidget(self.add_from_button)
        staff_layout.addLayout(from_row)
        supervisor_row = QHBoxLayout()
        supervisor_row.addWidget(QLabel("Supervisor", page))
        supervisor_row.addWidget(self.supervisor_spin)
        supervisor_row.addWidget(self.supervisor_name_edit, 1)
        staff_layout.addLayout(supervisor_row)
        staff_layout.addWidget(self.sickbay_check)
        staff_layout.addWidget(self.ai_check)
        staff_layout.addWidget(self.storage_label)

        load_box = QGroupBox("Patients under care", page)
        load_layout = QVBoxLayout(load_box)
        load_layout.addWidget(self.load_table, 1)
        load_layout.addWidget(self.capacity_label)
        load_layout.addWidget(self.warning_label)
        load_layout.addWidget(self.monitoring_label)

        layout = QHBoxLayout(page)
        layout.addWidget(staff_box, 1)
        layout.addWidget(load_box, 1)

        self.staff_model.infirmary_edited.connect(
            lambda infirmary: self._store_infirmary(infirmary, "Edit medic"))
        self.staff_model.edit_rejected.connect(self._error)
        self.add_medic_button.clicked.connect(self._add_medic)
        self.add_from_button.clicked.connect(self._add_medic_character)
        self.remove_medic_button.clicked.connect(self._remove_medic)
        self.supervisor_spin.valueChanged.connect(self._supervisor_edited)
        self.supervisor_name_edit.editingFinished.connect(self._supervisor_edited)
        self.sickbay_check.toggled.connect(self._facilities_edited)
        self.ai_check.toggled.connect(self._facilities_edited)
        return page

    # ================================================================ refreshing

    def _select_injured(self) -> None:
        injured = [
            c.id for c in self.document.campaign.characters
            if c.damage > 0 and not c.has_condition(ConditionKind.DEAD)
        ]
        self.patients_model.set_checked_ids(injured)

    def _document_changed(self, *_: object) -> None:
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

    def _checked_changed(self) -> None:
        self._refresh_projections()

    def _plans_changed(self) -> None:
        editor = self.sender()
        index = self.advance_plan_combo.currentIndex()
        chosen = self.plan_a if index == 0 else self.plan_b
        if editor is chosen:
            self.advance_days_spin.setValue(chosen.plan().total_days)
        plan_a, plan_b = self.plans()
        self.advance_plan_combo.setItemText(0, f"Plan A: {plan_a.name}")
        self.advance_plan_combo.setItemText(1, f"Plan B: {plan_b.name}")
        self._refresh_projections()

    def _advance_plan_changed(self, index: int) -> None:
        chosen = self.plan_a if index == 0 else self.plan_b
        self.advance_days_spin.setValue(chosen.plan().total_days)

    def _refresh_projections(self) -> None:
        campaign = self.document.campaign
        basis = self.document.threshold_basis
        plan_a, plan_b = self.plans()
        self._projections = {}
        rows = []
        for character_id in self.patients_model.checked_ids():
            character = campaign.find_character(character_id)
            if character is None:
                continue
            pair = (project_plan(character, plan_a, basis), project_plan(character, plan_b, basis))
            self._projections[character_id] = pair
            rows.append(pair)
        self.comparison_model.set_rows(rows, campaign.game_time)
        self.comparison_model.set_plan_names(plan_a.name, plan_b.name)
        self.comparison_box.setTitle(f"Plans compared: A = {plan_a.name}, B = {plan_b.name}")
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
        outlook = [f"{label}: {text}" for label, text in zip("AB", outlook, strict=True) if text]
        self.outlook_label.setText("\n".join(outlook))
        self.outlook_label.setVisible(bool(outlook))
        basis = self.document.threshold_basis
        track = damage_track(character.damage, character.hit_points,
                             character.wound_thresholds(basis))
        self.chart.set_chart(
            track,
            [
                ChartSeries.from_projection(first, f"A: {first.plan.name}", PLAN_COLORS[0]),
                ChartSeries.from_projection(second, f"B: {second.plan.name}", PLAN_COLORS[1],
                                            dashed=True),
            ],
            f"{character.name} — damage {character.damage}/{character.hit_points}",
        )
        self.projection_a.set_projection(first, start)
        self.projection_b.set_projection(second, start)
        set_rich_text(self.outcome_label, "<b>A</b> {}<br><b>B</b> {}", first.outcome,
                      second.outcome)

    def _refresh_medical(self) -> None:
        campaign = self.document.campaign
        current = self.event_patient_combo.currentData()
        current_medic = self.medic_combo.currentData()
        self.event_patient_combo.blockSignals(True)
        self.medic_combo.blockSignals(True)
        self.add_from_combo.blockSignals(True)
        self.event_patient_combo.clear()
        self.medic_combo.clear()
        self.medic_combo.addItem("— not listed —", None)
        self.add_from_combo.clear()
        for character in campaign.characters:
            if character.has_condition(ConditionKind.DEAD):
                continue
            self.event_patient_combo.addItem(character.name, character.id)
            level = character.skill_level("Medic")
            shown = "no Medic" if level is None else f"Medic {level}"
            self.medic_combo.addItem(f"{character.name} ({shown})", character.id)
            if level is not None:
                self.add_from_combo.addItem(f"{character.name} (Medic {level})", character.id)
        if current is None:
            checked = self.patients_model.checked_ids()
            current = checked[0] if checked else None
        found = self.event_patient_combo.findData(current)
        self.event_patient_combo.setCurrentIndex(max(0, found))
        self.medic_combo.setCurrentIndex(max(0, self.medic_combo.findData(current_medic)))
        self.event_patient_combo.blockSignals(False)
        self.medic_combo.blockSignals(False)
        self.add_from_combo.blockSignals(False)
        self.add_from_button.setEnabled(self.add_from_combo.count() > 0)
        self._update_event_form()

    # ================================================================ planner actions

    def _advance(self) -> None:
        ids = self.patients_model.checked_ids()
        plan = self._advance_plan()
        days = self.advance_days_spin.value()
        try:
            result = advance_under_plan(self.document, ids, plan, days)
        except (ValueError, KeyError) as exc:
            self._error(f"Not advanced: {exc}")
            return
        asked = f"{days} day{'s' if days != 1 else ''} under {plan.name}"
        passed = duration_text(result.advanced)
        self._report(asked if not result.stopped else f"Stopped after {passed} of {asked}",
                     result.changes)
        self.roll_panel.show_due(result.due, passed if result.advanced else "")

    def _report(self, what: str, changes: Sequence[CampaignChange]) -> None:
        happened = [c.description for c in changes if isinstance(c, CharacterChange | Notice)]
        text = what + (": " + "; ".join(happened) if happened else ": nothing changed")
        self.status_label.setStyleSheet("")
        self.status_label.setText(text)
        self.status_label.setToolTip("\n".join(happened))
        self.status_changed.emit(text)

    def _error(self, message: str) -> None:
        self.status_label.setStyleSheet(_ERROR_STYLE)
        self.status_label.setText(message)
        set_rich_text(self.result_label, "<span style='" + _ERROR_STYLE + "'>{}</span>", message)
        self.status_changed.emit(message)

    # ================================================================ medical events

    def event_kind(self) -> MedicalEvent:
        if self.surgery_radio.isChecked():
            return MedicalEvent.SURGERY
        if self.intensive_radio.isChecked():
            return MedicalEvent.INTENSIVE_CARE
        return MedicalEvent.FIRST_AID

    def _event_patient(self) -> Character | None:
        patient_id = self.event_patient_combo.currentData()
        return None if patient_id is None else self.document.campaign.find_character(patient_id)

    def _medic_skill(self) -> int | None:
        value = self.medic_skill_spin.value()
        return None if value < 0 else value

    def _medic_terms(self) -> MedicModifier | None:
        """The medic's DM terms (the encounter's too), at the skill level shown; None when
        the medic is not a listed character (the skill spin and DMs are all there is)."""
        medic: Character | None
        if self.event_kind() == MedicalEvent.FIRST_AID and self.on_self_check.isChecked():
            medic = self._event_patient()
        else:
            medic_id = self.medic_combo.currentData()
            medic = None if medic_id is None else self.document.campaign.find_character(
                medic_id)
        return None if medic is None else medic_modifier(medic).with_level(self._medic_skill())

    def _event_modifier(self) -> int:
        """The medic's DM (Medic level, EDU DM, their wound penalty) plus other DMs;
        intensive care rolls with DMs only."""
        if self.event_kind() == MedicalEvent.INTENSIVE_CARE:
            return self.dm_spin.value()
        terms = self._medic_terms()
        if terms is not None:
            return terms.total + self.dm_spin.value()
        skill = self._medic_skill()
        return (UNSKILLED if skill is None else skill) + self.dm_spin.value()

    def _event_difficulty(self) -> int:
        kind = self.event_kind()
        if kind == MedicalEvent.SURGERY:
            return SURGERY_DIFFICULTY
        if kind == MedicalEvent.INTENSIVE_CARE:
            return INTENSIVE_CARE_DIFFICULTY
        return first_aid_difficulty(self.on_self_check.isChecked())

    def _supervised(self) -> bool:
        return self.infirmary.supervises_intensive_care

    def _medic_chosen(self) -> None:
        medic_id = self.medic_combo.currentData()
        medic = None if medic_id is None else self.document.campaign.find_character(medic_id)
        if self.on_self_check.isChecked() and self.event_kind() == MedicalEvent.FIRST_AID:
            medic = self._event_patient()
        if medic is not None:
            level = medic.skill_level("Medic")
            self.medic_skill_spin.setValue(-1 if level is None else level)
        self._update_event_form()

    def _event_problem(self, patient: Character | None) -> str:
        """Why the chosen event cannot be recorded now ("" when it can)."""
        if patient is None:
            return "No living character to treat."
        kind = self.event_kind()
        basis = self.document.threshold_basis
        if kind == MedicalEvent.SURGERY and not self.infirmary.sickbay:
            return ("Surgery requires a hospital or sickbay: tick it on the Infirmary tab "
                    "if one is at hand.")
        if kind == MedicalEvent.INTENSIVE_CARE and patient.wound_state(basis) is not (
            WoundState.DYING
        ):
            return f"{patient.name} is not dying: intensive care is for dying patients."
        if kind != MedicalEvent.INTENSIVE_CARE and patient.damage == 0 and not (
            patient.has_condition(ConditionKind.BLEEDING)
        ):
            return f"{patient.name} is unhurt."
        return ""

    def _update_event_form(self, *_: object) -> None:
        patient = self._event_patient()
        kind = self.event_kind()
        basis = self.document.threshold_basis
        if patient is not None:
            conditions = ", ".join(c.label for c in patient.conditions)
            self.event_state_label.setText(
                f"damage {patient.damage}/{patient.hit_points}, "
                f"{patient.wound_state(basis).label}" + (f"; {conditions}" if conditions else ""))
        else:
            self.event_state_label.setText("")
        self.on_self_check.setEnabled(kind == MedicalEvent.FIRST_AID)
        self.medic_combo.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        self.medic_skill_spin.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        self.advance_clock_check.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        supervised = kind == MedicalEvent.INTENSIVE_CARE and self._supervised()
        self.dying_spin.setVisible(kind == MedicalEvent.INTENSIVE_CARE and not supervised)
        self.entered_spin.setEnabled(not supervised)
        difficulty, modifier = self._event_difficulty(), self._event_modifier()
        if supervised:
            self.check_label.setText(
                f"Supervised (Medic {SUPERVISOR_MIN_MEDIC}+ or AI sickbay): no roll, heals "
                f"{INTENSIVE_CARE_HEALING}.")
            self.roll_button.setText("Apply supervised care")
        else:
            chance = success_chance(modifier, difficulty)
            terms = None if kind == MedicalEvent.INTENSIVE_CARE else self._medic_terms()
            shown = "" if terms is None else f" ({terms.terms}, other {self.dm_spin.value():+d})"
            self.check_label.setText(
                f"2d6 {modifier:+d} vs Difficulty {difficulty}: "
                f"{float(chance) * 100:.0f}% to succeed{shown}")
            self.roll_button.setText("Roll and apply")
        self.event_rule_label.setText(_EVENT_RULES[kind])
        problem = self._event_problem(patient)
        self.requirement_label.setText(problem)
        self.roll_button.setEnabled(not problem)
        self.apply_entered_button.setEnabled(not problem and not supervised)

    def _medic_name(self, patient: Character) -> str:
        if self.event_kind() == MedicalEvent.FIRST_AID and self.on_self_check.isChecked():
            return patient.name
        medic_id = self.medic_combo.currentData()
        medic = None if medic_id is None else self.document.campaign.find_character(medic_id)
        return "" if medic is None else medic.name

    def _roll_event(self) -> None:
        patient = self._event_patient()
        if patient is None:
            return
        kind = self.event_kind()
        if kind == MedicalEvent.INTENSIVE_CARE:
            infirmary = self.infirmary
            supervisor = None if infirmary.supervisor is None else infirmary.supervisor.level
            if self._supervised():
                self._record(patient, None, None)
                return
            result = roll_intensive_care(self.rng, self._event_modifier(), supervisor)
            assert result.check is not None
            dying = None
            if result.dying_roll_required:
                endurance = patient.characteristic(Characteristic.END) or 0
                dying = MedicalRoll.from_check(
                    roll_dying(self.rng, endurance, patient.damage).check)
            self._record(patient, MedicalRoll.from_check(result.check), dying)
            return
        check = roll_check(self.rng, self._event_modifier(), self._event_difficulty())
        self._record(patient, MedicalRoll.from_check(check), None)

    def _apply_entered_event(self) -> None:
        patient = self._event_patient()
        if patient is None:
            return
        try:
            roll = MedicalRoll.entered(self.entered_spin.value(), self._event_modifier(),
                                       self._event_difficulty())
            dying = None
            if self.event_kind() == MedicalEvent.INTENSIVE_CARE and not roll.success:
                endurance = patient.characteristic(Characteristic.END) or 0
                dying = MedicalRoll.entered(
                    self.dying_spin.value(), dying_roll_modifier(endurance, patient.damage),
                    DYING_DIFFICULTY)
        except ValueError as exc:
            self._error(str(exc))
            return
        self._record(patient, roll, dying)

    def _record(self, patient: Character, roll: MedicalRoll | None,
                dying: MedicalRoll | None) -> None:
        kind = self.event_kind()
        advance = self.advance_clock_check.isChecked()
        try:
            if kind == MedicalEvent.FIRST_AID:
                assert roll is not None
                changes = record_first_aid(
                    self.document, patient.id, roll, on_self=self.on_self_check.isChecked(),
                    medic=self._medic_name(patient), advance_clock=advance)
            elif kind == MedicalEvent.SURGERY:
                assert roll is not None
                changes = record_surgery(
                    self.document, patient.id, roll, medic_skill=self._medic_skill(),
                    sickbay=self.infirmary.sickbay, medic=self._medic_name(patient),
                    advance_clock=advance)
            else:
                changes = record_intensive_care(self.document, patient.id, roll, dying)
        except (ValueError, KeyError) as exc:
            self._error(f"Not recorded: {exc}")
            return
        lines: list[str] = []
        for change in changes:
            if isinstance(change, CharacterChange) and change.character_id == patient.id:
                lines = list(change.lines) + lines
            elif isinstance(change, CharacterChange | Notice):
                lines.append(change.description)
        set_rich_text(self.result_label, "<b>{}</b>" + "<br>{}" * len(lines), patient.name,
                      *lines)
        self._report(_EVENT_TITLES[kind], changes)

    # ================================================================ infirmary

    def _store_infirmary(self, infirmary: Infirmary, text: str) -> None:
        if supports_stored_infirmary():
            set_infirmary(self.document, infirmary, text)
        else:
            self._local_infirmary = infirmary.model_copy(deep=True)
        self._refresh_infirmary()

    def _refresh_infirmary(self, *_: object) -> None:
        infirmary = self.infirmary
        if self.staff_model.infirmary != infirmary:
            self.staff_model.set_infirmary(infirmary)
        for widget, value in (
            (self.sickbay_check, infirmary.sickbay),
            (self.ai_check, infirmary.ai_supervision),
        ):
            widget.blockSignals(True)
            widget.setChecked(value)
            widget.blockSignals(False)
        supervisor = infirmary.supervisor
        self.supervisor_spin.blockSignals(True)
        self.supervisor_spin.setValue(-1 if supervisor is None else supervisor.level)
        self.supervisor_spin.blockSignals(False)
        if supervisor is not None and not self.supervisor_name_edit.hasFocus():
            self.supervisor_name_edit.setText(supervisor.name)
        self.supervisor_name_edit.setEnabled(supervisor is not None)
        self.remove_medic_button.setEnabled(bool(infirmary.medics))
        report = infirmary_report(infirmary, self.document.campaign.characters,
                                  self.document.threshold_basis)
        self.load_model.set_report(report)
        capacity = report.capacity
        parts = [f"staff {capacity.staff}"]
        if capacity.supervision_bonus:
            parts.append(f"doubled by the supervisor +{capacity.supervision_bonus}")
        if capacity.supervisor:
            parts.append(f"supervisor {capacity.supervisor}")
        self.capacity_label.setText(
            f"{report.summary}.\nCapacity = " + " + ".join(parts)
            + " (8 x 2^Medic level each).")
        if report.over_capacity:
            set_rich_text(self.warning_label, "<b>{}</b>" + "<br>{}" * len(report.fixes),
                          report.warning, *report.fixes)
            self.warning_label.show()
        else:
            self.warning_label.clear()
            self.warning_label.hide()
        self.monitoring_label.setText(
            f"Note: {report.monitoring_note} The capacity above uses the care figure, "
            "8 x 2^level light-care patients per medic.")
        if hasattr(self, "roll_button"):
            self._update_event_form()

    def _add_medic(self) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        level = self.add_medic_level_spin.value()
        number = len(infirmary.medics) + 1
        infirmary.medics.append(Medic(name=f"Staff medic {number}", level=level))
        self._store_infirmary(infirmary, "Add medic")

    def _add_medic_character(self) -> None:
        character_id = self.add_from_combo.currentData()
        character = (None if character_id is None
                     else self.document.campaign.find_character(character_id))
        if character is None:
            return
        level = character.skill_level("Medic")
        if level is None:
            self._error(f"{character.name} has no Medic skill")
            return
        infirmary = self.infirmary.model_copy(deep=True)
        if any(m.character_id == character.id for m in infirmary.medics):
            self._error(f"{character.name} is already one of the medics")
            return
        infirmary.medics.append(Medic(name=character.name, level=level,
                                      character_id=character.id))
        self._store_infirmary(infirmary, f"Add {character.name} as medic")

    def _remove_medic(self) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        if not infirmary.medics:
            return
        row = self.staff_table.currentIndex().row()
        row = row if 0 <= row < len(infirmary.medics) else len(infirmary.medics) - 1
        removed = infirmary.medics.pop(row)
        self._store_infirmary(infirmary, f"Remove {removed.name}")

    def _supervisor_edited(self, *_: object) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        level = self.supervisor_spin.value()
        if level < 0:
            new = None
        else:
            name = self.supervisor_name_edit.text().strip() or "Supervisor"
            old = infirmary.supervisor
            new = Medic(name=name, level=level) if old is None else old.model_copy(
                update={"name": name, "level": level})
        if new == infirmary.supervisor:
            return
        infirmary.supervisor = new
        self._store_infirmary(infirmary, "Change the supervisor")

    def _facilities_edited(self, *_: object) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        infirmary.sickbay = self.sickbay_check.isChecked()
        infirmary.ai_supervision = self.ai_check.isChecked()
        self._store_infirmary(infirmary, "Change the infirmary's facilities")

