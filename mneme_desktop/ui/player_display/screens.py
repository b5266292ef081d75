"""Which screen the player display goes to, and putting it there.

A screen is remembered by its name (``QScreen.name()``: "HDMI-1", "\\\\.\\DISPLAY2"),
which stays the same while the cable stays in the same port. A remembered screen that is
not connected today falls back to the last one the system lists, which on a laptop with
a TV plugged in is the TV.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

from mneme_desktop.ui.i18n import tr

__all__ = ["chosen_screen", "place_on_screen", "screen_label", "screens"]

_CTX = "PlayerDisplay"


def screens() -> list[QScreen]:
    return list(QGuiApplication.screens())


def screen_label(screen: QScreen) -> str:
    """"HDMI-1 (1920 × 1080)", with "main screen" for the primary one."""
    size = screen.geometry().size()
    label = tr(_CTX, "{0} ({1} × {2})").format(screen.name() or tr(_CTX, "Screen"),
                                               size.width(), size.height())
    if screen is QGuiApplication.primaryScreen():
        label = tr(_CTX, "{0}, main screen").format(label)
    return label


def chosen_screen(name: str) -> QScreen | None:
    """The screen called ``name``, else the last one listed (None with no screen at all)."""
    listed = screens()
    for screen in listed:
        if screen.name() == name:
            return screen
    return listed[-1] if listed else None


def place_on_screen(window: QWidget, screen: QScreen | None, full_screen: bool) -> None:
    """Show ``window`` on ``screen``: filling it, or as a large window in its middle."""
    if screen is not None:
        window.setScreen(screen)
    if screen is not None and full_screen:
        window.setGeometry(screen.geometry())
        window.showFullScreen()
        return
    if window.isFullScreen():
        window.showNormal()
    if screen is not None:
        area = screen.availableGeometry()
        width, height = int(area.width() * 0.8), int(area.height() * 0.8)
        window.setGeometry(area.x() + (area.width() - width) // 2,
                           area.y() + (area.height() - height) // 2, width, height)
    window.show()
