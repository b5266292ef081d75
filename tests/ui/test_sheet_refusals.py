"""Refusals on the sheet: only for refused input, gone on the next good keystroke, and
never moving the layout under the pointer (issue: typing EDU = 9 set INT)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import Campaign, Character, Characteristics, GameTime
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.character_sheet import CharacterSheetView


@pytest.fixture
def document(qapp) -> CampaignDocument:
    character = Character(name="Ilse Bran", characteristics=Characteristics.of(7, 8, 6, 9, 9, 7))
    return CampaignDocument(Campaign(name="T", characters=[character],
                                     game_time=GameTime.at(1, 8, 0)))


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> CharacterSheetView:
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(document.campaign.characters[0].id)
    sheet.resize(1000, 700)
    sheet.show()
    qtbot.waitExposed(sheet)
    return sheet


def _type_over(qtbot, spin, text: str) -> None:
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, text)


def test_retyping_a_fields_own_value_is_no_refusal(qtbot, view: CharacterSheetView) -> None:
    spin = view.spin_boxes["int"]
    assert spin.value() == 9
    _type_over(qtbot, spin, "9")
    assert view.message_label.message() == ""
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert view.message_label.message() == ""


def test_a_refusal_goes_with_the_next_good_keystroke(qtbot, view: CharacterSheetView) -> None:
    spin = view.spin_boxes["edu"]
    _type_over(qtbot, spin, "9")
    qtbot.keyClicks(spin, "9")  # 99: over the range
    assert "Education runs from 0 to" in view.message_label.message()
    qtbot.keyClicks(spin, "4")  # 94 is refused too: the message stays
    assert "runs from" in view.message_label.message()
    qtbot.keyClick(spin, Qt.Key.Key_Backspace)
    qtbot.keyClicks(spin, "8")  # a good keystroke
    assert view.message_label.message() == ""
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert view.message_label.message() == ""


def test_a_refusal_does_not_move_the_sheet(qtbot, view: CharacterSheetView) -> None:
    spin = view.spin_boxes["edu"]
    int_spin = view.spin_boxes["int"]
    def places():
        return spin.mapTo(view, spin.rect().topLeft()), int_spin.mapTo(view, int_spin.pos())

    before = places()
    _type_over(qtbot, spin, "99")
    assert view.message_label.message()
    qtbot.wait(10)
    assert places() == before


def test_an_empty_name_error_does_not_move_the_sheet(qtbot, view: CharacterSheetView) -> None:
    spin = view.spin_boxes["str"]
    before = spin.mapTo(view, spin.rect().topLeft())
    view.name_edit.setFocus()
    view.name_edit.selectAll()
    qtbot.keyClick(view.name_edit, Qt.Key.Key_Delete)
    assert "required" in view.name_error_label.message()
    qtbot.wait(10)
    assert spin.mapTo(view, spin.rect().topLeft()) == before


def test_markup_in_a_message_is_shown_literally(view: CharacterSheetView) -> None:
    view.show_message("<b>bold</b> & <img src='x'>")
    assert view.message_label.textFormat() == Qt.TextFormat.PlainText
    assert "<b>bold</b>" in view.message_label.message()
