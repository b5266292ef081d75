"""Print and PDF: the document model laid out and painted with QPainter.

One code path for paper and PDF: :func:`render_document` paints onto any
``QPagedPaintDevice`` (a ``QPdfWriter`` for files, a ``QPrinter`` for the print dialog and
its preview). Layout happens in the device's own coordinates (device pixels at its
resolution, sizes given in points and converted), so nothing is scaled after measuring and
a 1200 dpi PDF is laid out exactly as it is painted. Text is wrapped with the device's own
font metrics and every line drawn is recorded with the box it was given, so tests can prove
that nothing is clipped or overlaps.

The damage tracks are painted by :mod:`mneme_desktop.ui.widgets.track_painter`, the same
functions the on-screen widgets use, in print colours.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPaintDevice,
    QPainter,
    QPdfWriter,
    QPen,
    QTextLayout,
    QTextOption,
)

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.export.document import (
    Align,
    Block,
    Card,
    CardSheet,
    Cell,
    Columns,
    ExportDocument,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
    TrackBlock,
    TrackKind,
)
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.files import write_file_atomically
from mneme_desktop.export.fonts import ensure_gui_application, load_bundled_fonts, print_font
from mneme_desktop.settings import PageSize
from mneme_desktop.ui.widgets.track_painter import (
    TrackColors,
    box_chart_size_hint,
    hp_bar_size_hint,
    paint_box_chart,
    paint_hp_bar,
)

__all__ = [
    "MARGIN_MM",
    "PDF_RESOLUTION",
    "DocumentLayout",
    "PlacedGraphic",
    "PlacedText",
    "RenderResult",
    "configure_device",
    "layout_document",
    "page_layout",
    "paint_layout",
    "pdf_bytes",
    "render_document",
    "write_pdf",
]

MARGIN_MM = 12.0
"""Page margin: inside the unprintable border of every common office printer."""

PDF_RESOLUTION = 1200
"""Device pixels per inch of the PDF writer: fine enough that no position is rounded."""

_PAGE_SIZES = {PageSize.A4: QPageSize.PageSizeId.A4, PageSize.LETTER: QPageSize.PageSizeId.Letter}


class _Role(Enum):
    """Type roles, in points; body text never below 7 pt so a photocopy stays legible."""

    TITLE = (17.0, True)
    SUBTITLE = (9.0, False)
    ASIDE = (8.5, False)
    HEADING = (9.5, True)
    BODY = (8.5, False)
    LABEL = (8.5, True)
    SMALL = (7.5, False)
    SMALL_LABEL = (7.5, True)
    TABLE = (8.0, False)
    TABLE_HEADER = (7.5, True)
    CARD_TABLE = (7.5, False)
    CARD_HEADER = (7.0, True)
    CARD_TITLE = (11.0, True)
    CARD_HEADING = (8.0, True)
    TRACK = (7.5, False)
    TRACK_CELL = (7.0, False)
    FOOTER = (7.0, False)

    @property
    def size(self) -> float:
        return self.value[0]

    @property
    def bold(self) -> bool:
        return self.value[1]


_BLACK = 0
_RULE_GREY = 110
_LIGHT_RULE_GREY = 170
_HEADER_FILL = 228


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
class _TextOp:
    rect: QRectF
    text: str
    role: _Role
    align: Align


@dataclass(frozen=True, slots=True)
class _LineOp:
    line: QLineF
    width: float
    grey: int


@dataclass(frozen=True, slots=True)
class _BoxOp:
    rect: QRectF
    fill: int | None
    stroke: int | None
    width: float


@dataclass(frozen=True, slots=True)
class _TrackOp:
    rect: QRectF
    block: TrackBlock
    font_size: float
    needed: QSizeF


_Op = _TextOp | _LineOp | _BoxOp | _TrackOp


def _moved(op: _Op, dx: float, dy: float) -> _Op:
    if isinstance(op, _TextOp):
        return _TextOp(op.rect.translated(dx, dy), op.text, op.role, op.align)
    if isinstance(op, _LineOp):
        return _LineOp(op.line.translated(dx, dy), op.width, op.grey)
    if isinstance(op, _BoxOp):
        return _BoxOp(op.rect.translated(dx, dy), op.fill, op.stroke, op.width)
    return _TrackOp(op.rect.translated(dx, dy), op.block, op.font_size, op.needed)


@dataclass
class _Piece:
    """A slice of laid-out content, ops relative to its own top-left corner.

    Pieces are the unit of page breaking: a piece is never split. ``keep_with_next`` holds
    a title to what follows it; ``repeat`` is put at the top of a new frame before this
    piece (a table's header row on the next page).
    """

    height: float
    ops: list[_Op]
    keep_with_next: bool = False
    space_before: float = 0.0
    repeat: list[_Piece] | None = None
    optional: bool = False
    """Left out rather than started on a new frame (ruled lines to write on)."""

    @property
    def first_height(self) -> float:
        return self.height


@dataclass
class _Parallel:
    """Columns side by side, each a run of items at an x offset; they may span frames."""

    columns: list[tuple[float, list[_Item]]]
    space_before: float = 0.0
    keep_with_next: bool = False
    repeat: list[_Piece] | None = None

    @property
    def height(self) -> float:
        """The tallest column, as if no frame ever ended."""
        return max((_run_height(items) for _offset, items in self.columns), default=0.0)

    @property
    def first_height(self) -> float:
        """What must fit for the columns to start here: each column's first item."""
        return max((items[0].first_height for _offset, items in self.columns if items),
                   default=0.0)


_Item = _Piece | _Parallel


def _run_height(items: Sequence[_Item]) -> float:
    return sum(item.height + (item.space_before if index else 0.0)
               for index, item in enumerate(items))


@dataclass
class _Page:
    ops: list[_Op] = field(default_factory=list)
    footer: str = ""


@dataclass(frozen=True)
class _Frame:
    page: int
    rect: QRectF


# --- fonts and text ------------------------------------------------------------------------


class _Typesetter:
    """Fonts and metrics on the target device, and line wrapping with them."""

    def __init__(self, device: QPaintDevice, family: str) -> None:
        self.device = device
        self.family = family
        self.scale = device.logicalDpiY() / 72.0
        self._fonts: dict[tuple[float, bool], QFont] = {}
        self._metrics: dict[tuple[float, bool], QFontMetricsF] = {}
        self._wraps: dict[tuple[str, _Role, float], list[str]] = {}

    def pt(self, points: float) -> float:
        return points * self.scale

    def font(self, role: _Role) -> QFont:
        return self.font_of(role.size, role.bold)

    def font_of(self, size: float, bold: bool = False) -> QFont:
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            font = print_font(self.family, size, bold)
            self._fonts[key] = font
        return font

    def metrics(self, role: _Role) -> QFontMetricsF:
        key = role.value
        metrics = self._metrics.get(key)
        if metrics is None:
            metrics = QFontMetricsF(self.font(role), self.device)
            self._metrics[key] = metrics
        return metrics

    def line_height(self, role: _Role) -> float:
        return self.metrics(role).lineSpacing() * 1.06

    def advance(self, text: str, role: _Role) -> float:
        return self.metrics(role).horizontalAdvance(text)

    def longest_word(self, text: str, role: _Role) -> float:
        """The widest run between break points (a no-break space joins words)."""
        return max((self.advance(word, role) for word in _BREAKS.split(text)), default=0.0)

    def widest_line(self, text: str, role: _Role) -> float:
        return max((self.advance(line, role) for line in text.split("\n")), default=0.0)

    def wrap(self, text: str, role: _Role, width: float) -> list[str]:
        """Lines of ``text`` no wider than ``width``: at spaces where possible, inside a
        word only when the word alone is too wide. Newlines always break."""
        key = (text, role, round(width, 2))
        cached = self._wraps.get(key)
        if cached is not None:
            return cached
        # Keep clear of the edge: at screen resolution drawn text may round up a pixel.
        width = max(1.0, width - self.pt(0.75))
        lines: list[str] = []
        for paragraph in text.split("\n"):
            paragraph = paragraph.rstrip()
            if not paragraph or self.advance(paragraph, role) <= width * (1 + 1e-9):
                lines.append(paragraph)
                continue
            layout = QTextLayout(paragraph, self.font(role), self.device)
            option = QTextOption()
            option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
            layout.setTextOption(option)
            layout.beginLayout()
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLineWidth(width)
            layout.endLayout()
            for index in range(layout.lineCount()):
                line = layout.lineAt(index)
                start = line.textStart()
                lines.append(paragraph[start : start + line.textLength()].strip())
        self._wraps[key] = lines
        return lines


_BREAKS = re.compile(r"[ \t\n]+")
"""Where a column may break a line: at ordinary spaces only, so "17–117" stays whole."""

_ALIGN_FLAGS = {
    Align.LEFT: Qt.AlignmentFlag.AlignLeft,
    Align.CENTER: Qt.AlignmentFlag.AlignHCenter,
    Align.RIGHT: Qt.AlignmentFlag.AlignRight,
}


def _text_flags(align: Align) -> int:
    return int(_ALIGN_FLAGS[align] | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextSingleLine)


# --- blocks to pieces ----------------------------------------------------------------------


def _share_out(minimum: Sequence[float], natural: Sequence[float], stretch: Sequence[float],
               spare: float) -> list[float]:
    """Widen columns from their minimum toward their natural width with ``spare``: each in
    proportion to what it still wants, weighted up by its stretch, none past natural."""
    widths = list(minimum)
    active = [i for i in range(len(widths)) if natural[i] > minimum[i]]
    while spare > 1e-6 and active:
        weights = {i: (natural[i] - minimum[i]) * (1 + stretch[i]) for i in active}
        total = sum(weights.values())
        full = [i for i in active if widths[i] + spare * weights[i] / total >= natural[i]]
        if not full:
            for i in active:
                widths[i] += spare * weights[i] / total
            break
        for i in full:
            spare -= natural[i] - widths[i]
            widths[i] = natural[i]
            active.remove(i)
    return widths


class _Builder:
    """Turns model blocks into pieces for a given width."""

    def __init__(self, setter: _Typesetter) -> None:
        self.s = setter

    # -- shared bits --

    def _lines(
        self,
        ops: list[_Op],
        lines: Sequence[str],
        role: _Role,
        x: float,
        y: float,
        width: float,
        align: Align = Align.LEFT,
    ) -> float:
        """Append one text op per line from ``y`` down; returns the y below the last."""
        height = self.s.line_height(role)
        for line in lines:
            if line:
                ops.append(_TextOp(QRectF(x, y, width, height), line, role, align))
            y += height
        return y

    def heading_piece(self, title: str, width: float, *, space: float = 7.0,
                      card: bool = False) -> _Piece:
        """A section title over a thin rule; kept with whatever follows."""
        role = _Role.CARD_HEADING if card else _Role.HEADING
        if card:
            space = min(space, 3.5)
        ops: list[_Op] = []
        y = self._lines(ops, self.s.wrap(title, role, width), role, 0, 0, width)
        rule = self.s.pt(0.6)
        y += self.s.pt(0.8)
        ops.append(_LineOp(QLineF(0, y, width, y), rule, _RULE_GREY))
        return _Piece(y + self.s.pt(2.2), ops, keep_with_next=True, space_before=self.s.pt(space))

    # -- blocks --

    def pieces(self, block: Block, width: float, frame_height: float, *, card: bool = False,
               ) -> list[_Item]:
        """The pieces of ``block``; the first keeps at least a small gap from what is above."""
        pieces = self._pieces(block, width, frame_height, card=card)
        if pieces:
            gap = self.s.pt(3 if card else 4)
            pieces[0].space_before = max(pieces[0].space_before, gap)
        return pieces

    def _pieces(self, block: Block, width: float, frame_height: float, *, card: bool,
                ) -> list[_Item]:
        if isinstance(block, Table):
            return self.table(block, width, card=card)
        if isinstance(block, Text):
            return self.text(block, width, card=card)
        if isinstance(block, Fields):
            return self.fields(block, width, card=card)
        if isinstance(block, TrackBlock):
            return [self.track(block, width, frame_height)]
        return self.columns(block, width, frame_height, card=card)

    def text(self, block: Text, width: float, *, card: bool = False) -> list[_Item]:
        role = _Role.SMALL if block.small or card else _Role.BODY
        pieces: list[_Item] = []
        if block.title:
            pieces.append(self.heading_piece(block.title, width, card=card))
        height = self.s.line_height(role)
        for paragraph in block.paragraphs:
            for number, line in enumerate(self.s.wrap(paragraph, role, width)):
                ops: list[_Op] = []
                self._lines(ops, [line], role, 0, 0, width)
                gap = self.s.pt(2.5) if number == 0 and pieces else 0.0
                pieces.append(_Piece(height, ops, space_before=gap))
        ruled = self.s.pt(16)
        for _ in range(block.blank_lines):
            ops = [_LineOp(QLineF(0, ruled, width, ruled), self.s.pt(0.4), _LIGHT_RULE_GREY)]
            pieces.append(_Piece(ruled + self.s.pt(1), ops, optional=True))
        return pieces

    def fields(self, block: Fields, width: float, *, card: bool = False) -> list[_Item]:
        """Label/value pairs set along lines; an empty value is a blank to write in."""
        label_role, value_role = _Role.LABEL, _Role.BODY
        if card:
            label_role, value_role = _Role.SMALL_LABEL, _Role.SMALL
        height = max(self.s.line_height(label_role), self.s.line_height(value_role))
        pieces: list[_Item] = []
        if block.title:
            pieces.append(self.heading_piece(block.title, width, card=card))
        gap = self.s.pt(4)
        spacing = self.s.pt(12)
        blank = self.s.pt(42)
        line_ops: list[_Op] = []
        x = 0.0

        def flush() -> None:
            nonlocal line_ops, x
            if line_ops:
                pieces.append(_Piece(height + self.s.pt(1.5), line_ops))
            line_ops, x = [], 0.0

        slack = self.s.pt(1)  # metrics at screen resolution round up by up to a pixel
        for label, value in block.items:
            label_w = self.s.advance(label, label_role) + slack
            value_w = self.s.advance(value, value_role) + slack if value else blank
            if x > 0 and x + label_w + gap + value_w > width:
                flush()
            if label_w + gap + value_w > width:
                # Too long for one line even alone: the value starts after its label and
                # carries on over the full width.
                value = value.strip()
                first_width = width - label_w - gap
                first = self.s.wrap(value, value_role, first_width)[0] if first_width > 0 else ""
                if first:
                    line_ops.append(_TextOp(QRectF(0, 0, label_w, height), label, label_role,
                                            Align.LEFT))
                    line_ops.append(_TextOp(QRectF(label_w + gap, 0, first_width, height),
                                            first, value_role, Align.LEFT))
                else:
                    line_ops.append(_TextOp(QRectF(0, 0, width, height), label, label_role,
                                            Align.LEFT))
                flush()
                rest = value[len(first):].strip()
                for line in self.s.wrap(rest, value_role, width) if rest else []:
                    if not line:
                        continue
                    line_ops.append(_TextOp(QRectF(0, 0, width, height), line, value_role,
                                            Align.LEFT))
                    flush()
                continue
            line_ops.append(_TextOp(QRectF(x, 0, label_w, height), label, label_role,
                                    Align.LEFT))
            value_x = x + label_w + gap
            if value:
                line_ops.append(_TextOp(QRectF(value_x, 0, value_w, height), value, value_role,
                                        Align.LEFT))
            else:
                base = height - self.s.pt(1)
                line_ops.append(_LineOp(QLineF(value_x, base, value_x + blank, base),
                                        self.s.pt(0.5), _RULE_GREY))
            x = value_x + value_w + spacing
        flush()
        return pieces

    def _track_font(self, block: TrackBlock, role: _Role, width: float,
                    max_height: float) -> tuple[float, QSizeF]:
        """The largest type size (down to 4.5 pt) at which the track fits the space."""
        size = role.size
        while True:
            font = self.s.font_of(size)
            if block.kind is TrackKind.BAR:
                hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
            else:
                hint = box_chart_size_hint(block.track, font, self.s.device)
            if (hint.width() <= width and hint.height() <= max_height) or size <= 4.5:
                return size, hint
            size -= 0.5

    def track(self, block: TrackBlock, width: float, max_height: float,
              role: _Role = _Role.TRACK) -> _Piece:
        size, hint = self._track_font(block, role, width, max_height)
        box_width = width if block.kind is TrackKind.BAR else hint.width()
        rect = QRectF(0, 0, box_width, hint.height())
        return _Piece(hint.height() + self.s.pt(3),
                      [_TrackOp(rect, block, size, hint)], space_before=self.s.pt(4))

    def columns(self, block: Columns, width: float, frame_height: float, *, card: bool
                ) -> list[_Item]:
        """Side by side; each column flows on to the next page by itself if it must."""
        gutter = self.s.pt(14)
        total = sum(block.weights)
        usable = width - gutter * (len(block.parts) - 1)
        widths = [usable * weight / total for weight in block.weights]
        lefts = [sum(widths[:index]) + gutter * index for index in range(len(widths))]
        runs: list[list[_Item]] = [[] for _ in widths]
        for index, part in enumerate(block.parts):
            for inner in part:
                runs[index].extend(self.pieces(inner, widths[index], frame_height, card=card))
        for inner in block.extra:
            heights = [_run_height(run) for run in runs]
            index = heights.index(min(heights))
            runs[index].extend(self.pieces(inner, widths[index], frame_height, card=card))
        for run in runs:
            if run:
                run[0].space_before = 0.0  # the columns' own gap is above them all
        return [_Parallel(list(zip(lefts, runs, strict=True)), space_before=self.s.pt(4))]

    # -- tables --

    def _cell_widths(self, table: Table, width: float, body: _Role, head: _Role,
                     pad: float) -> list[float]:
        count = len(table.columns)
        natural = [0.0] * count
        minimum = [0.0] * count
        cap = self.s.pt(56)
        for index, column in enumerate(table.columns):
            # A header may take two lines, so it does not widen a column of short numbers.
            word = self.s.longest_word(column.header, head)
            natural[index] = max(word, self.s.widest_line(column.header, head) * 0.58)
            minimum[index] = min(cap, word)
        for row in table.rows:
            for index, cell in enumerate(row):
                if isinstance(cell, TrackBlock):
                    role = _Role.TRACK_CELL
                    hint = hp_bar_size_hint(self.s.font(role), labels=True, device=self.s.device)
                    natural[index] = max(natural[index], hint.width())
                    minimum[index] = max(minimum[index], hint.width() * 0.75)
                    continue
                natural[index] = max(natural[index], self.s.widest_line(cell, body))
                minimum[index] = max(minimum[index], min(cap, self.s.longest_word(cell, body)))
        # A hair of slack, so a width computed from a text's advance never rounds below it.
        slack = 2 * pad + self.s.pt(1)
        natural = [n + slack for n in natural]
        minimum = [m + slack for m in minimum]
        if sum(natural) <= width:
            spare = width - sum(natural)
            weights = [column.stretch for column in table.columns]
            if not any(weights):
                weights = [1.0] * count
            total = sum(weights)
            return [n + spare * w / total for n, w in zip(natural, weights, strict=True)]
        if sum(minimum) <= width:
            stretch = [column.stretch for column in table.columns]
            # Columns that do not stretch (numbers, short codes) keep their natural width
            # when the stretching ones (names) can make do by wrapping.
            floor = [m if st else n for m, n, st in zip(minimum, natural, stretch, strict=True)]
            if sum(floor) <= width:
                return _share_out(floor, natural, stretch, width - sum(floor))
            return _share_out(minimum, natural, [0.0] * count, width - sum(minimum))
        return [m * width / sum(minimum) for m in minimum]

    def _row_piece(
        self,
        cells: Sequence[Cell],
        widths: Sequence[float],
        aligns: Sequence[Align],
        role: _Role,
        pad: float,
        *,
        fill: int | None = None,
        min_height: float = 0.0,
    ) -> _Piece:
        ops: list[_Op] = []
        pad_y = self.s.pt(1.6)
        content = 0.0
        x = 0.0
        track_ops: list[tuple[float, float, TrackBlock]] = []
        for cell, width, align in zip(cells, widths, aligns, strict=True):
            inner = max(1.0, width - 2 * pad)
            if isinstance(cell, TrackBlock):
                track_ops.append((x + pad, inner, cell))
                font = self.s.font(_Role.TRACK_CELL)
                hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
                content = max(content, hint.height())
            else:
                lines = self.s.wrap(cell, role, inner)
                bottom = self._lines(ops, lines, role, x + pad, pad_y, inner, align)
                content = max(content, bottom - pad_y)
            x += width
        height = max(min_height, content + 2 * pad_y)
        for left, inner, block in track_ops:
            font = self.s.font(_Role.TRACK_CELL)
            hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
            rect = QRectF(left, (height - hint.height()) / 2, inner, hint.height())
            ops.append(_TrackOp(rect, block, _Role.TRACK_CELL.size, hint))
        frame: list[_Op] = []
        if fill is not None:
            frame.append(_BoxOp(QRectF(0, 0, x, height), fill, None, 0))
        thin = self.s.pt(0.4)
        frame.append(_LineOp(QLineF(0, height, x, height), thin, _RULE_GREY))
        edge = 0.0
        for width in widths[:-1]:
            edge += width
            frame.append(_LineOp(QLineF(edge, 0, edge, height), thin, _LIGHT_RULE_GREY))
        frame.append(_LineOp(QLineF(0, 0, 0, height), thin, _RULE_GREY))
        frame.append(_LineOp(QLineF(x, 0, x, height), thin, _RULE_GREY))
        return _Piece(height, frame + ops)

    def table(self, table: Table, width: float, *, card: bool = False) -> list[_Item]:
        body = _Role.CARD_TABLE if card or table.small else _Role.TABLE
        head = _Role.CARD_HEADER if card or table.small else _Role.TABLE_HEADER
        pad = self.s.pt(2.6)
        title = self.heading_piece(table.title, width, card=card) if table.title else None
        pieces: list[_Item] = [title] if title else []
        if not table.rows and not table.blank_rows:
            role = _Role.SMALL
            for line in self.s.wrap(table.empty or "None", role, width):
                ops: list[_Op] = []
                self._lines(ops, [line], role, 0, 0, width)
                pieces.append(_Piece(self.s.line_height(role), ops))
            return pieces
        widths = self._cell_widths(table, width, body, head, pad)
        aligns = [column.align for column in table.columns]
        header = self._row_piece([c.header for c in table.columns], widths, aligns, head, pad,
                                 fill=_HEADER_FILL)
        header.ops.append(_LineOp(QLineF(0, 0, sum(widths), 0), self.s.pt(0.6), _RULE_GREY))
        header.keep_with_next = True
        pieces.append(header)
        repeat: list[_Piece] = []
        if table.title:
            repeat.append(self.heading_piece(f"{table.title} (continued)", width, space=0,
                                             card=card))
        repeat.append(header)
        for row in table.rows:
            piece = self._row_piece(row, widths, aligns, body, pad)
            piece.repeat = repeat
            pieces.append(piece)
        blank_height = self.s.pt(15)
        for _ in range(table.blank_rows):
            piece = self._row_piece([""] * len(widths), widths, aligns, body, pad,
                                    min_height=blank_height)
            piece.optional = True
            pieces.append(piece)
        if table.note:
            role = _Role.SMALL
            for number, line in enumerate(self.s.wrap(table.note, role, width)):
                ops = []
                self._lines(ops, [line], role, 0, 0, width)
                pieces.append(_Piece(self.s.line_height(role), ops,
                                     space_before=self.s.pt(1.5) if number == 0 else 0.0))
        return pieces

    # -- headings --

    def sheet_heading(self, heading: Heading, width: float) -> _Piece:
        ops: list[_Op] = []
        aside_width = 0.0
        if heading.aside:
            aside_width = min(width * 0.34,
                              max(self.s.advance(line, _Role.ASIDE) for line in heading.aside)
                              + self.s.pt(1))
        gutter = self.s.pt(10) if aside_width else 0.0
        title_width = width - aside_width - gutter
        y = self._lines(ops, self.s.wrap(heading.title, _Role.TITLE, title_width), _Role.TITLE,
                        0, 0, title_width)
        if heading.subtitle:
            y = self._lines(ops, self.s.wrap(heading.subtitle, _Role.SUBTITLE, title_width),
                            _Role.SUBTITLE, 0, y, title_width)
        aside_y = self.s.pt(2)
        for line in heading.aside:
            aside_y = self._lines(ops, self.s.wrap(line, _Role.ASIDE, aside_width), _Role.ASIDE,
                                  width - aside_width, aside_y, aside_width, Align.RIGHT)
        y = max(y, aside_y) + self.s.pt(2.5)
        ops.append(_LineOp(QLineF(0, y, width, y), self.s.pt(1.2), _BLACK))
        return _Piece(y + self.s.pt(2), ops)

    def card_title(self, card: Card, width: float, *, continued: bool = False) -> _Piece:
        ops: list[_Op] = []
        title = f"{card.title} (continued)" if continued else card.title
        y = self._lines(ops, self.s.wrap(title, _Role.CARD_TITLE, width), _Role.CARD_TITLE,
                        0, 0, width)
        if card.subtitle and not continued:
            y = self._lines(ops, self.s.wrap(card.subtitle, _Role.SMALL, width), _Role.SMALL,
                            0, y, width)
        y += self.s.pt(1.5)
        ops.append(_LineOp(QLineF(0, y, width, y), self.s.pt(0.8), _BLACK))
        return _Piece(y + self.s.pt(1), ops, keep_with_next=True)


# --- flowing pieces into frames ------------------------------------------------------------


@dataclass
class _Cursor:
    frame: int
    y: float
    fresh: bool


class _Flow:
    """Places pieces top-down in frames, asking for a new frame when one is full.

    Frames are numbered in the order they were handed out; columns side by side flow in
    parallel through the same frames, each with its own cursor, and the flow continues
    below the one that ended lowest.
    """

    def __init__(self, pages: list[_Page], new_frame: Callable[[], _Frame]) -> None:
        self.pages = pages
        self.new_frame = new_frame
        self.frames = [new_frame()]
        self.cursor = _Cursor(0, self.frames[0].rect.top(), True)

    def _frame(self, index: int) -> _Frame:
        while len(self.frames) <= index:
            self.frames.append(self.new_frame())
        return self.frames[index]

    @staticmethod
    def _group_height(items: Sequence[_Item], start: int, fresh: bool) -> float:
        height = 0.0
        index = start
        while True:
            item = items[index]
            if index > start or not fresh:
                height += item.space_before
            height += item.first_height
            if not item.keep_with_next or index + 1 >= len(items):
                return height
            height += item.height - item.first_height
            index += 1

    def _put(self, piece: _Piece, cursor: _Cursor, dx: float) -> None:
        if not cursor.fresh:
            cursor.y += piece.space_before
        frame = self._frame(cursor.frame)
        left = frame.rect.left() + dx
        self.pages[frame.page].ops.extend(_moved(op, left, cursor.y) for op in piece.ops)
        cursor.y += piece.height
        cursor.fresh = False

    def _break(self, cursor: _Cursor) -> None:
        cursor.frame += 1
        cursor.y = self._frame(cursor.frame).rect.top()
        cursor.fresh = True

    def _run(self, items: Sequence[_Item], cursor: _Cursor, dx: float) -> _Cursor:
        for index, item in enumerate(items):
            needed = self._group_height(items, index, cursor.fresh)
            bottom = self._frame(cursor.frame).rect.bottom()
            if not cursor.fresh and cursor.y + needed > bottom + 0.01:
                if isinstance(item, _Piece) and item.optional:
                    continue
                self._break(cursor)
                for repeated in item.repeat or ():
                    self._put(repeated, cursor, dx)
            if isinstance(item, _Piece):
                self._put(item, cursor, dx)
                continue
            if not cursor.fresh:
                cursor.y += item.space_before
            ends = [
                self._run(column, _Cursor(cursor.frame, cursor.y, cursor.fresh), dx + offset)
                for offset, column in item.columns
            ]
            last = max(ends, key=lambda end: (end.frame, end.y))
            cursor.frame, cursor.y = last.frame, last.y
            cursor.fresh = all(end.fresh for end in ends)
        return cursor

    def break_frame(self) -> None:
        self._break(self.cursor)

    def place(self, items: Sequence[_Item]) -> None:
        self.cursor = self._run(items, self.cursor, 0.0)


# --- document layout -----------------------------------------------------------------------


@dataclass
class DocumentLayout:
    """Pages of drawing operations for one device, ready to paint."""

    pages: list[_Page]
    setter: _Typesetter
    page_rect: QRectF

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def placed(self) -> RenderResult:
        """Where every line of text and every track went (without painting)."""
        return _record(self)


def _footer_height(setter: _Typesetter) -> float:
    return setter.line_height(_Role.FOOTER) + setter.pt(6)


class _Paginator:
    def __init__(self, setter: _Typesetter, page_rect: QRectF) -> None:
        self.setter = setter
        self.page_rect = page_rect
        self.pages: list[_Page] = []
        self.body = QRectF(page_rect)
        self.body.setBottom(page_rect.bottom() - _footer_height(setter))
        self.builder = _Builder(setter)

    def new_page(self, footer: str) -> int:
        self.pages.append(_Page(footer=footer))
        return len(self.pages) - 1

    def sheet(self, sheet: Sheet) -> None:
        width = self.body.width()

        def next_page() -> _Frame:
            return _Frame(self.new_page(sheet.footer), self.body)

        flow = _Flow(self.pages, next_page)
        pieces: list[_Item] = [self.builder.sheet_heading(sheet.heading, width)]
        for block in sheet.blocks:
            pieces.extend(self.builder.pieces(block, width, self.body.height()))
        flow.place(pieces)

    def _cells(self, per_page: int, top: float) -> list[QRectF]:
        columns = 2
        rows = per_page // columns
        gutter = self.setter.pt(9)
        area = QRectF(self.body.left(), top, self.body.width(), self.body.bottom() - top)
        width = (area.width() - gutter * (columns - 1)) / columns
        height = (area.height() - gutter * (rows - 1)) / rows
        return [
            QRectF(area.left() + column * (width + gutter), area.top() + row * (height + gutter),
                   width, height)
            for row in range(rows)
            for column in range(columns)
        ]

    def _card_pieces(self, card: Card, width: float, height: float) -> list[_Item]:
        pieces: list[_Item] = [self.builder.card_title(card, width)]
        continued = [self.builder.card_title(card, width, continued=True)]
        for block in card.blocks:
            for piece in self.builder.pieces(block, width, height, card=True):
                piece.repeat = continued + (piece.repeat or [])
                pieces.append(piece)
        return pieces

    def card_sheet(self, sheet: CardSheet) -> None:
        heading = self.builder.sheet_heading(sheet.heading, self.body.width())
        top = self.body.top() + heading.height + self.setter.pt(4)
        pad = self.setter.pt(6)
        per_page = sheet.per_page
        cells = self._cells(per_page, top)
        inner = cells[0].adjusted(pad, pad, -pad, -pad)
        prepared = [self._card_pieces(card, inner.width(), inner.height()) for card in sheet.cards]
        if per_page == 6 and any(sum(p.height + p.space_before for p in pieces) > inner.height()
                                 for pieces in prepared):
            per_page = 4
            cells = self._cells(per_page, top)
            inner = cells[0].adjusted(pad, pad, -pad, -pad)
            prepared = [self._card_pieces(card, inner.width(), inner.height())
                        for card in sheet.cards]
        cursor = {"page": -1, "cell": per_page}

        def next_cell() -> _Frame:
            if cursor["cell"] >= per_page:
                cursor["page"] = self.new_page(sheet.footer)
                page = self.pages[cursor["page"]]
                page.ops.extend(_moved(op, self.body.left(), self.body.top())
                                for op in heading.ops)
                cursor["cell"] = 0
            cell = cells[cursor["cell"]]
            cursor["cell"] += 1
            border = self.setter.pt(0.7)
            self.pages[cursor["page"]].ops.append(_BoxOp(cell, None, _BLACK, border))
            return _Frame(cursor["page"], cell.adjusted(pad, pad, -pad, -pad))

        flow: _Flow | None = None
        for pieces in prepared:
            if flow is None:
                flow = _Flow(self.pages, next_cell)
            else:
                flow.break_frame()
            flow.place(pieces)

    def footers(self) -> None:
        total = len(self.pages)
        height = self.setter.line_height(_Role.FOOTER)
        y = self.page_rect.bottom() - height
        width = self.page_rect.width()
        left = self.page_rect.left()
        for number, page in enumerate(self.pages, start=1):
            number_text = f"Page {number} of {total}"
            number_width = self.setter.advance(number_text, _Role.FOOTER) + self.setter.pt(1)
            text_width = width - number_width - self.setter.pt(12)
            page.ops.append(_LineOp(QLineF(left, y - self.setter.pt(2.5), left + width,
                                           y - self.setter.pt(2.5)),
                                    self.setter.pt(0.4), _RULE_GREY))
            lines = self.setter.wrap(page.footer, _Role.FOOTER, text_width)
            if lines and lines[0]:
                shown = lines[0] if len(lines) == 1 else lines[0].rstrip() + " …"
                if self.setter.advance(shown, _Role.FOOTER) > text_width:
                    shown = lines[0]
                page.ops.append(_TextOp(QRectF(left, y, text_width, height), shown,
                                        _Role.FOOTER, Align.LEFT))
            page.ops.append(_TextOp(QRectF(left + width - number_width, y, number_width, height),
                                    number_text, _Role.FOOTER, Align.RIGHT))


def layout_document(
    document: ExportDocument, device: QPaintDevice, *, family: str | None = None
) -> DocumentLayout:
    """Lay ``document`` out for ``device`` (whose page layout must already be set)."""
    setter = _Typesetter(device, family or load_bundled_fonts())
    page_rect = QRectF(0, 0, device.width(), device.height())
    paginator = _Paginator(setter, page_rect)
    for part in document.parts:
        if isinstance(part, Sheet):
            paginator.sheet(part)
        else:
            paginator.card_sheet(part)
    if not paginator.pages:
        paginator.new_page(document.title)
    paginator.footers()
    return DocumentLayout(paginator.pages, setter, page_rect)


# --- painting ------------------------------------------------------------------------------


def _grey(level: int) -> QColor:
    return QColor(level, level, level)


def _record(layout: DocumentLayout) -> RenderResult:
    setter = layout.setter
    result = RenderResult(layout.page_count, layout.page_rect, setter.scale)
    for number, page in enumerate(layout.pages):
        for op in page.ops:
            if isinstance(op, _TextOp):
                needed = setter.metrics(op.role).boundingRect(op.rect, _text_flags(op.align),
                                                              op.text)
                result.texts.append(PlacedText(number, op.rect, op.text, needed, op.role.size))
            elif isinstance(op, _TrackOp):
                result.graphics.append(PlacedGraphic(number, op.rect, op.needed,
                                                     op.block.description))
    return result


def _start_paper_page(painter: QPainter) -> None:
    """Record the ink colour at the top of every page, whatever the app's theme.

    The print preview records each page as a QPicture and replays it on a widget painter
    whose pen comes from the application palette (near-white in the dark theme). QPainter
    skips a setPen equal to the current pen, so black text painted before any other pen
    was never recorded and came out near-white. Changing the pen first forces black in."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(_grey(_BLACK))


def paint_layout(painter: QPainter, device: QPagedPaintDevice, layout: DocumentLayout) -> None:
    """Paint laid-out pages with an active painter on ``device``, starting new pages."""
    setter = layout.setter
    colors = TrackColors.print_colors()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    for number, page in enumerate(layout.pages):
        if number > 0 and not device.newPage():
            raise ExportError("The printer or PDF writer refused to start a new page.")
        _start_paper_page(painter)
        for op in page.ops:
            if isinstance(op, _TextOp):
                painter.setFont(setter.font(op.role))
                painter.setPen(_grey(_BLACK))
                painter.drawText(op.rect, _text_flags(op.align), op.text)
            elif isinstance(op, _LineOp):
                pen = QPen(_grey(op.grey), op.width)
                pen.setCapStyle(Qt.PenCapStyle.FlatCap)
                painter.setPen(pen)
                painter.drawLine(op.line)
            elif isinstance(op, _BoxOp):
                if op.fill is not None:
                    painter.fillRect(op.rect, _grey(op.fill))
                if op.stroke is not None:
                    painter.setPen(QPen(_grey(op.stroke), op.width))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawRect(op.rect)
            else:
                font = setter.font_of(op.font_size)
                if op.block.kind is TrackKind.BAR:
                    paint_hp_bar(painter, op.rect, op.block.track, colors, font, labels=True,
                                 show_damage=op.block.show_damage)
                else:
                    paint_box_chart(painter, op.rect, op.block.track, colors, font,
                                    show_damage=op.block.show_damage)


def page_layout(page_size: PageSize) -> QPageLayout:
    """Portrait ``page_size`` with the sheet margins."""
    return QPageLayout(
        QPageSize(_PAGE_SIZES[page_size]),
        QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )


def configure_device(device: QPagedPaintDevice, page_size: PageSize) -> None:
    """Set the page size and margins on a PDF writer or printer."""
    if not device.setPageLayout(page_layout(page_size)):
        # A printer whose hardware margins are wider keeps its own; the layout adapts.
        device.setPageSize(QPageSize(_PAGE_SIZES[page_size]))


def render_document(device: QPagedPaintDevice, document: ExportDocument) -> RenderResult:
    """Lay out and paint ``document`` on ``device`` (PDF writer or printer) as it is set up."""
    layout = layout_document(document, device)
    painter = QPainter()
    if not painter.begin(device):
        raise ExportError("Could not start drawing on the printer or PDF file.")
    try:
        paint_layout(painter, device, layout)
    finally:
        painter.end()
    return _record(layout)


def pdf_bytes(document: ExportDocument, page_size: PageSize) -> tuple[bytes, RenderResult]:
    """The PDF of ``document``, in memory, with what was placed where."""
    ensure_gui_application()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_RESOLUTION)
    writer.setTitle(document.title)
    writer.setCreator(f"{APP_NAME} {__version__}")
    configure_device(writer, page_size)
    result = render_document(writer, document)
    del writer
    buffer.close()
    return bytes(data.data()), result


def write_pdf(document: ExportDocument, path: Path, page_size: PageSize) -> RenderResult:
    """Write the PDF to ``path`` atomically; ExportError with a readable reason on failure."""
    data, result = pdf_bytes(document, page_size)
    write_file_atomically(path, data)
    return result
