"""Custom item data roles shared by every model in the application.

One enum, so two models never give the same number two meanings and a view or delegate
can ask any model for, say, the sort key without knowing which model it is.
"""

from __future__ import annotations

from enum import IntEnum

from PySide6.QtCore import Qt

__all__ = [
    "CHOICES_ROLE",
    "EDITOR_ROLE",
    "ENTITY_ROLE",
    "ID_ROLE",
    "RULE_ROLE",
    "SORT_ROLE",
    "VALUE_ROLE",
    "WOUND_STATE_ROLE",
    "ItemRole",
]

_USER = int(Qt.ItemDataRole.UserRole)


class ItemRole(IntEnum):
    """Roles past ``Qt.UserRole``; the names say what ``data()`` returns for them."""

    ID_ROLE = _USER + 1
    """The id of the entity a row shows (a character id), or None for id-less rows."""
    SORT_ROLE = _USER + 2
    """A key a ``QSortFilterProxyModel`` compares: a casefolded string or a number."""
    ENTITY_ROLE = _USER + 3
    """The domain object a row shows (a Skill, a Weapon ...): read it, never mutate it."""
    VALUE_ROLE = _USER + 4
    """The typed value of a cell (an enum member, a bool), where EditRole holds text."""
    CHOICES_ROLE = _USER + 5
    """For a cell edited by picking: a list of ``(label, value)`` pairs in display order."""
    RULE_ROLE = _USER + 6
    """The rule text that produced a derived number, for tooltips and the status line."""
    WOUND_STATE_ROLE = _USER + 7
    """The :class:`~mneme_desktop.rules.wounds.WoundState` of a character row."""
    EDITOR_ROLE = _USER + 8
    """How a cell is edited: an :class:`~mneme_desktop.ui.widgets.delegates.EditorSpec`."""


ID_ROLE = ItemRole.ID_ROLE
SORT_ROLE = ItemRole.SORT_ROLE
ENTITY_ROLE = ItemRole.ENTITY_ROLE
VALUE_ROLE = ItemRole.VALUE_ROLE
CHOICES_ROLE = ItemRole.CHOICES_ROLE
RULE_ROLE = ItemRole.RULE_ROLE
WOUND_STATE_ROLE = ItemRole.WOUND_STATE_ROLE
EDITOR_ROLE = ItemRole.EDITOR_ROLE
