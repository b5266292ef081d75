"""The Healing planner's plan editors: a plan's name, segments, presets and therapy."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.rules.healing import Activity, PlanSegment
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.healing_models import PlanSegmentModel
from mneme_desktop.ui.views.healing_page import table_view
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate

__all__ = ["PlanEditor", "default_plans"]

_CTX = "HealingPlans"


def default_plans() -> tuple[HealingPlan, HealingPlan]:
    """The comparison a referee asks first: full rest alone against light activity with
    care (the book's "double the rate with care")."""
    return (
        HealingPlan.single(Activity.FULL_REST, False, 7, tr(_CTX, "Full rest")),
        HealingPlan.single(Activity.LIGHT, True, 7, tr(_CTX, "Light + care")),
    )


_PRESETS: tuple[tuple[str, Activity, bool], ...] = (
    (tr_noop(_CTX, "Full rest"), Activity.FULL_REST, False),
    (tr_noop(_CTX, "Full rest + care"), Activity.FULL_REST, True),
    (tr_noop(_CTX, "Light activity"), Activity.LIGHT, False),
    (tr_noop(_CTX, "Light + care"), Activity.LIGHT, True),
    (tr_noop(_CTX, "Moderate + care"), Activity.MODERATE, True),
)


class PlanEditor(QGroupBox):
    """One plan: its name, its segments, presets and whether therapy follows. ``title`` is
    shown (translated); ``key`` names the editor's object (``planEditorA``), by default
    the title's last word."""

    plan_changed = Signal()

    def __init__(self, title: str, plan: HealingPlan, color_name: str,
                 parent: QWidget | None = None, *, key: str = "") -> None:
        super().__init__(title, parent)
        self.setObjectName(f"planEditor{key or title.split()[-1]}")
        self.model = PlanSegmentModel(plan, self)
        self.name_edit = QLineEdit(plan.name, self)
        self.name_edit.setObjectName("planName")
        self.name_edit.setAccessibleName(tr(_CTX, "{0} name").format(title))
        self.name_edit.setMaxLength(60)
        self.name_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("M") * 6)
        swatch = QLabel("■", self)
        swatch.setStyleSheet(f"color: {color_name}; font-size: 16px;")
        swatch.setToolTip(tr(_CTX, "The colour of this plan's line in the chart"))
        self.preset_combo = QComboBox(self)
        self.preset_combo.setObjectName("planPreset")
        self.preset_combo.addItem(tr(_CTX, "Preset…"), None)
        for label, activity, care in _PRESETS:
            self.preset_combo.addItem(tr(_CTX, label), (activity, care))
        self.table = table_view(self.model, self, "planSegments")
        self.table.setItemDelegate(SheetItemDelegate(self.table))
        self.table.verticalHeader().setVisible(True)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(PlanSegmentModel.ACTIVITY, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PlanSegmentModel.CARE,
                                    QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PlanSegmentModel.DAYS,
                                    QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = QPushButton(tr(_CTX, "Add"), self)
        self.add_button.setToolTip(tr(_CTX, "Add a segment (a copy of the last one)"))
        self.add_button.setObjectName("addSegment")
        self.remove_button = QPushButton(tr(_CTX, "Remove"), self)
        self.remove_button.setToolTip(tr(_CTX, "Remove the selected segment"))
        self.remove_button.setObjectName("removeSegment")
        self.therapy_check = QCheckBox(tr(_CTX, "Then characteristic therapy"), self)
        self.therapy_check.setObjectName("planTherapy")
        self.therapy_check.setChecked(plan.therapy)
        self.therapy_check.setToolTip(tr(
            _CTX, "Once fully healed: 1 point of characteristic damage per 3 days, one "
                  "characteristic at a time (STR, DEX, END, INT, EDU, SOC in that order)"))
        self.total_label = QLabel(self)
        self.total_label.setObjectName("planTotal")
        self.total_label.setToolTip(tr(
            _CTX, "Past its last day a plan continues its last segment, so the projection can "
                  "say when the character is fully healed."))

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
        self.total_label.setText(tr(_CTX, "{0} days").format(plan.total_days))
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
