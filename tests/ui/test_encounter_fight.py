"""A scripted fight driven through the encounter view's widgets with a seeded generator.

It walks the chapters' worked examples end to end (the automatic rifle, the broadsword
against armor 3, the shield that takes two of three rolls, the flak jacket, a bleeding
character losing a point every 10 rounds) and then undoes the whole fight.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QWidget

from mneme_desktop.domain import ConditionKind, Side
from mneme_desktop.rules.dice import parse_dice
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.attack_text import outcome_html
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import dice_for, make_campaign

OK = QDialogButtonBox.StandardButton.Ok


def press(qtbot, view: EncounterView, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed with the focus in the turn order, as a referee at the table would."""
    view.activateWindow()
    view.turn_view.setFocus()
    qtbot.keyClick(view.turn_view, key, modifier)


def click(qtbot, widget: QWidget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def click_tool(qtbot, view: EncounterView, action) -> None:
    click(qtbot, view.toolbar.widgetForAction(action))


def type_text(qtbot, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def choose(combo, text: str) -> None:
    index = combo.findText(text, Qt.MatchFlag.MatchStartsWith)
    assert index >= 0, f"{text!r} not in {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setCurrentIndex(index)


def tick_targets(qtbot, view: EncounterView, names: list[str]) -> None:
    """Tick targets in the resolver's table with the space bar."""
    resolver = view.resolver
    model, table = resolver.targets_model, resolver.targets_view
    for row in range(model.rowCount()):
        name = model.data(model.index(row, 0))
        ticked = model.data(model.index(row, 0), Qt.ItemDataRole.CheckStateRole) == \
            Qt.CheckState.Checked
        if (name in names) != ticked:
            table.setFocus()
            table.setCurrentIndex(model.index(row, 0))
            qtbot.keyClick(table, Qt.Key.Key_Space)
    assert sorted(model.data(model.index(r, 0)) for r in range(model.rowCount())
                  if model.data(model.index(r, 0), Qt.ItemDataRole.CheckStateRole)
                  == Qt.CheckState.Checked) == sorted(names)


def attack(qtbot, view: EncounterView, attacker: str, targets: list[str], effect: int,
           damage: str = "", return_fire: str = ""):
    """Open the resolver with A, pick attacker and targets, type the table's dice for the
    wanted Effect (and any damage rolls), resolve with Enter; returns the outcome."""
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    assert view.tabs.currentIndex() == 1
    choose(resolver.attacker_combo, attacker)
    tick_targets(qtbot, view, targets)
    spec = resolver.spec
    assert spec is not None, resolver.problem_label.message()
    a, b = dice_for(effect, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.damage_edit, damage)
    type_text(qtbot, resolver.return_fire_edit, return_fire)
    type_text(qtbot, resolver.dice_edit, f"{a} {b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    outcome = resolver.outcome
    assert outcome is not None, resolver.problem_label.message()
    assert outcome.check.effect == effect
    return outcome


def sheet(view: EncounterView, name: str):
    campaign = view.document.campaign
    encounter = view.encounter()
    combatant = next(c for c in encounter.combatants
                     if campaign.combatant_character(c).name == name)
    return campaign.combatant_character(combatant), combatant


def hp_cell(view: EncounterView, name: str) -> str:
    _, combatant = sheet(view, name)
    model = view.turn_model
    return model.data(model.index(model.row_of(combatant.id), TurnOrderModel.COL_HP))


@pytest.fixture
def view(qtbot):
    campaign = make_campaign()
    ilse = campaign.characters[1]
    ilse.skills[0].level = 0  # so the shield example's third priority (skill) removes nothing
    document = CampaignDocument(campaign)
    widget = EncounterView(document, rng=random.Random(2024))
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_encounter(campaign.encounters[0].id)
    return widget


def test_scripted_fight_walks_the_worked_examples_and_undoes_completely(qtbot, view):
    document = view.document
    campaign = document.campaign
    start = campaign.model_dump()

    # --- set up: everyone in through the dialogs, initiative rolled, round 1 -------------
    press(qtbot, view, Qt.Key.Key_Insert, Qt.KeyboardModifier.ShiftModifier)
    dialog = view.characters_dialog
    assert dialog is not None and dialog.isVisible()
    for row in range(dialog.character_list.count()):
        dialog.character_list.item(row).setCheckState(Qt.CheckState.Checked)
    click(qtbot, dialog.buttons.button(OK))
    for template, count in (("Raider", 2), ("Brute", 2)):
        press(qtbot, view, Qt.Key.Key_Insert)
        dialog = view.adversaries_dialog
        choose(dialog.template_combo, template)
        dialog.count_spin.setValue(count)
        click(qtbot, dialog.buttons.button(OK))
    names = [campaign.combatant_character(c).name for c in view.encounter().combatants]
    assert names == ["Mara Vey", "Ilse Brandt", "Tomas Okoro", "Raider 1", "Raider 2",
                     "Brute 1", "Brute 2"]
    assert {c.side for c in view.encounter().combatants[3:]} == {Side.ENEMIES}
    press(qtbot, view, Qt.Key.Key_R)
    click(qtbot, view.initiative_dialog.buttons.button(OK))
    assert all(c.initiative is not None for c in view.encounter().combatants)
    click_tool(qtbot, view, view.start_action)
    assert view.encounter().round == 1
    assert view.round_label.text() == "Round 1"

    # --- the automatic rifle: Effect 2 at rate of attack 4 is three rolls of 3d6-2 ---------
    state = view.rng.getstate()
    outcome = attack(qtbot, view, "Mara Vey", ["Brute 1"], effect=2)
    replay = random.Random()
    replay.setstate(state)
    expected = [parse_dice("3d6-2").roll(replay) for _ in range(3)]
    (hit,) = outcome.hits
    assert (hit.rolled, hit.kept) == (3, 3)
    assert list(hit.result.rolls) == expected
    assert "<b>Brute 1</b>: 3 rolls of 3d6-2" in outcome_html(outcome)
    click(qtbot, view.resolver.apply_button)
    brute, _ = sheet(view, "Brute 1")
    assert brute.damage == sum(expected)
    assert hp_cell(view, "Brute 1") == f"{sum(expected)}/24"
    damage_entry = next(e for e in reversed(view.encounter().log)
                        if e.action == "Damage: Automatic Rifle")
    assert damage_entry.damage == expected

    # --- the broadsword against armor 3: Effect 1 is two rolls of 3d3-5 ----------------------
    ilse, _ = sheet(view, "Ilse Brandt")
    before = ilse.damage
    outcome = attack(qtbot, view, "Raider 1", ["Ilse Brandt"], effect=1, damage="7, 2")
    (hit,) = outcome.hits
    assert hit.rolled == 2 and list(hit.result.after_armor) == [4, 0]
    click(qtbot, view.resolver.apply_button)
    ilse, _ = sheet(view, "Ilse Brandt")
    assert ilse.damage == before + 4
    assert "3d3-5" in view.encounter().log[-1].text

    # --- the shield of protection 2 takes two of three rolls -------------------------------
    outcome = attack(qtbot, view, "Ilse Brandt", ["Brute 2"], effect=-3, return_fire="4, 5, 9")
    harm = outcome.harm
    assert harm.mitigation.by_cover == 2 and harm.mitigation.remaining == 1
    assert list(harm.cover.rolls) == [4, 5] and list(harm.attacker.rolls) == [9]
    before = ilse.damage
    click(qtbot, view.resolver.apply_button)
    ilse, _ = sheet(view, "Ilse Brandt")
    assert ilse.cover_items[0].damage == 9 and ilse.cover_items[0].remaining_hp == 3
    assert ilse.damage == before + 6  # 3d6 rolled 9, jack 3
    assert "Shield: takes 2 damage rolls (9 damage), 3 HP left" in \
        view.encounter().log[-1].state_changes

    # --- the flak jacket: fail effect 3, three broadsword attacks, armor 4: 3 x 3d3-6 -------
    press(qtbot, view, Qt.Key.Key_A)
    choose(view.resolver.attacker_combo, "Tomas Okoro")
    tick_targets(qtbot, view, ["Raider 1", "Raider 2"])
    view.resolver.return_rate_spin.setValue(3)
    outcome = attack(qtbot, view, "Tomas Okoro", ["Raider 1", "Raider 2"], effect=-3,
                     return_fire="5, 7, 3")
    assert [t.rate_share for t in outcome.spec.targets] == [1, 1]
    harm = outcome.harm
    assert harm.mitigation.remaining == 3
    assert list(harm.attacker.after_armor) == [1, 3, 0]
    click(qtbot, view.resolver.apply_button)
    tomas, _ = sheet(view, "Tomas Okoro")
    assert tomas.damage == 4
    assert "3d3-6" in view.encounter().log[-1].text

    # --- bleeding: a point every 10 rounds from the minute after the roll --------------------
    press(qtbot, view, Qt.Key.Key_E)
    assert view.encounter().round == 2
    attack(qtbot, view, "Mara Vey", ["Raider 2"], effect=0, damage="12")
    click(qtbot, view.resolver.apply_button)
    raider, _ = sheet(view, "Raider 2")
    assert raider.damage == 8 and raider.has_condition(ConditionKind.BLEEDING)
    damage_by_round = {}
    for _ in range(20):
        press(qtbot, view, Qt.Key.Key_E)
        raider, _ = sheet(view, "Raider 2")
        damage_by_round[view.encounter().round] = raider.damage
    assert damage_by_round[11] == 8 and damage_by_round[12] == 9
    assert damage_by_round[21] == 9 and damage_by_round[22] == 10
    assert "Bleeding (-1 in 10 rd)" in view.turn_model.data(view.turn_model.index(
        view.turn_model.row_of(sheet(view, "Raider 2")[1].id), TurnOrderModel.COL_CONDITIONS))
    final = campaign.model_dump()

    # --- undo the whole fight, then redo it ---------------------------------------------------
    steps = document.undo_stack.count()
    assert steps > 30
    while document.undo_stack.canUndo():
        document.undo_stack.undo()
    assert campaign.model_dump() == start
    assert view.turn_model.rowCount() == 0 and view.log_model.rowCount() == 0
    while document.undo_stack.canRedo():
        document.undo_stack.redo()
    assert campaign.model_dump() == final
    assert view.turn_model.rowCount() == 7
