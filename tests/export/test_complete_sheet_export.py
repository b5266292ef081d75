"""The complete sheet on paper and in files: species, age, credits, careers and terms and
the equipment table are printed (PDF, HTML) and exported (JSON, importable again)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from mneme_desktop.domain import Campaign, Character
from mneme_desktop.domain.character import Career, EquipmentItem
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.html import render_html
from mneme_desktop.export.json_export import export_json
from mneme_desktop.export.pdf import write_pdf
from mneme_desktop.settings import PageSize
from mneme_desktop.storage.characters import character_from_document
from tests.export.helpers import pdf_text, squash


def _complete(campaign: Campaign) -> Character:
    character = campaign.characters[0]
    character.species = "Vargr"
    character.age = 38
    character.credits = 12_500
    character.careers = [Career(name="Scout", terms=3, rank="Courier"),
                         Career(name="Drifter", terms=1)]
    character.equipment = [
        EquipmentItem(name="Rations", count=6, mass=Decimal("0.25"), notes="one week"),
        EquipmentItem(name="Comm"),
    ]
    return character


def test_the_html_sheet_prints_every_new_field(campaign: Campaign) -> None:
    character = _complete(campaign)
    page = render_html(build_document(campaign, ExportTarget.character(character.id),
                                      ExportOptions(show_damage=True)))
    for expected in ("Vargr", "38", "12,500 Cr", "Scout 3 terms (Courier), Drifter 1 term",
                     "Rations", "one week", "0.25 kg", "1.5 kg", "Comm",
                     "Total mass carried: 1.5 kg"):
        assert expected in page, expected


def test_the_pdf_sheet_prints_them_and_an_ordinary_one_stays_one_page(
        campaign: Campaign, tmp_path: Path) -> None:
    character = _complete(campaign)
    document = build_document(campaign, ExportTarget.character(character.id),
                              ExportOptions(show_damage=True))
    result = write_pdf(document, tmp_path / "sheet.pdf", PageSize.A4)
    text = squash(pdf_text(tmp_path / "sheet.pdf"))
    for expected in ("Vargr", "12,500 Cr", "Scout 3 terms", "Rations", "Total mass carried"):
        assert squash(expected) in text, expected
    assert result.page_count <= 2
    plain = campaign.characters[1]
    assert not plain.equipment and plain.careers  # background filled, no equipment table
    one = write_pdf(build_document(campaign, ExportTarget.character(plain.id),
                                   ExportOptions(show_damage=True)),
                    tmp_path / "plain.pdf", PageSize.A4)
    assert one.page_count == 1


def test_json_export_holds_the_fields_and_imports_back(campaign: Campaign) -> None:
    character = _complete(campaign)
    data = export_json(campaign, ExportTarget.character(character.id))
    stored = json.loads(data)["character"]
    assert stored["species"] == "Vargr" and stored["age"] == 38 and stored["credits"] == 12_500
    assert stored["careers"][0] == {"name": "Scout", "terms": 3, "rank": "Courier"}
    assert stored["equipment"][0]["mass"] == "0.25"
    again = character_from_document(data)
    assert (again.species, again.age, again.credits, again.careers, again.equipment) == (
        character.species, character.age, character.credits, character.careers,
        character.equipment)
