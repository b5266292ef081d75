"""The PDF path's caches, proved by counting calls (never by timing): alignment flags built
once per alignment, each string measured once per font, each distinct line's glyph box
measured once, one pen per grey and width; and the cached answers equal fresh ones."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QBuffer, QRectF, Qt
from PySide6.QtGui import QPdfWriter

from mneme_desktop.domain import Campaign, CharacterKind
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import Align
from mneme_desktop.export.fonts import load_bundled_fonts
from mneme_desktop.export.pagination import layout_document, record_placements
from mneme_desktop.export.pdf import PDF_RESOLUTION, _Inks, configure_device, pdf_bytes
from mneme_desktop.export.placement import TextOp
from mneme_desktop.export.typesetting import Role, Typesetter, text_flags
from mneme_desktop.settings import PageSize


def _batch(campaign: Campaign, sheets: int) -> Campaign:
    """The sample's player characters repeated to ``sheets`` (as the benchmark does)."""
    players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    for number in range(sheets - len(players)):
        source = players[number % len(players)]
        campaign.add_character(source.model_copy(
            deep=True, update={"name": f"{source.name} {number + 2}"}))
    return campaign


def _writer() -> QPdfWriter:
    writer = QPdfWriter(QBuffer())
    writer.setResolution(PDF_RESOLUTION)
    configure_device(writer, PageSize.A4)
    return writer


def test_text_flags_are_built_once_per_alignment(campaign: Campaign) -> None:
    document = build_document(_batch(campaign, 12), ExportTarget.player_characters(),
                              ExportOptions(show_damage=True))
    text_flags.cache_clear()
    _data, result = pdf_bytes(document, PageSize.A4)
    info = text_flags.cache_info()
    assert info.misses <= len(Align)
    # The painter asks for them for every line of text.
    assert info.hits + info.misses >= len(result.texts)
    for align, flag in ((Align.LEFT, Qt.AlignmentFlag.AlignLeft),
                        (Align.CENTER, Qt.AlignmentFlag.AlignHCenter),
                        (Align.RIGHT, Qt.AlignmentFlag.AlignRight)):
        assert text_flags(align) == int(flag | Qt.AlignmentFlag.AlignTop
                                        | Qt.TextFlag.TextSingleLine)


def test_each_string_is_measured_once_per_font(monkeypatch: pytest.MonkeyPatch) -> None:
    setter = Typesetter(_writer(), load_bundled_fonts())
    fresh = setter.metrics(Role.BODY).horizontalAdvance("Gauss rifle")
    calls: list[Role] = []
    original = Typesetter.metrics

    def counting(self: Typesetter, role: Role) -> object:
        calls.append(role)
        return original(self, role)

    monkeypatch.setattr(Typesetter, "metrics", counting)
    for _ in range(50):
        assert setter.advance("Gauss rifle", Role.BODY) == fresh
        setter.advance("Level", Role.TABLE_HEADER)
        setter.longest_word("Level", Role.TABLE_HEADER)
        setter.widest_line("Level", Role.TABLE_HEADER)
    assert calls == [Role.BODY, Role.TABLE_HEADER]


def test_placements_measure_each_distinct_line_once_and_match_qt(
        campaign: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    document = build_document(_batch(campaign, 8), ExportTarget.player_characters(),
                              ExportOptions(show_damage=True))
    layout = layout_document(document, _writer())
    ops = [(number, op) for number, page in enumerate(layout.pages) for op in page.ops
           if isinstance(op, TextOp)]
    calls: list[Role] = []
    original = Typesetter.metrics

    def counting(self: Typesetter, role: Role) -> object:
        calls.append(role)
        return original(self, role)

    monkeypatch.setattr(Typesetter, "metrics", counting)
    result = record_placements(layout)
    distinct = {(op.text, op.role.font_key, op.align, op.rect.width(), op.rect.height())
                for _number, op in ops}
    assert len(calls) == len(distinct) < len(ops) // 2
    monkeypatch.undo()
    assert len(result.texts) == len(ops)
    for (number, op), placed in zip(ops, result.texts, strict=True):
        fresh = layout.setter.metrics(op.role).boundingRect(op.rect, text_flags(op.align),
                                                            op.text)
        assert placed.page == number and placed.box == op.rect and placed.text == op.text
        # Exactly, not approximately: the cached box moved into place is Qt's own answer.
        assert (placed.needed.x(), placed.needed.y(), placed.needed.width(),
                placed.needed.height()) == (fresh.x(), fresh.y(), fresh.width(),
                                            fresh.height())


def test_inks_build_each_grey_and_pen_once() -> None:
    inks = _Inks()
    assert inks.grey(0) is inks.black
    assert inks.grey(110) is inks.grey(110)
    flat = inks.pen(110, 4.0, True)
    assert inks.pen(110, 4.0, True) is flat
    assert flat.capStyle() == Qt.PenCapStyle.FlatCap
    assert flat.color().red() == 110 and flat.widthF() == 4.0
    square = inks.pen(110, 4.0, False)
    assert square is not flat and square.capStyle() == Qt.PenCapStyle.SquareCap


def test_role_sizes_are_plain_values() -> None:
    assert Role.TITLE.size == 17.0 and Role.TITLE.bold is True
    assert Role.BODY.font_key == (8.5, False) == Role.BODY.value
    assert QRectF(0, 0, 1, 1).translated(2, 3) == QRectF(2, 3, 1, 1)
