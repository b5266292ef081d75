"""The encounter view driven as a referee would: keys, the combatant panel, the resolver,
conditions during rounds, and the log."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView, QMenu

from mneme_desktop.domain import Campaign, ConditionKind, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.rules.actions import MovementMode
from mneme_desktop.rules.checks import success_chance
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.roles import ID_ROLE
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import make_campaign
from tests.ui.test_encounter_fight import (
    OK,
    attack,
    choose,
    click,
    click_tool,
    press,
    sheet,
    tick_targets,
    type_text,
)


def open_test_encounter(qtbot, seed: int = 77, campaign: Campaign | None = None
                        ) -> EncounterView:
    """The test campaign's first encounter in a shown 1280x800 encounter view whose rolls
    come from ``random.Random(seed)``."""
    campaign = make_campaign() if campaign is None else campaign
    widget = EncounterView(CampaignDocument(campaign), rng=random.Random(seed))
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_encounter(campaign.encounters[0].id)
    return widget


@pytest.fixture
def view(qtbot):
    return open_test_encounter(qtbot)


@pytest.fixture
def running(view):
    """Everyone in, fixed initiatives (Mara 12, Ilse 10, Tomas 8, raiders 6, 5), round 1."""
    return start_fight(view)


def start_fight(view: EncounterView) -> EncounterView:
    """Everyone in, fixed initiatives (Mara 12, Ilse 10, Tomas 8, raiders 6, 5), round 1."""
    campaign = view.document.campaign
    assert view.add_characters([c.id for c in campaign.characters])
    assert view.add_adversaries(campaign.adversary_library[0].id, 2)
    model = view.turn_model
    for name, value in (("Mara Vey", 12), ("Ilse Brandt", 10), ("Tomas Okoro", 8),
                        ("Raider 1", 6), ("Raider 2", 5)):
        _, combatant = sheet(view, name)
        assert model.setData(model.index(model.row_of(combatant.id), TurnOrderModel.COL_INIT),
                             str(value))
    assert view.start_encounter()
    return view


def current_name(view: EncounterView) -> str:
    encounter = view.encounter()
    return view.document.campaign.combatant_character(encounter.current_combatant).name


def select(view: EncounterView, name: str) -> None:
    view.select_combatant(sheet(view, name)[1].id)
    assert view.panel.combatant_id == sheet(view, name)[1].id


# --- keys and the turn flow ---------------------------------------------------------------


def test_shortcuts_are_shown_in_tooltips(view):
    tips = {a.objectName(): a.toolTip() for a in view.actions()}
    assert tips["next_turn"].endswith("(N)")
    assert tips["previous"].endswith("(Shift+N)")
    assert tips["delay"].endswith("(D)")
    assert tips["attack"].endswith("(A)")
    assert tips["roll_initiative"].endswith("(R)")
    assert tips["end_round"].endswith("(E)")


def test_no_encounter_shows_a_placeholder(view):
    view.set_encounter(None)
    assert view.encounter_id() is None
    assert view.placeholder.isVisible() and not view.splitter.isVisible()


def test_turn_keys_next_previous_delay_end_round(qtbot, running):
    view = running
    assert current_name(view) == "Mara Vey"
    assert "Mara Vey" in view.turn_label.text()
    press(qtbot, view, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert "Undo" in view.message_label.message()
    press(qtbot, view, Qt.Key.Key_N)
    assert current_name(view) == "Ilse Brandt"
    assert view.panel.combatant_id == sheet(view, "Ilse Brandt")[1].id  # the panel follows
    press(qtbot, view, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert current_name(view) == "Mara Vey"
    press(qtbot, view, Qt.Key.Key_D)
    assert current_name(view) == "Ilse Brandt"
    mara = sheet(view, "Mara Vey")[1]
    assert mara.delayed
    name_cell = view.turn_model.data(view.turn_model.index(0, TurnOrderModel.COL_NAME))
    assert name_cell == "Mara Vey (delayed)"
    press(qtbot, view, Qt.Key.Key_E)
    assert view.encounter().round == 2 and current_name(view) == "Mara Vey"
    assert not mara.delayed
    assert view.round_label.text() == "Round 2"
    view.document.undo_stack.undo()
    assert view.encounter().round == 1 and mara.delayed


def test_initiative_dialog_ambush_and_typed_dice(qtbot, view):
    campaign = view.document.campaign
    view.add_characters([c.id for c in campaign.characters])
    view.add_adversaries(campaign.adversary_library[0].id, 2)
    press(qtbot, view, Qt.Key.Key_R)
    dialog = view.initiative_dialog
    choose(dialog.ambush_combo, "Enemies are prepared")
    click(qtbot, dialog.buttons.button(OK))
    assert sheet(view, "Raider 1")[1].initiative == 12  # 12 + DEX 7 (DM +0)
    assert sheet(view, "Mara Vey")[1].initiative_dice  # the unprepared rolled
    # Typing the physical dice into the table: 2d6 + DEX DM.
    model, table = view.turn_model, view.turn_view
    row = model.row_of(sheet(view, "Mara Vey")[1].id)
    table.setCurrentIndex(model.index(row, TurnOrderModel.COL_INIT))
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.focusWidget()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, "6 6")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits on Return through a queued call.
    qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)
    assert sheet(view, "Mara Vey")[1].initiative == 13
    assert view.encounter().log[-1].text == "Mara Vey: initiative 13 (6+6) entered"
    # A refusal is explained, and the explanation goes once a good value is typed.
    for typed, refused in (("soon", True), ("11", False)):
        row = model.row_of(sheet(view, "Mara Vey")[1].id)
        table.setCurrentIndex(model.index(row, TurnOrderModel.COL_INIT))
        qtbot.keyClick(table, Qt.Key.Key_F2)
        editor = table.focusWidget()
        qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(editor, typed)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)
        assert ("neither an initiative value" in view.message_label.message()) is refused
    assert sheet(view, "Mara Vey")[1].initiative == 11


def test_ties_are_reordered_with_ctrl_arrows(qtbot, view):
    campaign = view.document.campaign
    view.add_adversaries(campaign.adversary_library[0].id, 3)
    model = view.turn_model
    for row in range(3):
        model.setData(model.index(row, TurnOrderModel.COL_INIT), "7")
    third = model.combatant_id(2)
    view.select_combatant(third)
    press(qtbot, view, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert model.combatant_id(1) == third
    assert model.data(model.index(1, TurnOrderModel.COL_INIT)) == "7 tie 2/3"
    assert view.selected_combatant_id() == third


def test_tactics_dialog_adds_the_capped_effect_to_the_unit(qtbot, running):
    view = running
    select(view, "Mara Vey")
    press(qtbot, view, Qt.Key.Key_T)
    dialog = view.tactics_dialog
    assert dialog.leader_combo.currentText() == "Mara Vey"
    assert dialog.dm_spin.value() == 1  # Tactics-1, INT 7 (+0)
    type_text(qtbot, dialog.dice_edit, "6 6")
    click(qtbot, dialog.buttons.button(OK))
    assert sheet(view, "Mara Vey")[1].initiative == 14  # Effect 5 capped at +2 (Difficulty 8)
    assert sheet(view, "Tomas Okoro")[1].initiative == 10
    assert sheet(view, "Raider 1")[1].initiative == 6


def test_remove_and_side(qtbot, running):
    view = running
    select(view, "Raider 2")
    press(qtbot, view, Qt.Key.Key_Delete)
    assert view.turn_model.rowCount() == 4
    view.document.undo_stack.undo()
    assert view.turn_model.rowCount() == 5
    select(view, "Raider 2")
    view.panel.side_combo.setFocus()
    choose(view.panel.side_combo, "Neutral")
    view.panel.side_combo.activated.emit(view.panel.side_combo.currentIndex())
    assert sheet(view, "Raider 2")[1].side is Side.NEUTRAL


# --- action economy -----------------------------------------------------------------------


def catalog_entry(menu: QMenu, key: str):
    return next(a for a in menu.actions() if a.data() == key)


def test_pips_menu_spends_and_overspending_is_refused(qtbot, running):
    view = running
    select(view, "Mara Vey")
    pips = view.panel.pips
    click(qtbot, pips)
    menu = pips.findChild(QMenu, "action_catalog_menu")
    assert menu is not None
    dash = catalog_entry(menu, "dash")
    assert "Move 15m on a straight line" in dash.toolTip()
    dash.trigger()
    menu.close()
    assert pips.spent == 2 and sheet(view, "Mara Vey")[1].actions_spent == 2
    pips.setFocus()
    qtbot.keyClick(pips, Qt.Key.Key_Space)
    menu = [m for m in pips.findChildren(QMenu, "action_catalog_menu") if m.isVisible()][-1]
    entry = catalog_entry(menu, "use_device")
    assert entry.text().endswith("(not enough left)")
    entry.trigger()
    menu.close()
    assert "only 1 of 3 are left" in view.message_label.message()
    assert sheet(view, "Mara Vey")[1].actions_spent == 2
    pips_cell = view.turn_model.data(view.turn_model.index(0, TurnOrderModel.COL_ACTIONS))
    assert pips_cell == "1/3"
    press(qtbot, view, Qt.Key.Key_E)
    assert pips.spent == 0


def test_take_action_with_options_is_logged_with_their_effect(qtbot, running):
    view = running
    select(view, "Ilse Brandt")
    panel = view.panel
    index = next(i for i in range(panel.action_combo.count())
                 if panel.action_combo.itemData(i, ID_ROLE) == "skill_action")
    panel.action_combo.setCurrentIndex(index)
    assert "Use skills that can be performed" in panel.action_description.text()
    click(qtbot, panel.reckless_check)
    click(qtbot, panel.plan_check)
    type_text(qtbot, panel.note_edit, "Athletics to climb the wall")
    click(qtbot, panel.take_button)
    entry = view.encounter().log[-1]
    assert entry.action == "Skill Action"
    assert "Reckless Action: +2 DM to the roll; -3 to the Effect afterwards" in entry.text
    assert "Plan/Wait: Advantage if the prediction is correct" in entry.text
    assert "Athletics to climb the wall" in entry.text
    assert not panel.reckless_check.isChecked()


def test_aim_stacks_across_rounds_to_six_and_is_lost_on_changing_target(qtbot, running):
    view = running
    panel = view.panel
    for _ in range(3):
        select(view, "Mara Vey")
        choose(panel.aim_target_combo, "Raider 1")
        for _ in range(3):
            click(qtbot, panel.aim_button)
        press(qtbot, view, Qt.Key.Key_E)
    mara = sheet(view, "Mara Vey")[1]
    assert mara.aim == 6
    select(view, "Mara Vey")
    assert panel.aim_label.text().startswith("Aim +6 on Raider 1")
    choose(panel.aim_target_combo, "Raider 2")
    click(qtbot, panel.aim_button)
    assert mara.aim == 1
    row = view.turn_model.row_of(mara.id)
    assert view.turn_model.data(view.turn_model.index(row, TurnOrderModel.COL_AIM)) == \
        "+1 Raider 2"


def test_stance_costs_actions_and_movement_follows_the_table(qtbot, running):
    view = running
    select(view, "Tomas Okoro")
    panel = view.panel
    assert panel.movement_label.text().startswith(
        "Move 4 sp (6 m) · Dash 10 sp (15 m) · Run 15 sp (22.5 m)")
    panel.stance_combo.setFocus()
    qtbot.keyClick(panel.stance_combo, Qt.Key.Key_Down)
    tomas = sheet(view, "Tomas Okoro")[1]
    assert tomas.stance.value == "crouched" and tomas.actions_spent == 1
    assert panel.movement_label.text().startswith("Move 2 sp (3 m) · Dash 5 sp (7.5 m)")
    click(qtbot, panel.move_buttons[MovementMode.MOVE])
    assert "move 2 spaces (3 m), light load, crouched" in view.encounter().log[-1].text
    assert tomas.actions_spent == 2
    qtbot.keyClick(panel.stance_combo, Qt.Key.Key_Down)  # crouched to prone: 1 more
    assert tomas.stance.value == "prone" and tomas.actions_spent == 3
    qtbot.keyClick(panel.stance_combo, Qt.Key.Key_Up)  # prone to crouched costs 2: refused
    assert "cannot go crouched" in view.message_label.message()
    assert panel.stance_combo.currentText() == "Prone"


def test_first_aid_progress_bar_follows_each_rounds_effect(qtbot, running):
    view = running
    select(view, "Tomas Okoro")
    panel = view.panel
    choose(panel.patient_combo, "Ilse Brandt")
    assert panel.first_aid_check.isChecked() and panel.task_rounds_spin.value() == 30
    click(qtbot, panel.start_task_button)
    assert panel.task_progress.isVisible() and panel.task_progress.value() == 0
    assert panel.task_progress.maximum() == 30
    assert panel.task_label.text().startswith("First Aid on Ilse Brandt: 30 of 30")
    assert "Ilse Brandt on Ilse Brandt" not in panel.task_label.text()
    assert panel.work_dm_spin.value() == 3  # Medic-2, EDU 11 (+1)
    type_text(qtbot, panel.work_dice_edit, "6 6")
    qtbot.keyClick(panel.work_dice_edit, Qt.Key.Key_Return)
    assert panel.task_progress.value() == 8  # 1 round + Effect 7
    row = view.turn_model.row_of(sheet(view, "Tomas Okoro")[1].id)
    assert view.turn_model.data(view.turn_model.index(row, TurnOrderModel.COL_TASK)) == \
        "First Aid on Ilse Brandt: 22/30 rd"
    type_text(qtbot, panel.work_dice_edit, "1 1")
    click(qtbot, panel.work_dice_button)
    assert "only 0 of 3 are left" in view.message_label.message()  # a full action a round
    press(qtbot, view, Qt.Key.Key_E)
    select(view, "Tomas Okoro")
    type_text(qtbot, panel.work_dice_edit, "1 1")
    click(qtbot, panel.work_dice_button)
    assert panel.task_progress.value() == 6  # -3 loses three rounds of progress
    click(qtbot, panel.abort_button)
    assert sheet(view, "Tomas Okoro")[1].extended_task is None
    assert panel.task_start.isVisible()


# --- conditions during rounds -------------------------------------------------------------


def test_conditions_show_timers_and_can_be_removed(qtbot, running):
    view = running
    select(view, "Raider 1")
    panel = view.panel
    choose(panel.condition_combo, "Stunned")
    click(qtbot, panel.add_condition_button)
    row = view.turn_model.row_of(sheet(view, "Raider 1")[1].id)
    cell = view.turn_model.index(row, TurnOrderModel.COL_CONDITIONS)
    assert view.turn_model.data(cell) == "Stunned (0 rd)"
    press(qtbot, view, Qt.Key.Key_E)
    press(qtbot, view, Qt.Key.Key_E)
    assert view.turn_model.data(cell) == "Stunned (2 rd)"
    select(view, "Raider 1")
    panel.conditions_list.setCurrentRow(0)
    click(qtbot, panel.remove_condition_button)
    assert view.turn_model.data(cell) == ""
    assert view.encounter().log[-1].state_changes == ["Raider 1: no longer Stunned"]


def test_dying_rolls_entered_from_the_table_and_death(qtbot, running):
    view = running
    click(qtbot, view.auto_dying_check)
    assert not view.auto_dying
    select(view, "Raider 1")
    panel = view.panel
    raider, combatant = sheet(view, "Raider 1")
    # Click the HP bar past HP: 24 damage on 23 HP is dying.
    qtbot.mouseClick(panel.hp_bar, Qt.MouseButton.LeftButton,
                     pos=panel.hp_bar.point_for_unit(24).toPoint())
    raider, _ = sheet(view, "Raider 1")
    assert raider.damage == 24 and raider.wound_state() is WoundState.DYING
    assert panel.dying_button.isEnabled() and panel.dying_button.text() == "Dying roll (due)"
    row = view.turn_model.row_of(combatant.id)
    assert "dying roll due" in view.turn_model.data(
        view.turn_model.index(row, TurnOrderModel.COL_CONDITIONS))
    type_text(qtbot, panel.survival_dice_edit, "6 6")  # 12 - 8 (wounds) = 4: survives
    click(qtbot, panel.dying_button)
    assert view.encounter().log[-1].action == "Dying roll"
    assert panel.dying_button.text() == "Dying roll"
    press(qtbot, view, Qt.Key.Key_E)  # no automatic roll: the table rolls
    assert view.encounter().log[-1].action == "Round"
    select(view, "Raider 1")
    type_text(qtbot, panel.survival_dice_edit, "1 2")
    click(qtbot, panel.dying_button)
    assert sheet(view, "Raider 1")[0].wound_state() is WoundState.DEAD
    assert view.turn_model.data(view.turn_model.index(row, TurnOrderModel.COL_STATE)) == \
        "Dead -8"
    for _ in range(4):
        press(qtbot, view, Qt.Key.Key_N)
    assert current_name(view) != "Raider 1"  # the dead are passed over


def test_automatic_dying_roll_each_round(qtbot, running):
    view = running
    _, combatant = sheet(view, "Raider 2")
    view.run(lambda c, e: fight.set_damage_patch(c, e, combatant.id, 24))
    press(qtbot, view, Qt.Key.Key_E)
    rolls = [e for e in view.encounter().log if e.action == "Dying roll"]
    assert len(rolls) == 1 and rolls[0].round == 2 and len(rolls[0].dice) == 2


def test_massive_damage_roll_from_the_panel(qtbot, running):
    view = running
    select(view, "Raider 2")
    panel = view.panel
    type_text(qtbot, panel.survival_dice_edit, "6 5")
    click(qtbot, panel.massive_button)
    raider = sheet(view, "Raider 2")[0]
    assert raider.has_condition(ConditionKind.CRIPPLED)
    assert view.encounter().log[-1].action == "Massive damage roll"


# --- the attack resolver ------------------------------------------------------------------


def test_resolver_shows_terms_odds_and_rolls_in_the_app(qtbot, running):
    view = running
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    assert resolver.attacker_combo.currentText() == "Mara Vey"
    tick_targets(qtbot, view, ["Raider 1"])
    choose(resolver.cover_combo, "Partial")
    choose(resolver.concealment_combo, "Mostly")
    click(qtbot, resolver.close_quarters_check)
    resolver.range_spin.setValue(1)
    resolver.superiority_spin.setValue(1)
    choose(resolver.location_combo, "Head")
    resolver.advantage_spin.setValue(2)
    resolver.disadvantage_spin.setValue(1)
    terms = resolver.terms_model
    rows = [(terms.data(terms.index(r, 0)), terms.data(terms.index(r, 1)))
            for r in range(terms.rowCount())]
    assert rows == [("Base difficulty", "8"), ("Cover (partial)", "+1"),
                    ("Concealment (mostly)", "+2"), ("Ranged attack in close quarters", "+2"),
                    ("Range, size and movement", "+1"), ("Superiority (attacker)", "-1"),
                    ("Targeted attack", "+3"), ("Difficulty", "16")]
    assert "Roll 3d6 keep the 2 highest +3" in resolver.dm_label.text()
    assert "Chance of success 0% (cannot succeed)" in resolver.odds_label.text()
    choose(resolver.location_combo, "No targeted")
    assert f"Chance of success {format_percent(success_chance(3, 13, 1))}" in \
        resolver.odds_label.text()
    resolver.advantage_spin.setValue(0)
    resolver.disadvantage_spin.setValue(0)
    choose(resolver.location_combo, "No targeted")
    for combo in (resolver.cover_combo, resolver.concealment_combo):
        choose(combo, "None")
    click(qtbot, resolver.close_quarters_check)
    resolver.range_spin.setValue(0)
    resolver.superiority_spin.setValue(0)
    assert "Chance of success 83.33% (5/6)" in resolver.odds_label.text()
    assert "expected damage" in resolver.odds_label.text()
    click(qtbot, resolver.roll_button)
    outcome = resolver.outcome
    assert outcome is not None
    assert resolver.apply_button.isEnabled()
    click(qtbot, resolver.apply_button)
    roll_entry = next(e for e in reversed(view.encounter().log)
                      if e.action == "Attack: Automatic Rifle")
    assert roll_entry.dice == list(outcome.check.dice) and roll_entry.difficulty == 8
    assert not resolver.apply_button.isEnabled()
    assert view.message_label.message().startswith("Applied: Mara Vey")


def test_costly_success_decided_after_a_failed_roll_keeps_the_dice(qtbot, running):
    view = running
    outcome = attack(qtbot, view, "Ilse Brandt", ["Raider 1"], effect=-2)
    assert not outcome.hit
    click(qtbot, view.resolver.costly_check)
    outcome = view.resolver.outcome
    assert outcome.check.effect == -2 and outcome.hit and outcome.costly
    assert outcome.harm.fail_effect == 7  # -2 x 2 + 3
    assert "Costly success: fail effect 2 becomes 7" in outcome.notes


def test_reckless_and_defend_in_the_resolver(qtbot, running):
    view = running
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    choose(resolver.attacker_combo, "Ilse Brandt")
    tick_targets(qtbot, view, ["Raider 1"])
    base = resolver.spec.roll_modifier
    click(qtbot, resolver.reckless_check)
    assert resolver.spec.roll_modifier == base + 2
    click(qtbot, resolver.reckless_check)
    choose(resolver.mode_combo, "Defend")
    choose(resolver.doubled_combo, "Skill")
    assert resolver.spec.roll_modifier == base + 2  # Melee Combat-2 doubled
    assert not resolver.costly_check.isEnabled()


def test_attack_overspending_is_refused_before_rolling(qtbot, running):
    view = running
    attack(qtbot, view, "Mara Vey", ["Raider 1"], effect=-1)
    assert view.resolver.apply()
    press(qtbot, view, Qt.Key.Key_A)
    tick_targets(qtbot, view, ["Raider 1"])
    assert not view.resolver.roll_button.isEnabled()
    assert view.resolver.roll() is None
    assert "cannot attack" in view.message_label.message()


def test_a_with_another_row_selected_targets_it(qtbot, running):
    view = running
    select(view, "Raider 2")
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    assert resolver.attacker_combo.currentText() == "Mara Vey"
    assert resolver.targets_model.checked() == [(sheet(view, "Raider 2")[1].id, 4)]


def test_typed_dice_problems_are_explained(qtbot, running):
    view = running
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    type_text(qtbot, resolver.dice_edit, "4 9")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert "'9' is not a die" in resolver.problem_label.message()
    type_text(qtbot, resolver.damage_edit, "99")
    type_text(qtbot, resolver.dice_edit, "6 6")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert "Raider 1 needs 8 damage roll(s)" in resolver.problem_label.message()
    assert resolver.outcome is None


# --- the log ------------------------------------------------------------------------------


def test_log_filter_person_and_export(qtbot, running, tmp_path: Path):
    view = running
    click_tool(qtbot, view, view.next_action)
    select(view, "Tomas Okoro")
    view.panel.take_action("quick_scan")
    type_text(qtbot, view.log_filter_edit, "quick scan")
    assert view.log_model.rowCount() == 1
    type_text(qtbot, view.log_filter_edit, "")
    choose(view.log_person_combo, "Tomas Okoro")
    entries = view.log_model.visible_entries()
    assert entries and all("Tomas Okoro" in e.actor or "Tomas Okoro" in e.target for e in entries)
    target = tmp_path / "log.txt"
    assert view.export_log(target)
    text = target.read_text(encoding="utf-8")
    assert text == view.log_text()
    assert text.startswith("Encounter: Ford\n") and "Quick Scan" in text
    type_text(qtbot, view.note_edit, "The bridge collapses")
    qtbot.keyClick(view.note_edit, Qt.Key.Key_Return)
    assert view.encounter().log[-1].text == "The bridge collapses"
    assert view.note_edit.text() == ""
    assert view.export_log(tmp_path / "missing" / "dir" / "log.txt") is False
    assert "Could not save the log" in view.message_label.message()


def test_rendering_the_view_paints_rows(qtbot, running):
    view = running
    attack(qtbot, view, "Mara Vey", ["Raider 1"], effect=1, damage="9, 12")
    click(qtbot, view.resolver.apply_button)
    image = view.grab().toImage()
    assert image.width() == 1280 and image.height() == 800
    rect = view.turn_view.visualRect(view.turn_model.index(0, TurnOrderModel.COL_ACTIONS))
    origin = view.turn_view.viewport().mapTo(view, QPoint(0, 0))
    colours = {image.pixelColor(origin.x() + x, origin.y() + rect.center().y()).name()
               for x in range(rect.left(), rect.right())}
    assert len(colours) > 2  # pips painted, not an empty cell
