"""The document model as Markdown, for a wiki, a forum post or the players' group chat.

The same :class:`~mneme_desktop.export.document.ExportDocument` that prints and becomes
HTML: headings, "label: value" lists, pipe tables and paragraphs. Campaign text is escaped
so a name with ``*`` or ``|`` stays a name and never becomes markup or a table column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mneme_desktop.export.document import (
    Block,
    CardSheet,
    Columns,
    ExportDocument,
    Fields,
    Heading,
    Table,
    Text,
    TrackBlock,
)
from mneme_desktop.export.safe_text import clean_text

__all__ = ["escape_markdown", "render_markdown"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|!~])")
_BULLET_START = re.compile(r"^(\s*)([-+])(\s|$)")
_NUMBER_START = re.compile(r"^(\s*\d+)([.)])(\s|$)")
_RULE = re.compile(r"\s*[-=]{2,}[-=\s]*")


def escape_markdown(text: str) -> str:
    """``text`` read as itself: markup characters escaped, a line that would start a list
    or a heading kept a line of text."""
    lines = []
    for line in clean_text(text).splitlines() or [""]:
        line = _SPECIAL.sub(r"\\\1", line)
        line = _BULLET_START.sub(r"\1\\\2\3", line)
        line = _NUMBER_START.sub(r"\1\\\2\3", line)
        if _RULE.fullmatch(line):  # a rule, or the underline that makes a heading
            line = "\\" + line.lstrip()
        lines.append(line)
    return "\n".join(lines)


def _cell(text: str) -> str:
    """A table cell: one line (line breaks become ``<br/>``, the one tag written; Qt's own
    Markdown reader drops the rest of a table after a bare ``<br>``)."""
    return "<br/>".join(escape_markdown(line) for line in text.splitlines()) or " "


def _heading(heading: Heading, level: int) -> Iterator[str]:
    yield f"{'#' * level} {escape_markdown(heading.title)}"
    yield ""
    details = [heading.subtitle, *heading.aside]
    for detail in (d for d in details if d):
        yield f"*{escape_markdown(detail)}*  "
    if any(details):
        yield ""


def _block(block: Block, level: int) -> Iterator[str]:
    hashes = "#" * level
    if isinstance(block, Fields):
        if block.title:
            yield f"{hashes} {escape_markdown(block.title)}"
            yield ""
        for label, value in block.items:
            yield f"- **{escape_markdown(label)}:** {escape_markdown(value)}"
        yield ""
    elif isinstance(block, Table):
        if block.title:
            yield f"{hashes} {escape_markdown(block.title)}"
            yield ""
        if block.rows:
            yield "| " + " | ".join(_cell(c.header) for c in block.columns) + " |"
            yield "|" + "|".join(" ---: " if c.align.value == "right" else " --- "
                                 for c in block.columns) + "|"
            for row in block.rows:
                cells = (cell.description if isinstance(cell, TrackBlock) else cell
                         for cell in row)
                yield "| " + " | ".join(_cell(c) for c in cells) + " |"
        elif block.empty:
            yield escape_markdown(block.empty)
        if block.note:
            yield ""
            yield f"*{escape_markdown(block.note)}*"
        yield ""
    elif isinstance(block, Text):
        if block.title:
            yield f"{hashes} {escape_markdown(block.title)}"
            yield ""
        for paragraph in block.paragraphs:
            # A line break inside a paragraph is kept: two trailing spaces.
            yield "  \n".join(escape_markdown(line) for line in paragraph.splitlines())
            yield ""
    elif isinstance(block, TrackBlock):
        yield escape_markdown(block.description)
        yield ""
    elif isinstance(block, Columns):
        for part in block.parts:
            for inner in part:
                yield from _block(inner, level)
        for inner in block.extra:
            yield from _block(inner, level)


def render_markdown(document: ExportDocument) -> str:
    """The whole document as Markdown text, each part under its own top heading."""
    lines: list[str] = []
    for part in document.parts:
        lines += _heading(part.heading, 1)
        if isinstance(part, CardSheet):
            for card in part.cards:
                lines += [f"## {escape_markdown(card.title)}", ""]
                if card.subtitle:
                    lines += [f"*{escape_markdown(card.subtitle)}*", ""]
                for block in card.blocks:
                    lines += _block(block, 3)
        else:
            for block in part.blocks:
                lines += _block(block, 2)
        if part.footer:
            lines += ["---", "", f"*{escape_markdown(part.footer)}*", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
