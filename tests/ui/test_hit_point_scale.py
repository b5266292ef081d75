"""Hit points typed with their Ch.7 scale where a sheet takes HP (the cover table): "2 DHP" is
20 HP, "3 HHP" 300; a bad entry is refused with the reason; one undo step each."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.character_sheet import CharacterSheetView
from tests.ui.test_character_sheet import character_id, current, document, view  # noqa: F401


def type_in_cell(qtbot, sheet: CharacterSheetView, column: int, text: str) -> None:
    table = sheet.cover_view
    index = table.model().index(0, column)
    table.setCurrentIndex(index)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = next((e for e in table.findChildren(QLineEdit) if e.isVisible()), None)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.wait(1)


def test_cover_hit_points_take_the_deka_hecto_kilo_notation(
        qtbot, view: CharacterSheetView, document: CampaignDocument,  # noqa: F811
        character_id: str) -> None:  # noqa: F811
    qtbot.mouseClick(view.add_cover_button, Qt.MouseButton.LeftButton)
    assert "20 DHP is 200" in view.cover_view.model().headerData(
        2, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    type_in_cell(qtbot, view, 2, "2 DHP")
    assert current(document, character_id).cover_items[0].hp == 20
    type_in_cell(qtbot, view, 2, "3 hhp")
    assert current(document, character_id).cover_items[0].hp == 300
    type_in_cell(qtbot, view, 3, "1 D")  # damage taken, the HP left 290
    cover = current(document, character_id).cover_items[0]
    assert cover.damage == 10 and cover.remaining_hp == 290
    steps = document.undo_stack.count()
    type_in_cell(qtbot, view, 2, "lots")
    assert current(document, character_id).cover_items[0].hp == 300
    assert document.undo_stack.count() == steps
    assert "is not hit points" in view.message_label.message()
    type_in_cell(qtbot, view, 2, "45")
    assert current(document, character_id).cover_items[0].hp == 45
    document.undo_stack.undo()
    assert current(document, character_id).cover_items[0].hp == 300
