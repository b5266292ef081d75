"""What a navigator row stands for, apart from the model so the window shell can name
groups before the campaign (and pydantic) is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "NavigatorNodes"

_GROUP_LABELS = (tr_noop(_CTX, "Player Characters"), tr_noop(_CTX, "NPCs"),
                 tr_noop(_CTX, "Adversary Library"), tr_noop(_CTX, "Encounters"),
                 tr_noop(_CTX, "Vehicles and Objects"), tr_noop(_CTX, "Object Library"))


class Group(IntEnum):
    PLAYERS = 0
    NPCS = 1
    LIBRARY = 2
    ENCOUNTERS = 3
    THINGS = 4
    """The campaign's own vehicles, craft, structures and cover objects."""
    THING_LIBRARY = 5
    """Thing templates ("Shield"): encounters and the campaign make numbered copies."""

    @property
    def is_things(self) -> bool:
        """A group whose items are shown on the thing sheet."""
        return self in (Group.THINGS, Group.THING_LIBRARY)

    @property
    def label(self) -> str:
        """The group's name, in the user's language."""
        return tr(_CTX, _GROUP_LABELS[self])


@dataclass(frozen=True)
class Node:
    """What a navigator row stands for: a group heading, or one entity by id."""

    group: Group
    entity_id: str | None = None

    @property
    def is_group(self) -> bool:
        return self.entity_id is None
