"""Light, dark or the system's look. Widgets paint from the palette, so this is all it takes.

Every colour we draw text in is checked against its background to WCAG AA (4.5:1), in both
themes (``tests/ui/test_contrast.py``); :func:`contrast_ratio` and :func:`legible` are the
one place that arithmetic lives, so painted widgets derive readable colours instead of
hard-coding them per theme.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from mneme_desktop.settings import Theme

__all__ = [
    "AA_GRAPHICS",
    "AA_TEXT",
    "apply_theme",
    "contrast_ratio",
    "dark_palette",
    "legible",
    "light_palette",
    "relative_luminance",
]

AA_TEXT = 4.5
"""WCAG 2 AA minimum contrast for normal-size text."""

AA_GRAPHICS = 3.0
"""WCAG 2 AA minimum contrast for lines and shapes that carry meaning (1.4.11)."""


def _composited(color: QColor, background: QColor) -> QColor:
    """``color`` as it looks over an opaque ``background`` (Qt's placeholder is translucent)."""
    alpha = color.alphaF()
    if alpha >= 1.0:
        return QColor(color)
    return QColor.fromRgbF(
        color.redF() * alpha + background.redF() * (1 - alpha),
        color.greenF() * alpha + background.greenF() * (1 - alpha),
        color.blueF() * alpha + background.blueF() * (1 - alpha),
        1.0,
    )


def relative_luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an opaque colour."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
            + 0.0722 * channel(color.blueF()))


def contrast_ratio(foreground: QColor, background: QColor) -> float:
    """WCAG 2 contrast ratio (1 to 21) of ``foreground`` drawn over ``background``."""
    first = relative_luminance(_composited(foreground, background))
    second = relative_luminance(background)
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def legible(color: QColor, background: QColor, toward: QColor,
            minimum: float = AA_TEXT) -> QColor:
    """``color``, moved just far enough toward ``toward`` (the theme's text colour) to reach
    ``minimum`` contrast on ``background``: keeps a hue where it can, never fails AA."""
    start = _composited(color, background)
    for step in range(0, 21):
        t = step / 20
        candidate = QColor.fromRgbF(
            start.redF() + (toward.redF() - start.redF()) * t,
            start.greenF() + (toward.greenF() - start.greenF()) * t,
            start.blueF() + (toward.blueF() - start.blueF()) * t,
            1.0,
        )
        if contrast_ratio(candidate, background) >= minimum:
            return candidate
    return QColor(toward)


def _set_all(palette: QPalette, colors: dict[QPalette.ColorRole, str]) -> QPalette:
    for color_role, value in colors.items():
        palette.setColor(color_role, QColor(value))
    return palette


def dark_palette() -> QPalette:
    role = QPalette.ColorRole
    group = QPalette.ColorGroup
    palette = _set_all(QPalette(), {
        role.Window: "#2b2d31", role.WindowText: "#e6e6e6", role.Base: "#1e1f22",
        role.AlternateBase: "#26282c", role.ToolTipBase: "#3a3d42", role.ToolTipText: "#f0f0f0",
        role.Text: "#e6e6e6", role.Button: "#35373c", role.ButtonText: "#e6e6e6",
        role.BrightText: "#ff7b7b", role.Link: "#7fb2ff", role.Highlight: "#3d6fb4",
        # Placeholder text doubles as the sheet's subtitles and column headers: it must
        # reach 4.5:1 on Window and Button (it was #8a8d93, 4.15:1 on Window). BrightText
        # is the warning red: #ff6b6b was 4.4:1 on Button.
        role.HighlightedText: "#ffffff", role.PlaceholderText: "#a2a5ab",
        role.Mid: "#4a4d52", role.Dark: "#18191b", role.Light: "#4f5257",
        role.Midlight: "#44474c", role.Shadow: "#000000",
    })
    for color_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(group.Disabled, color_role, QColor("#7a7d82"))
    return palette


def light_palette() -> QPalette:
    """Fusion's standard light palette, with the roles that missed AA made darker: Qt's
    placeholder (black at half alpha, 3.9:1 on Window) and selection (white on #308cc6,
    3.7:1); BrightText is our warning red, readable on Window and Base."""
    style = QStyleFactory.create("Fusion")
    palette = style.standardPalette() if style is not None else QPalette()
    role = QPalette.ColorRole
    return _set_all(palette, {
        role.PlaceholderText: "#5e5e5e", role.Highlight: "#2869a6", role.BrightText: "#b3261e",
    })


def apply_theme(app: QApplication, theme: Theme, system_palette: QPalette | None = None) -> None:
    """Apply ``theme``; ``system_palette`` is what the platform gave us at start-up."""
    if theme is Theme.SYSTEM:
        if system_palette is not None:
            app.setPalette(system_palette)
        return
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if theme is Theme.DARK else light_palette())
