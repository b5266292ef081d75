"""The encounter screen's short cuts (issue #22, table speed) leave the screen exactly as a
full repaint would, and do the work they save (counted calls, not times).

What is on screen is read from the window's backing store (``grabWindow``): a widget's
``grab()`` paints it afresh and would hide a stale area."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import (
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Encounter,
    Side,
    Skill,
    Weapon,
)
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.edits import (
    ChangeSummary,
    Patch,
    SetCombatantField,
    SetEncounterField,
)
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.models.turn_order_rows import TurnRow, with_spent
from mneme_desktop.ui.views.encounter_view import EncounterView
from mneme_desktop.ui.widgets.log_table import AppendTable
from mneme_desktop.ui.widgets.steady_header import SteadyHeader
from mneme_desktop.ui.widgets.steady_tabs import SteadyTabs
from tests.ui.test_turn_order_new_round import shown

SIZE = 40


def big_fight(qtbot: Any, size: int = SIZE) -> tuple[EncounterView, Encounter]:
    """The benchmark's fight, smaller: four riflemen against raiders, started, shown."""
    pcs = [
        Character(name=f"PC {n}", characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
                  skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=2)],
                  weapons=[Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=4,
                                  skill="Gun Combat (Slug Rifle)")],
                  armor=[Armor(name="Jack", rating=3)])
        for n in range(4)
    ]
    raider = AdversaryTemplate(stats=Character(
        name="Raider", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
        skills=[Skill(name="Melee Combat", specialty="Slashing", level=1)],
        weapons=[Weapon(name="Broadsword", damage="3d3-2", skill="Melee Combat (Slashing)")],
        armor=[Armor(name="Flak Jacket", rating=4)],
    ))
    campaign = Campaign(name="Repaints", characters=pcs, adversary_library=[raider],
                        encounters=[Encounter(name="The big fight")])
    document = CampaignDocument(campaign)
    encounter = campaign.encounters[0]
    rng = random.Random(1)
    for make in (
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in pcs], Side.PLAYERS),
        lambda c, e: fight.add_adversaries_patch(c, e, raider, size - len(pcs)),
        lambda c, e: fight.roll_initiative_patch(c, e, rng),
        fight.start_patch,
    ):
        push_patch(document, make(campaign, encounter))
    view = EncounterView(document, rng=random.Random(7))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_encounter(encounter.id)
    settle(view)
    return view, encounter


def settle(view: QWidget) -> None:
    """Qt's queued work done and, on a real X server, everything painted flushed to it
    (``sync`` waits for the server) with the window on top of any other."""
    for _ in range(3):
        QApplication.processEvents()
    window = view.window()
    window.raise_()
    QApplication.sync()
    QApplication.processEvents()
    QApplication.sync()


def on_screen(view: QWidget) -> QImage:
    """What the window system shows of the window now."""
    settle(view)
    return view.screen().grabWindow(view.winId()).toImage()


def repainted(view: QWidget) -> QImage:
    """What a full repaint of the whole window puts there: every widget in it repainted
    (``view.repaint()`` alone leaves the item views' viewports as they are)."""
    for widget in (view, *view.findChildren(QWidget)):
        if widget.isVisible():
            widget.update()
    settle(view)
    return view.screen().grabWindow(view.winId()).toImage()


def attack_two(view: EncounterView, encounter: Encounter) -> None:
    order = encounter.initiative_order()
    shooter = next(c for c in order if c.side is Side.PLAYERS)
    targets = [c.id for c in order if c.side is Side.ENEMIES][:2]
    resolver = view.resolver
    resolver.set_attacker(shooter.id)
    resolver.spend_check.setChecked(False)
    resolver.set_targets(targets)
    assert resolver.roll() is not None
    settle(view)
    assert resolver.apply()


