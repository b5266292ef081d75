"""The attack resolver's form: attacker, weapon and targets; the Difficulty's terms; options
and defence; the roll and the outcome. Kept apart from what the resolver does with it
(:mod:`~mneme_desktop.ui.views.attack_resolver`) so each reads on its own."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Characteristic
from mneme_desktop.domain.combat import AttackMode, AttackRequest, PlanOutcome
from mneme_desktop.rules.actions import HIT_LOCATIONS, DefenseKind
from mneme_desktop.rules.aim import SPOTTER_CONDITION
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.attack_models import AttackTargetsModel, DifficultyTermsModel
from mneme_desktop.ui.widgets.difficulty_picker import DifficultyPicker
from mneme_desktop.ui.widgets.status_line import StatusLine
from mneme_desktop.ui.widgets.superiority_picker import MAX_SUPERIORITY, SuperiorityPicker

_CTX = "AttackForm"


class _Steady:
    """Heights that only grow: a form whose parts ask for less room and then more (odds
    cleared between attacks, a refusal line, a term row) laid out and repainted the whole
    resolver at every Apply, its scroll area's contents changing size each time."""

    _tallest = 0
    _tallest_min = 0

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()  # type: ignore[misc]
        self._tallest = max(self._tallest, hint.height())
        return QSize(hint.width(), self._tallest)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()  # type: ignore[misc]
        self._tallest_min = max(self._tallest_min, hint.height())
        return QSize(hint.width(), self._tallest_min)

    def heightForWidth(self, width: int) -> int:
        """What a scroll area asks of wrapped contents: the tallest seen at this width."""
        height: int = super().heightForWidth(width)  # type: ignore[misc]
        seen: dict[int, int] = self.__dict__.setdefault("_tallest_at", {})
        if len(seen) > 64:  # the window was resized many times: start again
            seen.clear()
        seen[width] = max(seen.get(width, 0), height)
        return seen[width]


class SteadyLabel(_Steady, QLabel):
    """A wrapped label that keeps the room it has needed."""

    def __init__(self, object_name: str) -> None:
        super().__init__(objectName=object_name)
        self.setWordWrap(True)


class _SteadyWidget(_Steady, QWidget):
    pass


class _SteadyGroupBox(_Steady, QGroupBox):
    pass

__all__ = ["AttackForm"]

_FROM_ROWS = tr_noop(_CTX, "As on the targets' rows")


def _cover_levels(combo: QComboBox, from_rows: bool = False) -> None:
    if from_rows:
        combo.addItem(tr(_CTX, _FROM_ROWS), None)
    for level in CoverLevel:
        text = tr(_CTX,
            "None") if level is CoverLevel.NONE else f"{level.label.capitalize()} (+{int(level)})"
        combo.addItem(text, level)


