"""The complete sheet: species, age, credits, careers and terms, equipment - real fields,
typed into, refused when absurd (naming what was typed), one undo step each."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QLineEdit

from mneme_desktop.domain import Campaign, Character, Characteristics
from mneme_desktop.domain.character import Career, EquipmentItem
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.sheet_gear_models import EquipmentTableModel
from mneme_desktop.ui.views.character_sheet import CharacterSheetView

EDIT = Qt.ItemDataRole.EditRole


@pytest.fixture
def document(qapp) -> CampaignDocument:
    character = Character(name="Bea Lund", characteristics=Characteristics.of(7, 8, 6, 10, 9, 7),
                          careers=[Career(name="Scout", terms=2, rank="Courier")],
                          equipment=[EquipmentItem(name="Rations", count=4,
                                                   mass=Decimal("0.5"))])
    return CampaignDocument(Campaign(name="Test", characters=[character]))


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> CharacterSheetView:
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(document.campaign.characters[0].id)
    sheet.resize(1100, 900)
    sheet.show()
    qtbot.waitExposed(sheet)
    return sheet


def me(document: CampaignDocument) -> Character:
    return document.campaign.characters[0]


def _type(qtbot, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def test_the_fields_show_the_character(view: CharacterSheetView) -> None:
    assert view.species_edit.text() == "" and view.age_edit.text() == ""
    assert view.credits_spin.value() == 0
    assert view.background.terms_label.text() == "2 in one career"  # not "1 careers"
    assert view.careers_view.model().index(0, 2).data() == "Courier"
    assert view.equipment_view.model().index(0, 3).data() == "2 kg"  # 4 x 0.5 kg
    assert view.equipment_total_label.text() == "Total mass: 2 kg"


def test_species_and_age_typed_and_undone(qtbot, view: CharacterSheetView,
                                          document: CampaignDocument) -> None:
    _type(qtbot, view.species_edit, "  Vargr ")
    assert me(document).species == "Vargr"
    _type(qtbot, view.age_edit, "34")
    assert me(document).age == 34
    assert document.undo_stack.undoText() == "Set age to 34"
    document.undo_stack.undo()
    assert me(document).age is None and view.age_edit.text() == ""
    document.undo_stack.undo()
    assert me(document).species == "" and view.species_edit.text() == ""


@pytest.mark.parametrize("typed", ["-3", "ancient", "100001"])
def test_an_absurd_age_is_refused_naming_it(qtbot, view: CharacterSheetView,
                                           document: CampaignDocument, typed: str) -> None:
    _type(qtbot, view.age_edit, "40")
    depth = document.undo_stack.count()
    _type(qtbot, view.age_edit, typed)
    assert f"“{typed}” is not an age" in view.message_line.message()
    assert me(document).age == 40 and view.age_edit.text() == "40"
    assert document.undo_stack.count() == depth


def test_an_empty_age_clears_it(qtbot, view: CharacterSheetView,
                                document: CampaignDocument) -> None:
    _type(qtbot, view.age_edit, "40")
    view.age_edit.setFocus()
    view.age_edit.clear()
    view.age_edit.setModified(True)
    qtbot.keyClick(view.age_edit, Qt.Key.Key_Return)
    assert me(document).age is None


def test_credits_steps_are_one_undo_step_and_range_is_said(qtbot, view: CharacterSheetView,
                                                          document: CampaignDocument) -> None:
    spin = view.credits_spin
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "2500")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert me(document).credits == 2500
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert me(document).credits == 2501
    document.undo_stack.undo()  # typing and the step merged: one step back to 0
    assert me(document).credits == 0
    spin.selectAll()
    qtbot.keyClicks(spin, "99999999999")
    assert "Credits runs from" in view.message_line.message()
    assert me(document).credits <= 1_000_000_000


def test_careers_added_edited_and_removed(qtbot, view: CharacterSheetView,
                                          document: CampaignDocument) -> None:
    qtbot.mouseClick(view.add_career_button, Qt.MouseButton.LeftButton)
    editor = view.careers_view.findChild(QLineEdit, "textCellEditor")
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "Marine")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: me(document).careers[1].name == "Marine")
    model = view.careers_model
    assert not model.setData(model.index(1, 1), 120, EDIT)  # terms run 0..99
    assert "Terms" in view.message_line.message()
    assert model.setData(model.index(1, 1), 3, EDIT)
    assert view.background.terms_label.text() == "5 in 2 careers"
    view.careers_view.selectionModel().select(
        model.index(0, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    qtbot.mouseClick(view.remove_career_button, Qt.MouseButton.LeftButton)
    assert [c.name for c in me(document).careers] == ["Marine"]
    assert view.background.terms_label.text() == "3 in one career"
    document.undo_stack.undo()
    assert [c.name for c in me(document).careers] == ["Scout", "Marine"]


def test_equipment_rows_and_their_mass(qtbot, view: CharacterSheetView,
                                       document: CampaignDocument) -> None:
    qtbot.mouseClick(view.add_equipment_button, Qt.MouseButton.LeftButton)
    editor = view.equipment_view.findChild(QLineEdit, "textCellEditor")
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "Medkit")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: me(document).equipment[1].name == "Medkit")
    model = view.equipment_model
    assert model.setData(model.index(1, 2), "1,25 kg", EDIT)
    assert me(document).equipment[1].mass == Decimal("1.25")
    assert model.setData(model.index(1, 1), 2, EDIT)
    assert view.equipment_total_label.text() == "Total mass: 4.5 kg"
    assert model.setData(model.index(1, 4), "sealed", EDIT)
    assert not model.setData(model.index(1, 2), "heavy", EDIT)
    assert "“heavy” is not a mass" in view.message_line.message()
    assert not model.setData(model.index(1, 2), "-2", EDIT)
    assert me(document).equipment[1] == EquipmentItem(name="Medkit", count=2,
                                                      mass=Decimal("1.25"), notes="sealed")
    for _ in range(4):
        document.undo_stack.undo()
    assert me(document).equipment[1] == EquipmentItem(name="New item")


def test_the_new_models_pass_the_model_tester(view: CharacterSheetView,
                                              document: CampaignDocument) -> None:
    for model in (view.careers_model, view.equipment_model):
        QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    standalone = EquipmentTableModel(document, me(document).id)
    QAbstractItemModelTester(standalone, QAbstractItemModelTester.FailureReportingMode.Fatal)
    standalone.add_item()
    standalone.remove_rows([0])
    assert standalone.rowCount() == 1


def test_species_typed_but_not_finished_is_committed_before_a_save(
        qtbot, view: CharacterSheetView, document: CampaignDocument) -> None:
    view.species_edit.setFocus()
    qtbot.keyClicks(view.species_edit, "Aslan")
    assert me(document).species == ""
    view.flush_pending_edits()
    assert me(document).species == "Aslan"
