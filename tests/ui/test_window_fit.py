"""The window on a laptop screen: it fits the free area, its toolbar fits 1280 pixels, a new
character opens at the top of its sheet, and a smoke test leaves the user's settings alone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QScrollArea

from mneme_desktop.domain import CharacterKind
from mneme_desktop.storage import build_sample_campaign, save_campaign
from mneme_desktop.ui.main_window import Page
from tests.test_app import run_app


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    return path


@pytest.fixture
def window(sample_window):
    return sample_window


def test_the_toolbar_fits_1280_pixels_after_a_long_step(qtbot, window) -> None:
    character = window.document.campaign.characters[0]
    from mneme_desktop.ui.commands import edit_character

    long_name = "Marasanta Veyquist-Holloway of the Outer Reach"
    edit_character(window.document, character, f"Rename {character.name} to {long_name}",
                   lambda c: setattr(c, "name", long_name))
    assert window.undo_action.toolTip().startswith("Undo Rename")
    assert window.undo_action.iconText() == "Undo"
    assert "Rename" in window.undo_action.text()  # the Edit menu names the step
    qtbot.waitUntil(lambda: window.toolbar.widgetForAction(window.undo_action) is not None)
    for action in window.toolbar.actions():
        if action.isSeparator():
            continue
        button = window.toolbar.widgetForAction(action)
        assert button is not None and button.isVisible(), action.text()
    assert window.toolbar.widgetForAction(window.healing_page_action).isVisible()


def test_a_new_character_opens_at_the_top_of_its_sheet(qtbot, window) -> None:
    window.resize(1280, 600)
    window.show_page(Page.SHEET)
    area = window.stack.currentWidget().findChild(QScrollArea, "sheetScrollArea")
    assert area is not None
    bar = area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    window.add_character(CharacterKind.PLAYER)
    qtbot.wait(20)
    assert bar.value() == 0


def test_smoke_test_and_screenshot_leave_the_settings_alone(tmp_path, campaign_file) -> None:
    home = tmp_path / "home"
    first = run_app("--smoke-test", str(campaign_file), home=home)
    assert first.returncode == 0, first.stderr
    written = [p for p in home.rglob("settings.json")]
    assert written == [] or all(p.stat().st_size >= 0 for p in written)
    before = {p: p.read_bytes() for p in written}
    other = tmp_path / "other.mneme"
    save_campaign(build_sample_campaign(), other, backups=0)
    assert run_app("--smoke-test", str(other), home=home).returncode == 0
    out = tmp_path / "shot.png"
    assert run_app("--screenshot", str(out), str(other), home=home).returncode == 0
    after = {p: p.read_bytes() for p in home.rglob("settings.json")}
    assert after == before  # no last campaign, no recent file, no geometry written


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run")
def test_the_first_window_fits_an_800_high_screen(tmp_path) -> None:
    script = (
        "from pathlib import Path\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from mneme_desktop.context import AppContext\n"
        "from mneme_desktop.paths import AppPaths\n"
        "from mneme_desktop.ui.main_window import MainWindow\n"
        f"context = AppContext.create(AppPaths.under(Path({str(tmp_path)!r})))\n"
        "window = MainWindow(context)\n"
        "window.show()\n"
        "for _ in range(20): app.processEvents()\n"
        "area = window.screen().availableGeometry()\n"
        "frame = window.frameGeometry()\n"
        "print(area.height(), frame.height(), frame.bottom(), window.geometry().height())\n"
        "window.discard_and_close()\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="xcb")
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, "-c", script],
        capture_output=True, text=True, timeout=120, env=env)
    if result.returncode != 0 and "could not connect to display" in result.stderr.lower():
        pytest.skip("no X server could be started")
    assert result.returncode == 0, result.stderr
    area_height, _frame_height, frame_bottom, height = map(int, result.stdout.split()[-4:])
    assert area_height == 800
    assert height < 800
    assert frame_bottom < area_height


def test_the_status_bar_clock_follows_the_campaign_clock(qtbot, window) -> None:
    from mneme_desktop.domain.edits import Patch, SetClock
    from mneme_desktop.ui.commands import push_patch

    campaign = window.document.campaign
    before = campaign.game_time
    later = before.advance(hours=3)
    push_patch(window.document, Patch("Advance", (SetClock(before, later),)))
    assert window.status_label.text() == later.label
    latest = later.advance(hours=2)  # the campaign is already modified: only the clock moves
    push_patch(window.document, Patch("Advance", (SetClock(later, latest),)))
    assert window.status_label.text() == latest.label
    window.document.undo_stack.undo()
    assert window.status_label.text() == later.label
