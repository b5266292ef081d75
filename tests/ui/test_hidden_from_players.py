"""Keeping combatants off the player display from the referee's encounter page: adversaries
added hidden through the Add adversaries dialog (one undo step), the turn order's context
menu hiding or revealing the selected rows (one step for several), and the hidden rows
marked in the referee's turn order."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QPalette
from PySide6.QtWidgets import QApplication, QMenu

from mneme_desktop.ui.models.side_marks import hidden_side_icon, side_icon
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.ui.test_encounter_fight import OK, choose, click, press, sheet
from tests.ui.test_encounter_view import open_test_encounter

NAME = TurnOrderModel.COL_NAME


def add_through_dialog(qtbot, view: EncounterView, count: int, hidden: bool) -> None:
    """Ins, the first template, ``count`` of them, the Hidden box as asked, OK."""
    view.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view)
    press(qtbot, view, Qt.Key.Key_Insert)
    dialog = view.adversaries_dialog
    assert dialog is not None and dialog.isVisible()
    assert not dialog.hidden_check.isChecked()  # unticked by default
    choose(dialog.template_combo, view.document.campaign.adversary_library[0].name)
    dialog.count_spin.setValue(count)
    if hidden:
        box = dialog.hidden_check
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))
        assert box.isChecked()
    click(qtbot, dialog.buttons.button(OK))


def click_row(qtbot, view: EncounterView, name: str,
              modifier=Qt.KeyboardModifier.NoModifier) -> None:
    row = view.turn_model.row_of(sheet(view, name)[1].id)
    rect = view.turn_view.visualRect(view.turn_model.index(row, NAME))
    qtbot.mouseClick(view.turn_view.viewport(), Qt.MouseButton.LeftButton, modifier,
                     rect.center())


def context_menu_choose(qtbot, view: EncounterView, text: str) -> list[str]:
    """Right-click the turn order, click ``text`` in the menu that opens; the menu's
    entries, as the referee saw them."""
    seen: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        seen.extend(a.text() for a in menu.actions())
        action = next(a for a in menu.actions() if a.text() == text)
        menu.setActiveAction(action)
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(50, pick)
    viewport = view.turn_view.viewport()
    position = view.turn_view.visualRect(view.turn_view.currentIndex()).center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, position,
                              viewport.mapToGlobal(position))
    QApplication.sendEvent(viewport, event)
    qtbot.waitUntil(lambda: bool(seen))
    return seen


def test_adversaries_join_hidden_in_one_undo_step(qtbot):
    view = open_test_encounter(qtbot)
    stack = view.document.undo_stack
    before = stack.count()
    add_through_dialog(qtbot, view, 2, hidden=True)
    assert stack.count() == before + 1
    raiders = [sheet(view, f"Raider {n}")[1] for n in (1, 2)]
    assert not any(r.revealed for r in raiders)
    assert stack.undoText() == "Add Raider 1..Raider 2"
    assert "hidden from the players" in view.encounter().log[-1].text
    stack.undo()
    assert view.encounter().combatants == []
    add_through_dialog(qtbot, view, 1, hidden=False)  # the box starts unticked again
    assert sheet(view, "Raider 1")[1].revealed


def test_context_menu_hides_and_reveals_the_selected_rows_in_one_step(qtbot):
    view = open_test_encounter(qtbot)
    campaign = view.document.campaign
    assert view.add_characters([c.id for c in campaign.characters])
    assert view.add_adversaries(campaign.adversary_library[0].id, 3)
    stack = view.document.undo_stack
    before = stack.count()
    click_row(qtbot, view, "Raider 1")
    click_row(qtbot, view, "Raider 3", Qt.KeyboardModifier.ControlModifier)
    entries = context_menu_choose(qtbot, view, "Hide from players")
    assert {"Hide from players", "Reveal to players"} <= set(entries)
    hidden = {n: not sheet(view, n)[1].revealed for n in ("Raider 1", "Raider 2", "Raider 3")}
    assert hidden == {"Raider 1": True, "Raider 2": False, "Raider 3": True}
    assert stack.count() == before + 1
    assert stack.undoText() == "Hide Raider 1, Raider 3 from the players"
    assert view.panel.hidden_check.isChecked()  # the panel shows the step too

    # Hiding them again is refused in words; revealing one of two takes the other only.
    context_menu_choose(qtbot, view, "Hide from players")
    assert "already hidden" in view.message_label.message()
    assert stack.count() == before + 1
    click_row(qtbot, view, "Raider 2", Qt.KeyboardModifier.ControlModifier)
    context_menu_choose(qtbot, view, "Reveal to players")
    assert all(sheet(view, f"Raider {n}")[1].revealed for n in (1, 2, 3))
    assert stack.undoText() == "Reveal Raider 1, Raider 3 to the players"
    stack.undo()
    stack.undo()
    assert all(sheet(view, f"Raider {n}")[1].revealed for n in (1, 2, 3))


def test_hidden_rows_are_marked_in_the_referee_turn_order(qtbot):
    view = open_test_encounter(qtbot)
    campaign = view.document.campaign
    assert view.add_adversaries(campaign.adversary_library[0].id, 2)
    model = view.turn_model
    raider = sheet(view, "Raider 1")[1]
    index = model.index(model.row_of(raider.id), NAME)
    assert "hidden" not in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.ForegroundRole) is None
    normal_icon = index.data(Qt.ItemDataRole.DecorationRole)
    assert normal_icon.cacheKey() == side_icon(raider.side).cacheKey()

    view.select_combatant(raider.id)
    context_menu_choose(qtbot, view, "Hide from players")
    index = model.index(model.row_of(raider.id), NAME)
    assert index.data() == "Raider 1"  # the name itself is unchanged
    assert "(hidden)" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert "hidden from the players" in index.data(Qt.ItemDataRole.AccessibleTextRole)
    muted = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert index.data(Qt.ItemDataRole.ForegroundRole).color() == muted
    icon = index.data(Qt.ItemDataRole.DecorationRole)
    assert icon.cacheKey() == hidden_side_icon(raider.side).cacheKey()
    other = model.index(model.row_of(sheet(view, "Raider 2")[1].id), NAME)
    assert "(hidden)" not in other.data(Qt.ItemDataRole.ToolTipRole)
    # The other cells of the row keep their normal look (the referee still runs them).
    hp = model.index(model.row_of(raider.id), TurnOrderModel.COL_HP)
    assert hp.data(Qt.ItemDataRole.ForegroundRole) is None

    view.document.undo_stack.undo()
    index = model.index(model.row_of(raider.id), NAME)
    assert "(hidden)" not in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.ForegroundRole) is None

