"""The Healing view driven as a referee would: plans, projections, advancing days, medical
events and the infirmary's capacity warning."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QSpinBox,
    QTableView,
)

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
from mneme_desktop.rules.checks import roll_check
from mneme_desktop.rules.healing import (
    Activity,
    first_aid_healing,
    recovery_days,
    roll_intensive_care,
)
from mneme_desktop.rules.wounds import WoundState, roll_dying
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.healing_models import PatientListModel, PlanSegmentModel
from mneme_desktop.ui.views.healing_view import HealingView
from tests.ui.test_healing_models import ModelWatch

REST, LIGHT = Activity.FULL_REST, Activity.LIGHT
START = GameTime.at(3, 8)


def person(name: str, damage: int, **extra: object) -> Character:
    """HP 24: wounded 1-7, seriously 8-15, critically 16-24, dying 25+; END 9."""
    return Character(name=name, characteristics=Characteristics.of(7, 8, 9, 10, 8, 7),
                     damage=damage, **extra)  # type: ignore[arg-type]


@pytest.fixture
def document(qapp) -> CampaignDocument:
    campaign = Campaign(name="Healing", game_time=START, characters=[
        person("Ann", 10, recovery=Recovery(activity=REST, care=True)),
        person("Bob", 17),
        person("Cyd", 4),
        person("Doc", 0, skills=[Skill(name="Medic", level=2)]),
        person("Evan", 26, recovery=Recovery(activity=REST, care=True)),
    ])
    return CampaignDocument(campaign)


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> HealingView:
    widget = HealingView(document, rng=random.Random(11))
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def ids(document: CampaignDocument) -> dict[str, str]:
    return {c.name: c.id for c in document.campaign.characters}


def sheet(document: CampaignDocument, name: str) -> Character:
    found = document.character(ids(document)[name])
    assert found is not None
    return found


# --- driving widgets ---------------------------------------------------------------------


def pick(qtbot, combo: QComboBox, text: str) -> None:
    """Open the combo's list and click the item, as a user does."""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} not in the list"
    combo.showPopup()
    popup = combo.view()
    qtbot.waitUntil(popup.isVisible)
    rect = popup.visualRect(popup.model().index(index, combo.modelColumn()))
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: not popup.isVisible())


def type_into(qtbot, spin: QAbstractSpinBox, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Enter)
    assert isinstance(spin, QSpinBox) and spin.value() == value


def click_cell(qtbot, table: QTableView, index: QModelIndex) -> None:
    rect = table.visualRect(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def edit_cell(qtbot, table: QTableView, index: QModelIndex, *, spin: int | None = None,
              combo_steps: int = 0) -> None:
    """Open the cell's editor by double-click, change it by keyboard, commit with Enter."""
    table.scrollTo(index)
    rect = table.visualRect(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    if table.state() != QTableView.State.EditingState:
        qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: table.state() == QTableView.State.EditingState)
    editor = table.findChild(QSpinBox if spin is not None else QComboBox,
                             "integerCellEditor" if spin is not None else "choiceCellEditor")
    assert editor is not None
    if spin is not None:
        editor.selectAll()
        qtbot.keyClicks(editor, str(spin))
    key = Qt.Key.Key_Down if combo_steps > 0 else Qt.Key.Key_Up
    for _ in range(abs(combo_steps)):
        qtbot.keyClick(editor, key)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.state() != QTableView.State.EditingState)


