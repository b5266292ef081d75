"""Light, dark or the system's look. Widgets paint from the palette, so this is all it takes.

Every colour we draw text in is checked against its background to WCAG AA (4.5:1), in both
themes (``tests/ui/test_contrast.py``); that arithmetic lives in
:mod:`mneme_desktop.drawing.contrast`, shared with the exporters.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)

from mneme_desktop.settings import Theme

__all__ = [
    "INDICATOR_BORDER_ROLE",
    "DarkIndicatorStyle",
    "apply_theme",
    "dark_palette",
    "light_palette",
]

INDICATOR_BORDER_ROLE = QPalette.ColorRole.Mid
"""The role a check box's border is drawn in under the dark theme (3:1 on Base)."""

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
        # Mid borders the check boxes (DarkIndicatorStyle): 3:1 on Base and AlternateBase,
        # or an unchecked Care box in a table is all but invisible (#4a4d52 was 1.9:1).
        role.Mid: "#7a7e85", role.Dark: "#18191b", role.Light: "#4f5257",
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


class DarkIndicatorStyle(QProxyStyle):
    """Fusion, with check boxes and radio buttons bordered in :data:`INDICATOR_BORDER_ROLE`:
    Fusion borders them in the Window colour darkened, which on a dark Base is no border at
    all."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption,
                      painter: QPainter, widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        radio = element is QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if element is not QStyle.PrimitiveElement.PE_IndicatorCheckBox and not radio:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(QColor(0, 0, 0, 0))
        painter.setPen(QPen(option.palette.color(INDICATOR_BORDER_ROLE), 1))  # type: ignore[attr-defined]
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)  # type: ignore[attr-defined]
        if radio:  # the export dialog's unticked "Current damage" was as faint (QA)
            painter.drawEllipse(rect)
        else:
            painter.drawRect(rect)
        painter.restore()


def apply_theme(app: QApplication, theme: Theme, system_palette: QPalette | None = None, *,
                restyle_widgets: bool = True) -> None:
    """Apply ``theme``; ``system_palette`` is what the platform gave us at start-up.

    ``restyle_widgets`` False: no widget has a palette style sheet yet (the window's own
    start-up), so the walk over every widget is skipped; it also made PySide6 create ~40
    enum classes for Qt's private widget classes before the first paint."""
    if theme is Theme.SYSTEM:
        if system_palette is not None:
            app.setPalette(system_palette)
            if restyle_widgets:
                _resolve_palette_sheets(app)
        return
    if theme is Theme.DARK:
        _use_style(app, DarkIndicatorStyle())
        app.setPalette(dark_palette())
    else:
        fusion = QStyleFactory.create("Fusion")
        if fusion is not None:
            _use_style(app, fusion)
        app.setPalette(light_palette())
    if restyle_widgets:
        _resolve_palette_sheets(app)


def _use_style(app: QApplication, style: QStyle) -> None:
    """Make ``style`` the application's, behind the input guard once it is in place. The
    guard's module is imported only by putting it in place (after the first paint: its
    widget classes cost ~6 ms), so without it there is no guard to keep."""
    guard = sys.modules.get("mneme_desktop.ui.app_guard")
    if guard is None:
        app.setStyle(style)
    else:
        guard.set_app_style(app, style)


def _resolve_palette_sheets(app: QApplication) -> None:
    """Style sheets that name a palette colour (the sheet's hints and subtitles are
    ``color: palette(placeholder-text)``) read it once, when set: a theme changed in
    Settings left them in the old theme's grey, 2:1 on the dark window. Set them again."""
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if "palette(" in sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)
