"""Start-up as a referee sees it: the window's frame paints first, the campaign follows."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from mneme_desktop.app import quicken_pyside_module_scan
from mneme_desktop.context import AppContext
from mneme_desktop.module_scan import ModuleScan
from mneme_desktop.storage import build_sample_campaign, save_campaign
from mneme_desktop.ui.main_window import MainWindow, Page


@pytest.fixture
def context(app_paths):
    return AppContext.create(app_paths)


def close(window: MainWindow) -> None:
    window.discard_and_close()
    window.deleteLater()


def test_the_window_module_imports_no_campaign_code() -> None:
    """What the first paint needs is Qt only: no pydantic, domain, storage or views."""
    code = textwrap.dedent("""
        import sys
        import mneme_desktop.ui.main_window
        loaded = sorted(m for m in sys.modules if m.split(".")[0] == "pydantic"
                        or m.startswith(("mneme_desktop.domain", "mneme_desktop.storage",
                                         "mneme_desktop.rules", "mneme_desktop.ui.views",
                                         "mneme_desktop.ui.document")))
        print(",".join(loaded))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == ""


def test_the_campaign_opens_after_the_first_paint(qtbot, context):
    window = MainWindow(context)
    window.open_after_first_paint(None)
    assert window.document is None
    assert "Opening" in window.empty_label.text()
    window.show()
    qtbot.waitUntil(lambda: window.document is not None, timeout=10_000)
    assert window.document.path == context.paths.data_dir / "Sample Campaign.mneme"
    assert window.stack.currentIndex() == Page.SHEET
    assert window.sheet_view is not None and window.sheet_view.isVisible()
    close(window)


def test_opening_finished_is_told_once_the_start_campaign_is_shown(qtbot, context):
    window = MainWindow(context)
    finished: list[bool] = []
    window.opening_finished.connect(
        lambda: finished.append(window.document is not None and window.sheet_view is not None))
    window.open_after_first_paint(None)
    assert finished == []
    window.show()
    qtbot.waitUntil(lambda: bool(finished), timeout=10_000)
    qtbot.wait(50)
    assert finished == [True]  # once, with the campaign already on screen
    close(window)


_COLLECTOR_SCRIPT = textwrap.dedent(
    """
    import gc
    from mneme_desktop.app import hold_garbage_collector

    assert gc.isenabled()
    release = hold_garbage_collector()
    assert not gc.isenabled()
    release()
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    release()  # a second call changes nothing
    assert gc.get_freeze_count() == frozen

    gc.unfreeze()
    gc.disable()
    hold_garbage_collector()()
    assert not gc.isenabled()  # off before start: stays off after it
    print("ok")
    """
)


