"""The player display from the main window, as a referee uses it: View ▸ Player Display,
the fight followed live (undo too), the Hidden box in the combatant panel, the idle screen,
the panel's settings remembered between sessions, full screen on a chosen screen, and the
1920x1080 screenshot."""

from __future__ import annotations

import random

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QCheckBox, QComboBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Side
from mneme_desktop.settings import DisplayTheme, PlayerVisibility
from mneme_desktop.storage import build_sample_campaign
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.main_window import MainWindow
from mneme_desktop.ui.player_display import PlayerDisplay, save_display_screenshot
from mneme_desktop.ui.player_display.display_theme import display_colors
from mneme_desktop.ui.player_display.model import PlayerTurnModel
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.ui.player_display.fight import HIDDEN, campaign_for_fight, run_fight


def open_display(qtbot, window: MainWindow) -> PlayerDisplay:
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    display = window._player_display
    assert display is not None and display.window is not None
    qtbot.waitUntil(display.window.isVisible)
    return display


def pick(qtbot, combo: QComboBox, data: object) -> None:
    """Choose an item with the keyboard, as a referee would (the combo reports it)."""
    combo.setFocus()
    target = combo.findData(data)
    assert target >= 0
    while combo.currentIndex() != target:
        key = Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up
        qtbot.keyClick(combo, key)


