"""What a turn-order row shows, as a comparable snapshot, and which of its columns a
change repaints: the turn order model diffs these so a turn repaints two rows, not the
table."""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain import Side
from mneme_desktop.rules.actions import Stance
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.thing_damage import ThingState
from mneme_desktop.rules.wounds import WoundState, WoundThresholds

__all__ = ["COLUMN_FIELDS", "ROW_WIDE", "TurnRow", "changed_columns", "with_spent"]


@dataclass(frozen=True)
class TurnRow:
    """Everything a turn-order row shows; rows are compared to find what changed."""

    id: str
    character_id: str
    place: int
    name: str
    side: Side
    initiative: int | None
    dice: tuple[int, ...]
    tie: tuple[int, int] | None
    current: bool
    delayed: bool
    spent: int
    aim: int
    aim_target: str
    stance: Stance
    cover: CoverLevel
    damage: int
    hp: int
    thresholds: WoundThresholds
    state: WoundState
    penalty: int
    conditions: tuple[str, ...]
    can_act: bool
    dying_due: bool
    task: tuple[str, int, int] | None
    hidden: bool = False
    """Not yet revealed: off the player display (the name cell is marked)."""
    thing: ThingState | None = None
    """A crewed vehicle's row: its state (its damage, HP and thresholds are in ``unit``)."""
    unit: str = ""
    """What a vehicle's HP are counted in ("DHP"); "" for a combatant's HP."""


# What each turn-order column is drawn from; a change in a row-wide field (the turn
# highlight, the greyed-out look of a combatant who cannot act) repaints the whole row.
ROW_WIDE = ("id", "character_id", "place", "current", "can_act", "state", "delayed")
COLUMN_FIELDS: tuple[tuple[str, ...], ...] = (
    ("place", "current"),  # Turn
    ("initiative", "tie", "dice"),  # Init
    ("name", "delayed", "side", "hidden"),  # Combatant
    ("spent",),  # Actions
    ("damage", "hp", "thresholds", "unit"),  # HP
    ("state", "penalty", "thing"),  # State
    ("conditions", "dying_due"),  # Conditions
    ("aim", "aim_target"),  # Aim
    ("stance", "cover"),  # Stance
    ("task",),  # Task
)


def changed_columns(old: TurnRow, new: TurnRow) -> tuple[int, int] | None:
    """The first and last column whose cells differ between two versions of a row."""
    if any(getattr(old, name) != getattr(new, name) for name in ROW_WIDE):
        return 0, len(COLUMN_FIELDS) - 1
    columns = [column for column, names in enumerate(COLUMN_FIELDS)
               if any(getattr(old, name) != getattr(new, name) for name in names)]
    return (columns[0], columns[-1]) if columns else None


def with_spent(row: TurnRow, spent: int) -> TurnRow:
    """``row`` with ``spent`` actions spent and every other field the same: what
    ``dataclasses.replace`` gives, without running the constructor (a new round does this
    for every row of a large fight)."""
    new = object.__new__(TurnRow)
    values = new.__dict__
    values.update(row.__dict__)
    values["spent"] = spent
    return new
