"""The chapter's action tables as a model, for the combatant panel's action chooser."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from mneme_desktop.rules.actions import ACTION_CATALOG
from mneme_desktop.ui.models.headed_table import HeadedTableModel
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE

__all__ = ["ActionCatalogModel"]


_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole


class ActionCatalogModel(HeadedTableModel):
    """The chapter's action tables: name, type, minor actions, category, description."""

    HEADERS = ("Action", "Type", "Cost", "Category", "Description")

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(ACTION_CATALOG)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(ACTION_CATALOG):
            return None
        action = ACTION_CATALOG[index.row()]
        if role == _DISPLAY:
            return (f"{action.name} ({action.kind.value}, {action.kind.cost} minor)",
                    action.kind.label, str(action.kind.cost), action.category,
                    action.description)[index.column()]
        if role == _TOOLTIP:
            return f"{action.name} ({action.kind.label}, {action.kind.cost} minor): " \
                   f"{action.description}"
        if role == ID_ROLE:
            return action.key
        if role == VALUE_ROLE:
            return action.kind
        return None