class PaintCounter(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def test_the_check_sees_a_stale_area(qtbot) -> None:
    """The comparison these tests rely on finds an area left unpainted."""
    view, _ = big_fight(qtbot, 8)
    on_screen(view)
    label = view.round_label
    assert isinstance(label, QLabel)
    label.setUpdatesEnabled(False)
    label.setText("Round 99")
    stale = on_screen(view)
    label.setUpdatesEnabled(True)
    assert stale != repainted(view)


def test_apply_leaves_the_screen_as_a_full_repaint_would(qtbot) -> None:
    view, encounter = big_fight(qtbot)
    view.tabs.setCurrentIndex(1)
    assert isinstance(view.tabs, SteadyTabs) and isinstance(view.log_view, AppendTable)
    # Until the log has a scroll bar: the step that shows it leaves one pixel of the log's
    # frame corner unlike a full repaint, with a plain QTableView and QTabWidget as well
    # (Qt's, measured before these short cuts existed).
    while not view.log_view.verticalScrollBar().isVisible():
        attack_two(view, encounter)
        settle(view)
    repainted(view)
    skipped, quiet = view.tabs.skipped_layouts, view.log_view.quiet_layouts
    for _ in range(4):
        attack_two(view, encounter)
        assert on_screen(view) == repainted(view)
    # The short cuts were taken: the tab widget kept its layout, the log repainted only
    # its new rows.
    assert view.tabs.skipped_layouts > skipped
    assert view.log_view.quiet_layouts > quiet


def test_empty_dice_fields_are_not_repainted_at_apply(qtbot) -> None:
    view, encounter = big_fight(qtbot)
    view.tabs.setCurrentIndex(1)
    resolver = view.resolver
    attack_two(view, encounter)
    settle(view)
    counters = [PaintCounter(edit) for edit in (resolver.dice_edit, resolver.damage_edit,
                                                resolver.return_fire_edit,
                                                resolver.location_edit)]
    attack_two(view, encounter)
    settle(view)
    assert [c.paints for c in counters] == [0, 0, 0, 0]


def test_typed_dice_are_still_cleared(qtbot) -> None:
    view, _ = big_fight(qtbot, 8)
    resolver = view.resolver
    resolver.dice_edit.insert("3 4")
    resolver.location_edit.insert("6")
    resolver.location_edit.backspace()  # empty again, with typing to undo
    resolver.discard()
    assert resolver.dice_edit.text() == ""
    assert not resolver.dice_edit.isUndoAvailable() or resolver.dice_edit.text() == ""
    assert resolver.location_edit.text() == ""


def test_next_turns_and_new_rounds_leave_the_screen_as_a_full_repaint_would(qtbot) -> None:
    view, encounter = big_fight(qtbot)
    for step in range(2 * SIZE + 3):
        if step % 13 == 0:
            everyone_acts(view)
        view.next_turn()
        if step % 9 == 0 or encounter.turn_index == 0:
            assert on_screen(view) == repainted(view)
    assert encounter.round >= 3
    assert view.log_view.quiet_layouts > 0
    header = view.turn_view.horizontalHeader()
    assert isinstance(header, SteadyHeader) and header.skipped_repaints > 0


def test_the_turn_order_header_repaints_when_its_highlight_changes(qtbot) -> None:
    """No selection, all rows selected (whole columns: sunken), one row again."""
    view, _ = big_fight(qtbot)
    table = view.turn_view
    header = table.horizontalHeader()
    assert isinstance(header, SteadyHeader)
    assert header.sectionsClickable() and header.highlightSections()
    on_screen(view)
    table.clearSelection()
    assert on_screen(view) == repainted(view)
    table.selectAll()
    assert on_screen(view) == repainted(view)
    view.select_combatant(view.turn_model.row_id(3) or "")
    assert on_screen(view) == repainted(view)
    skipped = header.skipped_repaints
    view.select_combatant(view.turn_model.row_id(5) or "")
    assert on_screen(view) == repainted(view)
    assert header.skipped_repaints == skipped + 1


def everyone_acts(view: EncounterView) -> None:
    def make(campaign: Campaign, encounter: Encounter) -> fight.EncounterPatch:
        builder = fight.PatchBuilder(campaign, encounter)
        for number, combatant in enumerate(encounter.combatants):
            builder.set(combatant, "actions_spent", 1 + number % 3)
        return builder.build("everyone acted")
    assert view.run(make)


def test_undo_and_a_filtered_log_take_the_full_repaint(qtbot) -> None:
    """Rows taken out (undo) or a filter (a reset) move rows already shown."""
    view, encounter = big_fight(qtbot)
    view.tabs.setCurrentIndex(1)
    for _ in range(3):
        attack_two(view, encounter)
    on_screen(view)
    quiet = view.log_view.quiet_layouts
    view.document.undo_stack.undo()
    assert on_screen(view) == repainted(view)
    # The model's filter, as the filter box sets it (the box's clear button fades in and
    # out over time: no fixed picture to compare).
    view.log_model.set_text("Raider")
    assert on_screen(view) == repainted(view)
    view.log_model.set_text("")
    assert on_screen(view) == repainted(view)
    assert view.log_view.quiet_layouts == quiet
    attack_two(view, encounter)  # appending again is quiet again
    assert on_screen(view) == repainted(view)
    assert view.log_view.quiet_layouts == quiet + 1


def test_a_log_that_does_not_fill_its_view_shows_new_rows(qtbot) -> None:
    view, encounter = big_fight(qtbot, 6)
    on_screen(view)
    for _ in range(4):
        view.next_turn()
        assert on_screen(view) == repainted(view)
    assert view.log_view.verticalScrollBar().maximum() == 0 or encounter.round > 1


def test_the_tabs_still_lay_out_when_their_tab_bar_or_pages_change(qtbot) -> None:
    """A page that needs more room still gets it from the layout around the tabs, and a
    longer tab title still widens the tab bar; a page's text change that asks for no
    more room is the layout request skipped."""
    window = QWidget()
    qtbot.addWidget(window)
    row = QHBoxLayout(window)
    tabs = SteadyTabs(objectName="tabs")
    page = QWidget()
    label = QLabel("Round 12345")
    QVBoxLayout(page).addWidget(label)
    tabs.addTab(page, "One")
    tabs.addTab(QWidget(), "Two")
    filler = QLabel("the rest")
    filler.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    row.addWidget(tabs)
    row.addWidget(filler, 1)
    window.resize(700, 320)
    window.show()
    qtbot.waitExposed(window)
    settle(window)
    assert tabs.width() < 380
    page.setMinimumSize(380, 200)  # reaches the tabs as a layout request only
    settle(window)
    assert tabs.width() >= 380 and page.width() >= 380
    width = tabs.tabBar().width()
    tabs.setTabText(1, "A much longer title for the second tab")
    settle(window)
    assert tabs.tabBar().width() > width
    skipped = tabs.skipped_layouts
    label.setText("Round 67890")  # the same room: nothing the tabs lay out by changes
    settle(window)
    assert tabs.skipped_layouts > skipped
    assert on_screen(window) == repainted(window)


def test_a_new_round_after_everyone_acted_works_out_only_the_turn_rows(
        qtbot, monkeypatch) -> None:
    """Rows whose only change is the actions spent are the old rows with a new Actions
    cell: the two rows the turn moved between are worked out again, no other."""
    view, encounter = big_fight(qtbot)
    model = view.turn_model
    view.run(last_turn)
    everyone_acts(view)
    rows = 0
    real_row = TurnOrderModel._row

    def count_row(self: TurnOrderModel, *args: Any) -> TurnRow:
        nonlocal rows
        rows += 1
        return real_row(self, *args)

    monkeypatch.setattr(TurnOrderModel, "_row", count_row)
    view.next_turn()
    assert encounter.round == 2 and model.current_row() == 0
    assert rows == 2
    fresh = TurnOrderModel(view.document)
    fresh.set_encounter(encounter.id)
    assert shown(model) == shown(fresh)


def test_a_row_with_more_than_its_actions_changed_is_worked_out_again(qtbot) -> None:
    view, encounter = big_fight(qtbot, 12)
    model = view.turn_model
    view.run(last_turn)
    target = encounter.initiative_order()[3]

    def acted_and_aimed(campaign: Campaign, encounter: Encounter) -> fight.EncounterPatch:
        builder = fight.PatchBuilder(campaign, encounter)
        builder.set(target, "actions_spent", 2)
        builder.set(target, "aim", 1)
        return builder.build("aimed")
    assert view.run(acted_and_aimed)
    view.next_turn()
    fresh = TurnOrderModel(view.document)
    fresh.set_encounter(encounter.id)
    assert shown(model) == shown(fresh)


def last_turn(campaign: Campaign, encounter: Encounter) -> fight.EncounterPatch:
    builder = fight.PatchBuilder(campaign, encounter)
    builder.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    return builder.build("last turn")


def test_with_spent_is_replace() -> None:
    import dataclasses

    from mneme_desktop.rules.checks import CoverLevel
    from mneme_desktop.rules.movement import Stance
    from mneme_desktop.rules.wounds import WoundState, wound_thresholds
    row = TurnRow(id="a", character_id="c", place=1, name="A", side=Side.ENEMIES,
                  initiative=8, dice=(3, 5), tie=None, current=False, delayed=False,
                  spent=2, aim=0, aim_target="", stance=Stance.STANDING,
                  cover=CoverLevel.NONE, damage=0, hp=21, thresholds=wound_thresholds(21),
                  state=WoundState.UNHURT, penalty=0, conditions=(), can_act=True,
                  dying_due=False, task=None)
    copy = with_spent(row, 0)
    assert copy == dataclasses.replace(row, spent=0)
    assert list(copy.__dict__) == list(row.__dict__) and row.spent == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.spent = 1  # type: ignore[misc]


def test_a_patch_summary_is_the_union_of_its_edits() -> None:
    """The summary skips combatant fields of an encounter already named, and names every
    encounter any edit touches."""
    one, two = Combatant(character_id="x"), Combatant(character_id="y")
    edits = (
        SetCombatantField("e1", one.id, "actions_spent", 1, 0),
        SetCombatantField("e2", two.id, "actions_spent", 2, 0),
        SetEncounterField("e1", "name", "Old", "New"),
        SetCombatantField("e1", two.id, "delayed", True, False),
        SetCombatantField("e3", one.id, "aim", 1, 0),
    )
    for encounter_id in (None, "e1", "e9"):
        patch = Patch("step", edits, encounter_id=encounter_id)
        expected = ChangeSummary() if encounter_id is None else ChangeSummary(
            encounter_ids=frozenset({encounter_id}))
        for edit in edits:
            expected = expected | edit.summary
        assert patch.summary == expected


def small_table(qtbot: Any) -> tuple[AppendTable, QStandardItemModel]:
    model = QStandardItemModel(0, 3)
    for row in range(30):
        model.appendRow([QStandardItem(f"row {row} column {column}") for column in range(3)])
    table = AppendTable(objectName="table")
    qtbot.addWidget(table)
    table.setModel(model)
    table.resize(420, 300)
    table.show()
    qtbot.waitExposed(table)
    settle(table)
    return table, model


def test_a_row_changed_while_rows_are_added_is_repainted(qtbot) -> None:
    """Qt leaves a row changed while a layout is pending to the layout's repaint."""
    table, model = small_table(qtbot)
    table.scrollToTop()
    on_screen(table)
    model.appendRow([QStandardItem("added") for _ in range(3)])
    model.item(2, 1).setText("changed while the layout was pending")
    assert on_screen(table) == repainted(table)
    assert table.quiet_layouts == 1


def test_rows_added_at_the_end_of_a_scrolled_table(qtbot) -> None:
    table, model = small_table(qtbot)
    for count in range(1, 4):
        model.appendRow([QStandardItem(f"added {count}") for _ in range(3)])
        table.scrollToBottom()
        assert on_screen(table) == repainted(table)
    model.insertRow(0, [QStandardItem("first") for _ in range(3)])  # not at the end
    assert on_screen(table) == repainted(table)
    assert table.quiet_layouts == 3
