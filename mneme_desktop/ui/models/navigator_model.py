"""The campaign navigator: Player Characters, NPCs, Adversary Library, Encounters, and the
campaign's Vehicles and Objects with their Object Library."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from mneme_desktop.domain import (
    AdversaryTemplate,
    Character,
    CharacterKind,
    Encounter,
    Thing,
    ThingTemplate,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.ui import commands, thing_commands
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.models.roles import ENTITY_ROLE, ID_ROLE, SORT_ROLE, WOUND_STATE_ROLE

_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_EDIT = Qt.ItemDataRole.EditRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_ANSWERED = frozenset({_DISPLAY, _EDIT, _TOOLTIP, SORT_ROLE, ID_ROLE, ENTITY_ROLE,
                       WOUND_STATE_ROLE})

_CTX = "NavigatorModel"

AnyIndex = QModelIndex | QPersistentModelIndex


class NavigatorModel(QAbstractItemModel):
    """A two-level tree over the campaign. Names are editable (rename is undoable)."""

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._rows: dict[Group, list[str]] = {}
        self._rebuild()
        document.changed.connect(self._document_changed)

    # --- structure ---------------------------------------------------------------------

    def _rebuild(self) -> None:
        campaign = self._document.campaign
        self._rows = {
            Group.PLAYERS: [c.id for c in campaign.characters if c.kind is CharacterKind.PLAYER],
            Group.NPCS: [c.id for c in campaign.characters if c.kind is not CharacterKind.PLAYER],
            Group.LIBRARY: [t.id for t in campaign.adversary_library],
            Group.ENCOUNTERS: [e.id for e in campaign.encounters],
            Group.THINGS: [t.id for t in campaign.things],
            Group.THING_LIBRARY: [t.id for t in campaign.thing_library],
        }

    def reload(self) -> None:
        """Follow the campaign's lists. A change that keeps every row where it was (a
        rename) repaints the names instead of resetting, so the selection stays put."""
        before = self._rows
        self._rebuild()
        if self._rows == before:
            self._rows = before
            for group in Group:
                rows = len(self._rows[group])
                if rows:
                    parent = self.group_index(group)
                    self.dataChanged.emit(self.index(0, 0, parent),
                                          self.index(rows - 1, 0, parent))
            return
        rebuilt = self._rows
        self._rows = before
        self.beginResetModel()
        self._rows = rebuilt
        self.endResetModel()

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.structure_changed:
            self.reload()
        for character_id in sorted(summary.character_ids):
            index = self.index_of_character(character_id)
            if index.isValid():
                self.dataChanged.emit(index, index)
        for thing_id in sorted(summary.thing_ids):
            index = self.index_of_thing(thing_id)
            if index.isValid():
                self.dataChanged.emit(index, index)

    def node(self, index: AnyIndex) -> Node | None:
        if not index.isValid():
            return None
        group_number = index.internalId()
        if group_number == 0:
            return Node(Group(index.row()))
        group = Group(group_number - 1)
        return Node(group, self._rows[group][index.row()])

    def group_index(self, group: Group) -> QModelIndex:
        return self.createIndex(int(group), 0, 0)

    def index_of(self, group: Group, entity_id: str) -> QModelIndex:
        try:
            row = self._rows[group].index(entity_id)
        except ValueError:
            return QModelIndex()
        return self.createIndex(row, 0, int(group) + 1)

    def index_of_character(self, character_id: str) -> QModelIndex:
        for group in (Group.PLAYERS, Group.NPCS):
            index = self.index_of(group, character_id)
            if index.isValid():
                return index
        for template in self._document.campaign.adversary_library:
            if template.stats.id == character_id:
                return self.index_of(Group.LIBRARY, template.id)
        return QModelIndex()

    def index_of_thing(self, thing_id: str) -> QModelIndex:
        """A campaign thing's row, or the row of the template whose stats it is."""
        index = self.index_of(Group.THINGS, thing_id)
        if index.isValid():
            return index
        for template in self._document.campaign.thing_library:
            if template.stats.id == thing_id:
                return self.index_of(Group.THING_LIBRARY, template.id)
        return QModelIndex()

    def find(self, entity_id: str) -> QModelIndex:
        for group in Group:
            index = self.index_of(group, entity_id)
            if index.isValid():
                return index
        return QModelIndex()

    def entity(self, node: Node) -> (Character | AdversaryTemplate | Encounter | Thing
                                     | ThingTemplate | None):
        if node.entity_id is None:
            return None
        campaign = self._document.campaign
        if node.group in (Group.PLAYERS, Group.NPCS):
            return campaign.find_character(node.entity_id)
        if node.group is Group.LIBRARY:
            return campaign.find_template(node.entity_id)
        if node.group is Group.THINGS:
            return campaign.find_campaign_thing(node.entity_id)
        if node.group is Group.THING_LIBRARY:
            return campaign.find_thing_template(node.entity_id)
        return campaign.find_encounter(node.entity_id)

    # --- QAbstractItemModel --------------------------------------------------------------

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:
        if column != 0 or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, 0, 0) if row < len(Group) else QModelIndex()
        if parent.internalId() != 0:
            return QModelIndex()
        group = Group(parent.row())
        if row >= len(self._rows[group]):
            return QModelIndex()
        return self.createIndex(row, 0, int(group) + 1)

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, 0)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        if not parent.isValid():
            return len(Group)
        if parent.column() != 0 or parent.internalId() != 0:
            return 0
        return len(self._rows[Group(parent.row())])

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 1

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.internalId() != 0:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ANSWERED:  # Qt asks ~10 roles per row at every paint
            return None
        node = self.node(index)
        if node is None:
            return None
        if node.is_group:
            if role == _DISPLAY:
                return f"{node.group.label} ({len(self._rows[node.group])})"
            if role == _TOOLTIP:
                return tr(_CTX, _GROUP_TIPS[node.group])
            if role == SORT_ROLE:
                return int(node.group)
            return None
        entity = self.entity(node)
        if entity is None:
            return None
        if role in (_DISPLAY, _EDIT):
            return entity.name
        if role == ID_ROLE:
            return node.entity_id
        if role == ENTITY_ROLE:
            return entity
        if role == SORT_ROLE:
            return entity.name.casefold()
        basis = self._document.threshold_basis
        character = entity.stats if isinstance(entity, AdversaryTemplate) else entity
        if isinstance(character, Character):
            state = character.wound_state(basis)
            if role == WOUND_STATE_ROLE:
                return state
            if role == Qt.ItemDataRole.ToolTipRole:
                return (tr(_CTX, "{0} — UPP {1}, HP {2}, damage {3} ({4})").format(
                    character.name, character.upp, character.hit_points, character.damage,
                    state.label))
        elif isinstance(entity, Thing | ThingTemplate) and role == Qt.ItemDataRole.ToolTipRole:
            thing = entity.stats if isinstance(entity, ThingTemplate) else entity
            return tr(_CTX, "{0} — {1}, {2}, {3}, damage {4} ({5})").format(
                thing.name, tr(_CTX, thing.kind.label), thing.hp_label, thing.armor_label,
                thing.damage, tr(_CTX, thing.state.label))
        elif isinstance(entity, Encounter) and role == Qt.ItemDataRole.ToolTipRole:
            status = (tr(_CTX, "not started") if not entity.started
                      else tr(_CTX, "round {0}").format(entity.round))
            return tr(_CTX, "{0}: {1} combatants, {2}").format(
                    entity.name, len(entity.combatants), status)
        return None

    def setData(self, index: AnyIndex, value: Any,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        node = self.node(index)
        if node is None or node.is_group or role != Qt.ItemDataRole.EditRole:
            return False
        name = str(value).strip()
        entity = self.entity(node)
        if not name or entity is None or name == entity.name:
            return False
        try:
            if isinstance(entity, Character):
                commands.edit_character(self._document, entity, tr(_CTX,
                        "Rename {0} to {1}").format(entity.name, name),
                                        lambda c: setattr(c, "name", name))
            elif isinstance(entity, AdversaryTemplate):
                commands.edit_character(self._document, entity.stats,
                                        tr(_CTX, "Rename {0} to {1}").format(entity.name, name),
                                        lambda c: setattr(c, "name", name))
            elif isinstance(entity, Thing | ThingTemplate):
                thing = entity.stats if isinstance(entity, ThingTemplate) else entity
                thing_commands.edit_thing(
                    self._document, thing.id,
                    tr(_CTX, "Rename {0} to {1}").format(entity.name, name),
                    lambda t: setattr(t, "name", name))
            else:
                commands.rename_encounter(self._document, entity.id, name)
        except (ValidationError, ValueError):
            return False
        return True

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(_CTX, "Campaign")
        return None


_GROUP_TIPS = {
    Group.PLAYERS: tr_noop(_CTX, "The player characters of this campaign"),
    Group.NPCS: tr_noop(_CTX, "Non-player characters kept between sessions"),
    Group.LIBRARY: tr_noop(_CTX, "Adversary templates: encounters make numbered copies of them"),
    Group.ENCOUNTERS: tr_noop(_CTX, "Fights and other timed scenes"),
    Group.THINGS: tr_noop(_CTX, "The campaign's vehicles, craft, structures and cover objects"),
    Group.THING_LIBRARY: tr_noop(_CTX, "Object templates (a shield, cinder blocks, a walker): "
                                       "encounters and the campaign make numbered copies"),
}
