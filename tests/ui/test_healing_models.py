"""The Healing view's table models, each watched by Qt's model tester while it changes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtTest import QAbstractItemModelTester

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    Recovery,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.healing.infirmary import Infirmary, Medic, infirmary_report
from mneme_desktop.domain.healing.plan import HealingPlan, project_plan
from mneme_desktop.rules.healing import Activity, PlanSegment
from mneme_desktop.rules.wounds import WoundState
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.healing_models import (
    ComparisonModel,
    InfirmaryLoadModel,
    InfirmaryStaffModel,
    PatientListModel,
    PlanSegmentModel,
    ProjectionTableModel,
    characteristic_damage_text,
)
from mneme_desktop.ui.models.roles import CHOICES_ROLE, ID_ROLE, RULE_ROLE, VALUE_ROLE

REST, LIGHT = Activity.FULL_REST, Activity.LIGHT
CHECK = Qt.ItemDataRole.CheckStateRole
EDIT = Qt.ItemDataRole.EditRole


class ModelWatch:
    """Qt's model tester, reporting through warnings that the test then checks."""

    def __init__(self, model: QAbstractItemModel, qtlog) -> None:
        self.tester = QAbstractItemModelTester(
            model, QAbstractItemModelTester.FailureReportingMode.Warning)
        self._qtlog = qtlog

    def failures(self) -> list[str]:
        return [r.message for r in self._qtlog.records if "FAIL" in r.message]


def person(name: str, damage: int, **extra: object) -> Character:
    return Character(name=name, characteristics=Characteristics.of(7, 8, 9, 10, 8, 7),
                     damage=damage, **extra)  # type: ignore[arg-type]


@pytest.fixture
def document(qapp) -> CampaignDocument:
    campaign = Campaign(name="Healing", characters=[
        person("Ann", 10, recovery=Recovery(activity=REST, care=True)),
        person("Bob", 3),
        person("Dan", 30, conditions=[Condition(kind=ConditionKind.DEAD)]),
    ])
    return CampaignDocument(campaign)


def test_patient_list_shows_wounds_and_edits_regimes(document: CampaignDocument,
                                                     qtlog) -> None:
    model = PatientListModel(document)
    watch = ModelWatch(model, qtlog)
    ann, bob, dan = document.campaign.characters
    assert model.rowCount() == 3
    assert model.data(model.index(0, model.DAMAGE)) == "10/24"
    assert model.data(model.index(0, model.STATE)) == "Seriously Wounded"
    assert "floor(HP/3) = 8" in model.data(model.index(0, model.STATE), RULE_ROLE)
    assert "moderate care" in model.data(model.index(0, model.STATE), RULE_ROLE)
    assert model.data(model.index(0, model.ACTIVITY)) == "full rest"
    assert model.data(model.index(1, model.ACTIVITY)) == "no regime"
    assert model.data(model.index(0, model.CARE), CHECK) == Qt.CheckState.Checked
    assert model.data(model.index(0, model.NAME), ID_ROLE) == ann.id
    assert ("no regime", "") in model.data(model.index(0, model.ACTIVITY), CHOICES_ROLE)
    # The dead cannot be planned for or put on a regime.
    assert not model.flags(model.index(2, model.NAME)) & Qt.ItemFlag.ItemIsUserCheckable
    assert not model.setData(model.index(2, model.NAME), Qt.CheckState.Checked, CHECK)

    with_signals = []
    model.checked_changed.connect(lambda: with_signals.append(model.checked_ids()))
    assert model.setData(model.index(1, model.NAME), Qt.CheckState.Checked.value, CHECK)
    assert model.checked_ids() == [bob.id]
    model.set_checked_ids([dan.id, ann.id, bob.id, "nobody"])
    assert model.checked_ids() == [ann.id, bob.id]
    assert with_signals == [[bob.id], [ann.id, bob.id]]

    # Regime edits are undoable character edits.
    assert model.setData(model.index(1, model.ACTIVITY), "light", EDIT)
    assert document.character(bob.id).recovery.activity is LIGHT
    assert document.character(bob.id).recovery.since == document.campaign.game_time
    assert model.setData(model.index(1, model.CARE), Qt.CheckState.Checked, CHECK)
    assert document.character(bob.id).recovery.care
    assert model.setData(model.index(0, model.ACTIVITY), "", EDIT)
    assert document.character(ann.id).recovery is None
    assert document.undo_stack.count() == 3
    document.undo_stack.undo()
    assert document.character(ann.id).recovery.activity is REST
    document.undo_stack.undo()
    assert not document.character(bob.id).recovery.care

    # Removing a character keeps the checked list honest.
    document.campaign.characters.pop(0)
    document.announce(ChangeSummary(structure_changed=True))
    assert model.rowCount() == 2
    assert model.checked_ids() == [bob.id]
    assert watch.failures() == []


