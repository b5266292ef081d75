"""Grappling from the combatant panel (Ch.6): the opposed Natural Weapons check with its
Difficulty terms and odds before the roll, the effects the winner spends the Effect on,
one undoable step, and the advantage or disadvantage waiting on the grappler's next roll
that the resolver then counts and uses up."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import Skill
from mneme_desktop.domain.combat.grapple import (
    GrappleRequest,
    build_grapple,
    grapple_check,
    grapple_patch,
)
from mneme_desktop.rules.actions import Stance
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.grappling import GrappleEffect, GrappleManeuver, GrappleWeapon
from mneme_desktop.ui.views.attack_text import format_percent
from tests.domain.test_combat import make_campaign
from tests.ui.test_attack_resolver_trust import pick, show_panel
from tests.ui.test_encounter_fight import click, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def running(qtbot):
    """The test fight; Ilse knows Natural Weapons-1."""
    campaign = make_campaign()
    campaign.characters[1].skills.append(Skill(name="Natural Weapons", level=1))
    view = start_fight(open_test_encounter(qtbot, campaign=campaign))
    show_panel(view)
    return view


def open_grapple(qtbot, view, grappler: str):
    view.select_combatant(sheet(view, grappler)[1].id)
    box = view.panel.rolls_box
    click(qtbot, box.grapple_button)
    dialog = box.grapple_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_a_declared_throw_is_shown_rolled_applied_as_one_step_and_undone(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    raider_sheet, raider = sheet(view, "Raider 1")
    dialog = open_grapple(qtbot, view, "Mara Vey")
    assert dialog.target_combo.currentText() == "Raider 1"  # the first opponent
    pick(qtbot, dialog.maneuver_combo, "Throw (+3)")
    # Mara: no Natural Weapons (-3), STR 8 (+0); Raider 1: STR 8, DEX 7 (+0), unskilled (-3).
    assert dialog.terms_label.text() == (
        "Roll 2d6 DM -3 (Unskilled (Natural Weapons) -3, STR DM +0) against Difficulty 8 = "
        "8 base difficulty -3 Raider 1 unskilled in Natural Weapons +3 Maneuver: Throw")
    assert dialog.odds_label.text().startswith(
        f"Wins {format_percent(success_chance(-3, 8))};")
    type_text(qtbot, dialog.dice_edit, "6 5")
    qtbot.keyClick(dialog.dice_edit, Qt.Key.Key_Return)
    assert dialog.check is not None and dialog.check.effect == 0
    assert dialog.result_label.text().startswith("Table dice 6+5 DM -3 = 8 vs 8, Effect +0. "
                                                 "Mara Vey wins")
    assert dialog.effect_checks[GrappleEffect.THROW].isChecked()  # declared: it happens
    assert dialog.cost_label.text() == "Throws costs Effect 0 of 0"
    type_text(qtbot, dialog.throw_edit, "5")
    before = (raider_sheet.damage, len(view.encounter().log))
    click(qtbot, dialog.apply_button)
    assert not dialog.isVisible()
    assert sheet(view, "Raider 1")[0].damage == before[0] + 5  # 2d3, flak 4 does not count
    assert raider.stance is Stance.PRONE
    assert mara.actions_spent == 2
    assert [t.kind.value for t in mara.next_roll] == ["advantage"]
    log = view.encounter().log[-1].text
    assert log.startswith("Mara Vey grapples Raider 1 (Throw) vs 8: 6+5 -3 = 8, Effect +0, wins")
    assert "Throws 2d3 = 5 damage (armor does not count)" in log
    assert view.panel.rolls_box.next_roll_list.item(0).text() == \
        "advantage (grapple with Raider 1: advantageous position)"
    view.document.undo_stack.undo()
    assert sheet(view, "Raider 1")[0].damage == before[0]
    assert raider.stance is Stance.STANDING
    assert mara.next_roll == [] and mara.actions_spent == 0
    assert len(view.encounter().log) == before[1]
    view.document.undo_stack.redo()
    assert mara.next_roll and raider.stance is Stance.PRONE


def test_the_advantage_waits_on_the_resolver_and_is_used_up(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    dialog = open_grapple(qtbot, view, "Mara Vey")
    dialog.spend_check.setChecked(False)
    type_text(qtbot, dialog.dice_edit, "6 6")
    click(qtbot, dialog.roll_button)
    click(qtbot, dialog.apply_button)
    resolver = view.resolver
    resolver.set_attacker(mara.id)
    view.tabs.setCurrentIndex(1)
    tick_targets(qtbot, view, ["Raider 2"])
    check = resolver.next_roll_check
    assert check.isEnabled() and check.isChecked()
    assert check.text() == "Next roll: advantage (grapple with Raider 1: advantageous position)"
    assert resolver.spec is not None and resolver.spec.net_advantage == 1
    assert "3d6 keep the 2 highest" in resolver.dm_label.text()
    check.setFocus()
    qtbot.keyClick(check, Qt.Key.Key_Space)  # the referee can leave it for later
    assert resolver.spec.net_advantage == 0
    qtbot.keyClick(check, Qt.Key.Key_Space)
    click(qtbot, resolver.roll_button)
    click(qtbot, resolver.apply_button)
    assert mara.next_roll == []
    attack_line = next(e for e in reversed(view.encounter().log)
                       if e.action.startswith("Attack"))
    assert "Next roll: advantage (grapple with Raider 1: advantageous position)" in \
        attack_line.text
    assert not resolver.next_roll_check.isEnabled()


def test_a_lost_grapple_lets_the_target_spend_the_fail_effect(qtbot, running):
    view = running
    mara_sheet, mara = sheet(view, "Mara Vey")
    dialog = open_grapple(qtbot, view, "Mara Vey")
    type_text(qtbot, dialog.dice_edit, "1 1")  # 2 - 3 = -1 vs 5: Fail Effect 6
    click(qtbot, dialog.roll_button)
    assert "Raider 1 may spend the Fail Effect 6 on Mara Vey" in dialog.result_label.text()
    for effect in (GrappleEffect.TARGET_LIMB, GrappleEffect.BIND, GrappleEffect.DAMAGE,
                   GrappleEffect.SWEEP):
        dialog.effect_checks[effect].setChecked(True)
    # Limb 2 + bind 2 + damage 2 + sweep (DEX 9: 5) = 11: more than there is; refused.
    assert dialog.cost_label.text().endswith("costs Effect 11: more than the 6 there is")
    steps = view.document.undo_stack.count()
    click(qtbot, dialog.apply_button)
    assert dialog.isVisible() and view.document.undo_stack.count() == steps
    assert dialog.message.message() == "those effects cost Effect 11; the Fail Effect is 6"
    dialog.effect_checks[GrappleEffect.SWEEP].setChecked(False)
    type_text(qtbot, dialog.where_edit, "left arm")
    type_text(qtbot, dialog.twist_edit, "7")
    click(qtbot, dialog.apply_button)
    assert dialog.message.message().startswith("7 is not a 1d3 roll")
    type_text(qtbot, dialog.twist_edit, "3")
    damage = mara_sheet.damage
    click(qtbot, dialog.apply_button)
    assert not dialog.isVisible()
    mara_sheet = sheet(view, "Mara Vey")[0]
    assert mara_sheet.damage == damage + 3
    assert any(c.detail == "bound by Raider 1, left arm" for c in mara_sheet.conditions)
    assert [t.kind.value for t in mara.next_roll] == ["disadvantage"]
    # The panel lists it and the referee can strike it off.
    box = view.panel.rolls_box
    box.next_roll_list.setCurrentRow(0)
    click(qtbot, box.drop_next_roll_button)
    assert mara.next_roll == []
    assert view.encounter().log[-1].text == (
        "Mara Vey: disadvantage (grapple with Raider 1: lost position) taken off the next roll")


def test_skilled_opponents_weapons_and_the_dex_choice_set_the_difficulty(qtbot, running):
    view = running
    dialog = open_grapple(qtbot, view, "Raider 1")
    dialog.target_combo.setCurrentIndex(dialog.target_combo.findText("Ilse Brandt"))
    # Ilse: STR 10 (+1) higher than DEX 8 (+0), skilled: no -3.
    assert dialog.spec.difficulty.total == 9
    pick(qtbot, dialog.target_characteristic_combo, "Target's DEX")
    assert dialog.spec.difficulty.total == 8
    pick(qtbot, dialog.weapon_combo, "A pistol in the clinch")
    assert dialog.weapon_factor_spin.value() == 2 and dialog.spec.difficulty.total == 10
    pick(qtbot, dialog.weapon_combo, "Cumbersome object")
    assert dialog.message.message() == "Set the cumbersome object's weapons factor"
    assert dialog.weapon_factor_spin.value() == 0
    dialog.weapon_factor_spin.setValue(1)
    assert dialog.spec.difficulty.total == 9


def test_the_domain_step_rolls_damage_in_the_app_and_refuses_nonsense() -> None:
    import random

    from mneme_desktop.domain.combat import CombatError
    from tests.domain.test_combat import by_name, fight

    campaign = make_campaign()
    encounter = fight(campaign)
    ilse, brute = by_name(campaign, encounter, "Ilse Brandt"), by_name(campaign, encounter,
                                                                        "Brute 1")
    with pytest.raises(CombatError, match="cannot grapple themselves"):
        build_grapple(campaign, encounter, GrappleRequest(ilse.id, ilse.id))
    with pytest.raises(CombatError, match="cumbersome object"):
        build_grapple(campaign, encounter, GrappleRequest(
            ilse.id, brute.id, weapon=GrappleWeapon.CUMBERSOME))
    spec = build_grapple(campaign, encounter, GrappleRequest(
        ilse.id, brute.id, GrappleManeuver.TARGETED_LIMB))
    check = grapple_check(spec, DiceSource.table((6, 6)))
    with pytest.raises(CombatError, match="type the twisting damage"):
        grapple_patch(campaign, encounter, spec, check, frozenset({GrappleEffect.DAMAGE}))
    patch = grapple_patch(campaign, encounter, spec, check, frozenset({GrappleEffect.DAMAGE}),
                          rng=random.Random(3))
    before = campaign.combatant_character(brute).damage
    patch.apply(campaign)
    sheet_after = campaign.combatant_character(brute)
    assert 1 <= sheet_after.damage - before <= 3
    # The declared limb was the one damaged, and costs nothing: damage 2 of Effect.
    assert "to the limb" in encounter.log[-1].text


def test_the_quick_check_counts_the_next_roll_in_the_fight_and_uses_it_up(qtbot, running):
    import random

    from mneme_desktop.ui.dialogs.check_dialog import CheckDialog

    view = running
    mara_sheet, mara = sheet(view, "Mara Vey")
    dialog = open_grapple(qtbot, view, "Mara Vey")
    type_text(qtbot, dialog.dice_edit, "1 1")
    click(qtbot, dialog.roll_button)
    click(qtbot, dialog.apply_button)  # lost: disadvantage on Mara's next roll
    panel = CheckDialog(view.document, rng=random.Random(2), sheet_id=mara_sheet.id,
                        encounter_id=view.encounter_id())
    qtbot.addWidget(panel)
    panel.show()
    check = panel.next_roll_check
    assert check.isVisible() and check.isChecked()
    assert check.text() == "Next roll: disadvantage (grapple with Raider 1: lost position)"
    assert panel.odds().advantage == -1
    assert panel.chance_label.text().endswith("on 3d6 keeping the lowest two")
    # Recorded in the journal instead, the fight's next roll does not count.
    panel.destination_combo.setCurrentIndex(panel.destination_combo.findData(None))
    assert not check.isVisible() and panel.odds().advantage == 0
    panel.destination_combo.setCurrentIndex(panel.destination_combo.findData(
        view.encounter_id()))
    click(qtbot, panel.roll_button)
    assert mara.next_roll == []
    assert "next roll: disadvantage (grapple with Raider 1" in view.encounter().log[-1].text
    assert not check.isVisible()
    view.document.undo_stack.undo()
    assert [t.kind.value for t in mara.next_roll] == ["disadvantage"]


def test_the_damage_fields_show_their_whole_hint(qtbot, running):
    """QA: the twist and throw fields were squeezed to "1d3 (empty: r..." at 1366x768."""
    dialog = open_grapple(qtbot, running, "Mara Vey")
    for edit in (dialog.where_edit, dialog.twist_edit, dialog.throw_edit):
        hint = edit.fontMetrics().horizontalAdvance(edit.placeholderText())
        assert edit.width() > hint, edit.placeholderText()
