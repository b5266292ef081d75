"""The character sheet: one character's identity, characteristics, damage, gear and notes.

Shows any character sheet the document knows (a player character, an NPC, an adversary
template's stat block, an encounter instance). Every field edits through
:func:`~mneme_desktop.ui.commands.edit_character`, so each change is one undoable step, the
domain model validates it, and a refusal is explained where it happened. The view only ever
shows the document: after an edit (or an undo) it refreshes from the character the document
holds, and every derived number (ChM, UPP, HP, wound state, penalty, thresholds) is asked of
the domain and rules core, never computed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QObject,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QFont, QImage, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import (
    CHARACTERISTIC_CODES,
    MAX_CHARACTERISTIC,
    MAX_PORTRAIT_BYTES,
    Character,
    Characteristic,
    CharacteristicDamage,
    Characteristics,
    CharacterKind,
    ConditionKind,
    Portrait,
)
from mneme_desktop.rules.actions import Load
from mneme_desktop.rules.checks import UNSKILLED, characteristic_modifier
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import wound_effects
from mneme_desktop.ui.commands import edit_character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.roles import SORT_ROLE
from mneme_desktop.ui.models.sheet_models import (
    ArmorTableModel,
    CharacterItemsModel,
    ConditionsTableModel,
    CoverTableModel,
    SkillsTableModel,
    WeaponsTableModel,
    describe_error,
    format_modifier,
)
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox
from mneme_desktop.ui.widgets.box_chart import DamageBoxChart
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar
from mneme_desktop.ui.widgets.notes_edit import NotesEdit
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.status_line import StatusLine

__all__ = ["KIND_LABELS", "NOTES_COMMIT_DELAY_MS", "CharacterSheetView", "sniff_image_type"]

NOTES_COMMIT_DELAY_MS = 800
"""Notes are committed after this pause in typing: one undo step per burst of typing."""

KIND_LABELS = {
    CharacterKind.PLAYER: "Player character",
    CharacterKind.NPC: "NPC",
    CharacterKind.ADVERSARY: "Adversary",
}

_LOAD_LABELS = {Load.LIGHT: "Light", Load.MEDIUM: "Medium", Load.HEAVY: "Heavy"}

_CHARACTERISTIC_NAMES = {
    Characteristic.STR: "Strength",
    Characteristic.DEX: "Dexterity",
    Characteristic.END: "Endurance",
    Characteristic.INT: "Intelligence",
    Characteristic.EDU: "Education",
    Characteristic.SOC: "Social Standing",
    Characteristic.PSI: "Psionic Strength",
}

_ERROR_STYLE = "color: #b71c1c;"
_RANGE_REFUSAL = re.compile(r" runs from -?\d+ to -?\d+$")
"""How :meth:`BoundedSpinBox.refusal` ends: the refusal of a keystroke, not of an edit."""
_PORTRAIT_SIZE = 128
_SPACING = 8
_MAX_TABLE_ROWS = 12


def sniff_image_type(raw: bytes) -> str | None:
    """The media type of image bytes from their signature, or None if not one we keep."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if raw.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if raw.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    return None


def _small_label(text: str = "") -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
    label.setFont(font)
    label.setStyleSheet("color: palette(placeholder-text);")
    label.setWordWrap(True)
    return label


