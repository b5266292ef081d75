"""Box-chart geometry: where each box of the damage track sits, in either of two layouts.

Both layouts are laid out from the one :class:`~mneme_desktop.rules.track.DamageTrack`
(box ``i`` is damage point ``i``, its band and whether it is past HP), so they never
disagree with the HP bar; only the rows and columns differ.

``ROWS_OF_THREE`` (the default): rows of 3 boxes, one row per -1 wound-penalty step.

``MEGATRAVELLER``: the peer system's Personal Integrity Record. HP / 6 rounded up six-box
columns; boxes are crossed left to right, top to bottom; the boxes of the last column
that HP does not reach are crossed off from the bottom up before play (Integrity 46:
eight columns, the last two boxes of the 48 column crossed; Integrity 50: nine columns,
the bottom four of the 54 column crossed). Each row is labelled with the Mneme wound
penalty that applies while damage is being marked in it (a row spans several -1 steps
when it is more than three boxes wide); a thing's rows, which carry no penalty, with the
damage points they hold. The room past HP (Dying) follows below the
record in rows as wide as it (at least three), so damage past HP can still be marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mneme_desktop.rules.track import BOXES_PER_ROW, DamageTrack, damage_range_label
from mneme_desktop.rules.wounds import WoundState, wound_penalty

__all__ = [
    "MEGATRAVELLER_BOXES_PER_COLUMN",
    "BoxChart",
    "ChartCell",
    "ChartStyle",
    "box_chart",
    "megatraveller_columns",
]

MEGATRAVELLER_BOXES_PER_COLUMN = 6
"""The Personal Integrity Record's columns are six boxes tall: a column is 6 points."""


class ChartStyle(Enum):
    """Which layout the box chart takes."""

    ROWS_OF_THREE = "rows_of_three"
    MEGATRAVELLER = "megatraveller"

    @property
    def label(self) -> str:
        return _STYLE_LABELS[self]


_STYLE_LABELS = {
    ChartStyle.ROWS_OF_THREE: "Rows of three",
    ChartStyle.MEGATRAVELLER: "MegaTraveller record",
}


@dataclass(frozen=True, slots=True)
class ChartCell:
    """One box of the chart at ``row``/``column`` (0-based). ``index`` is the damage point
    it records (1-based); None for a box crossed off before play because HP does not
    reach it (then ``state`` is None and the box is never damaged)."""

    row: int
    column: int
    index: int | None
    state: WoundState | None
    damaged: bool
    beyond_hp: bool

    @property
    def usable(self) -> bool:
        return self.index is not None


@dataclass(frozen=True)
class BoxChart:
    """Rows and columns of boxes for one damage track, in one layout."""

    style: ChartStyle
    rows: int
    columns: int
    cells: tuple[ChartCell, ...]
    """Every box in reading order, crossed-off ones included."""
    row_labels: tuple[str, ...]
    """Each row's wound penalty ("-1"), or the range it spans ("0…-2"); empty for a row
    with no usable box."""
    column_labels: tuple[str, ...] = ()
    """Above the columns: the points each column completes (6, 12, 18...) on the record."""
    section_row: int | None = None
    """The first row of the room past HP, set apart from the record above it."""

    @property
    def boxes(self) -> tuple[ChartCell, ...]:
        """The usable boxes, in damage order."""
        return tuple(cell for cell in self.cells if cell.index is not None)

    @property
    def crossed_off(self) -> tuple[ChartCell, ...]:
        """The boxes crossed off before play (HP short of a whole column)."""
        return tuple(cell for cell in self.cells if cell.index is None)

    def cell(self, index: int) -> ChartCell:
        """The box that records damage point ``index``."""
        for cell in self.cells:
            if cell.index == index:
                return cell
        raise ValueError(f"box {index} is not on the chart")


def megatraveller_columns(hp: int) -> tuple[int, int]:
    """Six-box columns for ``hp`` (HP / 6 rounded up) and how many boxes of the last column
    are crossed off: ``(8, 2)`` for 46, ``(9, 4)`` for 50."""
    if hp < 1:
        raise ValueError(f"hit points must be at least 1, not {hp}")
    columns = -(-hp // MEGATRAVELLER_BOXES_PER_COLUMN)
    return columns, columns * MEGATRAVELLER_BOXES_PER_COLUMN - hp


def _penalty_label(first: int, last: int) -> str:
    """The wound penalty while damage ``first``..``last`` is being marked (the box's own
    point not yet taken): "-2", or "0…-2" across steps."""
    start, end = wound_penalty(first - 1), wound_penalty(last - 1)
    return str(start) if start == end else f"{start}…{end}"


def _row_labels(cells: tuple[ChartCell, ...], rows: int, penalties: bool) -> tuple[str, ...]:
    """Each row's penalty (a character's track) or its damage points (a thing's)."""
    label = _penalty_label if penalties else damage_range_label
    spans: dict[int, list[int]] = {}
    for cell in cells:
        if cell.index is not None:
            spans.setdefault(cell.row, []).append(cell.index)
    return tuple(
        label(min(spans[row]), max(spans[row])) if row in spans else ""
        for row in range(rows)
    )


def _rows_of_three(track: DamageTrack) -> BoxChart:
    cells = tuple(
        ChartCell(box.row, box.column, box.index, box.state, box.damaged, box.beyond_hp)
        for box in track.boxes
    )
    return BoxChart(ChartStyle.ROWS_OF_THREE, track.rows, BOXES_PER_ROW, cells, track.row_labels)


def _megatraveller(track: DamageTrack) -> BoxChart:
    columns, short = megatraveller_columns(track.hp)
    height = MEGATRAVELLER_BOXES_PER_COLUMN
    boxes = {box.index: box for box in track.boxes}
    cells: list[ChartCell] = []
    index = 0

    def take(row: int, column: int) -> None:
        nonlocal index
        index += 1
        box = boxes[index]
        cells.append(ChartCell(row, column, index, box.state, box.damaged, box.beyond_hp))

    for row in range(height):
        crossed_from = columns - 1 if row >= height - short else columns
        for column in range(columns):
            if column < crossed_from:
                take(row, column)
            else:
                cells.append(ChartCell(row, column, None, None, False, False))
    past_hp = track.capacity - track.hp
    # At least three to a row, so a small record's room past HP is not one tall column.
    width = max(columns, BOXES_PER_ROW)
    rows = height + -(-past_hp // width)
    for offset in range(past_hp):
        take(height + offset // width, offset % width)
    labels = tuple(str(MEGATRAVELLER_BOXES_PER_COLUMN * (c + 1)) for c in range(columns))
    frozen = tuple(cells)
    return BoxChart(
        ChartStyle.MEGATRAVELLER,
        rows,
        width if past_hp else columns,
        frozen,
        _row_labels(frozen, rows, track.penalties),
        labels,
        height if past_hp else None,
    )


def box_chart(track: DamageTrack, style: ChartStyle = ChartStyle.ROWS_OF_THREE) -> BoxChart:
    """The boxes of ``track`` laid out in ``style``."""
    if style is ChartStyle.MEGATRAVELLER:
        return _megatraveller(track)
    return _rows_of_three(track)
