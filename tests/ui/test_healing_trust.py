"""Issue 14, "Trust at the table", driven as a referee would: the medic's DM in the Healing
view, advances that stop where a roll is due (planner and toolbar clock) and offer it with
its odds, and advances under a plan that keep the patients' own regimes."""

from __future__ import annotations

import random

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
    Skill,
)
from mneme_desktop.domain.combat import first_aid_modifier
from mneme_desktop.rules.healing import Activity
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.healing_view import HealingView
from mneme_desktop.ui.views.time_controls import TimeControls, TimeUnit
from tests.ui.test_healing_time_controls import set_amount
from tests.ui.test_healing_view import pick, type_into

START = GameTime.at(3, 8)
STABLE_UNTIL = START.advance(hours=9)


def person(name: str, damage: int, *, edu: int = 8, **extra: object) -> Character:
    """HP 24: dying from 25 damage; END 9."""
    return Character(name=name, characteristics=Characteristics.of(7, 8, 9, 10, edu, 7),
                     damage=damage, **extra)  # type: ignore[arg-type]


def evan() -> Character:
    """Dying (26 > 24), stabilised by first aid for END 9 hours, no intensive care."""
    stable = Condition(kind=ConditionKind.STABILISED, detail="first aid", started_at=START,
                       expires_at=STABLE_UNTIL)
    return person("Evan", 26, conditions=[stable])


@pytest.fixture
def document(qapp) -> CampaignDocument:
    return CampaignDocument(Campaign(name="Trust", game_time=START, characters=[
        person("Ann", 10, recovery=Recovery(activity=Activity.FULL_REST, care=True)),
        person("Cyd", 4),
        person("Doc", 0, edu=9, skills=[Skill(name="Medic", level=2)]),
        evan(),
    ]))


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> HealingView:
    widget = HealingView(document, rng=random.Random(5))
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def named(document: CampaignDocument, name: str) -> Character:
    return next(c for c in document.campaign.characters if c.name == name)


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# --------------------------------------------------------------- 1. one medic DM


def test_first_aid_by_a_medic_uses_the_encounters_dm(qtbot, view: HealingView,
                                                     document: CampaignDocument) -> None:
    """The issue's medic: Medic 2, EDU 9 (+1), unhurt. The encounter rolls +3; the Healing
    view used to roll +2 (the skill alone)."""
    expected = first_aid_modifier(named(document, "Doc"))
    assert expected == 3
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Ann")
    pick(qtbot, view.medic_combo, "Doc (Medic 2)")
    assert view.check_label.text().startswith(f"2d6 {expected:+d} vs Difficulty 8")
    assert "Medic 2 +2, EDU +1, wounds +0" in view.check_label.text()
    qtbot.keyClicks(view.entered_edit, "2 4")
    click(qtbot, view.apply_entered_button)
    assert "dice at the table 4+2 +3 = 9 vs 8" in document.campaign.journal[-1].text


def test_first_aid_on_oneself_uses_the_patients_own_dm(qtbot, view: HealingView,
                                                       document: CampaignDocument) -> None:
    """Ann treats herself: unskilled -3, EDU 8 +0, her own wounds (10 damage) -3."""
    expected = first_aid_modifier(named(document, "Ann"))
    assert expected == -6
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Ann")
    click(qtbot, view.on_self_check)
    assert view.check_label.text().startswith(f"2d6 {expected:+d} vs Difficulty 10")


# ------------------------------------------------- 2. advances stop where rolls are due


def test_the_planner_stops_when_the_stabilisation_ends_and_offers_the_roll(
        qtbot, view: HealingView, document: CampaignDocument) -> None:
    view.set_characters([named(document, "Evan").id])
    assert view.advance_days_spin.value() == 7
    click(qtbot, view.advance_button)
    assert document.campaign.game_time == STABLE_UNTIL, "stopped after END hours, not 7 days"
    assert named(document, "Evan").damage == 26
    assert view.status_label.message().startswith("Stopped after 9 hours of 7 days under")
    assert view.roll_panel.isVisible()
    assert "a dying roll is due at Day 3, 17:00" in view.roll_panel.message_label.text()
    assert view.roll_panel.roll_button.text() == (
        "Roll the dying roll for Evan (2d6 -7 vs 4: 1/12 (8.3%))")
    assert document.undo_stack.count() == 1
    click(qtbot, view.roll_panel.roll_button)
    assert document.undo_stack.count() == 2
    assert document.campaign.journal[-1].title == "Dying roll: Evan"
    assert not view.roll_panel.roll_button.isVisible()
    assert "dying roll: rolled" in view.roll_panel.message_label.text()
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.campaign.game_time == START


def test_the_planner_shows_the_odds_before_anything_is_rolled(
        qtbot, view: HealingView, document: CampaignDocument) -> None:
    view.set_characters([named(document, "Evan").id])
    assert view.outlook_label.isVisible()
    assert "dying rolls resume then (END 2d6 -7 vs 4: 1/12 (8.3%) to survive" in (
        view.outlook_label.text())
    assert not view.roll_panel.isVisible()


