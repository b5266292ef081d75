"""The projection chart draws damage over days against the damage track's bands."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QColor, QHelpEvent, QImage
from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import Character, Characteristics
from mneme_desktop.domain.healing.plan import HealingPlan, project_plan
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.rules.healing import Activity, PlanSegment
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.ui.widgets.projection_chart import (
    PLAN_COLORS,
    ChartSeries,
    ProjectionChart,
    day_ticks,
)


@pytest.fixture
def chart(qtbot) -> ProjectionChart:
    widget = ProjectionChart()
    qtbot.addWidget(widget)
    widget.resize(800, 480)
    return widget


def ann(damage: int = 10, basis_stats: tuple[int, int, int] = (7, 8, 9)) -> Character:
    return Character(name="Ann", characteristics=Characteristics.of(*basis_stats, 9, 9, 9),
                     damage=damage)


def render(widget: ProjectionChart) -> QImage:
    return widget.grab().toImage()


def close(a: QColor, b: QColor, tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3],
                                                      strict=True))


def test_day_ticks_are_friendly_steps() -> None:
    assert day_ticks(5, 10) == [0, 1, 2, 3, 4, 5]
    assert day_ticks(23, 6) == [0, 5, 10, 15, 20]
    assert day_ticks(90, 8) == [0, 14, 28, 42, 56, 70, 84]
    assert day_ticks(0, 1) == [0, 1]


@pytest.mark.parametrize("basis", list(ThresholdBasis))
def test_bands_are_painted_where_the_damage_track_puts_them(chart: ProjectionChart,
                                                            basis: ThresholdBasis) -> None:
    character = ann(10, (14, 3, 5))
    track = damage_track(character.damage, character.hit_points,
                         character.wound_thresholds(basis))
    chart.set_chart(track, [])
    image = render(chart)
    colors = TrackColors.from_palette(chart.palette())
    plot = chart.plot_rect()
    x = int(plot.left() + 3)
    for band in track.bands:
        low, high = track.band_span(band)
        y_low, y_high = chart.y_for_position(low), chart.y_for_position(high)
        assert y_low == pytest.approx(plot.bottom() - plot.height() * float(low))
        if y_low - y_high < 6:
            continue
        pixel = image.pixelColor(x, int((y_low + y_high) / 2) + 2)
        assert close(pixel, colors.fill(band.state)), (band.state, pixel.name())


def test_series_from_a_projection_and_the_staircase(chart: ProjectionChart) -> None:
    character = ann(10)
    plan = HealingPlan((PlanSegment(Activity.FULL_REST, True, 2),
                        PlanSegment(Activity.LIGHT, False, 4)), "Mixed")
    projection = project_plan(character, plan)
    series = ChartSeries.from_projection(projection, "A", PLAN_COLORS[0])
    assert series.start_damage == 10
    assert series.steps[:3] == ((1, 9), (2, 8), (3, 8))
    assert series.plan_days == 6
    assert series.healed_day == projection.healed_day
    assert series.damage_on(0) == 10 and series.damage_on(5) == 7
    track = damage_track(10, character.hit_points)
    chart.set_chart(track, [series], "Ann")
    assert chart.last_day == series.last_day
    image = render(chart)
    # The line at day 0.5 sits on damage 10.
    x = int(chart.x_for_day(0.5))
    y = int(chart.y_for_damage(10))
    found = [image.pixelColor(x, y + dy) for dy in (-1, 0, 1)]
    assert any(close(c, PLAN_COLORS[0], 40) for c in found), [c.name() for c in found]
    assert "Ann" in chart.accessibleDescription() or "A:" in chart.accessibleDescription()


def test_impossible_days_are_flagged_in_red(chart: ProjectionChart) -> None:
    character = ann(17)
    projection = project_plan(character, HealingPlan.single(Activity.LIGHT, True, 3))
    series = ChartSeries.from_projection(projection, "B", PLAN_COLORS[1], dashed=True)
    assert series.impossible_days == (1, 2, 3, 4)
    chart.set_chart(damage_track(17, character.hit_points), [series])
    image = render(chart)
    plot = chart.plot_rect()
    pixel = image.pixelColor(int(chart.x_for_day(2)), int(plot.top() + 2))
    assert close(pixel, QColor(0xC6, 0x28, 0x28), 10), pixel.name()


def test_tooltip_names_each_plans_damage_and_state(qtbot, chart: ProjectionChart) -> None:
    character = ann(10)
    first = project_plan(character, HealingPlan.single(Activity.FULL_REST, True, 3, "Rest"))
    second = project_plan(character, HealingPlan.single(Activity.LIGHT, False, 3, "Light"))
    chart.set_chart(damage_track(10, character.hit_points), [
        ChartSeries.from_projection(first, "A", PLAN_COLORS[0]),
        ChartSeries.from_projection(second, "B", PLAN_COLORS[1], dashed=True),
    ])
    assert chart.tooltip_text(3) == (
        "Day 3\nA: damage 7 (Wounded)\nB: damage 9 (Seriously Wounded)")
    chart.show()
    qtbot.waitExposed(chart)
    point = QPoint(int(chart.x_for_day(3)), int(chart.plot_rect().center().y()))
    event = QHelpEvent(QEvent.Type.ToolTip, point, chart.mapToGlobal(point))
    assert chart.event(event)
    assert chart.day_at(point.x()) == 3


def test_empty_chart_says_what_to_do(chart: ProjectionChart) -> None:
    chart.set_empty_text("Check someone.")
    chart.set_chart(None, [])
    image = render(chart)
    assert not image.isNull()
    assert chart.accessibleDescription() == "Check someone."
    assert chart.series == ()
    QApplication.processEvents()


@pytest.mark.parametrize("size", [(1280, 800), (900, 420), (640, 200), (600, 170)])
def test_labels_on_the_plot_never_overlap(chart: ProjectionChart,
                                          size: tuple[int, int]) -> None:
    """HP 27 sat on "B: … healed day 10" top right, and zone names on the HP label."""
    character = ann(14, (9, 9, 9))
    light = project_plan(character, HealingPlan((PlanSegment(Activity.LIGHT, False, 30),),
                                                "Light"))
    rest = project_plan(character, HealingPlan((PlanSegment(Activity.FULL_REST, True, 30),),
                                               "Full rest with care"))
    track = damage_track(character.damage, character.hit_points,
                         character.wound_thresholds())
    chart.resize(*size)
    chart.set_chart(track, [
        ChartSeries.from_projection(light, "A: Light", PLAN_COLORS[0]),
        ChartSeries.from_projection(rest, "B: Full rest with care", PLAN_COLORS[1], dashed=True),
    ], "Ann")
    labels = chart.label_layout()
    plot = chart.plot_rect()
    for index, label in enumerate(labels):
        assert plot.contains(label.rect), label.text
        for other in labels[index + 1:]:
            assert not label.rect.intersects(other.rect), (label.text, other.text)
    texts = {label.text for label in labels}
    assert "HP 27" in texts
    assert {"A: Light: healed day 34", "B: Full rest with care: healed day 10"} <= texts
    if size[1] >= 400:
        assert "Critically Wounded 18–27" in texts
    render(chart)  # paints what was laid out
