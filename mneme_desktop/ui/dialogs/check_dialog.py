"""A check for anything: the quick check panel, reachable from every page (Ctrl+K).

Any character, any skill (unskilled -3) or characteristic, a Difficulty by name or number,
advantage and disadvantage, the wound penalty: the DM term by term and the exact chance are
shown before the roll and follow every change. The app rolls, or the referee types the
table's dice; the result, the Effect and the time taken go to the shown encounter's log or
the campaign journal, one undo step each. A bare dice expression ("3d6-2", "D 2d6") is
rolled the same way for anything else. Against an opponent (Ch.6 Deliberate Stealth and
Scan/Search) the Difficulty is worked out, 8 + their Recon or Stealth + ChM + wounds, term by
term; typing a Difficulty clears the opponent. What the panel works out is asked of
:mod:`mneme_desktop.domain.quick_check`; this module only shows and asks.
"""

from __future__ import annotations

import random

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.character import Characteristic
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.quick_check import (
    MAX_ADVANTAGE,
    MAX_DURATION,
    MAX_OTHER_DM,
    OPPOSING_SKILLS,
    CandidateKind,
    CheckOdds,
    CheckOutcome,
    CheckRequest,
    Duration,
    ExpressionOutcome,
    TimeUnit,
    chance_text,
    check_candidates,
    check_odds,
    next_roll_waiting,
    opposing_characteristic,
    resolve_check,
    roll_expression,
    side_tactics,
)
from mneme_desktop.rules.checks import DEFAULT_DIFFICULTY, opposing_skill
from mneme_desktop.rules.dice import parse_dice_source
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.widgets.difficulty_picker import DifficultyPicker
from mneme_desktop.ui.widgets.status_line import StatusLine
from mneme_desktop.ui.widgets.superiority_picker import SuperiorityPicker
from mneme_desktop.ui.widgets.tactics_box import offer_tactics_roll

_CTX = "CheckDialog"

__all__ = ["CheckDialog"]

MIN_DIFFICULTY = 0
MAX_DIFFICULTY = 30

_UNIT_NAMES = {
    TimeUnit.ROUNDS: tr_noop(_CTX, "rounds"),
    TimeUnit.MINUTES: tr_noop(_CTX, "minutes"),
    TimeUnit.HOURS: tr_noop(_CTX, "hours"),
}
_KIND_FORMATS = {
    CandidateKind.CHARACTER: tr_noop(_CTX, "{0}"),
    CandidateKind.COMBATANT: tr_noop(_CTX, "{0} (in this encounter)"),
    CandidateKind.TEMPLATE: tr_noop(_CTX, "{0} (template)"),
}
_OPPOSING_SKILL_NAMES = {
    "Recon": tr_noop(_CTX, "their Recon"),
    "Stealth": tr_noop(_CTX, "their Stealth"),
}
_CHECK_CHARACTERISTICS = (Characteristic.STR, Characteristic.DEX, Characteristic.END,
                          Characteristic.INT, Characteristic.EDU, Characteristic.SOC,
                          Characteristic.PSI)


