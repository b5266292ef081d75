"""One command for every step: patches merge by key, a failed step leaves no trace, and the
document says ``changed(summary)`` once per step; every view refreshes from that notice alone,
once per step."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Combatant,
    Encounter,
    EncounterLogEntry,
)
from mneme_desktop.domain.edits import (
    AppendLog,
    ChangeSummary,
    InsertCombatant,
    Patch,
    ReplaceSheet,
    SetClock,
    SetEncounterField,
)
from mneme_desktop.ui import commands
from mneme_desktop.ui.commands import PatchCommand, push_patch
from mneme_desktop.ui.document import CampaignDocument, EditRefusedError
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.attack_resolver import AttackResolver
from mneme_desktop.ui.views.healing_view import HealingView


def make_document() -> CampaignDocument:
    mara = Character(name="Mara", characteristics=Characteristics.of(7, 9, 8, 7, 8, 6))
    fight = Encounter(name="Fight", combatants=[Combatant(character_id=mara.id)])
    return CampaignDocument(Campaign(name="C", characters=[mara], encounters=[fight]))


def record(document: CampaignDocument) -> list[object]:
    """Every notice the document gives, in order."""
    seen: list[object] = []
    document.changed.connect(lambda summary: seen.append(summary))
    return seen


def wound(document: CampaignDocument, damage: int, key: str | None = "drag") -> Patch:
    mara = document.campaign.characters[0]
    fight = document.campaign.encounters[0]
    entry = EncounterLogEntry(round=1, text=f"Mara at {damage}")
    return Patch(f"Damage {damage}", (ReplaceSheet(mara, mara.model_copy(update={
        "damage": damage})), AppendLog(fight.id, (entry,))), key, fight.id)


def test_steps_with_one_merge_key_are_one_undo_step_with_the_last_log_line(qapp) -> None:
    document = make_document()
    for damage in (1, 2, 3):
        push_patch(document, wound(document, damage))
    assert document.undo_stack.count() == 1
    assert document.undo_stack.undoText() == "Damage 3"
    assert document.campaign.characters[0].damage == 3
    assert [e.text for e in document.campaign.encounters[0].log] == ["Mara at 3"]
    document.undo_stack.undo()
    assert document.campaign.characters[0].damage == 0
    assert document.campaign.encounters[0].log == []
    push_patch(document, wound(document, 4, key=None))
    push_patch(document, wound(document, 5, key=None))
    assert document.undo_stack.count() == 2


def test_each_step_of_a_drag_gives_one_notice_with_the_campaign_already_final(qapp) -> None:
    """A merged step is announced once, after the merge (the views used to refresh twice
    per drag step: once for the step, again for the folded one)."""
    document = make_document()
    fight = document.campaign.encounters[0]
    seen: list[tuple[int, int]] = []
    document.changed.connect(lambda _summary: seen.append((
        document.campaign.characters[0].damage, len(fight.log))))
    for damage in (1, 2, 3):
        push_patch(document, wound(document, damage))
    assert seen == [(1, 1), (2, 1), (3, 1)]  # each notice sees the folded log: one line
    document.undo_stack.setClean()
    push_patch(document, wound(document, 4))  # the clean step is not merged into
    push_patch(document, wound(document, 5, key=None))
    assert seen[3:] == [(4, 2), (5, 3)]
    assert document.undo_stack.count() == 3


def test_steps_that_do_not_fold_still_merge_in_order(qapp) -> None:
    document = make_document()
    clock = document.campaign.game_time
    for minutes in (1, 2):
        now = document.campaign.game_time
        push_patch(document, Patch("Wait", (SetClock(now, now.advance(minutes=1)),), "wait"))
        assert document.campaign.game_time == clock.advance(minutes=minutes)
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert document.campaign.game_time == clock


def test_typing_into_two_sheets_with_one_key_is_two_steps(qapp) -> None:
    document = make_document()
    kit = Character(name="Kit", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))
    commands.add_character(document, kit)
    for character in document.campaign.characters:
        commands.edit_character(document, character, "Notes",
                                lambda c: setattr(c, "notes", "x"), merge_key="notes")
    assert document.undo_stack.count() == 3
    document.undo_stack.undo()
    assert [c.notes for c in document.campaign.characters] == ["x", ""]


def test_a_failing_step_is_taken_back_and_dropped(qapp) -> None:
    document = make_document()
    push_patch(document, wound(document, 1, key=None))
    before = document.campaign.model_dump()
    fight = document.campaign.encounters[0]
    bad = Patch("Bad", (*wound(document, 6, key=None).edits,
                        InsertCombatant(fight.id, 0, Combatant(character_id="nobody")),
                        SetEncounterField(fight.id, "round", 0, -1)))
    with pytest.raises(EditRefusedError):
        push_patch(document, bad)
    assert document.campaign.model_dump() == before
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert document.campaign.characters[0].damage == 0


def test_one_changed_per_step_with_its_summary_then_the_fine_signals(qapp) -> None:
    document = make_document()
    mara = document.campaign.characters[0]
    fight = document.campaign.encounters[0]
    seen = record(document)
    push_patch(document, wound(document, 2, key=None))
    summary = ChangeSummary(character_ids=frozenset({mara.id}),
                            encounter_ids=frozenset({fight.id}))
    assert seen == [summary]
    seen.clear()
    document.undo_stack.undo()
    assert seen == [summary]
    seen.clear()
    commands.rename_encounter(document, fight.id, "Brawl")
    assert seen == [ChangeSummary(encounter_ids=frozenset({fight.id}), structure_changed=True)]
    seen.clear()
    now = document.campaign.game_time
    push_patch(document, Patch("Wait", (SetClock(now, now.advance(hours=1)),)))
    assert seen == [ChangeSummary(time_changed=True)]


def test_a_sheet_edit_tells_every_encounter_that_fights_with_it(qapp) -> None:
    document = make_document()
    mara = document.campaign.characters[0]
    fight = document.campaign.encounters[0]
    seen = record(document)
    commands.edit_character(document, mara, "Rename", lambda c: setattr(c, "name", "Mari"))
    assert seen == [ChangeSummary(character_ids=frozenset({mara.id}),
                                  encounter_ids=frozenset({fight.id}), structure_changed=True)]


def test_removing_a_character_takes_it_out_of_its_fights_and_undo_puts_all_back(qapp) -> None:
    document = make_document()
    before = document.campaign.model_dump()
    mara = document.campaign.characters[0]
    seen = record(document)
    commands.remove_character(document, mara.id)
    assert document.campaign.characters == []
    assert document.campaign.encounters[0].combatants == []
    (summary,) = seen
    assert summary.structure_changed
    assert document.campaign.encounters[0].id in summary.encounter_ids
    document.undo_stack.undo()
    assert document.campaign.model_dump() == before
    assert isinstance(document.undo_stack.command(0), PatchCommand)


def test_a_step_that_hurts_five_people_refreshes_each_view_once(qtbot, monkeypatch) -> None:
    """The step announces five sheets and their fight; the turn order, the healing planner
    and the resolver each work out their status once, not once per sheet and again for
    the fight (as the separate per-sheet signals had it)."""
    people = [Character(name=f"P{n}", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))
              for n in range(5)]
    fight = Encounter(name="Fight", combatants=[Combatant(character_id=p.id) for p in people])
    document = CampaignDocument(Campaign(name="C", characters=people, encounters=[fight]))
    counts = {"turn order": 0, "planner": 0, "resolver": 0}

    def counting(cls: type, name: str, label: str) -> None:
        original = getattr(cls, name)

        def wrapper(self: object, *args: object) -> object:
            counts[label] += 1
            return original(self, *args)
        monkeypatch.setattr(cls, name, wrapper)

    counting(TurnOrderModel, "sync", "turn order")
    counting(HealingView, "_refresh_all", "planner")
    counting(AttackResolver, "_refresh_lists", "resolver")
    model = TurnOrderModel(document)
    model.set_encounter(fight.id)
    planner = HealingView(document)
    qtbot.addWidget(planner)
    planner.show()
    resolver = AttackResolver(document, random.Random(1))
    qtbot.addWidget(resolver)
    resolver.set_encounter(fight.id)
    resolver.show()
    qtbot.wait(20)
    counts.update(dict.fromkeys(counts, 0))
    edits = tuple(ReplaceSheet(p, p.model_copy(update={"damage": 3})) for p in people)
    push_patch(document, Patch("Grenade", edits, None, fight.id))
    qtbot.wait(20)
    assert counts == {"turn order": 1, "planner": 1, "resolver": 1}
    hp = [model.index(row, model.COL_HP).data() for row in range(model.rowCount())]
    assert len(hp) == 5 and all(text.startswith("3") for text in hp), hp
