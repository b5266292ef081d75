"""The healing planner projects each plan once per patient: counted calls of project_plan,
not times (opening it had projected every patient about five times; 1,000 took 16 s)."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import Campaign, Character, Characteristics
from mneme_desktop.domain.edits import Patch, ReplaceSheet
from mneme_desktop.domain.healing import plan as plan_module
from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.rules.healing import Activity
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.healing_view import HealingView


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(character id, plan name) of every projection made."""
    made: list[tuple[str, str]] = []
    original = plan_module.project_plan

    def counting(character, plan, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append((character.id, plan.name))
        return original(character, plan, *args, **kwargs)

    monkeypatch.setattr(plan_module, "project_plan", counting)
    return made


def patients(count: int) -> CampaignDocument:
    people = [Character(name=f"Patient {n}", damage=3 + n % 15,
                        characteristics=Characteristics.of(7, 8, 9, 10, 8, 7))
              for n in range(count)]
    return CampaignDocument(Campaign(name="Ward", characters=people))


@pytest.mark.parametrize("count", [5, 40])
def test_opening_the_planner_projects_each_plan_once_per_patient(qtbot, calls, count) -> None:
    document = patients(count)
    view = HealingView(document)
    qtbot.addWidget(view)
    view.resize(1280, 820)
    view.show()
    qtbot.waitExposed(view)
    assert len(calls) == 2 * count
    assert len(set(calls)) == len(calls)  # each (patient, plan) once
    ids = [c.id for c in document.campaign.characters]
    assert all(view.projection(cid) is not None for cid in ids)

    calls.clear()
    year = HealingPlan.single(Activity.FULL_REST, True, 365, "A year of rest")
    view.plan_a.model.set_plan(year)  # only plan A's projections are new
    assert len(calls) == count and {name for _, name in calls} == {year.name}
    calls.clear()
    view.set_characters(ids)  # the same patients: nothing to project
    view.focus_character(ids[-1])
    assert calls == []

    calls.clear()
    hurt = document.campaign.characters[1]
    worse = hurt.model_copy(deep=True)
    worse.damage += 2
    push_patch(document, Patch("Hurt", (ReplaceSheet(hurt.model_copy(deep=True), worse),)))
    assert sorted(calls) == sorted((hurt.id, plan.name) for plan in view.plans())
    pair = view.projection(hurt.id)
    assert pair is not None and pair[0].start_damage == worse.damage  # never stale
