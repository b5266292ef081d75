"""Document blocks (text, fields, tables, columns, damage tracks, headings, card titles)
turned into pieces for a given width, ready to be flowed onto pages."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLineF, QRectF, QSizeF

from mneme_desktop.drawing.box_chart_painter import box_chart_size_hint
from mneme_desktop.drawing.track_painter import hp_bar_size_hint
from mneme_desktop.export.document import (
    Align,
    Block,
    Card,
    Cell,
    Columns,
    Fields,
    Heading,
    Table,
    Text,
    TrackBlock,
    TrackKind,
)
from mneme_desktop.export.placement import (
    BoxOp,
    Item,
    LineOp,
    Op,
    Parallel,
    Piece,
    TextOp,
    TrackOp,
    run_height,
)
from mneme_desktop.export.typesetting import (
    BLACK,
    HEADER_FILL,
    LIGHT_RULE_GREY,
    RULE_GREY,
    Role,
    Typesetter,
)

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


class Builder:
    """Turns model blocks into pieces for a given width."""

    def __init__(self, setter: Typesetter) -> None:
        self.s = setter

    # -- shared bits --

    def _lines(
        self,
        ops: list[Op],
        lines: Sequence[str],
        role: Role,
        x: float,
        y: float,
        width: float,
        align: Align = Align.LEFT,
    ) -> float:
        """Append one text op per line from ``y`` down; returns the y below the last."""
        height = self.s.line_height(role)
        for line in lines:
            if line:
                ops.append(TextOp(QRectF(x, y, width, height), line, role, align))
            y += height
        return y

    def heading_piece(self, title: str, width: float, *, space: float = 7.0,
                      card: bool = False) -> Piece:
        """A section title over a thin rule; kept with whatever follows."""
        role = Role.CARD_HEADING if card else Role.HEADING
        if card:
            space = min(space, 3.5)
        ops: list[Op] = []
        y = self._lines(ops, self.s.wrap(title, role, width), role, 0, 0, width)
        rule = self.s.pt(0.6)
        y += self.s.pt(0.8)
        ops.append(LineOp(QLineF(0, y, width, y), rule, RULE_GREY))
        return Piece(y + self.s.pt(2.2), ops, keep_with_next=True, space_before=self.s.pt(space))

    # -- blocks --

    def pieces(self, block: Block, width: float, frame_height: float, *, card: bool = False,
               ) -> list[Item]:
        """The pieces of ``block``; the first keeps at least a small gap from what is above."""
        pieces = self._pieces(block, width, frame_height, card=card)
        if pieces:
            gap = self.s.pt(3 if card else 4)
            pieces[0].space_before = max(pieces[0].space_before, gap)
        return pieces

    def _pieces(self, block: Block, width: float, frame_height: float, *, card: bool,
                ) -> list[Item]:
        if isinstance(block, Table):
            return self.table(block, width, card=card)
        if isinstance(block, Text):
            return self.text(block, width, card=card)
        if isinstance(block, Fields):
            return self.fields(block, width, card=card)
        if isinstance(block, TrackBlock):
            return [self.track(block, width, frame_height)]
        return self.columns(block, width, frame_height, card=card)

    def text(self, block: Text, width: float, *, card: bool = False) -> list[Item]:
        role = Role.SMALL if block.small or card else Role.BODY
        pieces: list[Item] = []
        if block.title:
            pieces.append(self.heading_piece(block.title, width, card=card))
        height = self.s.line_height(role)
        for paragraph in block.paragraphs:
            for number, line in enumerate(self.s.wrap(paragraph, role, width)):
                ops: list[Op] = []
                self._lines(ops, [line], role, 0, 0, width)
                gap = self.s.pt(2.5) if number == 0 and pieces else 0.0
                pieces.append(Piece(height, ops, space_before=gap))
        ruled = self.s.pt(16)
        for _ in range(block.blank_lines):
            ops = [LineOp(QLineF(0, ruled, width, ruled), self.s.pt(0.4), LIGHT_RULE_GREY)]
            pieces.append(Piece(ruled + self.s.pt(1), ops, optional=True))
        return pieces

    def fields(self, block: Fields, width: float, *, card: bool = False) -> list[Item]:
        """Label/value pairs set along lines; an empty value is a blank to write in."""
        label_role, value_role = Role.LABEL, Role.BODY
        if card:
            label_role, value_role = Role.SMALL_LABEL, Role.SMALL
        height = max(self.s.line_height(label_role), self.s.line_height(value_role))
        pieces: list[Item] = []
        if block.title:
            pieces.append(self.heading_piece(block.title, width, card=card))
        gap = self.s.pt(4)
        spacing = self.s.pt(12)
        blank = self.s.pt(42)
        line_ops: list[Op] = []
        x = 0.0

        def flush() -> None:
            nonlocal line_ops, x
            if line_ops:
                pieces.append(Piece(height + self.s.pt(1.5), line_ops))
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
                    line_ops.append(TextOp(QRectF(0, 0, label_w, height), label, label_role,
                                            Align.LEFT))
                    line_ops.append(TextOp(QRectF(label_w + gap, 0, first_width, height),
                                            first, value_role, Align.LEFT))
                else:
                    line_ops.append(TextOp(QRectF(0, 0, width, height), label, label_role,
                                            Align.LEFT))
                flush()
                rest = value[len(first):].strip()
                for line in self.s.wrap(rest, value_role, width) if rest else []:
                    if not line:
                        continue
                    line_ops.append(TextOp(QRectF(0, 0, width, height), line, value_role,
                                            Align.LEFT))
                    flush()
                continue
            line_ops.append(TextOp(QRectF(x, 0, label_w, height), label, label_role,
                                    Align.LEFT))
            value_x = x + label_w + gap
            if value:
                line_ops.append(TextOp(QRectF(value_x, 0, value_w, height), value, value_role,
                                        Align.LEFT))
            else:
                base = height - self.s.pt(1)
                line_ops.append(LineOp(QLineF(value_x, base, value_x + blank, base),
                                        self.s.pt(0.5), RULE_GREY))
            x = value_x + value_w + spacing
        flush()
        return pieces

    def _track_font(self, block: TrackBlock, role: Role, width: float,
                    max_height: float) -> tuple[float, QSizeF]:
        """The largest type size (down to 4.5 pt) at which the track fits the space."""
        size = role.size
        while True:
            font = self.s.font_of(size)
            if block.kind is TrackKind.BAR:
                hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
            else:
                hint = box_chart_size_hint(block.track, font, self.s.device, block.chart)
            if (hint.width() <= width and hint.height() <= max_height) or size <= 4.5:
                return size, hint
            size -= 0.5

    def track(self, block: TrackBlock, width: float, max_height: float,
              role: Role = Role.TRACK) -> Piece:
        size, hint = self._track_font(block, role, width, max_height)
        box_width = width if block.kind is TrackKind.BAR else hint.width()
        rect = QRectF(0, 0, box_width, hint.height())
        return Piece(hint.height() + self.s.pt(3),
                      [TrackOp(rect, block, size, hint)], space_before=self.s.pt(4))

    def columns(self, block: Columns, width: float, frame_height: float, *, card: bool
                ) -> list[Item]:
        """Side by side; each column flows on to the next page by itself if it must."""
        gutter = self.s.pt(14)
        total = sum(block.weights)
        usable = width - gutter * (len(block.parts) - 1)
        widths = [usable * weight / total for weight in block.weights]
        lefts = [sum(widths[:index]) + gutter * index for index in range(len(widths))]
        runs: list[list[Item]] = [[] for _ in widths]
        for index, part in enumerate(block.parts):
            for inner in part:
                runs[index].extend(self.pieces(inner, widths[index], frame_height, card=card))
        for inner in block.extra:
            heights = [run_height(run) for run in runs]
            index = heights.index(min(heights))
            runs[index].extend(self.pieces(inner, widths[index], frame_height, card=card))
        for run in runs:
            if run:
                run[0].space_before = 0.0  # the columns' own gap is above them all
        return [Parallel(list(zip(lefts, runs, strict=True)), space_before=self.s.pt(4))]

    # -- tables --

    def _cell_widths(self, table: Table, width: float, body: Role, head: Role,
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
                    role = Role.TRACK_CELL
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
        role: Role,
        pad: float,
        *,
        fill: int | None = None,
        min_height: float = 0.0,
    ) -> Piece:
        ops: list[Op] = []
        pad_y = self.s.pt(1.6)
        content = 0.0
        x = 0.0
        track_ops: list[tuple[float, float, TrackBlock]] = []
        for cell, width, align in zip(cells, widths, aligns, strict=True):
            inner = max(1.0, width - 2 * pad)
            if isinstance(cell, TrackBlock):
                track_ops.append((x + pad, inner, cell))
                font = self.s.font(Role.TRACK_CELL)
                hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
                content = max(content, hint.height())
            else:
                lines = self.s.wrap(cell, role, inner)
                bottom = self._lines(ops, lines, role, x + pad, pad_y, inner, align)
                content = max(content, bottom - pad_y)
            x += width
        height = max(min_height, content + 2 * pad_y)
        for left, inner, block in track_ops:
            font = self.s.font(Role.TRACK_CELL)
            hint = hp_bar_size_hint(font, labels=True, device=self.s.device)
            rect = QRectF(left, (height - hint.height()) / 2, inner, hint.height())
            ops.append(TrackOp(rect, block, Role.TRACK_CELL.size, hint))
        frame: list[Op] = []
        if fill is not None:
            frame.append(BoxOp(QRectF(0, 0, x, height), fill, None, 0))
        thin = self.s.pt(0.4)
        frame.append(LineOp(QLineF(0, height, x, height), thin, RULE_GREY))
        edge = 0.0
        for width in widths[:-1]:
            edge += width
            frame.append(LineOp(QLineF(edge, 0, edge, height), thin, LIGHT_RULE_GREY))
        frame.append(LineOp(QLineF(0, 0, 0, height), thin, RULE_GREY))
        frame.append(LineOp(QLineF(x, 0, x, height), thin, RULE_GREY))
        return Piece(height, frame + ops)

    def table(self, table: Table, width: float, *, card: bool = False) -> list[Item]:
        body = Role.CARD_TABLE if card or table.small else Role.TABLE
        head = Role.CARD_HEADER if card or table.small else Role.TABLE_HEADER
        pad = self.s.pt(2.6)
        title = self.heading_piece(table.title, width, card=card) if table.title else None
        pieces: list[Item] = [title] if title else []
        if not table.rows and not table.blank_rows:
            role = Role.SMALL
            for line in self.s.wrap(table.empty or "None", role, width):
                ops: list[Op] = []
                self._lines(ops, [line], role, 0, 0, width)
                pieces.append(Piece(self.s.line_height(role), ops))
            return pieces
        widths = self._cell_widths(table, width, body, head, pad)
        aligns = [column.align for column in table.columns]
        header = self._row_piece([c.header for c in table.columns], widths, aligns, head, pad,
                                 fill=HEADER_FILL)
        header.ops.append(LineOp(QLineF(0, 0, sum(widths), 0), self.s.pt(0.6), RULE_GREY))
        header.keep_with_next = True
        pieces.append(header)
        repeat: list[Piece] = []
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
            role = Role.SMALL
            for number, line in enumerate(self.s.wrap(table.note, role, width)):
                ops = []
                self._lines(ops, [line], role, 0, 0, width)
                pieces.append(Piece(self.s.line_height(role), ops,
                                     space_before=self.s.pt(1.5) if number == 0 else 0.0))
        return pieces

    # -- headings --

    def sheet_heading(self, heading: Heading, width: float) -> Piece:
        ops: list[Op] = []
        aside_width = 0.0
        if heading.aside:
            aside_width = min(width * 0.34,
                              max(self.s.advance(line, Role.ASIDE) for line in heading.aside)
                              + self.s.pt(1))
        gutter = self.s.pt(10) if aside_width else 0.0
        title_width = width - aside_width - gutter
        y = self._lines(ops, self.s.wrap(heading.title, Role.TITLE, title_width), Role.TITLE,
                        0, 0, title_width)
        if heading.subtitle:
            y = self._lines(ops, self.s.wrap(heading.subtitle, Role.SUBTITLE, title_width),
                            Role.SUBTITLE, 0, y, title_width)
        aside_y = self.s.pt(2)
        for line in heading.aside:
            aside_y = self._lines(ops, self.s.wrap(line, Role.ASIDE, aside_width), Role.ASIDE,
                                  width - aside_width, aside_y, aside_width, Align.RIGHT)
        y = max(y, aside_y) + self.s.pt(2.5)
        ops.append(LineOp(QLineF(0, y, width, y), self.s.pt(1.2), BLACK))
        return Piece(y + self.s.pt(2), ops)

    def card_title(self, card: Card, width: float, *, continued: bool = False) -> Piece:
        ops: list[Op] = []
        title = f"{card.title} (continued)" if continued else card.title
        y = self._lines(ops, self.s.wrap(title, Role.CARD_TITLE, width), Role.CARD_TITLE,
                        0, 0, width)
        if card.subtitle and not continued:
            y = self._lines(ops, self.s.wrap(card.subtitle, Role.SMALL, width), Role.SMALL,
                            0, y, width)
        y += self.s.pt(1.5)
        ops.append(LineOp(QLineF(0, y, width, y), self.s.pt(0.8), BLACK))
        return Piece(y + self.s.pt(1), ops, keep_with_next=True)
