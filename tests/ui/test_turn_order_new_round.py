"""A new round in a large fight: the turn order redoes only what changed (counted calls,
not times), and what it shows is what a model built from scratch shows."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from PySide6.QtCore import Qt

from mneme_desktop.domain import Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.character import ConditionKind
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.movement import Stance
from mneme_desktop.rules.wounds import WoundState, wound_thresholds
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models import turn_order_model as turn_order
from mneme_desktop.ui.models.roles import ID_ROLE, RULE_ROLE, SORT_ROLE, WOUND_STATE_ROLE
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.models.turn_order_rows import TurnRow, changed_columns
from tests.ui.test_turn_order_scaling import started_fight

SIZE = 60
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
         Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole,
         Qt.ItemDataRole.AccessibleTextRole, ID_ROLE, SORT_ROLE, WOUND_STATE_ROLE, RULE_ROLE)
LOOK_ROLES = (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole,
              Qt.ItemDataRole.FontRole)


def fight_at_last_turn(qapp: Any) -> tuple[CampaignDocument, Encounter, TurnOrderModel]:
    return started_fight(SIZE, 3)


def to_last_turn(document: CampaignDocument, encounter: Encounter, spend: bool) -> None:
    builder = fight.PatchBuilder(document.campaign, encounter)
    builder.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    if spend:
        for number, combatant in enumerate(encounter.combatants):
            builder.set(combatant, "actions_spent", 1 + number % 3)
    push_patch(document, builder.build("last turn"))


def shown(model: TurnOrderModel) -> list[list[tuple[object, ...]]]:
    """Every cell's roles, as comparable values (brushes and fonts by what they look like)."""
    def look(value: object) -> object:
        if value is None:
            return None
        if hasattr(value, "color"):
            return value.color().rgba()  # type: ignore[attr-defined]
        if hasattr(value, "toString"):
            return value.toString()  # type: ignore[attr-defined]
        return value
    return [[tuple(model.data(model.index(row, column), role) for role in ROLES)
             + tuple(look(model.data(model.index(row, column), role)) for role in LOOK_ROLES)
             for column in range(model.columnCount())]
            for row in range(model.rowCount())]


def test_a_new_round_recomputes_only_the_rows_that_changed(qapp, monkeypatch) -> None:
    document, encounter, model = fight_at_last_turn(qapp)
    to_last_turn(document, encounter, spend=False)
    shown(model)  # every row painted once: its cells are built
    rows = cells = signals = 0
    real_row, real_cells = TurnOrderModel._row, TurnOrderModel._cell_roles

    def count_row(self: TurnOrderModel, *args: Any) -> TurnRow:
        nonlocal rows
        rows += 1
        return real_row(self, *args)

    def count_cells(self: TurnOrderModel, *args: Any) -> Any:
        nonlocal cells
        cells += 1
        return real_cells(self, *args)

    def count_signal(*_args: Any) -> None:
        nonlocal signals
        signals += 1

    monkeypatch.setattr(TurnOrderModel, "_row", count_row)
    monkeypatch.setattr(TurnOrderModel, "_cell_roles", count_cells)
    model.dataChanged.connect(count_signal)
    push_patch(document, fight.next_turn_patch(document.campaign, encounter,
                                               random.Random(1)))
    assert encounter.round == 2 and model.current_row() == 0
    shown(model)
    # The turn moved from the last row to the first: those two rows, nothing else (the
    # round and the clock reach a row only through its conditions' timers).
    assert rows == 2
    assert cells == 2
    assert signals == 2


