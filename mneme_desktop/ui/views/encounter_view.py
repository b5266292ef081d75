"""The encounter screen a referee keeps open for a whole fight.

Turn order on the left (initiative, whose turn, actions left, HP, conditions with timers),
the log below it, and on the right the selected combatant's panel (action economy, aim,
stance, movement, extended actions, conditions, survival rolls) and the attack resolver.
Every step is one command on the document's undo stack; keys drive the common steps
(N next turn, Shift+N previous, E end round, D delay, R initiative, T tactics, A attack).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QRectF,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QFont,
    QKeySequence,
    QPainter,
    QPalette,
    QPixmap,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Campaign, Character, ConditionKind, Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.attack_terms import aim_cap_text
from mneme_desktop.domain.combat import CombatError, EncounterPatch
from mneme_desktop.domain.roll_terms import survival_terms, terms_text
from mneme_desktop.drawing.track_painter import TrackColors, paint_hp_bar
from mneme_desktop.rules.actions import (
    FIRST_AID_ROUNDS,
    TACTICS_DIFFICULTIES,
    ActionOption,
    MovementMode,
    Stance,
    tactics_max_effect,
)
from mneme_desktop.rules.checks import (
    CheckResult,
    CoverLevel,
    check_from_dice,
    roll_check,
    success_chance,
)
from mneme_desktop.rules.healing import first_aid_difficulty
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, MASSIVE_DAMAGE_DIFFICULTY, WoundState
from mneme_desktop.storage.atomic import atomic_write
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.encounter_commands import push_patch
from mneme_desktop.ui.models.encounter_models import (
    SIDE_COLORS,
    ActionCatalogModel,
    EncounterLogModel,
    TurnOrderModel,
)
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE
from mneme_desktop.ui.views.attack_resolver import AttackResolver, format_percent
from mneme_desktop.ui.widgets.action_pips import ActionPips, paint_action_pips
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar
from mneme_desktop.ui.widgets.narrow import shrink_lists
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = [
    "AddAdversariesDialog",
    "AddCharactersDialog",
    "CombatantPanel",
    "EncounterView",
    "InitiativeDialog",
    "TacticsDialog",
]

_Index = QModelIndex | QPersistentModelIndex
_MakePatch = Callable[[Campaign, Encounter], EncounterPatch]


# ===================================================================== table delegate


class _TurnOrderDelegate(QStyledItemDelegate):
    """Paints the action pips and the compact HP bar in the turn-order rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._colors: tuple[int, TrackColors] | None = None
        self._bars: dict[tuple[object, ...], QPixmap] = {}
        self._font: tuple[QFont, str] | None = None

    def _font_key(self, font: QFont) -> str:
        # QFont.key() is slow enough to matter on every cell; fonts rarely change.
        if self._font is None or self._font[0] != font:
            self._font = (QFont(font), font.key())
        return self._font[1]

    def _track_colors(self, palette: QPalette) -> TrackColors:
        key = palette.cacheKey()
        if self._colors is None or self._colors[0] != key:
            self._colors = (key, TrackColors.from_palette(palette))
        return self._colors[1]

    def _bar(self, track: DamageTrack, size: QSize, option: QStyleOptionViewItem,
             ratio: float) -> QPixmap:
        """The compact HP bar drawn once per track, size and palette: rows that share a
        track (twenty unhurt raiders) share one image, and repainting costs a blit."""
        key = (track.damage, track.hp, track.thresholds, size.width(), size.height(), ratio,
               option.palette.cacheKey(), self._font_key(option.font))
        pixmap = self._bars.get(key)
        if pixmap is None:
            if len(self._bars) > 256:
                self._bars.clear()
            pixmap = QPixmap(size * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            bar_painter = QPainter(pixmap)
            paint_hp_bar(bar_painter, QRectF(0, 0, size.width(), size.height()), track,
                         self._track_colors(option.palette), option.font, labels=False)
            bar_painter.end()
            self._bars[key] = pixmap
        return pixmap

    def _pips(self, spent: int, size: QSize, option: QStyleOptionViewItem, selected: bool,
              ratio: float) -> QPixmap:
        """The pips for ``spent`` drawn once per size and palette (on a selected row they
        take the selection's text colour)."""
        key = ("pips", spent, size.width(), size.height(), ratio, option.palette.cacheKey(),
               selected)
        pixmap = self._bars.get(key)
        if pixmap is None:
            palette = QPalette(option.palette)
            if selected:
                on_selection = palette.color(QPalette.ColorRole.HighlightedText)
                palette.setColor(QPalette.ColorRole.Highlight, on_selection)
                palette.setColor(QPalette.ColorRole.Text, on_selection)
            pixmap = QPixmap(size * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            pips_painter = QPainter(pixmap)
            paint_action_pips(pips_painter, QRectF(0, 0, size.width(), size.height()), spent,
                              palette)
            pips_painter.end()
            self._bars[key] = pixmap
        return pixmap

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        column = index.column()
        if column not in (TurnOrderModel.COL_ACTIONS, TurnOrderModel.COL_HP):
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text = item.text
        item.text = ""
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        rect = QRectF(option.rect).adjusted(4, 0, -4, 0)
        height = min(rect.height() - 8, option.fontMetrics.height() * 0.9)
        if column == TurnOrderModel.COL_ACTIONS:
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            area = rect.toAlignedRect()
            pips = self._pips(int(index.data(VALUE_ROLE) or 0), area.size(), option, selected,
                              painter.device().devicePixelRatioF())
            painter.drawPixmap(area.topLeft(), pips)
            return
        track = index.data(VALUE_ROLE)
        if not isinstance(track, DamageTrack):
            return
        text_width = option.fontMetrics.horizontalAdvance("000/00") + 6
        bar = QRectF(rect.left(), rect.center().y() - height / 2,
                     max(10.0, rect.width() - text_width), height).toAlignedRect()
        painter.drawPixmap(bar.topLeft(), self._bar(track, bar.size(), option,
                                                    painter.device().devicePixelRatioF()))
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setPen(option.palette.color(QPalette.ColorRole.HighlightedText if selected
                                            else QPalette.ColorRole.Text))
        painter.drawText(QRectF(bar.right() + 4, rect.top(), text_width - 4, rect.height()),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()


# ===================================================================== dialogs


class InitiativeDialog(QDialog):
    """Roll initiative for everyone: 2d6 + DEX DM + a chosen skill, or an ambush."""

    def __init__(self, skills: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Roll initiative")
        form = QFormLayout(self)
        self.skill_combo = QComboBox(objectName="initiative_skill")
        self.skill_combo.setEditable(True)
        self.skill_combo.addItem("")
        self.skill_combo.addItems(skills)
        self.skill_combo.setToolTip("Each combatant adds their level in this skill (Recon, "
                                    "Tactics, a weapon skill); no skill adds nothing")
        form.addRow("Skill", self.skill_combo)
        self.only_missing_check = QCheckBox("Only those without initiative",
                                            objectName="only_missing")
        form.addRow(self.only_missing_check)
        self.ambush_combo = QComboBox(objectName="ambush")
        self.ambush_combo.addItem("No ambush: everyone rolls", None)
        for side in Side:
            self.ambush_combo.addItem(f"{side.label} are prepared (12 + DEX DM)", side)
        self.ambush_combo.setToolTip("In an ambush the prepared side counts an automatic 12")
        form.addRow("Ambush", self.ambush_combo)
        buttons = ok_cancel_buttons(self, "Roll")
        form.addRow(buttons)
        self.buttons = buttons

    @property
    def skill(self) -> str | None:
        return self.skill_combo.currentText().strip() or None


class TacticsDialog(QDialog):
    """A Tactics check at a declared risk; its Effect goes to the leader's unit."""

    def __init__(self, view: EncounterView) -> None:
        super().__init__(view)
        self.setWindowTitle("Tactics check")
        self._view = view
        form = QFormLayout(self)
        self.leader_combo = QComboBox(objectName="tactics_leader")
        form.addRow("Leader", self.leader_combo)
        self.difficulty_combo = QComboBox(objectName="tactics_difficulty")
        for difficulty in TACTICS_DIFFICULTIES:
            self.difficulty_combo.addItem(
                f"{difficulty} (Effect at most ±{tactics_max_effect(difficulty)})", difficulty)
        self.difficulty_combo.setCurrentIndex(1)
        form.addRow("Declared risk", self.difficulty_combo)
        self.dm_spin = QSpinBox(objectName="tactics_dm", minimum=-15, maximum=15)
        self.dm_spin.setToolTip("Tactics level (unskilled -3) + INT DM + wound penalty")
        form.addRow("DM", self.dm_spin)
        self.dice_edit = QLineEdit(objectName="tactics_dice")
        self.dice_edit.setPlaceholderText("empty: roll in the app; or the table's dice, 4 5")
        form.addRow("Dice", self.dice_edit)
        self.unit_list = QListWidget(objectName="tactics_unit")
        self.unit_list.setToolTip("Everyone in direct communication with the leader")
        form.addRow("Unit", self.unit_list)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons
        self.leader_combo.currentIndexChanged.connect(self._leader_changed)

    def fill(self, campaign: Campaign, encounter: Encounter, leader_id: str | None) -> None:
        self.leader_combo.blockSignals(True)
        self.leader_combo.clear()
        for combatant in encounter.initiative_order():
            self.leader_combo.addItem(campaign.combatant_character(combatant).name,
                                      combatant.id)
        self.leader_combo.setCurrentIndex(max(0, self.leader_combo.findData(leader_id)))
        self.leader_combo.blockSignals(False)
        self._campaign, self._encounter = campaign, encounter
        self._leader_changed()

    def _leader_changed(self) -> None:
        leader_id = self.leader_combo.currentData()
        self.unit_list.clear()
        leader = self._encounter.find_combatant(leader_id) if leader_id else None
        if leader is None:
            return
        self.dm_spin.setValue(fight.tactics_modifier(
            self._campaign.combatant_character(leader)))
        for combatant in self._encounter.initiative_order():
            item = QListWidgetItem(self._campaign.combatant_character(combatant).name)
            item.setData(ID_ROLE, combatant.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if combatant.side is leader.side
                               else Qt.CheckState.Unchecked)
            self.unit_list.addItem(item)

    def unit_ids(self) -> list[str]:
        return [str(self.unit_list.item(i).data(ID_ROLE)) for i in range(self.unit_list.count())
                if self.unit_list.item(i).checkState() == Qt.CheckState.Checked]


class AddAdversariesDialog(QDialog):
    """N numbered copies of a library template ("Raider 1".."Raider N")."""

    def __init__(self, campaign: Campaign, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add adversaries")
        form = QFormLayout(self)
        self.template_combo = QComboBox(objectName="template")
        for template in campaign.adversary_library:
            self.template_combo.addItem(template.name, template.id)
        form.addRow("Template", self.template_combo)
        self.count_spin = QSpinBox(objectName="count", minimum=1, maximum=500, value=1)
        form.addRow("How many", self.count_spin)
        self.side_combo = QComboBox(objectName="side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
        self.side_combo.setCurrentIndex(self.side_combo.findData(Side.ENEMIES))
        form.addRow("Side", self.side_combo)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons


class AddCharactersDialog(QDialog):
    """Campaign characters (player characters and NPCs) not yet in the fight."""

    def __init__(self, campaign: Campaign, encounter: Encounter,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add characters")
        form = QFormLayout(self)
        present = {c.character_id for c in encounter.combatants}
        self.character_list = QListWidget(objectName="characters")
        for character in campaign.characters:
            if character.id in present:
                continue
            item = QListWidgetItem(f"{character.name} ({character.kind.value})")
            item.setData(ID_ROLE, character.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.character_list.addItem(item)
        form.addRow(self.character_list)
        self.side_combo = QComboBox(objectName="side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
        form.addRow("Side", self.side_combo)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons

    def chosen_ids(self) -> list[str]:
        items = (self.character_list.item(i) for i in range(self.character_list.count()))
        return [str(item.data(ID_ROLE)) for item in items
                if item.checkState() == Qt.CheckState.Checked]


# ===================================================================== combatant panel


_CONDITION_CHOICES = (ConditionKind.STUNNED, ConditionKind.UNCONSCIOUS, ConditionKind.CRIPPLED,
                      ConditionKind.BLEEDING, ConditionKind.PRONE, ConditionKind.HELPLESS,
                      ConditionKind.OTHER)


class CombatantPanel(QWidget):
    """Everything one combatant can do and suffer this round."""

    def __init__(self, view: EncounterView) -> None:
        super().__init__(view)
        self._view = view
        self._combatant_id: str | None = None
        self._others: list[tuple[str, str]] = []
        self._others_own: str | None = None
        self._track_key: tuple[object, ...] | None = None
        self._dirty = False
        self._gesture_serial = 0
        self._gesture_start: int | None = None
        self._build()

    def showEvent(self, event: QShowEvent) -> None:
        if self._dirty:
            self.refresh()
        super().showEvent(event)

    # --- layout ------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        header = QHBoxLayout()
        self.name_label = QLabel(objectName="combatant_name")
        self.name_label.setTextFormat(Qt.TextFormat.PlainText)  # a name is never markup
        font = QFont(self.name_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.name_label.setFont(font)
        header.addWidget(self.name_label, 1)
        self.side_combo = QComboBox(objectName="combatant_side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
            self.side_combo.setItemData(self.side_combo.count() - 1, SIDE_COLORS[side],
                                        Qt.ItemDataRole.DecorationRole)
        self.side_combo.setToolTip("The side this combatant fights for")
        header.addWidget(self.side_combo)
        self.out_check = QCheckBox("Out", objectName="out_of_fight")
        self.out_check.setToolTip("Fled, surrendered or otherwise out of the fight: leaves "
                                  "the turn order")
        header.addWidget(self.out_check)
        layout.addLayout(header)
        self.hp_bar = HpThresholdBar()
        self.hp_bar.setObjectName("combatant_hp")
        layout.addWidget(self.hp_bar)

        actions = QGroupBox("Actions this round")
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
        self.action_combo.setToolTip("The chapter's actions: free 0, minor 1, significant 2, "
                                     "full 3 minor actions")
        self.take_button = QPushButton("Take", objectName="take_action")
        self.take_button.setToolTip("Spend this action's minor actions (Space on the pips "
                                    "opens the catalog)")
        row = QHBoxLayout()
        row.addWidget(self.action_combo, 1)
        row.addWidget(self.take_button)
        form.addRow(row)
        self.action_description = QLabel(objectName="action_description")
        self.action_description.setWordWrap(True)
        form.addRow(self.action_description)
        row = QHBoxLayout()
        self.reckless_check = QCheckBox("Reckless", objectName="option_reckless")
        self.coordinating_check = QCheckBox("Coordinating", objectName="option_coordinating")
        self.plan_check = QCheckBox("Plan/Wait", objectName="option_plan")
        for check, option in ((self.reckless_check, ActionOption.RECKLESS),
                              (self.coordinating_check, ActionOption.COORDINATING),
                              (self.plan_check, ActionOption.PLAN_WAIT)):
            check.setToolTip(f"{option.label}: {option.roll_effect}")
            row.addWidget(check)
        form.addRow(row)
        self.note_edit = QLineEdit(objectName="action_note")
        self.note_edit.setPlaceholderText("note for the log (optional)")
        form.addRow(self.note_edit)
        layout.addWidget(actions)

        position = QGroupBox("Aim, stance and movement")
        pform = QFormLayout(position)
        row = QHBoxLayout()
        self.aim_target_combo = QComboBox(objectName="aim_target")
        self.aim_weapon_combo = QComboBox(objectName="aim_weapon")
        self.aim_weapon_combo.setToolTip("The weapon for the next attack (the resolver starts "
                                         "with it): each aim adds its aim modifier, or +1")
        self.aim_button = QPushButton("Aim", objectName="aim")
        self.aim_button.setToolTip("One minor action: +1 to the next attack (the weapon's aim "
                                   "modifier if it has one), up to six aims' worth; lost on "
                                   "changing target")
        row.addWidget(self.aim_target_combo, 1)
        row.addWidget(self.aim_weapon_combo, 1)
        row.addWidget(self.aim_button)
        pform.addRow("Aim at", row)
        self.aim_label = QLabel(objectName="aim_label")
        self.aim_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        pform.addRow(self.aim_label)
        row = QHBoxLayout()
        self.stance_combo = QComboBox(objectName="stance")
        for stance in Stance:
            self.stance_combo.addItem(stance.value.capitalize(), stance)
        self.stance_combo.setToolTip("Standing to prone or crouching: 1 minor action; prone to "
                                     "crouching: 2; crouching to standing: 1")
        self.cover_combo = QComboBox(objectName="combatant_cover")
        for level in CoverLevel:
            self.cover_combo.addItem(
                "No cover" if level is CoverLevel.NONE else
                f"{level.label.capitalize()} cover (+{int(level)})", level)
        row.addWidget(self.stance_combo)
        row.addWidget(self.cover_combo)
        pform.addRow("Stance", row)
        self.movement_label = QLabel(objectName="movement")
        self.movement_label.setWordWrap(True)
        pform.addRow(self.movement_label)
        row = QHBoxLayout()
        self.move_buttons: dict[MovementMode, QPushButton] = {}
        for mode in MovementMode:
            button = QPushButton(mode.value.capitalize(), objectName=f"move_{mode.value}")
            self.move_buttons[mode] = button
            row.addWidget(button)
        pform.addRow(row)
        layout.addWidget(position)

        conditions = QGroupBox("Conditions")
        cform = QVBoxLayout(conditions)
        self.conditions_list = QListWidget(objectName="conditions")
        self.conditions_list.setMaximumHeight(96)
        cform.addWidget(self.conditions_list)
        row = QHBoxLayout()
        self.condition_combo = QComboBox(objectName="condition_kind")
        for kind in _CONDITION_CHOICES:
            self.condition_combo.addItem(kind.label, kind)
        self.condition_detail = QLineEdit(objectName="condition_detail")
        self.condition_detail.setPlaceholderText("detail (left arm)")
        self.add_condition_button = QPushButton("Add", objectName="add_condition")
        self.remove_condition_button = QPushButton("Remove", objectName="remove_condition")
        row.addWidget(self.condition_combo)
        row.addWidget(self.condition_detail, 1)
        row.addWidget(self.add_condition_button)
        row.addWidget(self.remove_condition_button)
        cform.addLayout(row)
        row = QHBoxLayout()
        self.survival_dice_edit = QLineEdit(objectName="survival_dice")
        self.survival_dice_edit.setPlaceholderText("table dice (empty: roll)")
        self.dying_button = QPushButton("Dying roll", objectName="dying_roll")
        self.dying_button.setToolTip("END roll against 4 with wound penalties; failure is death")
        self.massive_button = QPushButton("Massive damage", objectName="massive_roll")
        self.massive_button.setToolTip("END roll against 8 with wound penalties: survive "
                                       "crippled, or die")
        row.addWidget(self.survival_dice_edit, 1)
        row.addWidget(self.dying_button)
        row.addWidget(self.massive_button)
        cform.addLayout(row)
        # The odds before anything is rolled; one fixed line, so it never moves the panel.
        self.survival_odds = StatusLine("survival_odds")
        cform.addWidget(self.survival_odds)
        layout.addWidget(conditions)

        task = QGroupBox("Extended action")
        tform = QFormLayout(task)
        self.task_label = QLabel(objectName="task_label")
        self.task_label.setWordWrap(True)
        tform.addRow(self.task_label)
        self.task_progress = QProgressBar(objectName="task_progress")
        self.task_progress.setFormat("%v of %m rounds done")
        tform.addRow(self.task_progress)
        self.task_start = QWidget()
        start = QFormLayout(self.task_start)
        start.setContentsMargins(0, 0, 0, 0)
        self.task_desc_edit = QLineEdit("First Aid", objectName="task_description")
        start.addRow("Task", self.task_desc_edit)
        row = QHBoxLayout()
        self.task_rounds_spin = QSpinBox(objectName="task_rounds", minimum=1, maximum=10000,
                                         value=FIRST_AID_ROUNDS)
        self.task_rounds_spin.setSuffix(" rounds")
        self.task_rounds_spin.setAccessibleName("Task length in rounds")
        self.first_aid_check = QCheckBox("First aid", objectName="first_aid")
        self.first_aid_check.setChecked(True)
        self.first_aid_check.setToolTip("Completing first aid heals its Effect (at least 1), "
                                        "stops bleeding and stabilises the dying for END hours")
        row.addWidget(self.task_rounds_spin)
        row.addWidget(self.first_aid_check)
        start.addRow("Length", row)
        self.patient_combo = QComboBox(objectName="patient")
        start.addRow("On", self.patient_combo)
        self.start_task_button = QPushButton("Start", objectName="start_task")
        start.addRow(self.start_task_button)
        tform.addRow(self.task_start)
        self.task_work = QWidget()
        work = QFormLayout(self.task_work)
        work.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.work_dm_spin = QSpinBox(objectName="task_dm", minimum=-15, maximum=15)
        self.work_dm_spin.setPrefix("DM ")
        self.work_dm_spin.setAccessibleName("Task roll DM")
        self.work_difficulty_spin = QSpinBox(objectName="task_difficulty", minimum=2,
                                             maximum=20, value=8)
        self.work_difficulty_spin.setPrefix("vs ")
        self.work_difficulty_spin.setAccessibleName("Task difficulty")
        self.work_dice_edit = QLineEdit(objectName="task_dice")
        self.work_dice_edit.setPlaceholderText("table dice")
        self.work_dice_edit.setAccessibleName("Task dice rolled at the table")
        row.addWidget(self.work_dm_spin)
        row.addWidget(self.work_difficulty_spin)
        row.addWidget(self.work_dice_edit, 1)
        work.addRow(row)
        row = QHBoxLayout()
        self.work_roll_button = QPushButton("Roll this round", objectName="task_roll")
        self.work_roll_button.setToolTip("A full action: the Success Effect shortens what is "
                                         "left, a Fail Effect loses progress")
        self.work_dice_button = QPushButton("Use dice", objectName="task_use_dice")
        self.abort_button = QPushButton("Abort", objectName="task_abort")
        row.addWidget(self.work_roll_button)
        row.addWidget(self.work_dice_button)
        row.addWidget(self.abort_button)
        work.addRow(row)
        tform.addRow(self.task_work)
        layout.addWidget(task)
        layout.addStretch(1)
        # Hidden while no combatant is chosen, so nothing of the last one shows.
        self._body: tuple[QWidget, ...] = (self.side_combo, self.out_check, self.hp_bar,
                                           actions, position, conditions, task)
        self._fit_narrow_panel()

        self.side_combo.activated.connect(self._side_chosen)
        self.out_check.clicked.connect(self._out_toggled)
        self.hp_bar.damage_requested.connect(self._damage_requested)
        self.pips.action_chosen.connect(self.take_action)
        self.take_button.clicked.connect(
            lambda: self.take_action(str(self.action_combo.currentData(ID_ROLE))))
        self.action_combo.currentIndexChanged.connect(self._describe_action)
        self.aim_button.clicked.connect(self.aim)
        self.aim_weapon_combo.activated.connect(self._aim_weapon_chosen)
        self.stance_combo.activated.connect(self._stance_chosen)
        self.cover_combo.activated.connect(self._cover_chosen)
        for mode, button in self.move_buttons.items():
            button.clicked.connect(lambda _=False, m=mode: self.move_combatant(m))
        self.start_task_button.clicked.connect(self.start_task)
        self.work_roll_button.clicked.connect(lambda: self.work_task(None))
        self.work_dice_button.clicked.connect(lambda: self.work_task(self.work_dice_edit.text()))
        self.work_dice_edit.returnPressed.connect(
            lambda: self.work_task(self.work_dice_edit.text()))
        self.abort_button.clicked.connect(self.abort_task)
        self.add_condition_button.clicked.connect(self.add_condition)
        self.remove_condition_button.clicked.connect(self.remove_condition)
        self.dying_button.clicked.connect(lambda: self.survival_roll(dying=True))
        self.massive_button.clicked.connect(lambda: self.survival_roll(dying=False))
        self._describe_action()

    # --- state -------------------------------------------------------------------------

    @property
    def combatant_id(self) -> str | None:
        return self._combatant_id

    def set_combatant(self, combatant_id: str | None) -> None:
        self._combatant_id = combatant_id
        self.refresh()

    def refresh(self) -> None:
        """Show the combatant as the encounter now has it (when next shown, if hidden
        behind the Attack tab)."""
        if not self.isVisible():
            self._dirty = True
            return
        self._dirty = False
        view = self._view
        encounter = view.encounter()
        combatant = encounter.find_combatant(self._combatant_id) if (
            encounter is not None and self._combatant_id) else None
        self.setEnabled(combatant is not None)
        for widget in self._body:
            widget.setVisible(combatant is not None)
        if encounter is None or combatant is None:
            self.name_label.setText(
                "Choose a combatant in the turn order" if encounter is not None
                and encounter.combatants else "No one in this fight yet")
            self.conditions_list.clear()
            self._track_key = None
            return
        campaign = view.document.campaign
        sheet = campaign.combatant_character(combatant)
        status = fight.combatant_status(campaign, encounter, combatant)
        widgets = (self.side_combo, self.stance_combo, self.cover_combo,
                   self.aim_target_combo, self.patient_combo)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            current = encounter.current_combatant
            turn = " — their turn" if current is not None and current.id == combatant.id \
                else (" — delayed" if combatant.delayed else "")
            self.name_label.setText(f"{sheet.name}{turn}")
            self.hp_bar.set_subject(sheet.name)  # screen readers say whose bar and pips
            self.pips.set_subject(sheet.name)
            self.side_combo.setCurrentIndex(self.side_combo.findData(combatant.side))
            self.out_check.setChecked(combatant.out_of_fight)
            track_key = (sheet.damage, status.hp, status.thresholds)
            if track_key != self._track_key:
                self._track_key = track_key
                self.hp_bar.set_track(damage_track(sheet.damage, status.hp,
                                                   status.thresholds))
            self.pips.set_spent(combatant.actions_spent)
            left = 3 - combatant.actions_spent
            self.pips_label.setText(f"{left} minor action{'s' if left != 1 else ''} left")
            self._fill_others(encounter, campaign, combatant)
            self._show_aim(encounter, campaign, combatant)
            self.stance_combo.setCurrentIndex(self.stance_combo.findData(combatant.stance))
            self.cover_combo.setCurrentIndex(self.cover_combo.findData(combatant.cover))
            self._show_movement(campaign, combatant)
            self._show_task(campaign, encounter, combatant)
            self._show_conditions(sheet, status)
            dying = status.state is WoundState.DYING
            self._show_survival_odds(sheet, dying)
            self.dying_button.setEnabled(dying)
            self.dying_button.setText("Dying roll (due)" if status.dying_roll_due
                                      else "Dying roll")
        finally:
            for widget in widgets:
                widget.blockSignals(False)

    def _fit_narrow_panel(self) -> None:
        """The panel shares a 1280-pixel screen with the turn order: lists shrink to a few
        characters (their full entries drop down) and long lines wrap, instead of the panel
        growing past its tab and clipping its right edge."""
        shrink_lists(self)
        for label in (self.aim_label, self.action_description, self.movement_label):
            label.setWordWrap(True)

    def _show_survival_odds(self, sheet: Character, dying: bool) -> None:
        """'Dying roll: 2d6 DM -8 vs 4 survives 1/36 (2.78%)' on the line under the buttons
        and in the buttons' tooltips, computed from the sheet as it is now."""
        terms = survival_terms(sheet)
        modifier = sum(term.value for term in terms)
        breakdown = terms_text(terms)
        dying_odds = format_percent(success_chance(modifier, DYING_DIFFICULTY))
        massive_odds = format_percent(success_chance(modifier, MASSIVE_DAMAGE_DIFFICULTY))
        dying_text = (f"Dying roll: 2d6 DM {modifier:+d} vs {DYING_DIFFICULTY} survives "
                      f"{dying_odds}")
        massive_text = (f"Massive damage: 2d6 DM {modifier:+d} vs "
                        f"{MASSIVE_DAMAGE_DIFFICULTY} survives {massive_odds}")
        self.survival_odds.show_message(dying_text if dying else massive_text)
        self.dying_button.setToolTip(f"{dying_text} ({breakdown}); failure is death")
        self.massive_button.setToolTip(f"{massive_text} ({breakdown}): survive crippled, "
                                       "or die")

    def _fill_others(self, encounter: Encounter, campaign: Campaign, own: Any) -> None:
        """Aim targets and patients. Both lists hold everyone in the fight and are refilled
        only when the people change; for each combatant their own row is hidden from the
        aim list and marked "(themselves)" as a patient, so a new turn refills nothing."""
        people = [(c.instance.name if c.instance is not None else
                   campaign.combatant_character(c).name, c.id)
                  for c in encounter.combatants if not c.out_of_fight]
        aim, patient = self.aim_target_combo, self.patient_combo
        if people != self._others:
            self._others = people
            for combo in (aim, patient):
                chosen = combo.currentData()
                combo.clear()
                for text, data in people:
                    combo.addItem(text, data)
                combo.setCurrentIndex(max(0, combo.findData(chosen)))
            self._others_own = None
        if own.id != self._others_own:
            names = dict((combatant_id, name) for name, combatant_id in people)
            aim_list = aim.view()
            assert isinstance(aim_list, QListView)
            for combatant_id, is_own in ((self._others_own, False), (own.id, True)):
                row = aim.findData(combatant_id) if combatant_id is not None else -1
                if row < 0:
                    continue
                aim_list.setRowHidden(row, is_own)
                name = names.get(str(combatant_id), "")
                patient.setItemText(row, f"{name} (themselves)" if is_own else name)
            self._others_own = own.id
        if own.aim_target_id:
            index = aim.findData(own.aim_target_id)
        elif aim.currentData() == own.id:
            index = next((i for i in range(aim.count()) if aim.itemData(i) != own.id), -1)
        else:
            index = aim.currentIndex()
        aim.setCurrentIndex(index)

    def _show_aim(self, encounter: Encounter, campaign: Campaign, combatant: Any) -> None:
        """The weapons to aim with (the next attack's, as the resolver has it) and the aim
        built up, with the cap for that weapon."""
        weapons = campaign.combatant_character(combatant).weapons
        combo = self.aim_weapon_combo
        names = [w.name for w in weapons]
        if names != [combo.itemText(i) for i in range(combo.count())]:
            combo.clear()
            combo.addItems(names)
        index = self._view.resolver.next_weapon(combatant.id)
        combo.setCurrentIndex(index if index < len(weapons) else 0)
        weapon = weapons[combo.currentIndex()] if weapons else None
        cap = aim_cap_text(weapon)
        if not combatant.aim or combatant.aim_target_id is None:
            self.aim_label.setText(f"No aim built up ({cap})")
            return
        target = encounter.find_combatant(combatant.aim_target_id)
        name = campaign.combatant_character(target).name if target else "?"
        self.aim_label.setText(f"Aim +{combatant.aim} on {name} (kept across rounds, {cap})")

    def _aim_weapon_chosen(self, index: int) -> None:
        if self._combatant_id is not None and index >= 0:
            self._view.resolver.set_next_weapon(self._combatant_id, index)

    def _show_movement(self, campaign: Campaign, combatant: Any) -> None:
        sheet = campaign.combatant_character(combatant)
        parts = []
        for mode, spaces, metres in fight.movement_options(campaign, combatant):
            button = self.move_buttons[mode]
            kind = mode.action_kind
            if spaces is None or metres is None:
                parts.append(f"{mode.value.capitalize()} —")
                button.setEnabled(False)
                button.setToolTip(f"{mode.value.capitalize()}: not possible now")
            else:
                parts.append(f"{mode.value.capitalize()} {spaces} sp ({float(metres):g} m)")
                button.setEnabled(True)
                button.setToolTip(f"{mode.value.capitalize()} {spaces} spaces "
                                  f"({float(metres):g} m): {kind.label}, {kind.cost} minor")
        self.movement_label.setText(
            " · ".join(parts) + f"\n{sheet.load.value.capitalize()} load, "
            f"{combatant.stance.value} (Ch.6 movement table, 1.5 m spaces)")

    def _show_task(self, campaign: Campaign, encounter: Encounter, combatant: Any) -> None:
        task = combatant.extended_task
        self.task_start.setVisible(task is None)
        self.task_work.setVisible(task is not None)
        self.task_progress.setVisible(task is not None)
        if task is None:
            self.task_label.setText("Nothing under way. First aid takes 30 rounds; each "
                                    "round's roll shortens or lengthens it.")
            return
        target = encounter.find_combatant(task.target_id) if task.target_id else None
        on = f" on {campaign.combatant_character(target).name}" if target else ""
        self.task_label.setText(f"{task.description}{on}: {task.remaining_rounds} of "
                                f"{task.total_rounds} rounds left ({task.rounds_taken} worked)")
        self.task_progress.setRange(0, task.total_rounds)
        self.task_progress.setValue(task.total_rounds - task.remaining_rounds)
        if task.first_aid:
            sheet = campaign.combatant_character(combatant)
            self.work_dm_spin.setValue(fight.first_aid_modifier(sheet))
            self.work_difficulty_spin.setValue(
                first_aid_difficulty(on_self=task.target_id == combatant.id))

    def _show_conditions(self, sheet: Any, status: fight.CombatantStatus) -> None:
        self.conditions_list.clear()
        derived = len(status.conditions) - len(sheet.conditions)
        for number, text in enumerate(status.conditions):
            item = QListWidgetItem(text)
            if number < derived:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip("Follows from the wound state")
                item.setData(VALUE_ROLE, None)
            else:
                item.setData(VALUE_ROLE, number - derived)
            self.conditions_list.addItem(item)
        if status.dying_roll_due:
            item = QListWidgetItem("Dying roll due this round")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.conditions_list.addItem(item)
        if not status.conditions and not status.dying_roll_due:
            item = QListWidgetItem("No conditions")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.conditions_list.addItem(item)

    # --- steps -------------------------------------------------------------------------

    def _run(self, make: _MakePatch) -> bool:
        return self._view.run(make)

    def _current_damage(self, combatant_id: str) -> int | None:
        encounter = self._view.encounter()
        combatant = encounter.find_combatant(combatant_id) if encounter is not None else None
        if combatant is None:
            return None
        return self._view.document.campaign.combatant_character(combatant).damage

    def _id(self) -> str:
        if self._combatant_id is None:
            raise CombatError("select a combatant first")
        return self._combatant_id

    def _describe_action(self) -> None:
        tooltip = self.action_combo.currentData(Qt.ItemDataRole.ToolTipRole)
        self.action_description.setText(str(tooltip or ""))

    def take_action(self, key: str) -> bool:
        """Take an action from the catalog; some open the tool that resolves them."""
        combatant_id = self._combatant_id
        if combatant_id is None:
            self._view.show_message("Select a combatant first")
            return False
        if key == "aim":
            return self.aim()
        moves = {"minor_movement": MovementMode.MOVE, "dash": MovementMode.DASH,
                 "run": MovementMode.RUN}
        if key in moves:
            return self.move_combatant(moves[key])
        if key in ("attack", "defend"):
            self._view.show_attack(attacker_id=combatant_id, defend=key == "defend")
            return True
        if key == "changing_stance":
            self.stance_combo.setFocus()
            self.stance_combo.showPopup()
            return True
        options = [option for check, option in (
            (self.reckless_check, ActionOption.RECKLESS),
            (self.coordinating_check, ActionOption.COORDINATING),
            (self.plan_check, ActionOption.PLAN_WAIT)) if check.isChecked()]
        note = self.note_edit.text()
        done = self._run(lambda c, e: fight.take_action_patch(c, e, combatant_id, key, options,
                                                              note))
        if done:
            self.note_edit.clear()
            for check in (self.reckless_check, self.coordinating_check, self.plan_check):
                check.setChecked(False)
        return done

    def aim(self) -> bool:
        target_id = self.aim_target_combo.currentData()
        encounter = self._view.encounter()
        if target_id is None or encounter is None:
            self._view.show_message("Choose what to aim at")
            return False
        combatant_id = self._id()
        chosen = self.aim_weapon_combo.currentIndex()  # the next attack's weapon
        weapon = chosen if chosen >= 0 else None
        return self._run(lambda c, e: fight.aim_patch(c, e, combatant_id, target_id, weapon))

    def move_combatant(self, mode: MovementMode) -> bool:
        """Not ``move``: that is QWidget.move, which Qt and layouts call with a point."""
        combatant_id = self._id()
        return self._run(lambda c, e: fight.move_patch(c, e, combatant_id, mode))

    def _side_chosen(self) -> None:
        side = Side(self.side_combo.currentData())
        combatant_id = self._id()
        self._run(lambda c, e: fight.set_side_patch(c, e, combatant_id, side))

    def _out_toggled(self, checked: bool) -> None:
        combatant_id = self._id()
        if not self._run(lambda c, e: fight.set_out_of_fight_patch(c, e, combatant_id,
                                                                    checked)):
            self.refresh()

    def _damage_requested(self, value: int, merge: bool) -> None:
        """One press-and-drag of the HP bar is one gesture: one undo step, one log line."""
        combatant_id = self._id()
        if not merge or self._gesture_start is None:
            self._gesture_serial += 1
            self._gesture_start = self._current_damage(combatant_id)
        gesture, start = str(self._gesture_serial), self._gesture_start
        self._run(lambda c, e: fight.set_damage_patch(c, e, combatant_id, value, gesture,
                                                      start))

    def _stance_chosen(self) -> None:
        stance = self.stance_combo.currentData()
        combatant_id = self._id()
        if not self._run(lambda c, e: fight.stance_patch(c, e, combatant_id, stance)):
            self.refresh()

    def _cover_chosen(self) -> None:
        cover = self.cover_combo.currentData()
        combatant_id = self._id()
        self._run(lambda c, e: fight.set_cover_patch(c, e, combatant_id, cover))

    def start_task(self) -> bool:
        combatant_id = self._id()
        description = self.task_desc_edit.text().strip() or "Extended action"
        patient = self.patient_combo.currentData()
        first_aid = self.first_aid_check.isChecked()
        rounds = self.task_rounds_spin.value()
        encounter = self._view.encounter()
        if first_aid and encounter is not None and patient is not None and \
                not description.casefold().startswith("first aid on"):
            target = encounter.find_combatant(patient)
            if target is not None and description.casefold() == "first aid":
                name = self._view.document.campaign.combatant_character(target).name
                description = f"First Aid on {name}"
        return self._run(lambda c, e: fight.start_task_patch(
            c, e, combatant_id, description, rounds, patient, first_aid))

    def work_task(self, dice_text: str | None) -> bool:
        combatant_id = self._id()
        modifier = self.work_dm_spin.value()
        difficulty = self.work_difficulty_spin.value()
        try:
            if dice_text is None:
                check = roll_check(self._view.rng, modifier, difficulty)
            else:
                check = check_from_dice(fight.parse_dice_values(dice_text, 2), modifier,
                                        difficulty)
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        done = self._run(lambda c, e: fight.work_task_patch(c, e, combatant_id, check))
        if done:
            self.work_dice_edit.clear()
        return done

    def abort_task(self) -> bool:
        combatant_id = self._id()
        return self._run(lambda c, e: fight.abort_task_patch(c, e, combatant_id))

    def add_condition(self) -> bool:
        combatant_id = self._id()
        kind = ConditionKind(self.condition_combo.currentData())
        detail = self.condition_detail.text()
        done = self._run(lambda c, e: fight.add_condition_patch(c, e, combatant_id, kind,
                                                                detail))
        if done:
            self.condition_detail.clear()
        return done

    def remove_condition(self) -> bool:
        item = self.conditions_list.currentItem()
        index = item.data(VALUE_ROLE) if item is not None else None
        if index is None:
            self._view.show_message("Select one of the combatant's own conditions to remove")
            return False
        combatant_id = self._id()
        return self._run(lambda c, e: fight.remove_condition_patch(c, e, combatant_id,
                                                                   int(index)))

    def survival_roll(self, dying: bool) -> bool:
        combatant_id = self._id()
        text = self.survival_dice_edit.text().strip()
        try:
            dice = fight.parse_dice_values(text, 2) if text else None
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        rng = self._view.rng
        make = fight.dying_roll_patch if dying else fight.massive_damage_patch
        done = self._run(lambda c, e: make(c, e, combatant_id, rng, dice))
        if done:
            self.survival_dice_edit.clear()
        return done


# ===================================================================== the view


_VIEW_ONLY_KEYS = frozenset({"Del", "Ctrl+Up", "Ctrl+Down"})


class EncounterView(QWidget):
    """The encounter screen. ``rng`` is the generator every in-app roll uses (inject a
    seeded one to replay a fight)."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("encounter_view")
        self.document = document
        self.rng = rng if rng is not None else random.Random()
        self.ask: Callable[[QMessageBox], object] = QMessageBox.exec
        """Shows a question and waits (tests answer it instead)."""
        self._encounter_id: str | None = None
        self._last_current: str | None = None
        self.initiative_dialog: InitiativeDialog | None = None
        self.tactics_dialog: TacticsDialog | None = None
        self.adversaries_dialog: AddAdversariesDialog | None = None
        self.characters_dialog: AddCharactersDialog | None = None
        self.turn_model = TurnOrderModel(document, self)
        self.log_model = EncounterLogModel(document, self)
        self._build()
        document.encounter_changed.connect(self._encounter_changed)
        self._panel_refresh = QTimer(self)
        self._panel_refresh.setSingleShot(True)
        self._panel_refresh.setInterval(0)
        self._panel_refresh.timeout.connect(lambda: self.panel.refresh())
        document.character_changed.connect(lambda _id: self._panel_refresh.start())
        document.structure_changed.connect(self._structure_changed)
        self.turn_model.refused.connect(self.show_message)
        self.turn_model.edit_accepted.connect(lambda: self.show_message(""))
        self.set_encounter(None)

    # --- layout ------------------------------------------------------------------------

    def _action(self, text: str, slot: Callable[[], object], keys: str | None = None,
                tip: str = "", name: str = "") -> QAction:
        action = QAction(text, self)
        action.setObjectName(name or text.lower().replace(" ", "_").strip("…."))
        if keys:
            action.setShortcut(QKeySequence(keys))
            # The turn keys work whenever the encounter shows, focus in the navigator or not
            # (Qt keeps a window shortcut to visible widgets); keys the navigator uses for
            # itself (Del, Ctrl+arrows) stay with the view, or neither would fire.
            context = (Qt.ShortcutContext.WidgetWithChildrenShortcut
                       if keys in _VIEW_ONLY_KEYS else Qt.ShortcutContext.WindowShortcut)
            action.setShortcutContext(context)
        shown = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) if keys \
            else ""
        action.setToolTip(f"{tip or text} ({shown})" if shown else (tip or text))
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)

        header = QHBoxLayout()
        self.title_label = QLabel(objectName="encounter_title")
        title_font = QFont(self.title_label.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.35)
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        self.round_label = QLabel(objectName="round_label")
        self.round_label.setFont(title_font)
        self.turn_label = QLabel(objectName="turn_label")
        set_rich_text(self.turn_label, "")
        header.addWidget(self.title_label)
        header.addSpacing(16)
        header.addWidget(self.round_label)
        header.addSpacing(16)
        header.addWidget(self.turn_label, 1)
        self.auto_dying_check = QCheckBox("Roll dying checks each round",
                                          objectName="auto_dying")
        self.auto_dying_check.setChecked(True)
        self.auto_dying_check.setToolTip("At the start of each round the app rolls END vs 4 "
                                         "for everyone dying; untick to enter the table's dice "
                                         "in the combatant panel")
        header.addWidget(self.auto_dying_check)
        layout.addLayout(header)

        self.toolbar = QToolBar("Encounter", self)
        self.toolbar.setObjectName("encounter_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.start_action = self._action("Start", self.start_encounter, None,
                                         "Begin round 1 with the highest initiative")
        self.previous_action = self._action("Previous", self.previous_turn, "Shift+N",
                                            "Previous turn in this round")
        self.next_action = self._action("Next turn", self.next_turn, "N",
                                        "Pass the turn to the next combatant")
        self.delay_action = self._action("Delay", self.delay, "D",
                                         "The current combatant holds their turn")
        self.end_round_action = self._action("End round", self.end_round, "E",
                                             "Declare the round over: actions come back, "
                                             "bleeding and dying tick")
        self.end_action = self._action("End fight", self.end_encounter, None,
                                       "End the encounter")
        self.initiative_action = self._action("Initiative…", self.open_initiative_dialog, "R",
                                              "Roll initiative for everyone or an ambush",
                                              "roll_initiative")
        self.tactics_action = self._action("Tactics…", self.open_tactics_dialog, "T",
                                           "A Tactics check adds its Effect to a unit's "
                                           "initiative", "tactics")
        self.earlier_action = self._action("Tie ↑", lambda: self.move_in_tie(-1), "Ctrl+Up",
                                           "Act earlier among those tied on initiative",
                                           "tie_earlier")
        self.later_action = self._action("Tie ↓", lambda: self.move_in_tie(1), "Ctrl+Down",
                                         "Act later among those tied on initiative",
                                         "tie_later")
        self.add_characters_action = self._action(
            "Add characters…", self.open_add_characters_dialog, "Shift+Ins",
            "Bring player characters and NPCs into the fight", "add_characters")
        self.add_adversaries_action = self._action(
            "Add adversaries…", self.open_add_adversaries_dialog, "Ins",
            "Add numbered copies of a library template", "add_adversaries")
        self.remove_action = self._action("Remove", self.remove_selected, "Del",
                                          "Remove the selected combatants")
        self.attack_action = self._action("Attack", lambda: self.show_attack(), "A",
                                          "Open the attack resolver for whose turn it is")
        for action in (self.start_action, self.previous_action, self.next_action,
                       self.delay_action, self.end_round_action, self.end_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        for action in (self.initiative_action, self.tactics_action, self.earlier_action,
                       self.later_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        for action in (self.add_characters_action, self.add_adversaries_action,
                       self.remove_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.attack_action)
        layout.addWidget(self.toolbar)

        self.message_label = StatusLine("encounter_message")
        layout.addWidget(self.message_label)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QSplitter(Qt.Orientation.Vertical)
        self.turn_view = QTableView(objectName="turn_order")
        self.turn_view.setAccessibleName("Turn order")
        self.turn_view.setModel(self.turn_model)
        painter_delegate = _TurnOrderDelegate(self.turn_view)
        for column in (TurnOrderModel.COL_ACTIONS, TurnOrderModel.COL_HP):
            self.turn_view.setItemDelegateForColumn(column, painter_delegate)
        self.turn_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.turn_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.turn_view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                       | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.turn_view.verticalHeader().hide()
        self.turn_view.verticalHeader().setDefaultSectionSize(
            int(self.fontMetrics().height() * 1.7))
        self.turn_view.setWordWrap(False)
        self.turn_view.setAlternatingRowColors(True)
        header_view = self.turn_view.horizontalHeader()
        header_view.setStretchLastSection(True)
        widths = {TurnOrderModel.COL_TURN: 2.6, TurnOrderModel.COL_INIT: 5.2,
                  TurnOrderModel.COL_NAME: 10, TurnOrderModel.COL_ACTIONS: 4.6,
                  TurnOrderModel.COL_HP: 11.5, TurnOrderModel.COL_STATE: 8.5,
                  TurnOrderModel.COL_CONDITIONS: 11, TurnOrderModel.COL_AIM: 6.5,
                  TurnOrderModel.COL_STANCE: 7}
        em = self.fontMetrics().horizontalAdvance("m")
        for column, width in widths.items():
            header_view.resizeSection(column, int(width * em))
        self.turn_view.setToolTip("Double-click (or F2) an initiative to type a value or the "
                                  "two dice rolled at the table")
        left.addWidget(self.turn_view)

        log_box = QWidget()
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        log_title = QLabel()
        set_rich_text(log_title, "<b>Log</b>")
        row.addWidget(log_title)
        self.log_filter_edit = QLineEdit(objectName="log_filter")
        self.log_filter_edit.setPlaceholderText("Filter the log (words)")
        self.log_filter_edit.setAccessibleName("Filter the log")
        self.log_filter_edit.setClearButtonEnabled(True)
        self.log_person_combo = QComboBox(objectName="log_person")
        self.log_person_combo.setToolTip("Only entries this combatant acted in or suffered")
        self.export_button = QPushButton("Export…", objectName="export_log")
        self.export_button.setToolTip("Save the log (as filtered) as a text file")
        row.addWidget(self.log_filter_edit, 1)
        row.addWidget(self.log_person_combo)
        row.addWidget(self.export_button)
        log_layout.addLayout(row)
        self.log_view = QTableView(objectName="encounter_log")
        self.log_view.setAccessibleName("Encounter log")
        self.log_view.setModel(self.log_model)
        self.log_view.verticalHeader().hide()
        self.log_view.setWordWrap(False)
        self.log_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.log_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.log_view.horizontalHeader().setStretchLastSection(True)
        log_widths = (2.5, 9, 11, 9, 8, 4, 7, 16)
        for column, width in enumerate(log_widths):
            self.log_view.horizontalHeader().resizeSection(column, int(width * em))
        self.log_view.verticalHeader().setDefaultSectionSize(
            int(self.fontMetrics().height() * 1.4))
        log_layout.addWidget(self.log_view)
        self.note_edit = QLineEdit(objectName="log_note")
        self.note_edit.setPlaceholderText("Add a note to the log (Enter)")
        self.note_edit.setAccessibleName("Note for the log")
        self.note_edit.setToolTip("A referee's note, logged in this round (undoable)")
        log_layout.addWidget(self.note_edit)
        left.addWidget(log_box)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        splitter.addWidget(left)

        self.tabs = QTabWidget(objectName="encounter_tabs")
        self.panel = CombatantPanel(self)
        self.resolver = AttackResolver(self.document, self.rng, self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.panel)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tabs.addTab(scroll, "Combatant")
        self.tabs.addTab(self.resolver, "Attack")
        # The panel never scrolls sideways, so the tabs must be at least as wide as it needs.
        scrollbar = scroll.verticalScrollBar().sizeHint().width()
        self.tabs.setMinimumWidth(max(int(30 * em),
                                      self.panel.minimumSizeHint().width() + scrollbar + 12))
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([860, 420])
        self.splitter = splitter
        layout.addWidget(splitter, 1)

        self.placeholder = QLabel(objectName="encounter_placeholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        set_rich_text(self.placeholder, "<h2>No encounter</h2><p>Choose an encounter in the "
                      "navigator.</p>")
        self.placeholder.setSizePolicy(QSizePolicy.Policy.Expanding,
                                       QSizePolicy.Policy.Expanding)
        layout.addWidget(self.placeholder, 1)

        self.turn_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.log_filter_edit.textChanged.connect(self.log_model.set_text)
        self.log_person_combo.currentIndexChanged.connect(
            lambda: self.log_model.set_person(self.log_person_combo.currentData()))
        self.export_button.clicked.connect(self._export_clicked)
        self.note_edit.returnPressed.connect(self.add_note)
        self.log_model.rowsInserted.connect(lambda *_: self.log_view.scrollToBottom())
        self.resolver.message.connect(self.show_message)
        self.resolver.weapon_chosen.connect(lambda _id: self.panel.refresh())
        self.resolver.applied.connect(lambda text: self.show_message(f"Applied: {text}"))

    # --- encounter ---------------------------------------------------------------------

    def encounter_id(self) -> str | None:
        return self._encounter_id

    def encounter(self) -> Encounter | None:
        return self.document.encounter(self._encounter_id)

    def set_encounter(self, encounter_id: str | None) -> None:
        """Show ``encounter_id`` (None: nothing)."""
        if encounter_id is not None and self.document.campaign.find_encounter(
                encounter_id) is None:
            encounter_id = None
        self._encounter_id = encounter_id
        shown = encounter_id is not None
        self.splitter.setVisible(shown)
        self.toolbar.setVisible(shown)
        self.placeholder.setVisible(not shown)
        for action in self.actions():
            action.setEnabled(shown)
        self.turn_model.set_encounter(encounter_id)
        self.log_model.set_encounter(encounter_id)
        self.resolver.set_encounter(encounter_id)
        self.show_message("")
        self._last_current = None
        self._fill_people()
        self._encounter_changed(encounter_id or "")
        encounter = self.encounter()
        if encounter is not None and self.turn_model.current_row() < 0 and \
                self.turn_model.rowCount():
            self.select_combatant(self.turn_model.combatant_id(0) or "")

    def _structure_changed(self) -> None:
        if self._encounter_id is not None and self.encounter() is None:
            self.set_encounter(None)

    def _encounter_changed(self, encounter_id: str) -> None:
        if encounter_id != self._encounter_id:
            return
        encounter = self.encounter()
        if encounter is None:
            self.title_label.setText("")
            self.round_label.setText("")
            self.turn_label.setText("")
            self.panel.set_combatant(None)
            return
        self.title_label.setText(encounter.name)
        current = encounter.current_combatant
        if not encounter.started:
            self.round_label.setText("Setting up")
            self.turn_label.setText(
                "Roll initiative (R), then Start" if encounter.combatants else
                "Add characters (Shift+Ins) and adversaries (Ins)")
        elif encounter.ended:
            self.round_label.setText(f"Ended in round {encounter.round}")
            self.turn_label.setText("")
        else:
            self.round_label.setText(f"Round {encounter.round}")
            if current is not None:
                name = self.document.campaign.combatant_character(current).name
                place = encounter.initiative_order().index(current) + 1
                set_rich_text(self.turn_label, "Turn: <b>{}</b> ({} of {})", name, place,
                              len(encounter.initiative_order()))
        current_id = current.id if current is not None else None
        self._panel_refresh.stop()
        shown = self.panel.combatant_id
        if current_id != self._last_current:
            self._last_current = current_id
            if current_id is not None:
                self.select_combatant(current_id)
        if self.panel.combatant_id != shown:
            pass  # the selection moved and the panel was filled for it just now
        elif shown is not None and encounter.find_combatant(shown) is None:
            self.panel.set_combatant(self.selected_combatant_id())
        else:
            self.panel.refresh()
        if self.log_person_combo.count() != len(encounter.combatants) + 1:
            self._fill_people()

    def _fill_people(self) -> None:
        encounter = self.encounter()
        chosen = self.log_person_combo.currentData()
        self.log_person_combo.blockSignals(True)
        self.log_person_combo.clear()
        self.log_person_combo.addItem("Everyone", None)
        if encounter is not None:
            for combatant in encounter.combatants:
                name = self.document.campaign.combatant_character(combatant).name
                self.log_person_combo.addItem(name, name)
        self.log_person_combo.setCurrentIndex(max(0, self.log_person_combo.findData(chosen)))
        self.log_person_combo.blockSignals(False)

    # --- selection ---------------------------------------------------------------------

    def selected_combatant_id(self) -> str | None:
        index = self.turn_view.currentIndex()
        return self.turn_model.combatant_id(index.row()) if index.isValid() else None

    def selected_combatant_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.turn_view.selectionModel().selectedRows()})
        ids = [self.turn_model.combatant_id(row) for row in rows]
        return [i for i in ids if i is not None]

    def select_combatant(self, combatant_id: str) -> None:
        row = self.turn_model.row_of(combatant_id)
        if row < 0:
            return
        index = self.turn_model.index(row, TurnOrderModel.COL_NAME)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | \
            QItemSelectionModel.SelectionFlag.Rows
        self.turn_view.selectionModel().setCurrentIndex(index, flags)
        self.turn_view.scrollTo(index)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        combatant_id = self.turn_model.combatant_id(current.row()) if current.isValid() else None
        if combatant_id != self.panel.combatant_id:
            self.panel.set_combatant(combatant_id)

    # --- running steps -----------------------------------------------------------------

    def show_message(self, text: str) -> None:
        """Tell the referee why something was refused (or what just happened)."""
        self.message_label.show_message(text)

    def run(self, make: _MakePatch) -> bool:
        """Build a step from the current encounter and push it; refusals become messages."""
        encounter = self.encounter()
        if encounter is None:
            self.show_message("Choose an encounter first")
            return False
        try:
            patch = make(self.document.campaign, encounter)
        except ValueError as exc:
            self.show_message(str(exc))
            return False
        self.show_message("")
        push_patch(self.document, patch)
        return True

    @property
    def auto_dying(self) -> bool:
        return self.auto_dying_check.isChecked()

    def start_encounter(self) -> bool:
        return self.run(fight.start_patch)

    def next_turn(self) -> bool:
        return self.run(lambda c, e: fight.next_turn_patch(c, e, self.rng, self.auto_dying))

    def previous_turn(self) -> bool:
        return self.run(fight.previous_turn_patch)

    def end_round(self) -> bool:
        return self.run(lambda c, e: fight.end_round_patch(c, e, self.rng, self.auto_dying))

    def delay(self) -> bool:
        return self.run(lambda c, e: fight.delay_patch(c, e, self.rng, self.auto_dying))

    def end_encounter(self) -> bool:
        """End the fight; anyone left dying, bleeding, stabilised or mid-task is listed
        and the referee confirms first (the list goes to the log with the end)."""
        encounter = self.encounter()
        if encounter is not None and encounter.started and not encounter.ended:
            ends = fight.loose_ends(self.document.campaign, encounter)
            if ends and not self._confirm_end(ends):
                self.show_message("The fight goes on")
                return False
        return self.run(fight.end_encounter_patch)

    def _confirm_end(self, ends: tuple[str, ...]) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, "End fight?",
                          "Some combatants still need the rules after this fight:",
                          QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("end_fight_confirm")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText("\n".join(ends) + "\n\nEnd the fight anyway? The list goes "
                               "to the log.")
        end = box.addButton("End fight", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Keep fighting", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(end)
        self.ask(box)
        return box.clickedButton() is end

    def roll_initiative(self, skill: str | None = None, only_missing: bool = False) -> bool:
        return self.run(lambda c, e: fight.roll_initiative_patch(c, e, self.rng, skill,
                                                                 only_missing))

    def ambush(self, prepared: Side, skill: str | None = None) -> bool:
        return self.run(lambda c, e: fight.ambush_patch(c, e, prepared, self.rng, skill))

    def move_in_tie(self, step: int) -> bool:
        combatant_id = self.selected_combatant_id()
        if combatant_id is None:
            self.show_message("Select a combatant tied on initiative")
            return False
        done = self.run(lambda c, e: fight.move_in_ties_patch(c, e, combatant_id, step))
        if done:
            self.select_combatant(combatant_id)
        return done

    def add_adversaries(self, template_id: str, count: int, side: Side = Side.ENEMIES) -> bool:
        template = self.document.campaign.find_template(template_id)
        if template is None:
            self.show_message("That template is no longer in the library")
            return False
        return self.run(lambda c, e: fight.add_adversaries_patch(c, e, template, count, side))

    def add_characters(self, character_ids: list[str], side: Side = Side.PLAYERS) -> bool:
        return self.run(lambda c, e: fight.add_characters_patch(c, e, character_ids, side))

    def remove_selected(self) -> bool:
        ids = self.selected_combatant_ids()
        if not ids:
            self.show_message("Select the combatants to remove")
            return False
        return self.run(lambda c, e: fight.remove_combatants_patch(c, e, ids))

    def show_attack(self, attacker_id: str | None = None, defend: bool = False) -> None:
        """Switch to the resolver: the attacker is whose turn it is (or ``attacker_id``);
        a different selected row becomes the target."""
        encounter = self.encounter()
        if encounter is None:
            return
        current = encounter.current_combatant
        selected = self.selected_combatant_id()
        attacker = attacker_id or (current.id if current is not None else selected)
        self.resolver.set_attacker(attacker)
        mode = self.resolver.mode_combo
        mode.setCurrentIndex(1 if defend else 0)
        if selected is not None and selected != attacker:
            self.resolver.suggest_target(selected)  # only an opponent who can act
        self.tabs.setCurrentIndex(1)
        self.resolver.targets_view.setFocus()

    # --- dialogs -----------------------------------------------------------------------

    def open_initiative_dialog(self) -> InitiativeDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        campaign = self.document.campaign
        skills = sorted({skill.label for c in encounter.combatants
                         for skill in campaign.combatant_character(c).skills}
                        | {"Recon", "Tactics"})
        dialog = InitiativeDialog(skills, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.initiative_dialog = dialog

        def accepted() -> None:
            skill = dialog.skill
            self.turn_model.initiative_skill = skill
            side = dialog.ambush_combo.currentData()
            if side is None:
                self.roll_initiative(skill, dialog.only_missing_check.isChecked())
            else:
                self.ambush(Side(side), skill)

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def open_tactics_dialog(self) -> TacticsDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        dialog = TacticsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fill(self.document.campaign, encounter, self.selected_combatant_id())
        self.tactics_dialog = dialog

        def accepted() -> None:
            leader = dialog.leader_combo.currentData()
            difficulty = int(dialog.difficulty_combo.currentData())
            modifier = dialog.dm_spin.value()
            text = dialog.dice_edit.text().strip()
            try:
                check: CheckResult = (
                    check_from_dice(fight.parse_dice_values(text, 2), modifier, difficulty)
                    if text else roll_check(self.rng, modifier, difficulty))
            except ValueError as exc:
                self.show_message(str(exc))
                return
            units = dialog.unit_ids()
            self.run(lambda c, e: fight.tactics_patch(c, e, leader, difficulty, check, units))

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def open_add_adversaries_dialog(self) -> AddAdversariesDialog | None:
        if self.encounter() is None:
            return None
        if not self.document.campaign.adversary_library:
            self.show_message("The adversary library is empty: add a template first")
            return None
        dialog = AddAdversariesDialog(self.document.campaign, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.adversaries_dialog = dialog
        dialog.accepted.connect(lambda: self.add_adversaries(
            str(dialog.template_combo.currentData()), dialog.count_spin.value(),
            Side(dialog.side_combo.currentData())))
        dialog.open()
        return dialog

    def open_add_characters_dialog(self) -> AddCharactersDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        dialog = AddCharactersDialog(self.document.campaign, encounter, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.characters_dialog = dialog
        dialog.accepted.connect(lambda: self.add_characters(
            dialog.chosen_ids(), Side(dialog.side_combo.currentData())))
        dialog.open()
        return dialog

    # --- log ---------------------------------------------------------------------------

    def add_note(self) -> bool:
        text = self.note_edit.text()
        done = self.run(lambda c, e: fight.note_patch(c, e, text))
        if done:
            self.note_edit.clear()
        return done

    def log_text(self) -> str:
        """The log as shown (filters applied) as plain text."""
        encounter = self.encounter()
        if encounter is None:
            return ""
        return fight.log_as_text(encounter, self.log_model.visible_entries())

    def export_log(self, path: Path) -> bool:
        """Write the shown log to ``path`` atomically (never a half-written file)."""
        try:
            atomic_write(path, self.log_text().encode("utf-8"))
        except OSError as exc:
            self.show_message(f"Could not save the log to {path}: {exc.strerror or exc}")
            return False
        self.show_message(f"Log saved to {path}")
        return True

    def _export_clicked(self) -> None:
        encounter = self.encounter()
        if encounter is None:
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export the encounter log",
                                              f"{encounter.name} log.txt", "Text (*.txt)")
        if name:
            self.export_log(Path(name))
