"""The navigator keeps the referee's item chosen: after F2 rename, and when another item is
added or deleted."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QInputDialog, QMessageBox

from mneme_desktop.domain import CharacterKind
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_nodes import Group


@pytest.fixture
def window(sample_window):
    return sample_window


def choose(window: MainWindow, row: int) -> str:
    model = window.navigator_model
    window.tree.setCurrentIndex(model.index(row, 0, model.group_index(Group.PLAYERS)))
    node = window.selected_node()
    assert node is not None and node.entity_id is not None
    return node.entity_id


def test_f2_rename_keeps_the_item_chosen_and_shown(qtbot, window, monkeypatch) -> None:
    tester = QAbstractItemModelTester(window.navigator_model,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    chosen = choose(window, 1)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Zed Zebra", True))
    window.tree.setFocus()
    qtbot.keyClick(window.tree, Qt.Key.Key_F2)
    node = window.selected_node()
    assert node is not None and node.entity_id == chosen
    assert window.tree.currentIndex().data() == "Zed Zebra"
    assert window.stack.currentIndex() == Page.SHEET
    assert window.document.campaign.find_character(chosen).name == "Zed Zebra"
    del tester


def test_adding_and_deleting_others_keeps_the_choice(qtbot, window) -> None:
    chosen = choose(window, 1)
    new = window.add_character(CharacterKind.NPC)
    assert new is not None
    choose(window, 0)
    chosen = choose(window, 1)
    window.select_entity(new.id)
    window.queue_dialog_answer(QMessageBox.StandardButton.Yes)
    window.delete_selected()
    # the deleted NPC's row is gone; choosing again then undoing keeps Ilse chosen
    chosen_index = window.navigator_model.find(chosen)
    window.tree.setCurrentIndex(chosen_index)
    window.document.undo_stack.undo()  # the NPC comes back: a rebuild of the tree
    node = window.selected_node()
    assert node is not None and node.entity_id == chosen
