"""A crewed vehicle in the turn order (#18): its row at its crew's initiative, named as the
vehicle with its HP in its scale and its state; its turn comes round with Next turn and is
where its crew fire its weapons; an uncrewed vehicle or a cover object has no turn; a
vehicle destroyed mid-fight; undo of all of it. Driven through the encounter view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from mneme_desktop.domain import Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat.thing_turns import current_slot
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import make_campaign
from tests.domain.test_things import with_things
from tests.ui.test_encounter_fight import choose, click, click_tool, sheet
from tests.ui.test_encounter_view import open_test_encounter, start_fight
from tests.ui.test_things_in_encounter import add_thing, things_tab


@pytest.fixture
def view(qtbot) -> EncounterView:
    """The test fight (Mara 12, Ilse 10, Tomas 8, Raider 1 6, Raider 2 5), round 1, Mara's
    turn, with a thing library of a shield and a D-plated walker (20 DHP, a pilot's and a
    gunner's seat, an autocannon)."""
    return start_fight(open_test_encounter(qtbot, campaign=with_things(make_campaign())))


def seat(qtbot, view: EncounterView, entry_id: str, position: int, who: str) -> None:
    panel = things_tab(view)
    panel.select(entry_id)
    panel.position_combo.setCurrentIndex(position)
    choose(panel.crew_combo, who)
    click(qtbot, panel.board_button)


def crewed_walker(qtbot, view: EncounterView) -> str:
    """A walker with Ilse (10) as pilot and Tomas (8) as gunner: it acts on 10."""
    entry_id = add_thing(qtbot, view, "Walker (template)", Side.PLAYERS)
    seat(qtbot, view, entry_id, 0, "Ilse Brandt")
    seat(qtbot, view, entry_id, 1, "Tomas Okoro")
    return entry_id


def names(view: EncounterView) -> list[str]:
    model = view.turn_model
    return [model.index(row, TurnOrderModel.COL_NAME).data() for row in
            range(model.rowCount())]


def cell(view: EncounterView, row_id: str, column: int) -> str:
    model = view.turn_model
    return model.index(model.row_of(row_id), column).data()


def next_turn(qtbot, view: EncounterView) -> None:
    click_tool(qtbot, view, view.next_action)


def set_damage(qtbot, view: EncounterView, entry_id: str, damage: int) -> None:
    panel = things_tab(view)
    panel.select(entry_id)
    panel.damage_spin.setFocus()
    panel.damage_spin.selectAll()
    qtbot.keyClicks(panel.damage_spin, str(damage))
    qtbot.keyClick(panel.damage_spin, Qt.Key.Key_Return)


def test_a_crewed_vehicle_takes_its_place_at_its_crews_initiative(qtbot, view):
    tester = QAbstractItemModelTester(view.turn_model,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    before = names(view)
    entry_id = add_thing(qtbot, view, "Walker (template)", Side.PLAYERS)
    assert names(view) == before  # uncrewed: a target and cover, no turn
    crewed_walker_id = entry_id
    seat(qtbot, view, entry_id, 1, "Tomas Okoro")
    assert names(view) == ["Mara Vey", "Ilse Brandt", "Walker 1", "Tomas Okoro", "Raider 1",
                           "Raider 2"]
    seat(qtbot, view, entry_id, 0, "Ilse Brandt")  # a better crew member: it moves up
    assert names(view) == ["Mara Vey", "Walker 1", "Ilse Brandt", "Tomas Okoro", "Raider 1",
                           "Raider 2"]
    model = view.turn_model
    row = model.row_of(crewed_walker_id)
    assert model.index(row, TurnOrderModel.COL_TURN).data() == "2"
    assert cell(view, entry_id, TurnOrderModel.COL_INIT) == "10"
    assert cell(view, entry_id, TurnOrderModel.COL_HP) == "0/20 DHP"
    assert cell(view, entry_id, TurnOrderModel.COL_STATE) == "Intact"
    assert cell(view, entry_id, TurnOrderModel.COL_CONDITIONS) == \
        "Crew: Ilse Brandt, Tomas Okoro"
    assert cell(view, entry_id, TurnOrderModel.COL_STANCE) == ""
    # Its initiative is its crew's: not typed in its row.
    assert not model.flags(model.index(row, TurnOrderModel.COL_INIT)) & \
        Qt.ItemFlag.ItemIsEditable
    assert model.combatant_id(row) is None and model.thing_entry_id(row) == entry_id
    assert model.acting_id(row) == sheet(view, "Ilse Brandt")[1].id
    # Damage in its scale: 65 plain points are 7 DHP, seriously damaged.
    set_damage(qtbot, view, entry_id, 65)
    assert cell(view, entry_id, TurnOrderModel.COL_HP) == "7/20 DHP"
    assert cell(view, entry_id, TurnOrderModel.COL_STATE) == "Seriously Damaged"
    bar = model.cell_value(row, TurnOrderModel.COL_HP)
    assert (bar.damage, bar.hp) == (7, 20)
    assert "7 of 20 DHP" in model.index(row, TurnOrderModel.COL_HP).data(
        Qt.ItemDataRole.ToolTipRole)
    assert not view.turn_view.grab().isNull()  # the delegate paints its bar and scale
    # Undo of all of it: the damage, both seats, the walker.
    for _ in range(4):
        view.document.undo_stack.undo()
    assert names(view) == before
    assert view.encounter().things == []
    del tester


def test_its_turn_comes_round_and_its_crew_fire_its_weapons(qtbot, view):
    tester = QAbstractItemModelTester(view.turn_model,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    entry_id = crewed_walker(qtbot, view)
    ilse = sheet(view, "Ilse Brandt")[1]
    model = view.turn_model
    assert model.current_row() == model.row_of(sheet(view, "Mara Vey")[1].id)
    next_turn(qtbot, view)  # Mara -> the walker
    encounter = view.encounter()
    assert encounter.thing_turn == entry_id and encounter.current_combatant.id == ilse.id
    assert model.current_row() == model.row_of(entry_id)
    assert cell(view, entry_id, TurnOrderModel.COL_TURN) == "▶"
    assert view.turn_label.text() == "Turn: <b>Walker 1</b> (2 of 6)"
    # Its row is selected and the side panel shows the crew member who acts for it.
    assert view.turn_view.currentIndex().row() == model.row_of(entry_id)
    assert view.panel.combatant_id == ilse.id
    # Attack: the pilot fires the walker's autocannon.
    view.show_attack()
    resolver = view.resolver
    assert resolver.attacker_combo.currentData() == ilse.id
    assert resolver.weapon_combo.currentText() == "Walker 1: Autocannon D 2d6, rate 2"
    # Delay is refused on the walker's turn, said on the message line.
    assert view.delay() is False
    assert "cannot delay" in view.message_label.message()
    # Her own turn follows, then Tomas's.
    next_turn(qtbot, view)
    assert view.encounter().thing_turn is None
    assert view.encounter().current_combatant.id == ilse.id
    next_turn(qtbot, view)
    assert view.encounter().current_combatant.id == sheet(view, "Tomas Okoro")[1].id
    # Undo walks back through the walker's turn.
    view.document.undo_stack.undo()
    view.document.undo_stack.undo()
    assert view.encounter().thing_turn == entry_id
    assert model.current_row() == model.row_of(entry_id)
    del tester


def test_next_turn_and_new_rounds_with_a_vehicle(qtbot, view):
    entry_id = crewed_walker(qtbot, view)
    seen = []
    for _ in range(12):
        next_turn(qtbot, view)
        row = view.turn_model.current_row()
        seen.append(view.turn_model.index(row, TurnOrderModel.COL_NAME).data())
    order = ["Mara Vey", "Walker 1", "Ilse Brandt", "Tomas Okoro", "Raider 1", "Raider 2"]
    assert seen == order[1:] + order + order[:1]
    assert view.encounter().round == 3
    # Round 3 began with Mara; Previous turn is refused at the round's first turn.
    with pytest.raises(fight.CombatError):
        fight.previous_turn_patch(view.document.campaign, view.encounter())
    next_turn(qtbot, view)
    assert view.encounter().thing_turn == entry_id
    next_turn(qtbot, view)  # Ilse's own turn; Previous turn goes back to the walker's
    assert view.run(lambda c, e: fight.previous_turn_patch(c, e))
    assert view.encounter().thing_turn == entry_id
    assert view.document.undo_stack.undoText() == "Previous turn: Walker 1"
    assert current_slot(view.document.campaign, view.encounter()).vehicle.thing.name == \
        "Walker 1"


def test_a_vehicle_destroyed_mid_fight_leaves_the_order_right(qtbot, view):
    tester = QAbstractItemModelTester(view.turn_model,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    entry_id = crewed_walker(qtbot, view)
    next_turn(qtbot, view)  # the walker's turn
    set_damage(qtbot, view, entry_id, 201)  # past 200 plain HP: destroyed in its turn
    model = view.turn_model
    assert cell(view, entry_id, TurnOrderModel.COL_STATE) == "Destroyed"
    row = model.row_of(entry_id)
    assert model.index(row, TurnOrderModel.COL_NAME).data(Qt.ItemDataRole.FontRole).strikeOut()
    assert "Next turn passes over it" in model.index(row, TurnOrderModel.COL_NAME).data(
        Qt.ItemDataRole.ToolTipRole)
    next_turn(qtbot, view)  # on to its pilot's own turn
    assert view.encounter().thing_turn is None
    assert view.encounter().current_combatant.id == sheet(view, "Ilse Brandt")[1].id
    for _ in range(4):  # Tomas, the raiders, a new round: Mara, then past the wreck
        next_turn(qtbot, view)
    assert view.encounter().round == 2
    assert view.encounter().current_combatant.id == sheet(view, "Mara Vey")[1].id
    next_turn(qtbot, view)
    assert view.encounter().thing_turn is None
    assert view.encounter().current_combatant.id == sheet(view, "Ilse Brandt")[1].id
    # Taken out of the fight from the Things tab in its own turn: its row goes, the turn
    # is its pilot's.
    for _ in range(7):
        view.document.undo_stack.undo()
    assert view.encounter().thing_turn == entry_id and view.encounter().round == 1
    assert cell(view, entry_id, TurnOrderModel.COL_STATE) == "Intact"
    panel = things_tab(view)
    panel.select(entry_id)
    click(qtbot, panel.remove_button)
    assert "Walker 1" not in names(view)
    assert model.current_row() == model.row_of(sheet(view, "Ilse Brandt")[1].id)
    next_turn(qtbot, view)
    assert view.encounter().current_combatant.id == sheet(view, "Tomas Okoro")[1].id
    del tester


def test_a_cover_object_has_no_turn_and_a_crew_that_cannot_act_passes(qtbot, view):
    before = names(view)
    add_thing(qtbot, view, "Shield (template)")
    assert names(view) == before
    entry_id = crewed_walker(qtbot, view)
    campaign = view.document.campaign
    for name in ("Ilse Brandt", "Tomas Okoro"):  # both out of the fight
        who = sheet(view, name)[1].id
        assert view.run(lambda c, e, who=who: fight.set_out_of_fight_patch(c, e, who, True))
    assert "Walker 1" not in names(view)  # nobody aboard in the fight: no turn
    view.document.undo_stack.undo()
    assert names(view).index("Walker 1") == names(view).index("Tomas Okoro") - 1
    next_turn(qtbot, view)
    assert view.encounter().thing_turn == entry_id
    assert current_slot(campaign, view.encounter()).vehicle.crew[0].id == \
        sheet(view, "Tomas Okoro")[1].id


def test_a_fight_with_a_vehicle_runs_from_the_keyboard(qtbot, view):
    entry_id = crewed_walker(qtbot, view)
    view.turn_view.setFocus()
    qtbot.keyClick(view.turn_view, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: view.encounter().thing_turn == entry_id)
    assert view.turn_view.currentIndex().row() == view.turn_model.row_of(entry_id)
