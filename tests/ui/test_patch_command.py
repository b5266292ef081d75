"""One command for every step: patches merge by key, a failed step leaves no trace, and the
document says ``changed(summary)`` once per step, then the fine-grained signals from it."""

from __future__ import annotations

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


def make_document() -> CampaignDocument:
    mara = Character(name="Mara", characteristics=Characteristics.of(7, 9, 8, 7, 8, 6))
    fight = Encounter(name="Fight", combatants=[Combatant(character_id=mara.id)])
    return CampaignDocument(Campaign(name="C", characters=[mara], encounters=[fight]))


def record(document: CampaignDocument) -> list[object]:
    """Every signal the document emits, in order."""
    seen: list[object] = []
    document.changed.connect(lambda summary: seen.append(summary))
    document.character_changed.connect(lambda cid: seen.append(("character", cid)))
    document.encounter_changed.connect(lambda eid: seen.append(("encounter", eid)))
    document.structure_changed.connect(lambda: seen.append("structure"))
    document.time_changed.connect(lambda: seen.append("time"))
    document.journal_changed.connect(lambda: seen.append("journal"))
    document.infirmary_changed.connect(lambda: seen.append("infirmary"))
    document.rules_changed.connect(lambda: seen.append("rules"))
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
    assert seen == [summary, ("character", mara.id), ("encounter", fight.id)]
    seen.clear()
    document.undo_stack.undo()
    assert seen == [summary, ("character", mara.id), ("encounter", fight.id)]
    seen.clear()
    commands.rename_encounter(document, fight.id, "Brawl")
    assert seen == [ChangeSummary(encounter_ids=frozenset({fight.id}), structure_changed=True),
                    "structure", ("encounter", fight.id)]
    seen.clear()
    now = document.campaign.game_time
    push_patch(document, Patch("Wait", (SetClock(now, now.advance(hours=1)),)))
    assert seen == [ChangeSummary(time_changed=True), "time"]


def test_a_sheet_edit_tells_every_encounter_that_fights_with_it(qapp) -> None:
    document = make_document()
    mara = document.campaign.characters[0]
    fight = document.campaign.encounters[0]
    seen = record(document)
    commands.edit_character(document, mara, "Rename", lambda c: setattr(c, "name", "Mari"))
    assert seen == [ChangeSummary(character_ids=frozenset({mara.id}), structure_changed=True),
                    ("character", mara.id), "structure", ("encounter", fight.id)]


def test_removing_a_character_takes_it_out_of_its_fights_and_undo_puts_all_back(qapp) -> None:
    document = make_document()
    before = document.campaign.model_dump()
    mara = document.campaign.characters[0]
    seen = record(document)
    commands.remove_character(document, mara.id)
    assert document.campaign.characters == []
    assert document.campaign.encounters[0].combatants == []
    assert "structure" in seen and ("encounter", document.campaign.encounters[0].id) in seen
    document.undo_stack.undo()
    assert document.campaign.model_dump() == before
    assert isinstance(document.undo_stack.command(0), PatchCommand)