def choose(qtbot, button: QAbstractButton) -> None:
    """Click a radio button or check box on its indicator."""
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton,
                     pos=QPoint(button.height() // 2, button.height() // 2))


def toggle_check(qtbot, table: QTableView, index: QModelIndex) -> None:
    """Move to the cell and press Space, as a keyboard user does."""
    before = index.data(Qt.ItemDataRole.CheckStateRole)
    table.setFocus()
    table.setCurrentIndex(index)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert index.data(Qt.ItemDataRole.CheckStateRole) != before


# --- the planner ------------------------------------------------------------------------


def test_injured_characters_are_preselected_and_set_characters_narrows(
        view: HealingView, document: CampaignDocument) -> None:
    names = ids(document)
    assert view.patients_model.checked_ids() == [names[n] for n in ("Ann", "Bob", "Cyd",
                                                                    "Evan")]
    view.set_characters([names["Bob"], names["Doc"]])
    assert view.patients_model.checked_ids() == [names["Bob"], names["Doc"]]
    assert view.focus_combo.currentText() == "Bob"
    assert view.comparison_model.rowCount() == 2


@pytest.mark.parametrize(("preset", "activity", "care"), [
    ("Full rest", REST, False),
    ("Full rest + care", REST, True),
    ("Light activity", LIGHT, False),
    ("Light + care", LIGHT, True),
])
def test_single_regime_projections_match_the_rules_core(qtbot, view: HealingView,
                                                        document: CampaignDocument,
                                                        preset: str, activity: Activity,
                                                        care: bool) -> None:
    pick(qtbot, view.plan_b.preset_combo, preset)
    assert view.plan_b.name_edit.text() == preset
    assert view.plan_b.plan().segments[0].activity is activity
    for character in document.campaign.characters:
        pair = view.projection(character.id)
        if pair is None:
            continue
        expected = recovery_days(character.damage, character.hit_points, activity, care)
        assert pair[1].healed_day == expected, character.name
        row = view.patients_model.checked_ids().index(character.id)
        shown = view.comparison_model.index(row, view.comparison_model.B_HEALED).data()
        assert shown == ("never" if expected is None else f"day {expected}")


def test_hand_worked_plan_built_in_the_editor(qtbot, view: HealingView,
                                              document: CampaignDocument) -> None:
    """Ann (HP 24, damage 10): 2 days full rest + care, 4 days light activity, then full
    rest: 10, 9, 8 | 8, 8, 7 (Wounded on day 5), 7 | 6, 5, 4, 3, 2, 1, 0 on day 13."""
    editor = view.plan_a
    table = editor.table
    model = editor.model
    pick(qtbot, editor.preset_combo, "Full rest + care")
    edit_cell(qtbot, table, model.index(0, PlanSegmentModel.DAYS), spin=2)
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    edit_cell(qtbot, table, model.index(1, PlanSegmentModel.ACTIVITY), combo_steps=1)
    toggle_check(qtbot, table, model.index(1, PlanSegmentModel.CARE))
    edit_cell(qtbot, table, model.index(1, PlanSegmentModel.DAYS), spin=4)
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    edit_cell(qtbot, table, model.index(2, PlanSegmentModel.ACTIVITY), combo_steps=-1)
    edit_cell(qtbot, table, model.index(2, PlanSegmentModel.DAYS), spin=1)
    plan = editor.plan()
    assert [(s.activity, s.care, s.days) for s in plan.segments] == [
        (REST, True, 2), (LIGHT, False, 4), (REST, False, 1)]
    assert editor.total_label.text() == "7 days"

    view.focus_character(ids(document)["Ann"])
    first, _ = view.projection(ids(document)["Ann"])
    assert [r.damage_end for r in first.healing] == [9, 8, 8, 8, 7, 7, 6, 5, 4, 3, 2, 1, 0]
    assert (first.fit_day, first.healed_day) == (5, 13)
    series = view.chart.series[0]
    assert series.steps[-1] == (13, 0)
    assert series.state_changes == ((5, 7), (13, 0))
    table_model = view.projection_a
    row = table_model.row_for_day(5)
    assert table_model.index(row, table_model.NOTE).data() == "now Wounded"
    assert table_model.index(row, table_model.RULE).data() == (
        "Seriously Wounded, light activity: -1 dmg / 3 days")
    assert "Fit to fight on day 5, fully healed on day 13" in view.outcome_label.text()

    qtbot.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
    assert editor.model.rowCount() == 2


def test_advancing_days_changes_damage_state_and_clock_and_undo_restores(
        qtbot, view: HealingView, document: CampaignDocument, qtlog) -> None:
    watches = [ModelWatch(m, qtlog) for m in (
        view.patients_model, view.comparison_model, view.projection_a, view.projection_b,
        view.plan_a.model, view.load_model, view.staff_model)]
    names = ids(document)
    # Evan is Dying in intensive care: an AI sickbay supervises it, so no roll stops the
    # clock (tests/ui/test_healing_trust.py covers the unsupervised stop).
    document.campaign.infirmary.ai_supervision = True
    view.set_characters([names["Ann"]])
    pick(qtbot, view.plan_a.preset_combo, "Full rest + care")
    type_into(qtbot, view.advance_days_spin, 3)
    journal_before = len(document.campaign.journal)
    qtbot.mouseClick(view.advance_button, Qt.MouseButton.LeftButton)
    ann = sheet(document, "Ann")
    assert ann.damage == 7
    assert ann.wound_state() is WoundState.WOUNDED
    assert document.campaign.game_time == START.advance(days=3)
    assert len(document.campaign.journal) == journal_before + 1
    assert "Ann: healed 3 (damage 10 → 7)" in view.status_label.message()
    # Evan is on his own regime (full rest + intensive care): 1 point per 3 days.
    assert sheet(document, "Evan").damage == 25
    # The projection now starts from the new damage.
    assert view.projection(names["Ann"])[0].start_damage == 7
    assert document.undo_stack.count() == 1

    document.undo_stack.undo()
    ann = sheet(document, "Ann")
    assert ann.damage == 10
    assert ann.wound_state() is WoundState.SERIOUSLY_WOUNDED
    assert document.campaign.game_time == START
    assert len(document.campaign.journal) == journal_before
    assert sheet(document, "Evan").damage == 26
    assert view.projection(names["Ann"])[0].start_damage == 10
    document.undo_stack.redo()
    assert sheet(document, "Ann").damage == 7
    assert all(w.failures() == [] for w in watches)


def test_advance_needs_someone_to_plan_for(qtbot, view: HealingView) -> None:
    view.set_characters([])
    assert not view.advance_button.isEnabled()
    assert view.chart.track is None


def test_regime_edited_in_the_patient_list(qtbot, view: HealingView,
                                           document: CampaignDocument) -> None:
    table = view.patients_table
    model = view.patients_model
    cyd_row = model.row_of(ids(document)["Cyd"])
    edit_cell(qtbot, table, model.index(cyd_row, PatientListModel.ACTIVITY), combo_steps=2)
    assert sheet(document, "Cyd").recovery.activity is LIGHT
    toggle_check(qtbot, table, model.index(cyd_row, PatientListModel.CARE))
    assert sheet(document, "Cyd").recovery.care
    assert sheet(document, "Cyd").recovery.since == START
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert sheet(document, "Cyd").recovery is None


# --- medical care ------------------------------------------------------------------------


def test_first_aid_rolled_with_the_injected_random(qtbot, view: HealingView,
                                                   document: CampaignDocument) -> None:
    names = ids(document)
    ann = sheet(document, "Ann")
    ann_bleeding = ann.model_copy(deep=True)
    ann_bleeding.conditions = [Condition(kind=ConditionKind.BLEEDING, started_at=START)]
    document.replace_character(ann_bleeding)
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Ann")
    pick(qtbot, view.medic_combo, "Doc (Medic 2)")
    assert view.medic_skill_spin.value() == 2
    assert view.check_label.text().startswith("2d6 +2 vs Difficulty 8")
    expected = roll_check(random.Random(11), 2, 8)
    qtbot.mouseClick(view.roll_button, Qt.MouseButton.LeftButton)
    after = sheet(document, "Ann")
    healed = first_aid_healing(expected.effect)
    assert after.damage == 10 + 3 - healed  # three minutes of bleeding first
    assert after.has_condition(ConditionKind.BLEEDING) is not expected.success
    assert document.campaign.game_time == START.advance(minutes=3)
    assert document.campaign.journal[-1].title == "First aid: Ann"
    assert "first aid by Doc" in view.result_label.text()
    document.undo_stack.undo()
    assert sheet(document, "Ann").damage == 10
    assert document.campaign.game_time == START
    assert names["Ann"] in view.patients_model.checked_ids()


def test_entered_roll_and_surgery_needs_a_sickbay(qtbot, view: HealingView,
                                                  document: CampaignDocument) -> None:
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Bob")
    choose(qtbot, view.surgery_radio)
    assert "hospital or sickbay" in view.requirement_label.text()
    assert not view.roll_button.isEnabled()
    view.tabs.setCurrentIndex(2)
    choose(qtbot, view.sickbay_check)
    assert view.infirmary.sickbay
    view.tabs.setCurrentIndex(1)
    assert view.requirement_label.text() == ""
    assert view.apply_entered_button.isEnabled()
    type_into(qtbot, view.medic_skill_spin, 1)
    qtbot.keyClicks(view.entered_edit, "5 6")
    qtbot.mouseClick(view.apply_entered_button, Qt.MouseButton.LeftButton)
    # 2d6 6+5 + Medic 1 = 12 vs 8: Effect 4 heals 8.
    assert sheet(document, "Bob").damage == 9
    assert document.campaign.game_time == START.advance(minutes=30)
    assert "dice at the table 6+5 +1 = 12 vs 8 (Effect +4)" in view.result_label.text()


def test_intensive_care_at_the_table_asks_for_the_dying_roll_before_recording(
        qtbot, view: HealingView, document: CampaignDocument) -> None:
    """Table dice for intensive care: a failed roll needs the dying roll's dice too; without
    them nothing is recorded (no dying roll is made up, as the old default of 7 was)."""
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Evan")
    choose(qtbot, view.intensive_radio)
    steps = document.undo_stack.count()
    qtbot.keyClicks(view.entered_edit, "1 1")
    qtbot.mouseClick(view.apply_entered_button, Qt.MouseButton.LeftButton)
    assert "type the dying roll's two dice too" in view.status_label.message()
    assert document.undo_stack.count() == steps
    assert sheet(document, "Evan").damage == 26
    qtbot.keyClicks(view.dying_edit, "6 6")
    qtbot.mouseClick(view.apply_entered_button, Qt.MouseButton.LeftButton)
    assert document.undo_stack.count() == steps + 1
    assert not sheet(document, "Evan").has_condition(ConditionKind.DEAD)
    qtbot.keyClicks(view.entered_edit, " 7")
    qtbot.mouseClick(view.apply_entered_button, Qt.MouseButton.LeftButton)
    assert document.undo_stack.count() == steps + 1  # "1 1 7" refused, nothing recorded


def test_intensive_care_unsupervised_then_supervised(qtbot, view: HealingView,
                                                     document: CampaignDocument) -> None:
    view.tabs.setCurrentIndex(1)
    pick(qtbot, view.event_patient_combo, "Ann")
    choose(qtbot, view.intensive_radio)
    assert "not dying" in view.requirement_label.text()
    pick(qtbot, view.event_patient_combo, "Evan")
    assert view.requirement_label.text() == ""
    assert not view.dying_edit.isHidden()
    replay = random.Random(11)
    result = roll_intensive_care(replay, 0)
    dying = roll_dying(replay, 9, 26) if result.dying_roll_required else None
    qtbot.mouseClick(view.roll_button, Qt.MouseButton.LeftButton)
    evan = sheet(document, "Evan")
    assert evan.damage == 26 - result.healed
    assert evan.has_condition(ConditionKind.DEAD) is (dying is not None and not dying.survived)
    document.undo_stack.undo()

    view.tabs.setCurrentIndex(2)
    choose(qtbot, view.ai_check)
    view.tabs.setCurrentIndex(1)
    assert view.roll_button.text() == "Apply supervised care"
    assert view.dying_edit.isHidden()
    qtbot.mouseClick(view.roll_button, Qt.MouseButton.LeftButton)
    assert sheet(document, "Evan").damage == 24
    assert "under supervision: no roll" in view.result_label.text()


# --- the infirmary ------------------------------------------------------------------------


def test_capacity_warning_appears_and_clears(qtbot, view: HealingView,
                                             document: CampaignDocument, qtlog) -> None:
    watches = [ModelWatch(m, qtlog) for m in (view.staff_model, view.load_model,
                                              view.patients_model)]
    view.tabs.setCurrentIndex(2)
    # Ann (seriously wounded: moderate care, 2) and Evan (dying: intensive, 8), no medics.
    assert view.load_model.rowCount() == 2
    assert not view.warning_label.isHidden()
    assert "need 10 light-care units, the medics can give 0" in view.warning_label.text()
    assert "Add one Medic 1 medic" in view.warning_label.text()

    type_into(qtbot, view.add_medic_level_spin, 1)
    qtbot.mouseClick(view.add_medic_button, Qt.MouseButton.LeftButton)
    assert view.staff_model.rowCount() == 1
    assert view.warning_label.isHidden()
    assert "capacity 16" in view.capacity_label.text()

    # Bob (critically wounded: serious care, 4) comes under care: 14 of 16, still fine;
    # Cyd (light, 1) too: 15. Then the medic leaves.
    bob_row = view.patients_model.row_of(ids(document)["Bob"])
    toggle_check(qtbot, view.patients_table,
                 view.patients_model.index(bob_row, PatientListModel.CARE))
    assert view.load_model.rowCount() == 3
    assert view.warning_label.isHidden()
    click_cell(qtbot, view.staff_table, view.staff_model.index(0, 0))
    qtbot.mouseClick(view.remove_medic_button, Qt.MouseButton.LeftButton)
    assert not view.warning_label.isHidden()
    assert "14 short" in view.warning_label.text()

    # A Medic 2 character as medic (32) fixes it; undoing Bob's care lowers the load.
    pick(qtbot, view.add_from_combo, "Doc (Medic 2)")
    qtbot.mouseClick(view.add_from_button, Qt.MouseButton.LeftButton)
    assert view.warning_label.isHidden()
    assert view.staff_model.index(0, 0).data() == "Doc"
    # The infirmary is saved with the campaign, so medic changes are undo steps too:
    # undo adding Doc, removing the medic, then Bob's care.
    for _ in range(3):
        document.undo_stack.undo()
    assert view.load_model.rowCount() == 2
    assert view.staff_model.rowCount() == 1
    assert all(w.failures() == [] for w in watches)


def test_supervisor_doubles_the_staff(qtbot, view: HealingView) -> None:
    view.tabs.setCurrentIndex(2)
    qtbot.mouseClick(view.add_medic_button, Qt.MouseButton.LeftButton)  # Medic 0: 8
    assert not view.warning_label.isHidden()
    type_into(qtbot, view.supervisor_spin, 2)
    assert view.infirmary.supervisor is not None
    assert view.infirmary.capacity.total == 8 + 8 + 32
    assert view.warning_label.isHidden()
    assert "doubled by the supervisor +8" in view.capacity_label.text()
    edit_cell(qtbot, view.staff_table, view.staff_model.index(0, 1), spin=3)
    assert view.infirmary.medics[0].level == 3


# --- a look at it -------------------------------------------------------------------------


def test_render_for_a_few_injured_characters(qtbot, view: HealingView) -> None:
    view.resize(1280, 800)
    image = view.grab()
    path = Path("/tmp/healing.png")
    assert image.save(str(path))
    assert path.stat().st_size > 10_000
    assert image.width() >= 1280 and image.height() >= 800


def test_the_infirmary_is_undoable(qtbot) -> None:
    """Staffing the campaign's infirmary is one step on the undo stack."""
    document = CampaignDocument(Campaign(name="Kept", characters=[
        person("Evan", 26, recovery=Recovery(activity=REST, care=True))]))
    widget = HealingView(document)
    qtbot.addWidget(widget)
    widget.show()
    widget.tabs.setCurrentIndex(2)
    assert not widget.warning_label.isHidden()
    qtbot.mouseClick(widget.add_medic_button, Qt.MouseButton.LeftButton)
    assert document.campaign.infirmary.medics[0].level == 0
    assert document.undo_stack.undoText() == "Add medic"
    assert widget.warning_label.isHidden()
    document.undo_stack.undo()
    assert document.campaign.infirmary.medics == []
    assert widget.staff_model.rowCount() == 0
    assert not widget.warning_label.isHidden()


def test_a_hidden_planner_catches_up_when_shown(view: HealingView, document, monkeypatch):
    from mneme_desktop.ui import commands

    refreshed: list[bool] = []
    original = view._refresh_projections
    monkeypatch.setattr(view, "_refresh_projections",
                        lambda: (refreshed.append(True), original())[1])
    view.hide()
    cyd = next(c for c in document.campaign.characters if c.name == "Cyd")
    for damage in (5, 6, 7):
        commands.edit_character(document, cyd, "Wound", lambda c, d=damage: setattr(
            c, "damage", d))
        cyd = document.campaign.find_character(cyd.id)
    assert refreshed == []  # nothing projected while nobody looks
    view.show()
    assert refreshed == [True]  # once, with the latest sheet


def test_a_refused_edit_on_the_infirmary_tab_is_said_under_the_tabs(qtbot, view) -> None:
    """The message line sits under every tab, and table edits' refusals reach it."""
    from PySide6.QtWidgets import QAbstractSpinBox, QApplication

    view.tabs.setCurrentIndex(2)
    qtbot.mouseClick(view.add_medic_button, Qt.MouseButton.LeftButton)
    assert view.status_label.isVisible()
    index = view.staff_model.index(0, view.staff_model.LEVEL)
    view.staff_table.setCurrentIndex(index)
    view.staff_table.edit(index)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QAbstractSpinBox)
    editor.lineEdit().selectAll()
    qtbot.keyClicks(editor, "99")
    assert "runs from" in view.status_label.message()


def test_the_planner_result_goes_when_its_step_is_undone(qtbot, view) -> None:
    view.status_label.show_message("Advanced 3 days: Ann healed 3")
    from mneme_desktop.domain.edits import Patch, SetClock
    from mneme_desktop.ui.commands import push_patch

    before = view.document.campaign.game_time
    push_patch(view.document, Patch("Advance", (SetClock(before, before.advance(days=1)),)))
    view.status_label.show_message("Advanced 1 day")
    view.document.undo_stack.undo()
    assert view.status_label.message() == ""
