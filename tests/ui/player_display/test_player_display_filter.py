"""The player display shows what the players may see and nothing more: its models under
QAbstractItemModelTester through a fight with undo and redo, every string it renders
checked for hidden values under every setting, and the filter's words."""

from __future__ import annotations

import random
import re

import pytest
from PySide6.QtCore import QAbstractListModel, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QLabel, QWidget

from mneme_desktop.domain import ConditionKind
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat import CombatError
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.settings import DisplayTheme, PlayerVisibility
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.roles import ID_ROLE, WOUND_STATE_ROLE
from mneme_desktop.ui.player_display.filtering import DisplayOptions, TurnMark, build_scene
from mneme_desktop.ui.player_display.model import DisplayFeed, PlayerTurnModel
from mneme_desktop.ui.player_display.window import PlayerDisplayWindow
from tests.ui.player_display.fight import (
    COMBATANT_NOTE,
    HIDDEN,
    NOTE,
    RAIDER_HP,
    RAIDER_LEFT,
    SECRET_ROLL,
    campaign_for_fight,
    fight_steps,
)

Fatal = QAbstractItemModelTester.FailureReportingMode.Fatal


def push_fight(document: CampaignDocument, after_each=None) -> None:
    for name, step in fight_steps():
        push_patch(document, step(document.campaign, document.campaign.encounters[0]))
        if after_each is not None:
            after_each(name)


def rendered_texts(window: PlayerDisplayWindow) -> list[str]:
    """Every string the display puts on screen or gives a screen reader: the window title,
    every label, every widget's accessible name, the headers, and every role of every cell
    of both views (ids and enums included)."""
    texts = [window.windowTitle()]
    texts += [label.text() for label in window.findChildren(QLabel)]
    texts += [widget.accessibleName() for widget in window.findChildren(QWidget)]
    texts += [widget.toolTip() for widget in window.findChildren(QWidget)]
    for view in (window.table, window.log_view):
        model = view.model()
        columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount()
        for column in range(columns):
            for role in range(0, 0x0200):
                header = model.headerData(column, Qt.Orientation.Horizontal, role)
                if header is not None:
                    texts.append(_shown(header))
        for row in range(model.rowCount()):
            for column in range(columns):
                index = model.index(row, column)
                for role in range(0, 0x0200):
                    value = model.data(index, role)
                    if value is not None:
                        texts.append(_shown(value))
    return texts


