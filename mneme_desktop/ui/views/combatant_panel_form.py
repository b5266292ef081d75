"""The combatant panel's widgets and their layout: header, action economy, aim and stance,
conditions and survival rolls, extended actions. Kept apart from what they do
(:mod:`~mneme_desktop.ui.views.combatant_panel`) so each reads on its own."""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import ConditionKind, Side
from mneme_desktop.domain.quick_check import MAX_DURATION, TimeUnit
from mneme_desktop.rules.actions import (
    FIRST_AID_ROUNDS,
    ROUND_SECONDS,
    ActionOption,
    MovementMode,
    Stance,
)
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.movement import GridScale
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.action_catalog_model import ActionCatalogModel
from mneme_desktop.ui.models.side_marks import SIDE_COLORS
from mneme_desktop.ui.widgets.action_pips import ActionPips
from mneme_desktop.ui.widgets.difficulty_picker import DifficultyPicker
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar
from mneme_desktop.ui.widgets.narrow import shrink_lists
from mneme_desktop.ui.widgets.status_line import StatusLine

__all__ = ["CombatantPanelForm", "TimingMode", "first_aid_task", "move_label", "stance_label"]

_CTX = "CombatantPanelForm"

_MOVES = {MovementMode.MOVE: tr_noop(_CTX, "Move"), MovementMode.DASH: tr_noop(_CTX, "Dash"),
          MovementMode.RUN: tr_noop(_CTX, "Run")}
_STANCES = {Stance.STANDING: tr_noop(_CTX, "Standing"), Stance.CROUCHED: tr_noop(_CTX, "Crouched"),
            Stance.PRONE: tr_noop(_CTX, "Prone")}
_FIRST_AID_TASK = tr_noop(_CTX, "First Aid")


class TimingMode(Enum):
    """How a task's length is found: rounds typed, or a timing roll whose Effect is typed
    or made by the app (or read from the table's dice)."""

    TYPED = "typed"
    EFFECT = "effect"
    ROLL = "roll"


_TIMING_MODES = {TimingMode.TYPED: tr_noop(_CTX, "Rounds typed"),
                 TimingMode.EFFECT: tr_noop(_CTX, "Timing: Effect typed"),
                 TimingMode.ROLL: tr_noop(_CTX, "Timing: check rolled")}
_TIME_UNITS = {TimeUnit.ROUNDS: tr_noop(_CTX, "rounds"),
               TimeUnit.MINUTES: tr_noop(_CTX, "minutes"),
               TimeUnit.HOURS: tr_noop(_CTX, "hours")}


def move_label(mode: MovementMode) -> str:
    """"Move", "Dash", "Run": a movement mode as the panel names it."""
    return tr(_CTX, _MOVES[mode]) if mode in _MOVES else mode.value.capitalize()


def stance_label(stance: Stance) -> str:
    """"Standing", "Crouched", "Prone": a stance as the panel names it."""
    return tr(_CTX, _STANCES[stance]) if stance in _STANCES else stance.value.capitalize()


def first_aid_task() -> str:
    """The extended action's name the panel offers first ("First Aid")."""
    return tr(_CTX, _FIRST_AID_TASK)

_CONDITION_CHOICES = (ConditionKind.STUNNED, ConditionKind.UNCONSCIOUS, ConditionKind.CRIPPLED,
                      ConditionKind.BLEEDING, ConditionKind.PRONE, ConditionKind.HELPLESS,
                      ConditionKind.OTHER)


