"""The HP threshold bar: drawing from the damage track, input as requests, accessibility."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
)
from PySide6.QtWidgets import QApplication, QToolTip

from mneme_desktop.drawing import box_chart_painter
from mneme_desktop.drawing.box_chart_painter import paint_box_chart
from mneme_desktop.drawing.track_painter import (
    TrackColors,
    bar_unit_center,
    bar_value_at,
    hp_bar_layout,
    paint_hp_bar,
)
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState, WoundThresholds
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar


def dark_palette() -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    for which, name in (
        (role.Window, "#262626"),
        (role.WindowText, "#e8e8e8"),
        (role.Base, "#1b1b1b"),
        (role.Text, "#e8e8e8"),
        (role.Button, "#333333"),
        (role.ButtonText, "#e8e8e8"),
        (role.Highlight, "#3d7bd9"),
    ):
        palette.setColor(which, QColor(name))
    return palette


def mean_color(image: QImage, rect: QRectF) -> QColor:
    """Average colour over ``rect`` (logical coordinates), to see fills through hatching."""
    scale = image.devicePixelRatio()
    left, top = round(rect.left() * scale), round(rect.top() * scale)
    right, bottom = round(rect.right() * scale), round(rect.bottom() * scale)
    total = [0, 0, 0]
    count = 0
    for y in range(top, bottom):
        for x in range(left, right):
            color = image.pixelColor(x, y)
            total[0] += color.red()
            total[1] += color.green()
            total[2] += color.blue()
            count += 1
    assert count, f"empty sample {rect}"
    return QColor(total[0] // count, total[1] // count, total[2] // count)


def distance(a: QColor, b: QColor) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def distinct_colors(image: QImage) -> int:
    step = 3
    return len(
        {
            image.pixel(x, y)
            for y in range(0, image.height(), step)
            for x in range(0, image.width(), step)
        }
    )


@pytest.fixture
def bar(qtbot) -> HpThresholdBar:
    widget = HpThresholdBar()
    qtbot.addWidget(widget)
    widget.set_track(damage_track(8, 21))
    widget.resize(600, widget.sizeHint().height())
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def requests(widget: HpThresholdBar) -> list[tuple[int, bool]]:
    seen: list[tuple[int, bool]] = []
    widget.damage_requested.connect(lambda value, merge: seen.append((value, merge)))
    return seen


def band_sample(widget: HpThresholdBar, state: WoundState) -> QRectF:
    """A thin strip along the top of a band's stretch of the bar: above the label plate,
    clear of the frame, the threshold lines and the penalty-step ticks."""
    track = widget.track()
    assert track is not None
    bar_rect = hp_bar_layout(widget.content_rect(), widget.font(), device=widget).bar
    band = next(b for b in track.bands if b.state is state)
    start, end = track.band_span(band)
    left = bar_rect.left() + float(start) * bar_rect.width() + 4
    width = float(end - start) * bar_rect.width() - 8
    return QRectF(left, math.floor(bar_rect.top()) + 2, width, 1)


# ----------------------------------------------------------------- accessibility


@pytest.mark.parametrize(
    ("damage", "description"),
    [
        (0, "Damage 0 of 21 HP: unhurt, no penalty"),
        (5, "Damage 5 of 21 HP: wounded, penalty -1"),
        (8, "Damage 8 of 21 HP: seriously wounded, penalty -2"),
        (14, "Damage 14 of 21 HP: critically wounded, penalty -4"),
        (21, "Damage 21 of 21 HP: critically wounded, penalty -7"),
        (25, "Damage 25 of 21 HP: dying, penalty -8"),
    ],
)
def test_accessible_description_follows_the_track(
    bar: HpThresholdBar, damage: int, description: str
) -> None:
    bar.set_track(damage_track(damage, 21))
    assert bar.accessibleDescription() == description
    assert bar.accessibleName() == "HP threshold bar"
    assert bar.track() == damage_track(damage, 21)


def test_keyboard_focus_and_size(bar: HpThresholdBar) -> None:
    assert bar.focusPolicy() == Qt.FocusPolicy.StrongFocus
    full = bar.sizeHint()
    bar.set_compact(True)
    assert bar.is_compact()
    compact = bar.sizeHint()
    assert compact.height() < full.height() / 3
    assert compact.height() > 0


def test_focus_frame_is_drawn_when_focused(qtbot, bar: HpThresholdBar) -> None:
    highlight = bar.palette().color(QPalette.ColorRole.Highlight)

    def frame_pixels() -> int:
        image = bar.grab().toImage()
        return sum(distance(image.pixelColor(x, 0), highlight) < 60 for x in range(image.width()))

    bar.clearFocus()
    assert frame_pixels() == 0
    bar.activateWindow()
    bar.setFocus()
    qtbot.waitUntil(bar.hasFocus)
    assert frame_pixels() > bar.width() // 4


# ---------------------------------------------------------------------- painting


def test_painted_bands_differ_from_the_background_and_from_each_other(
    bar: HpThresholdBar,
) -> None:
    bar.set_track(damage_track(0, 21))
    image = bar.grab().toImage()
    assert distinct_colors(image) > 20
    window = bar.palette().color(QPalette.ColorRole.Window)
    samples = {
        state: mean_color(image, band_sample(bar, state))
        for state in WoundState
        if state not in (WoundState.UNHURT, WoundState.DEAD)
    }
    for color in samples.values():
        assert distance(color, window) > 30
    colors = list(samples.values())
    for i, first in enumerate(colors):
        for second in colors[i + 1 :]:
            assert distance(first, second) > 20


def test_damaged_stretch_is_drawn_stronger_than_the_rest(bar: HpThresholdBar) -> None:
    bar.set_track(damage_track(0, 21))
    unhurt = mean_color(bar.grab().toImage(), band_sample(bar, WoundState.WOUNDED))
    bar.set_track(damage_track(6, 21))
    hurt = mean_color(bar.grab().toImage(), band_sample(bar, WoundState.WOUNDED))
    assert distance(unhurt, hurt) > 60
    assert hurt.lightness() < unhurt.lightness()


def test_dark_palette_gives_a_dark_bar(bar: HpThresholdBar) -> None:
    bar.setPalette(dark_palette())
    bar.setAutoFillBackground(True)
    bar.clearFocus()
    image = bar.grab().toImage()
    assert image.pixelColor(1, 1).lightness() < 60
    wounded = mean_color(image, band_sample(bar, WoundState.CRITICALLY_WOUNDED))
    assert wounded.lightness() < 110
    # Light text (the state written on the bar) is present on the dark background.
    assert any(
        image.pixelColor(x, y).lightness() > 180
        for y in range(image.height() // 4)
        for x in range(image.width() // 3)
    )


def test_crisp_at_device_pixel_ratio_two(bar: HpThresholdBar) -> None:
    single = bar.grab().toImage()
    double = QImage(bar.size() * 2, QImage.Format.Format_ARGB32)
    double.setDevicePixelRatio(2)
    double.fill(0)
    bar.render(double)
    assert double.size() == QSize(bar.width() * 2, bar.height() * 2)
    assert distinct_colors(double) > 20
    for state in (WoundState.WOUNDED, WoundState.DYING):
        sample = band_sample(bar, state)
        assert distance(mean_color(single, sample), mean_color(double, sample)) < 40
    # At 2x the frame line is still one logical pixel: 2 device pixels, not a smear.
    bar_rect = hp_bar_layout(bar.content_rect(), bar.font(), device=bar).bar
    column = round(bar_rect.center().x() * 2) + 1
    top = round(bar_rect.top() * 2)
    frame = [double.pixelColor(column, y).lightness() for y in range(top - 2, top + 4)]
    assert min(frame) < 160


def test_compact_bar_has_no_text_but_keeps_the_bands(bar: HpThresholdBar) -> None:
    bar.set_compact(True)
    bar.resize(400, bar.sizeHint().height())
    image = bar.grab().toImage()
    window = bar.palette().color(QPalette.ColorRole.Window)
    middle = image.height() // 2
    track = bar.track()
    assert track is not None
    rect = bar.content_rect()
    for band in track.bands:
        start, end = track.band_span(band)
        x = rect.left() + float(start + end) / 2 * rect.width()
        sample = QRectF(x - 3, middle - 1, 6, 3)
        assert distance(mean_color(image, sample), window) > 20


def test_custom_thresholds_are_drawn_where_the_track_puts_them(bar: HpThresholdBar) -> None:
    """A characteristic basis (seriously at 5, critically at 10) moves the ticks: the
    widget draws the track's marks and never recomputes floor(HP/3)."""
    custom = WoundThresholds(5, 10, 21, ThresholdBasis.CHARACTERISTIC)
    layout = hp_bar_layout(bar.content_rect(), bar.font(), device=bar)

    def line_darkness(image: QImage, position: float) -> int:
        x = round(layout.bar.left() + position * layout.bar.width())
        y = round(layout.tally.center().y())
        return min(image.pixelColor(x + dx, y).lightness() for dx in (-1, 0, 1))

    bar.set_track(damage_track(0, 21))
    default_image = bar.grab().toImage()
    bar.set_track(damage_track(0, 21, custom))
    custom_image = bar.grab().toImage()
    track = bar.track()
    assert track is not None
    seriously = next(m for m in track.marks if m.state is WoundState.SERIOUSLY_WOUNDED)
    assert seriously.value == 5
    assert line_darkness(custom_image, float(seriously.position)) < 80
    assert line_darkness(default_image, float(seriously.position)) > 150
    tooltip = bar.tooltip_at(bar.point_for_unit(6))
    assert "Seriously wounded: damage >= best physical characteristic = 5" in tooltip


