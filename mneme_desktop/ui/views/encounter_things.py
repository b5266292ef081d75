"""The encounter's Things tab: vehicles and objects join the fight (numbered copies of a
library template, or the campaign's own by reference), a combatant takes cover behind one,
crew board a vehicle, and a thing's damage is set by hand. Every button is one undoable
step through the encounter view's ``run``; refusals are said on its message line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.character import MAX_AMOUNT
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.thing_edits import set_thing_damage
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.encounter_things_model import EncounterThingsModel
from mneme_desktop.ui.widgets.narrow import shrink_lists

if TYPE_CHECKING:
    from mneme_desktop.ui.views.encounter_view import EncounterView

_CTX = "EncounterThings"

__all__ = ["EncounterThingsPanel"]


class EncounterThingsPanel(QWidget):
    """The things in the shown encounter and what a referee does with them."""

    def __init__(self, view: EncounterView) -> None:
        super().__init__(view)
        self.setObjectName("encounter_things_panel")
        self._view = view
        self._filling = False
        self._stale = False
        document = view.document
        self.model = EncounterThingsModel(document, self)
        layout = QVBoxLayout(self)
        self.table = QTableView(objectName="encounter_things")
        self.table.setAccessibleName(tr(_CTX, "Things in the encounter"))
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        # One line a row, each column as wide as what it shows (the panel scrolls sideways):
        # a stretched-thin "Thing" column wrapped "Cinder Blocks 1" onto two clipped lines.
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)

        add_row = QHBoxLayout()
        self.source_combo = QComboBox(objectName="thing_source")
        self.source_combo.setToolTip(tr(_CTX, "A library template (numbered copies) or one of "
                                              "the campaign's own things (its damage stays "
                                              "on it)"))
        layout.addWidget(self.source_combo)  # a line of its own: names are long
        self.count_spin = QSpinBox(objectName="thing_count", minimum=1, maximum=50, value=1)
        self.count_spin.setToolTip(tr(_CTX, "How many copies of a template"))
        self.side_combo = QComboBox(objectName="thing_side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
        self.side_combo.setCurrentIndex(self.side_combo.findData(Side.NEUTRAL))
        self.add_button = QPushButton(tr(_CTX, "Add"), objectName="add_thing")
        self.remove_button = QPushButton(tr(_CTX, "Remove"), objectName="remove_thing")
        self.remove_button.setToolTip(tr(_CTX, "Take the selected thing out of the encounter"))
        add_row.addWidget(self.count_spin)
        add_row.addWidget(self.side_combo)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)
        add_row.addStretch(1)
        layout.addLayout(add_row)

        form = QFormLayout()
        cover_row = QHBoxLayout()
        self.cover_combatant_combo = QComboBox(objectName="cover_combatant")
        self.take_cover_button = QPushButton(tr(_CTX, "Take cover"), objectName="take_cover")
        self.take_cover_button.setToolTip(tr(_CTX, "Its protection absorbs that combatant's "
                                                   "fail effect, and it takes those damage "
                                                   "rolls (Ch.7 Cover Absorption)"))
        self.leave_cover_button = QPushButton(tr(_CTX, "Leave cover"), objectName="leave_cover")
        cover_row.addWidget(self.take_cover_button)
        cover_row.addWidget(self.leave_cover_button)
        cover_row.addStretch(1)
        form.addRow(tr(_CTX, "Cover for"), self.cover_combatant_combo)
        form.addRow(cover_row)
        crew_row = QHBoxLayout()
        self.position_combo = QComboBox(objectName="crew_position")
        self.crew_combo = QComboBox(objectName="crew_combatant")
        form.addRow(tr(_CTX, "Crew"), self.position_combo)
        self.board_button = QPushButton(tr(_CTX, "Seat"), objectName="board")
        self.board_button.setToolTip(tr(_CTX, "Put the combatant in that crew position (or "
                                              "leave it empty); a crewed vehicle acts on its "
                                              "crew's initiative"))
        crew_row.addWidget(self.crew_combo, 1)
        crew_row.addWidget(self.board_button)
        form.addRow(tr(_CTX, "Seated"), crew_row)
        damage_row = QHBoxLayout()
        self.damage_spin = QSpinBox(objectName="thing_damage", minimum=0, maximum=MAX_AMOUNT)
        self.damage_spin.setToolTip(tr(_CTX, "Damage the selected thing has taken, in plain "
                                             "points (20 DHP = 200 HP)"))
        self.damage_label = QLabel(objectName="thing_damage_hp")
        damage_row.addWidget(self.damage_spin)
        damage_row.addWidget(self.damage_label, 1)
        form.addRow(tr(_CTX, "Damage taken"), damage_row)
        layout.addLayout(form)
        shrink_lists(self)
        for widget, name in ((self.source_combo, tr(_CTX, "Thing to add")),
                             (self.count_spin, tr(_CTX, "How many to add")),
                             (self.side_combo, tr(_CTX, "Side of the things added")),
                             (self.cover_combatant_combo, tr(_CTX, "Combatant taking cover")),
                             (self.position_combo, tr(_CTX, "Crew position")),
                             (self.crew_combo, tr(_CTX, "Combatant seated there")),
                             (self.damage_spin, tr(_CTX, "Damage the thing has taken"))):
            widget.setAccessibleName(name)

        self.add_button.clicked.connect(self.add_chosen)
        self.remove_button.clicked.connect(self.remove_selected)
        self.take_cover_button.clicked.connect(lambda: self.take_cover(True))
        self.leave_cover_button.clicked.connect(lambda: self.take_cover(False))
        self.board_button.clicked.connect(self.seat_crew)
        self.damage_spin.editingFinished.connect(self.set_damage)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._fill_selected())
        self.model.modelReset.connect(self._fill_selected)
        self.model.dataChanged.connect(lambda *_: self._fill_selected())
        document.changed.connect(self._changed)

    # --- showing -----------------------------------------------------------------------

    def set_encounter(self, encounter_id: str | None) -> None:
        self.model.set_encounter(encounter_id)
        self._fill_choices()
        if self.model.rowCount():
            self.select(self.model.entry_id(0) or "")

    def _changed(self, summary: ChangeSummary) -> None:
        """Refill the choices once the tab is on screen: a step of a 200-combatant fight
        does not refill lists nobody is looking at."""
        encounter_id = self._view.encounter_id()
        if encounter_id is not None and (encounter_id in summary.encounter_ids or
                                         summary.structure_changed):
            self._stale = True
            if self.isVisible():
                self._fill_choices()

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self._fill_choices()
        super().showEvent(event)

    def selected_entry_id(self) -> str | None:
        return self.model.entry_id(self.table.currentIndex().row())

    def select(self, entry_id: str) -> None:
        row = self.model.row_of(entry_id)
        if row >= 0:
            self.table.setCurrentIndex(self.model.index(row, 0))

    def _fill_choices(self) -> None:
        """The templates and campaign things on offer, and the combatants to shelter or
        seat, keeping what was chosen."""
        campaign = self._view.document.campaign
        encounter = self._view.encounter()
        self._stale = False
        self._filling = True
        try:
            chosen = self.source_combo.currentData()
            self.source_combo.clear()
            for template in campaign.thing_library:
                self.source_combo.addItem(tr(_CTX, "{0} (template)").format(template.name),
                                          ("template", template.id))
            for thing in campaign.things:
                self.source_combo.addItem(thing.name, ("thing", thing.id))
            index = self.source_combo.findData(chosen)
            self.source_combo.setCurrentIndex(max(0, index))
            for combo, empty in ((self.cover_combatant_combo, None),
                                 (self.crew_combo, tr(_CTX, "(empty)"))):
                previous = combo.currentData()
                combo.clear()
                if empty is not None:
                    combo.addItem(empty, None)
                if encounter is not None:
                    for combatant in encounter.combatants:
                        combo.addItem(campaign.combatant_character(combatant).name,
                                      combatant.id)
                found = combo.findData(previous)
                combo.setCurrentIndex(found if found >= 0 else 0)
        finally:
            self._filling = False
        self._fill_selected()

    def _fill_selected(self) -> None:
        campaign = self._view.document.campaign
        encounter = self._view.encounter()
        entry_id = self.selected_entry_id()
        entry = encounter.find_thing_entry(entry_id) if (
            encounter is not None and entry_id is not None) else None
        thing = campaign.encounter_thing(entry) if entry is not None else None
        previous = self.position_combo.currentIndex()
        self.position_combo.clear()
        if thing is not None:
            for position, sheet in campaign.crew_of(thing):
                who = sheet.name if sheet is not None else tr(_CTX, "empty")
                self.position_combo.addItem(tr(_CTX, "{0} ({1})").format(position.role, who))
            if 0 <= previous < self.position_combo.count():
                self.position_combo.setCurrentIndex(previous)
        for widget in (self.remove_button, self.take_cover_button, self.damage_spin):
            widget.setEnabled(thing is not None)
        self.board_button.setEnabled(thing is not None and bool(thing.crew))
        if thing is not None and not self.damage_spin.hasFocus():
            self.damage_spin.setValue(thing.damage)
        self.damage_label.setText("" if thing is None else tr(
                _CTX, "of {0}: {1} HP left").format(thing.hp_label, thing.remaining_hp))

    # --- doing -------------------------------------------------------------------------

    def add_chosen(self) -> bool:
        choice = self.source_combo.currentData()
        if choice is None:
            self._view.show_message(tr(_CTX, "The thing library is empty: add a template "
                                             "first"))
            return False
        kind, item_id = choice
        side = Side(self.side_combo.currentData())
        count = self.count_spin.value()
        if kind == "template":
            return self._view.run(lambda c, e: fight.add_things_patch(c, e, item_id, count,
                                                                      side))
        return self._view.run(lambda c, e: fight.add_campaign_thing_patch(c, e, item_id, side))

    def remove_selected(self) -> bool:
        entry_id = self.selected_entry_id()
        if entry_id is None:
            self._view.show_message(tr(_CTX, "Select the thing to remove"))
            return False
        return self._view.run(lambda c, e: fight.remove_thing_patch(c, e, entry_id))

    def take_cover(self, behind: bool) -> bool:
        combatant_id = self.cover_combatant_combo.currentData()
        entry_id = self.selected_entry_id() if behind else None
        if combatant_id is None or (behind and entry_id is None):
            self._view.show_message(tr(_CTX, "Select a thing and the combatant behind it"))
            return False
        return self._view.run(lambda c, e: fight.take_cover_patch(c, e, combatant_id,
                                                                   entry_id))

    def seat_crew(self) -> bool:
        entry_id = self.selected_entry_id()
        position = self.position_combo.currentIndex()
        if entry_id is None or position < 0:
            self._view.show_message(tr(_CTX, "Select a vehicle with crew positions"))
            return False
        combatant_id = self.crew_combo.currentData()
        return self._view.run(lambda c, e: fight.crew_patch(c, e, entry_id, position,
                                                             combatant_id))

    def set_damage(self) -> bool:
        entry_id = self.selected_entry_id()
        encounter = self._view.encounter()
        if entry_id is None or encounter is None or self._filling:
            return False
        entry = encounter.find_thing_entry(entry_id)
        if entry is None:
            return False
        thing = self._view.document.campaign.encounter_thing(entry)
        value = self.damage_spin.value()
        if value == thing.damage:
            return False
        text = tr(_CTX, "{0}: damage {1}").format(thing.name, value)
        return self._view.run(lambda c, e: set_thing_damage(c, thing.id, value, text,
                                                            merge_key=None))
