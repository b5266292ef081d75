"""The quick check panel, driven as a referee drives it: Ctrl+K from a page, keys and clicks,
the exact chance before the roll, the line it logs, undo, and refused dice."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QSpinBox

from mneme_desktop.domain import Characteristic
from mneme_desktop.domain.quick_check import CheckRequest, check_odds
from mneme_desktop.rules.checks import roll_check
from mneme_desktop.ui.dialogs.check_dialog import CheckDialog
from mneme_desktop.ui.main_window import MainWindow, Page
from tests.ui.test_input_guard import wheel

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def window(sample_window: MainWindow) -> MainWindow:
    return sample_window


def person(window: MainWindow, name: str):
    return next(c for c in window.document.campaign.characters if c.name == name)


def open_panel(qtbot, window: MainWindow) -> CheckDialog:
    qtbot.keyClick(window, Qt.Key.Key_K, CTRL)
    panel = window.findChild(CheckDialog)
    assert panel is not None
    qtbot.waitExposed(panel)
    return panel


def type_into(qtbot, field, text: str) -> None:
    """Click into ``field``, select what is there, type ``text``."""
    edit = field.lineEdit() if isinstance(field, QComboBox | QSpinBox) else field
    assert isinstance(edit, QLineEdit)
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    qtbot.keyClick(edit, Qt.Key.Key_A, CTRL)
    qtbot.keyClicks(edit, text)


def choose(qtbot, combo: QComboBox, text: str) -> None:
    """Pick an item the way the keyboard does: the arrow keys, down from the top."""
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentText() == text:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == text


def test_ctrl_k_on_a_sheet_checks_that_character_and_writes_the_journal(qtbot, window):
    ilse = person(window, "Ilse Brandt")  # 11 damage: wounds -3
    window.select_entity(ilse.id)
    assert window.stack.currentIndex() == Page.SHEET
    panel = open_panel(qtbot, window)
    assert panel.who_combo.currentData() == ilse.id
    assert panel.destination_combo.currentText() == "Campaign journal"
    assert panel.chance_label.text() == "1/12 (8.3%) on 2d6"  # 2d6 - 3 >= 8

    type_into(qtbot, panel.skill_combo, "Melee Combat (Slashing)")
    choose(qtbot, panel.characteristic_combo, "STR")
    type_into(qtbot, panel.difficulty_spin, "10")
    assert panel.difficulty_combo.currentText() == "Difficult (10)"
    assert panel.dm_label.text() == "+0 (Melee Combat (Slashing)-2 +2, STR DM +1, Wounds -3)"
    assert panel.chance_label.text() == "1/6 (16.7%) on 2d6"  # 2d6 >= 10
    panel.difficulty_combo.setFocus()
    qtbot.keyClick(panel.difficulty_combo, Qt.Key.Key_Up)  # a name sets the number
    assert panel.difficulty_spin.value() == 8
    assert panel.chance_label.text() == "5/12 (41.7%) on 2d6"
    type_into(qtbot, panel.difficulty_spin, "9")
    assert panel.difficulty_combo.currentText() == "Average +1 (9)"  # off the ladder, named

    type_into(qtbot, panel.duration_spin, "10")
    type_into(qtbot, panel.dice_edit, "5 6")
    stack = window.document.undo_stack
    journal = window.document.campaign.journal
    before, steps = len(journal), stack.index()
    qtbot.keyClick(panel.dice_edit, Qt.Key.Key_Return)
    assert stack.index() == steps + 1
    assert len(journal) == before + 1
    assert journal[-1].text == (
        "Ilse Brandt: Melee Combat (Slashing) (STR) vs Average +1 (9): dice at the table 5+6 "
        "+0 (Melee Combat (Slashing)-2 +2, STR DM +1, Wounds -3) = 11; Effect +2, success "
        "(chance was 5/18 (27.8%)); took 10 minutes")
    assert panel.status.message() == "Recorded: Ilse Brandt Melee Combat (Slashing) (STR) = 11, " \
                                     "Effect +2, success"
    assert panel.dice_edit.text() == ""  # the next check does not reuse the dice
    window.undo_action.trigger()
    assert len(window.document.campaign.journal) == before and stack.index() == steps
    assert panel.status.message() == ""


def test_in_an_encounter_the_app_rolls_for_the_chosen_combatant_into_the_log(qtbot, window):
    campaign = window.document.campaign
    encounter = next(e for e in campaign.encounters if e.name == "Ambush at Cinder Ford")
    window.select_entity(encounter.id)
    assert window.stack.currentIndex() == Page.ENCOUNTER
    current = next(c for c in encounter.combatants
                   if campaign.combatant_character(c).name == "Raider 2")
    window.encounter_view.select_combatant(current.id)
    sheet = campaign.combatant_character(current)  # an adversary instance
    panel = open_panel(qtbot, window)
    assert panel.who_combo.currentData() == sheet.id
    assert panel.who_combo.currentText() == "Raider 2 (in this encounter)"
    assert panel.destination_combo.currentText() == "Log of Ambush at Cinder Ford"
    panel.set_rng(random.Random(4))
    choose(qtbot, panel.characteristic_combo, "DEX")
    qtbot.keyClick(panel.advantage_spin, Qt.Key.Key_Up)
    odds = check_odds(campaign, CheckRequest(sheet.id, characteristic=Characteristic.DEX,
                                             advantages=1))
    assert panel.odds() == odds
    assert panel.chance_label.text().endswith("on 3d6 keeping the highest two")
    assert "3 dice" in panel.dice_edit.placeholderText()

    logged = len(encounter.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    expected = roll_check(random.Random(4), odds.modifier, 8, 1)
    entry = encounter.log[-1]
    assert len(encounter.log) == logged + 1
    assert (entry.actor, entry.action, entry.dice, entry.modifier, entry.difficulty,
            entry.effect, entry.actor_id) == (
        sheet.name, "Check: DEX", list(expected.dice), odds.modifier, 8, expected.effect,
        current.id)
    assert entry.text.startswith(f"{sheet.name}: DEX vs Average (8): rolled ")
    window.undo_action.trigger()
    assert len(encounter.log) == logged


def test_bad_dice_are_refused_in_a_line_that_moves_nothing_and_record_nothing(qtbot, window):
    window.select_entity(person(window, "Mara Vey").id)
    panel = open_panel(qtbot, window)
    stack = window.document.undo_stack
    steps, journal = stack.index(), len(window.document.campaign.journal)
    place = panel.roll_button.geometry(), panel.status.geometry()
    type_into(qtbot, panel.dice_edit, "7 7")
    qtbot.keyClick(panel.dice_edit, Qt.Key.Key_Return)
    assert panel.status.message().startswith("Not recorded: '7' is not a die")
    type_into(qtbot, panel.dice_edit, "3 4 5")
    qtbot.keyClick(panel.dice_edit, Qt.Key.Key_Return)
    assert "expected 2 dice" in panel.status.message()
    type_into(qtbot, panel.expression_edit, "3x6")
    qtbot.keyClick(panel.expression_edit, Qt.Key.Key_Return)
    assert panel.status.message().startswith("Not recorded: ")
    QApplication.processEvents()
    assert (panel.roll_button.geometry(), panel.status.geometry()) == place
    assert stack.index() == steps
    assert len(window.document.campaign.journal) == journal


def test_a_bare_dice_expression_is_rolled_and_logged(qtbot, window):
    mara = person(window, "Mara Vey")
    window.select_entity(mara.id)
    panel = open_panel(qtbot, window)
    panel.set_rng(random.Random(2))
    type_into(qtbot, panel.expression_edit, "D 2d6")
    qtbot.keyClick(panel.expression_edit, Qt.Key.Key_Return)
    entry = window.document.campaign.journal[-1]
    rolled = random.Random(2)
    dice = [rolled.randint(1, 6) for _ in range(2)]
    assert entry.title == "Roll: D 2d6"
    assert entry.text == f"Mara Vey: rolled D 2d6: ({dice[0]}+{dice[1]}) x10 = {10 * sum(dice)}"
    assert panel.status.message() == f"Recorded: D 2d6 = {10 * sum(dice)}"


def test_the_wheel_over_an_unfocused_field_changes_nothing(qtbot, window):
    window.select_entity(person(window, "Mara Vey").id)
    panel = open_panel(qtbot, window)
    panel.dice_edit.setFocus()
    for field in (panel.difficulty_spin, panel.advantage_spin, panel.other_dm_spin,
                  panel.characteristic_combo, panel.difficulty_combo):
        value = field.currentIndex() if isinstance(field, QComboBox) else field.value()
        wheel(field, +1)
        wheel(field, -1, deepest=False)
        assert (field.currentIndex() if isinstance(field, QComboBox) else field.value()) \
            == value, field.objectName()


def test_the_panel_follows_a_wound_and_is_one_panel(qtbot, window):
    mara = person(window, "Mara Vey")
    window.select_entity(mara.id)
    panel = open_panel(qtbot, window)
    assert panel.chance_label.text() == "5/12 (41.7%) on 2d6"  # 2d6 + 0 >= 8
    from mneme_desktop.ui.commands import edit_character
    edit_character(window.document, mara, "hurt", lambda c: setattr(c, "damage", 3))
    assert "Wounds -1" in panel.dm_label.text()
    assert panel.chance_label.text() == "5/18 (27.8%) on 2d6"
    tomas = person(window, "Tomas Okoro")
    window.select_entity(tomas.id)
    assert open_panel(qtbot, window) is panel
    assert panel.who_combo.currentData() == tomas.id


def test_stealth_against_an_opponent_sets_the_difficulty_term_by_term(qtbot, window):
    """Ch.6: Deliberate Stealth against Recon, Scan/Search against Stealth: 8 + the
    opponent's skill + ChM + wounds; the opposing skill follows the checking skill."""
    sef, mara = person(window, "Sef Adeyemi"), person(window, "Mara Vey")
    window.select_entity(sef.id)
    panel = open_panel(qtbot, window)
    assert panel.opponent_combo.currentText() == "nobody: set the Difficulty"
    assert panel.difficulty_terms_label.text() == "set by hand"
    assert not panel.opposing_skill_combo.isEnabled()
    type_into(qtbot, panel.skill_combo, "Stealth")
    choose(qtbot, panel.opponent_combo, "Mara Vey")
    assert panel.opposing_skill_combo.currentText() == "their Recon"
    assert panel.opposing_characteristic_combo.currentText() == "INT"
    assert panel.difficulty_spin.value() == 9
    assert panel.difficulty_terms_label.text() == (
        "Base difficulty 8, Mara Vey: Recon-1 +1, Mara Vey: INT DM +0 = 9")
    assert "Ch.6 Deliberate Stealth" in panel.difficulty_terms_label.toolTip()
    assert panel.chance_label.text() == "5/12 (41.7%) on 2d6"  # Stealth-1: 2d6 >= 8
    choose(qtbot, panel.opposing_characteristic_combo, "DEX")  # the referee's choice
    assert panel.difficulty_spin.value() == 10
    assert panel.odds() == check_odds(window.document.campaign, CheckRequest(
        sef.id, "Stealth", difficulty=10, opponent_id=mara.id,
        opposing_skill="Recon", opposing_characteristic=Characteristic.DEX))

    type_into(qtbot, panel.skill_combo, "Recon")  # Scan/Search: against her Stealth, DEX
    assert panel.opposing_skill_combo.currentText() == "their Stealth"
    assert panel.opposing_characteristic_combo.currentText() == "DEX"
    assert panel.difficulty_terms_label.text() == (
        "Base difficulty 8, Mara Vey: unskilled (Stealth) -3, Mara Vey: DEX DM +1 = 6")
    assert panel.difficulty_spin.value() == 6
    assert panel.difficulty_combo.currentText() == "Routine (6)"
    type_into(qtbot, panel.dice_edit, "2 3")
    qtbot.keyClick(panel.dice_edit, Qt.Key.Key_Return)
    assert window.document.campaign.journal[-1].text.startswith(
        "Sef Adeyemi: Recon vs Routine (6) against Mara Vey (8, Mara Vey: unskilled (Stealth) "
        "-3, Mara Vey: DEX DM +1): dice at the table 2+3 +2 (Recon-2 +2) = 7; Effect +1, "
        "success")

    type_into(qtbot, panel.difficulty_spin, "6")  # typed by hand, even the same number
    assert panel.opponent_id() is None
    assert panel.difficulty_terms_label.text() == "set by hand"
    assert panel.odds() is not None and panel.odds().opponent is None
    assert panel.difficulty_spin.value() == 6