class CombatantPanelForm(QWidget):
    """The combatant panel's widgets, laid out: what shows and what steps there are
    (the panel fills them and connects them to the rules)."""

    def _build(self) -> None:
        """Make and lay out every widget; the panel connects them afterwards."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        header = QHBoxLayout()
        self.name_label = QLabel(objectName="combatant_name")
        self.name_label.setTextFormat(Qt.TextFormat.PlainText)  # a name is never markup
        font = QFont(self.name_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.name_label.setFont(font)
        # A long name ("Raider Gunner 2 — their turn") wraps: on one line it widened the
        # panel past its tab and cut the side box and "Out" off at the right edge.
        self.name_label.setWordWrap(True)
        header.addWidget(self.name_label, 1)
        self.side_combo = QComboBox(objectName="combatant_side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
            self.side_combo.setItemData(self.side_combo.count() - 1, SIDE_COLORS[side],
                                        Qt.ItemDataRole.DecorationRole)
        self.side_combo.setToolTip(tr(_CTX, "The side this combatant fights for"))
        header.addWidget(self.side_combo)
        self.out_check = QCheckBox(tr(_CTX, "Out"), objectName="out_of_fight")
        self.out_check.setToolTip(tr(_CTX, "Fled, surrendered or otherwise out of the fight: "
                                           "leaves the turn order"))
        header.addWidget(self.out_check)
        self.hidden_check = QCheckBox(tr(_CTX, "Hidden"), objectName="hidden_from_players")
        self.hidden_check.setToolTip(tr(_CTX, "Not yet revealed: the player display leaves "
                                              "them out (name, row and attacks)"))
        header.addWidget(self.hidden_check)
        layout.addLayout(header)
        self.hp_bar = HpThresholdBar()
        self.hp_bar.setObjectName("combatant_hp")
        layout.addWidget(self.hp_bar)

        actions = QGroupBox(tr(_CTX, "Actions this round"))
        form = QFormLayout(actions)
        row = QHBoxLayout()
        self.pips = ActionPips()
        self.pips.setObjectName("combatant_pips")
        row.addWidget(self.pips)
        self.pips_label = QLabel(objectName="pips_label")
        row.addWidget(self.pips_label, 1)
        form.addRow(row)
        self.catalog_model = ActionCatalogModel(self)
        self.action_combo = QComboBox(objectName="action_choice")
        self.action_combo.setModel(self.catalog_model)
        self.action_combo.setToolTip(tr(_CTX, "The chapter's actions: free 0, minor 1, "
                                              "significant 2, full 3 minor actions"))
        self.take_button = QPushButton(tr(_CTX, "Take"), objectName="take_action")
        self.take_button.setToolTip(tr(_CTX, "Spend this action's minor actions (Space on the "
                                             "pips opens the catalog)"))
        row = QHBoxLayout()
        row.addWidget(self.action_combo, 1)
        row.addWidget(self.take_button)
        form.addRow(row)
        self.action_description = QLabel(objectName="action_description")
        self.action_description.setWordWrap(True)
        form.addRow(self.action_description)
        row = QHBoxLayout()
        self.reckless_check = QCheckBox(tr(_CTX, "Reckless"), objectName="option_reckless")
        self.coordinating_check = QCheckBox(tr(_CTX, "Coordinating"),
                                            objectName="option_coordinating")
        self.plan_check = QCheckBox(tr(_CTX, "Plan/Wait"), objectName="option_plan")
        for check, option in ((self.reckless_check, ActionOption.RECKLESS),
                              (self.coordinating_check, ActionOption.COORDINATING),
                              (self.plan_check, ActionOption.PLAN_WAIT)):
            check.setToolTip(tr(_CTX, "{0}: {1}").format(option.label, option.roll_effect))
            row.addWidget(check)
        form.addRow(row)
        self.note_edit = QLineEdit(objectName="action_note")
        self.note_edit.setPlaceholderText(tr(_CTX, "note for the log (optional)"))
        form.addRow(self.note_edit)
        layout.addWidget(actions)

        position = QGroupBox(tr(_CTX, "Aim, stance and movement"))
        pform = QFormLayout(position)
        row = QHBoxLayout()
        self.aim_target_combo = QComboBox(objectName="aim_target")
        self.aim_weapon_combo = QComboBox(objectName="aim_weapon")
        self.aim_weapon_combo.setToolTip(tr(_CTX, "The weapon for the next attack (the "
                                                  "resolver starts with it): each aim adds its "
                                                  "aim modifier, or +1"))
        self.aim_button = QPushButton(tr(_CTX, "Aim"), objectName="aim")
        self.aim_button.setToolTip(tr(_CTX, "One minor action: +1 to the next attack (the "
                                            "weapon's aim modifier if it has one), up to six "
                                            "aims' worth; lost on changing target"))
        row.addWidget(self.aim_target_combo, 1)
        row.addWidget(self.aim_weapon_combo, 1)
        row.addWidget(self.aim_button)
        pform.addRow(tr(_CTX, "Aim at"), row)
        self.aim_label = QLabel(objectName="aim_label")
        self.aim_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        pform.addRow(self.aim_label)
        row = QHBoxLayout()
        self.stance_combo = QComboBox(objectName="stance")
        for stance in Stance:
            self.stance_combo.addItem(stance_label(stance), stance)
        self.stance_combo.setToolTip(tr(_CTX, "Standing to prone or crouching: 1 minor action; "
                                              "prone to crouching: 2; crouching to standing: 1"))
        self.cover_combo = QComboBox(objectName="combatant_cover")
        for level in CoverLevel:
            self.cover_combo.addItem(
                tr(_CTX, "No cover") if level is CoverLevel.NONE else
                tr(_CTX, "{0} cover (+{1})").format(level.label.capitalize(), int(level)), level)
        row.addWidget(self.stance_combo)
        row.addWidget(self.cover_combo)
        pform.addRow(tr(_CTX, "Stance"), row)
        self.movement_label = QLabel(objectName="movement")
        self.movement_label.setWordWrap(True)
        pform.addRow(self.movement_label)
        row = QHBoxLayout()
        self.move_buttons: dict[MovementMode, QPushButton] = {}
        for mode in MovementMode:
            button = QPushButton(move_label(mode), objectName=f"move_{mode.value}")
            self.move_buttons[mode] = button
            row.addWidget(button)
        self.movement_scale_combo = QComboBox(objectName="movement_scale")
        for scale in GridScale:
            self.movement_scale_combo.addItem(tr(_CTX, "{0} m spaces").format(scale.value),
                                              scale)
        self.movement_scale_combo.setAccessibleName(tr(_CTX, "Movement scale of this "
                                                             "encounter"))
        self.movement_scale_combo.setToolTip(tr(_CTX, "The movement table's spaces for the "
                                                      "whole encounter (Ch.6): 1.5 m for a "
                                                      "person's grid, 4.5 m for a wider map"))
        row.addWidget(self.movement_scale_combo)
        pform.addRow(row)
        layout.addWidget(position)

        conditions = QGroupBox(tr(_CTX, "Conditions"))
        cform = QVBoxLayout(conditions)
        self.conditions_list = QListWidget(objectName="conditions")
        self.conditions_list.setMaximumHeight(96)
        cform.addWidget(self.conditions_list)
        row = QHBoxLayout()
        self.condition_combo = QComboBox(objectName="condition_kind")
        for kind in _CONDITION_CHOICES:
            self.condition_combo.addItem(kind.label, kind)
        self.condition_detail = QLineEdit(objectName="condition_detail")
        self.condition_detail.setPlaceholderText(tr(_CTX, "detail (left arm)"))
        self.add_condition_button = QPushButton(tr(_CTX, "Add"), objectName="add_condition")
        self.remove_condition_button = QPushButton(tr(_CTX, "Remove"),
                                                   objectName="remove_condition")
        row.addWidget(self.condition_combo)
        row.addWidget(self.condition_detail, 1)
        row.addWidget(self.add_condition_button)
        row.addWidget(self.remove_condition_button)
        cform.addLayout(row)
        row = QHBoxLayout()
        self.survival_dice_edit = QLineEdit(objectName="survival_dice")
        self.survival_dice_edit.setPlaceholderText(tr(_CTX, "table dice (empty: roll)"))
        self.dying_button = QPushButton(tr(_CTX, "Dying roll"), objectName="dying_roll")
        self.dying_button.setToolTip(tr(_CTX, "END roll against 4 with wound penalties; "
                                              "failure is death"))
        self.massive_button = QPushButton(tr(_CTX, "Massive damage"), objectName="massive_roll")
        self.massive_button.setToolTip(tr(_CTX, "END roll against 8 with wound penalties: "
                                                "survive crippled, or die"))
        row.addWidget(self.survival_dice_edit, 1)
        row.addWidget(self.dying_button)
        row.addWidget(self.massive_button)
        cform.addLayout(row)
        # The odds before anything is rolled; one fixed line, so it never moves the panel.
        self.survival_odds = StatusLine("survival_odds")
        cform.addWidget(self.survival_odds)
        layout.addWidget(conditions)

        task = QGroupBox(tr(_CTX, "Extended action"))
        tform = QFormLayout(task)
        self.task_label = QLabel(objectName="task_label")
        self.task_label.setWordWrap(True)
        tform.addRow(self.task_label)
        self.task_progress = QProgressBar(objectName="task_progress")
        self.task_progress.setFormat(tr(_CTX, "%v of %m rounds done"))
        tform.addRow(self.task_progress)
        self.task_start = QWidget()
        start = QFormLayout(self.task_start)
        start.setContentsMargins(0, 0, 0, 0)
        self.task_desc_edit = QLineEdit(first_aid_task(), objectName="task_description")
        start.addRow(tr(_CTX, "Task"), self.task_desc_edit)
        row = QHBoxLayout()
        self.patient_combo = QComboBox(objectName="patient")
        self.first_aid_check = QCheckBox(tr(_CTX, "First aid"), objectName="first_aid")
        self.first_aid_check.setChecked(True)
        self.first_aid_check.setToolTip(tr(_CTX, "Completing first aid heals its Effect (at "
                                                 "least 1), stops bleeding and stabilises the "
                                                 "dying for END hours"))
        row.addWidget(self.patient_combo, 1)
        row.addWidget(self.first_aid_check)
        start.addRow(tr(_CTX, "On"), row)
        row = QHBoxLayout()
        self.timing_mode_combo = QComboBox(objectName="task_timing_mode")
        for timing in TimingMode:
            self.timing_mode_combo.addItem(tr(_CTX, _TIMING_MODES[timing]), timing)
        self.timing_mode_combo.setToolTip(tr(_CTX, "Type the rounds, or find them with a "
                                                   "timing roll: the median duration times "
                                                   "the Ch.3 time table's share for the "
                                                   "check's Effect"))
        self.timing_mode_combo.setAccessibleName(tr(_CTX, "How the task's length is found"))
        self.task_rounds_spin = QSpinBox(objectName="task_rounds", minimum=1, maximum=10000,
                                         value=FIRST_AID_ROUNDS)
        self.task_rounds_spin.setSuffix(tr(_CTX, " rounds"))
        self.task_rounds_spin.setAccessibleName(tr(_CTX, "Task length in rounds"))
        row.addWidget(self.timing_mode_combo, 1)
        row.addWidget(self.task_rounds_spin)
        start.addRow(tr(_CTX, "Length"), row)
        row = QHBoxLayout()
        self.median_spin = QSpinBox(objectName="task_median", minimum=1,
                                    maximum=MAX_DURATION, value=FIRST_AID_ROUNDS)
        self.median_spin.setAccessibleName(tr(_CTX, "Median duration"))
        self.median_spin.setToolTip(tr(_CTX, "How long the task takes on a bare success "
                                             "(Effect 0); first aid: 30 rounds"))
        self.median_unit_combo = QComboBox(objectName="task_median_unit")
        for unit in TimeUnit:
            self.median_unit_combo.addItem(tr(_CTX, _TIME_UNITS[unit]), unit)
        self.median_unit_combo.setToolTip(tr(_CTX, "A minute is {0} rounds of {1} seconds")
                                          .format(60 // ROUND_SECONDS, ROUND_SECONDS))
        row.addWidget(self.median_spin, 1)
        row.addWidget(self.median_unit_combo, 1)
        self._timing_row_median = start.rowCount()
        start.addRow(tr(_CTX, "Median"), row)
        self.timing_effect_spin = QSpinBox(objectName="task_timing_effect", minimum=-12,
                                           maximum=12)
        self.timing_effect_spin.setPrefix(tr(_CTX, "Effect "))
        self.timing_effect_spin.setAccessibleName(tr(_CTX, "Timing check Effect"))
        self.timing_effect_spin.setToolTip(tr(_CTX, "The Effect of the task's check, rolled "
                                                    "at the table or elsewhere"))
        self._timing_row_effect = start.rowCount()
        start.addRow(tr(_CTX, "Effect"), self.timing_effect_spin)
        row = QHBoxLayout()
        self.timing_skill_combo = QComboBox(objectName="task_timing_skill")
        self.timing_skill_combo.setToolTip(tr(_CTX, "The skill the timing check is made "
                                                    "with: sets the DM (wounds included)"))
        self.timing_skill_combo.setAccessibleName(tr(_CTX, "Timing check skill"))
        self.timing_dm_spin = QSpinBox(objectName="task_timing_dm", minimum=-15, maximum=15)
        self.timing_dm_spin.setPrefix(tr(_CTX, "DM "))
        self.timing_dm_spin.setAccessibleName(tr(_CTX, "Timing check DM"))
        self.timing_difficulty_picker = DifficultyPicker("task_timing_difficulty",
                                                         "task_timing_difficulty_name")
        self.timing_difficulty_spin = self.timing_difficulty_picker.spin
        self.timing_difficulty_spin.setAccessibleName(tr(_CTX, "Timing check difficulty"))
        row.addWidget(self.timing_skill_combo, 1)
        row.addWidget(self.timing_dm_spin)
        self._timing_row_check = start.rowCount()
        start.addRow(tr(_CTX, "Check"), row)
        self._timing_row_difficulty = start.rowCount()
        start.addRow(tr(_CTX, "Difficulty"), self.timing_difficulty_picker)
        row = QHBoxLayout()
        self.timing_dice_edit = QLineEdit(objectName="task_timing_dice")
        self.timing_dice_edit.setPlaceholderText(tr(_CTX, "table dice (empty: roll)"))
        self.timing_dice_edit.setAccessibleName(tr(_CTX, "Timing dice rolled at the table"))
        self.timing_roll_button = QPushButton(tr(_CTX, "Roll timing"),
                                              objectName="task_timing_roll")
        self.timing_roll_button.setToolTip(tr(_CTX, "Make the timing check (the table's dice "
                                                    "if typed) and show the length; Start "
                                                    "then begins the task"))
        row.addWidget(self.timing_dice_edit, 1)
        row.addWidget(self.timing_roll_button)
        self._timing_row_dice = start.rowCount()
        start.addRow(tr(_CTX, "Dice"), row)
        self.timing_label = QLabel(objectName="task_timing")
        self.timing_label.setWordWrap(True)
        self._timing_row_label = start.rowCount()
        start.addRow(self.timing_label)
        self.start_task_button = QPushButton(tr(_CTX, "Start"), objectName="start_task")
        start.addRow(self.start_task_button)
        self._start_form = start
        tform.addRow(self.task_start)
        self.task_work = QWidget()
        work = QFormLayout(self.task_work)
        work.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.work_dm_spin = QSpinBox(objectName="task_dm", minimum=-15, maximum=15)
        self.work_dm_spin.setPrefix(tr(_CTX, "DM "))
        self.work_dm_spin.setAccessibleName(tr(_CTX, "Task roll DM"))
        self.work_difficulty_picker = DifficultyPicker("task_difficulty",
                                                       "task_difficulty_name")
        self.work_difficulty_spin = self.work_difficulty_picker.spin
        self.work_difficulty_spin.setAccessibleName(tr(_CTX, "Task difficulty"))
        self.work_dice_edit = QLineEdit(objectName="task_dice")
        self.work_dice_edit.setPlaceholderText(tr(_CTX, "table dice"))
        self.work_dice_edit.setAccessibleName(tr(_CTX, "Task dice rolled at the table"))
        row.addWidget(self.work_dm_spin)
        row.addWidget(self.work_dice_edit, 1)
        work.addRow(row)
        work.addRow(tr(_CTX, "Difficulty"), self.work_difficulty_picker)
        row = QHBoxLayout()
        self.work_roll_button = QPushButton(tr(_CTX, "Roll this round"), objectName="task_roll")
        self.work_roll_button.setToolTip(tr(_CTX, "A full action: the Success Effect shortens "
                                                  "what is left, a Fail Effect loses progress. "
                                                  "First aid too: Ch.7 calls performing it a "
                                                  "significant action, but \"a character "
                                                  "engaging in an extended action cannot do "
                                                  "anything else\" (Ch.6), so each round worked "
                                                  "takes all three minor actions"))
        self.work_dice_button = QPushButton(tr(_CTX, "Use dice"), objectName="task_use_dice")
        self.abort_button = QPushButton(tr(_CTX, "Abort"), objectName="task_abort")
        row.addWidget(self.work_roll_button)
        row.addWidget(self.work_dice_button)
        row.addWidget(self.abort_button)
        work.addRow(row)
        tform.addRow(self.task_work)
        layout.addWidget(task)
        layout.addStretch(1)
        # Hidden while no combatant is chosen, so nothing of the last one shows.
        self._body: tuple[QWidget, ...] = (self.side_combo, self.out_check,
                                           self.hidden_check, self.hp_bar,
                                           actions, position, conditions, task)
        self.show_timing_rows(TimingMode.TYPED)
        self._fit_narrow_panel()

    def show_timing_rows(self, mode: TimingMode) -> None:
        """The rounds typed, or the timing roll's rows: the median always, then the Effect
        typed, or the check, its dice and the button that rolls it."""
        timed = mode is not TimingMode.TYPED
        self.task_rounds_spin.setVisible(not timed)
        form = self._start_form
        form.setRowVisible(self._timing_row_median, timed)
        form.setRowVisible(self._timing_row_effect, mode is TimingMode.EFFECT)
        form.setRowVisible(self._timing_row_check, mode is TimingMode.ROLL)
        form.setRowVisible(self._timing_row_difficulty, mode is TimingMode.ROLL)
        form.setRowVisible(self._timing_row_dice, mode is TimingMode.ROLL)
        form.setRowVisible(self._timing_row_label, timed)

    def _fit_narrow_panel(self) -> None:
        """The panel shares a 1280-pixel screen with the turn order: lists shrink to a few
        characters (their full entries drop down) and long lines wrap, instead of the panel
        growing past its tab and clipping its right edge."""
        shrink_lists(self)
        for label in (self.aim_label, self.action_description, self.movement_label):
            label.setWordWrap(True)