def test_the_collector_is_held_off_during_start_and_freezes_what_start_built() -> None:
    # In a child process: freezing the test process's objects would change when every
    # later test's Qt wrappers are collected.
    done = subprocess.run([sys.executable, "-c", _COLLECTOR_SCRIPT], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_page_shortcuts_before_the_campaign_has_opened_wait_for_it(qtbot, context):
    window = MainWindow(context)
    window.open_after_first_paint(None)
    for action in (window.sheet_page_action, window.encounter_page_action,
                   window.healing_page_action):
        action.trigger()
    assert window.document is None and window.stack.currentIndex() == Page.EMPTY
    window.show()
    qtbot.waitUntil(lambda: window.document is not None, timeout=10_000)
    window.healing_page_action.trigger()
    assert window.stack.currentWidget() is window.healing_view
    close(window)


def test_an_unopenable_file_at_start_says_why_and_opens_the_usual_campaign(qtbot, context,
                                                                         tmp_path, caplog):
    bad = tmp_path / "bad.mneme"
    bad.write_text("{ not json", encoding="utf-8")
    window = MainWindow(context)
    window.queue_dialog_answer(QMessageBox.StandardButton.Ok)  # the "cannot open" message
    window.open_after_first_paint(bad)
    window.show()
    qtbot.waitUntil(lambda: window.document is not None, timeout=10_000)
    assert window.document.path == context.paths.data_dir / "Sample Campaign.mneme"
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Cannot open")]
    assert said and "bad.mneme" in said[0]
    assert bad.read_text(encoding="utf-8") == "{ not json"
    close(window)


def test_opening_a_file_before_the_start_campaign_loaded_wins(qtbot, context, tmp_path):
    chosen = tmp_path / "chosen.mneme"
    campaign = build_sample_campaign()
    campaign.name = "Chosen"
    save_campaign(campaign, chosen, backups=0)
    window = MainWindow(context)
    window.open_after_first_paint(None)
    assert window.open_path(chosen)  # the referee was quicker than the deferred open
    window.show()
    qtbot.wait(50)
    window._finish_opening()
    assert window.document is not None and window.document.campaign.name == "Chosen"
    close(window)


def test_views_are_built_when_first_shown(qtbot, context, tmp_path):
    path = tmp_path / "c.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    window = MainWindow(context)
    qtbot.addWidget(window)
    assert window.open_initial(path)
    assert window.sheet_view is not None
    assert window.encounter_view is None and window.healing_view is None
    window.show_page(Page.ENCOUNTER)
    assert window.encounter_view is not None
    assert window.stack.currentWidget() is window.encounter_view
    window.show_page(Page.HEALING)
    assert window.stack.currentWidget() is window.healing_view
    window.show_page(Page.SHEET)
    assert window.stack.currentWidget() is window.sheet_view


def test_quickened_module_scan_gives_pyside_the_same_answers() -> None:
    feature = sys.modules["shibokensupport.feature"]
    first = ModuleScan(None)
    quicken_pyside_module_scan(first)
    assert not quicken_pyside_module_scan(first)  # once is enough
    quicken_pyside_module_scan()  # a later scan takes over, asking the same upstream
    check = feature._mod_uses_pyside
    assert getattr(check, "quickened", False) and check.scan is not first
    upstream = check.upstream
    assert not getattr(upstream, "quickened", False)
    import json

    import mneme_desktop.domain.campaign as domain
    import mneme_desktop.rules.dice as pure
    import mneme_desktop.ui.main_window as uses_qt
    import mneme_desktop.ui.theme as theme

    for module in (uses_qt, theme, pure, domain, json, sys):
        assert check(module) is bool(upstream(module)), module.__name__
    assert check(uses_qt) is True
    assert check(pure) is False
    assert check(json) is False
    assert check(sys) is False  # built in: PySide6's own answer


def test_storage_loads_character_import_and_the_sample_on_demand() -> None:
    code = textwrap.dedent("""
        import sys
        import mneme_desktop.storage as storage
        before = "mneme_desktop.storage.characters" in sys.modules
        storage.import_character
        after = "mneme_desktop.storage.characters" in sys.modules
        print(before, after, callable(storage.install_sample_campaign))
        try:
            storage.no_such_name
        except AttributeError as exc:
            print("AttributeError", exc)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True, cwd=Path(__file__).parents[2])
    lines = done.stdout.splitlines()
    assert lines[0] == "False True True"
    assert lines[1].startswith("AttributeError") and "no_such_name" in lines[1]


def test_showing_a_campaign_loads_no_export_or_clock_command_code(qtbot, context,
                                                                  tmp_path) -> None:
    """Export (PDF, HTML, referee packs) is loaded when the referee exports, not at start: it
    was 25 ms of the ~300 ms to the first shown campaign. The clock's commands (advancing
    time, rolls falling due: ~7 ms) when the clock is first moved."""
    code = textwrap.dedent(f"""
        import sys
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from pathlib import Path
        from mneme_desktop.context import AppContext
        from mneme_desktop.paths import AppPaths
        from mneme_desktop.ui.main_window import MainWindow
        window = MainWindow(AppContext.create(AppPaths.under(Path({str(tmp_path)!r}))))
        assert window.open_initial(None)
        window.show()
        app.processEvents()
        print(",".join(sorted(m for m in sys.modules if m.startswith("mneme_desktop.export"))))
        print([m in sys.modules for m in ("mneme_desktop.ui.healing_commands",
                                          "mneme_desktop.domain.healing.time_stops")])
        window.time_controls.amount_spin.setValue(1)
        window.time_controls.advance_button.click()
        print([m in sys.modules for m in ("mneme_desktop.ui.healing_commands",
                                          "mneme_desktop.domain.healing.time_stops")])
        window.discard_and_close()
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True, env=env)
    lines = done.stdout.splitlines()
    assert lines[-3] == "", done.stdout
    assert lines[-2:] == ["[False, False]", "[True, True]"], done.stdout


