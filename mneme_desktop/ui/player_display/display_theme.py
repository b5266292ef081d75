"""The player display's own colours: light, dark or high contrast, whatever the main
window uses. A TV across a room washes colours out, so every text colour here reaches at
least 7:1 on its background (WCAG AAA), and the current turn is marked in words too.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette

from mneme_desktop.domain import Side
from mneme_desktop.drawing.track_painter import TrackColors
from mneme_desktop.settings import DisplayTheme

__all__ = ["DisplayColors", "display_colors"]


@dataclass(frozen=True)
class DisplayColors:
    """The colours of one display theme."""

    background: QColor
    text: QColor
    muted: QColor
    """Secondary text (the idle screen's date, "Next"): still 7:1 on the background."""
    now_background: QColor
    now_text: QColor
    rule: QColor
    sides: dict[Side, QColor]

    def palette(self) -> QPalette:
        """The palette the display's widgets paint from."""
        palette = QPalette()
        role = QPalette.ColorRole
        for which, color in ((role.Window, self.background), (role.Base, self.background),
                             (role.AlternateBase, self.background),
                             (role.WindowText, self.text), (role.Text, self.text),
                             (role.Button, self.background), (role.ButtonText, self.text),
                             (role.Highlight, self.now_background),
                             (role.HighlightedText, self.now_text),
                             (role.PlaceholderText, self.muted), (role.Mid, self.rule)):
            palette.setColor(which, color)
        return palette

    def track(self) -> TrackColors:
        """The wound bands' fills, label colours and hatching, as the HP bar draws them,
        worked out from this theme's palette."""
        return TrackColors.from_palette(self.palette())


_THEMES = {
    DisplayTheme.LIGHT: DisplayColors(
        background=QColor("#f7f5f0"), text=QColor("#161616"), muted=QColor("#3d3d3d"),
        now_background=QColor("#1f4e8c"), now_text=QColor("#ffffff"), rule=QColor("#8a8a8a"),
        sides={Side.PLAYERS: QColor("#1f5fb0"), Side.ENEMIES: QColor("#b3261e"),
               Side.NEUTRAL: QColor("#5c5c5c")},
    ),
    DisplayTheme.DARK: DisplayColors(
        background=QColor("#15171a"), text=QColor("#eeeeee"), muted=QColor("#b8bcc2"),
        now_background=QColor("#27508a"), now_text=QColor("#ffffff"), rule=QColor("#5a5e66"),
        sides={Side.PLAYERS: QColor("#6fa8ff"), Side.ENEMIES: QColor("#ff7b72"),
               Side.NEUTRAL: QColor("#b0b0b0")},
    ),
    DisplayTheme.HIGH_CONTRAST: DisplayColors(
        background=QColor("#000000"), text=QColor("#ffffff"), muted=QColor("#ffffff"),
        now_background=QColor("#ffff00"), now_text=QColor("#000000"), rule=QColor("#ffffff"),
        sides={Side.PLAYERS: QColor("#00ffff"), Side.ENEMIES: QColor("#ff9e9e"),
               Side.NEUTRAL: QColor("#ffffff")},
    ),
}


def display_colors(theme: DisplayTheme) -> DisplayColors:
    return _THEMES[theme]