def _shown(value: object) -> str:
    """A role's value as text, without the memory address a Qt object's repr ends with
    (a QFont's "at 0x7f..87.." read as the number 87 now and then)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", str(value))


def numbers_in(texts: list[str]) -> set[str]:
    return {number for text in texts for number in re.findall(r"\d+", text)}


# --- the models ----------------------------------------------------------------------------


def test_models_pass_the_tester_through_a_fight_undo_and_redo(qapp):
    document = CampaignDocument(campaign_for_fight())
    feed = DisplayFeed(document, DisplayOptions(show_log=True))
    testers = [QAbstractItemModelTester(m, Fatal) for m in (feed.turn_model, feed.log_model)]
    assert feed.turn_model.rowCount() == 0 and not feed.scene.fight  # nothing runs yet
    push_fight(document)
    assert feed.scene.fight and feed.turn_model.rowCount() == 7  # the chief is hidden
    assert feed.log_model.rowCount() == 2
    feed.set_options(DisplayOptions(enemies=PlayerVisibility.NOTHING))
    assert feed.log_model.rowCount() == 0
    steps = document.undo_stack.count()
    while document.undo_stack.canUndo():
        document.undo_stack.undo()
    assert feed.turn_model.rowCount() == 0 and not feed.scene.fight
    for _ in range(steps):
        document.undo_stack.redo()
    assert feed.turn_model.rowCount() == 7
    assert len(testers) == 2


def test_a_turn_repaints_the_rows_that_changed_only(qapp):
    document = CampaignDocument(campaign_for_fight())
    feed = DisplayFeed(document, DisplayOptions())
    push_fight(document)
    model = feed.turn_model
    resets: list[int] = []
    changed: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.dataChanged.connect(lambda first, _last: changed.append(first.row()))
    encounter = document.campaign.encounters[0]
    push_patch(document, fight.next_turn_patch(document.campaign, encounter,
                                               random.Random(1)))
    assert not resets
    assert 2 <= len(changed) <= 3  # the old turn, the new turn, the new "next"
    row = next(r for r in range(model.rowCount())
               if model.index(r, 0).data(ID_ROLE) == encounter.current_combatant.id)
    assert model.index(row, PlayerTurnModel.COL_TURN).data() == "▶ Now"


# --- nothing hidden reaches the screen -------------------------------------------------------

SETTINGS = [
    DisplayOptions(show_log=True),  # the default: PCs band and HP, adversaries band only
    DisplayOptions(players=PlayerVisibility.BAND, enemies=PlayerVisibility.VAGUE,
                   neutral=PlayerVisibility.VAGUE, show_log=True),
    DisplayOptions(players=PlayerVisibility.VAGUE, enemies=PlayerVisibility.NOTHING,
                   neutral=PlayerVisibility.NOTHING, show_log=True),
    DisplayOptions(players=PlayerVisibility.NOTHING, enemies=PlayerVisibility.NOTHING,
                   neutral=PlayerVisibility.NOTHING, show_log=False),
    DisplayOptions(players=PlayerVisibility.BAND_AND_HP, enemies=PlayerVisibility.BAND_AND_HP,
                   show_log=True),  # the control: the referee shows adversary HP on purpose
]


@pytest.mark.parametrize("options", SETTINGS)
def test_no_hidden_value_is_rendered_under_any_setting(qtbot, options):
    campaign = campaign_for_fight()
    document = CampaignDocument(campaign)
    feed = DisplayFeed(document, options)
    window = PlayerDisplayWindow(feed, DisplayTheme.DARK, 20)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    sheet_notes = campaign.encounters[0].notes
    assert RAIDER_HP == 87 and RAIDER_LEFT == 73
    seen: list[str] = []

    def check(step: str) -> None:
        texts = rendered_texts(window)
        seen.extend(texts)
        joined = "\n".join(texts)
        assert HIDDEN not in joined, step
        for secret in (NOTE, COMBATANT_NOTE, SECRET_ROLL, "rolled", sheet_notes[:40],
                       "Difficulty", "Effect", "damage"):
            assert secret not in joined, (step, secret)
        if options.enemies is not PlayerVisibility.BAND_AND_HP:
            assert not numbers_in(texts) & {str(RAIDER_HP), str(RAIDER_LEFT)}, step
        if options.enemies is PlayerVisibility.NOTHING:
            raider_rows = [r for r in feed.turn_model.rows if r.name == "Raider 1"]
            assert all(not r.wounds and r.band is None for r in raider_rows), step

    push_fight(document, check)
    raider = next(r for r in feed.turn_model.rows if r.name == "Raider 1")
    if options.enemies is PlayerVisibility.BAND_AND_HP:
        # The collector sees what the display shows: the HP the referee chose to show.
        assert f"{RAIDER_LEFT} / {RAIDER_HP}" in seen
    assert raider.name in seen
    # Revealed, the chief appears, by name, in the order and in the turn line.
    chief = next(c for c in campaign.encounters[0].combatants
                 if campaign.combatant_character(c).name == HIDDEN)
    push_patch(document, fight.set_revealed_patch(campaign, campaign.encounters[0], chief.id,
                                                  True))
    assert HIDDEN in "\n".join(rendered_texts(window))
    document.undo_stack.undo()  # hidden again: gone again
    assert HIDDEN not in "\n".join(rendered_texts(window))


# --- the filter's words --------------------------------------------------------------------


def test_vague_words_and_nothing_hide_the_band(qapp):
    campaign = campaign_for_fight()
    encounter = campaign.encounters[0]
    fight.start_patch(campaign, encounter).apply(campaign)
    raider = next(c for c in encounter.combatants
                  if campaign.combatant_character(c).name == "Raider 2")
    for damage, expected in ((0, "unhurt"), (3, "hurt"), (9, "badly hurt"), (16, "down"),
                             (23, "down")):
        fight.set_damage_patch(campaign, encounter, raider.id, damage).apply(campaign)
        scene = build_scene(campaign, DisplayOptions(enemies=PlayerVisibility.VAGUE))
        row = next(r for r in scene.rows if r.id == raider.id)
        assert row.band is None and row.hp == ""
        assert row.wounds == expected
    # Knocked out: the band setting says so, "nothing" says nothing, not even Unconscious.
    banded = build_scene(campaign, DisplayOptions(enemies=PlayerVisibility.BAND))
    row = next(r for r in banded.rows if r.id == raider.id)
    assert row.band is WoundState.CRITICALLY_WOUNDED and row.wounds == "Critically Wounded"
    assert "Unconscious" in row.conditions
    blank = build_scene(campaign, DisplayOptions(enemies=PlayerVisibility.NOTHING))
    row = next(r for r in blank.rows if r.id == raider.id)
    assert (row.band, row.wounds, row.hp, row.conditions) == (None, "", "", ())


def test_only_visible_conditions_show(qapp):
    campaign = campaign_for_fight()
    encounter = campaign.encounters[0]
    fight.start_patch(campaign, encounter).apply(campaign)
    mara = next(c for c in encounter.combatants
                if campaign.combatant_character(c).name == "Mara Vey")
    for kind in (ConditionKind.STUNNED, ConditionKind.CRIPPLED, ConditionKind.BLEEDING,
                 ConditionKind.HELPLESS):
        fight.add_condition_patch(campaign, encounter, mara.id, kind, "left arm").apply(
            campaign)
    row = next(r for r in build_scene(campaign, DisplayOptions()).rows if r.id == mara.id)
    assert row.conditions == ("Stunned", "Bleeding")


def test_next_skips_the_hidden_and_a_hidden_turn_is_a_dash(qapp):
    campaign = campaign_for_fight()
    encounter = campaign.encounters[0]
    steps = dict(list(fight_steps())[:2])  # hide the chief, start
    for step in steps.values():
        step(campaign, encounter).apply(campaign)
    order = [campaign.combatant_character(c).name for c in encounter.initiative_order()]
    assert order[:3] == ["Sef Adeyemi", "Mara Vey", HIDDEN]
    rng = random.Random(1)
    fight.next_turn_patch(campaign, encounter, rng).apply(campaign)  # Mara's turn
    scene = build_scene(campaign, DisplayOptions())
    assert (scene.now, scene.next) == ("Mara Vey", "Raider Gunner 1")
    assert [r.mark for r in scene.rows][:3] == [TurnMark.NONE, TurnMark.NOW, TurnMark.NEXT]
    fight.next_turn_patch(campaign, encounter, rng).apply(campaign)  # the chief's turn
    scene = build_scene(campaign, DisplayOptions())
    assert scene.now == "—" and scene.next == "Raider Gunner 1"
    assert TurnMark.NOW not in [r.mark for r in scene.rows]


def test_the_display_follows_the_fight_the_referee_shows(qapp):
    campaign = campaign_for_fight()
    ford, well = campaign.encounters
    assert build_scene(campaign, DisplayOptions()).fight is False  # the well has ended
    fight.start_patch(campaign, ford).apply(campaign)
    well.ended = False
    assert build_scene(campaign, DisplayOptions()).rows[0].name == "Mara Vey"  # the last
    assert build_scene(campaign, DisplayOptions(), ford.id).rows[0].name == "Sef Adeyemi"


def test_revealed_toggle_is_one_undoable_step_and_refuses_no_change(qapp):
    campaign = campaign_for_fight()
    document = CampaignDocument(campaign)
    encounter = campaign.encounters[0]
    raider = encounter.combatants[3]
    assert raider.revealed
    with pytest.raises(CombatError, match="already shown"):
        fight.set_revealed_patch(campaign, encounter, raider.id, True)
    push_patch(document, fight.set_revealed_patch(campaign, encounter, raider.id, False))
    assert not raider.revealed
    assert document.undo_stack.undoText() == "Hide Raider 1 from the players"
    document.undo_stack.undo()
    assert raider.revealed
    document.undo_stack.redo()
    assert not raider.revealed


def test_wound_state_role_is_the_band_only_where_shown(qapp):
    document = CampaignDocument(campaign_for_fight())
    feed = DisplayFeed(document, DisplayOptions())
    push_fight(document)
    model = feed.turn_model
    for row in range(model.rowCount()):
        shown = model.rows[row]
        state = model.index(row, PlayerTurnModel.COL_WOUNDS).data(WOUND_STATE_ROLE)
        assert state is shown.band
        assert model.index(row, PlayerTurnModel.COL_NAME).data(WOUND_STATE_ROLE) is None


def test_the_idle_screen_follows_the_campaign_clock(qapp):
    from mneme_desktop.domain.edits import Patch, SetClock

    document = CampaignDocument(campaign_for_fight())
    feed = DisplayFeed(document, DisplayOptions())
    scenes = []
    feed.scene_changed.connect(scenes.append)
    campaign = document.campaign
    later = campaign.game_time.advance(hours=30, minutes=5)
    push_patch(document, Patch("Advance the clock", (SetClock(campaign.game_time, later),)))
    assert not feed.scene.fight
    assert (feed.scene.day, feed.scene.clock) == ("Day 13", "20:35")
    document.undo_stack.undo()
    assert (feed.scene.day, feed.scene.clock) == ("Day 12", "14:30")
    assert len(scenes) == 2


def test_a_crewed_vehicles_turn_is_shown_as_the_referee_has_it(qapp):
    """QA: on a crewed walker's turn the display said "Now: Raider 2" on Raider 2's own row
    and "Next: Sef Adeyemi", skipping Raider 2's turn; the walker had no row at all."""
    from mneme_desktop.domain import Side

    campaign = campaign_for_fight()
    encounter = campaign.encounters[0]
    walker = next(t for t in campaign.thing_library if t.name == "D-Plated Walker")
    fight.add_things_patch(campaign, encounter, walker.id, 1,
                           side=Side.ENEMIES).apply(campaign)
    entry = encounter.things[-1]
    driver = next(c for c in encounter.combatants
                  if campaign.combatant_character(c).name == "Raider 2")
    fight.crew_patch(campaign, encounter, entry.id, 0, driver.id).apply(campaign)
    fight.start_patch(campaign, encounter).apply(campaign)
    rng = random.Random(1)
    for _ in range(len(encounter.combatants) + 1):
        if encounter.thing_turn == entry.id:
            break
        fight.next_turn_patch(campaign, encounter, rng).apply(campaign)
    assert encounter.thing_turn == entry.id
    scene = build_scene(campaign, DisplayOptions())
    assert (scene.now, scene.next) == ("D-Plated Walker 1", "Raider 2")
    marks = {r.name: r.mark for r in scene.rows}
    assert marks["D-Plated Walker 1"] is TurnMark.NOW and marks["Raider 2"] is TurnMark.NEXT
    row = next(r for r in scene.rows if r.name == "D-Plated Walker 1")
    assert row.wounds == "Intact" and row.hp == ""  # enemies: the band only
    names = [r.name for r in scene.rows]
    assert names.index("D-Plated Walker 1") + 1 == names.index("Raider 2")
    fight.next_turn_patch(campaign, encounter, rng).apply(campaign)
    assert build_scene(campaign, DisplayOptions()).now == "Raider 2"
