"""The box chart's second view, the MegaTraveller Personal Integrity Record: painted,
clicked, switched on the sheet, chosen for printing in the settings and printed."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from mneme_desktop.domain import Campaign, Character, Characteristics, GameTime
from mneme_desktop.drawing.box_chart_painter import (
    box_at,
    box_chart_layout,
    box_chart_size_hint,
    paint_box_chart,
)
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import Sheet, TrackBlock, TrackKind, iter_strings
from mneme_desktop.export.pdf import write_pdf
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.settings import BoxChartStyle, PageSize, Settings
from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.character_sheet import CharacterSheetView
from mneme_desktop.ui.widgets.box_chart import DamageBoxChart

MT = ChartStyle.MEGATRAVELLER


def paint(damage: int, hp: int, *, show_damage: bool = True) -> tuple[QImage, QRectF]:
    track = damage_track(damage, hp)
    font = QFont()
    image = QImage(900, 700, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    rect = QRectF(QPointF(5, 5), box_chart_size_hint(track, font, image, MT))
    painter = QPainter(image)
    paint_box_chart(painter, rect, track, TrackColors.print_colors(), font,
                    show_damage=show_damage, style=MT)
    painter.end()
    return image, rect


def colour_at(image: QImage, point: QPointF) -> QColor:
    return image.pixelColor(round(point.x()), round(point.y()))


def distinct(values: list[float]) -> int:
    return len({round(v) for v in values})


@pytest.mark.parametrize(("hp", "columns", "crossed"), [(46, 8, 2), (50, 9, 4)])
def test_the_record_examples_are_painted_column_by_column(qapp, hp: int, columns: int,
                                                          crossed: int) -> None:
    """Integrity 46: eight columns, two boxes crossed off; 50: nine, the bottom four."""
    track = damage_track(10, hp)
    image, rect = paint(10, hp)
    layout = box_chart_layout(rect, track, QFont(), image, MT)
    record = [r for i, r in layout.boxes.items() if i <= hp]
    assert distinct([r.left() for r in record]) == columns
    assert distinct([r.top() for r in record]) == 6
    assert len(layout.crossed) == crossed
    last_column = max(r.left() for r in record)
    row_tops = sorted({round(r.top()) for r in record})
    assert all(r.left() == pytest.approx(last_column) for r in layout.crossed)
    assert sorted(round(r.top()) for r in layout.crossed) == row_tops[-crossed:]
    # Crossed off: a grey X on white. Damaged: a black X. Undamaged: the band's light grey.
    for box in layout.crossed:
        centre = colour_at(image, box.center())
        assert 60 < centre.lightness() < 200, centre.name()
        corner = colour_at(image, box.topLeft() + QPointF(box.width() * 0.5, 3))
        assert corner.lightness() == 255
    assert colour_at(image, layout.boxes[10].center()).lightness() < 60
    untouched = colour_at(image, layout.boxes[11].center())
    assert 200 < untouched.lightness() < 255
    # The room past HP sits below the record, set apart by more than the gap.
    dying = layout.boxes[hp + 1]
    assert dying.top() - row_tops[-1] > layout.side + layout.gap * 2


def test_crossed_off_boxes_take_no_clicks(qapp) -> None:
    track = damage_track(0, 46)
    font = QFont()
    rect = QRectF(0, 0, 800, 600)
    layout = box_chart_layout(rect, track, font, None, MT)
    for box in layout.crossed:
        assert box_at(rect, track, box.center(), font, None, MT) is None
    for index, box in layout.boxes.items():
        assert box_at(rect, track, box.center(), font, None, MT) == index


def test_the_blank_record_for_paper_has_only_the_crossed_off_boxes_crossed(qapp) -> None:
    image, rect = paint(10, 46, show_damage=False)
    layout = box_chart_layout(rect, damage_track(10, 46), QFont(), image, MT)
    assert colour_at(image, layout.boxes[10].center()).lightness() > 200
    assert colour_at(image, layout.crossed[0].center()).lightness() < 200


# ------------------------------------------------------------------------- the sheet


@pytest.fixture
def document(qapp) -> CampaignDocument:
    """Aria: STR 7 + DEX 8 + END 6 = 21 HP, four six-box columns, three boxes crossed off."""
    aria = Character(name="Aria Vance", characteristics=Characteristics.of(7, 8, 6, 10, 9, 7))
    return CampaignDocument(Campaign(name="Test", characters=[aria],
                                     game_time=GameTime.at(2, 10, 0)))


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> CharacterSheetView:
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(document.campaign.characters[0].id)
    sheet.resize(1000, 900)
    sheet.show()
    qtbot.waitExposed(sheet)
    return sheet


def choose_view(qtbot, view: CharacterSheetView, style: ChartStyle) -> None:
    combo = view.track.chart_view_combo
    combo.setFocus()
    key = Qt.Key.Key_Down if style is MT else Qt.Key.Key_Up
    qtbot.keyClick(combo, key)
    assert combo.currentData() is style


def test_the_sheet_switches_views_and_the_record_sets_damage(
        qtbot, view: CharacterSheetView, document: CampaignDocument) -> None:
    chart: DamageBoxChart = view.box_chart
    rows_of_three = chart.sizeHint()
    assert chart.chart_style() is ChartStyle.ROWS_OF_THREE
    assert "Every 3 damage is one row" in view.track.chart_hint.text()

    choose_view(qtbot, view, MT)
    assert chart.chart_style() is MT
    assert "MegaTraveller" in view.track.chart_hint.text()
    assert chart.sizeHint() != rows_of_three
    assert len(chart.crossed_off_rects()) == 3  # 4 columns x 6 = 24, 21 HP
    qtbot.waitUntil(lambda: chart.height() >= chart.sizeHint().height())
    # Box 6 is the second row's first box on a four-column record (1-4, 5-8...): row 1.
    assert chart.box_rect(6).top() > chart.box_rect(4).top()
    assert chart.box_rect(5).left() == chart.box_rect(1).left()
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=chart.box_rect(6).center().toPoint())
    aria = document.campaign.characters[0]
    assert aria.damage == 6
    assert view.damage_spin.value() == 6
    # A crossed-off box is no box: clicking it changes nothing.
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton,
                     pos=chart.crossed_off_rects()[0].center().toPoint())
    assert document.campaign.characters[0].damage == 6
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert document.campaign.characters[0].damage == 0
    assert chart.track() is not None and chart.track().damage == 0
    assert chart.chart_style() is MT  # the view is no edit: undo leaves it

    choose_view(qtbot, view, ChartStyle.ROWS_OF_THREE)
    assert chart.sizeHint() == rows_of_three
    assert chart.box_rect(6).left() != chart.box_rect(1).left()  # 1-3, 4-6: third column


def test_the_view_switch_is_no_undo_step(qtbot, view: CharacterSheetView,
                                         document: CampaignDocument) -> None:
    choose_view(qtbot, view, MT)
    assert document.undo_stack.count() == 0
    assert not document.campaign.characters[0].damage


# ----------------------------------------------------------------- settings and print


def test_the_settings_dialog_chooses_the_printed_chart(qtbot) -> None:
    settings = Settings()
    assert settings.print_box_chart is BoxChartStyle.ROWS_OF_THREE
    dialog = SettingsDialog(settings, ThresholdBasis.HP_FRACTIONS)
    qtbot.addWidget(dialog)
    combo = dialog.box_chart_combo
    assert combo.currentData() == BoxChartStyle.ROWS_OF_THREE
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    chosen = dialog.result_settings()
    assert chosen.print_box_chart is BoxChartStyle.MEGATRAVELLER
    assert settings.print_box_chart is BoxChartStyle.ROWS_OF_THREE  # the dialog edits a copy
    again = Settings.from_json(chosen.to_json())
    assert again.print_box_chart is BoxChartStyle.MEGATRAVELLER
    assert ExportOptions.from_settings(again).box_chart is MT
    bad = Settings.from_json({"print_box_chart": "hexagons"})
    assert bad.print_box_chart is BoxChartStyle.ROWS_OF_THREE


def _chart_blocks(sheet: Sheet) -> list[TrackBlock]:
    found: list[TrackBlock] = []

    def walk(blocks: tuple[object, ...]) -> None:
        for block in blocks:
            if isinstance(block, TrackBlock) and block.kind is TrackKind.BOX_CHART:
                found.append(block)
            for part in getattr(block, "parts", ()):
                walk(part)
            walk(getattr(block, "extra", ()))

    walk(sheet.blocks)
    return found


def test_the_printed_sheet_follows_the_setting(qtbot, tmp_path: Path,
                                               document: CampaignDocument) -> None:
    campaign = document.campaign
    aria = campaign.characters[0]
    aria.damage = 5
    target = ExportTarget.character(aria.id)
    settings = Settings()
    settings.print_current_damage = True
    default = build_document(campaign, target, ExportOptions.from_settings(settings))
    settings.print_box_chart = BoxChartStyle.MEGATRAVELLER
    record = build_document(campaign, target, ExportOptions.from_settings(settings))
    default_sheet, record_sheet = default.parts[0], record.parts[0]
    assert isinstance(default_sheet, Sheet) and isinstance(record_sheet, Sheet)
    assert [b.chart for b in _chart_blocks(default_sheet)] == [ChartStyle.ROWS_OF_THREE]
    [block] = _chart_blocks(record_sheet)
    assert block.chart is MT
    assert "4 six-box columns, the bottom 3 of the last crossed off" in block.description
    text = "\n".join(iter_strings(record))
    assert "MegaTraveller record" in text
    result = write_pdf(record, tmp_path / "aria.pdf", PageSize.A4)
    assert result.page_count == 1
    [graphic] = [g for g in result.graphics if "six-box" in g.description]
    assert graphic.box.width() + 1 >= graphic.needed.width()


def test_html_draws_the_record_it_is_given(qapp) -> None:
    from mneme_desktop.export.html import track_png

    track = damage_track(10, 46)
    rows, _w1, _h1 = track_png(TrackBlock(track, TrackKind.BOX_CHART, True, "Giovanni"))
    record, width, height = track_png(TrackBlock(track, TrackKind.BOX_CHART, True, "Giovanni",
                                                 MT))
    assert record != rows
    image = QImage.fromData(record)
    assert image.width() == 2 * width and image.height() == 2 * height
    assert width > _w1  # eight columns are wider than three


def test_the_command_line_prints_the_record_when_asked(qapp, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from mneme_desktop.export.cli import run_export
    from mneme_desktop.storage import build_sample_campaign, save_campaign

    path = tmp_path / "sample.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    out = tmp_path / "out"
    assert run_export([str(path), "--format", "html", "--out", str(out), "--character",
                       "mara vey", "--page-size", "A4", "--blank",
                       "--box-chart", "megatraveller"]) == 0
    [written] = capsys.readouterr().out.splitlines()
    page = Path(written).read_text(encoding="utf-8")
    assert "MegaTraveller record: 5 six-box columns, the bottom 5 of the last crossed off" in page
