"""Lookups by id in O(1) that can never answer with a stale item.

The campaign's lists are changed in many ways: by the edits of :mod:`.edits`, by
assignment of a whole new list, and directly (``campaign.characters.pop(0)``,
``.append``, ``characters[3] = other``). An :class:`IdIndex` therefore trusts nothing it
was told: it keeps each id's position in one list and checks every answer against the list
itself - the same list object, the same length, and the item at that position still having
that id. Any mismatch, or an id it does not know, rebuilds the positions (one pass over the
list) and looks again. A lookup is O(1) amortised, and - ids being unique within their list,
as the campaign's integrity rules require - a wrong or stale answer is impossible. An id
that is not there costs one pass: only a pass can tell it is not there.

The index is a model's private state: copies of the model start with an empty index, and it
takes no part in comparing models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

__all__ = ["HasId", "IdIndex", "Place", "PrivateIndex", "SheetPlaces"]


class HasId(Protocol):
    @property
    def id(self) -> str: ...


T = TypeVar("T", bound=HasId)


class PrivateIndex:
    """Private state of a model that a copy does not share and a comparison ignores."""

    __slots__ = ()

    def __copy__(self) -> Self:
        return type(self)()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return type(self)()

    def __reduce__(self) -> tuple[type[Self], tuple[()]]:
        return type(self), ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PrivateIndex)

    __hash__ = None  # type: ignore[assignment]


class IdIndex(PrivateIndex, Generic[T]):
    """Positions of the items of one list by id, checked on each lookup (see the module)."""

    __slots__ = ("_items", "_length", "_positions")

    rebuilds: ClassVar[int] = 0
    """Rebuilds by every index in this process: a measure of list scans, for tests."""
    scanned: ClassVar[int] = 0
    """Items visited by those rebuilds."""

    def __init__(self) -> None:
        self._items: Sequence[T] | None = None
        self._length = -1
        self._positions: dict[str, int] = {}

    def position(self, items: Sequence[T], item_id: str) -> int | None:
        """Where the item with ``item_id`` is in ``items`` (the first, if the id repeats)."""
        if items is self._items and len(items) == self._length:
            position = self._positions.get(item_id)
            if position is not None and items[position].id == item_id:
                return position
        self._rebuild(items)
        return self._positions.get(item_id)

    def find(self, items: Sequence[T], item_id: str) -> T | None:
        """The item with ``item_id`` in ``items``, or None."""
        position = self.position(items, item_id)
        return None if position is None else items[position]

    def _rebuild(self, items: Sequence[T]) -> None:
        positions: dict[str, int] = {}
        for position, item in enumerate(items):
            positions.setdefault(item.id, position)
        self._items = items
        self._length = len(items)
        self._positions = positions
        IdIndex.rebuilds += 1
        IdIndex.scanned += len(items)


Place = tuple[int, int, int]
"""Where a sheet lives: (0, character position, 0), (1, template position, 0) or
(2, encounter position, combatant position)."""


class SheetPlaces(PrivateIndex):
    """Where each character sheet of a campaign lives, by id, for its owner to check.

    ``lists`` are the lists the places were taken from with their lengths; the owner
    rebuilds when any of them is another list or has another length, and checks the sheet
    at a place has the id asked for (see :meth:`Campaign.find_sheet`).
    """

    __slots__ = ("lists", "places")

    def __init__(self) -> None:
        self.lists: tuple[tuple[object, int], ...] = ()
        self.places: dict[str, Place] = {}

    def current(self, *lists: Sequence[object]) -> bool:
        known = self.lists
        return len(known) == len(lists) and all(
            items is seen and len(items) == length
            for items, (seen, length) in zip(lists, known, strict=True))

    def rebuilt(self, places: dict[str, Place], *lists: Sequence[object]) -> None:
        self.places = places
        self.lists = tuple((items, len(items)) for items in lists)
        IdIndex.rebuilds += 1
        IdIndex.scanned += len(places)