def test_the_toolbar_clock_stops_and_offers_the_roll(qtbot, document: CampaignDocument) -> None:
    controls = TimeControls(document)
    qtbot.addWidget(controls)
    controls.show()
    qtbot.waitExposed(controls)
    summaries: list[str] = []
    controls.advanced.connect(summaries.append)
    set_amount(qtbot, controls, 2, TimeUnit.DAYS)
    click(qtbot, controls.advance_button)
    assert controls.clock_label.text() == "Day 3, 17:00"
    assert controls.roll_panel.isVisible()
    controls.roll_panel.rng = random.Random(3)
    assert controls.roll_panel.message_label.text() == (
        "Stopped after 9 hours. Evan: dying roll due at Day 3, 17:00 (2d6 -7 vs 4: 1/12 (8.3%))")
    assert summaries[-1].startswith("9 hours passed")
    assert "Stopped: Evan is Dying" in summaries[-1]
    # Advancing again does not move the clock: the rolls are due now.
    click(qtbot, controls.advance_button)
    assert controls.clock_label.text() == "Day 3, 17:00"
    assert controls.roll_panel.message_label.text().startswith("Not advanced. Evan:")
    assert document.undo_stack.count() == 1
    click(qtbot, controls.roll_panel.roll_button)
    assert document.undo_stack.count() == 2
    assert document.campaign.journal[-1].title == "Dying roll: Evan"
    assert summaries[-1].startswith("Evan: dying roll: rolled")


# ---------------------------------------------------- 3. plans keep the own regimes


def test_advancing_under_a_plan_keeps_own_regimes_and_says_whose_it_sets(
        qtbot, view: HealingView, document: CampaignDocument) -> None:
    ann, cyd = named(document, "Ann"), named(document, "Cyd")
    # Evan's stabilisation would stop the day after 9 hours: heal him out of the way.
    document.replace_character(named(document, "Evan").model_copy(
        update={"damage": 0, "conditions": []}))
    view.set_characters([ann.id, cyd.id])
    view.advance_plan_combo.setFocus()
    qtbot.keyClick(view.advance_plan_combo, Qt.Key.Key_Down)  # Plan B: Light + care
    assert view.advance_plan_combo.currentIndex() == 1
    type_into(qtbot, view.advance_days_spin, 1)
    click(qtbot, view.advance_button)
    assert document.campaign.game_time == START.advance(days=1)
    ann_after, cyd_after = named(document, "Ann"), named(document, "Cyd")
    assert ann_after.recovery is not None
    assert (ann_after.recovery.activity, ann_after.recovery.care) == (Activity.FULL_REST, True)
    assert cyd_after.recovery is not None
    assert (cyd_after.recovery.activity, cyd_after.recovery.care) == (Activity.LIGHT, True)
    assert "had no regime of their own" in view.status_label.message()
    count = document.undo_stack.count()
    document.undo_stack.undo()
    assert named(document, "Cyd").recovery is None
    assert named(document, "Ann").damage == 10
    assert document.undo_stack.index() == count - 1


def test_the_planner_says_whose_regime_an_advance_sets_before_it_is_made(
        qtbot, view: HealingView, document: CampaignDocument) -> None:
    view.set_characters([named(document, "Ann").id, named(document, "Cyd").id])
    view.advance_plan_combo.setFocus()
    qtbot.keyClick(view.advance_plan_combo, Qt.Key.Key_Down)
    assert view.regime_note_label.isVisible()
    assert view.regime_note_label.text() == (
        "Own regimes kept after the plan: Ann (full rest + care). "
        "Cyd has no regime: put on light activity + care (the plan's last day).")
    type_into(qtbot, view.advance_days_spin, 9)  # 7 days light + care, then it continues
    assert "put on light activity + care" in view.regime_note_label.text()


def test_unsupervised_intensive_care_stops_the_clock_each_day_for_its_roll(
        qtbot, document: CampaignDocument) -> None:
    patient = named(document, "Evan").model_copy(update={
        "conditions": [],
        "recovery": Recovery(activity=Activity.FULL_REST, care=True, since=START)})
    document.replace_character(patient)
    controls = TimeControls(document)
    qtbot.addWidget(controls)
    controls.show()
    qtbot.waitExposed(controls)
    set_amount(qtbot, controls, 3, TimeUnit.DAYS)
    click(qtbot, controls.advance_button)
    assert controls.clock_label.text() == "Day 4, 08:00"
    assert controls.roll_panel.roll_button.text() == "Roll it (2d6 +0 vs 8: 5/12 (41.7%))"
    assert "a failure means a dying roll (END 2d6 -7 vs 4: 1/12 (8.3%) to survive)" in (
        controls.roll_panel.toolTip())
    controls.roll_panel.rng = random.Random(5)  # the first roll succeeds: heals 2
    damage = named(document, "Evan").damage
    click(qtbot, controls.roll_panel.roll_button)
    assert document.campaign.journal[-1].title == "Intensive care: Evan"
    assert named(document, "Evan").damage == damage - 2
    assert document.undo_stack.count() == 2
    # Healed out of Dying (24 of HP 24): no roll is due, the next days run through.
    set_amount(qtbot, controls, 2, TimeUnit.DAYS)
    click(qtbot, controls.advance_button)
    assert controls.clock_label.text() == "Day 6, 08:00"
    assert not controls.roll_panel.isVisible()