def test_a_new_round_after_everyone_acted_rebuilds_the_actions_cells_only(
        qapp, monkeypatch) -> None:
    document, encounter, model = fight_at_last_turn(qapp)
    shown(model)
    to_last_turn(document, encounter, spend=True)  # every row's Actions, while not shown
    displays: list[int] = []
    real_display = TurnOrderModel._display

    def count_display(self: TurnOrderModel, row: TurnRow, column: int) -> str:
        displays.append(column)
        return real_display(self, row, column)

    monkeypatch.setattr(TurnOrderModel, "_display", count_display)
    signals: list[tuple[int, int, int, int]] = []
    model.dataChanged.connect(lambda first, last, *_: signals.append(
        (first.row(), last.row(), first.column(), last.column())))
    push_patch(document, fight.next_turn_patch(document.campaign, encounter,
                                               random.Random(1)))
    displays.clear()
    for row in range(model.rowCount()):  # what a paint asks for
        for column in range(model.columnCount()):
            model.data(model.index(row, column), Qt.ItemDataRole.DisplayRole)
    # Two whole rows (whose turn it was, whose turn it is) and one Actions cell per row.
    assert len(displays) == 2 * model.columnCount() + (SIZE - 2)
    assert signals == [(0, 0, 0, 9), (1, SIZE - 2, 3, 3), (SIZE - 1, SIZE - 1, 0, 9)]
    fresh = TurnOrderModel(document)
    fresh.set_encounter(encounter.id)
    assert shown(model) == shown(fresh)


def test_rows_match_a_fresh_model_through_rounds_with_wounds_and_conditions(qapp) -> None:
    """Bleeding, dying, the unconscious and conditions with timers, round after round."""
    document, encounter, model = fight_at_last_turn(qapp)
    campaign = document.campaign
    rng = random.Random(5)
    order = encounter.initiative_order()
    for combatant, damage in zip(order[:12], (3, 8, 12, 15, 16, 20, 22, 25, 14, 18, 1, 11),
                                 strict=True):
        builder = fight.PatchBuilder(campaign, encounter)
        builder.edit_character(combatant).damage = damage
        push_patch(document, builder.build("hurt"))
    for combatant, kind in zip(order[12:16], (ConditionKind.BLEEDING, ConditionKind.STUNNED,
                                              ConditionKind.BLEEDING, ConditionKind.PRONE),
                               strict=True):
        push_patch(document, fight.add_condition_patch(campaign, encounter, combatant.id,
                                                       kind))
    for step in range(3 * SIZE):
        shown(model) if step % 7 == 0 else None
        push_patch(document, fight.next_turn_patch(campaign, encounter, rng))
        if step % 11 == 0:
            fresh = TurnOrderModel(document)
            fresh.set_encounter(encounter.id)
            assert shown(model) == shown(fresh)
    assert encounter.round >= 3
    states = {model.data(model.index(row, 0), WOUND_STATE_ROLE)
              for row in range(model.rowCount())}
    assert {WoundState.DEAD, WoundState.CRITICALLY_WOUNDED} <= states
    assert any(" rd)" in (model.data(model.index(row, TurnOrderModel.COL_CONDITIONS)) or "")
               for row in range(model.rowCount()))  # a timer, as the rounds go by


def test_the_one_pass_diff_agrees_with_the_rows_module() -> None:
    """The model's own diff (one pass over the fields) answers what changed_columns does."""
    rng = random.Random(11)
    base = TurnRow(id="a", character_id="c", place=1, name="A", side=Side.ENEMIES,
                   initiative=8, dice=(3, 5), tie=None, current=False, delayed=False,
                   spent=0, aim=0, aim_target="", stance=Stance.STANDING,
                   cover=CoverLevel.NONE, damage=0, hp=21,
                   thresholds=wound_thresholds(21), state=WoundState.UNHURT,
                   penalty=0, conditions=(), can_act=True, dying_due=False, task=None)
    other = dict(id="b", character_id="d", place=2, name="B", side=Side.PLAYERS,
                 initiative=None, dice=(), tie=(1, 2), current=True, delayed=True, spent=2,
                 aim=1, aim_target="B", stance=Stance.PRONE,
                 cover=CoverLevel.MOSTLY, damage=5, hp=20,
                 thresholds=wound_thresholds(20), state=WoundState.DYING, penalty=-2,
                 conditions=("Bleeding",), can_act=False, dying_due=True,
                 task=("First aid", 1, 3))
    names = list(other)
    for _ in range(400):
        picked = rng.sample(names, rng.randint(0, 3))
        changed = dataclasses.replace(base, **{name: other[name] for name in picked})
        assert turn_order._changed_columns(base, changed) == changed_columns(base, changed)
