"""The Healing view's Medical care tab: first aid, surgery and intensive care.

Each event is rolled here (with the view's ``random.Random``) or entered from the table,
and logged on the sheet and in the journal as one undo step.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Character, ConditionKind
from mneme_desktop.domain.healing.medical import (
    MedicalRoll,
    intensive_care_rolls,
)
from mneme_desktop.domain.medic_check import MedicModifier, medic_modifier
from mneme_desktop.rules.actions import FIRST_AID_ROUNDS
from mneme_desktop.rules.checks import UNSKILLED, success_chance
from mneme_desktop.rules.dice import DiceSource, parse_dice_source
from mneme_desktop.rules.healing import (
    INTENSIVE_CARE_DIFFICULTY,
    INTENSIVE_CARE_HEALING,
    SUPERVISOR_MIN_MEDIC,
    SURGERY_DIFFICULTY,
    SURGERY_MINUTES,
    first_aid_difficulty,
)
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, WoundState
from mneme_desktop.ui.healing_commands import (
    record_first_aid,
    record_intensive_care,
    record_surgery,
)
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.views.healing_page import ERROR_STYLE, NOTE_STYLE, HealingPage
from mneme_desktop.ui.widgets.plain_text import set_rich_text

__all__ = ["MedicalEvent", "MedicalTab"]

_CTX = "HealingMedical"


_EVENT_RULES = {
    "first_aid": tr_noop(
        _CTX, "First aid heals the Effect (at least 1), stops bleeding and stabilises a dying "
              "character for END hours. {0} rounds (3 minutes); Difficulty 10 on "
              "oneself. A failure does nothing."),
    "surgery": tr_noop(
        _CTX, "Surgery heals 2 x Effect. On a failure the fail effect less the Medic skill "
              "multiplies the {1} minutes; a remainder above half the patient's END "
              "harms them by double the remainder. Needs a hospital or sickbay."),
    "intensive_care": tr_noop(
        _CTX, "For dying patients. Unsupervised: Difficulty {2}; success heals {3}, failure "
              "calls for a dying roll (END vs {4}). A Medic {5}+ supervisor or an AI sickbay "
              "needs no roll."),
}
"""Each rule's numbers are filled in where shown, all from the same list:
``FIRST_AID_ROUNDS, SURGERY_MINUTES, INTENSIVE_CARE_DIFFICULTY, INTENSIVE_CARE_HEALING,
DYING_DIFFICULTY, SUPERVISOR_MIN_MEDIC``."""


def _event_rule(kind: str) -> str:
    return tr(_CTX, _EVENT_RULES[kind]).format(
        FIRST_AID_ROUNDS, SURGERY_MINUTES, INTENSIVE_CARE_DIFFICULTY, INTENSIVE_CARE_HEALING,
        DYING_DIFFICULTY, SUPERVISOR_MIN_MEDIC)


_EVENT_TITLES = {"first_aid": tr_noop(_CTX, "First aid"), "surgery": tr_noop(_CTX, "Surgery"),
                 "intensive_care": tr_noop(_CTX, "Intensive care")}


class MedicalEvent(StrEnum):
    """The kinds of medical event the Medical care tab records."""

    FIRST_AID = "first_aid"
    SURGERY = "surgery"
    INTENSIVE_CARE = "intensive_care"


class MedicalTab(HealingPage):
    """The Medical care tab of the Healing view: one event, its check, and its result."""

    add_from_combo: QComboBox
    add_from_button: QPushButton

    def _build_medical(self) -> QWidget:
        page = QWidget(self)
        self.event_patient_combo = QComboBox(page)
        self.event_patient_combo.setObjectName("eventPatient")
        self.event_patient_combo.setMinimumContentsLength(20)
        self.event_state_label = QLabel(page)
        self.event_state_label.setObjectName("eventPatientState")
        # The tab's width must not follow the patient picked or the event chosen: a wider
        # state line, or the dying roll's box showing, widened the tab and the splitter
        # beside it jumped. The state wraps; the dying box keeps its room while hidden.
        self.event_state_label.setWordWrap(True)
        self.first_aid_radio = QRadioButton(
            tr(_CTX, "First aid (Difficulty {0}, {1} rounds)").format(first_aid_difficulty(),
                                                                      FIRST_AID_ROUNDS), page)
        self.surgery_radio = QRadioButton(
            tr(_CTX, "Surgery (Difficulty {0}, {1} minutes)").format(SURGERY_DIFFICULTY,
                                                                     SURGERY_MINUTES), page)
        self.intensive_radio = QRadioButton(
            tr(_CTX, "Intensive care (Difficulty {0} unsupervised)").format(
                INTENSIVE_CARE_DIFFICULTY), page)
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
        self.medic_skill_spin.setAccessibleName(tr(_CTX, "Medic skill level"))
        self.medic_skill_spin.setRange(-1, 15)
        self.medic_skill_spin.setSpecialValueText(
            tr(_CTX, "unskilled ({0})").format(f"{UNSKILLED:+d}"))
        self.medic_skill_spin.setValue(-1)
        self.dm_spin = QSpinBox(page)
        self.dm_spin.setObjectName("eventDm")
        self.dm_spin.setAccessibleName(tr(_CTX, "Other DMs"))
        self.dm_spin.setRange(-12, 12)
        self.dm_spin.setPrefix(tr(_CTX, "DM "))
        self.dm_spin.setToolTip(tr(_CTX, "Other DMs: tools, assistance … (a listed medic's EDU "
                                         "DM and wound penalty are counted already, as in the "
                                         "encounter)"))
        self.on_self_check = QCheckBox(tr(_CTX, "On oneself (Difficulty 10)"), page)
        self.on_self_check.setObjectName("eventOnSelf")
        self.advance_clock_check = QCheckBox(
            tr(_CTX, "Advance the clock by the time it takes"), page)
        self.advance_clock_check.setObjectName("eventAdvanceClock")
        self.advance_clock_check.setChecked(True)
        self.advance_clock_check.setToolTip(
            tr(_CTX, "The patient goes on bleeding while the task takes its time."))
        self.check_label = QLabel(page)
        self.check_label.setObjectName("eventCheck")
        self.event_rule_label = QLabel(page)
        self.event_rule_label.setObjectName("eventRule")
        self.event_rule_label.setWordWrap(True)
        self.event_rule_label.setStyleSheet(NOTE_STYLE)
        self.requirement_label = QLabel(page)
        self.requirement_label.setObjectName("eventRequirement")
        self.requirement_label.setWordWrap(True)
        self.requirement_label.setStyleSheet(ERROR_STYLE)
        self.roll_button = QPushButton(tr(_CTX, "Roll and apply"), page)
        self.roll_button.setObjectName("eventRoll")
        # The table's dice as typed (two values, "3 4"), read once into a DiceSource like
        # every other roll of the app; empty means not rolled yet, never a default value.
        self.entered_edit = QLineEdit(page)
        self.entered_edit.setObjectName("eventEntered")
        self.entered_edit.setAccessibleName(tr(_CTX, "2d6 rolled at the table"))
        self.entered_edit.setPlaceholderText(tr(_CTX, "2d6: 3 4"))
        self.dying_edit = QLineEdit(page)
        self.dying_edit.setObjectName("eventDyingEntered")
        self.dying_edit.setAccessibleName(tr(_CTX, "Dying roll, 2d6 rolled at the table"))
        self.dying_edit.setPlaceholderText(tr(_CTX, "dying: 2 5"))
        self.dying_edit.setToolTip(tr(_CTX, "Needed only if the intensive-care roll fails"))
        keep_room = self.dying_edit.sizePolicy()
        keep_room.setRetainSizeWhenHidden(True)
        self.dying_edit.setSizePolicy(keep_room)
        self.apply_entered_button = QPushButton(tr(_CTX, "Apply entered roll"), page)
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
        form.addRow(tr(_CTX, "Patient"), patient_row)
        events = QVBoxLayout()
        events.addWidget(self.first_aid_radio)
        events.addWidget(self.surgery_radio)
        events.addWidget(self.intensive_radio)
        form.addRow(tr(_CTX, "Event"), events)
        form.addRow("", self.event_rule_label)
        medic_row = QHBoxLayout()
        medic_row.addWidget(self.medic_combo)
        medic_row.addWidget(QLabel(tr(_CTX, "Medic skill"), page))
        medic_row.addWidget(self.medic_skill_spin)
        medic_row.addWidget(self.dm_spin)
        medic_row.addStretch(1)
        form.addRow(tr(_CTX, "Medic"), medic_row)
        options = QHBoxLayout()
        options.addWidget(self.on_self_check)
        options.addWidget(self.advance_clock_check)
        options.addStretch(1)
        form.addRow("", options)
        form.addRow(tr(_CTX, "Check"), self.check_label)
        rolls = QGridLayout()
        # The app's roll on one row, the table's dice on the next: the typed dice get the
        # room to show their hint whole without widening the pane.
        rolls.addWidget(self.roll_button, 0, 0)
        rolls.addWidget(QLabel(tr(_CTX, "or rolled at the table:"), page), 1, 0)
        rolls.addWidget(self.entered_edit, 1, 1)
        rolls.addWidget(self.dying_edit, 1, 2)
        rolls.addWidget(self.apply_entered_button, 1, 3)
        rolls.setColumnStretch(4, 1)
        for edit in (self.entered_edit, self.dying_edit):
            edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance(
                edit.placeholderText()) + 4 * edit.fontMetrics().averageCharWidth())
        form.addRow("", rolls)
        form.addRow("", self.requirement_label)
        result_box = QGroupBox(tr(_CTX, "Last event"), page)
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

    def _refresh_medical(self) -> None:
        campaign = self.document.campaign
        current = self.event_patient_combo.currentData()
        current_medic = self.medic_combo.currentData()
        self.event_patient_combo.blockSignals(True)
        self.medic_combo.blockSignals(True)
        self.add_from_combo.blockSignals(True)
        self.event_patient_combo.clear()
        self.medic_combo.clear()
        self.medic_combo.addItem(tr(_CTX, "— not listed —"), None)
        self.add_from_combo.clear()
        for character in campaign.characters:
            if character.has_condition(ConditionKind.DEAD):
                continue
            self.event_patient_combo.addItem(character.name, character.id)
            level = character.skill_level("Medic")
            shown = tr(_CTX, "no Medic") if level is None \
                else tr(_CTX, "Medic {0}").format(level)
            self.medic_combo.addItem(tr(_CTX, "{0} ({1})").format(character.name, shown),
                                     character.id)
            if level is not None:
                self.add_from_combo.addItem(
                    tr(_CTX, "{0} (Medic {1})").format(character.name, level), character.id)
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
            return tr(_CTX, "No living character to treat.")
        kind = self.event_kind()
        basis = self.document.threshold_basis
        if kind == MedicalEvent.SURGERY and not self.infirmary.sickbay:
            return tr(_CTX, "Surgery requires a hospital or sickbay: tick it on the Infirmary "
                            "tab if one is at hand.")
        if kind == MedicalEvent.INTENSIVE_CARE and patient.wound_state(basis) is not (
            WoundState.DYING
        ):
            return tr(_CTX, "{0} is not dying: intensive care is for dying patients.").format(
                patient.name)
        if kind != MedicalEvent.INTENSIVE_CARE and patient.damage == 0 and not (
            patient.has_condition(ConditionKind.BLEEDING)
        ):
            return tr(_CTX, "{0} is unhurt.").format(patient.name)
        return ""

    def _update_event_form(self, *_: object) -> None:
        patient = self._event_patient()
        kind = self.event_kind()
        basis = self.document.threshold_basis
        if patient is not None:
            conditions = ", ".join(c.label for c in patient.conditions)
            state = tr(_CTX, "damage {0}/{1}, {2}").format(
                patient.damage, patient.hit_points, patient.wound_state(basis).label)
            self.event_state_label.setText(
                tr(_CTX, "{0}; {1}").format(state, conditions) if conditions else state)
        else:
            self.event_state_label.setText("")
        self.on_self_check.setEnabled(kind == MedicalEvent.FIRST_AID)
        self.medic_combo.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        self.medic_skill_spin.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        self.advance_clock_check.setEnabled(kind != MedicalEvent.INTENSIVE_CARE)
        supervised = kind == MedicalEvent.INTENSIVE_CARE and self._supervised()
        self.dying_edit.setVisible(kind == MedicalEvent.INTENSIVE_CARE and not supervised)
        self.entered_edit.setEnabled(not supervised)
        difficulty, modifier = self._event_difficulty(), self._event_modifier()
        if supervised:
            self.check_label.setText(
                tr(_CTX, "Supervised (Medic {0}+ or AI sickbay): no roll, heals {1}.").format(
                    SUPERVISOR_MIN_MEDIC, INTENSIVE_CARE_HEALING))
            self.roll_button.setText(tr(_CTX, "Apply supervised care"))
        else:
            chance = success_chance(modifier, difficulty)
            terms = None if kind == MedicalEvent.INTENSIVE_CARE else self._medic_terms()
            numbers = (f"{modifier:+d}", difficulty, f"{float(chance) * 100:.0f}")
            if terms is None:
                check = tr(_CTX, "2d6 {0} vs Difficulty {1}: {2}% to succeed").format(*numbers)
            else:
                check = tr(_CTX, "2d6 {0} vs Difficulty {1}: {2}% to succeed ({3}, other {4})"
                           ).format(*numbers, terms.terms, f"{self.dm_spin.value():+d}")
            self.check_label.setText(check)
            self.roll_button.setText(tr(_CTX, "Roll and apply"))
        self.event_rule_label.setText(_event_rule(kind))
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
            roll, dying = intensive_care_rolls(patient, DiceSource.app(self.rng),
                                               self._event_modifier(), supervisor)
            self._record(patient, roll, dying)
            return
        self._record(patient, MedicalRoll.from_source(
            DiceSource.app(self.rng), self._event_modifier(), self._event_difficulty()), None)

    def _apply_entered_event(self) -> None:
        patient = self._event_patient()
        if patient is None:
            return
        try:
            source = parse_dice_source(self.entered_edit.text(), None)
            if self.event_kind() != MedicalEvent.INTENSIVE_CARE:
                self._record(patient, MedicalRoll.from_source(
                    source, self._event_modifier(), self._event_difficulty()), None)
                return
            dying_text = self.dying_edit.text()
            dying_source = parse_dice_source(dying_text, None) if dying_text.strip() else None
        except ValueError as exc:
            self._error(str(exc))
            return
        infirmary = self.infirmary
        supervisor = None if infirmary.supervisor is None else infirmary.supervisor.level
        roll, dying = intensive_care_rolls(patient, source, self._event_modifier(), supervisor,
                                           dying_source)
        if roll is not None and not roll.success and dying is None:
            # Nothing is recorded half: the failed roll calls for the dying roll too.
            self._error(tr(_CTX, "The intensive-care roll failed ({0}): type the dying roll's "
                                 "two dice too, then apply again").format(roll.text))
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
            self._error(tr(_CTX, "Not recorded: {0}").format(exc))
            return
        lines: list[str] = []
        for change in changes.sheets:
            if change.character_id == patient.id:
                lines = list(change.lines) + lines
            else:
                lines.append(change.description)
        lines += [notice.text for notice in changes.notices]
        set_rich_text(self.result_label, "<b>{}</b>" + "<br>{}" * len(lines), patient.name,
                      *lines)
        self._report(tr(_CTX, _EVENT_TITLES[kind]), changes)