class CheckDialog(QDialog):
    """The quick check panel. Stays open for the next check; each roll is recorded at once."""

    def __init__(self, document: CampaignDocument, *, rng: random.Random | None = None,
                 sheet_id: str | None = None, encounter_id: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("check_dialog")
        self.setWindowTitle(tr(_CTX, "Make a check"))
        self.setMinimumWidth(460)
        self._document = document
        self._rng = rng if rng is not None else random.Random()
        self._encounter_id: str | None = None
        self._odds: CheckOdds | None = None
        self._showing_opposed = False  # the spin box is following the opponent's Difficulty
        self.last_outcome: CheckOutcome | ExpressionOutcome | None = None

        layout = QVBoxLayout(self)
        check_box = QGroupBox(tr(_CTX, "Check"))
        form = QFormLayout(check_box)
        self.who_combo = QComboBox(objectName="check_who")
        self.who_combo.setToolTip(tr(_CTX, "Who makes the check"))
        form.addRow(tr(_CTX, "Who"), self.who_combo)
        self.skill_combo = QComboBox(objectName="check_skill")
        self.skill_combo.setEditable(True)
        self.skill_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        skill_edit = self.skill_combo.lineEdit()
        if skill_edit is not None:
            skill_edit.setPlaceholderText(tr(_CTX, "no skill: the characteristic alone"))
        self.skill_combo.setToolTip(tr(_CTX, "The character's skills; type another to roll it "
                                             "unskilled (-3)"))
        form.addRow(tr(_CTX, "Skill"), self.skill_combo)
        self.characteristic_combo = QComboBox(objectName="check_characteristic")
        self.characteristic_combo.setToolTip(tr(_CTX, "Whose characteristic modifier (ChM) "
                                                      "the roll adds"))
        form.addRow(tr(_CTX, "Characteristic"), self.characteristic_combo)

        self.difficulty_picker = DifficultyPicker(
            "check_difficulty", "check_difficulty_name", minimum=MIN_DIFFICULTY,
            maximum=MAX_DIFFICULTY, value=DEFAULT_DIFFICULTY)
        self.difficulty_combo = self.difficulty_picker.combo
        self.difficulty_spin = self.difficulty_picker.spin
        form.addRow(tr(_CTX, "Difficulty"), self.difficulty_picker)

        against_row = QHBoxLayout()
        self.opponent_combo = QComboBox(objectName="check_opponent")
        self.opponent_combo.setToolTip(tr(_CTX, "Check against someone (Ch.6 Deliberate "
                                                "Stealth, Scan/Search): the Difficulty becomes "
                                                "8 + their skill + ChM + wounds"))
        self.opposing_skill_combo = QComboBox(objectName="check_opposing_skill")
        for skill in OPPOSING_SKILLS:
            self.opposing_skill_combo.addItem(tr(_CTX, _OPPOSING_SKILL_NAMES[skill]), skill)
        self.opposing_skill_combo.setToolTip(tr(_CTX, "The opponent's opposing skill: Recon "
                                                      "against Stealth, Stealth against Recon"))
        self.opposing_characteristic_combo = QComboBox(
            objectName="check_opposing_characteristic")
        self.opposing_characteristic_combo.setToolTip(tr(
            _CTX, "Whose ChM the opponent adds (the chapter names none: INT with Recon, DEX "
                  "with Stealth unless changed)"))
        against_row.addWidget(self.opponent_combo, 2)
        against_row.addWidget(self.opposing_skill_combo, 1)
        against_row.addWidget(self.opposing_characteristic_combo)
        form.addRow(tr(_CTX, "Against"), against_row)
        self.difficulty_terms_label = QLabel(objectName="check_difficulty_terms")
        self.difficulty_terms_label.setWordWrap(True)
        form.addRow(tr(_CTX, "Difficulty from"), self.difficulty_terms_label)

        edge_row = QHBoxLayout()
        self.advantage_spin = QSpinBox(objectName="check_advantages", minimum=0,
                                       maximum=MAX_ADVANTAGE)
        self.advantage_spin.setPrefix(tr(_CTX, "advantage "))
        self.advantage_spin.setToolTip(tr(_CTX, "Each advantage rolls one more die and keeps "
                                                "the two highest"))
        self.disadvantage_spin = QSpinBox(objectName="check_disadvantages", minimum=0,
                                          maximum=MAX_ADVANTAGE)
        self.disadvantage_spin.setPrefix(tr(_CTX, "disadvantage "))
        self.disadvantage_spin.setToolTip(tr(_CTX, "Each disadvantage rolls one more die and "
                                                   "keeps the two lowest; they cancel "
                                                   "advantages one for one"))
        edge_row.addWidget(self.advantage_spin)
        edge_row.addWidget(self.disadvantage_spin)
        form.addRow(tr(_CTX, "Edge"), edge_row)
        self.other_dm_spin = QSpinBox(objectName="check_other_dm", minimum=-MAX_OTHER_DM,
                                      maximum=MAX_OTHER_DM)
        self.other_dm_spin.setToolTip(tr(_CTX, "Equipment, conditions, aid: any DM the "
                                               "referee adds"))
        form.addRow(tr(_CTX, "Other DM"), self.other_dm_spin)
        self.superiority_picker = SuperiorityPicker(
            "check_superiority", tr(_CTX, "Our side"), tr(_CTX, "Their side"))
        form.addRow(tr(_CTX, "Superiority"), self.superiority_picker)

        self.next_roll_check = QCheckBox(objectName="check_next_roll")
        self.next_roll_check.setChecked(True)
        self.next_roll_check.setToolTip(tr(_CTX, "What the fight left on this combatant's next "
                                                 "roll (a grapple's advantage, a supporter's "
                                                 "Effect as a DM): counted when ticked and "
                                                 "used up by this check, if it is recorded in "
                                                 "that fight"))
        form.addRow(self.next_roll_check)
        self.tactics_check = QCheckBox(objectName="check_tactics_roll")
        self.tactics_check.setToolTip(tr(_CTX, "Spend one of the roller's side's Tactics rolls "
                                               "(Ch.6: the capped Effect of the leader's "
                                               "Tactics check) on this check"))
        form.addRow(self.tactics_check)
        self.dm_label = QLabel(objectName="check_dm")
        self.dm_label.setWordWrap(True)
        form.addRow(tr(_CTX, "DM"), self.dm_label)
        self.chance_label = QLabel(objectName="check_chance")
        form.addRow(tr(_CTX, "Chance"), self.chance_label)
        self.dice_edit = QLineEdit(objectName="check_dice")
        form.addRow(tr(_CTX, "Dice"), self.dice_edit)
        self.roll_button = QPushButton(tr(_CTX, "Roll and record"), objectName="check_roll")
        self.roll_button.setToolTip(tr(_CTX, "Roll the check (or read the table's dice) and "
                                             "record it (Enter)"))
        form.addRow(self.roll_button)
        layout.addWidget(check_box)

        dice_box = QGroupBox(tr(_CTX, "Any dice"))
        dice_row = QHBoxLayout(dice_box)
        self.expression_edit = QLineEdit(objectName="check_expression")
        self.expression_edit.setPlaceholderText(tr(_CTX, "a dice expression: 3d6-2, D 2d6"))
        self.expression_button = QPushButton(tr(_CTX, "Roll dice"),
                                             objectName="check_roll_expression")
        self.expression_button.setToolTip(tr(_CTX, "Roll the expression in the app and record "
                                                   "it for the character chosen above"))
        dice_row.addWidget(self.expression_edit, 1)
        dice_row.addWidget(self.expression_button)
        layout.addWidget(dice_box)

        record_form = QFormLayout()
        time_row = QHBoxLayout()
        self.duration_spin = QSpinBox(objectName="check_duration", minimum=0,
                                      maximum=MAX_DURATION)
        self.duration_spin.setSpecialValueText(tr(_CTX, "not given"))
        self.duration_spin.setToolTip(tr(_CTX, "How long it took, written with the result (the "
                                               "clock is not moved)"))
        self.duration_unit_combo = QComboBox(objectName="check_duration_unit")
        for unit, name in _UNIT_NAMES.items():
            self.duration_unit_combo.addItem(tr(_CTX, name), unit)
        self.duration_unit_combo.setCurrentIndex(1)
        time_row.addWidget(self.duration_spin)
        time_row.addWidget(self.duration_unit_combo, 1)
        record_form.addRow(tr(_CTX, "Time taken"), time_row)
        self.destination_combo = QComboBox(objectName="check_destination")
        self.destination_combo.setToolTip(tr(_CTX, "Where the result is written"))
        record_form.addRow(tr(_CTX, "Record in"), self.destination_combo)
        layout.addLayout(record_form)

        self.status = StatusLine("check_status")
        layout.addWidget(self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        for button in (self.roll_button, self.expression_button,
                       *buttons.findChildren(QPushButton)):
            button.setAutoDefault(False)  # Enter is the panel's, see keyPressEvent
            button.setDefault(False)

        self.who_combo.currentIndexChanged.connect(self._who_changed)
        self.skill_combo.currentTextChanged.connect(self._skill_changed)
        self.opponent_combo.currentIndexChanged.connect(self._opponent_changed)
        self.opposing_skill_combo.currentIndexChanged.connect(self._opposing_skill_changed)
        self.opposing_characteristic_combo.currentIndexChanged.connect(self._update_odds)
        self.characteristic_combo.currentIndexChanged.connect(self._update_odds)
        self.difficulty_picker.named.connect(self._difficulty_named)
        self.superiority_picker.changed.connect(self._update_odds)
        self.difficulty_spin.valueChanged.connect(self._difficulty_numbered)
        difficulty_edit = self.difficulty_spin.lineEdit()
        if difficulty_edit is not None:
            difficulty_edit.textEdited.connect(self._difficulty_typed)
        self.advantage_spin.valueChanged.connect(self._update_odds)
        self.disadvantage_spin.valueChanged.connect(self._update_odds)
        self.other_dm_spin.valueChanged.connect(self._update_odds)
        self.next_roll_check.toggled.connect(self._update_odds)
        self.tactics_check.toggled.connect(self._update_odds)
        # The next roll counts only in the fight the result is recorded in.
        self.destination_combo.currentIndexChanged.connect(self._update_odds)
        self.roll_button.clicked.connect(self.roll_check)
        self.expression_button.clicked.connect(self.roll_expression)
        self.expression_edit.installEventFilter(self)
        self.dice_edit.textEdited.connect(lambda _text: self.status.clear_message())
        self.expression_edit.textEdited.connect(lambda _text: self.status.clear_message())
        document.changed.connect(self._document_changed)
        self.status.follow_undo(document.undo_stack)

        self._difficulty_numbered(self.difficulty_spin.value())
        self.preselect(sheet_id, encounter_id)

    # --- what the window asks ---------------------------------------------------------

    def preselect(self, sheet_id: str | None, encounter_id: str | None) -> None:
        """Show the panel for ``sheet_id`` (the sheet or combatant the window shows), writing
        to ``encounter_id``'s log (None: the campaign journal)."""
        campaign = self._document.campaign
        if encounter_id is not None and campaign.find_encounter(encounter_id) is None:
            encounter_id = None
        self._encounter_id = encounter_id
        self._fill_destinations()
        self._fill_candidates(sheet_id)

    @property
    def document(self) -> CampaignDocument:
        return self._document

    def set_rng(self, rng: random.Random) -> None:
        """The app's dice from now on (seed it for repeatable rolls)."""
        self._rng = rng

    def encounter_id(self) -> str | None:
        """The encounter whose log the next result goes to (None: the journal)."""
        value = self.destination_combo.currentData()
        return value if isinstance(value, str) else None

    def sheet_id(self) -> str | None:
        value = self.who_combo.currentData()
        return value if isinstance(value, str) else None

    def odds(self) -> CheckOdds | None:
        return self._odds

    def opponent_id(self) -> str | None:
        """The sheet the check is made against (None: the Difficulty is set by hand)."""
        value = self.opponent_combo.currentData()
        return value if isinstance(value, str) else None

    def request(self) -> CheckRequest | None:
        sheet_id = self.sheet_id()
        if sheet_id is None:
            return None
        code = self.characteristic_combo.currentData()
        characteristic = Characteristic.parse(code) if isinstance(code, str) and code else None
        return CheckRequest(
            sheet_id=sheet_id,
            skill=self.skill_combo.currentText(),
            characteristic=characteristic,
            difficulty=self.difficulty_spin.value(),
            advantages=self.advantage_spin.value(),
            disadvantages=self.disadvantage_spin.value(),
            other_dm=self.other_dm_spin.value(),
            superiority=self.superiority_picker.balance(),
            opponent_id=self.opponent_id(),
            opposing_skill=self._opposing_skill(),
            opposing_characteristic=self._opposing_characteristic(),
            fight_id=self.encounter_id(),
            use_next_roll=self.next_roll_check.isChecked(),
            tactics_roll=self.tactics_check.isChecked(),
        )

    def _opposing_skill(self) -> str | None:
        value = self.opposing_skill_combo.currentData()
        return value if isinstance(value, str) else None

    def _opposing_characteristic(self) -> Characteristic | None:
        code = self.opposing_characteristic_combo.currentData()
        return Characteristic.parse(code) if isinstance(code, str) and code else None

    def duration(self) -> Duration | None:
        amount = self.duration_spin.value()
        unit = self.duration_unit_combo.currentData()
        if amount <= 0 or not isinstance(unit, TimeUnit):
            return None
        return Duration(amount, unit)

    # --- filling ------------------------------------------------------------------------

    def _fill_destinations(self) -> None:
        combo = self.destination_combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(tr(_CTX, "Campaign journal"), None)
        encounter = self._document.encounter(self._encounter_id)
        if encounter is not None:
            combo.addItem(tr(_CTX, "Log of {0}").format(encounter.name), encounter.id)
            combo.setCurrentIndex(1)
        combo.blockSignals(False)

    def _fill_candidates(self, keep: str | None) -> None:
        campaign = self._document.campaign
        combo = self.who_combo
        combo.blockSignals(True)
        combo.clear()
        for candidate in check_candidates(campaign, self._encounter_id):
            combo.addItem(tr(_CTX, _KIND_FORMATS[candidate.kind]).format(candidate.name),
                          candidate.sheet_id)
        combo.setCurrentIndex(max(0, combo.findData(keep)) if combo.count() else -1)
        combo.blockSignals(False)
        opponents = self.opponent_combo
        against = self.opponent_id()
        opponents.blockSignals(True)
        opponents.clear()
        opponents.addItem(tr(_CTX, "nobody: set the Difficulty"), None)
        for candidate in check_candidates(campaign, self._encounter_id):
            opponents.addItem(tr(_CTX, _KIND_FORMATS[candidate.kind]).format(candidate.name),
                              candidate.sheet_id)
        opponents.setCurrentIndex(max(0, opponents.findData(against)))
        opponents.blockSignals(False)
        self._fill_opposing_characteristics()
        self._who_changed()

    def _who_changed(self) -> None:
        """The chosen character's skills and characteristics; the typed skill is kept."""
        sheet_id = self.sheet_id()
        character = self._document.campaign.find_sheet(sheet_id) if sheet_id else None
        skill_text = self.skill_combo.currentText()
        chosen = self.characteristic_combo.currentData()
        self.skill_combo.blockSignals(True)
        self.skill_combo.clear()
        self.skill_combo.addItem("")
        if character is not None:
            for skill in character.skills:
                self.skill_combo.addItem(skill.label)
        self.skill_combo.setCurrentIndex(-1)
        self.skill_combo.setEditText(skill_text)
        self.skill_combo.blockSignals(False)
        combo = self.characteristic_combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(tr(_CTX, "none"), None)
        for code in _CHECK_CHARACTERISTICS:
            if character is None or character.characteristic(code) is not None:
                combo.addItem(code.value.upper(), code.value)
        combo.setCurrentIndex(max(0, combo.findData(chosen)))
        combo.blockSignals(False)
        self._update_odds()

    # --- against an opponent ---------------------------------------------------------------

    def _fill_opposing_characteristics(self) -> None:
        """The opponent's characteristics; the chosen one is kept when they have it."""
        sheet_id = self.opponent_id()
        opponent = self._document.campaign.find_sheet(sheet_id) if sheet_id else None
        combo = self.opposing_characteristic_combo
        chosen = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for code in _CHECK_CHARACTERISTICS:
            if opponent is None or opponent.characteristic(code) is not None:
                combo.addItem(code.value.upper(), code.value)
        index = combo.findData(chosen)
        if index < 0:
            default = opposing_characteristic(self._opposing_skill() or "")
            index = combo.findData(default.value if default is not None else None)
        combo.setCurrentIndex(max(0, index))
        combo.blockSignals(False)
        enabled = opponent is not None
        self.opposing_skill_combo.setEnabled(enabled)
        combo.setEnabled(enabled)

    def _pick_opposing_skill(self) -> None:
        """Where the rule is clear (Stealth against Recon, Recon against Stealth) the
        opposing skill follows the checking skill; otherwise the chosen one stays."""
        wanted = opposing_skill(self.skill_combo.currentText())
        index = self.opposing_skill_combo.findData(wanted) if wanted else -1
        if index >= 0 and index != self.opposing_skill_combo.currentIndex():
            self.opposing_skill_combo.setCurrentIndex(index)  # re-picks the ChM and updates

    def _skill_changed(self) -> None:
        if self.opponent_id() is not None:
            self._pick_opposing_skill()
        self._update_odds()

    def _opponent_changed(self) -> None:
        self._fill_opposing_characteristics()
        if self.opponent_id() is not None:
            self._pick_opposing_skill()
        self._update_odds()

    def _opposing_skill_changed(self) -> None:
        """A new opposing skill takes its own ChM (INT with Recon, DEX with Stealth)."""
        default = opposing_characteristic(self._opposing_skill() or "")
        if default is not None:
            index = self.opposing_characteristic_combo.findData(default.value)
            if index >= 0:
                self.opposing_characteristic_combo.blockSignals(True)
                self.opposing_characteristic_combo.setCurrentIndex(index)
                self.opposing_characteristic_combo.blockSignals(False)
        self._update_odds()

    def _clear_opponent(self) -> None:
        self.opponent_combo.blockSignals(True)
        self.opponent_combo.setCurrentIndex(0)
        self.opponent_combo.blockSignals(False)
        self._fill_opposing_characteristics()

    # --- difficulty by name or number -----------------------------------------------------

    def _difficulty_named(self, _value: int) -> None:
        """A rung chosen by name sets the Difficulty by hand, even the number shown."""
        if self.opponent_id() is not None:
            self._clear_opponent()
            self._update_odds()

    def _difficulty_numbered(self, _value: int) -> None:
        if self._showing_opposed:
            return
        if self.opponent_id() is not None:
            self._clear_opponent()  # a Difficulty typed by hand replaces the opponent's
        self._update_odds()

    def _difficulty_typed(self, _text: str) -> None:
        """Typing a Difficulty, even the number shown, sets it by hand."""
        if self.opponent_id() is not None:
            self._clear_opponent()
            self._update_odds()

    def _show_difficulty(self, odds: CheckOdds | None) -> None:
        """The opponent's Difficulty in the spin box and its terms, or "set by hand"."""
        if odds is None or not odds.difficulty_terms:
            self.difficulty_terms_label.setText(
                tr(_CTX, "set by hand") if self.opponent_id() is None else tr(_CTX, "—"))
            self.difficulty_terms_label.setToolTip("")
            return
        self._showing_opposed = True
        try:
            self.difficulty_spin.setValue(odds.difficulty)
        finally:
            self._showing_opposed = False
        base, *rest = odds.difficulty_terms
        self.difficulty_terms_label.setText(tr(_CTX, "{0} {1}, {2} = {3}").format(
            base.label, base.value, ", ".join(f"{t.label} {t.value:+d}" for t in rest),
            odds.difficulty))
        self.difficulty_terms_label.setToolTip("\n".join(tr(_CTX, "{0} {1:+d}: {2}").format(
            t.label, t.value, t.rule) for t in odds.difficulty_terms))

    # --- the odds before the roll ------------------------------------------------------------

    def _show_next_roll(self) -> None:
        """Offer what waits on the roller's next roll in the fight the check goes to, and
        one of their side's Tactics rolls (cleared when none is left)."""
        sheet_id, fight_id = self.sheet_id(), self.encounter_id()
        campaign = self._document.campaign
        waiting, combatant_id = next_roll_waiting(campaign, sheet_id, fight_id) if \
            sheet_id is not None else (None, None)
        if waiting:
            self.next_roll_check.setText(tr(_CTX, "Next roll: {0}").format(waiting.text))
        self.next_roll_check.setVisible(bool(waiting))
        fight = campaign.find_encounter(fight_id) if fight_id else None
        pool = side_tactics(fight, fight.combatant(combatant_id).side) if (
            fight is not None and combatant_id is not None) else None
        offer_tactics_roll(self.tactics_check, pool)

    def _update_odds(self) -> None:
        self._show_next_roll()
        request = self.request()
        self._odds = None
        try:
            odds = check_odds(self._document.campaign, request) if request else None
        except ValueError as error:
            self.dm_label.setText(tr(_CTX, "cannot roll: {0}").format(error))
            self.chance_label.setText(tr(_CTX, "—"))
            self.roll_button.setEnabled(False)
            self._show_difficulty(None)
            return
        self.roll_button.setEnabled(odds is not None)
        self._show_difficulty(odds)
        if odds is None:
            self.dm_label.setText(tr(_CTX, "nobody to roll: add a character first"))
            self.chance_label.setText(tr(_CTX, "—"))
            return
        self._odds = odds
        terms = ", ".join(f"{t.label} {t.value:+d}" for t in odds.terms)
        self.dm_label.setText(tr(_CTX, "{0:+d} ({1})").format(odds.modifier, terms) if terms
                              else tr(_CTX, "{0:+d} (no modifiers)").format(odds.modifier))
        self.dm_label.setToolTip("\n".join(tr(_CTX, "{0} {1:+d}: {2}").format(
            t.label, t.value, t.rule) for t in odds.terms))
        if odds.advantage:
            self.chance_label.setText(tr(_CTX, "{0} on {1}d6 keeping the {2} two").format(
                chance_text(odds.chance), odds.dice_count,
                tr(_CTX, "highest") if odds.advantage > 0 else tr(_CTX, "lowest")))
        else:
            self.chance_label.setText(tr(_CTX, "{0} on 2d6").format(chance_text(odds.chance)))
        self.dice_edit.setPlaceholderText(
            tr(_CTX, "empty: the app rolls; or type the table's {0} dice").format(
                odds.dice_count))
        self.dice_edit.setToolTip(
            tr(_CTX, "Leave it empty and the app rolls; or type the {0} dice rolled at the "
                     "table, e.g. {1}").format(odds.dice_count, " ".join("3456123456"[:min(
                         odds.dice_count, 10)])))

    def _document_changed(self, summary: ChangeSummary) -> None:
        """A sheet changed (wounds, a skill learnt) or the campaign's items did: the panel
        follows, keeping what the referee chose."""
        if summary.structure_changed or (self._encounter_id is not None
                                         and self._encounter_id in summary.encounter_ids):
            if self._document.encounter(self._encounter_id) is None:
                self._encounter_id = None
            destination = self.encounter_id()
            self._fill_destinations()
            self.destination_combo.setCurrentIndex(
                max(0, self.destination_combo.findData(destination)))
            self._fill_candidates(self.sheet_id())
            return
        if summary.character_ids or summary.rules_changed:
            self._who_changed()

    # --- rolling and recording ------------------------------------------------------------------

    def roll_check(self) -> CheckOutcome | None:
        """Roll (or read the table's dice), record one step, say what happened. Bad dice are
        refused in the status line and nothing is recorded."""
        request = self.request()
        odds = self._odds
        if request is None or odds is None:
            return None
        try:
            source = parse_dice_source(self.dice_edit.text(), self._rng, odds.dice_count)
            outcome = resolve_check(self._document.campaign, request, source,
                                    encounter_id=self.encounter_id(), duration=self.duration())
        except ValueError as error:
            self.status.show_message(tr(_CTX, "Not recorded: {0}").format(error))
            return None
        push_patch(self._document, outcome.patch)
        self.last_outcome = outcome
        self.dice_edit.clear()
        verdict = tr(_CTX, "success") if outcome.result.success else tr(_CTX, "failure")
        self.status.show_message(tr(_CTX, "Recorded: {0} {1} = {2}, Effect {3:+d}, {4}").format(
            odds.name, odds.what, outcome.result.total, outcome.result.effect, verdict))
        return outcome

    def roll_expression(self) -> ExpressionOutcome | None:
        """Roll the bare dice expression and record it; a bad one is refused, unrecorded."""
        sheet_id = self.sheet_id()
        character = self._document.campaign.find_sheet(sheet_id) if sheet_id else None
        try:
            outcome = roll_expression(self._document.campaign, self.expression_edit.text(),
                                      self._rng, encounter_id=self.encounter_id(),
                                      who=character.name if character is not None else "",
                                      duration=self.duration())
        except ValueError as error:
            self.status.show_message(tr(_CTX, "Not recorded: {0}").format(error))
            return None
        push_patch(self._document, outcome.patch)
        self.last_outcome = outcome
        self.status.show_message(tr(_CTX, "Recorded: {0} = {1}").format(
            outcome.expression, outcome.roll.total))
        return outcome

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the dice expression's box rolls the expression (and not the check)."""
        if watched is self.expression_edit and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) and _is_enter(event):
            self.roll_expression()
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter anywhere else rolls the check (no button is the default: see __init__)."""
        if _is_enter(event):
            self.roll_check()
            event.accept()
            return
        super().keyPressEvent(event)


def _is_enter(event: QKeyEvent) -> bool:
    return event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() in (
        Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
