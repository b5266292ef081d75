"""The catalogue editor, opened from the window's Campaign menu: built-in entries read-only
with their source, the campaign's own entries added, edited, copied from built-ins and
removed, each one undo step of the campaign; the sheet's pick lists follow; the entries
travel in the saved file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QLineEdit, QMenu

from mneme_desktop.domain.catalogue import CatalogueKind, Origin
from mneme_desktop.storage import build_sample_campaign, load_campaign
from mneme_desktop.ui.dialogs.catalogue_dialog import CatalogueDialog, CataloguePage
from mneme_desktop.ui.main_window import MainWindow
from mneme_desktop.ui.models.sheet_models import WeaponsTableModel
from tests.ui.conftest import OpenWindow

EDIT = Qt.ItemDataRole.EditRole


@pytest.fixture
def window(open_window: OpenWindow, tmp_path: Path) -> MainWindow:
    return open_window(build_sample_campaign(), tmp_path / "campaign.mneme", active=True)


def _open(window: MainWindow) -> CatalogueDialog:
    campaign_menu = next(a.menu() for a in window.menuBar().actions()
                         if a.text() == "&Campaign")
    assert isinstance(campaign_menu, QMenu)
    action = next(a for a in campaign_menu.actions() if a.text() == "Catal&ogue…")
    action.trigger()
    dialog = window.findChild(CatalogueDialog, "catalogueDialog")
    assert dialog is not None and dialog.isVisible()
    return dialog


def _select(page: CataloguePage, name: str) -> int:
    row = page.model.row_of(name)
    assert row is not None
    index = page.proxy.mapFromSource(page.model.index(row, 0))
    page.view.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                      | QItemSelectionModel.SelectionFlag.Rows)
    return row


def test_the_built_in_entries_are_shown_read_only_with_their_source(qtbot,
                                                                      window: MainWindow) -> None:
    dialog = _open(window)
    page = dialog.page(CatalogueKind.ARMOR)
    for kind in CatalogueKind:
        QAbstractItemModelTester(dialog.pages[kind].model,
                                 QAbstractItemModelTester.FailureReportingMode.Fatal)
    row = _select(page, "Battle Dress")
    model = page.model
    assert model.index(row, 1).data() == "18"
    assert not model.flags(model.index(row, 1)) & Qt.ItemFlag.ItemIsEditable
    assert model.index(row, model.origin_column).data() == "built-in"
    assert "README" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert page.copy_button.isEnabled() and not page.remove_button.isEnabled()
    qtbot.keyClicks(page.filter_edit, "dress")
    assert page.proxy.rowCount() == 1
    assert _open(window) is dialog  # one window, raised again


def test_a_new_weapon_is_typed_in_and_reaches_the_sheet(qtbot, window: MainWindow) -> None:
    document = window.document
    assert document is not None
    dialog = _open(window)
    page = dialog.page(CatalogueKind.WEAPONS)
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    editor = page.view.findChild(QLineEdit, "textCellEditor")
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "Needler")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: document.campaign.catalogue.weapons[0].name == "Needler")
    model = page.model
    row = model.row_of("Needler")
    assert row is not None
    assert model.setData(model.index(row, 1), "2d6+1", EDIT)
    assert model.setData(model.index(row, 8), "gun combat (energy pistol)", EDIT)
    assert document.campaign.catalogue.weapons[0].skill == "Gun Combat (Energy Pistol)"
    assert not model.setData(model.index(row, 8), "Blasting", EDIT)
    assert "Blasting" in dialog.message.message()
    assert not model.setData(model.index(row, 1), "2q6", EDIT)
    assert document.campaign.catalogue.weapons[0].damage == "2d6+1"
    sheet = window.sheet_view
    assert sheet is not None
    sheet.weapon_catalogue_combo.showPopup()  # the referee opens the sheet's list
    assert sheet.weapon_catalogue_combo.findText("Needler") >= 0
    sheet.weapon_catalogue_combo.hidePopup()
    for _ in range(4):  # add, rename, damage, skill: one step each
        document.undo_stack.undo()
    assert document.campaign.catalogue.weapons == []
    assert sheet.weapon_catalogue_combo.findText("Needler") < 0


def test_copy_a_built_in_to_change_it_then_remove_to_restore(qtbot,
                                                              window: MainWindow) -> None:
    document = window.document
    assert document is not None
    dialog = _open(window)
    page = dialog.page(CatalogueKind.ARMOR)
    _select(page, "Jack")
    qtbot.mouseClick(page.copy_button, Qt.MouseButton.LeftButton)
    model = page.model
    row = model.row_of("Jack")
    assert row is not None and model.origin(row) is Origin.REPLACED
    assert model.flags(model.index(row, 1)) & Qt.ItemFlag.ItemIsEditable
    assert model.setData(model.index(row, 1), 4, EDIT)
    assert model.setData(model.index(row, 2), "D", EDIT)  # Deka scale
    assert not model.setData(model.index(row, 0), "mesh", EDIT)  # another entry's name
    assert "already has “mesh”" in dialog.message.message()
    own = document.campaign.catalogue.armor
    assert [(a.name, a.rating, a.scale.value) for a in own] == [("Jack", 4, "D")]
    _select(page, "Jack")
    assert page.remove_button.isEnabled()
    qtbot.mouseClick(page.remove_button, Qt.MouseButton.LeftButton)
    assert document.campaign.catalogue.armor == []
    row = model.row_of("Jack")
    assert row is not None and model.index(row, 1).data() == "3"  # the built-in is back
    document.undo_stack.undo()
    assert document.campaign.catalogue.armor[0].rating == 4


def test_skills_added_with_specialties_and_saved(qtbot, window: MainWindow,
                                                  tmp_path: Path) -> None:
    document = window.document
    assert document is not None
    dialog = _open(window)
    page = dialog.page(CatalogueKind.SKILLS)
    row = page.model.add_entry()
    assert row is not None
    model = page.model
    assert model.setData(model.index(row, 0), "Xenology", EDIT)
    row = model.row_of("Xenology")
    assert row is not None
    assert model.setData(model.index(row, 1), "Fauna, Flora, ", EDIT)
    assert not model.setData(model.index(row, 0), "Xeno (logy)", EDIT)
    assert "without brackets" in dialog.message.message()
    assert document.campaign.catalogue.skills[0].specialties == ["Fauna", "Flora"]
    window.save()
    loaded = load_campaign(tmp_path / "campaign.mneme")  # the entries travel in the file
    assert loaded.catalogue == document.campaign.catalogue


def test_the_aim_column_says_what_the_sheet_says(qtbot, window: MainWindow) -> None:
    """A weapon without an aim modifier reads "none" in the catalogue as on the sheet, and
    one with it "+2"; the editor still gets the number."""
    document = window.document
    assert document is not None
    dialog = _open(window)
    page = dialog.page(CatalogueKind.WEAPONS)
    model = page.model
    aim = next(c for c in range(model.columnCount())
               if model.headerData(c, Qt.Orientation.Horizontal) == "Aim")
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    row = next(r for r in range(model.rowCount()) if model.is_own(r))
    assert model.index(row, aim).data() == "none"
    assert model.setData(model.index(row, aim), 2, EDIT)
    assert model.index(row, aim).data() == "+2"
    assert model.index(row, aim).data(EDIT) == 2
    character = next(c for c in document.campaign.characters if c.weapons)
    sheet = WeaponsTableModel(document, character.id)
    for weapon_row, weapon in enumerate(character.weapons):
        expected = f"+{weapon.aim_modifier}" if weapon.aim_modifier else "none"
        assert sheet.index(weapon_row, aim).data() == expected
