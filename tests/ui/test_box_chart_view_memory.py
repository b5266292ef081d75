"""The box chart's on-screen view (rows of three or the MegaTraveller record) is remembered
between sessions through the settings, apart from the printed sheets' own setting."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from mneme_desktop.context import AppContext
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.settings import BoxChartStyle, load_settings
from mneme_desktop.storage import build_sample_campaign, save_campaign
from mneme_desktop.ui.main_window import MainWindow
from mneme_desktop.ui.models.navigator_nodes import Group


def open_session(qtbot, app_paths, path: Path) -> MainWindow:
    """A new run of the app on ``path``: settings read from disk as ``main()`` reads them."""
    window = MainWindow(AppContext.create(app_paths))
    assert window.open_initial(path)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def select_first(window: MainWindow, group: Group) -> None:
    model = window.navigator_model
    assert model is not None
    window.tree.setCurrentIndex(model.index(0, 0, model.group_index(group)))


def close(window: MainWindow) -> None:
    window.discard_and_close()
    window.deleteLater()


def test_a_new_session_starts_in_the_view_last_chosen(qtbot, app_paths, tmp_path):
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    window = open_session(qtbot, app_paths, path)
    select_first(window, Group.PLAYERS)
    sheet = window.stack.sheet()
    combo = sheet.track.chart_view_combo
    qtbot.waitUntil(combo.isVisible)
    assert combo.currentData() is ChartStyle.ROWS_OF_THREE
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert sheet.box_chart.chart_style() is ChartStyle.MEGATRAVELLER
    on_disk = json.loads(app_paths.settings_file.read_text(encoding="utf-8"))
    assert on_disk["box_chart_view"] == "megatraveller"
    assert on_disk["print_box_chart"] == "rows_of_three"  # printing keeps its own choice
    assert not window.document.undo_stack.count()  # a view, not an edit
    close(window)

    window = open_session(qtbot, app_paths, path)
    select_first(window, Group.PLAYERS)
    sheet = window.stack.sheet()
    qtbot.waitUntil(sheet.track.chart_view_combo.isVisible)
    assert sheet.track.chart_view_combo.currentData() is ChartStyle.MEGATRAVELLER
    assert sheet.box_chart.chart_style() is ChartStyle.MEGATRAVELLER
    # A thing's sheet shows its chart the same way; switching back there is remembered too,
    # and the character sheet follows when shown again.
    select_first(window, Group.THING_LIBRARY)
    thing_combo = window.stack.thing().track.view_combo
    qtbot.waitUntil(thing_combo.isVisible)
    assert thing_combo.currentData() is ChartStyle.MEGATRAVELLER
    thing_combo.setFocus()
    qtbot.keyClick(thing_combo, Qt.Key.Key_Up)
    assert load_settings(app_paths.settings_file).box_chart_view is BoxChartStyle.ROWS_OF_THREE
    select_first(window, Group.PLAYERS)
    qtbot.waitUntil(sheet.track.chart_view_combo.isVisible)
    assert sheet.track.chart_view_combo.currentData() is ChartStyle.ROWS_OF_THREE
    assert sheet.box_chart.chart_style() is ChartStyle.ROWS_OF_THREE
    close(window)


def test_a_bad_value_in_the_file_starts_in_rows_of_three(app_paths):
    app_paths.ensure()
    app_paths.settings_file.write_text(json.dumps({"box_chart_view": "hexagons",
                                                   "print_box_chart": "megatraveller"}),
                                       encoding="utf-8")
    settings = load_settings(app_paths.settings_file)
    assert settings.box_chart_view is BoxChartStyle.ROWS_OF_THREE
    assert settings.print_box_chart is BoxChartStyle.MEGATRAVELLER
