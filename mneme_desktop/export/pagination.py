"""Pieces flowed into frames and pages: sheets flow down and onto more pages, card sheets
fill a grid, and every page gets its footer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QPaintDevice

from mneme_desktop.export.block_layout import Builder
from mneme_desktop.export.document import Align, Card, CardSheet, ExportDocument, Sheet
from mneme_desktop.export.fonts import load_bundled_fonts
from mneme_desktop.export.placement import (
    BoxOp,
    Frame,
    Item,
    LineOp,
    Page,
    Piece,
    PlacedGraphic,
    PlacedText,
    RenderResult,
    TextOp,
    TrackOp,
    moved,
)
from mneme_desktop.export.typesetting import BLACK, RULE_GREY, Role, Typesetter, text_flags

__all__ = [
    "DocumentLayout",
    "layout_document",
]

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

    def __init__(self, pages: list[Page], new_frame: Callable[[], Frame]) -> None:
        self.pages = pages
        self.new_frame = new_frame
        self.frames = [new_frame()]
        self.cursor = _Cursor(0, self.frames[0].rect.top(), True)

    def _frame(self, index: int) -> Frame:
        while len(self.frames) <= index:
            self.frames.append(self.new_frame())
        return self.frames[index]

    @staticmethod
    def _group_height(items: Sequence[Item], start: int, fresh: bool) -> float:
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

    def _put(self, piece: Piece, cursor: _Cursor, dx: float) -> None:
        if not cursor.fresh:
            cursor.y += piece.space_before
        frame = self._frame(cursor.frame)
        left = frame.rect.left() + dx
        self.pages[frame.page].ops.extend(moved(op, left, cursor.y) for op in piece.ops)
        cursor.y += piece.height
        cursor.fresh = False

    def _break(self, cursor: _Cursor) -> None:
        cursor.frame += 1
        cursor.y = self._frame(cursor.frame).rect.top()
        cursor.fresh = True

    def _run(self, items: Sequence[Item], cursor: _Cursor, dx: float) -> _Cursor:
        for index, item in enumerate(items):
            needed = self._group_height(items, index, cursor.fresh)
            bottom = self._frame(cursor.frame).rect.bottom()
            if not cursor.fresh and cursor.y + needed > bottom + 0.01:
                if isinstance(item, Piece) and item.optional:
                    continue
                self._break(cursor)
                for repeated in item.repeat or ():
                    self._put(repeated, cursor, dx)
            if isinstance(item, Piece):
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

    def place(self, items: Sequence[Item]) -> None:
        self.cursor = self._run(items, self.cursor, 0.0)


# --- document layout -----------------------------------------------------------------------


@dataclass
class DocumentLayout:
    """Pages of drawing operations for one device, ready to paint."""

    pages: list[Page]
    setter: Typesetter
    page_rect: QRectF

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def placed(self) -> RenderResult:
        """Where every line of text and every track went (without painting)."""
        return record_placements(self)


def _footer_height(setter: Typesetter) -> float:
    return setter.line_height(Role.FOOTER) + setter.pt(6)


class _Paginator:
    def __init__(self, setter: Typesetter, page_rect: QRectF) -> None:
        self.setter = setter
        self.page_rect = page_rect
        self.pages: list[Page] = []
        self.body = QRectF(page_rect)
        self.body.setBottom(page_rect.bottom() - _footer_height(setter))
        self.builder = Builder(setter)

    def new_page(self, footer: str) -> int:
        self.pages.append(Page(footer=footer))
        return len(self.pages) - 1

    def sheet(self, sheet: Sheet) -> None:
        width = self.body.width()

        def next_page() -> Frame:
            return Frame(self.new_page(sheet.footer), self.body)

        flow = _Flow(self.pages, next_page)
        pieces: list[Item] = [self.builder.sheet_heading(sheet.heading, width)]
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

    def _card_pieces(self, card: Card, width: float, height: float) -> list[Item]:
        pieces: list[Item] = [self.builder.card_title(card, width)]
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

        def next_cell() -> Frame:
            if cursor["cell"] >= per_page:
                cursor["page"] = self.new_page(sheet.footer)
                page = self.pages[cursor["page"]]
                page.ops.extend(moved(op, self.body.left(), self.body.top())
                                for op in heading.ops)
                cursor["cell"] = 0
            cell = cells[cursor["cell"]]
            cursor["cell"] += 1
            border = self.setter.pt(0.7)
            self.pages[cursor["page"]].ops.append(BoxOp(cell, None, BLACK, border))
            return Frame(cursor["page"], cell.adjusted(pad, pad, -pad, -pad))

        flow: _Flow | None = None
        for pieces in prepared:
            if flow is None:
                flow = _Flow(self.pages, next_cell)
            else:
                flow.break_frame()
            flow.place(pieces)

    def footers(self) -> None:
        total = len(self.pages)
        height = self.setter.line_height(Role.FOOTER)
        y = self.page_rect.bottom() - height
        width = self.page_rect.width()
        left = self.page_rect.left()
        for number, page in enumerate(self.pages, start=1):
            number_text = f"Page {number} of {total}"
            number_width = self.setter.advance(number_text, Role.FOOTER) + self.setter.pt(1)
            text_width = width - number_width - self.setter.pt(12)
            page.ops.append(LineOp(QLineF(left, y - self.setter.pt(2.5), left + width,
                                           y - self.setter.pt(2.5)),
                                    self.setter.pt(0.4), RULE_GREY))
            lines = self.setter.wrap(page.footer, Role.FOOTER, text_width)
            if lines and lines[0]:
                shown = lines[0] if len(lines) == 1 else lines[0].rstrip() + " …"
                if self.setter.advance(shown, Role.FOOTER) > text_width:
                    shown = lines[0]
                page.ops.append(TextOp(QRectF(left, y, text_width, height), shown,
                                        Role.FOOTER, Align.LEFT))
            page.ops.append(TextOp(QRectF(left + width - number_width, y, number_width, height),
                                    number_text, Role.FOOTER, Align.RIGHT))


def layout_document(
    document: ExportDocument, device: QPaintDevice, *, family: str | None = None
) -> DocumentLayout:
    """Lay ``document`` out for ``device`` (whose page layout must already be set)."""
    setter = Typesetter(device, family or load_bundled_fonts())
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


def record_placements(layout: DocumentLayout) -> RenderResult:
    setter = layout.setter
    result = RenderResult(layout.page_count, layout.page_rect, setter.scale)
    texts, graphics = result.texts, result.graphics
    # Where a line's glyphs go inside its box depends on the text, font, alignment and box
    # size, not on where the box is: measured once per distinct line (a batch repeats the
    # same labels and values on every sheet), then moved to each box. Qt adds the box's
    # corner to the offset it measured, so the sum is the same to the last bit.
    inside: dict[tuple[str, tuple[float, bool], Align, float, float], QRectF] = {}
    for number, page in enumerate(layout.pages):
        for op in page.ops:
            if type(op) is TextOp:
                rect = op.rect
                width, height = rect.width(), rect.height()
                key = (op.text, op.role.font_key, op.align, width, height)
                local = inside.get(key)
                if local is None:
                    local = setter.metrics(op.role).boundingRect(
                        QRectF(0, 0, width, height), text_flags(op.align), op.text)
                    inside[key] = local
                needed = local.translated(rect.x(), rect.y())
                texts.append(PlacedText(number, rect, op.text, needed, op.role.size))
            elif type(op) is TrackOp:
                graphics.append(PlacedGraphic(number, op.rect, op.needed,
                                              op.block.description))
    return result
