"""Where the main window sits and how big it is: kept between runs, and always on screen.

Qt only: the window lays itself out before its first paint.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSize, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QStyle

from mneme_desktop.settings import Settings


def restore_layout(window: QMainWindow, settings: Settings, navigator: QDockWidget) -> None:
    """Last run's size, place and docks; a first run gets 1280×820 and a 240-pixel navigator."""
    window.resize(1280, 820)
    if settings.window_geometry:
        window.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
    fit_available_screen(window)
    if settings.window_state:
        window.restoreState(QByteArray.fromBase64(settings.window_state.encode()))
    else:
        window.resizeDocks([navigator], [240], Qt.Orientation.Horizontal)


def fit_available_screen(window: QMainWindow) -> None:
    """Never larger than the screen's free area (an 800-high laptop put the status bar
    off-screen), and on it; a maximised window stays maximised."""
    if window.isMaximized() or window.isFullScreen():
        return
    if QApplication.platformName() == "offscreen":  # no real screen: render as asked
        return
    screen = window.screen()
    if screen is None:
        return
    area = screen.availableGeometry()
    frame = window.frameGeometry().size() - window.geometry().size()
    if frame.isEmpty() and not window.isVisible():  # no frame yet: allow a title bar
        style = window.style()
        border = style.pixelMetric(QStyle.PixelMetric.PM_MdiSubWindowFrameWidth)
        title = style.pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight)
        frame = QSize(2 * border, title + 2 * border)
    width = min(window.width(), max(area.width() - frame.width(), 1))
    height = min(window.height(), max(area.height() - frame.height(), 1))
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    geometry = window.frameGeometry()
    if not area.contains(geometry):
        x = min(max(geometry.x(), area.x()), area.right() - geometry.width() + 1)
        y = min(max(geometry.y(), area.y()), area.bottom() - geometry.height() + 1)
        window.move(max(x, area.x()), max(y, area.y()))


def remember_layout(window: QMainWindow, settings: Settings) -> None:
    settings.window_geometry = bytes(window.saveGeometry().toBase64().data()).decode()
    settings.window_state = bytes(window.saveState().toBase64().data()).decode()
