"""The box chart: the damage track as rows of 3 boxes, crossed off with an X."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QMouseEvent, QPainter, QPalette
from PySide6.QtWidgets import QApplication

from mneme_desktop.drawing.box_chart_painter import (
    box_at,
    box_chart_layout,
    box_chart_size_hint,
    paint_box_chart,
)
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import ThresholdBasis, WoundThresholds
from mneme_desktop.ui.widgets.box_chart import DamageBoxChart


@pytest.fixture
def chart(qtbot) -> DamageBoxChart:
    widget = DamageBoxChart()
    qtbot.addWidget(widget)
    widget.set_track(damage_track(0, 21))
    widget.resize(widget.sizeHint())
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def requests(widget: DamageBoxChart) -> list[tuple[int, bool]]:
    seen: list[tuple[int, bool]] = []
    widget.damage_requested.connect(lambda value, merge: seen.append((value, merge)))
    return seen


def center(widget: DamageBoxChart, index: int) -> QPoint:
    return widget.box_rect(index).center().toPoint()


def lightness_at(image: QImage, point: QPointF) -> int:
    return image.pixelColor(round(point.x()), round(point.y())).lightness()


def test_accessible_description_and_name(chart: DamageBoxChart) -> None:
    chart.set_track(damage_track(8, 21))
    assert chart.accessibleDescription() == "Damage 8 of 21 HP: seriously wounded, penalty -2"
    assert chart.accessibleName() == "Damage box chart"
    assert chart.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_rows_of_three_boxes_follow_the_track(chart: DamageBoxChart) -> None:
    track = chart.track()
    assert track is not None
    assert track.rows == 10
    first, second, fourth = (chart.box_rect(i) for i in (1, 2, 4))
    assert first.top() == second.top()
    assert second.left() > first.right()
    assert fourth.left() == first.left()
    assert fourth.top() > first.bottom()
    short = chart.sizeHint().height()
    chart.set_track(damage_track(40, 21))
    assert chart.track() is not None and chart.track().rows == 14
    assert chart.sizeHint().height() > short
    with pytest.raises(ValueError, match="outside"):
        chart.box_rect(99)


# ------------------------------------------------------------------------- mouse


def test_click_on_box_five_requests_five(qtbot, chart: DamageBoxChart) -> None:
    seen = requests(chart)
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=center(chart, 5))
    assert seen == [(5, False)]
    assert chart.track() == damage_track(0, 21), "the widget waits for the host"


def test_click_on_the_last_crossed_box_clears_it(qtbot, chart: DamageBoxChart) -> None:
    chart.set_track(damage_track(8, 21))
    seen = requests(chart)
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=center(chart, 8))
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=center(chart, 3))
    assert seen == [(7, False), (3, False)]


def test_click_outside_the_boxes_does_nothing(qtbot, chart: DamageBoxChart) -> None:
    seen = requests(chart)
    label_column = QPoint(2, center(chart, 1).y())
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=label_column)
    assert seen == []


def send_move(widget: DamageBoxChart, point: QPoint) -> None:
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(point),
        QPointF(widget.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def test_drag_across_boxes_merges_into_one_step(qtbot, chart: DamageBoxChart) -> None:
    seen = requests(chart)
    qtbot.mousePress(chart, Qt.MouseButton.LeftButton, pos=center(chart, 2))
    send_move(chart, center(chart, 4))
    send_move(chart, center(chart, 4) + QPoint(1, 1))
    send_move(chart, center(chart, 9))
    qtbot.mouseRelease(chart, Qt.MouseButton.LeftButton, pos=center(chart, 9))
    assert seen == [(2, False), (4, True), (9, True)]


# ---------------------------------------------------------------------- keyboard


def test_keys_match_the_bar(qtbot, chart: DamageBoxChart) -> None:
    chart.set_track(damage_track(4, 21))
    seen = requests(chart)
    for key in (Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_PageUp, Qt.Key.Key_Home):
        qtbot.keyClick(chart, key)
    assert seen == [(5, False), (3, False), (7, False), (0, False)]
    chart.set_track(damage_track(0, 21))
    qtbot.keyClick(chart, Qt.Key.Key_Minus)
    assert len(seen) == 4


# ---------------------------------------------------------------------- painting


def test_damaged_boxes_are_crossed(chart: DamageBoxChart) -> None:
    chart.set_track(damage_track(8, 21))
    image = chart.grab().toImage()
    for index in (1, 5, 8):
        assert lightness_at(image, chart.box_rect(index).center()) < 90, index
    for index in (9, 12, 21):
        assert lightness_at(image, chart.box_rect(index).center()) > 150, index


def test_boxes_past_hp_are_hatched_as_the_dying_zone(chart: DamageBoxChart) -> None:
    image = chart.grab().toImage()

    def shades(index: int) -> set[int]:
        rect = chart.box_rect(index).adjusted(3, 3, -3, -3).toRect()
        return {
            image.pixelColor(x, y).lightness()
            for y in range(rect.top(), rect.bottom())
            for x in range(rect.left(), rect.right())
        }

    assert len(shades(20)) <= 2, "a box within HP is a plain fill"
    assert len(shades(22)) > 4, "a box past HP carries hatching"
    assert min(shades(25)) < min(shades(20)) - 40


def test_threshold_line_follows_custom_thresholds(chart: DamageBoxChart) -> None:
    """With seriously wounded from 5 (a characteristic basis) the bold line runs in the
    gap before box 5; with the default floor(HP/3) = 7 there is none there."""

    def gap_lightness() -> int:
        image = chart.grab().toImage()
        before, after = chart.box_rect(4), chart.box_rect(5)
        point = QPointF((before.right() + after.left()) / 2, after.center().y())
        return lightness_at(image, point)

    assert gap_lightness() > 150
    chart.set_track(damage_track(0, 21, WoundThresholds(5, 10, 21, ThresholdBasis.CHARACTERISTIC)))
    assert gap_lightness() < 90
    tooltip = chart.tooltip_at(QPointF(center(chart, 5)))
    assert "best physical characteristic = 5" in tooltip


def test_dark_palette(chart: DamageBoxChart) -> None:
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#eeeeee"))
    palette.setColor(QPalette.ColorRole.Base, QColor("#181818"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#eeeeee"))
    chart.setPalette(palette)
    chart.setAutoFillBackground(True)
    chart.clearFocus()
    chart.set_track(damage_track(8, 21))
    image = chart.grab().toImage()
    assert image.pixelColor(1, 1).lightness() < 50
    assert lightness_at(image, chart.box_rect(12).center()) < 90, "dark, unmarked box"
    assert lightness_at(image, chart.box_rect(5).center()) > 150, "light X on dark"


def test_tooltip_names_the_band_of_the_box(chart: DamageBoxChart) -> None:
    assert "Dying: damage > HP = 21" in chart.tooltip_at(QPointF(center(chart, 22)))
    assert "Critically wounded: damage >= floor(2 x HP/3) = 14" in chart.tooltip_at(
        QPointF(center(chart, 14))
    )


# ------------------------------------------------------------- painter functions


def test_blank_form_for_paper_has_no_crosses() -> None:
    track = damage_track(8, 21)
    font = QFont()
    image = QImage(400, 500, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    size = box_chart_size_hint(track, font, image)
    rect = QRectF(QPointF(5, 5), size)
    painter = QPainter(image)
    paint_box_chart(painter, rect, track, TrackColors.print_colors(), font, show_damage=False)
    painter.end()
    layout = box_chart_layout(rect, track, font, image)
    assert lightness_at(image, layout.boxes[5].center()) > 200


def test_box_at_hits_each_box_and_nothing_else() -> None:
    track = damage_track(3, 12)
    font = QFont()
    rect = QRectF(0, 0, 300, 400)
    layout = box_chart_layout(rect, track, font)
    for index, box_rect in layout.boxes.items():
        assert box_at(rect, track, box_rect.center(), font) == index
    assert box_at(rect, track, QPointF(1, 1), font) is None
    assert sorted(layout.boxes) == list(range(1, track.capacity + 1))


def test_chart_shrinks_to_fit_a_small_rect() -> None:
    track = damage_track(0, 21)
    font = QFont()
    roomy = box_chart_layout(QRectF(0, 0, 600, 800), track, font)
    tight = box_chart_layout(QRectF(0, 0, 600, 120), track, font)
    assert tight.side < roomy.side
    assert max(r.bottom() for r in tight.boxes.values()) <= 120
