"""The printable document model, built once from the domain objects, and what to export.

Printing, PDF and HTML all render this one model (:mod:`.pdf`, :mod:`.html`), so a sheet
says the same thing on paper, on screen and in a browser. It is plain Python (no Qt): every
number in it comes from the domain models and the rules core, and the damage tracks are
the :class:`~mneme_desktop.rules.track.DamageTrack` objects the on-screen widgets draw.
The builders live in :mod:`.character_sheet`, :mod:`.referee_pack` and :mod:`.build`.

A document is a sequence of parts, each starting on a new page: a :class:`Sheet` (a
heading and blocks that flow down the page and onto more pages if needed) or a
:class:`CardSheet` (cards in a grid, several per page).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.settings import PageSize, Settings

__all__ = [
    "Align",
    "Block",
    "Card",
    "CardSheet",
    "Cell",
    "Column",
    "Columns",
    "ExportDocument",
    "ExportOptions",
    "ExportTarget",
    "Fields",
    "Heading",
    "Part",
    "Sheet",
    "Table",
    "TargetKind",
    "Text",
    "TrackBlock",
    "TrackKind",
    "iter_strings",
]


class Align(StrEnum):
    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class TrackKind(StrEnum):
    """How a damage track is drawn: the labelled HP bar, or the box chart."""

    BAR = "bar"
    BOX_CHART = "box_chart"


@dataclass(frozen=True)
class TrackBlock:
    """A damage track drawn by the shared track painter (never recomputed here)."""

    track: DamageTrack
    kind: TrackKind
    show_damage: bool
    description: str
    """What the drawing shows, in words: the HTML alt text and the screen-reader text."""
    chart: ChartStyle = ChartStyle.ROWS_OF_THREE
    """The box chart's layout (a box chart only): rows of three or the MegaTraveller record."""


Cell = str | TrackBlock
"""A table cell: text (newlines start new lines) or a drawn damage track."""


@dataclass(frozen=True)
class Column:
    header: str
    align: Align = Align.LEFT
    stretch: float = 0.0
    """Share of the spare width this column takes (0: only what its text needs)."""


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    empty: str = ""
    """Shown in place of the rows when there are none (and no blank rows)."""
    blank_rows: int = 0
    """Empty ruled rows after the data, to fill in with a pencil (left out on paper where
    the page has no room for them)."""
    note: str = ""
    small: bool = False

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.title!r}: a row has {len(row)} cells for "
                    f"{len(self.columns)} columns"
                )


@dataclass(frozen=True)
class Text:
    """A titled run of paragraphs, optionally followed by ruled lines to write on (on
    paper, as many of them as the page has room for)."""

    title: str
    paragraphs: tuple[str, ...]
    blank_lines: int = 0
    small: bool = False


@dataclass(frozen=True)
class Fields:
    """Short "label value" pairs set one after another, wrapping as needed."""

    title: str
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Columns:
    """Blocks side by side; ``weights`` share out the width. Each block of ``extra`` goes
    under whichever column is shorter at that point, so the columns end about level."""

    parts: tuple[tuple[Block, ...], ...]
    weights: tuple[float, ...]
    extra: tuple[Block, ...] = ()

    def __post_init__(self) -> None:
        if len(self.parts) != len(self.weights) or not self.parts:
            raise ValueError("columns need one weight per part, and at least one part")


Block = Table | Text | Fields | TrackBlock | Columns


@dataclass(frozen=True)
class Heading:
    title: str
    subtitle: str = ""
    aside: tuple[str, ...] = ()
    """Short lines set on the right of the heading (campaign name, game time)."""


@dataclass(frozen=True)
class Sheet:
    """Blocks flowing down pages under a heading; starts on a new page."""

    heading: Heading
    blocks: tuple[Block, ...]
    footer: str


@dataclass(frozen=True)
class Card:
    title: str
    subtitle: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class CardSheet:
    """Cards in a grid, ``per_page`` to a page (4 or 6); a card too long for its cell
    continues in the next one."""

    heading: Heading
    cards: tuple[Card, ...]
    footer: str
    per_page: int = 6

    def __post_init__(self) -> None:
        if self.per_page not in (4, 6):
            raise ValueError(f"cards are printed 4 or 6 to a page, not {self.per_page}")


Part = Sheet | CardSheet


@dataclass(frozen=True)
class ExportDocument:
    title: str
    parts: tuple[Part, ...]


class TargetKind(StrEnum):
    CHARACTER = "character"
    PLAYER_CHARACTERS = "player_characters"
    REFEREE_PACK = "referee_pack"
    THING = "thing"


@dataclass(frozen=True)
class ExportTarget:
    """What the referee asked to print or export."""

    kind: TargetKind
    character_id: str | None = None
    encounter_id: str | None = None
    thing_id: str | None = None
    """A vehicle's or object's id (a campaign thing, or a template's stats)."""

    def __post_init__(self) -> None:
        if self.kind is TargetKind.CHARACTER and not self.character_id:
            raise ValueError("a character export needs the character's id")
        if self.kind is TargetKind.REFEREE_PACK and not self.encounter_id:
            raise ValueError("a referee pack needs the encounter's id")
        if self.kind is TargetKind.THING and not self.thing_id:
            raise ValueError("a vehicle or object export needs its id")

    @classmethod
    def character(cls, character_id: str) -> ExportTarget:
        return cls(TargetKind.CHARACTER, character_id=character_id)

    @classmethod
    def player_characters(cls) -> ExportTarget:
        return cls(TargetKind.PLAYER_CHARACTERS)

    @classmethod
    def referee_pack(cls, encounter_id: str) -> ExportTarget:
        return cls(TargetKind.REFEREE_PACK, encounter_id=encounter_id)

    @classmethod
    def thing(cls, thing_id: str) -> ExportTarget:
        return cls(TargetKind.THING, thing_id=thing_id)


@dataclass(frozen=True)
class ExportOptions:
    page_size: PageSize = PageSize.A4
    show_damage: bool = False
    """Print current damage and conditions, or a blank track for pencil."""
    box_chart: ChartStyle = ChartStyle.ROWS_OF_THREE
    """The box chart on sheets: rows of three or the MegaTraveller record."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ExportOptions:
        return cls(page_size=settings.page_size, show_damage=settings.print_current_damage,
                   box_chart=ChartStyle(settings.print_box_chart.value))


def _block_strings(block: Block) -> Iterator[str]:
    if isinstance(block, Table):
        yield block.title
        yield from (column.header for column in block.columns)
        for row in block.rows:
            for cell in row:
                yield cell.description if isinstance(cell, TrackBlock) else cell
        yield block.empty
        yield block.note
    elif isinstance(block, Text):
        yield block.title
        yield from block.paragraphs
    elif isinstance(block, Fields):
        yield block.title
        for label, value in block.items:
            yield label
            yield value
    elif isinstance(block, TrackBlock):
        yield block.description
    else:
        for part in block.parts:
            for inner in part:
                yield from _block_strings(inner)


def iter_strings(document: ExportDocument) -> Iterator[str]:
    """Every piece of text in the document (what a renderer must show, and escape)."""
    yield document.title
    for part in document.parts:
        yield part.heading.title
        yield part.heading.subtitle
        yield from part.heading.aside
        yield part.footer
        if isinstance(part, Sheet):
            for block in part.blocks:
                yield from _block_strings(block)
        else:
            for card in part.cards:
                yield card.title
                yield card.subtitle
                for block in card.blocks:
                    yield from _block_strings(block)
