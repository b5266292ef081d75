"""Text reaches WCAG AA (4.5:1) on its background in the light and the dark theme (issue 21).

Covers the palette role pairs Qt and our style sheets draw text with, the colours the
painted widgets write in (damage track, box chart, projection chart zone labels and plan
labels), and every ``color: palette(...)`` a style sheet in the UI uses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from mneme_desktop.drawing.contrast import AA_GRAPHICS, AA_TEXT, contrast_ratio, legible
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.ui.theme import dark_palette, light_palette
from mneme_desktop.ui.widgets.projection_chart import PLAN_COLORS, ChartSeries, ProjectionChart

Role = QPalette.ColorRole
UI = Path(__file__).parents[2] / "mneme_desktop" / "ui"

# (text role, background role): every pair Qt's Fusion style and our views draw text with.
TEXT_PAIRS = [
    (Role.WindowText, Role.Window),
    (Role.Text, Role.Base),
    (Role.Text, Role.AlternateBase),
    (Role.ButtonText, Role.Button),
    (Role.PlaceholderText, Role.Base),  # empty line edits
    (Role.PlaceholderText, Role.Window),  # sheet subtitles, column headers, notes
    (Role.PlaceholderText, Role.Button),  # column headers over a header section
    (Role.ToolTipText, Role.ToolTipBase),
    (Role.HighlightedText, Role.Highlight),
    (Role.BrightText, Role.Window),  # the warning red
    (Role.BrightText, Role.Base),
    (Role.BrightText, Role.Button),
    (Role.Link, Role.Base),
]

_PALETTE_ROLE = {  # style sheet palette(...) names
    "window-text": Role.WindowText, "text": Role.Text, "button-text": Role.ButtonText,
    "placeholder-text": Role.PlaceholderText, "tool-tip-text": Role.ToolTipText,
    "highlighted-text": Role.HighlightedText, "bright-text": Role.BrightText,
    "link": Role.Link, "mid": Role.Mid, "dark": Role.Dark, "light": Role.Light,
    "midlight": Role.Midlight, "shadow": Role.Shadow, "window": Role.Window,
    "base": Role.Base, "button": Role.Button,
}


@pytest.fixture(params=["light", "dark"])
def palette(request: pytest.FixtureRequest, qapp: QApplication) -> QPalette:
    return light_palette() if request.param == "light" else dark_palette()


def _name(role: QPalette.ColorRole) -> str:
    return role.name


def test_the_formula() -> None:
    assert contrast_ratio(QColor("black"), QColor("white")) == pytest.approx(21.0)
    assert contrast_ratio(QColor("#777777"), QColor("white")) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio(QColor(0, 0, 0, 128), QColor("white")) == pytest.approx(
        contrast_ratio(QColor("#7f7f7f"), QColor("white")), abs=0.05)
    readable = legible(QColor("#8a8d93"), QColor("#2b2d31"), QColor("#e6e6e6"))
    assert contrast_ratio(readable, QColor("#2b2d31")) >= AA_TEXT


def test_palette_text_pairs_reach_aa(palette: QPalette) -> None:
    failures = []
    for text, background in TEXT_PAIRS:
        ratio = contrast_ratio(palette.color(text), palette.color(background))
        if ratio < AA_TEXT:
            failures.append(f"{_name(text)}/{_name(background)} {ratio:.2f}")
    assert failures == []


def test_style_sheet_text_colours_reach_aa(palette: QPalette) -> None:
    """Labels with ``color: palette(role)`` sit on the window: that role must read there."""
    used: set[str] = set()
    for source in UI.rglob("*.py"):
        for match in re.finditer(r"(?<![-\w])color:\s*palette\(([\w-]+)\)", source.read_text()):
            used.add(match.group(1))
    assert "placeholder-text" in used
    failures = []
    for name in sorted(used):
        for background in (Role.Window, Role.Base):
            ratio = contrast_ratio(palette.color(_PALETTE_ROLE[name]), palette.color(background))
            if ratio < AA_TEXT:
                failures.append(f"palette({name}) on {_name(background)} {ratio:.2f}")
    assert failures == []


def test_track_text_colours_reach_aa(palette: QPalette) -> None:
    """The HP bar, box chart and projection chart write in these colours on these grounds."""
    colors = TrackColors.from_palette(palette)
    pairs = {
        "label on window": (colors.label, colors.window),
        "muted on window": (colors.muted, colors.window),
        "muted on base": (colors.muted, colors.background),
        "text on base": (colors.text, colors.background),
    }
    for state in (WoundState.WOUNDED, WoundState.SERIOUSLY_WOUNDED,
                  WoundState.CRITICALLY_WOUNDED, WoundState.DYING):
        pairs[f"{state.name} zone label"] = (colors.band_label(state), colors.fill(state))
        pairs[f"HP text on {state.name} zone"] = (colors.mark, colors.fill(state))
    failures = [f"{what} {contrast_ratio(fg, bg):.2f}" for what, (fg, bg) in pairs.items()
                if contrast_ratio(fg, bg) < AA_TEXT]
    assert failures == []


def test_print_colours_reach_aa() -> None:
    colors = TrackColors.print_colors()
    for fg in (colors.text, colors.label, colors.muted):
        assert contrast_ratio(fg, colors.window) >= AA_TEXT
    for state in (WoundState.WOUNDED, WoundState.DYING):
        assert contrast_ratio(colors.band_label(state), colors.fill(state)) >= AA_TEXT


def test_projection_chart_plan_colours(palette: QPalette, qtbot: object) -> None:
    """Plan labels ("Plan A: healed day 12") reach 4.5:1 on the plot, plan lines 3:1."""
    chart = ProjectionChart()
    chart.setPalette(palette)
    background = TrackColors.from_palette(palette).background
    for index, color in enumerate(PLAN_COLORS):
        series = ChartSeries(f"Plan {'AB'[index]}", color, 10, ((1, 9),), 1, None, (), (), ())
        assert contrast_ratio(chart.label_color(series), background) >= AA_TEXT
        assert contrast_ratio(chart.line_color(series), background) >= AA_GRAPHICS
    chart.deleteLater()
