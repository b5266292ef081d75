"""The campaign clock widget: advancing by rounds, minutes, hours or days as one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    GameTime,
    Recovery,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.healing import Activity
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.time_controls import TimeControls, TimeUnit

START = GameTime.at(2, 9, 30)


@pytest.fixture
def document(qapp) -> CampaignDocument:
    bleeding = Character(
        name="Bea", characteristics=Characteristics.of(7, 8, 9, 7, 7, 7), damage=4,
        conditions=[Condition(kind=ConditionKind.BLEEDING, started_at=START)])
    resting = Character(
        name="Rex", characteristics=Characteristics.of(7, 8, 9, 7, 7, 7), damage=10,
        recovery=Recovery(activity=Activity.FULL_REST, care=True))
    return CampaignDocument(Campaign(name="Clock", game_time=START,
                                     characters=[bleeding, resting]))


@pytest.fixture
def controls(qtbot, document: CampaignDocument) -> TimeControls:
    widget = TimeControls(document)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def set_amount(qtbot, controls: TimeControls, amount: int, unit: TimeUnit) -> None:
    spin = controls.amount_spin
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(amount))
    combo = controls.unit_combo
    combo.setFocus()
    while controls.unit is not unit:
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert spin.value() == amount


def damage(document: CampaignDocument, name: str) -> int:
    return next(c.damage for c in document.campaign.characters if c.name == name)


def test_the_label_shows_the_campaign_clock(controls: TimeControls) -> None:
    assert controls.clock_label.text() == "Day 2, 09:30"
    assert [controls.unit_combo.itemText(i) for i in range(4)] == [
        "rounds", "minutes", "hours", "days"]


def test_minutes_bleed_and_undo_puts_everything_back(qtbot, controls: TimeControls,
                                                     document: CampaignDocument) -> None:
    summaries: list[str] = []
    controls.advanced.connect(summaries.append)
    set_amount(qtbot, controls, 5, TimeUnit.MINUTES)
    qtbot.mouseClick(controls.advance_button, Qt.MouseButton.LeftButton)
    assert controls.clock_label.text() == "Day 2, 09:35"
    assert damage(document, "Bea") == 9
    assert document.undo_stack.count() == 1
    assert document.undo_stack.undoText() == "Advance the clock 5 minutes"
    assert summaries and "Bea: bled 5 (damage 4 → 9)" in summaries[0]
    document.undo_stack.undo()
    assert controls.clock_label.text() == "Day 2, 09:30"
    assert damage(document, "Bea") == 4
    assert document.campaign.journal == []


def test_rounds_are_six_seconds(qtbot, controls: TimeControls,
                                document: CampaignDocument) -> None:
    set_amount(qtbot, controls, 9, TimeUnit.ROUNDS)
    qtbot.mouseClick(controls.advance_button, Qt.MouseButton.LeftButton)
    assert document.campaign.game_time == START.advance(seconds=54)
    assert controls.clock_label.text() == "Day 2, 09:30:54"
    assert damage(document, "Bea") == 4
    set_amount(qtbot, controls, 1, TimeUnit.ROUNDS)
    qtbot.mouseClick(controls.advance_button, Qt.MouseButton.LeftButton)
    assert damage(document, "Bea") == 5, "a minute after the wound"


def test_days_heal_the_resting(qtbot, controls: TimeControls,
                               document: CampaignDocument) -> None:
    bea = document.campaign.characters[0].model_copy(deep=True)
    bea.conditions = []
    document.replace_character(bea)
    set_amount(qtbot, controls, 2, TimeUnit.DAYS)
    qtbot.mouseClick(controls.advance_button, Qt.MouseButton.LeftButton)
    assert controls.clock_label.text() == "Day 4, 09:30"
    assert damage(document, "Rex") == 8  # seriously wounded, full rest + care: 1 a day
    assert "Rex: healed 2" in controls.clock_label.toolTip()
    assert "Bea has no healing regime" in controls.clock_label.toolTip()


def test_hours_and_a_second_document(qtbot, controls: TimeControls,
                                     document: CampaignDocument) -> None:
    set_amount(qtbot, controls, 3, TimeUnit.HOURS)
    assert TimeUnit.HOURS.describe(1) == "1 hour"
    other = CampaignDocument(Campaign(name="Other"))
    controls.set_document(other)
    assert controls.clock_label.text() == "Day 1, 00:00"
    qtbot.mouseClick(controls.advance_button, Qt.MouseButton.LeftButton)
    assert other.campaign.game_time == GameTime.at(1, 3)
    assert document.campaign.game_time == START
    document.changed.emit(ChangeSummary(time_changed=True))
    assert controls.clock_label.text() == "Day 1, 03:00"
    controls.set_document(None)
    assert not controls.isEnabled()