def _table(object_name: str) -> QTableView:
    view = QTableView()
    view.setObjectName(object_name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setEditTriggers(
        QAbstractItemView.EditTrigger.DoubleClicked
        | QAbstractItemView.EditTrigger.EditKeyPressed
        | QAbstractItemView.EditTrigger.AnyKeyPressed
        | QAbstractItemView.EditTrigger.SelectedClicked
    )
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return view


def _fit_table_height(view: QTableView) -> None:
    """Tall enough for every row and one spare, so the sheet scrolls, not each table."""
    rows = min(view.model().rowCount() + 1, _MAX_TABLE_ROWS)
    height = (view.horizontalHeader().sizeHint().height()
              + max(rows, 2) * view.verticalHeader().defaultSectionSize()
              + 2 * view.frameWidth())
    view.setFixedHeight(height)


class CharacterSheetView(QWidget):
    """Shows and edits the character with the given id; an empty state when there is none."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("characterSheetView")
        self._document = document
        self._character_id: str | None = None
        self._updating = False
        self._drag_serial = 0
        self._notes_pending = False
        self._notes_character_id: str | None = None

        self.spin_boxes: dict[str, QSpinBox] = {}
        self.damage_spin_boxes: dict[str, QSpinBox] = {}
        self.current_labels: dict[str, QLabel] = {}
        self.chm_labels: dict[str, QLabel] = {}

        self.delegates: dict[str, SheetItemDelegate] = {}
        self.skills_model = SkillsTableModel(document, parent=self)
        self.weapons_model = WeaponsTableModel(document, parent=self)
        self.armor_model = ArmorTableModel(document, parent=self)
        self.cover_model = CoverTableModel(document, parent=self)
        self.conditions_model = ConditionsTableModel(document, parent=self)
        self.skills_proxy = QSortFilterProxyModel(self)
        self.skills_proxy.setObjectName("skillsProxy")
        self.skills_proxy.setSourceModel(self.skills_model)
        self.skills_proxy.setSortRole(SORT_ROLE)
        self.skills_proxy.setDynamicSortFilter(True)
        self.skills_proxy.sort(0, Qt.SortOrder.AscendingOrder)

        self._build()
        self._connect()
        self.notes_timer = QTimer(self)
        self.notes_timer.setObjectName("notesTimer")
        self.notes_timer.setSingleShot(True)
        self.notes_timer.setInterval(NOTES_COMMIT_DELAY_MS)
        self.notes_timer.timeout.connect(self.flush_pending_edits)
        self._refresh()

    # --- public API ------------------------------------------------------------------------

    def set_character(self, character_id: str | None) -> None:
        """Show the character with this id (None: nothing), committing pending notes first."""
        self.flush_pending_edits()
        changed = character_id != self._character_id
        self._character_id = character_id
        for model in self._models():
            model.set_character(character_id)
        self.name_edit.setModified(False)
        self.player_edit.setModified(False)
        self._show_name_error("")
        self.clear_message()
        self._refresh()
        if changed:  # another character opens at the top of its sheet
            self.scroll_area.verticalScrollBar().setValue(0)
            self.scroll_area.horizontalScrollBar().setValue(0)

    def character_id(self) -> str | None:
        return self._character_id

    def character(self) -> Character | None:
        if self._character_id is None:
            return None
        return self._document.character(self._character_id)

    def flush_pending_edits(self) -> None:
        """Commit notes typed but not yet committed (call before saving or closing)."""
        self.notes_timer.stop()
        if not self._notes_pending:
            return
        self._notes_pending = False
        character_id = self._notes_character_id
        text = self.notes_edit.toPlainText()
        character = self._document.character(character_id) if character_id else None
        if character is None or character.notes == text:
            return
        self._commit("Edit notes", lambda c: setattr(c, "notes", text), character=character)

    def show_message(self, text: str) -> None:
        """Explain a refusal in the sheet's message line."""
        self.message_line.show_message(text)

    def clear_message(self) -> None:
        self.message_line.show_message("")

    def _clear_refusal(self) -> None:
        """A keystroke a number field took: an earlier refusal no longer applies."""
        if _RANGE_REFUSAL.search(self.message_line.message()):
            self.clear_message()

    def set_portrait_from_file(self, path: Path) -> bool:
        """Keep the image at ``path`` as the portrait; refuse non-images and large files."""
        try:
            size = path.stat().st_size
            if size > MAX_PORTRAIT_BYTES:
                self.show_message(
                    f"{path.name} is {size / (1024 * 1024):.1f} MiB; a portrait can be at most "
                    f"{MAX_PORTRAIT_BYTES // (1024 * 1024)} MiB because it is kept inside the "
                    "campaign file. Choose a smaller image."
                )
                return False
            raw = path.read_bytes()
        except OSError as exc:
            self.show_message(f"Could not read {path.name}: {exc.strerror or exc}")
            return False
        media_type = sniff_image_type(raw)
        if media_type is None or QImage.fromData(raw).isNull():
            self.show_message(f"{path.name} is not a PNG, JPEG, GIF or WebP image.")
            return False
        try:
            portrait = Portrait.from_bytes(raw, media_type)
        except (ValidationError, ValueError) as exc:
            self.show_message(f"{path.name}: {describe_error(exc)}")
            return False
        return self._commit("Set portrait", lambda c: setattr(c, "portrait", portrait))

    # --- building --------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.stack = QStackedWidget(self)
        self.stack.setObjectName("sheetStack")
        outer.addWidget(self.stack)

        self.empty_label = QLabel()
        self.empty_label.setObjectName("sheetEmptyLabel")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setMargin(24)
        self.stack.addWidget(self.empty_label)

        page = QWidget()
        page.setObjectName("sheetPage")
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(_SPACING, _SPACING, _SPACING, 0)
        page_layout.setSpacing(_SPACING // 2)
        self.title_label = QLabel()
        self.title_label.setObjectName("sheetTitle")
        title_font = QFont(self.title_label.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.4)
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        self.subtitle_label = _small_label()
        self.subtitle_label.setObjectName("sheetSubtitle")
        # A fixed line, blank when there is nothing to say: a message never moves the sheet.
        self.message_line = StatusLine("sheetMessage")
        self.message_label = self.message_line
        page_layout.addWidget(self.title_label)
        page_layout.addWidget(self.subtitle_label)
        page_layout.addWidget(self.message_line)

        self.scroll_area = QScrollArea()
        self.scroll_area.setObjectName("sheetScrollArea")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        body.setObjectName("sheetBody")
        self.body = body
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, _SPACING, _SPACING)
        body_layout.setSpacing(_SPACING)
        self.scroll_area.setWidget(body)
        page_layout.addWidget(self.scroll_area, 1)
        self.stack.addWidget(page)

        body_layout.addWidget(self._build_identity())

        middle = QHBoxLayout()
        middle.setSpacing(_SPACING)
        middle.addWidget(self._build_characteristics())
        middle.addWidget(self._build_hit_points(), 1)
        body_layout.addLayout(middle)

        body_layout.addWidget(self._build_track())
        body_layout.addWidget(self._build_skills())
        body_layout.addWidget(self._build_weapons())
        protection = QHBoxLayout()
        protection.setSpacing(_SPACING)
        protection.addWidget(self._build_armor(), 1)
        protection.addWidget(self._build_cover(), 1)
        body_layout.addLayout(protection)
        body_layout.addWidget(self._build_conditions())
        body_layout.addWidget(self._build_notes())
        body_layout.addStretch(1)

    def _build_identity(self) -> QGroupBox:
        box = QGroupBox("Identity")
        box.setObjectName("identityGroup")
        row = QHBoxLayout(box)
        row.setSpacing(_SPACING * 2)
        form = QFormLayout()
        form.setSpacing(_SPACING // 2 + 2)
        row.addLayout(form, 1)
        row.addLayout(self._build_portrait())
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("nameEdit")
        self.name_edit.setMaxLength(200)
        self.name_error = StatusLine("nameErrorLabel")
        self.name_error_label = self.name_error
        name_box = QVBoxLayout()
        name_box.setSpacing(2)
        name_box.addWidget(self.name_edit)
        name_box.addWidget(self.name_error)
        name_label = QLabel("&Name:")
        name_label.setBuddy(self.name_edit)
        form.addRow(name_label, name_box)
        self.player_edit = QLineEdit()
        self.player_edit.setObjectName("playerEdit")
        self.player_edit.setMaxLength(200)
        self.player_edit.setPlaceholderText("nobody (an NPC or adversary)")
        form.addRow("&Player:", self.player_edit)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("kindCombo")
        for kind, label in KIND_LABELS.items():
            self.kind_combo.addItem(label, kind.value)
        form.addRow("&Kind:", self.kind_combo)
        self.load_combo = QComboBox()
        self.load_combo.setObjectName("loadCombo")
        for load, label in _LOAD_LABELS.items():
            self.load_combo.addItem(label, load.value)
        self.load_combo.setToolTip("The load carried: light, medium or heavy")
        form.addRow("&Load:", self.load_combo)
        self._label_buddies(form)
        return box

    def _build_portrait(self) -> QVBoxLayout:
        layout = QVBoxLayout()
        layout.setSpacing(_SPACING // 2)
        self.portrait_label = QLabel()
        self.portrait_label.setObjectName("portraitLabel")
        self.portrait_label.setFixedSize(_PORTRAIT_SIZE, _PORTRAIT_SIZE)
        self.portrait_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.portrait_label.setFrameShape(QFrame.Shape.StyledPanel)
        layout.addWidget(self.portrait_label, 0, Qt.AlignmentFlag.AlignHCenter)
        buttons = QHBoxLayout()
        self.set_portrait_button = QPushButton("Set portrait…")
        self.set_portrait_button.setObjectName("setPortraitButton")
        self.set_portrait_button.setToolTip(
            f"A PNG, JPEG, GIF or WebP image of at most "
            f"{MAX_PORTRAIT_BYTES // (1024 * 1024)} MiB, kept inside the campaign file"
        )
        self.remove_portrait_button = QPushButton("Remove")
        self.remove_portrait_button.setObjectName("removePortraitButton")
        buttons.addWidget(self.set_portrait_button)
        buttons.addWidget(self.remove_portrait_button)
        layout.addLayout(buttons)
        layout.addStretch(1)
        return layout

    def _build_characteristics(self) -> QGroupBox:
        box = QGroupBox("Characteristics")
        box.setObjectName("characteristicsGroup")
        grid = QGridLayout(box)
        grid.setHorizontalSpacing(_SPACING + 2)
        grid.setVerticalSpacing(_SPACING // 2)
        for column, header in enumerate(("", "Value", "Damage", "Current", "ChM")):
            label = _small_label(header)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(label, 0, column)
        for row, code in enumerate(CHARACTERISTIC_CODES, start=1):
            key = code.value
            name = QLabel()
            set_rich_text(name, "<b>{}</b>", key.upper())
            name.setToolTip(_CHARACTERISTIC_NAMES[code])
            spin = BoundedSpinBox(_CHARACTERISTIC_NAMES[code])
            spin.refused.connect(self.show_message)
            spin.input_accepted.connect(self._clear_refusal)
            spin.setObjectName(f"{key}Spin")
            spin.setRange(0, MAX_CHARACTERISTIC)
            spin.setKeyboardTracking(False)
            spin.setAccessibleName(_CHARACTERISTIC_NAMES[code])
            spin.setToolTip(f"{_CHARACTERISTIC_NAMES[code]} (0 to {MAX_CHARACTERISTIC})")
            name.setBuddy(spin)
            damage = BoundedSpinBox(f"{key.upper()} damage")
            damage.refused.connect(self.show_message)
            damage.input_accepted.connect(self._clear_refusal)
            damage.setObjectName(f"{key}DamageSpin")
            damage.setRange(0, MAX_CHARACTERISTIC)
            damage.setKeyboardTracking(False)
            damage.setAccessibleName(f"{_CHARACTERISTIC_NAMES[code]} damage")
            damage.setToolTip(f"Points of damage to {key.upper()} (drained, poisoned ...)")
            current = QLabel()
            current.setObjectName(f"{key}CurrentLabel")
            current.setAlignment(Qt.AlignmentFlag.AlignCenter)
            chm = QLabel()
            chm.setObjectName(f"{key}ChmLabel")
            chm.setAlignment(Qt.AlignmentFlag.AlignCenter)
            chm.setMinimumWidth(chm.fontMetrics().horizontalAdvance("+10") + 8)
            chm.setToolTip("Characteristic modifier of the current value: floor(value / 3) - 2")
            self.spin_boxes[key] = spin
            self.damage_spin_boxes[key] = damage
            self.current_labels[key] = current
            self.chm_labels[key] = chm
            for column, widget in enumerate((name, spin, damage, current, chm)):
                grid.addWidget(widget, row, column)
        self.psionic_check = QCheckBox("Psionic")
        self.psionic_check.setObjectName("psionicCheck")
        self.psionic_check.setToolTip("Only psionic characters have PSI")
        grid.addWidget(self.psionic_check, len(CHARACTERISTIC_CODES) + 1, 1, 1, 2)
        self.upp_label = QLabel()
        self.upp_label.setObjectName("uppLabel")
        self.upp_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.upp_label.setToolTip("The characteristics in UPP order, in pseudo-hex (A = 10)")
        grid.addWidget(self.upp_label, len(CHARACTERISTIC_CODES) + 2, 0, 1, 5)
        return box

    def _build_hit_points(self) -> QGroupBox:
        box = QGroupBox("Hit points and wounds")
        box.setObjectName("hitPointsGroup")
        form = QFormLayout(box)
        form.setSpacing(_SPACING // 2 + 2)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.hp_label = QLabel()
        self.hp_label.setObjectName("hpLabel")
        self.hp_label.setToolTip("HP = STR + DEX + END")
        form.addRow("HP:", self.hp_label)
        self.damage_spin = BoundedSpinBox("Damage")
        self.damage_spin.refused.connect(self.show_message)
        self.damage_spin.input_accepted.connect(self._clear_refusal)
        self.damage_spin.setObjectName("damageSpin")
        self.damage_spin.setRange(0, 99_999)
        self.damage_spin.setKeyboardTracking(False)
        self.damage_spin.setToolTip("Damage taken and not yet healed")
        form.addRow("&Damage:", self.damage_spin)
        self.state_label = QLabel()
        self.state_label.setObjectName("woundStateLabel")
        bold = QFont(self.state_label.font())
        bold.setBold(True)
        self.state_label.setFont(bold)
        form.addRow("Wound state:", self.state_label)
        self.penalty_label = QLabel()
        self.penalty_label.setObjectName("penaltyLabel")
        self.penalty_label.setToolTip("-1 to all mental and physical rolls for every 3 damage")
        form.addRow("Wound penalty:", self.penalty_label)
        self.thresholds_label = QLabel()
        self.thresholds_label.setObjectName("thresholdsLabel")
        self.thresholds_label.setWordWrap(True)
        self.thresholds_label.setSizePolicy(QSizePolicy.Policy.Expanding,
                                            QSizePolicy.Policy.Preferred)
        form.addRow("Thresholds:", self.thresholds_label)
        self.effects_label = _small_label()
        self.effects_label.setObjectName("woundEffectsLabel")
        self.effects_label.setSizePolicy(QSizePolicy.Policy.Expanding,
                                         QSizePolicy.Policy.Preferred)
        form.addRow(self.effects_label)
        self._label_buddies(form)
        return box

    def _build_track(self) -> QGroupBox:
        box = QGroupBox("Damage track")
        box.setObjectName("damageTrackGroup")
        layout = QVBoxLayout(box)
        layout.setSpacing(_SPACING)
        self.hp_bar = HpThresholdBar()
        self.hp_bar.setObjectName("hpBar")
        layout.addWidget(self.hp_bar)
        self.box_chart = DamageBoxChart()
        self.box_chart.setObjectName("boxChart")
        row = QHBoxLayout()
        row.setSpacing(_SPACING * 2)
        row.addWidget(self.box_chart, 0, Qt.AlignmentFlag.AlignTop)
        hint = _small_label(
            "Click or drag on the bar or the boxes to set the damage taken, or focus either "
            "and use + and − (Page Up and Page Down move a whole penalty step, Home heals "
            "all). Each click, key press or drag is one undo step.\n\n"
            "Every 3 damage is one row of boxes and -1 to all rolls."
        )
        hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        row.addWidget(hint, 1)
        layout.addLayout(row)
        return box

    def _table_group(self, title: str, object_name: str, view: QTableView,
                     noun: str) -> tuple[QGroupBox, QPushButton, QPushButton, QHBoxLayout]:
        box = QGroupBox(title)
        box.setObjectName(f"{object_name}Group")
        layout = QVBoxLayout(box)
        layout.setSpacing(_SPACING // 2)
        layout.addWidget(view)
        buttons = QHBoxLayout()
        add = QPushButton(f"Add {noun}")
        add.setObjectName(f"add{noun.title().replace(' ', '')}Button")
        remove = QPushButton(f"Remove {noun}")
        remove.setObjectName(f"remove{noun.title().replace(' ', '')}Button")
        remove.setEnabled(False)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self._install_delegate(view)
        self._keep_fitted(view)
        return box, add, remove, buttons

    def _build_skills(self) -> QGroupBox:
        self.skills_view = _table("skillsView")
        self.skills_view.setModel(self.skills_proxy)
        self.skills_view.setSortingEnabled(True)
        self.skills_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self._size_columns(self.skills_view, stretch=(0, 1))
        box, self.add_skill_button, self.remove_skill_button, buttons = self._table_group(
            "Skills", "skills", self.skills_view, "skill"
        )
        self.unskilled_label = QLabel(f"Unskilled: {format_modifier(UNSKILLED)}")
        self.unskilled_label.setObjectName("unskilledLabel")
        self.unskilled_label.setToolTip(
            f"A check with a skill the character does not have takes {UNSKILLED}; "
            "Skill-0 is a skill and rolls at +0."
        )
        buttons.addWidget(self.unskilled_label)
        return box

    def _build_weapons(self) -> QGroupBox:
        self.weapons_view = _table("weaponsView")
        self.weapons_view.setModel(self.weapons_model)
        self._size_columns(self.weapons_view, stretch=(0, 8))
        box, self.add_weapon_button, self.remove_weapon_button, _ = self._table_group(
            "Weapons", "weapons", self.weapons_view, "weapon"
        )
        return box

    def _build_armor(self) -> QGroupBox:
        self.armor_view = _table("armorView")
        self.armor_view.setModel(self.armor_model)
        self._size_columns(self.armor_view, stretch=(0,))
        box, self.add_armor_button, self.remove_armor_button, _ = self._table_group(
            "Armor", "armor", self.armor_view, "armor"
        )
        return box

    def _build_cover(self) -> QGroupBox:
        self.cover_view = _table("coverView")
        self.cover_view.setModel(self.cover_model)
        self._size_columns(self.cover_view, stretch=(0,))
        box, self.add_cover_button, self.remove_cover_button, _ = self._table_group(
            "Cover and shields", "cover", self.cover_view, "cover"
        )
        return box

    def _build_conditions(self) -> QGroupBox:
        self.conditions_view = _table("conditionsView")
        self.conditions_view.setModel(self.conditions_model)
        self._size_columns(self.conditions_view, stretch=(1,))
        box = QGroupBox("Conditions")
        box.setObjectName("conditionsGroup")
        layout = QVBoxLayout(box)
        layout.setSpacing(_SPACING // 2)
        layout.addWidget(self.conditions_view)
        self._install_delegate(self.conditions_view)
        self._keep_fitted(self.conditions_view)
        row = QHBoxLayout()
        self.condition_kind_combo = QComboBox()
        self.condition_kind_combo.setObjectName("conditionKindCombo")
        for kind in ConditionKind:
            self.condition_kind_combo.addItem(kind.label, kind.value)
        self.condition_detail_edit = QLineEdit()
        self.condition_detail_edit.setObjectName("conditionDetailEdit")
        self.condition_detail_edit.setPlaceholderText("detail, e.g. left arm")
        self.condition_detail_edit.setMaxLength(200)
        self.add_condition_button = QPushButton("Add condition")
        self.add_condition_button.setObjectName("addConditionButton")
        self.add_condition_button.setToolTip("Starts now on the campaign clock")
        self.remove_condition_button = QPushButton("Remove condition")
        self.remove_condition_button.setObjectName("removeConditionButton")
        self.remove_condition_button.setEnabled(False)
        row.addWidget(self.condition_kind_combo)
        row.addWidget(self.condition_detail_edit, 1)
        row.addWidget(self.add_condition_button)
        row.addWidget(self.remove_condition_button)
        layout.addLayout(row)
        return box

    def _build_notes(self) -> QGroupBox:
        box = QGroupBox("Notes")
        box.setObjectName("notesGroup")
        layout = QVBoxLayout(box)
        self.notes_edit = NotesEdit()
        self.notes_edit.setObjectName("notesEdit")
        self.notes_edit.setMinimumHeight(90)
        self.notes_edit.setTabChangesFocus(True)
        self.notes_edit.installEventFilter(self)
        layout.addWidget(self.notes_edit)
        return box

    def _install_delegate(self, view: QTableView) -> None:
        # One delegate per view: a delegate's commitData goes to every view that uses it.
        delegate = SheetItemDelegate(view)
        delegate.setObjectName(f"{view.objectName()}Delegate")
        view.setItemDelegate(delegate)
        self.delegates[view.objectName()] = delegate

    @staticmethod
    def _keep_fitted(view: QTableView) -> None:
        model = view.model()
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset):
            signal.connect(lambda *_args, v=view: _fit_table_height(v))
        _fit_table_height(view)

    @staticmethod
    def _size_columns(view: QTableView, stretch: tuple[int, ...]) -> None:
        header = view.horizontalHeader()
        header.setHighlightSections(False)
        model = view.model()
        for column in range(model.columnCount()):
            mode = (QHeaderView.ResizeMode.Stretch if column in stretch
                    else QHeaderView.ResizeMode.ResizeToContents)
            header.setSectionResizeMode(column, mode)

    @staticmethod
    def _label_buddies(form: QFormLayout) -> None:
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is None or field is None:
                continue
            label_widget, field_widget = label.widget(), field.widget()
            if isinstance(label_widget, QLabel) and field_widget is not None:
                label_widget.setBuddy(field_widget)

    # --- wiring ------------------------------------------------------------------------------

    def _connect(self) -> None:
        doc = self._document
        doc.character_changed.connect(self._on_character_changed)
        doc.structure_changed.connect(self._refresh)
        doc.rules_changed.connect(self._refresh)
        doc.encounter_changed.connect(self._on_encounter_changed)

        self.name_edit.textEdited.connect(self._on_name_typed)
        self.name_edit.editingFinished.connect(self._on_name_finished)
        self.player_edit.editingFinished.connect(self._on_player_finished)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_chosen)
        self.load_combo.currentIndexChanged.connect(self._on_load_chosen)
        for key, spin in self.spin_boxes.items():
            spin.valueChanged.connect(lambda value, key=key: self._on_characteristic(key, value))
            spin.textChanged.connect(lambda _text, key=key: self._preview_characteristic(key))
        for key, spin in self.damage_spin_boxes.items():
            spin.valueChanged.connect(
                lambda value, key=key: self._on_characteristic_damage(key, value)
            )
        self.psionic_check.toggled.connect(self._on_psionic_toggled)
        self.damage_spin.valueChanged.connect(self._on_damage_spin)
        self.hp_bar.damage_requested.connect(self._on_damage_requested)
        self.box_chart.damage_requested.connect(self._on_damage_requested)

        for model in self._models():
            model.edit_rejected.connect(self.show_message)
        for delegate in self.delegates.values():
            delegate.edit_refused.connect(self.show_message)
            delegate.problem_changed.connect(self._on_dice_problem)

        self.add_skill_button.clicked.connect(
            lambda: self._add_row(self.skills_model, self.skills_view, self.skills_proxy)
        )
        self.remove_skill_button.clicked.connect(
            lambda: self._remove_rows(self.skills_model, self.skills_view, self.skills_proxy)
        )
        for model, view, add, remove in (
            (self.weapons_model, self.weapons_view, self.add_weapon_button,
             self.remove_weapon_button),
            (self.armor_model, self.armor_view, self.add_armor_button, self.remove_armor_button),
            (self.cover_model, self.cover_view, self.add_cover_button, self.remove_cover_button),
        ):
            add.clicked.connect(lambda _=False, m=model, v=view: self._add_row(m, v))
            remove.clicked.connect(lambda _=False, m=model, v=view: self._remove_rows(m, v))
        self.remove_condition_button.clicked.connect(
            lambda: self._remove_rows(self.conditions_model, self.conditions_view)
        )
        self.add_condition_button.clicked.connect(self._on_add_condition)
        self.condition_detail_edit.returnPressed.connect(self._on_add_condition)
        for view, button in (
            (self.skills_view, self.remove_skill_button),
            (self.weapons_view, self.remove_weapon_button),
            (self.armor_view, self.remove_armor_button),
            (self.cover_view, self.remove_cover_button),
            (self.conditions_view, self.remove_condition_button),
        ):
            selection = view.selectionModel()
            selection.selectionChanged.connect(
                lambda *_args, v=view, b=button: b.setEnabled(v.selectionModel().hasSelection())
            )
            view.model().modelReset.connect(
                lambda v=view, b=button: b.setEnabled(v.selectionModel().hasSelection())
            )

        self.set_portrait_button.clicked.connect(self._choose_portrait)
        self.remove_portrait_button.clicked.connect(
            lambda: self._commit("Remove portrait", lambda c: setattr(c, "portrait", None))
        )
        self.notes_edit.textChanged.connect(self._on_notes_typed)

    def _models(self) -> tuple[CharacterItemsModel, ...]:
        return (self.skills_model, self.weapons_model, self.armor_model, self.cover_model,
                self.conditions_model)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusOut and watched is self.notes_edit:
            self.flush_pending_edits()
        return super().eventFilter(watched, event)

    # --- committing edits ----------------------------------------------------------------------

    def _commit(self, text: str, change: Callable[[Character], object],
                merge_key: str | None = None, *, character: Character | None = None) -> bool:
        """Push one undoable edit; on refusal explain it and show the model's value again."""
        target = character if character is not None else self.character()
        if target is None:
            return False
        try:
            edit_character(self._document, target, text, change, merge_key)
        except (ValidationError, ValueError) as exc:
            self.show_message(describe_error(exc))
            self._refresh()
            return False
        self.clear_message()
        return True

    def _on_name_typed(self, text: str) -> None:
        self._show_name_error("" if text.strip() else "A name is required.")

    def _on_name_finished(self) -> None:
        if self._updating or not self.name_edit.isModified():
            return
        character = self.character()
        if character is None:
            return
        name = self.name_edit.text().strip()
        if not name:
            message = f"Name cannot be empty; the sheet keeps \u201c{character.name}\u201d."
            self._show_name_error(message)
            self.show_message(message)
            return
        self._show_name_error("")
        if name == character.name:
            self.name_edit.setModified(False)
            self.name_edit.setText(name)
            return
        if self._commit(f"Rename {character.name} to {name}",
                        lambda c: setattr(c, "name", name), "field:name"):
            self.name_edit.setModified(False)
            self._refresh()

    def _show_name_error(self, text: str) -> None:
        self.name_error.show_message(text)
        self.name_edit.setStyleSheet("QLineEdit { border: 2px solid #c62828; }" if text else "")
        self.name_edit.setToolTip(text)

    def _on_player_finished(self) -> None:
        if self._updating or not self.player_edit.isModified():
            return
        player = self.player_edit.text().strip()
        character = self.character()
        if character is not None and player != character.player:
            self._commit("Set player", lambda c: setattr(c, "player", player), "field:player")
        self.player_edit.setModified(False)
        self._refresh()

    def _on_kind_chosen(self, _index: int) -> None:
        if self._updating:
            return
        kind = CharacterKind(self.kind_combo.currentData())
        self._commit(f"Make {KIND_LABELS[kind].lower()}", lambda c: setattr(c, "kind", kind))

    def _on_load_chosen(self, _index: int) -> None:
        if self._updating:
            return
        load = Load(self.load_combo.currentData())
        self._commit(f"Set load to {_LOAD_LABELS[load].lower()}",
                     lambda c: setattr(c, "load", load), "field:load")

    def _on_characteristic(self, key: str, value: int) -> None:
        if self._updating:
            return

        def change(character: Character) -> None:
            data = character.characteristics.model_dump(by_alias=True)
            data[key] = value
            character.characteristics = Characteristics.model_validate(data)

        self._commit(f"Set {key.upper()} to {value}", change, f"field:{key}")

    def _on_characteristic_damage(self, key: str, value: int) -> None:
        if self._updating:
            return

        def change(character: Character) -> None:
            data = character.characteristic_damage.model_dump(by_alias=True)
            data[key] = value
            character.characteristic_damage = CharacteristicDamage.model_validate(data)

        self._commit(f"Set {key.upper()} damage to {value}", change, f"field:{key}-damage")

    def _on_psionic_toggled(self, checked: bool) -> None:
        if self._updating:
            return
        value = self.spin_boxes[Characteristic.PSI.value].value() if checked else None

        def change(character: Character) -> None:
            data = character.characteristics.model_dump(by_alias=True)
            data[Characteristic.PSI.value] = value
            character.characteristics = Characteristics.model_validate(data)

        self._commit("Make psionic" if checked else "Remove psionics", change)

    def _on_damage_spin(self, value: int) -> None:
        if self._updating:
            return
        self._commit(f"Set damage to {value}", lambda c: setattr(c, "damage", value),
                     "field:damage")

    def _on_damage_requested(self, value: int, merge: bool) -> None:
        """From the HP bar or box chart: one undo step per click, key press or whole drag."""
        character = self.character()
        if character is None or value == character.damage:
            return
        if not merge:
            self._drag_serial += 1
        # A fresh key per gesture: the drag's later moves merge into its first step and
        # never into the previous gesture.
        key = f"hp-drag:{self._drag_serial}"
        self._commit(f"Set damage to {value}", lambda c: setattr(c, "damage", value), key)

    def _on_notes_typed(self) -> None:
        if self._updating:
            return
        self._notes_pending = True
        self._notes_character_id = self._character_id
        self.notes_timer.start()

    def _on_dice_problem(self, problem: str) -> None:
        if problem:
            self.show_message(f"Damage: {problem}")
        elif self.message_label.message().startswith("Damage: "):
            self.clear_message()

    # --- table rows ----------------------------------------------------------------------------

    def _add_row(self, model: CharacterItemsModel, view: QTableView,
                 proxy: QSortFilterProxyModel | None = None) -> None:
        row = model.add_item()
        if row is None:
            return
        index = model.index(row, 0)
        if proxy is not None:
            index = proxy.mapFromSource(index)
        view.setFocus()
        view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        view.scrollTo(index)
        view.edit(index)

    def _remove_rows(self, model: CharacterItemsModel, view: QTableView,
                     proxy: QSortFilterProxyModel | None = None) -> None:
        indexes = view.selectionModel().selectedRows()
        if proxy is not None:
            indexes = [proxy.mapToSource(index) for index in indexes]
        model.remove_rows(index.row() for index in indexes)

    def _on_add_condition(self) -> None:
        kind = ConditionKind(self.condition_kind_combo.currentData())
        if self.conditions_model.add_condition(kind, self.condition_detail_edit.text()) is not None:
            self.condition_detail_edit.clear()

    def _choose_portrait(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, "Choose a portrait", "",
            "Images (*.png *.jpg *.jpeg *.gif *.webp);;All files (*)",
        )
        if path:
            self.set_portrait_from_file(Path(path))

    # --- showing the document ------------------------------------------------------------------

    def _on_character_changed(self, character_id: str) -> None:
        if character_id == self._character_id:
            self._refresh()

    def _on_encounter_changed(self, _encounter_id: str) -> None:
        # An encounter instance can vanish with its encounter or combatant.
        self._refresh()

    def _refresh(self) -> None:
        character = self.character()
        if character is None:
            self.empty_label.setText(
                "No character selected.\nChoose a character, adversary or combatant to see "
                "its sheet." if self._character_id is None else
                "This character is no longer in the campaign (it was removed, or its "
                "addition was undone)."
            )
            self.stack.setCurrentIndex(0)
            return
        self.stack.setCurrentIndex(1)
        self._updating = True
        try:
            self._show_identity(character)
            self._show_characteristics(character)
            self._show_hit_points(character)
            self._show_portrait(character)
            if not self._notes_pending and self.notes_edit.toPlainText() != character.notes:
                self.notes_edit.setPlainText(character.notes)
        finally:
            self._updating = False

    def _show_identity(self, character: Character) -> None:
        self.title_label.setText(character.name)
        template = self._document.template_of_stats(character.id)
        if template is not None:
            subtitle = "Adversary template: encounters copy their instances from this stat block"
        elif character.template_id is not None:
            subtitle = "Adversary instance in an encounter"
        else:
            subtitle = KIND_LABELS[character.kind]
            if character.player:
                subtitle += f", played by {character.player}"
        self.subtitle_label.setText(f"{subtitle} \u00b7 UPP {character.upp}")
        if not self.name_edit.isModified() and self.name_edit.text() != character.name:
            self.name_edit.setText(character.name)
        if not self.player_edit.isModified() and self.player_edit.text() != character.player:
            self.player_edit.setText(character.player)
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(character.kind.value))
        self.load_combo.setCurrentIndex(self.load_combo.findData(character.load.value))

    def _show_characteristics(self, character: Character) -> None:
        psionic = character.characteristics.psionic_strength is not None
        self.psionic_check.setChecked(psionic)
        for code in CHARACTERISTIC_CODES:
            key = code.value
            value = character.characteristic(code, current=False)
            damage = character.characteristic_damage.value_of(code) or 0
            spin, damage_spin = self.spin_boxes[key], self.damage_spin_boxes[key]
            enabled = value is not None
            spin.setEnabled(enabled)
            damage_spin.setEnabled(enabled)
            if value is not None and spin.value() != value:
                spin.setValue(value)
            if damage_spin.value() != damage:
                damage_spin.setValue(damage)
            if value is None:
                self.current_labels[key].setText("—")
                self.chm_labels[key].setText("—")
                continue
            current = character.characteristic(code)
            self.current_labels[key].setText(str(current))
            self.current_labels[key].setStyleSheet(_ERROR_STYLE if damage else "")
            self.chm_labels[key].setText(format_modifier(character.characteristic_modifier(code)))
        set_rich_text(self.upp_label, "UPP: <b>{}</b>", character.upp)

    def _preview_characteristic(self, key: str) -> None:
        """Show the ChM of what is being typed, before it is committed."""
        if self._updating:
            return
        spin = self.spin_boxes[key]
        text = spin.cleanText().strip()
        if not text.isdigit():
            return
        current = max(0, int(text) - self.damage_spin_boxes[key].value())
        self.current_labels[key].setText(str(current))
        self.chm_labels[key].setText(format_modifier(characteristic_modifier(current)))

    def _show_hit_points(self, character: Character) -> None:
        basis = self._document.threshold_basis
        thresholds = character.wound_thresholds(basis)
        track = damage_track(character.damage, character.hit_points, thresholds)
        strength, dexterity, endurance = character.characteristics.physical
        set_rich_text(self.hp_label, "<b>{}</b> (STR {} + DEX {} + END {})",
                      character.hit_points, strength, dexterity, endurance)
        if self.damage_spin.value() != character.damage:
            self.damage_spin.setValue(character.damage)
        state = character.wound_state(basis)
        self.state_label.setText(state.label)
        self.state_label.setToolTip(
            "The Dead condition is set" if character.has_condition(ConditionKind.DEAD)
            else track.thresholds.rule_for(track.state)
        )
        penalty = track.penalty
        self.penalty_label.setText(
            f"{format_modifier(penalty)} to all rolls" if penalty else "none"
        )
        self.thresholds_label.setText(
            f"Seriously wounded at {thresholds.seriously}, critically wounded at "
            f"{thresholds.critically}, dying above {thresholds.hp}"
        )
        self.thresholds_label.setToolTip(
            "\n".join((thresholds.seriously_rule, thresholds.critically_rule,
                       thresholds.dying_rule))
        )
        self.effects_label.setText(wound_effects(state).care_note)
        self.effects_label.setVisible(bool(wound_effects(state).care_note))
        for widget in (self.hp_bar, self.box_chart):
            widget.set_subject(character.name)  # screen readers say whose damage it is
            widget.set_track(track)

    def _show_portrait(self, character: Character) -> None:
        self.remove_portrait_button.setEnabled(character.portrait is not None)
        if character.portrait is None:
            self.portrait_label.setPixmap(QPixmap())
            self.portrait_label.setText("No portrait")
            return
        pixmap = QPixmap()
        if not pixmap.loadFromData(character.portrait.image_bytes):
            self.portrait_label.setPixmap(QPixmap())
            self.portrait_label.setText("Portrait cannot\nbe shown")
            return
        self.portrait_label.setPixmap(pixmap.scaled(
            _PORTRAIT_SIZE, _PORTRAIT_SIZE, Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        ))
