"""Each combatant rolls initiative with their own skill (Ch.6: Recon, Tactics or a weapon
skill), chosen in the combatant panel and remembered on the combatant."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView

from mneme_desktop.domain import Campaign, Combatant
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from tests.ui.test_attack_resolver_trust import pick, show_panel
from tests.ui.test_encounter_fight import OK, click, press, sheet
from tests.ui.test_encounter_view import open_test_encounter


@pytest.fixture
def view(qtbot):
    view = open_test_encounter(qtbot)
    campaign = view.document.campaign
    assert view.add_characters([c.id for c in campaign.characters])
    assert view.add_adversaries(campaign.adversary_library[0].id, 1)
    show_panel(view)
    return view


def test_the_skill_is_chosen_in_the_panel_remembered_and_undone(qtbot, view) -> None:
    _, mara = sheet(view, "Mara Vey")
    view.select_combatant(mara.id)
    combo = view.panel.rolls_box.initiative_skill_combo
    assert combo.currentText() == "Skill chosen when rolling"
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts == ["Skill chosen when rolling", "Gun Combat (Slug Rifle)-2 (+2)",
                     "Tactics-1 (+1)", "Recon (not held, +0)"]
    pick(qtbot, combo, "Tactics-1")
    assert mara.initiative_skill == "Tactics"
    assert view.encounter().log[-1].text == "Mara Vey rolls initiative with Tactics-1"
    # Another combatant shows their own choice, and back again.
    _, ilse = sheet(view, "Ilse Brandt")
    view.select_combatant(ilse.id)
    assert combo.currentText() == "Skill chosen when rolling"
    view.select_combatant(mara.id)
    assert combo.currentText() == "Tactics-1 (+1)"
    view.document.undo_stack.undo()
    assert mara.initiative_skill is None
    assert combo.currentText() == "Skill chosen when rolling"
    view.document.undo_stack.redo()
    assert combo.currentText() == "Tactics-1 (+1)"


def _initiative_terms(campaign: Campaign, combatant: Combatant) -> int:
    return combatant.initiative - sum(combatant.initiative_dice)


def test_the_roll_uses_each_combatants_own_skill(qtbot, view) -> None:
    campaign = view.document.campaign
    _, mara = sheet(view, "Mara Vey")
    _, ilse = sheet(view, "Ilse Brandt")
    view.select_combatant(ilse.id)
    pick(qtbot, view.panel.rolls_box.initiative_skill_combo, "Melee Combat (Slashing)-2")
    press(qtbot, view, Qt.Key.Key_R)
    dialog = view.initiative_dialog
    assert dialog.own_skills_label.text() == "Own skills: Ilse Brandt: Melee Combat (Slashing)"
    dialog.skill_combo.setEditText("Tactics")  # the rest roll with Tactics
    click(qtbot, dialog.buttons.button(OK))
    # Ilse: DEX 8 (+0) + Melee Combat 2; Mara (the rest's Tactics-1): DEX 9 (+1) + 1.
    assert _initiative_terms(campaign, ilse) == 2
    assert _initiative_terms(campaign, mara) == 2
    _, raider = sheet(view, "Raider 1")
    assert _initiative_terms(campaign, raider) == 0  # DEX 7, no Tactics: nothing added
    log = view.encounter().log[-1].text
    assert "DEX DM + Melee Combat (Slashing)-2 +2" in log and "(or their own skill)" in log


def test_two_dice_typed_in_the_table_add_the_combatants_own_skill(qtbot, view) -> None:
    _, mara = sheet(view, "Mara Vey")
    view.select_combatant(mara.id)
    pick(qtbot, view.panel.rolls_box.initiative_skill_combo, "Gun Combat (Slug Rifle)-2")
    model, table = view.turn_model, view.turn_view
    table.setCurrentIndex(model.index(model.row_of(mara.id), TurnOrderModel.COL_INIT))
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.focusWidget()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, "3 4")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)
    assert mara.initiative == 10  # 3 + 4, DEX DM +1, Gun Combat 2
