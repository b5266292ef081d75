"""The player display reads from across a room at 1920x1080 and 1366x768 in every theme:
column headings with room above and below, every revealed combatant on screen, names whole
on a full HD screen, and whose turn it is kept in sight in a fight too big for the screen."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QStyleOptionViewItem

from mneme_desktop.domain import Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.settings import DisplayTheme, Settings
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.player_display.filtering import DisplayOptions
from mneme_desktop.ui.player_display.model import DisplayFeed, PlayerTurnModel
from mneme_desktop.ui.player_display.window import PlayerDisplayWindow
from tests.ui.player_display.fight import campaign_for_fight, run_fight


def shown(qtbot, document: CampaignDocument, theme: DisplayTheme, size: tuple[int, int]
          ) -> PlayerDisplayWindow:
    settings = Settings()
    settings.player_display_log = True
    feed = DisplayFeed(document, DisplayOptions.from_settings(settings))
    window = PlayerDisplayWindow(feed, theme, settings.player_display_text_pt)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(1)  # the columns are fitted once the event loop is free
    return window


def fought() -> CampaignDocument:
    campaign = campaign_for_fight()
    run_fight(campaign)
    return CampaignDocument(campaign)


def row_in_sight(window: PlayerDisplayWindow, row: int) -> bool:
    rect = window.table.visualRect(window.feed.turn_model.index(row, PlayerTurnModel.COL_NAME))
    return window.table.viewport().rect().contains(rect)


@pytest.mark.parametrize("theme", list(DisplayTheme))
@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768)])
def test_headings_have_room_and_every_combatant_is_on_screen(qtbot, theme, size):
    window = shown(qtbot, fought(), theme, size)
    header = window.table.horizontalHeader()
    heading = QFontMetricsF(header.font()).height()
    assert header.height() >= heading * 1.5  # the text touched the top edge at 1.0
    text = QFontMetricsF(window.table.font()).height()
    assert heading >= text * 0.65  # still big enough to read across the room
    model = window.feed.turn_model
    assert model.rowCount() == 7
    assert all(row_in_sight(window, row) for row in range(model.rowCount()))
    alignment = model.headerData(PlayerTurnModel.COL_HP, Qt.Orientation.Horizontal,
                                 Qt.ItemDataRole.TextAlignmentRole)
    assert alignment & int(Qt.AlignmentFlag.AlignRight)  # over the right-aligned numbers
    widths = [header.sectionSize(c) for c in range(model.columnCount())
              if not window.table.isColumnHidden(c)]
    assert sum(widths) <= window.table.viewport().width()  # nothing runs off the edge
    assert min(widths) >= text * 2  # nor is a column squeezed to nothing


def test_names_are_whole_on_a_full_hd_screen(qtbot):
    window = shown(qtbot, fought(), DisplayTheme.DARK, (1920, 1080))
    model = window.feed.turn_model
    option = QStyleOptionViewItem()
    option.font = window.table.font()
    for column in (PlayerTurnModel.COL_NAME, PlayerTurnModel.COL_WOUNDS):
        width = window.table.horizontalHeader().sectionSize(column)
        for row in range(model.rowCount()):
            need = window.delegate.sizeHint(option, model.index(row, column)).width()
            assert width >= need, model.index(row, column).data()


def test_a_fight_too_big_for_the_screen_keeps_whose_turn_it_is_in_sight(qtbot):
    document = fought()
    campaign = document.campaign
    encounter = next(e for e in campaign.encounters if e.started and not e.ended)
    template = campaign.adversary_library[0]
    push_patch(document, fight.add_adversaries_patch(campaign, encounter, template, 25,
                                                     Side.ENEMIES))
    # The newcomers roll low, so they join at the bottom of the order.
    builder = fight.PatchBuilder(campaign, encounter)
    for combatant in encounter.combatants[-25:]:
        builder.set(combatant, "initiative", -1)
    push_patch(document, builder.build("they arrive late"))
    window = shown(qtbot, document, DisplayTheme.LIGHT, (1366, 768))
    model = window.feed.turn_model
    assert not row_in_sight(window, model.rowCount() - 1)  # more than the screen holds
    rng = random.Random(5)
    for _ in range(model.rowCount() - 2):
        push_patch(document, fight.next_turn_patch(campaign, encounter, rng))
        qtbot.wait(1)
        now = window.feed.scene.now
        row = next(r for r in range(model.rowCount())
                   if model.index(r, PlayerTurnModel.COL_NAME).data() == now)
        assert row_in_sight(window, row), now
