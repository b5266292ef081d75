"""Recovering a crash's autosave after another program changed the file: the window offers
the work, and saving it asks before replacing the other program's change."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Character, Characteristics
from mneme_desktop.storage import (
    AutosaveStore,
    build_sample_campaign,
    file_hash,
    load_campaign,
    save_campaign,
)
from mneme_desktop.ui.main_window import MainWindow

Button = QMessageBox.StandardButton


def test_saving_recovered_work_asks_before_replacing_an_outside_change(
    qtbot, app_paths, tmp_path: Path
) -> None:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    opened = file_hash(path)
    mine = load_campaign(path)
    mine.add_character(Character(name="Ana Unsaved",
                                 characteristics=Characteristics.of(7, 7, 7, 7, 7, 7)))
    AutosaveStore(app_paths.autosave_dir).write(mine, source=path, base_hash=opened)
    theirs = load_campaign(path)
    theirs.characters[0].name = "Renamed Elsewhere"
    save_campaign(theirs, path, backups=0)  # a sync client, after the crash
    outside = path.read_bytes()

    window = MainWindow(AppContext.create(app_paths))
    qtbot.addWidget(window)
    window.queue_dialog_answer(Button.Yes)  # recover
    assert window.open_initial(path)
    assert any(c.name == "Ana Unsaved" for c in window.document.campaign.characters)
    window.queue_dialog_answer(Button.Cancel)  # "File changed on disk": do not overwrite
    assert not window.save()
    assert path.read_bytes() == outside
    window.queue_dialog_answer(Button.Save)  # now the referee chooses to overwrite
    assert window.save()
    assert "Ana Unsaved" in path.read_text(encoding="utf-8")
    window.discard_and_close()


def test_a_read_only_campaign_is_asked_about_once_per_session(
    qtbot, app_paths, tmp_path: Path
) -> None:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    path.chmod(0o444)
    window = MainWindow(AppContext.create(app_paths))
    qtbot.addWidget(window)
    assert window.open_initial(path)
    window.document.campaign.name = "Changed"
    window.queue_dialog_answer(Button.Cancel)
    assert not window.save()
    assert "Changed" not in path.read_text(encoding="utf-8")
    window.queue_dialog_answer(Button.Yes)  # overwrite the read-only file
    assert window.save()
    assert "Changed" in path.read_text(encoding="utf-8")
    window.document.campaign.name = "Changed again"
    assert window.save()  # not asked again: no answer queued, no dialog
    assert "Changed again" in path.read_text(encoding="utf-8")
    window.discard_and_close()
