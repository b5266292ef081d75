"""The main window driven as a referee would: open, edit, save, reopen, undo, close."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QMessageBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import CharacterKind
from mneme_desktop.storage import build_sample_campaign, load_campaign, save_campaign
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_model import Group

Button = QMessageBox.StandardButton


@pytest.fixture
def context(app_paths):
    return AppContext.create(app_paths)


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    return path


@pytest.fixture
def window(qtbot, context, campaign_file):
    win = MainWindow(context)
    assert win.open_initial(campaign_file)
    win.show()
    qtbot.waitExposed(win)
    yield win
    # pytest-qt would close added widgets before this runs, so the window is ours to close.
    win.discard_and_close()
    win.deleteLater()


def select_first(window: MainWindow, group: Group) -> None:
    model = window.navigator_model
    assert model is not None
    index = model.index(0, 0, model.group_index(group))
    assert index.isValid()
    window.tree.setCurrentIndex(index)


def test_first_run_opens_a_copy_of_the_sample(qtbot, context):
    win = MainWindow(context)
    qtbot.addWidget(win)
    actions = win.main_actions
    # Before a campaign is open there is nothing to undo or redo (they looked live while
    # the first campaign was still opening).
    assert not actions.undo_action.isEnabled() and not actions.redo_action.isEnabled()
    assert win.open_initial(None)
    assert win.document is not None
    assert win.document.path == context.paths.data_dir / "Sample Campaign.mneme"
    assert len(win.document.campaign.characters) >= 4
    assert context.settings.last_campaign == str(win.document.path.resolve())


def test_export_opens_in_documents_not_the_samples_folder_then_where_it_went(
        qtbot, context, tmp_path):
    from PySide6.QtCore import QStandardPaths

    from mneme_desktop.export.exporter import ExportFormat

    win = MainWindow(context)
    qtbot.addWidget(win)
    assert win.open_initial(None)  # the sample's copy lives in the app's data folder
    exports = tmp_path / "exports"
    exports.mkdir()
    asked = []

    def choose(_parent, suggested):
        asked.append(suggested.parent)
        return exports / f"sheets{len(asked)}.html", ExportFormat.HTML

    win.export_dialog("players", run=lambda _dialog: 1, choose=choose)
    win.export_dialog("players", run=lambda _dialog: 1, choose=choose)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    assert asked == [Path(documents), exports]
    assert (exports / "sheets2.html").is_file()


def test_later_run_reopens_the_last_campaign(qtbot, context, campaign_file):
    context.settings.add_recent(campaign_file)
    win = MainWindow(context)
    qtbot.addWidget(win)
    assert win.open_initial(None)
    assert win.document is not None and win.document.path == campaign_file.resolve()


def test_navigator_model_passes_the_model_tester(window):
    tester = QAbstractItemModelTester(
        window.navigator_model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    window.add_character(CharacterKind.PLAYER)
    window.document.undo_stack.undo()
    del tester


def test_selecting_a_character_shows_its_sheet(window):
    select_first(window, Group.PLAYERS)
    assert window.stack.currentIndex() == Page.SHEET
    first = window.document.campaign.characters[0]
    assert window.sheet_view.character_id() == first.id


def test_selecting_an_encounter_shows_the_encounter_view(window):
    select_first(window, Group.ENCOUNTERS)
    assert window.stack.currentIndex() == Page.ENCOUNTER


def test_add_character_marks_modified_and_undo_removes_it(qtbot, window):
    before = len(window.document.campaign.characters)
    assert not window.isWindowModified()
    qtbot.keyClick(window, Qt.Key.Key_P,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert len(window.document.campaign.characters) == before + 1
    assert window.isWindowModified()
    assert "[*]" in window.windowTitle()
    window.undo_action.trigger()
    assert len(window.document.campaign.characters) == before
    assert not window.isWindowModified()
    window.redo_action.trigger()
    assert len(window.document.campaign.characters) == before + 1


def test_save_and_reopen_keeps_the_edit(qtbot, window, campaign_file):
    character = window.add_character(CharacterKind.NPC)
    assert character is not None
    window.save_action.trigger()
    assert not window.document.modified
    reopened = load_campaign(campaign_file)
    assert any(c.name == character.name for c in reopened.characters)
    # a backup of the previous version is kept beside the file
    assert any(p.name.startswith("campaign.mneme") and p != campaign_file
               for p in campaign_file.parent.iterdir())


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(qtbot, window):
    window.add_encounter()
    window.queue_dialog_answer(Button.Cancel)
    assert not window.close()
    assert window.isVisible()
    window.queue_dialog_answer(Button.Discard)
    assert window.close()


def test_closing_with_save_writes_the_file(qtbot, window, campaign_file):
    encounter = window.add_encounter()
    window.queue_dialog_answer(Button.Save)
    assert window.close()
    names = [e.name for e in load_campaign(campaign_file).encounters]
    assert encounter is not None and encounter.name in names


def test_file_changed_outside_is_not_overwritten_silently(qtbot, window, campaign_file):
    window.add_character(CharacterKind.PLAYER)
    data = json.loads(campaign_file.read_text(encoding="utf-8"))
    data["notes"] = "edited in another program"
    campaign_file.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
    window.queue_dialog_answer(Button.Cancel)
    assert not window.save()
    assert load_campaign(campaign_file).notes == "edited in another program"
    window.queue_dialog_answer(Button.Save)
    assert window.save()
    assert load_campaign(campaign_file).notes != "edited in another program"


def test_a_corrupt_file_gives_a_message_not_a_traceback(qtbot, context, tmp_path):
    bad = tmp_path / "bad.mneme"
    bad.write_bytes(b"{ not json")
    win = MainWindow(context)
    qtbot.addWidget(win)
    win.queue_dialog_answer(Button.Ok)
    assert not win.open_path(bad)
    assert bad.read_bytes() == b"{ not json"
    assert "bad.mneme" in win.statusBar().currentMessage()


def test_autosave_is_offered_on_the_next_start(qtbot, context, campaign_file):
    win = MainWindow(context)
    qtbot.addWidget(win)
    assert win.open_path(campaign_file)
    character = win.add_character(CharacterKind.PLAYER)
    assert win.autosave_now()
    win.document.undo_stack.setClean()
    win.close()

    import os
    import time
    old = time.time() - 60
    os.utime(campaign_file, (old, old))

    again = MainWindow(context)
    qtbot.addWidget(again)
    again.queue_dialog_answer(Button.Yes)
    assert again.open_path(campaign_file)
    assert character is not None
    assert again.document.campaign.find_character(character.id) is not None
    assert again.document.modified
    again.document._unsaved_without_undo = False


def test_duplicate_rename_and_delete_are_undoable(qtbot, window):
    select_first(window, Group.PLAYERS)
    original = window.document.campaign.characters[0]
    count = len(window.document.campaign.characters)
    window.duplicate_action.trigger()
    assert len(window.document.campaign.characters) == count + 1
    copy = window.document.campaign.characters[1]
    assert copy.name.startswith(original.name) and copy.id != original.id

    index = window.navigator_model.find(copy.id)
    assert window.navigator_model.setData(index, "Renamed Copy")
    assert window.document.campaign.find_character(copy.id).name == "Renamed Copy"

    window.tree.setCurrentIndex(window.navigator_model.find(copy.id))
    window.queue_dialog_answer(Button.Yes)
    window.delete_action.trigger()
    assert window.document.campaign.find_character(copy.id) is None
    window.undo_action.trigger()
    assert window.document.campaign.find_character(copy.id).name == "Renamed Copy"


def test_settings_dialog_changes_threshold_basis_undoably(qtbot, window):
    from mneme_desktop.rules.wounds import ThresholdBasis
    from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(window.context.settings, window.document.threshold_basis, window)
    dialog.basis_combo.setCurrentIndex(dialog.basis_combo.findData(ThresholdBasis.CHARACTERISTIC))
    dialog.backups_spin.setValue(3)
    window.apply_settings_dialog(dialog)
    assert window.document.threshold_basis is ThresholdBasis.CHARACTERISTIC
    assert window.context.settings.backup_count == 3
    window.undo_action.trigger()
    assert window.document.threshold_basis is ThresholdBasis.HP_FRACTIONS


def test_import_character_from_ce_chargen(qtbot, window):
    sample = Path(__file__).parents[1] / "storage" / "fixtures" / "ce-char-1" / "ce_char_1.json"
    character = window.import_character_file(sample)
    assert character is not None
    assert window.document.campaign.find_character(character.id) is not None
    assert window.sheet_view.character_id() == character.id


@pytest.mark.parametrize("view", ["sheet", "encounter", "healing"])
def test_screenshot_of_each_view_is_not_blank(qtbot, context, campaign_file, tmp_path, view):
    from PySide6.QtGui import QImage

    win = MainWindow(context)
    qtbot.addWidget(win)
    assert win.open_initial(campaign_file)
    out = tmp_path / f"{view}.png"
    assert win.save_screenshot(out, view) == 0
    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 1000
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
               for y in range(0, image.height(), 37)}
    assert len(colours) > 8
    assert win.statusBar().currentMessage() == ""  # QA: no "Opened /tmp/..." in README shots


def test_error_message_names_the_log_and_the_autosave(tmp_path):
    from mneme_desktop.ui.dialogs.error_dialog import error_message

    text = error_message(RuntimeError("boom"), tmp_path / "mneme.log")
    assert "boom" in text and "mneme.log" in text and "autosaved" in text


def test_export_follows_the_selection(qtbot, window, tmp_path):
    from mneme_desktop.export.document import TargetKind
    from mneme_desktop.export.exporter import ExportFormat
    from mneme_desktop.ui.dialogs.export_dialog import export_with_dialog

    select_first(window, Group.ENCOUNTERS)
    assert window.export_target().kind is TargetKind.REFEREE_PACK
    select_first(window, Group.PLAYERS)
    target = window.export_target()
    assert target.kind is TargetKind.CHARACTER
    assert target.character_id == window.document.campaign.characters[0].id
    assert window.export_target("players").kind is TargetKind.PLAYER_CHARACTERS

    out = tmp_path / "sheet.pdf"
    reports: list[tuple[bool, str]] = []
    written = export_with_dialog(window, window.document, window.context.settings, target,
                                 run=lambda _dialog: 1,
                                 choose=lambda _parent, _suggested: (out, ExportFormat.PDF),
                                 report=lambda _p, ok, text: reports.append((ok, text)))
    assert written == out and out.read_bytes()[:5] == b"%PDF-"
    assert reports and reports[-1][0]
    menu_texts = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "&Print…" in menu_texts and "&Export…" in menu_texts


@pytest.mark.parametrize("page", [Page.SHEET, Page.ENCOUNTER, Page.HEALING])
def test_every_page_fits_a_1280_by_720_laptop_screen(qtbot, window, page):
    select_first(window, Group.ENCOUNTERS if page == Page.ENCOUNTER else Group.PLAYERS)
    window.show_page(page)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == page)
    needed = window.minimumSizeHint()
    assert needed.width() <= 1280 and needed.height() <= 720, needed
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.width() == 1280)
