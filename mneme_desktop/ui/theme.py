"""Light, dark or the system's look. Widgets paint from the palette, so this is all it takes.

Every colour we draw text in is checked against its background to WCAG AA (4.5:1), in both
themes (``tests/ui/test_contrast.py``); that arithmetic lives in
:mod:`mneme_desktop.drawing.contrast`, shared with the exporters.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from mneme_desktop.settings import Theme

__all__ = [
    "apply_theme",
    "dark_palette",
    "light_palette",
]

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