def test_plan_segments_edit_in_place(qtlog) -> None:
    model = PlanSegmentModel(HealingPlan.single(REST, False, 4, "Rest"))
    watch = ModelWatch(model, qtlog)
    changed = []
    model.plan_changed.connect(lambda: changed.append(model.plan()))
    assert model.data(model.index(0, model.ACTIVITY)) == "full rest"
    assert model.setData(model.index(0, model.ACTIVITY), "light", EDIT)
    assert model.setData(model.index(0, model.CARE), Qt.CheckState.Checked, CHECK)
    assert model.setData(model.index(0, model.DAYS), 3, EDIT)
    assert not model.setData(model.index(0, model.DAYS), 0, EDIT)
    assert not model.setData(model.index(0, model.ACTIVITY), "sprinting", EDIT)
    assert model.plan().segments == (PlanSegment(LIGHT, True, 3),)
    assert model.add_segment() == 1
    assert model.plan().total_days == 6
    assert model.remove_segment(0)
    assert not model.remove_segment(0), "a plan keeps one segment"
    model.set_name("Walk")
    model.set_therapy(False)
    assert model.plan() == HealingPlan((PlanSegment(LIGHT, True, 3),), "Walk", False)
    model.set_plan(HealingPlan.single(REST, True, 9))
    assert model.rowCount() == 1
    assert len(changed) == 8
    assert watch.failures() == []


def test_projection_table_marks_changes_and_the_healed_day(qtlog) -> None:
    model = ProjectionTableModel()
    watch = ModelWatch(model, qtlog)
    character = person("Ann", 10)
    character.characteristic_damage.intelligence = 1
    plan = HealingPlan((PlanSegment(REST, True, 2), PlanSegment(LIGHT, False, 4),
                        PlanSegment(REST, False, 1)), "Mixed")
    projection = project_plan(character, plan)
    model.set_projection(projection, document_time := Campaign(name="c").game_time)
    assert model.rowCount() == 13 + 3
    day5 = model.row_for_day(5)
    assert model.data(model.index(day5, model.NOTE)) == "now Wounded"
    assert model.data(model.index(day5, model.RATE)) == "-1 dmg / 3 days"
    assert model.data(model.index(day5, model.RULE)) == (
        "Seriously Wounded, light activity: -1 dmg / 3 days")
    assert model.data(model.index(day5, model.DAMAGE)) == "8 → 7"
    assert model.data(model.index(day5, model.STATE), VALUE_ROLE) is (
        WoundState.SERIOUSLY_WOUNDED)
    assert model.data(model.index(day5, 0), Qt.ItemDataRole.FontRole).bold()
    assert model.data(model.index(model.row_for_day(3), model.PROGRESS)) == "1/3"
    assert model.data(model.index(model.row_for_day(7), model.NOTE)) == "last plan day"
    continuing = model.index(model.row_for_day(8), model.NOTE)
    assert model.data(continuing, Qt.ItemDataRole.ForegroundRole) is not None
    healed = model.row_for_day(13)
    assert model.data(model.index(healed, model.NOTE)) == "fully healed"
    assert model.data(model.index(healed, model.DATE)) == document_time.advance(days=13).label
    therapy = model.row_for_day(16)
    assert model.data(model.index(therapy, model.DAMAGE)) == "INT 1 → 0"
    assert model.data(model.index(therapy, model.NOTE)) == "INT +1; all restored"
    assert model.data(model.index(therapy, model.PROGRESS), VALUE_ROLE) == Fraction(0)
    model.set_projection(None, None)
    assert model.rowCount() == 0
    assert watch.failures() == []


