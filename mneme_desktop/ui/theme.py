"""Light, dark or the system's look. Widgets paint from the palette, so this is all it takes."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from mneme_desktop.settings import Theme


def dark_palette() -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    group = QPalette.ColorGroup
    colors = {
        role.Window: "#2b2d31", role.WindowText: "#e6e6e6", role.Base: "#1e1f22",
        role.AlternateBase: "#26282c", role.ToolTipBase: "#3a3d42", role.ToolTipText: "#f0f0f0",
        role.Text: "#e6e6e6", role.Button: "#35373c", role.ButtonText: "#e6e6e6",
        role.BrightText: "#ff6b6b", role.Link: "#7fb2ff", role.Highlight: "#3d6fb4",
        role.HighlightedText: "#ffffff", role.PlaceholderText: "#8a8d93", role.Mid: "#4a4d52",
        role.Dark: "#18191b", role.Light: "#4f5257", role.Midlight: "#44474c",
        role.Shadow: "#000000",
    }
    for color_role, value in colors.items():
        palette.setColor(color_role, QColor(value))
    for color_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(group.Disabled, color_role, QColor("#7a7d82"))
    return palette


def light_palette() -> QPalette:
    style = QStyleFactory.create("Fusion")
    return style.standardPalette() if style is not None else QPalette()


def apply_theme(app: QApplication, theme: Theme, system_palette: QPalette | None = None) -> None:
    """Apply ``theme``; ``system_palette`` is what the platform gave us at start-up."""
    if theme is Theme.SYSTEM:
        if system_palette is not None:
            app.setPalette(system_palette)
        return
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if theme is Theme.DARK else light_palette())
