"""The things in an encounter (vehicles, craft, structures, cover objects) as a table: HP
left with its scale, state, protection, side, crew and initiative, and who shelters behind
each, refreshed from the one ``changed`` notice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from mneme_desktop.domain.combat import thing_initiative
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.things import ThingKind
from mneme_desktop.rules.thing_damage import ThingState, thing_damage_units
from mneme_desktop.ui.models.headed_table import HeadedTableModel, full_text_tip
from mneme_desktop.ui.models.roles import ID_ROLE
from mneme_desktop.ui.models.side_marks import side_icon

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "EncounterThingsModel"

__all__ = ["EncounterThingsModel", "thing_kind_text", "thing_state_text"]

_STATES = {
    ThingState.INTACT: tr_noop(_CTX, "Intact"),
    ThingState.DAMAGED: tr_noop(_CTX, "Damaged"),
    ThingState.SERIOUSLY_DAMAGED: tr_noop(_CTX, "Seriously Damaged"),
    ThingState.CRITICALLY_DAMAGED: tr_noop(_CTX, "Critically Damaged"),
    ThingState.DESTROYED: tr_noop(_CTX, "Destroyed"),
}
_KINDS = {
    ThingKind.VEHICLE: tr_noop(_CTX, "Vehicle"),
    ThingKind.CRAFT: tr_noop(_CTX, "Craft"),
    ThingKind.STRUCTURE: tr_noop(_CTX, "Structure"),
    ThingKind.COVER: tr_noop(_CTX, "Cover object"),
}


def thing_state_text(state: ThingState) -> str:
    """A thing's state in the user's language."""
    return tr(_CTX, _STATES[state])


def thing_kind_text(kind: ThingKind) -> str:
    """A kind of thing in the user's language."""
    return tr(_CTX, _KINDS[kind])

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole


@dataclass(frozen=True)
class _Row:
    entry_id: str
    thing_id: str
    cells: tuple[str, ...]
    tips: tuple[str, ...]
    side: Any


class EncounterThingsModel(HeadedTableModel):
    """One row per thing in the encounter; ``ID_ROLE`` is the encounter entry's id."""

    COL_NAME, COL_KIND, COL_HP, COL_STATE, COL_PROTECTION, COL_CREW, COL_BEHIND = range(7)
    HEADERS = (tr_noop(_CTX, "Thing"), tr_noop(_CTX, "Kind"), tr_noop(_CTX, "HP left"),
               tr_noop(_CTX, "State"), tr_noop(_CTX, "Protection"),
               tr_noop(_CTX, "Crew (initiative)"), tr_noop(_CTX, "Cover for"))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        value = super().headerData(section, orientation, role)
        return tr(_CTX, value) if isinstance(value, str) and value else value

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._encounter_id: str | None = None
        self._rows: list[_Row] = []
        document.changed.connect(self._changed)

    def set_encounter(self, encounter_id: str | None) -> None:
        self._encounter_id = encounter_id
        self.refresh(force=True)

    def _changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id is None:
            return
        if self._encounter_id in summary.encounter_ids or summary.structure_changed or \
                summary.thing_ids or summary.character_ids:
            self.refresh()

    def entry_id(self, row: int) -> str | None:
        return self._rows[row].entry_id if 0 <= row < len(self._rows) else None

    def row_of(self, entry_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.entry_id == entry_id), -1)

    def refresh(self, force: bool = False) -> None:
        """Rebuild the rows; an unchanged list emits nothing, changed cells only their
        rows, and a different set of things one reset."""
        rows = self._build()
        if [r.entry_id for r in rows] != [r.entry_id for r in self._rows] or force:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
            return
        old, self._rows = self._rows, rows
        for number, (before, after) in enumerate(zip(old, rows, strict=True)):
            if before != after:
                self.dataChanged.emit(self.index(number, 0),
                                      self.index(number, len(self.HEADERS) - 1))

    def _build(self) -> list[_Row]:
        campaign = self._document.campaign
        encounter = campaign.find_encounter(self._encounter_id) if self._encounter_id else None
        if encounter is None:
            return []
        rows = []
        for entry in encounter.things:
            thing = campaign.encounter_thing(entry)
            units = thing_damage_units(thing.damage, thing.hp_scale)
            unit = f"{thing.hp_scale.prefix}HP"
            hp = tr(_CTX, "{0}/{1} {2}").format(max(0, thing.hp - units), thing.hp, unit)
            hp_tip = tr(_CTX, "{0}; {1} damage taken (plain points), {2} HP left").format(
                    thing.hp_label, thing.damage, thing.remaining_hp)
            crew = [f"{p.role}: {s.name}" for p, s in campaign.crew_of(thing) if s is not None]
            crew_text = "; ".join(crew)
            if thing.crew:
                found = thing_initiative(campaign, encounter, entry)
                if found.initiative is not None:
                    crew_text = tr(_CTX, "{0} ({1})").format(crew_text, found.initiative)
                elif not crew:
                    crew_text = tr(_CTX, "no crew aboard")
            behind = [campaign.combatant_character(c).name for c in encounter.combatants
                      if c.cover_thing_id == entry.id]
            protection = str(thing.protection) if thing.protection else ""
            if thing.protection and not thing.absorbs:
                protection = tr(_CTX, "{0} (0 HP: absorbs nothing)").format(thing.protection)
            cells = (thing.name, thing_kind_text(thing.kind), hp, thing_state_text(thing.state),
                     protection,
                     crew_text, ", ".join(behind))
            tips = (thing.notes, "", hp_tip, "", tr(_CTX, "The Difficulty it adds as cover: "
                                                          "that much fail effect it absorbs"),
                    "", "")
            rows.append(_Row(entry.id, thing.id, cells, tips, entry.side))
        return rows

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == _DISPLAY:
            return row.cells[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return full_text_tip(row.cells[column], row.tips[column])
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_NAME:
            return side_icon(row.side)
        if role == ID_ROLE:
            return row.entry_id
        return None
