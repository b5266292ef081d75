"""The main window on a campaign, as the window tests open it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Campaign
from mneme_desktop.storage import build_sample_campaign, save_campaign
from mneme_desktop.ui.main_window import MainWindow

OpenWindow = Callable[..., MainWindow]


@pytest.fixture
def open_window(qtbot, app_paths) -> Iterator[OpenWindow]:
    """Save ``campaign`` at ``path`` and open it in a shown 1280x800 window (closed after)."""
    windows: list[MainWindow] = []

    def open_(campaign: Campaign, path: Path, *, active: bool = False) -> MainWindow:
        save_campaign(campaign, path, backups=0)
        win = MainWindow(AppContext.create(app_paths))
        assert win.open_initial(path)
        win.resize(1280, 800)
        win.show()
        qtbot.waitExposed(win)
        if active:
            win.activateWindow()
            qtbot.waitActive(win)
        windows.append(win)
        return win

    yield open_
    for win in windows:
        win.discard_and_close()
        win.deleteLater()


@pytest.fixture
def sample_window(open_window: OpenWindow, tmp_path: Path) -> MainWindow:
    """The sample campaign, shown and active (window shortcuts work)."""
    return open_window(build_sample_campaign(), tmp_path / "campaign.mneme", active=True)