def test_comparison_of_two_plans(qtlog) -> None:
    model = ComparisonModel()
    watch = ModelWatch(model, qtlog)
    ann, bob = person("Ann", 10), person("Bob", 17)
    rest, light = (HealingPlan.single(REST, True, 5, "Rest"),
                   HealingPlan.single(LIGHT, True, 5, "Light"))
    rows = [(project_plan(c, rest), project_plan(c, light)) for c in (ann, bob)]
    model.set_rows(rows, Campaign(name="c").game_time)
    assert model.rowCount() == 2
    # Ann: 10 -> 7 at 1/day seriously wounded, then 2/day wounded: healed on day 7.
    assert model.data(model.index(0, model.A_HEALED)) == "day 7"
    assert model.data(model.index(1, model.B_HEALED)) == "never"
    assert model.data(model.index(1, model.A_HEALED), Qt.ItemDataRole.FontRole).bold()
    assert model.data(model.index(0, model.A_FIT), VALUE_ROLE) == rows[0][0].fit_day
    assert model.headerData(model.A_FIT, Qt.Orientation.Horizontal,
                            Qt.ItemDataRole.ToolTipRole).startswith("Rest:")
    model.set_plan_names("R", "L")
    assert model.headerData(model.B_FIT, Qt.Orientation.Horizontal,
                            Qt.ItemDataRole.ToolTipRole).startswith("L:")
    model.set_rows([], None)
    assert model.rowCount() == 0
    assert watch.failures() == []


def test_staff_and_load_models(qtlog) -> None:
    staff = InfirmaryStaffModel(Infirmary(medics=[Medic(name="Doc", level=1)]))
    load = InfirmaryLoadModel()
    watches = [ModelWatch(staff, qtlog), ModelWatch(load, qtlog)]
    edited: list[Infirmary] = []
    rejected: list[str] = []
    staff.infirmary_edited.connect(edited.append)
    staff.edit_rejected.connect(rejected.append)
    assert staff.data(staff.index(0, staff.CAPACITY)) == "16"
    assert staff.setData(staff.index(0, staff.LEVEL), 3, EDIT)
    assert edited[-1].medics[0].level == 3
    assert staff.data(staff.index(0, staff.LEVEL)) == "1", "the view stores, then sets"
    staff.set_infirmary(edited[-1])
    assert staff.data(staff.index(0, staff.CAPACITY)) == "64"
    assert not staff.setData(staff.index(0, staff.NAME), "", EDIT)
    assert rejected and "Medic not changed" in rejected[0]
    assert not staff.setData(staff.index(0, staff.CAPACITY), 5, EDIT)

    patients = [person("Ann", 10, recovery=Recovery(care=True)),
                person("Evan", 26, recovery=Recovery(care=True))]
    load.set_report(infirmary_report(edited[-1], patients))
    assert load.rowCount() == 2
    assert [load.data(load.index(r, load.CARE)) for r in range(2)] == [
        "moderate care", "intensive care"]
    assert load.data(load.index(1, load.LOAD), VALUE_ROLE) == 8
    assert "1 intensive care patient = 8 light care" in load.data(
        load.index(1, load.LOAD), RULE_ROLE)
    assert all(w.failures() == [] for w in watches)


def test_characteristic_damage_text() -> None:
    character = person("Ann", 0)
    assert characteristic_damage_text(character) == ""
    character.characteristic_damage.education = 2
    character.characteristic_damage.psionic_strength = 1
    assert characteristic_damage_text(character) == "EDU 2, PSI 1"
