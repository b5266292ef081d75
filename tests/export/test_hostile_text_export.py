"""Hostile text in exports: NUL, control characters, bidi overrides and lone surrogates never
reach the printed page, whatever field of the campaign they were typed into."""

from __future__ import annotations

from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign, Character, Characteristics, Weapon
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import (
    Column,
    ExportDocument,
    Heading,
    Sheet,
    Table,
    Text,
    iter_strings,
)
from mneme_desktop.export.html import html_bytes, render_html, write_html
from mneme_desktop.export.safe_text import clean_text, sanitised
from mneme_desktop.settings import PageSize

NUL = "\x00"
RLO = "\u202e"  # right-to-left override: "Bob\u202eevil" prints as "Boblive"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _hostile(campaign: Campaign) -> Character:
    character = Character(
        name=f"Vex{NUL}{RLO}reniM",
        player=f"Ann{BIDI_CONTROLS}\x07\x1b[31m",
        characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
        weapons=[Weapon(name=f"Knife{NUL}{RLO}", damage="2d6", notes=f"sharp{NUL}\u2066x")],
        notes=f"line one{NUL}\r\nline {RLO}two\x7f\x85 and \ud800 alone",
    )
    return campaign.add_character(character)


def _document(campaign: Campaign) -> ExportDocument:
    character = _hostile(campaign)
    return build_document(campaign, ExportTarget.character(character.id),
                          ExportOptions(show_damage=True))


def _unsafe(text: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text
            if ch == NUL or ch in BIDI_CONTROLS or "\ud800" <= ch <= "\udfff"
            or (ord(ch) < 32 and ch not in "\n\t") or 0x7F <= ord(ch) <= 0x9F]


def test_clean_text_drops_nul_controls_and_bidi_overrides() -> None:
    assert clean_text(f"Vex{NUL}{RLO}reniM") == "VexreniM"
    assert clean_text(f"a{BIDI_CONTROLS}b") == "ab"
    assert clean_text("bell\x07 esc\x1b del\x7f c1\x85") == "bell esc del c1"
    assert clean_text("one\r\ntwo\rthree\tfour") == "one\ntwo\nthree\tfour"
    assert clean_text("lone \ud800 surrogate") == "lone \ufffd surrogate"


def test_clean_text_keeps_ordinary_and_right_to_left_text() -> None:
    for text in ("Mara Vey", "Émile Zoë", "שלום עליכם", "مرحبا", "line\nbreak", "tab\there",
                 "left\u200emark\u200f", "☠ 🎲"):
        assert clean_text(text) == text


def test_built_document_holds_no_control_or_bidi_character(campaign: Campaign) -> None:
    document = _document(campaign)
    for text in iter_strings(document):
        assert not _unsafe(text), (text, _unsafe(text))
    assert any("VexreniM" in text for text in iter_strings(document))


def test_html_export_strips_nul(campaign: Campaign) -> None:
    page = render_html(_document(campaign))
    assert NUL not in page
    assert "&#0;" not in page and "&#x0;" not in page
    assert "VexreniM" in page
    assert "line one<br>line two and \ufffd alone" in page


def test_html_export_strips_bidi_overrides(campaign: Campaign) -> None:
    page = render_html(_document(campaign))
    assert not [ch for ch in page if ch in BIDI_CONTROLS]
    assert "Knife" in page and "sharpx" in page


def test_html_renderer_cleans_a_document_it_did_not_build(tmp_path: Path) -> None:
    """The renderer cleans too: a document made by hand (or by a future builder) that
    skipped sanitising still cannot put NUL or an override into the page."""
    hostile = f"Bob{RLO}evil{NUL}\ud800"
    document = ExportDocument(
        title=hostile,
        parts=(Sheet(
            heading=Heading(title=hostile, subtitle=hostile, aside=(hostile,)),
            blocks=(Text(title=hostile, paragraphs=(hostile,)),
                    Table(title=hostile, columns=(Column(hostile),), rows=((hostile,),),
                          note=hostile)),
            footer=hostile),),
    )
    page = render_html(document)
    assert not _unsafe(page)
    assert page.count("Bobevil\ufffd") >= 8
    write_html(document, tmp_path / "out.html")  # a lone surrogate would fail to encode
    assert (tmp_path / "out.html").read_bytes() == html_bytes(document)


def test_sanitised_keeps_the_structure_and_enums(campaign: Campaign) -> None:
    document = _document(campaign)
    again = sanitised(document)
    assert again == document
    sheet = document.parts[0]
    assert isinstance(sheet, Sheet)
    tables = [b for b in sheet.blocks if isinstance(b, Table)]
    assert tables and all(type(c.align).__name__ == "Align"
                          for t in tables for c in t.columns)


@pytest.mark.parametrize("field", ["name", "player", "notes"])
def test_each_character_field_is_cleaned(campaign: Campaign, field: str) -> None:
    character = campaign.add_character(Character(
        name="Plain", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    setattr(character, field, f"Zed{NUL}{RLO}x")
    document = build_document(campaign, ExportTarget.character(character.id),
                               ExportOptions())
    page = render_html(document)
    assert "Zedx" in page
    assert NUL not in page and RLO not in page


def test_pdf_text_has_no_nul_or_bidi_override(campaign: Campaign, tmp_path: Path) -> None:
    """The PDF renders the same cleaned document: the name reads as typed, unreordered."""
    from mneme_desktop.export.pdf import write_pdf
    from tests.export.helpers import pdf_text

    path = tmp_path / "hostile.pdf"
    write_pdf(_document(campaign), path, PageSize.A4)
    text = pdf_text(path)
    assert "VexreniM" in text
    assert not [ch for ch in text if ch == NUL or ch in BIDI_CONTROLS]
