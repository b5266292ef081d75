"""Supporting actions (Ch.6) from the combatant panel: the supporter's Success Effect
becomes a DM offered on the ally's next roll, stored, offered in the resolver and the quick
check, and used up by the roll that takes it."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.rules.checks import success_chance
from mneme_desktop.ui.dialogs.check_dialog import CheckDialog
from mneme_desktop.ui.views.attack_text import format_percent
from tests.ui.test_attack_resolver_trust import show_panel
from tests.ui.test_encounter_fight import click, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def running(qtbot):
    view = start_fight(open_test_encounter(qtbot))
    show_panel(view)
    return view


def open_support(qtbot, view, supporter: str):
    view.select_combatant(sheet(view, supporter)[1].id)
    box = view.panel.rolls_box
    click(qtbot, box.support_button)
    dialog = box.support_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def tick_ally(qtbot, dialog, name: str) -> None:
    allies = dialog.ally_list
    row = next(r for r in range(allies.count()) if allies.item(r).text() == name)
    allies.setFocus()
    allies.setCurrentRow(row)
    qtbot.keyClick(allies, Qt.Key.Key_Space)


def test_the_effect_waits_on_the_allys_next_attack_and_is_used_up(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    _, ilse = sheet(view, "Ilse Brandt")
    dialog = open_support(qtbot, view, "Mara Vey")
    assert dialog.skill_combo.currentText() == "Gun Combat (Slug Rifle)"  # suppression fire
    assert not dialog.roll_button.isEnabled()
    assert dialog.message.message() == "choose the ally or allies the action supports"
    tick_ally(qtbot, dialog, "Ilse Brandt")
    assert dialog.odds_label.text().startswith(
        f"2d6 DM +2 (Gun Combat (Slug Rifle)-2 +2) vs 8: succeeds "
        f"{format_percent(success_chance(2, 8))}; DM +1 or more for Ilse Brandt")
    type_text(qtbot, dialog.dice_edit, "5 5")
    qtbot.keyClick(dialog.dice_edit, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert mara.actions_spent == 2
    assert [(t.kind.value, t.value, t.source) for t in ilse.next_roll] == [
        ("dm", 4, "support from Mara Vey")]
    assert view.encounter().log[-1].text == (
        "Mara Vey supports Ilse Brandt (Gun Combat (Slug Rifle) vs 8): 5+5 +2 (Gun Combat "
        "(Slug Rifle)-2 +2) = 12, Effect +4: DM +4 on the next roll of Ilse Brandt")
    # Offered in the resolver, counted in the DM, used up by the attack.
    resolver = view.resolver
    resolver.set_attacker(ilse.id)
    view.tabs.setCurrentIndex(1)
    tick_targets(qtbot, view, ["Raider 1"])
    assert resolver.next_roll_check.text() == "Next roll: DM +4 (support from Mara Vey)"
    assert any(m.label == "support from Mara Vey" and m.value == 4
               for m in resolver.spec.modifiers)
    without = resolver.spec.roll_modifier
    resolver.next_roll_check.setChecked(False)
    assert resolver.spec.roll_modifier == without - 4
    resolver.next_roll_check.setChecked(True)
    click(qtbot, resolver.roll_button)
    click(qtbot, resolver.apply_button)
    assert ilse.next_roll == []
    view.document.undo_stack.undo()
    assert ilse.next_roll and ilse.next_roll[0].value == 4
    view.document.undo_stack.undo()  # the support itself
    assert ilse.next_roll == [] and mara.actions_spent == 0


def test_a_failed_support_gives_nothing_and_the_check_panel_offers_a_dm(qtbot, running):
    view = running
    ilse_sheet, ilse = sheet(view, "Ilse Brandt")
    dialog = open_support(qtbot, view, "Tomas Okoro")
    tick_ally(qtbot, dialog, "Ilse Brandt")
    type_text(qtbot, dialog.dice_edit, "1 2")
    click(qtbot, dialog.roll_button)
    assert ilse.next_roll == []
    assert view.encounter().log[-1].text.endswith("no support for Ilse Brandt")
    dialog = open_support(qtbot, view, "Mara Vey")
    tick_ally(qtbot, dialog, "Ilse Brandt")
    type_text(qtbot, dialog.dice_edit, "4 4")  # 8 + 2 - 8 = +2
    click(qtbot, dialog.roll_button)
    panel = CheckDialog(view.document, rng=random.Random(1), sheet_id=ilse_sheet.id,
                        encounter_id=view.encounter_id())
    qtbot.addWidget(panel)
    panel.show()
    assert panel.next_roll_check.text() == "Next roll: DM +2 (support from Mara Vey)"
    assert "support from Mara Vey +2" in panel.dm_label.text()
    click(qtbot, panel.roll_button)
    assert ilse.next_roll == []


def test_ticking_an_ally_moves_nothing_under_the_pointer(qtbot, running):
    """QA: the odds appearing on the first tick shrank the ally list and moved the fields and
    buttons below it."""
    dialog = open_support(qtbot, running, "Mara Vey")
    qtbot.wait(10)
    before = (dialog.ally_list.geometry(), dialog.dice_edit.geometry(),
              dialog.roll_button.mapTo(dialog, dialog.roll_button.rect().topLeft()))
    tick_ally(qtbot, dialog, dialog.ally_list.item(0).text())
    assert dialog.odds_label.text()
    qtbot.wait(10)
    after = (dialog.ally_list.geometry(), dialog.dice_edit.geometry(),
             dialog.roll_button.mapTo(dialog, dialog.roll_button.rect().topLeft()))
    assert after == before


def test_the_supporters_side_is_listed_first(qtbot):
    """QA: the allies were listed in turn order, opponents mixed in between them (the
    sample ambush: Sef 14, Mara 11, Raider Chief 10, Raider Gunner 8, Tomas 7...)."""
    from mneme_desktop.storage import build_sample_campaign

    view = open_test_encounter(qtbot, campaign=build_sample_campaign())
    show_panel(view)
    dialog = open_support(qtbot, view, "Sef Adeyemi")
    encounter = view.encounter()
    campaign = view.document.campaign
    sides = {campaign.combatant_character(c).name: c.side for c in encounter.combatants}
    listed = [dialog.ally_list.item(i).text() for i in range(dialog.ally_list.count())]
    mine = sides["Sef Adeyemi"]
    flags = [sides[name] == mine for name in listed]
    assert flags == sorted(flags, reverse=True) and flags[0] and not flags[-1]


def test_the_dice_field_shows_its_whole_hint(qtbot, running):
    """QA: "empty: the app rolls; or the table's 2 dice" filled the field to its edge."""
    dialog = open_support(qtbot, running, "Mara Vey")
    edit = dialog.dice_edit
    assert edit.width() > edit.fontMetrics().horizontalAdvance(edit.placeholderText())
