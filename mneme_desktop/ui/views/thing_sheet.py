"""The thing sheet: a vehicle, craft, structure or cover object, on the same damage track as
a character.

It shows a campaign thing or a template of the object library (the navigator's entry), with
every number in its scale ("20 DHP = 200 HP"), the HP bar and box chart from the one track
geometry under a thing's names, crew positions and weapons for a vehicle or craft, and its
notes. It owns the one commit path (:meth:`ThingSheetView.commit`) and the message line;
every edit is one undo step (:mod:`mneme_desktop.ui.thing_commands`).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Thing, ThingTemplate
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.rules.track_names import thing_display_track
from mneme_desktop.ui import thing_commands
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.sheet_models import describe_error
from mneme_desktop.ui.models.thing_models import CrewTableModel, ThingWeaponsModel
from mneme_desktop.ui.views.sheet_parts import SPACING, small_label
from mneme_desktop.ui.views.thing_sheet_groups import (
    DurabilityGroup,
    ThingListGroup,
    ThingTrackGroup,
    WhatGroup,
)
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "ThingSheet"

__all__ = ["NOTES_COMMIT_DELAY_MS", "ThingSheetView", "thing_track"]

NOTES_COMMIT_DELAY_MS = 600
"""Typing in the notes is committed after this pause (one undo step per burst, merged)."""


def thing_track(thing: Thing) -> DamageTrack:
    """The track the bar and the chart draw: the thing's, under a thing's names."""
    return thing_display_track(thing.damage, thing.hp, thing.hp_scale)


class ThingSheetView(QWidget):
    """Shows and edits one thing: a campaign thing, or a library template's stats."""

    select_requested = Signal(str)
    """A thing was made from the template shown: the navigator should show it."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thingSheet")
        self._document = document
        self._entry_id: str | None = None
        self._thing_id: str | None = None
        self._updating = False
        self.crew_model = CrewTableModel(document, self)
        self.weapons_model = ThingWeaponsModel(document, self)
        self._build()
        for group in (self.what, self.durability, self.track, self.crew, self.weapons):
            group.connect_edits()
        self.from_template_button.clicked.connect(self._from_template)
        self.notes_edit.textChanged.connect(self._notes_typed)
        self._notes_timer = QTimer(self)
        self._notes_timer.setSingleShot(True)
        self._notes_timer.setInterval(NOTES_COMMIT_DELAY_MS)
        self._notes_timer.timeout.connect(self.commit_notes)
        document.changed.connect(self._document_changed)
        self.refresh()

    # --- building --------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget()
        outer.addWidget(self.stack)
        self.empty_label = QLabel()
        self.empty_label.setObjectName("thingEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.stack.addWidget(self.empty_label)

        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(SPACING, SPACING, SPACING, 0)
        layout.setSpacing(SPACING // 2)
        self.title_label = QLabel()
        self.title_label.setObjectName("thingTitle")
        font = QFont(self.title_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.title_label.setFont(font)
        self.subtitle_label = small_label()
        self.subtitle_label.setObjectName("thingSubtitle")
        self.message_line = StatusLine("thingMessage")
        layout.addWidget(self.title_label)
        layout.addWidget(self.subtitle_label)
        layout.addWidget(self.message_line)

        scroll = QScrollArea()
        scroll.setObjectName("thingScrollArea")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, SPACING, SPACING)
        body_layout.setSpacing(SPACING)
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)
        self.stack.addWidget(page)

        top = QHBoxLayout()
        top.setSpacing(SPACING)
        self.what = WhatGroup(self)
        template_row = QHBoxLayout()
        self.from_template_button = QPushButton(tr(_CTX, "Add a cop&y to the campaign"))
        self.from_template_button.setObjectName("thingFromTemplate")
        self.from_template_button.setToolTip(tr(
            _CTX, "Make a campaign vehicle or object from this template, numbered after the "
                  "copies made before (\"Shield 3\"), undamaged and with empty seats"))
        template_row.addWidget(self.from_template_button)
        template_row.addStretch(1)
        self.what.form.addRow(template_row)
        top.addWidget(self.what, 1)
        self.durability = DurabilityGroup(self)
        top.addWidget(self.durability, 2)
        body_layout.addLayout(top)
        self.track = ThingTrackGroup(self)
        body_layout.addWidget(self.track)
        self.crew = ThingListGroup(self, tr(_CTX, "Crew positions"), "thingCrew",
                                   self.crew_model, tr(_CTX, "Add position"),
                                   tr(_CTX, "Remove position"))
        self.weapons = ThingListGroup(self, tr(_CTX, "Weapons"), "thingWeapons",
                                      self.weapons_model, tr(_CTX, "Add weapon"),
                                      tr(_CTX, "Remove weapon"))
        body_layout.addWidget(self.crew)
        body_layout.addWidget(self.weapons)
        notes = QGroupBox(tr(_CTX, "Notes"))
        notes.setObjectName("thingNotesGroup")
        notes_layout = QVBoxLayout(notes)
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setObjectName("thingNotes")
        self.notes_edit.setAccessibleName(tr(_CTX, "Notes"))
        self.notes_edit.setFixedHeight(self.fontMetrics().height() * 6)
        notes_layout.addWidget(self.notes_edit)
        self.encounters_label = small_label()
        self.encounters_label.setObjectName("thingEncounters")
        notes_layout.addWidget(self.encounters_label)
        body_layout.addWidget(notes)
        body_layout.addStretch(1)

    # --- what is shown ---------------------------------------------------------------------

    @property
    def updating(self) -> bool:
        return self._updating

    def set_entry(self, entry_id: str | None) -> None:
        """Show the navigator entry ``entry_id``: a campaign thing, or a library template
        (its stats are the sheet)."""
        self.commit_notes()
        self._entry_id = entry_id
        template = self._template()
        self._thing_id = template.stats.id if template is not None else entry_id
        self.crew_model.set_thing(self._thing_id)
        self.weapons_model.set_thing(self._thing_id)
        self.message_line.show_message("")
        self.refresh()

    def navigator_id(self) -> str | None:
        """The navigator entry shown (a template's id for its stats)."""
        return self._entry_id

    def thing_id(self) -> str | None:
        return self._thing_id

    def thing(self) -> Thing | None:
        if self._thing_id is None:
            return None
        return self._document.campaign.find_thing(self._thing_id)

    def _template(self) -> ThingTemplate | None:
        if self._entry_id is None:
            return None
        return self._document.campaign.find_thing_template(self._entry_id)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if (summary.touches_thing(self._thing_id, self._document.campaign)
                or summary.character_ids):
            self.refresh()

    def refresh(self) -> None:
        """Show the document's thing again, every group."""
        thing = self.thing()
        if thing is None:
            self.empty_label.setText(
                tr(_CTX, "No vehicle or object selected.") if self._thing_id is None else
                tr(_CTX, "This vehicle or object is no longer in the campaign (it was removed, "
                         "or its addition was undone)."))
            self.stack.setCurrentIndex(0)
            return
        self.stack.setCurrentIndex(1)
        self._updating = True
        try:
            track = thing_track(thing)
            template = self._template()
            self.title_label.setText(thing.name)
            kind = tr(_CTX, thing.kind.label)
            self.subtitle_label.setText(
                tr(_CTX, "{0} · template in the object library").format(kind)
                if template is not None else
                tr(_CTX, "{0} · {1} · {2}").format(kind, thing.hp_label, thing.armor_label))
            self.from_template_button.setVisible(template is not None)
            self.what.show_thing(thing)
            self.durability.show_thing(thing, track)
            self.track.show_thing(thing, track)
            crewed = thing.kind.crewed
            self.crew.setVisible(crewed or bool(thing.crew))
            self.weapons.setVisible(crewed or bool(thing.weapons))
            if self.notes_edit.toPlainText() != thing.notes and not self._notes_timer.isActive():
                self.notes_edit.setPlainText(thing.notes)
            encounters = self._document.campaign.thing_encounters(thing.id)
            self.encounters_label.setText(
                tr(_CTX, "Takes part in: {0}").format(", ".join(e.name for e in encounters))
                if encounters else tr(_CTX, "In no encounter yet."))
        finally:
            self._updating = False

    # --- the one commit path ----------------------------------------------------------------

    def commit(self, text: str, change: Callable[[Thing], object],
               merge_key: str | None = None) -> bool:
        """Push one undoable edit; on refusal explain it and show the thing again."""
        thing = self.thing()
        if thing is None:
            return False
        try:
            thing_commands.edit_thing(self._document, thing.id, text, change, merge_key)
        except (ValidationError, ValueError) as exc:
            self.show_message(describe_error(exc))
            self.refresh()
            return False
        self.show_message("")
        return True

    def set_damage(self, damage: int, merge_key: str | None) -> None:
        """Damage in plain points, from the damage field, the bar or the chart."""
        thing = self.thing()
        if thing is None or damage == thing.damage:
            return
        try:
            thing_commands.set_damage(self._document, thing.id, damage, merge_key)
        except (ValidationError, ValueError) as exc:
            self.show_message(describe_error(exc))
            self.refresh()

    def show_message(self, text: str) -> None:
        self.message_line.show_message(text)

    def clear_range_refusal(self) -> None:
        if self.message_line.message().endswith(tuple("0123456789")):
            self.show_message("")

    # --- notes and templates ------------------------------------------------------------------

    def _notes_typed(self) -> None:
        if not self._updating:
            self._notes_timer.start()

    def commit_notes(self) -> None:
        """Commit typed notes now (before switching things or saving)."""
        if not self._notes_timer.isActive():
            return
        self._notes_timer.stop()
        thing = self.thing()
        text = self.notes_edit.toPlainText()
        if thing is None or text == thing.notes:
            return
        self.commit(tr(_CTX, "Edit notes of {0}").format(thing.name),
                    lambda t: setattr(t, "notes", text), "field:thing-notes")

    def _from_template(self) -> None:
        template = self._template()
        if template is None:
            return
        thing = thing_commands.thing_from_template(self._document, template.id)
        self.select_requested.emit(thing.id)
