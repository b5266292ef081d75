"""Every encounter model under QAbstractItemModelTester, through adds, removals, reorders,
turns, attacks, undo and redo; and the turn order's fine-grained change signals."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester

from mneme_desktop.domain import Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.rules.checks import CoverLevel, attack_difficulty
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.action_catalog_model import ActionCatalogModel
from mneme_desktop.ui.models.attack_models import AttackTargetsModel, DifficultyTermsModel
from mneme_desktop.ui.models.encounter_log_model import EncounterLogModel
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from tests.domain.test_combat import make_campaign

Fatal = QAbstractItemModelTester.FailureReportingMode.Fatal


@pytest.fixture
def document(qapp):
    return CampaignDocument(make_campaign())


def encounter_of(document):
    return document.campaign.encounters[0]


def run(document, make):
    push_patch(document, make(document.campaign, encounter_of(document)))


def test_turn_order_and_log_models_pass_the_tester_through_a_fight(document):
    turn = TurnOrderModel(document)
    log = EncounterLogModel(document)
    shown = EncounterLogModel(document)
    encounter = encounter_of(document)
    turn.set_encounter(encounter.id)
    log.set_encounter(encounter.id)
    shown.set_encounter(encounter.id)
    testers = [QAbstractItemModelTester(m, Fatal) for m in (turn, log, shown)]
    campaign = document.campaign
    rng = random.Random(2)
    run(document, lambda c, e: fight.add_characters_patch(
        c, e, [x.id for x in campaign.characters], Side.PLAYERS))
    run(document, lambda c, e: fight.add_adversaries_patch(c, e, c.adversary_library[0], 3))
    assert turn.rowCount() == 6
    run(document, lambda c, e: fight.roll_initiative_patch(c, e, rng))
    order = [c.id for c in encounter.initiative_order()]
    assert [turn.combatant_id(r) for r in range(turn.rowCount())] == order
    run(document, fight.start_patch)
    assert turn.current_row() == 0
    for _ in range(8):
        run(document, lambda c, e: fight.next_turn_patch(c, e, rng))
    doomed = turn.combatant_id(2)
    run(document, lambda c, e: fight.remove_combatants_patch(c, e, [doomed]))
    assert turn.row_of(doomed) == -1 and turn.rowCount() == 5
    shown.set_text("begins")
    assert 0 < shown.rowCount() < log.rowCount()
    run(document, lambda c, e: fight.end_round_patch(c, e, rng))
    assert shown.visible_entries()[-1].text.endswith("begins")  # filtered as it grows
    shown.set_text("")
    run(document, lambda c, e: fight.take_action_patch(c, e, e.current_combatant.id,
                                                       "quick_scan"))
    shown.set_person("Referee")
    assert 0 < shown.rowCount() < log.rowCount()
    assert all(e.actor == "Referee" for e in shown.visible_entries())
    shown.set_person(None)
    assert shown.rowCount() == log.rowCount()
    while document.undo_stack.canUndo():
        document.undo_stack.undo()
    assert turn.rowCount() == 0 and log.rowCount() == 0
    while document.undo_stack.canRedo():
        document.undo_stack.redo()
    assert turn.rowCount() == 5
    assert [turn.combatant_id(r) for r in range(5)] == [
        c.id for c in encounter.initiative_order()]
    del testers


def test_next_turn_changes_only_the_two_rows_involved(document):
    turn = TurnOrderModel(document)
    encounter = encounter_of(document)
    campaign = document.campaign
    turn.set_encounter(encounter.id)
    rng = random.Random(3)
    run(document, lambda c, e: fight.add_adversaries_patch(c, e, c.adversary_library[0], 20))
    run(document, lambda c, e: fight.roll_initiative_patch(c, e, rng))
    run(document, fight.start_patch)
    changes: list[tuple[int, int]] = []
    resets: list[bool] = []
    layouts: list[bool] = []
    turn.dataChanged.connect(lambda a, b, _roles=(): changes.append((a.row(), b.row())))
    turn.modelReset.connect(lambda: resets.append(True))
    turn.layoutChanged.connect(lambda: layouts.append(True))
    run(document, lambda c, e: fight.next_turn_patch(c, e, rng))
    assert sorted(changes) == [(0, 1)] and not resets and not layouts
    changes.clear()
    victim = encounter.initiative_order()[5]
    run(document, lambda c, e: fight.set_damage_patch(c, e, victim.id, 4))
    assert changes == [(5, 5)]
    assert isinstance(turn.data(turn.index(5, TurnOrderModel.COL_HP), VALUE_ROLE), DamageTrack)
    assert campaign.combatant_character(victim).damage == 4


def test_initiative_is_edited_in_the_table_and_refused_with_a_message(document):
    turn = TurnOrderModel(document)
    encounter = encounter_of(document)
    turn.set_encounter(encounter.id)
    run(document, lambda c, e: fight.add_characters_patch(
        c, e, [x.id for x in c.characters], Side.PLAYERS))
    messages: list[str] = []
    turn.refused.connect(messages.append)
    index = turn.index(turn.row_of(encounter.combatants[0].id), TurnOrderModel.COL_INIT)
    assert turn.flags(index) & Qt.ItemFlag.ItemIsEditable
    assert turn.setData(index, "4 5")
    assert encounter.combatants[0].initiative == 10  # Mara: DEX 9 gives +1
    assert encounter.combatants[0].initiative_dice == [4, 5]
    bad = turn.index(0, TurnOrderModel.COL_INIT)
    assert not turn.setData(bad, "soon")
    assert "neither an initiative value" in messages[-1]


def test_ties_are_shown(document):
    turn = TurnOrderModel(document)
    encounter = encounter_of(document)
    turn.set_encounter(encounter.id)
    run(document, lambda c, e: fight.add_adversaries_patch(c, e, c.adversary_library[0], 3))
    for combatant in encounter.combatants:
        run(document, lambda c, e, x=combatant: fight.initiative_patch(c, e, x.id, 9))
    texts = [turn.data(turn.index(r, TurnOrderModel.COL_INIT)) for r in range(3)]
    assert texts == ["9 tie 1/3", "9 tie 2/3", "9 tie 3/3"]
    tooltip = turn.data(turn.index(0, TurnOrderModel.COL_INIT), Qt.ItemDataRole.ToolTipRole)
    assert "Tied on 9 with Raider 2, Raider 3: acts 1st of 3" in tooltip


def test_catalog_terms_and_targets_models(qapp):
    catalog = ActionCatalogModel()
    QAbstractItemModelTester(catalog, Fatal)
    names = [catalog.data(catalog.index(r, 0)) for r in range(catalog.rowCount())]
    assert "Aim (minor, 1 minor)" in names
    assert catalog.data(catalog.index(names.index("Aim (minor, 1 minor)"), 4)) == (
        "Gain a +1 DM to the next attack roll. Maximum +6 Aim bonus.")

    terms = DifficultyTermsModel()
    QAbstractItemModelTester(terms, Fatal)
    terms.set_breakdown(attack_difficulty(cover=CoverLevel.PARTIAL, aim=2))
    assert terms.rowCount() == 4
    assert [terms.data(terms.index(r, 1)) for r in range(4)] == ["8", "+1", "-2", "7"]
    terms.set_breakdown(None)
    assert terms.rowCount() == 0

    targets = AttackTargetsModel()
    QAbstractItemModelTester(targets, Fatal)
    targets.set_candidates([("a", "Raider 1", Side.ENEMIES, "AR 4"),
                            ("b", "Raider 2", Side.ENEMIES, "AR 4")])
    first = targets.index(0, AttackTargetsModel.COL_TARGET)
    assert targets.setData(first, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    share = targets.index(0, AttackTargetsModel.COL_SHARE)
    assert targets.setData(share, 3)
    assert not targets.setData(share, 0)
    assert targets.checked() == [("a", 3)]
    targets.set_candidates([("b", "Raider 2", Side.ENEMIES, "AR 4")])
    assert targets.checked() == [] and targets.data(targets.index(0, 0), ID_ROLE) == "b"
    assert targets.rowCount(QModelIndex()) == 1


def test_changes_are_signalled_for_the_cells_that_changed(document):
    """Qt repaints what dataChanged names: an action spent repaints the Actions cell, a new
    round the Actions column, not the whole table."""
    turn = TurnOrderModel(document)
    encounter = encounter_of(document)
    turn.set_encounter(encounter.id)
    rng = random.Random(5)
    run(document, lambda c, e: fight.add_adversaries_patch(c, e, c.adversary_library[0], 12))
    run(document, lambda c, e: fight.roll_initiative_patch(c, e, rng))
    run(document, fight.start_patch)
    changes: list[tuple[int, int, int, int]] = []
    turn.dataChanged.connect(lambda a, b, _roles=(): changes.append(
        (a.row(), b.row(), a.column(), b.column())))
    actions = TurnOrderModel.COL_ACTIONS
    run(document, lambda c, e: fight.take_action_patch(c, e, e.current_combatant.id,
                                                       "quick_scan"))
    assert changes == [(0, 0, actions, actions)]
    changes.clear()
    for _ in range(len(encounter.combatants) - 1):
        run(document, lambda c, e: fight.next_turn_patch(c, e, rng))
        run(document, lambda c, e: fight.take_action_patch(c, e, e.current_combatant.id,
                                                           "quick_scan"))
    changes.clear()
    run(document, lambda c, e: fight.next_turn_patch(c, e, rng))  # a new round
    whole_rows = [c for c in changes if (c[2], c[3]) == (0, len(TurnOrderModel.HEADERS) - 1)]
    last = turn.rowCount() - 1
    assert sorted((c[0], c[1]) for c in whole_rows) == [(0, 0), (last, last)]  # turn moved
    assert (1, last - 1, actions, actions) in changes  # everyone's actions came back at once


def test_every_row_field_is_drawn_in_some_column() -> None:
    from dataclasses import fields

    from mneme_desktop.ui.models import turn_order_rows as rows

    named = set(rows.ROW_WIDE).union(*rows.COLUMN_FIELDS)
    assert {f.name for f in fields(rows.TurnRow)} == named
    assert len(rows.COLUMN_FIELDS) == len(TurnOrderModel.HEADERS)


def test_headers_name_and_explain_the_columns(document):
    horizontal, tip = Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    turn = TurnOrderModel(document)
    assert turn.headerData(TurnOrderModel.COL_HP, horizontal) == "HP"
    assert "wound thresholds" in turn.headerData(TurnOrderModel.COL_HP, horizontal, tip)
    assert turn.headerData(len(TurnOrderModel.HEADERS), horizontal) is None
    assert turn.headerData(0, Qt.Orientation.Vertical) is None
    targets = AttackTargetsModel()
    assert "rate of attack" in targets.headerData(AttackTargetsModel.COL_SHARE, horizontal, tip)
    assert targets.headerData(AttackTargetsModel.COL_SIDE, horizontal, tip) is None
    log = EncounterLogModel(document)
    assert log.columnCount() == len(EncounterLogModel.HEADERS)
