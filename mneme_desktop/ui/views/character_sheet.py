"""The character sheet: one character's identity, characteristics, damage, gear and notes.

Shows any character sheet the document knows (a player character, an NPC, an adversary
template's stat block, an encounter instance). Every field edits through
:func:`~mneme_desktop.ui.commands.edit_character`, so each change is one undoable step, the
domain model validates it, and a refusal is explained where it happened. The view only ever
shows the document: after an edit (or an undo) it refreshes from the character the document
holds, and every derived number (ChM, UPP, HP, wound state, penalty, thresholds) is asked of
the domain and rules core, never computed here.

This module composes the sheet and owns its one commit path and its one message line; each
group is a module of its own: ``sheet_identity`` (with ``sheet_portrait``),
``sheet_characteristics``, ``sheet_hit_points``, ``sheet_tables`` and ``sheet_notes``, over
``sheet_parts``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Character
from mneme_desktop.domain.catalogue import CatalogueKind
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.ui.commands import edit_character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import SORT_ROLE
from mneme_desktop.ui.models.sheet_gear_models import (
    CareersTableModel,
    EquipmentTableModel,
    format_mass,
    total_mass,
)
from mneme_desktop.ui.models.sheet_models import (
    ArmorTableModel,
    CharacterItemsModel,
    ConditionsTableModel,
    CoverTableModel,
    SkillsTableModel,
    WeaponsTableModel,
    describe_error,
)
from mneme_desktop.ui.views.sheet_background import BackgroundGroup
from mneme_desktop.ui.views.sheet_characteristics import CharacteristicsGroup
from mneme_desktop.ui.views.sheet_hit_points import (
    DamageTrackGroup,
    HitPointsGroup,
    character_track,
)
from mneme_desktop.ui.views.sheet_identity import KIND_LABELS, IdentityGroup
from mneme_desktop.ui.views.sheet_notes import NOTES_COMMIT_DELAY_MS, NotesGroup
from mneme_desktop.ui.views.sheet_parts import SPACING, small_label
from mneme_desktop.ui.views.sheet_portrait import sniff_image_type
from mneme_desktop.ui.views.sheet_tables import (
    CataloguePicker,
    ConditionsGroup,
    ItemTableGroup,
    skills_group,
)
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "CharacterSheet"

__all__ = ["KIND_LABELS", "NOTES_COMMIT_DELAY_MS", "CharacterSheetView", "sniff_image_type"]

_RANGE_REFUSAL = re.compile(r" runs from -?\d+ to -?\d+$")
"""How :meth:`BoundedSpinBox.refusal` ends: the refusal of a keystroke, not of an edit."""


class CharacterSheetView(QWidget):
    """Shows and edits the character with the given id; an empty state when there is none."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("characterSheetView")
        self._document = document
        self._character_id: str | None = None
        self._updating = False

        self.skills_model = SkillsTableModel(document, parent=self)
        self.weapons_model = WeaponsTableModel(document, parent=self)
        self.armor_model = ArmorTableModel(document, parent=self)
        self.cover_model = CoverTableModel(document, parent=self)
        self.conditions_model = ConditionsTableModel(document, parent=self)
        self.careers_model = CareersTableModel(document, parent=self)
        self.equipment_model = EquipmentTableModel(document, parent=self)
        self.skills_proxy = QSortFilterProxyModel(self)
        self.skills_proxy.setObjectName("skillsProxy")
        self.skills_proxy.setSourceModel(self.skills_model)
        self.skills_proxy.setSortRole(SORT_ROLE)
        self.skills_proxy.setDynamicSortFilter(True)
        self.skills_proxy.sort(0, Qt.SortOrder.AscendingOrder)

        self._build()
        self._name_widgets()
        self._connect()
        self.refresh()

    # --- public API ------------------------------------------------------------------------

    def set_character(self, character_id: str | None) -> None:
        """Show the character with this id (None: nothing), committing pending notes first."""
        self.flush_pending_edits()
        changed = character_id != self._character_id
        self._character_id = character_id
        for model in self._models():
            model.set_character(character_id)
        self.identity.forget_typing()
        self.background.forget_typing()
        self.clear_message()
        self.refresh()
        if changed:  # another character opens at the top of its sheet
            self.scroll_area.verticalScrollBar().setValue(0)
            self.scroll_area.horizontalScrollBar().setValue(0)

    def character_id(self) -> str | None:
        return self._character_id

    def character(self) -> Character | None:
        if self._character_id is None:
            return None
        return self._document.character(self._character_id)

    @property
    def updating(self) -> bool:
        """True while the sheet shows the document: a widget's signal then is no edit."""
        return self._updating

    def flush_pending_edits(self) -> None:
        """Commit notes, species or age typed but not yet committed (call before saving or
        closing)."""
        self.notes.flush()
        self.background.flush()

    def show_message(self, text: str) -> None:
        """Explain a refusal in the sheet's message line."""
        self.message_line.show_message(text)

    def clear_message(self) -> None:
        self.message_line.show_message("")

    def clear_range_refusal(self) -> None:
        """A keystroke a number field took: an earlier refusal no longer applies."""
        if _RANGE_REFUSAL.search(self.message_line.message()):
            self.clear_message()

    def show_dice_problem(self, problem: str) -> None:
        """What is wrong with the damage dice being typed; gone once they are right."""
        if problem:
            self.show_message(tr(_CTX, "Damage: {0}").format(problem))
        elif self.message_line.message().startswith("Damage: "):
            self.clear_message()

    def set_portrait_from_file(self, path: Path) -> bool:
        """Keep the image at ``path`` as the portrait; refuse non-images and large files."""
        return self.identity.set_portrait_from_file(path)

    def commit(self, text: str, change: Callable[[Character], object],
               merge_key: str | None = None, *, character: Character | None = None) -> bool:
        """Push one undoable edit; on refusal explain it and show the model's value again."""
        target = character if character is not None else self.character()
        if target is None:
            return False
        try:
            edit_character(self._document, target, text, change, merge_key)
        except (ValidationError, ValueError) as exc:
            self.show_message(describe_error(exc))
            self.refresh()
            return False
        self.clear_message()
        return True

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
        page_layout.setContentsMargins(SPACING, SPACING, SPACING, 0)
        page_layout.setSpacing(SPACING // 2)
        self.title_label = QLabel()
        self.title_label.setObjectName("sheetTitle")
        title_font = QFont(self.title_label.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.4)
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        self.subtitle_label = small_label()
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
        body_layout.setContentsMargins(0, 0, SPACING, SPACING)
        body_layout.setSpacing(SPACING)
        self.scroll_area.setWidget(body)
        page_layout.addWidget(self.scroll_area, 1)
        self.stack.addWidget(page)

        self.identity = IdentityGroup(self)
        body_layout.addWidget(self.identity)

        middle = QHBoxLayout()
        middle.setSpacing(SPACING)
        self.characteristics = CharacteristicsGroup(self)
        self.hit_points = HitPointsGroup(self)
        middle.addWidget(self.characteristics)
        middle.addWidget(self.hit_points, 1)
        body_layout.addLayout(middle)

        self.track = DamageTrackGroup(self)
        body_layout.addWidget(self.track)
        self.skills, self.unskilled_label = skills_group(self, self.skills_model,
                                                         self.skills_proxy)
        body_layout.addWidget(self.skills)
        self.weapons = ItemTableGroup(self, tr(_CTX, "Weapons"), "weapons", self.weapons_model,
                                      "weapon", (0, 8))
        body_layout.addWidget(self.weapons)
        self.weapon_picker = CataloguePicker(self.weapons, CatalogueKind.WEAPONS)
        protection = QHBoxLayout()
        protection.setSpacing(SPACING)
        self.armor = ItemTableGroup(self, tr(_CTX,
                "Armor"), "armor", self.armor_model, "armor", (0,))
        protection.addWidget(self.armor, 1)
        self.armor_picker = CataloguePicker(self.armor, CatalogueKind.ARMOR)
        self.cover = ItemTableGroup(self, tr(_CTX, "Cover and shields"), "cover", self.cover_model,
                                    "cover", (0,))
        protection.addWidget(self.cover, 1)
        body_layout.addLayout(protection)
        self.equipment = ItemTableGroup(self, tr(_CTX, "Equipment"), "equipment",
                                        self.equipment_model, "item", (0, 4))
        self.equipment_total_label = QLabel()
        self.equipment_total_label.setObjectName("equipmentTotalLabel")
        self.equipment.buttons.addWidget(self.equipment_total_label)
        body_layout.addWidget(self.equipment)
        self.conditions = ConditionsGroup(self, self.conditions_model)
        body_layout.addWidget(self.conditions)
        # Background below what the table needs in a fight (HP, track, gear, conditions).
        self.background = BackgroundGroup(self, self.careers_model)
        body_layout.addWidget(self.background)
        self.notes = NotesGroup(self, self._document)
        body_layout.addWidget(self.notes)
        body_layout.addStretch(1)

    def _name_widgets(self) -> None:
        """The groups' widgets as attributes of the sheet, where tests and the window reach
        them."""
        identity = self.identity
        self.name_edit = identity.name_edit
        self.name_error = identity.name_error
        self.name_error_label = identity.name_error
        self.player_edit = identity.player_edit
        self.kind_combo = identity.kind_combo
        self.load_combo = identity.load_combo
        self.portrait_label = identity.portrait_label
        self.set_portrait_button = identity.set_portrait_button
        self.remove_portrait_button = identity.remove_portrait_button

        characteristics = self.characteristics
        self.spin_boxes = characteristics.spin_boxes
        self.damage_spin_boxes = characteristics.damage_spin_boxes
        self.current_labels = characteristics.current_labels
        self.chm_labels = characteristics.chm_labels
        self.psionic_check = characteristics.psionic_check
        self.upp_label = characteristics.upp_label

        hit_points = self.hit_points
        self.hp_label = hit_points.hp_label
        self.damage_spin = hit_points.damage_spin
        self.state_label = hit_points.state_label
        self.penalty_label = hit_points.penalty_label
        self.thresholds_label = hit_points.thresholds_label
        self.effects_label = hit_points.effects_label
        self.hp_bar = self.track.hp_bar
        self.box_chart = self.track.box_chart

        self.skills_view = self.skills.view
        self.add_skill_button = self.skills.add_button
        self.remove_skill_button = self.skills.remove_button
        self.weapons_view = self.weapons.view
        self.add_weapon_button = self.weapons.add_button
        self.remove_weapon_button = self.weapons.remove_button
        self.armor_view = self.armor.view
        self.add_armor_button = self.armor.add_button
        self.remove_armor_button = self.armor.remove_button
        self.cover_view = self.cover.view
        self.add_cover_button = self.cover.add_button
        self.remove_cover_button = self.cover.remove_button
        self.conditions_view = self.conditions.view
        self.condition_kind_combo = self.conditions.kind_combo
        self.condition_detail_edit = self.conditions.detail_edit
        self.add_condition_button = self.conditions.add_button
        self.remove_condition_button = self.conditions.remove_button
        self.add_weapon_from_catalogue_button = self.weapon_picker.button
        self.weapon_catalogue_combo = self.weapon_picker.combo
        self.add_armor_from_catalogue_button = self.armor_picker.button
        self.armor_catalogue_combo = self.armor_picker.combo
        background = self.background
        self.species_edit = background.species_edit
        self.age_edit = background.age_edit
        self.credits_spin = background.credits_spin
        self.careers_view = background.careers.view
        self.add_career_button = background.careers.add_button
        self.remove_career_button = background.careers.remove_button
        self.equipment_view = self.equipment.view
        self.add_equipment_button = self.equipment.add_button
        self.remove_equipment_button = self.equipment.remove_button
        self.delegates = {group.view.objectName(): group.delegate
                          for group in (self.skills, self.weapons, self.armor, self.cover,
                                        self.conditions, self.background.careers,
                                        self.equipment)}

        self.notes_edit = self.notes.notes_edit
        self.notes_timer = self.notes.timer

    # --- wiring ------------------------------------------------------------------------------

    def _connect(self) -> None:
        doc = self._document
        doc.changed.connect(self._document_changed)
        for group in (self.identity, self.background, self.characteristics, self.hit_points,
                      self.track, self.skills, self.weapons, self.armor, self.cover,
                      self.equipment, self.conditions, self.notes, self.weapon_picker,
                      self.armor_picker):
            group.connect_edits()

    def _models(self) -> tuple[CharacterItemsModel, ...]:
        return (self.skills_model, self.weapons_model, self.armor_model, self.cover_model,
                self.conditions_model, self.careers_model, self.equipment_model)

    # --- showing the document ------------------------------------------------------------------

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.catalogue_changed:
            for picker in (self.weapon_picker, self.armor_picker):
                if picker.filled:  # else filled with the new entries when first needed
                    picker.reload()
        if summary.touches_sheet(self._character_id, self._document.campaign):
            self.refresh()

    def refresh(self) -> None:
        """Show the document's character again, every group."""
        character = self.character()
        if character is None:
            self.empty_label.setText(
                tr(_CTX, "No character selected.\nChoose a character, adversary or combatant to "
                         "see its sheet.") if self._character_id is None else
                tr(_CTX, "This character is no longer in the campaign (it was removed, or its "
                         "addition was undone).")
            )
            self.stack.setCurrentIndex(0)
            return
        self.stack.setCurrentIndex(1)
        self._updating = True
        try:
            self._show_title(character)
            self.identity.show_character(character)
            self.background.show_character(character)
            self.equipment_total_label.setText(
                tr(_CTX, "Total mass: {0}").format(format_mass(total_mass(character)) or "0 kg"))
            self.characteristics.show_character(character)
            basis = self._document.threshold_basis
            track = character_track(character, basis)
            self.hit_points.show_character(character, basis, track)
            self.track.show_character(character, track)
            self.identity.show_portrait(character)
            self.notes.show_character(character)
        finally:
            self._updating = False

    def _show_title(self, character: Character) -> None:
        self.title_label.setText(character.name)
        template = self._document.template_of_stats(character.id)
        if template is not None:
            subtitle = tr(_CTX, "Adversary template: encounters copy their instances from this "
                                "stat block")
        elif character.template_id is not None:
            subtitle = tr(_CTX, "Adversary instance in an encounter")
        else:
            subtitle = tr("SheetIdentity", KIND_LABELS[character.kind])
            if character.player:
                subtitle += tr(_CTX, ", played by {0}").format(character.player)
        self.subtitle_label.setText(tr(_CTX, "{0} · UPP {1}").format(subtitle, character.upp))
