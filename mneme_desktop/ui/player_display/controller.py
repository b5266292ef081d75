"""The player display as the main window holds it: the feed over the open document, the
display window and the referee's panel, kept in step with the settings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget

from mneme_desktop.context import AppContext
from mneme_desktop.settings import Settings
from mneme_desktop.ui.player_display.filtering import DisplayOptions
from mneme_desktop.ui.player_display.model import DisplayFeed
from mneme_desktop.ui.player_display.panel import PlayerDisplayPanel
from mneme_desktop.ui.player_display.screens import chosen_screen, place_on_screen
from mneme_desktop.ui.player_display.window import PlayerDisplayWindow

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["PlayerDisplay", "save_display_screenshot"]


class PlayerDisplay(QObject):
    """One per main window: follows whichever campaign the window has open."""

    def __init__(self, document: CampaignDocument, context: AppContext,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.feed = DisplayFeed(document, DisplayOptions.from_settings(context.settings), self)
        self.window: PlayerDisplayWindow | None = None
        self.panel = PlayerDisplayPanel(context, parent)
        self.panel.changed.connect(self.apply_settings)
        self.panel.placement_changed.connect(self._placement_changed)
        self.panel.show_requested.connect(self.show_display)
        self.panel.close_requested.connect(self.close_display)

    @property
    def document(self) -> CampaignDocument:
        return self.feed.document

    def set_document(self, document: CampaignDocument) -> None:
        """Follow a newly opened campaign (the display stays where it is)."""
        self.feed.set_document(document)

    def prefer(self, encounter_id: str | None) -> None:
        self.feed.prefer(encounter_id)

    def open(self) -> None:
        """View ▸ Player Display: the display on its screen, and the panel to set it up."""
        self.show_display()
        self.panel.load()
        self.panel.show()
        self.panel.raise_()
        self.panel.activateWindow()

    def show_display(self) -> PlayerDisplayWindow:
        window = self._window()
        self._place()
        window.raise_()
        return window

    def close_display(self) -> None:
        if self.window is not None:
            self.window.close()

    def close(self) -> None:
        """The main window closes: the display and the panel go with it."""
        self.close_display()
        self.panel.close()

    def apply_settings(self) -> None:
        settings = self.context.settings
        self.feed.set_options(DisplayOptions.from_settings(settings))
        if self.window is not None:
            self.window.apply_look(settings.player_display_theme,
                                   settings.player_display_text_pt)
            self.window.show_scene(self.feed.scene)

    def _window(self) -> PlayerDisplayWindow:
        if self.window is None:
            settings = self.context.settings
            self.window = PlayerDisplayWindow(self.feed, settings.player_display_theme,
                                              settings.player_display_text_pt)
            self.window.full_screen_toggled.connect(self._full_screen_toggled)
            self.window.settings_requested.connect(self._raise_panel)
        return self.window

    def _placement_changed(self) -> None:
        """The panel's screen or full screen: a closed display opens there next time."""
        if self.window is not None and self.window.isVisible():
            self._place()

    def _place(self) -> None:
        window = self.window
        if window is None:
            return
        settings = self.context.settings
        full = settings.player_display_full_screen
        window.full_screen_action.blockSignals(True)
        window.full_screen_action.setChecked(full)
        window.full_screen_action.blockSignals(False)
        place_on_screen(window, chosen_screen(settings.player_display_screen), full)

    def _full_screen_toggled(self, on: bool) -> None:
        """F11, Esc or the display's menu: remembered like the panel's box."""
        self.context.settings.player_display_full_screen = on
        self.context.save_settings()
        self.panel.load()
        self._place()

    def _raise_panel(self) -> None:
        self.panel.load()
        self.panel.show()
        self.panel.raise_()
        self.panel.activateWindow()


def save_display_screenshot(document: CampaignDocument, settings: Settings, path: Path,
                            width: int = 1920, height: int = 1080) -> bool:
    """Render the player display at ``width`` x ``height`` to a PNG, off any screen
    (``mneme-desktop --screenshot OUT.png --view player``)."""
    feed = DisplayFeed(document, DisplayOptions.from_settings(settings))
    window = PlayerDisplayWindow(feed, settings.player_display_theme,
                                 settings.player_display_text_pt)
    window.resize(width, height)
    window.show()
    app = QApplication.instance()
    if app is not None:
        for _ in range(3):
            app.processEvents()
    image = window.grab()
    ok = not image.isNull() and image.save(str(path))
    window.close()
    window.deleteLater()
    feed.deleteLater()
    return ok
