"""The Healing view's Infirmary tab: medics, supervision and facilities, and every
patient's care load against the capacity, with a warning and the fixes when over it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.healing.infirmary import Infirmary, Medic, infirmary_report
from mneme_desktop.ui.healing_commands import set_infirmary
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.healing_models import InfirmaryLoadModel, InfirmaryStaffModel
from mneme_desktop.ui.views.healing_page import NOTE_STYLE, WARNING_STYLE, HealingPage, table_view
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.fill_column import FillColumn
from mneme_desktop.ui.widgets.plain_text import set_rich_text

__all__ = ["InfirmaryTab"]

_CTX = "HealingInfirmary"


class InfirmaryTab(HealingPage):
    """The Infirmary tab of the Healing view: the staff, the facilities and the load."""

    if TYPE_CHECKING:
        def _update_event_form(self, *_: object) -> None: ...

    def _build_infirmary(self) -> QWidget:
        page = QWidget(self)
        self.staff_model = InfirmaryStaffModel(self.infirmary, self)
        self.staff_table = table_view(self.staff_model, page, "infirmaryStaff")
        self.staff_table.setItemDelegate(SheetItemDelegate(self.staff_table))
        self.staff_table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.Stretch)
        self.add_medic_button = QPushButton(tr(_CTX, "Add medic"), page)
        self.add_medic_button.setObjectName("addMedic")
        self.add_medic_level_spin = QSpinBox(page)
        self.add_medic_level_spin.setObjectName("addMedicLevel")
        self.add_medic_level_spin.setRange(0, 15)
        self.add_medic_level_spin.setPrefix(tr(_CTX, "Medic "))
        self.add_from_combo = QComboBox(page)
        self.add_from_combo.setObjectName("addMedicFrom")
        self.add_from_button = QPushButton(tr(_CTX, "Add as medic"), page)
        self.add_from_button.setObjectName("addMedicCharacter")
        self.remove_medic_button = QPushButton(tr(_CTX, "Remove medic"), page)
        self.remove_medic_button.setObjectName("removeMedic")
        self.supervisor_spin = QSpinBox(page)
        self.supervisor_spin.setObjectName("supervisorLevel")
        self.supervisor_spin.setRange(-1, 15)
        self.supervisor_spin.setSpecialValueText(tr(_CTX, "no supervisor"))
        self.supervisor_spin.setPrefix(tr(_CTX, "Medic "))
        self.supervisor_spin.setValue(-1)
        self.supervisor_name_edit = QLineEdit(page)
        self.supervisor_name_edit.setObjectName("supervisorName")
        self.supervisor_name_edit.setPlaceholderText(tr(_CTX, "Supervisor's name"))
        self.sickbay_check = QCheckBox(tr(_CTX, "Hospital or sickbay at hand (surgery needs one)"),
                                       page)
        self.sickbay_check.setObjectName("infirmarySickbay")
        self.ai_check = QCheckBox(tr(_CTX, "AI sickbay supervises intensive care"), page)
        self.ai_check.setObjectName("infirmaryAi")
        self.load_model = InfirmaryLoadModel(self)
        self.load_table = table_view(self.load_model, page, "infirmaryLoad")
        self.load_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        # The names fill the spare width, never narrower than "Patient" (a Stretch section
        # was squeezed to "Pa" on a laptop screen: the table scrolls sideways instead).
        self._load_names = FillColumn(self.load_table, InfirmaryLoadModel.NAME)
        self.capacity_label = QLabel(page)
        self.capacity_label.setObjectName("infirmaryCapacity")
        self.capacity_label.setWordWrap(True)
        self.warning_label = QLabel(page)
        self.warning_label.setObjectName("infirmaryWarning")
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet(WARNING_STYLE)
        self.warning_label.hide()
        self.monitoring_label = QLabel(page)
        self.monitoring_label.setObjectName("infirmaryMonitoring")
        self.monitoring_label.setWordWrap(True)
        self.monitoring_label.setStyleSheet(NOTE_STYLE)

        staff_box = QGroupBox(tr(_CTX, "Medics"), page)
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
        supervisor_row.addWidget(QLabel(tr(_CTX, "Supervisor"), page))
        supervisor_row.addWidget(self.supervisor_spin)
        supervisor_row.addWidget(self.supervisor_name_edit, 1)
        staff_layout.addLayout(supervisor_row)
        staff_layout.addWidget(self.sickbay_check)
        staff_layout.addWidget(self.ai_check)

        load_box = QGroupBox(tr(_CTX, "Patients under care"), page)
        load_layout = QVBoxLayout(load_box)
        load_layout.addWidget(self.load_table, 1)
        load_layout.addWidget(self.capacity_label)
        load_layout.addWidget(self.warning_label)
        load_layout.addWidget(self.monitoring_label)

        layout = QHBoxLayout(page)
        layout.addWidget(staff_box, 1)
        layout.addWidget(load_box, 1)

        self.staff_model.infirmary_edited.connect(
            lambda infirmary: self._store_infirmary(infirmary, tr(_CTX, "Edit medic")))
        self.staff_model.edit_rejected.connect(self._error)
        self.add_medic_button.clicked.connect(self._add_medic)
        self.add_from_button.clicked.connect(self._add_medic_character)
        self.remove_medic_button.clicked.connect(self._remove_medic)
        self.supervisor_spin.valueChanged.connect(self._supervisor_edited)
        self.supervisor_name_edit.editingFinished.connect(self._supervisor_edited)
        self.sickbay_check.toggled.connect(self._facilities_edited)
        self.ai_check.toggled.connect(self._facilities_edited)
        return page

    def _store_infirmary(self, infirmary: Infirmary, text: str) -> None:
        set_infirmary(self.document, infirmary, text)
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
        parts = [tr(_CTX, "staff {0}").format(capacity.staff)]
        if capacity.supervision_bonus:
            parts.append(tr(_CTX, "doubled by the supervisor +{0}").format(
                capacity.supervision_bonus))
        if capacity.supervisor:
            parts.append(tr(_CTX, "supervisor {0}").format(capacity.supervisor))
        self.capacity_label.setText(
            tr(_CTX, "{0}.\nCapacity = {1} (8 x 2^Medic level each).").format(
                report.summary, " + ".join(parts)))
        if report.over_capacity:
            set_rich_text(self.warning_label, "<b>{}</b>" + "<br>{}" * len(report.fixes),
                          report.warning, *report.fixes)
            self.warning_label.show()
        else:
            self.warning_label.clear()
            self.warning_label.hide()
        self.monitoring_label.setText(
            tr(_CTX, "Note: {0} The capacity above uses the care figure, "
                     "8 x 2^level light-care patients per medic.").format(report.monitoring_note))
        self._update_event_form()

    def _add_medic(self) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        level = self.add_medic_level_spin.value()
        number = len(infirmary.medics) + 1
        infirmary.medics.append(Medic(name=tr(_CTX, "Staff medic {0}").format(number),
                                       level=level))
        self._store_infirmary(infirmary, tr(_CTX, "Add medic"))

    def _add_medic_character(self) -> None:
        character_id = self.add_from_combo.currentData()
        character = (None if character_id is None
                     else self.document.campaign.find_character(character_id))
        if character is None:
            return
        level = character.skill_level("Medic")
        if level is None:
            self._error(tr(_CTX, "{0} has no Medic skill").format(character.name))
            return
        infirmary = self.infirmary.model_copy(deep=True)
        if any(m.character_id == character.id for m in infirmary.medics):
            self._error(tr(_CTX, "{0} is already one of the medics").format(character.name))
            return
        infirmary.medics.append(Medic(name=character.name, level=level,
                                      character_id=character.id))
        self._store_infirmary(infirmary, tr(_CTX, "Add {0} as medic").format(character.name))

    def _remove_medic(self) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        if not infirmary.medics:
            return
        row = self.staff_table.currentIndex().row()
        row = row if 0 <= row < len(infirmary.medics) else len(infirmary.medics) - 1
        removed = infirmary.medics.pop(row)
        self._store_infirmary(infirmary, tr(_CTX, "Remove {0}").format(removed.name))

    def _supervisor_edited(self, *_: object) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        level = self.supervisor_spin.value()
        if level < 0:
            new = None
        else:
            name = self.supervisor_name_edit.text().strip() or tr(_CTX, "Supervisor")
            old = infirmary.supervisor
            new = Medic(name=name, level=level) if old is None else old.model_copy(
                update={"name": name, "level": level})
        if new == infirmary.supervisor:
            return
        infirmary.supervisor = new
        self._store_infirmary(infirmary, tr(_CTX, "Change the supervisor"))

    def _facilities_edited(self, *_: object) -> None:
        infirmary = self.infirmary.model_copy(deep=True)
        infirmary.sickbay = self.sickbay_check.isChecked()
        infirmary.ai_supervision = self.ai_check.isChecked()
        self._store_infirmary(infirmary, tr(_CTX, "Change the infirmary's facilities"))