def test_the_app_guard_is_in_place_before_any_field_is_shown(qtbot, context) -> None:
    """The guard is the application's style (it sees each widget as Qt polishes it), put in
    place as the start campaign opens, before its pages are built: the frame painted before
    has no field, and no field of the campaign is missed."""
    from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QStyleFactory

    from mneme_desktop.ui.app_guard import GuardStyle

    app = QApplication.instance()
    app.setStyle(QStyleFactory.create("Fusion"))  # as at a start: no guard yet
    window = MainWindow(context)
    qtbot.addWidget(window)
    assert not isinstance(app.style(), GuardStyle)
    assert not window.findChildren(QAbstractSpinBox)  # the frame: nothing to guard
    assert window.open_initial(None)
    assert isinstance(app.style(), GuardStyle)
    window.show()
    qtbot.waitExposed(window)
    spins = window.findChildren(QAbstractSpinBox)
    assert spins
    for spin in spins:
        assert spin.focusPolicy() != Qt.FocusPolicy.WheelFocus
    close(window)


_PLUGIN_SCRIPT = textwrap.dedent(
    """
    import os, sys
    os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
    from mneme_desktop.app import PYDANTIC_PLUGIN_LOADER, skip_pydantic_plugin_search
    assert skip_pydantic_plugin_search()
    assert not skip_pydantic_plugin_search()  # once is enough
    stand_in = sys.modules[PYDANTIC_PLUGIN_LOADER]

    from mneme_desktop.domain import Campaign
    from mneme_desktop.storage import build_sample_campaign, campaign_from_json, campaign_to_json
    campaign = build_sample_campaign()
    assert campaign_from_json(campaign_to_json(campaign)) == campaign
    print("metadata imported:", "importlib.metadata" in sys.modules)

    del os.environ["PYDANTIC_DISABLE_PLUGINS"]  # now pydantic's own loader answers
    print("plugins:", tuple(stand_in.get_plugins()))
    real = sys.modules[PYDANTIC_PLUGIN_LOADER]
    print("replaced:", real is not stand_in,
          "metadata imported:", "importlib.metadata" in sys.modules)
    print("same answer:", stand_in.get_plugins is not real.get_plugins
          and tuple(real.get_plugins()) == tuple(stand_in.get_plugins()))
    """
)


def test_pydantic_plugins_disabled_are_answered_without_importing_importlib_metadata() -> None:
    done = subprocess.run([sys.executable, "-c", _PLUGIN_SCRIPT], capture_output=True,
                          text=True, timeout=120, check=False, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "metadata imported: False",
        "plugins: ()",
        "replaced: True metadata imported: True",
        "same answer: True",
    ]


@pytest.mark.parametrize("command", [["-m", "mneme_desktop"], ["packaging/bare_window.py"]],
                         ids=["app", "bare window"])
def test_the_startup_report_prints_first_paint_then_fully_shown_and_quits(tmp_path,
                                                                          command) -> None:
    repo = Path(__file__).parents[2]
    home = tmp_path / "home"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MNEME_DESKTOP_STARTUP_REPORT="1",
               HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"), XDG_STATE_HOME=str(home / "state"),
               XDG_CACHE_HOME=str(home / "cache"))
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          timeout=120, check=False, env=env, cwd=repo)
    assert done.returncode == 0, done.stderr
    marks = [line.split() for line in done.stdout.splitlines()]
    assert [name for name, _ in marks] == ["first_paint", "fully_shown"]
    assert 0 < float(marks[1][1]) - float(marks[0][1]) < 60

