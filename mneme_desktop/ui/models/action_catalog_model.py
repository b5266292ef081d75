"""The chapter's action tables as a model, for the combatant panel's action chooser."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from mneme_desktop.rules.actions import ACTION_CATALOG
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.headed_table import HeadedTableModel, full_text_tip
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE

__all__ = ["ActionCatalogModel"]

_CTX = "ActionCatalogModel"


_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole


class ActionCatalogModel(HeadedTableModel):
    """The chapter's action tables: name, type, minor actions, category, description."""

    HEADERS = (tr_noop(_CTX, "Action"), tr_noop(_CTX, "Type"), tr_noop(_CTX, "Cost"),
               tr_noop(_CTX, "Category"), tr_noop(_CTX, "Description"))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        value = super().headerData(section, orientation, role)
        return tr(_CTX, value) if isinstance(value, str) and value else value

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(ACTION_CATALOG)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(ACTION_CATALOG):
            return None
        action = ACTION_CATALOG[index.row()]
        if role == _DISPLAY:
            return self._display(index.row(), index.column())
        if role == _TOOLTIP:  # the action's name, type, cost and description, each in full
            tip = tr(_CTX, "{0} ({1}, {2} minor): {3}").format(
                action.name, action.kind.label, action.kind.cost, action.description)
            if index.column() == 0:  # says all the name cell says
                return tip
            return full_text_tip(self._display(index.row(), index.column()), tip)
        if role == ID_ROLE:
            return action.key
        if role == VALUE_ROLE:
            return action.kind
        return None

    @staticmethod
    def _display(row: int, column: int) -> str:
        action = ACTION_CATALOG[row]
        return (tr(_CTX, "{0} ({1}, {2} minor)").format(action.name, action.kind.value,
                                                       action.kind.cost),
                action.kind.label, str(action.kind.cost), action.category,
                action.description)[column]
