"""What a navigator row stands for, apart from the model so the window shell can name
groups before the campaign (and pydantic) is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Group(IntEnum):
    PLAYERS = 0
    NPCS = 1
    LIBRARY = 2
    ENCOUNTERS = 3

    @property
    def label(self) -> str:
        return ("Player Characters", "NPCs", "Adversary Library", "Encounters")[self]


@dataclass(frozen=True)
class Node:
    """What a navigator row stands for: a group heading, or one entity by id."""

    group: Group
    entity_id: str | None = None

    @property
    def is_group(self) -> bool:
        return self.entity_id is None
