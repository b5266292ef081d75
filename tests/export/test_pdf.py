"""PDF and print: page counts, extractable text, embedded fonts, and no clipped text."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrinter

from mneme_desktop.domain import Campaign, Character, CharacterKind, Combatant
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import ExportDocument
from mneme_desktop.export.fonts import FONT_FAMILY, FONT_FILES, fonts_folder, load_bundled_fonts
from mneme_desktop.export.pdf import configure_device, pdf_bytes, render_document, write_pdf
from mneme_desktop.export.placement import RenderResult
from mneme_desktop.settings import PageSize
from tests.export.helpers import pdf_fonts, pdf_info, pdf_page_png, pdf_text, squash

BLANK = ExportOptions(show_damage=False)
CURRENT = ExportOptions(show_damage=True)


def _players(campaign: Campaign) -> list[Character]:
    return [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]


def _write(tmp_path: Path, document: ExportDocument, page_size: PageSize = PageSize.A4,
           name: str = "out.pdf") -> tuple[Path, RenderResult]:
    path = tmp_path / name
    result = write_pdf(document, path, page_size)
    return path, result


def _assert_nothing_clipped(result: RenderResult) -> None:
    """Every line of text fits the box it was given, every box lies on the page, no two
    lines overlap, and every track got at least the size its painter asked for."""
    tolerance = result.units_per_point * 0.2
    page = result.page_rect.adjusted(-tolerance, -tolerance, tolerance, tolerance)
    for placed in result.texts:
        box = placed.box.adjusted(-tolerance, -tolerance, tolerance, tolerance)
        assert box.contains(placed.needed), f"clipped on page {placed.page + 1}: {placed.text!r}"
        assert page.contains(placed.box), f"off the page {placed.page + 1}: {placed.text!r}"
        assert placed.points >= 7.0, f"type too small: {placed.text!r} at {placed.points} pt"
    by_page: dict[int, list[QRectF]] = {}
    for placed in result.texts:
        shrunk = placed.needed.adjusted(tolerance, tolerance, -tolerance, -tolerance)
        for other in by_page.get(placed.page, []):
            assert not shrunk.intersects(other), f"overlapping text: {placed.text!r}"
        by_page.setdefault(placed.page, []).append(shrunk)
    for graphic in result.graphics:
        assert graphic.box.width() + tolerance >= graphic.needed.width(), graphic.description
        assert graphic.box.height() + tolerance >= graphic.needed.height(), graphic.description
        assert page.contains(graphic.box), graphic.description
        for placed in result.texts:
            if placed.page == graphic.page:
                assert not graphic.box.intersects(
                    placed.needed.adjusted(tolerance, tolerance, -tolerance, -tolerance)
                ), f"text over a track: {placed.text!r}"


# --- fonts ---------------------------------------------------------------------------------


def test_bundled_fonts_and_licence_are_shipped() -> None:
    folder = fonts_folder()
    for name in FONT_FILES:
        assert (folder / name).is_file(), name
    licence = (folder / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


def test_bundled_font_is_loaded() -> None:
    assert load_bundled_fonts() == FONT_FAMILY


def test_pdf_embeds_only_the_bundled_font(tmp_path: Path, campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), BLANK)
    path, _result = _write(tmp_path, document)
    fonts = pdf_fonts(path)
    assert fonts, "no fonts in the PDF"
    for row in fonts:
        assert row[0].startswith("DejaVuSans"), row
        assert "yes" in row[-5:-2], f"font not embedded: {row}"


# --- the sample campaign -------------------------------------------------------------------


def test_all_player_characters_one_page_each(tmp_path: Path, campaign: Campaign) -> None:
    players = _players(campaign)
    document = build_document(campaign, ExportTarget.player_characters(), CURRENT)
    path, result = _write(tmp_path, document)
    assert result.page_count == len(players) == 4
    assert pdf_info(path)["Pages"] == str(len(players))
    pages = [squash(page) for page in pdf_text(path).split("\f")]
    for number, character in enumerate(players):
        page = pages[number]
        assert squash(character.name) in page
        assert character.upp in page
        assert squash("STR DEX END INT EDU SOC") in page
        values = [str(value) for value in character.characteristics.values()[:6]]
        assert "Value" + "".join(values) in page
        for weapon in character.weapons:
            assert squash(weapon.name) in page
            assert weapon.damage in page
        for skill in character.skills:
            assert squash(skill.label) in page
        assert "vsJack3" in page and "vsBattleDress18" in page
        assert f"Page{number + 1}of{len(players)}" in page
    _assert_nothing_clipped(result)


def test_first_page_is_not_blank(tmp_path: Path, campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), BLANK)
    path, _result = _write(tmp_path, document)
    image = QImage(str(pdf_page_png(path, 1, tmp_path)))
    assert not image.isNull()
    dark = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            if image.pixelColor(x, y).lightness() < 128:
                dark += 1
    samples = (image.width() // 2) * (image.height() // 2)
    assert dark > samples * 0.01, f"page 1 is almost blank ({dark} dark samples of {samples})"


@pytest.mark.parametrize(("page_size", "points"), [(PageSize.A4, "595 x 842"),
                                                    (PageSize.LETTER, "612 x 792")])
def test_page_size_setting(tmp_path: Path, campaign: Campaign, page_size: PageSize,
                           points: str) -> None:
    mara = _players(campaign)[0]
    document = build_document(campaign, ExportTarget.character(mara.id), BLANK)
    path, result = _write(tmp_path, document, page_size)
    assert pdf_info(path)["Page size"].startswith(points)
    assert result.page_count == 1
    _assert_nothing_clipped(result)


def test_referee_pack_roster_and_cards(tmp_path: Path, campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    document = build_document(campaign, ExportTarget.referee_pack(ford.id), CURRENT)
    path, result = _write(tmp_path, document)
    # The roster, one page of cards, and the cards of the vehicles and objects in the fight.
    assert result.page_count == 2 + bool(ford.things)
    roster, cards = (squash(page) for page in pdf_text(path).split("\f")[:2])
    assert "Initiativeorder" in roster
    for combatant in ford.combatants:
        assert squash(campaign.combatant_character(combatant).name) in roster
    for title in ("Raider", "Raider Gunner", "Shieldwall Raider", "Raider Chief"):
        assert squash(title) in cards
    assert "3d3-6" in cards  # the broadsword against the flak jacket
    # One tally bar per combatant and per thing in the fight.
    assert len(result.graphics) == len(ford.combatants) + len(ford.things)
    _assert_nothing_clipped(result)


@pytest.mark.parametrize("page_size", list(PageSize))
def test_blank_and_current_sheets_both_lay_out_cleanly(campaign: Campaign,
                                                       page_size: PageSize) -> None:
    """Each sample character fits one page, blank or with damage, on A4 and on Letter."""
    for options in (BLANK, CURRENT):
        for encounter in campaign.encounters:
            document = build_document(campaign, ExportTarget.referee_pack(encounter.id), options)
            result = pdf_bytes(document, page_size)[1]
            assert result.page_count == 2 + bool(encounter.things)  # roster and cards
            _assert_nothing_clipped(result)
        document = build_document(campaign, ExportTarget.player_characters(), options)
        result = pdf_bytes(document, page_size)[1]
        assert result.page_count == len(_players(campaign))
        _assert_nothing_clipped(result)


def test_every_stat_block_prints_cleanly(campaign: Campaign) -> None:
    """Templates and NPCs too, including the Deka-scale walker."""
    characters = [*campaign.characters, *(t.stats for t in campaign.adversary_library)]
    for character in characters:
        document = build_document(campaign, ExportTarget.character(character.id), CURRENT)
        data, result = pdf_bytes(document, PageSize.A4)
        assert data.startswith(b"%PDF")
        assert result.page_count == 1, character.name
        _assert_nothing_clipped(result)


# --- extremes ------------------------------------------------------------------------------


def test_extreme_character_flows_without_clipping(tmp_path: Path, campaign: Campaign,
                                                  extreme: Character) -> None:
    campaign.add_character(extreme)
    document = build_document(campaign, ExportTarget.character(extreme.id), CURRENT)
    path, result = _write(tmp_path, document)
    assert result.page_count >= 2
    assert int(pdf_info(path)["Pages"]) == result.page_count
    _assert_nothing_clipped(result)
    placed = " ".join(t.text for t in result.texts)
    for skill in extreme.skills:
        assert skill.name.split()[0] in placed
    for weapon in extreme.weapons:
        assert weapon.name.split()[0] in placed
    text = squash(pdf_text(path))
    assert squash(extreme.name) in text
    for skill in extreme.skills:
        assert squash(skill.label) in text
    for weapon in extreme.weapons:
        assert squash(weapon.name) in text
    assert "Weapons(continued)" in text or "Skills(continued)" in text


def test_hundreds_of_combatants_flow_onto_more_roster_pages(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    ford.add_from_template(campaign.adversary_library[0], count=40)
    document = build_document(campaign, ExportTarget.referee_pack(ford.id), BLANK)
    _data, result = pdf_bytes(document, PageSize.A4)
    assert result.page_count >= 4
    _assert_nothing_clipped(result)
    headers = [t for t in result.texts if t.text == "Initiative order (continued)"]
    assert len({t.page for t in headers}) >= 2  # the header repeats on each new page


def test_many_cards_use_several_pages(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    for template in campaign.adversary_library:
        for number in range(3):
            instance = template.make_instance(number + 10)
            instance.skills.append(instance.skills[0].model_copy(update={"level": number + 5}))
            ford.combatants.append(Combatant(instance=instance))
    document = build_document(campaign, ExportTarget.referee_pack(ford.id), BLANK)
    _data, result = pdf_bytes(document, PageSize.A4)
    assert result.page_count >= 4
    _assert_nothing_clipped(result)


# --- printing ------------------------------------------------------------------------------


def test_printer_gets_the_same_pages(tmp_path: Path, campaign: Campaign) -> None:
    """Printing paints the same layout on a QPrinter as the PDF writer gets."""
    document = build_document(campaign, ExportTarget.player_characters(), BLANK)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    configure_device(printer, PageSize.LETTER)
    result = render_document(printer, document)
    assert result.page_count == 4
    assert pdf_info(tmp_path / "printed.pdf")["Pages"] == "4"
    assert "MaraVey" in squash(pdf_text(tmp_path / "printed.pdf"))
    _assert_nothing_clipped(result)


def test_screen_resolution_printer_also_lays_out_cleanly(campaign: Campaign,
                                                          extreme: Character) -> None:
    """The print preview paints at screen resolution: hinted metrics, same guarantees."""
    campaign.add_character(extreme)
    document = build_document(campaign, ExportTarget.character(extreme.id), CURRENT)
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName("")
    configure_device(printer, PageSize.A4)
    from mneme_desktop.export.pagination import layout_document

    layout = layout_document(document, printer)
    assert layout.page_count >= 2
    _assert_nothing_clipped(layout.placed())


def test_blank_sheet_leaves_the_bar_header_for_pencil(tmp_path: Path,
                                                      campaign: Campaign) -> None:
    ilse = next(c for c in _players(campaign) if c.damage > 0)
    target = ExportTarget.character(ilse.id)
    current = squash(pdf_text(_write(tmp_path, build_document(campaign, target, CURRENT),
                                     name="current.pdf")[0]))
    blank = squash(pdf_text(_write(tmp_path, build_document(campaign, target, BLANK),
                                   name="blank.pdf")[0]))
    hp = ilse.hit_points
    assert squash(f"{ilse.damage} / {hp} HP") in current
    assert "penalty" in current
    assert squash(f"/ {hp} HP") in blank and squash("State:") in blank
    assert "Unhurt" not in blank and "nopenalty" not in blank
    assert squash(f"0 / {hp} HP") not in blank