def test_the_opponents_wounds_lower_the_difficulty_and_a_named_difficulty_clears_it(
        qtbot, window):
    mara = person(window, "Mara Vey")
    window.select_entity(mara.id)
    panel = open_panel(qtbot, window)
    type_into(qtbot, panel.skill_combo, "Stealth")
    choose(qtbot, panel.opponent_combo, "Ilse Brandt")  # 11 damage: wounds -3, no Recon
    assert panel.difficulty_terms_label.text() == (
        "Base difficulty 8, Ilse Brandt: unskilled (Recon) -3, Ilse Brandt: INT DM +0, "
        "Ilse Brandt: wounds -3 = 2")
    assert panel.difficulty_spin.value() == 2
    choose(qtbot, panel.opposing_skill_combo, "their Stealth")  # changeable
    assert panel.opposing_characteristic_combo.currentText() == "DEX"
    assert panel.difficulty_spin.value() == 2  # unskilled -3, DEX 8 +0, wounds -3
    panel.difficulty_combo.setFocus()
    qtbot.keyClick(panel.difficulty_combo, Qt.Key.Key_End)
    qtbot.keyClick(panel.difficulty_combo, Qt.Key.Key_Up)  # Formidable (14)
    assert panel.opponent_id() is None
    assert panel.difficulty_spin.value() == 14
    assert panel.odds() is not None and panel.odds().difficulty == 14
