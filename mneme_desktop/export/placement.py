"""What layout produces: drawing operations grouped into unbreakable pieces, pages and
frames, and the record of every line and track placed (tests read it to prove nothing is
clipped or overlaps)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QLineF, QRectF, QSizeF

from mneme_desktop.export.document import Align, TrackBlock
from mneme_desktop.export.typesetting import Role

__all__ = [
    "PlacedGraphic",
    "PlacedText",
    "RenderResult",
]

# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedText:
    """One line of text as laid out: the ``box`` it was given on ``page`` (0-based) and the
    ``needed`` rectangle its glyphs take there. No clipping means needed lies inside box."""

    page: int
    box: QRectF
    text: str
    needed: QRectF
    points: float
    """Type size in points."""


@dataclass(frozen=True)
class PlacedGraphic:
    """A drawn damage track: the box it got and the size its painter asked for."""

    page: int
    box: QRectF
    needed: QSizeF
    description: str


@dataclass
class RenderResult:
    page_count: int
    page_rect: QRectF
    """The printable area in device coordinates: every box must lie inside it."""
    units_per_point: float
    texts: list[PlacedText] = field(default_factory=list)
    graphics: list[PlacedGraphic] = field(default_factory=list)


# --- drawing operations --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextOp:
    rect: QRectF
    text: str
    role: Role
    align: Align


@dataclass(frozen=True, slots=True)
class LineOp:
    line: QLineF
    width: float
    grey: int


@dataclass(frozen=True, slots=True)
class BoxOp:
    rect: QRectF
    fill: int | None
    stroke: int | None
    width: float


@dataclass(frozen=True, slots=True)
class TrackOp:
    rect: QRectF
    block: TrackBlock
    font_size: float
    needed: QSizeF


Op = TextOp | LineOp | BoxOp | TrackOp


def moved(op: Op, dx: float, dy: float) -> Op:
    # Exact type tests, most frequent first: this runs for every op of every page.
    if type(op) is TextOp:
        return TextOp(op.rect.translated(dx, dy), op.text, op.role, op.align)
    if type(op) is LineOp:
        return LineOp(op.line.translated(dx, dy), op.width, op.grey)
    if type(op) is BoxOp:
        return BoxOp(op.rect.translated(dx, dy), op.fill, op.stroke, op.width)
    assert type(op) is TrackOp
    return TrackOp(op.rect.translated(dx, dy), op.block, op.font_size, op.needed)


@dataclass
class Piece:
    """A slice of laid-out content, ops relative to its own top-left corner.

    Pieces are the unit of page breaking: a piece is never split. ``keep_with_next`` holds
    a title to what follows it; ``repeat`` is put at the top of a new frame before this
    piece (a table's header row on the next page).
    """

    height: float
    ops: list[Op]
    keep_with_next: bool = False
    space_before: float = 0.0
    repeat: list[Piece] | None = None
    optional: bool = False
    """Left out rather than started on a new frame (ruled lines to write on)."""

    @property
    def first_height(self) -> float:
        return self.height


@dataclass
class Parallel:
    """Columns side by side, each a run of items at an x offset; they may span frames."""

    columns: list[tuple[float, list[Item]]]
    space_before: float = 0.0
    keep_with_next: bool = False
    repeat: list[Piece] | None = None

    @property
    def height(self) -> float:
        """The tallest column, as if no frame ever ended."""
        return max((run_height(items) for _offset, items in self.columns), default=0.0)

    @property
    def first_height(self) -> float:
        """What must fit for the columns to start here: each column's first item."""
        return max((items[0].first_height for _offset, items in self.columns if items),
                   default=0.0)


Item = Piece | Parallel


def run_height(items: Sequence[Item]) -> float:
    return sum(item.height + (item.space_before if index else 0.0)
               for index, item in enumerate(items))


@dataclass
class Page:
    ops: list[Op] = field(default_factory=list)
    footer: str = ""


@dataclass(frozen=True)
class Frame:
    page: int
    rect: QRectF