# ------------------------------------------------------------------------- mouse


def test_click_sets_damage_to_the_unit_under_the_cursor(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(10).toPoint())
    assert seen == [(10, False)]
    assert bar.track() == damage_track(8, 21), "the widget waits for the host"


def test_clicking_the_last_damaged_unit_clears_it(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(8).toPoint())
    bar.set_track(damage_track(1, 21))
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(1).toPoint())
    assert seen == [(7, False), (0, False)]


def test_click_left_of_the_bar_heals_everything(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPoint(0, bar.height() // 2))
    assert seen == [(0, False)]


def send_move(widget: HpThresholdBar, point: QPointF) -> None:
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        point,
        QPointF(widget.mapToGlobal(point.toPoint())),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def test_drag_merges_moves_into_the_press(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    # A host that applies every request, as the character sheet does.
    bar.damage_requested.connect(lambda value, _merge: bar.set_track(damage_track(value, 21)))
    qtbot.mousePress(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(3).toPoint())
    send_move(bar, bar.point_for_unit(5))
    send_move(bar, bar.point_for_unit(5) + QPointF(1, 0))
    send_move(bar, bar.point_for_unit(12))
    qtbot.mouseRelease(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(12).toPoint())
    assert seen == [(3, False), (5, True), (12, True)]


def test_jitter_after_a_clearing_click_does_not_undo_it(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    qtbot.mousePress(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(8).toPoint())
    send_move(bar, bar.point_for_unit(8) + QPointF(1, 0))
    qtbot.mouseRelease(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(8).toPoint())
    assert seen == [(7, False)]


def test_drag_without_a_change_at_press_starts_a_new_step(qtbot, bar: HpThresholdBar) -> None:
    bar.set_track(damage_track(0, 21))
    seen = requests(bar)
    qtbot.mousePress(bar, Qt.MouseButton.LeftButton, pos=QPoint(0, bar.height() // 2))
    send_move(bar, bar.point_for_unit(4))
    send_move(bar, bar.point_for_unit(6))
    qtbot.mouseRelease(bar, Qt.MouseButton.LeftButton, pos=bar.point_for_unit(6).toPoint())
    assert seen == [(4, False), (6, True)]


# ---------------------------------------------------------------------- keyboard


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (Qt.Key.Key_Plus, 9),
        (Qt.Key.Key_Right, 9),
        (Qt.Key.Key_Up, 9),
        (Qt.Key.Key_Minus, 7),
        (Qt.Key.Key_Left, 7),
        (Qt.Key.Key_Down, 7),
        (Qt.Key.Key_PageUp, 11),
        (Qt.Key.Key_PageDown, 5),
        (Qt.Key.Key_Home, 0),
    ],
)
def test_keys_request_damage_or_healing(
    qtbot, bar: HpThresholdBar, key: Qt.Key, expected: int
) -> None:
    seen = requests(bar)
    qtbot.keyClick(bar, key)
    assert seen == [(expected, False)]


def test_keys_clamp_at_zero_and_capacity(qtbot, bar: HpThresholdBar) -> None:
    seen = requests(bar)
    bar.set_track(damage_track(0, 21))
    for key in (Qt.Key.Key_Minus, Qt.Key.Key_PageDown, Qt.Key.Key_Home):
        qtbot.keyClick(bar, key)
    assert seen == []
    bar.set_track(damage_track(1, 21))
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    full = damage_track(30, 21)
    assert full.capacity == 30
    bar.set_track(full)
    qtbot.keyClick(bar, Qt.Key.Key_Plus)
    qtbot.keyClick(bar, Qt.Key.Key_PageUp)
    bar.set_track(damage_track(29, 21))
    qtbot.keyClick(bar, Qt.Key.Key_PageUp)
    assert seen == [(0, False), (30, False)]


def test_held_key_merges_its_repeats(bar: HpThresholdBar) -> None:
    seen = requests(bar)
    for repeat in (False, True):
        event = QKeyEvent(
            QEvent.Type.KeyPress, Qt.Key.Key_Plus, Qt.KeyboardModifier.NoModifier, "+", repeat
        )
        QApplication.sendEvent(bar, event)
    assert seen == [(9, False), (9, True)]


def test_no_track_no_requests(qtbot) -> None:
    widget = HpThresholdBar()
    qtbot.addWidget(widget)
    widget.resize(300, widget.sizeHint().height())
    seen = requests(widget)
    qtbot.keyClick(widget, Qt.Key.Key_Plus)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(150, 10))
    assert widget.track() is None
    assert seen == []
    assert not widget.grab().isNull()


# ---------------------------------------------------------------------- tooltips


def test_tooltip_gives_the_rule_of_the_band_under_the_cursor(bar: HpThresholdBar) -> None:
    text = bar.tooltip_at(bar.point_for_unit(10))
    assert "Seriously Wounded: damage 7–13" in text
    assert "Seriously wounded: damage >= floor(HP/3) = 7" in text
    assert "Seriously Wounded from 7" in text
    assert "Critically Wounded from 14" in text
    assert "Dying from 22" in text
    assert "damage 10–12 completes penalty -4" in text
    assert "Dying: damage > HP = 21" in bar.tooltip_at(bar.point_for_unit(25))
    assert "Wounded: any damage (damage >= 1)" in bar.tooltip_at(bar.point_for_unit(2))
    assert "Unhurt: no damage" in bar.tooltip_at(QPointF(0, 5))


def test_tooltip_event_shows_the_band_text(qtbot, bar: HpThresholdBar) -> None:
    pos = bar.point_for_unit(16).toPoint()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, bar.mapToGlobal(pos))
    assert bar.event(event)
    qtbot.waitUntil(QToolTip.isVisible, timeout=2000)
    assert "Critically wounded: damage >= floor(2 x HP/3) = 14" in QToolTip.text()
    QToolTip.hideText()


# ------------------------------------------------------------- painter functions


def test_hit_testing_matches_the_track(bar: HpThresholdBar) -> None:
    track = damage_track(8, 21)
    rect = QRectF(10, 0, 300, 40)
    assert bar_value_at(rect, track, 9.0) == 0
    assert bar_value_at(rect, track, 400.0) == track.capacity
    for unit in range(1, track.capacity + 1):
        assert bar_value_at(rect, track, bar_unit_center(rect, track, unit)) == unit


def is_grey(color: QColor) -> bool:
    return (
        max(color.red(), color.green(), color.blue())
        - min(color.red(), color.green(), color.blue())
        <= 2
    )


def test_print_colours_paint_in_greys_without_a_widget() -> None:
    track = damage_track(11, 21)
    image = QImage(900, 700, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    font = QFont()
    font.setPointSizeF(11)
    colors = TrackColors.print_colors()
    painter = QPainter(image)
    paint_hp_bar(painter, QRectF(10, 10, 880, 160), track, colors, font)
    size = box_chart_painter.box_chart_size_hint(track, font, image)
    paint_box_chart(painter, QRectF(QPointF(10, 200), size), track, colors, font)
    painter.end()
    pixels = [
        image.pixelColor(x, y)
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
    ]
    assert all(is_grey(color) for color in pixels)
    assert sum(color.lightness() < 60 for color in pixels) > 200
    assert len({color.lightness() for color in pixels}) > 6


def test_palette_colours_follow_the_palette() -> None:
    light = TrackColors.from_palette(QPalette(QColor("#f0f0f0")))
    dark = TrackColors.from_palette(dark_palette())
    assert dark.background.lightness() < 60
    assert dark.text.lightness() > 200
    for state in (WoundState.WOUNDED, WoundState.DYING):
        assert dark.fill(state).lightness() < light.fill(state).lightness()
        assert distance(dark.fill(state), dark.damaged(state)) > 60


def test_painting_onto_a_pdf(tmp_path: Path) -> None:
    track = damage_track(16, 21)
    target = tmp_path / "track.pdf"
    writer = QPdfWriter(str(target))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A5))
    writer.setResolution(600)
    font = QFont()
    font.setPointSizeF(10)
    painter = QPainter(writer)
    width = writer.width() - 100
    paint_hp_bar(painter, QRectF(50, 50, width, 600), track, TrackColors.print_colors(), font)
    size = box_chart_painter.box_chart_size_hint(track, font, writer)
    assert size.height() > 600, "sizes follow the device resolution, not the screen"
    paint_box_chart(
        painter,
        QRectF(QPointF(50, 800), size),
        track,
        TrackColors.print_colors(),
        font,
        show_damage=False,
    )
    painter.end()
    data = target.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(data) > 2000