def tick(qtbot, box: QCheckBox) -> None:
    """Click a check box on its box (a wide one's middle is past its text)."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))


def names_shown(display: PlayerDisplay) -> list[str]:
    model = display.feed.turn_model
    return [model.index(r, PlayerTurnModel.COL_NAME).data() for r in range(model.rowCount())]


def test_view_menu_opens_the_display_which_follows_the_fight_and_undo(qtbot, sample_window):
    window = sample_window
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert window.player_display_action in view_menu.actions()
    display = open_display(qtbot, window)
    shown = display.window
    assert shown.pages.currentIndex() == 0  # idle: no fight runs in the sample
    assert shown.idle_campaign.text() == "The Ashfall Marches"
    assert (shown.idle_day.text(), shown.idle_clock.text()) == ("Day 12", "14:30")
    assert shown.windowTitle() == "Player display — The Ashfall Marches"
    window.activateWindow()
    window.select_entity(window.document.campaign.encounters[0].id)
    view = window.encounter_view
    assert view is not None
    view.start_action.trigger()  # the referee starts the fight
    assert shown.pages.currentIndex() == 1
    assert shown.round_label.text() == "Round 1"
    assert shown.now_label.text() == "▶ Now: Sef Adeyemi"
    assert shown.next_label.text() == "Next: Mara Vey"
    view.next_action.trigger()
    assert shown.now_label.text() == "▶ Now: Mara Vey"
    window.undo_action.trigger()
    assert shown.now_label.text() == "▶ Now: Sef Adeyemi"
    window.undo_action.trigger()  # before the start: the idle screen again
    assert shown.pages.currentIndex() == 0
    window.redo_action.trigger()
    assert shown.pages.currentIndex() == 1


def make_display(qtbot, document: CampaignDocument, app_paths) -> PlayerDisplay:
    """The display as View ▸ Player Display opens it, over ``document``."""
    display = PlayerDisplay(document, AppContext.create(app_paths))
    display.open()
    assert display.window is not None
    qtbot.addWidget(display.window)
    qtbot.addWidget(display.panel)
    qtbot.waitUntil(display.window.isVisible)
    qtbot.waitExposed(display.panel)
    return display


def test_hidden_box_in_the_combatant_panel_keeps_them_off_the_display(qtbot, app_paths):
    campaign = build_sample_campaign()
    view = EncounterView(CampaignDocument(campaign), rng=random.Random(3))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_encounter(campaign.encounters[0].id)
    view.start_action.trigger()
    display = make_display(qtbot, view.document, app_paths)
    assert HIDDEN in names_shown(display)
    view.activateWindow()
    chief = next(c for c in view.encounter().combatants
                 if campaign.combatant_character(c).name == HIDDEN)
    view.select_combatant(chief.id)
    box = view.panel.hidden_check
    assert box.isVisible() and not box.isChecked()
    tick(qtbot, box)
    assert box.isChecked() and not chief.revealed
    assert HIDDEN not in names_shown(display)
    assert view.document.undo_stack.undoText() == f"Hide {HIDDEN} from the players"
    view.document.undo_stack.undo()
    assert HIDDEN in names_shown(display) and not box.isChecked()


def test_panel_settings_apply_at_once_and_are_remembered(qtbot, app_paths):
    campaign = campaign_for_fight()
    run_fight(campaign)
    document = CampaignDocument(campaign)
    display = make_display(qtbot, document, app_paths)
    panel = display.panel
    assert panel.isVisible()
    raider = next(r for r in display.feed.turn_model.rows if r.name == "Raider 1")
    assert raider.wounds == "Wounded" and raider.hp == ""
    pick(qtbot, panel.side_combos[Side.ENEMIES], PlayerVisibility.VAGUE)
    raider = next(r for r in display.feed.turn_model.rows if r.name == "Raider 1")
    assert raider.wounds == "hurt" and raider.band is None
    pick(qtbot, panel.theme_combo, DisplayTheme.HIGH_CONTRAST)
    assert display.window.palette().color(display.window.backgroundRole()) == \
        display_colors(DisplayTheme.HIGH_CONTRAST).background
    panel.text_spin.setFocus()
    panel.text_spin.selectAll()
    qtbot.keyClicks(panel.text_spin, "40")
    assert display.window.round_label.font().pointSizeF() == 80  # twice the text size
    assert not display.window.log_view.isVisible()
    tick(qtbot, panel.log_check)
    assert display.window.log_view.isVisible()
    assert display.feed.log_model.rowCount() == 2
    display.close()

    # The next session starts with them.
    settings = AppContext.create(app_paths).settings
    assert settings.player_display_enemies is PlayerVisibility.VAGUE
    assert settings.player_display_theme is DisplayTheme.HIGH_CONTRAST
    assert settings.player_display_text_pt == 40
    assert settings.player_display_log is True
    again = make_display(qtbot, document, app_paths)
    assert again.panel.theme_combo.currentData() == DisplayTheme.HIGH_CONTRAST
    assert again.panel.side_combos[Side.ENEMIES].currentData() == PlayerVisibility.VAGUE
    assert again.window.round_label.font().pointSizeF() == 80
    assert again.window.log_view.isVisible()


def test_full_screen_on_the_chosen_screen_and_escape_leaves_it(qtbot, app_paths):
    display = make_display(qtbot, CampaignDocument(build_sample_campaign()), app_paths)
    settings = display.context.settings
    panel = display.panel
    names = [panel.screen_combo.itemData(i) for i in range(panel.screen_combo.count())]
    assert names == [s.name() for s in QGuiApplication.screens()]
    pick(qtbot, panel.screen_combo, names[-1])
    assert settings.player_display_screen == names[-1]
    shown = display.window
    assert shown.screen().name() == names[-1]
    assert shown.isFullScreen() and panel.full_screen_check.isChecked()
    shown.activateWindow()
    qtbot.keyClick(shown, Qt.Key.Key_Escape)
    assert not shown.isFullScreen()
    assert settings.player_display_full_screen is False
    assert not panel.full_screen_check.isChecked()
    tick(qtbot, panel.full_screen_check)
    assert shown.isFullScreen() and shown.full_screen_action.isChecked()
    qtbot.mouseClick(panel.close_display_button, Qt.MouseButton.LeftButton)
    assert not shown.isVisible()
    qtbot.mouseClick(panel.show_button, Qt.MouseButton.LeftButton)
    assert shown.isVisible()


def test_the_display_follows_a_newly_opened_campaign(qtbot, sample_window, tmp_path):
    window = sample_window
    display = open_display(qtbot, window)
    campaign = campaign_for_fight()
    run_fight(campaign)
    campaign.name = "Another Campaign"
    path = tmp_path / "other.mneme"
    from mneme_desktop.storage import save_campaign

    save_campaign(campaign, path, backups=0)
    assert window.open_path(path)
    assert display.document is window.document
    assert display.window.pages.currentIndex() == 1
    assert "Another Campaign" in display.window.where_label.text()


def test_screenshot_is_1920_by_1080_and_not_blank(qtbot, tmp_path):
    from mneme_desktop.settings import Settings

    campaign = campaign_for_fight()
    run_fight(campaign)
    out = tmp_path / "player.png"
    assert save_display_screenshot(CampaignDocument(campaign), Settings(), out)
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1920, 1080)
    colours = {image.pixel(x, y) for x in range(0, 1920, 23) for y in range(0, 1080, 23)}
    assert len(colours) > 8


def test_screenshot_option_renders_the_display(qtbot, open_window, tmp_path):
    campaign = campaign_for_fight()
    run_fight(campaign)
    window = open_window(campaign, tmp_path / "fight.mneme")
    out = tmp_path / "player_display.png"
    assert window.save_screenshot(out, "player") == 0
    assert QImage(str(out)).size().toTuple() == (1920, 1080)


def test_long_names_never_widen_the_display_or_run_into_each_other(qtbot, app_paths):
    """QA: "Now: Sef Adeyemi" ran into "Next: Mara Vey" and a 900-pixel window was held at
    1110 by the two lines' text; long names are cut with "…" instead."""
    from mneme_desktop.ui.player_display.filtering import Scene

    display = make_display(qtbot, CampaignDocument(build_sample_campaign()), app_paths)
    display.context.settings.player_display_full_screen = False
    shown = display.window
    shown.showNormal()
    shown.show_scene(Scene(campaign="The Long Campaign of the Ashfall Marches", day="Day 12",
                           clock="14:30", fight=True, round="Round 1",
                           now="Shieldwall Raider Captain of the Ember Ford 1",
                           next="Raider Gunner Sergeant of the Salt Well 2"))
    shown.resize(900, 500)
    qtbot.waitUntil(lambda: shown.width() <= 900)
    now, after = shown.now_label.geometry(), shown.next_label.geometry()
    assert now.right() < after.left() - 8
    assert shown.where_label.geometry().left() > shown.round_label.geometry().right()
    shown.show_scene(Scene(campaign="The Ashfall Marches", day="Day 12", clock="14:30",
                           fight=True, round="Round 1", now="Raider 1",
                           next="Shieldwall Raider 1"))
    shown.resize(1366, 768)
    qtbot.waitUntil(lambda: shown.width() == 1366)
    for label in (shown.now_label, shown.next_label, shown.where_label):
        assert label.width() >= label.sizeHint().width(), label.text()  # room: shown whole