class AttackForm(QWidget):
    """The resolver's widgets, laid out, and the attack request they describe (the
    resolver fills them from the fight and connects them to the rules)."""

    _ROLL_TIP = tr_noop(_CTX, "Roll the attack and its damage here (Ctrl+Return)")
    _DICE_TIP = tr_noop(_CTX, "Resolve with the dice typed here (Enter in the dice field)")
    _LOCATION_TIP = tr_noop(_CTX, "Random hit location for each target hit: 2d6 on the "
                                  "location table, 1d6 for primary (1-3) or secondary (4-6) "
                                  "feet and hands; no Difficulty, as nothing was aimed at. "
                                  "Rolled here, or from the dice typed beside it (Ctrl+L)")

    def _build(self) -> None:
        """Make and lay out every widget; the resolver connects them afterwards."""
        # The choices scroll; the odds, the dice and Apply stay in view below them.
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        inputs = _SteadyWidget()
        layout = QVBoxLayout(inputs)
        layout.setContentsMargins(4, 4, 4, 4)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inputs)
        outer.addWidget(scroll, 1)

        who = QGroupBox(tr(_CTX, "Attack"))
        form = QFormLayout(who)
        self.mode_combo = QComboBox(objectName="attack_mode")
        self.mode_combo.addItem(tr(_CTX, "Attack"), AttackMode.ATTACK)
        self.mode_combo.addItem(tr(_CTX, "Defend (double one defence)"), AttackMode.DEFEND)
        self.mode_combo.setToolTip(tr(_CTX, "Defend: a significant action that only defends; "
                                            "success takes no damage, and one defence modifier "
                                            "is doubled."))
        form.addRow(tr(_CTX, "Action"), self.mode_combo)
        self.attacker_combo = QComboBox(objectName="attacker")
        form.addRow(tr(_CTX, "Attacker"), self.attacker_combo)
        self.weapon_combo = QComboBox(objectName="weapon")
        form.addRow(tr(_CTX, "Weapon"), self.weapon_combo)
        row = QHBoxLayout()
        self.characteristic_combo = QComboBox(objectName="characteristic")
        self.characteristic_combo.addItem(tr(_CTX, "STR"), Characteristic.STR)
        self.characteristic_combo.addItem(tr(_CTX, "DEX"), Characteristic.DEX)
        self.characteristic_combo.setToolTip(tr(_CTX, "Characteristic whose DM the roll adds "
                                                      "(melee: STR, others: DEX by default)"))
        self.extra_dm_spin = QSpinBox(objectName="extra_dm", minimum=-12, maximum=12)
        self.extra_dm_spin.setPrefix(tr(_CTX, "other DM "))
        self.extra_dm_spin.setToolTip(tr(_CTX, "Equipment and other DMs (scope +1, laser sight "
                                               "+1 ...)"))
        row.addWidget(self.characteristic_combo)
        row.addWidget(self.extra_dm_spin)
        form.addRow(tr(_CTX, "Roll"), row)
        self.targets_model = AttackTargetsModel(self)
        self.targets_view = QTableView(objectName="targets")
        self.targets_view.setModel(self.targets_model)
        self.targets_view.verticalHeader().hide()
        self.targets_view.setWordWrap(False)
        self.targets_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.targets_view.horizontalHeader()
        # Widths measured when the candidates change, not at every tick: ResizeToContents
        # read every row of a 200-combatant fight at each tick and share (9,400 data()
        # calls per applied attack).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(AttackTargetsModel.COL_TARGET, QHeaderView.ResizeMode.Stretch)
        self.targets_model.modelReset.connect(self._fit_target_columns)
        self.targets_view.setMinimumHeight(110)
        self.targets_view.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        self.targets_view.setToolTip(tr(_CTX, "Tick one or more targets. Attacks: each target's "
                                              "share of the rate of attack (declared before "
                                              "rolling)."))
        form.addRow(tr(_CTX, "Targets"), self.targets_view)
        layout.addWidget(who)

        difficulty = QGroupBox(tr(_CTX, "Difficulty"))
        dform = QFormLayout(difficulty)
        self.base_picker = DifficultyPicker("base_difficulty", "base_difficulty_name")
        self.base_spin = self.base_picker.spin
        dform.addRow(tr(_CTX, "Base"), self.base_picker)
        self.cover_combo = QComboBox(objectName="cover")
        _cover_levels(self.cover_combo, from_rows=True)
        self.cover_combo.setToolTip(tr(_CTX, "The targets' cover: as set on their rows (the "
                                             "largest among several targets), or the level "
                                             "chosen here"))
        self.concealment_combo = QComboBox(objectName="concealment")
        _cover_levels(self.concealment_combo)
        row = QHBoxLayout()
        row.addWidget(QLabel(tr(_CTX, "Cover")))
        row.addWidget(self.cover_combo)
        row.addWidget(QLabel(tr(_CTX, "Concealment")))
        row.addWidget(self.concealment_combo)
        dform.addRow(row)
        self.close_quarters_check = QCheckBox(tr(_CTX, "Ranged attack in close quarters (+2)"),
                                              objectName="close_quarters")
        dform.addRow(self.close_quarters_check)
        self.spotter_check = QCheckBox(tr(_CTX, "Spotter calls coordinates (-{0})").format(
            SPOTTER_CONDITION), objectName="spotter")
        self.spotter_check.setToolTip(tr(_CTX, "Ch.6 ballistic correction: a spotter who can "
                                               "call out coordinates grants 2 Conditions: the "
                                               "Difficulty falls by {0}").format(
                                                   SPOTTER_CONDITION))
        dform.addRow(self.spotter_check)
        row = QHBoxLayout()
        self.range_spin = QSpinBox(objectName="range", minimum=-8, maximum=8)
        self.range_spin.setToolTip(tr(_CTX, "Range, size and movement of the target (+ harder)"))
        self.superiority_spin = QSpinBox(objectName="superiority", minimum=-MAX_SUPERIORITY,
                                         maximum=MAX_SUPERIORITY)
        self.superiority_spin.setToolTip(tr(_CTX, "Superiority: + for the attacker's side, - for "
                                                  "the target's; the sum of the situations "
                                                  "picked below (Ch.3 table)"))
        row.addWidget(QLabel(tr(_CTX, "Range/size/move")))
        row.addWidget(self.range_spin)
        row.addWidget(QLabel(tr(_CTX, "Superiority")))
        row.addWidget(self.superiority_spin)
        dform.addRow(row)
        self.superiority_picker = SuperiorityPicker(
            "superiority_situations", tr(_CTX, "Attacker's side"), tr(_CTX, "Target's side"))
        self.superiority_picker.follow(self.superiority_spin)
        dform.addRow(self.superiority_picker)
        self.location_combo = QComboBox(objectName="location")
        self.location_combo.addItem(tr(_CTX, "No targeted location"), None)
        for location in HIT_LOCATIONS:
            self.location_combo.addItem(
                f"{location.name} (+{location.difficulty_modifier}, "
                f"{location.body_area.value})", location)
        self.location_combo.setToolTip(tr(_CTX, "Targeted attack: harder to hit; limbs cripple "
                                                "at 1/3 HP, hands/feet at 1/10, the head stuns, "
                                                "vitals bleed (each threshold rounded down, at "
                                                "least 1, like every HP fraction of Ch.7). Not "
                                                "aimed: roll a random hit location after a hit "
                                                "(no Difficulty)"))
        dform.addRow(tr(_CTX, "Targeted"), self.location_combo)
        row = QHBoxLayout()
        self.advantage_spin = QSpinBox(objectName="advantages", minimum=0, maximum=6)
        self.disadvantage_spin = QSpinBox(objectName="disadvantages", minimum=0, maximum=6)
        self.advantage_spin.setToolTip(tr(_CTX, "Advantages (cancel disadvantages one for one)"))
        self.disadvantage_spin.setToolTip(tr(_CTX, "Disadvantages (cancel advantages one for one)"))
        row.addWidget(QLabel(tr(_CTX, "Advantage")))
        row.addWidget(self.advantage_spin)
        row.addWidget(QLabel(tr(_CTX, "Disadvantage")))
        row.addWidget(self.disadvantage_spin)
        dform.addRow(row)
        self.helpless_label = SteadyLabel("helpless_term")
        self.helpless_label.setToolTip(tr(_CTX, "A target in a full or extended action (first "
                                                "aid under fire), unconscious or marked "
                                                "helpless cannot defend itself: the attack "
                                                "gains an advantage, counted in the roll"))
        self.abort_check = QCheckBox(tr(_CTX, "Target aborts to defend"),
                                     objectName="helpless_abort")
        self.abort_check.setToolTip(tr(_CTX, "The player of a target in a full or extended "
                                             "action aborts it to defend: no advantage for "
                                             "that"))
        self.abort_check.setEnabled(False)
        dform.addRow(self.helpless_label)
        dform.addRow(self.abort_check)
        self.immunity_label = SteadyLabel("scale_immunity")
        self.immunity_label.setToolTip(tr(_CTX, "A vehicle, character, armor or object of a "
                                                "larger damage scale ignores damage of a "
                                                "lesser scale (Ch.7 Scale Immunity): said "
                                                "before the roll"))
        dform.addRow(self.immunity_label)
        self.next_roll_check = QCheckBox(tr(_CTX, "Nothing waits on the attacker's next roll"),
                                         objectName="use_next_roll")
        self.next_roll_check.setToolTip(tr(_CTX, "What the fight left on the attacker's next "
                                                 "roll (a grapple's advantage or disadvantage, "
                                                 "a supporter's Effect as a DM): counted when "
                                                 "ticked, and used up by this roll"))
        self.next_roll_check.setChecked(True)
        self.next_roll_check.setEnabled(False)
        dform.addRow(self.next_roll_check)
        self.tactics_check = QCheckBox(tr(_CTX, "No Tactics rolls left for the attacker's side"),
                                       objectName="spend_tactics_roll")
        self.tactics_check.setToolTip(tr(_CTX, "Spend one of the side's Tactics rolls (Ch.6: "
                                               "the capped Effect of the leader's Tactics "
                                               "check) on this roll: an advantage, or the "
                                               "disadvantage a failed plan left"))
        self.tactics_check.setEnabled(False)
        dform.addRow(self.tactics_check)
        row = QHBoxLayout()
        self.coordinating_spin = QSpinBox(objectName="coordinating", minimum=0, maximum=4)
        self.coordinating_spin.setToolTip(tr(_CTX, "Coordinating action: the referee adds 1-4 "
                                                   "Difficulty; gain superiority or advantage"))
        self.plan_combo = QComboBox(objectName="plan")
        self.plan_combo.addItem(tr(_CTX, "No plan"), PlanOutcome.NONE)
        self.plan_combo.addItem(tr(_CTX, "Plan came true (advantage)"), PlanOutcome.CORRECT)
        self.plan_combo.addItem(tr(_CTX, "Plan was wrong (disadvantage)"), PlanOutcome.WRONG)
        row.addWidget(QLabel(tr(_CTX, "Coordinating")))
        row.addWidget(self.coordinating_spin)
        row.addWidget(self.plan_combo)
        dform.addRow(row)
        self.terms_model = DifficultyTermsModel(self)
        self.terms_view = QTableView(objectName="difficulty_terms")
        self.terms_view.setModel(self.terms_model)
        self.terms_view.verticalHeader().hide()
        self.terms_view.horizontalHeader().setSectionResizeMode(
            2, QHeaderView.ResizeMode.Stretch)
        self.terms_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.terms_view.setMinimumHeight(120)
        dform.addRow(self.terms_view)
        self.dm_label = SteadyLabel("roll_terms")
        dform.addRow(self.dm_label)
        layout.addWidget(difficulty)

        options = QGroupBox(tr(_CTX, "Options and defence"))
        oform = QFormLayout(options)
        row = QHBoxLayout()
        self.reckless_check = QCheckBox(tr(_CTX, "Reckless"), objectName="reckless")
        self.reckless_check.setToolTip(tr(_CTX, "Reckless action: +2 DM to the roll, then -3 to "
                                                "the Effect; a negative result is resolved as a "
                                                "failure"))
        self.costly_check = QCheckBox(tr(_CTX, "Costly success"), objectName="costly")
        self.costly_check.setToolTip(tr(_CTX, "If the roll fails, succeed anyway (Effect 0) and "
                                              "pay a fail effect of double the failure + 3"))
        self.spend_check = QCheckBox(tr(_CTX, "Spend the action"), objectName="spend_action")
        self.spend_check.setChecked(True)
        self.spend_check.setToolTip(tr(_CTX, "Spend the attacker's significant action (2 minor)"))
        row.addWidget(self.reckless_check)
        row.addWidget(self.costly_check)
        row.addWidget(self.spend_check)
        oform.addRow(row)
        self.doubled_combo = QComboBox(objectName="defend_doubles")
        self.doubled_combo.addItem(tr(_CTX, "Skill"), DefenseKind.SKILL)
        self.doubled_combo.addItem(tr(_CTX, "Cover"), DefenseKind.COVER)
        self.doubled_combo.addItem(tr(_CTX, "Concealment / conditions"), DefenseKind.CONCEALMENT)
        self.doubled_combo.setToolTip(tr(_CTX, "Defend doubles one modifier (cover and "
                                               "concealment never above 4); doubled skill also "
                                               "adds to the roll"))
        oform.addRow(tr(_CTX, "Defend doubles"), self.doubled_combo)
        self.defence_conditions_spin = QSpinBox(objectName="defence_conditions", minimum=0,
                                                maximum=12)
        self.defence_conditions_spin.setToolTip(tr(_CTX, "The attacker's own conditions "
                                                         "(concealment, range, size, movement): "
                                                         "first to reduce a fail effect"))
        oform.addRow(tr(_CTX, "Attacker's conditions"), self.defence_conditions_spin)
        self.defence_cover_combo = QComboBox(objectName="defence_cover")
        self.defence_cover_combo.setToolTip(tr(_CTX, "Cover reduces a fail effect second and "
                                                     "takes the damage rolls it absorbs"))
        oform.addRow(tr(_CTX, "Attacker's cover"), self.defence_cover_combo)
        self.return_fire_combo = QComboBox(objectName="return_fire")
        self.return_fire_combo.setToolTip(tr(_CTX, "Whose weapon deals the damage rolls of a "
                                                   "fail effect"))
        self.return_rate_spin = QSpinBox(objectName="return_rate", minimum=1, maximum=999)
        self.return_rate_spin.setToolTip(tr(_CTX, "The opponents' total rate of attack: the most "
                                                  "damage rolls of a fail effect that count"))
        row = QHBoxLayout()
        row.addWidget(self.return_fire_combo, 1)
        row.addWidget(QLabel(tr(_CTX, "rate")))
        row.addWidget(self.return_rate_spin)
        oform.addRow(tr(_CTX, "Strikes back"), row)
        layout.addWidget(options)

        layout.addStretch(1)
        roll = _SteadyGroupBox(tr(_CTX, "Roll"))
        rlayout = QVBoxLayout(roll)
        self.odds_label = SteadyLabel("odds")
        self.odds_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        rlayout.addWidget(self.odds_label)
        self.problem_label = StatusLine("attack_problem")
        rlayout.addWidget(self.problem_label)
        self.roll_button = QPushButton(tr(_CTX, "&Roll in the app"), objectName="roll_attack")
        self.roll_button.setToolTip(tr(_CTX, self._ROLL_TIP))
        self.dice_edit = QLineEdit(objectName="attack_dice")
        self.dice_edit.setPlaceholderText(tr(_CTX, "table dice: 4 5"))
        self.dice_edit.setToolTip(tr(_CTX, "The dice a player rolled at the table (3 or more "
                                           "with advantage or disadvantage); Enter resolves"))
        self.use_dice_button = QPushButton(tr(_CTX, "Use &dice"), objectName="use_dice")
        self.use_dice_button.setToolTip(tr(_CTX, self._DICE_TIP))
        row = QHBoxLayout()
        row.addWidget(self.roll_button)
        row.addWidget(self.dice_edit, 1)
        row.addWidget(self.use_dice_button)
        rlayout.addLayout(row)
        self.damage_edit = QLineEdit(objectName="damage_rolls")
        self.damage_edit.setPlaceholderText(tr(_CTX, "damage rolls (optional): 7, 9; 5"))
        self.damage_edit.setToolTip(tr(_CTX, "Damage roll totals from the table: one group per "
                                             "target, separated by ';' (empty: rolled in the app)"))
        self.return_fire_edit = QLineEdit(objectName="return_fire_rolls")
        self.return_fire_edit.setPlaceholderText(tr(_CTX, "return fire (optional)"))
        self.return_fire_edit.setToolTip(tr(_CTX, "Damage rolls against the attacker from the "
                                                  "table: the cover's rolls first (empty: rolled "
                                                  "in the app)"))
        row = QHBoxLayout()
        row.addWidget(self.damage_edit, 1)
        row.addWidget(self.return_fire_edit, 1)
        rlayout.addLayout(row)
        self.location_edit = QLineEdit(objectName="location_dice")
        self.location_edit.setPlaceholderText(tr(_CTX, "location dice (optional): 5 6 2"))
        self.location_edit.setToolTip(tr(_CTX, "The random hit location rolled at the table: "
                                               "2d6, then 1d6 for feet or hands; one group per "
                                               "target hit, separated by ';' (empty: rolled in "
                                               "the app); Enter rolls it"))
        self.location_button = QPushButton(tr(_CTX, "Hit &location"),
                                           objectName="roll_location")
        self.location_button.setToolTip(tr(_CTX, self._LOCATION_TIP))
        row = QHBoxLayout()
        row.addWidget(self.location_edit, 1)
        row.addWidget(self.location_button)
        rlayout.addLayout(row)
        self.outcome_view = QTextBrowser(objectName="attack_outcome")
        self.outcome_view.setFixedHeight(self.fontMetrics().height() * 7)
        # A scroll bar that came and went with each result's length resized the pane's
        # viewport and laid out the whole resolver again at every Apply.
        self.outcome_view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.outcome_view.setSizePolicy(QSizePolicy.Policy.Expanding,
                                        QSizePolicy.Policy.Fixed)
        rlayout.addWidget(self.outcome_view)
        row = QHBoxLayout()
        self.apply_button = QPushButton(tr(_CTX,
                "&Apply to all targets"), objectName="apply_attack")
        self.apply_button.setToolTip(tr(_CTX, "Apply the result to every sheet it touches as one "
                                              "undoable step (Ctrl+Shift+Return)"))
        self.discard_button = QPushButton(tr(_CTX, "Discard"), objectName="discard_attack")
        row.addWidget(self.apply_button)
        row.addWidget(self.discard_button)
        rlayout.addLayout(row)
        outer.addWidget(roll)

    def _fit_target_columns(self) -> None:
        """Side, armor and share sized to the candidates, once per new list of them."""
        for column in (AttackTargetsModel.COL_SIDE, AttackTargetsModel.COL_ARMOR,
                       AttackTargetsModel.COL_SHARE):
            self.targets_view.resizeColumnToContents(column)

    def _request(self) -> AttackRequest | None:
        """The attack the form describes, as the rules take it (None: no attacker chosen)."""
        attacker_id = self.attacker_combo.currentData()
        if attacker_id is None:
            return None
        cover_choice = self.defence_cover_combo.currentData() or ("level", CoverLevel.NONE)
        fire = self.return_fire_combo.currentData()
        mode = self.mode_combo.currentData()
        return AttackRequest(
            attacker_id=attacker_id,
            weapon_index=self.weapon_combo.currentIndex(),
            targets=tuple(self.targets_model.checked()),
            characteristic=Characteristic(self.characteristic_combo.currentData()),
            base_difficulty=self.base_spin.value(),
            cover=self.cover_combo.currentData(),
            concealment=self.concealment_combo.currentData(),
            close_quarters=self.close_quarters_check.isChecked(),
            spotter=self.spotter_check.isChecked(),
            range_mod=self.range_spin.value(),
            superiority=self.superiority_spin.value(),
            superiority_from=self.superiority_picker.balance(),
            location=self.location_combo.currentData(),
            advantages=self.advantage_spin.value(),
            disadvantages=self.disadvantage_spin.value(),
            coordinating=self.coordinating_spin.value(),
            plan=self.plan_combo.currentData(),
            extra_dm=self.extra_dm_spin.value(),
            mode=mode,
            reckless=self.reckless_check.isChecked(),
            costly_success=self.costly_check.isChecked(),
            defence_conditions=self.defence_conditions_spin.value(),
            defence_cover=cover_choice[1] if cover_choice[0] == "level" else CoverLevel.NONE,
            defence_cover_item=cover_choice[1] if cover_choice[0] == "item" else None,
            defence_cover_thing=str(cover_choice[1]) if cover_choice[0] == "thing" else None,
            spend_action=self.spend_check.isChecked(),
            aborting=tuple(cid for cid, _ in self.targets_model.checked())
            if self.abort_check.isChecked() else (),
            use_next_roll=self.next_roll_check.isChecked(),
            tactics_roll=self.tactics_check.isChecked(),
            doubled=self.doubled_combo.currentData() if mode is AttackMode.DEFEND else None,
            return_fire_from=fire[0] if fire else None,
            return_fire_weapon=fire[1] if fire else 0,
            return_fire_rate=self.return_rate_spin.value(),
        )
