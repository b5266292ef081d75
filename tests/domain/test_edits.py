"""The one edit vocabulary: every edit reverts exactly, sheets are found and put back
wherever they live, and a patch's summary names exactly what it touched."""

from __future__ import annotations

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Encounter,
    EncounterLogEntry,
    GameTime,
    JournalEntry,
)
from mneme_desktop.domain.edits import (
    AddJournalEntry,
    AppendLog,
    ChangeSummary,
    Edit,
    InsertCombatant,
    InsertItem,
    MoveCombatant,
    Patch,
    RemoveCombatant,
    RemoveItem,
    ReplaceSheet,
    SetClock,
    SetCombatantField,
    SetEncounterField,
    SetInfirmary,
    SetRulesOption,
)
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.rules.wounds import ThresholdBasis


def sheet(name: str, kind: CharacterKind = CharacterKind.PLAYER) -> Character:
    return Character(name=name, kind=kind, characteristics=Characteristics.of(7, 8, 9, 7, 7, 7))


def campaign() -> Campaign:
    """Two characters, a template, and a fight with a character and an instance."""
    mara, kit = sheet("Mara"), sheet("Kit")
    template = AdversaryTemplate(stats=sheet("Raider", CharacterKind.ADVERSARY))
    fight = Encounter(name="Ambush", combatants=[
        Combatant(character_id=mara.id),
        Combatant(instance=template.make_instance(1)),
        Combatant(character_id=kit.id),
    ])
    return Campaign(name="C", characters=[mara, kit], adversary_library=[template],
                    encounters=[fight])


def every_edit(c: Campaign) -> list[Edit]:
    """One edit of each kind, built from the campaign as it is."""
    fight = c.encounters[0]
    mara, kit = c.characters
    first, instance = fight.combatants[0], fight.combatants[1]
    assert instance.instance is not None
    template = c.adversary_library[0]
    return [
        SetEncounterField(fight.id, "round", fight.round, 3),
        SetCombatantField(fight.id, first.id, "notes", first.notes, "flanking"),
        ReplaceSheet(mara, mara.model_copy(update={"damage": 4}), ("hit",)),
        ReplaceSheet(template.stats, template.stats.model_copy(update={"notes": "tough"})),
        ReplaceSheet(instance.instance, instance.instance.model_copy(update={"damage": 2})),
        InsertCombatant(fight.id, 1, Combatant(instance=template.make_instance(2))),
        RemoveCombatant(fight.id, 2, fight.combatants[2]),
        MoveCombatant(fight.id, 0, 1),
        AppendLog(fight.id, (EncounterLogEntry(round=1, text="Mara fires"),)),
        SetClock(c.game_time, c.game_time.advance(minutes=5)),
        AddJournalEntry(JournalEntry(title="Arrived", text="At the docks")),
        SetInfirmary(c.infirmary, Infirmary(sickbay=True)),
        SetRulesOption("threshold_basis", c.rules_options.threshold_basis,
                       ThresholdBasis.CHARACTERISTIC),
        InsertItem("characters", 1, sheet("Zed")),
        InsertItem("adversary_library", 0,
                   AdversaryTemplate(stats=sheet("Thug", CharacterKind.ADVERSARY))),
        InsertItem("encounters", 1, Encounter(name="Chase")),
        RemoveItem("adversary_library", 0, template),
        RemoveItem("encounters", 0, fight),
        RemoveItem("characters", 1, kit),
    ]


@pytest.mark.parametrize("index", range(len(every_edit(campaign()))))
def test_every_edit_kind_applied_then_reverted_is_the_identity(index: int) -> None:
    c = campaign()
    before = c.model_dump()
    edit = every_edit(c)[index]
    patch = Patch("one", (edit,))
    patch.apply(c)
    assert c.model_dump() != before, f"{type(edit).__name__} changed nothing"
    patch.revert(c)
    assert c.model_dump() == before


def test_a_patch_of_many_edits_reverts_exactly() -> None:
    c = campaign()
    before = c.model_dump()
    # Indices are taken from the campaign as it was, so leave out the insert that would
    # shift the removal's (a builder records each index as the step has left the list).
    edits = [e for e in every_edit(c) if not isinstance(e, RemoveItem | InsertCombatant)]
    patch = Patch("many", tuple(edits))
    patch.apply(c)
    patch.revert(c)
    assert c.model_dump() == before


def test_a_patch_that_fails_half_way_takes_back_what_it_did() -> None:
    c = campaign()
    before = c.model_dump()
    mara = c.characters[0]
    patch = Patch("bad", (ReplaceSheet(mara, mara.model_copy(update={"damage": 4})),
                          SetEncounterField("missing", "round", 0, 1)))
    with pytest.raises(KeyError):
        patch.apply(c)
    assert c.model_dump() == before


def test_find_sheet_and_put_sheet_reach_every_place_a_sheet_lives() -> None:
    c = campaign()
    mara = c.characters[0]
    stats = c.adversary_library[0].stats
    instance = c.encounters[0].combatants[1].instance
    assert instance is not None
    for found in (mara, stats, instance):
        assert c.find_sheet(found.id) is found
        new = found.model_copy(update={"notes": "changed"})
        assert c.put_sheet(new) is found
        assert c.find_sheet(found.id) is new
    assert c.characters[0].notes == "changed"
    assert c.adversary_library[0].stats.notes == "changed"
    placed = c.encounters[0].combatants[1].instance
    assert placed is not None and placed.notes == "changed"
    assert c.find_sheet("nobody") is None
    with pytest.raises(KeyError):
        c.put_sheet(sheet("Stranger"))


def test_a_summary_names_exactly_what_a_patch_touched() -> None:
    c = campaign()
    fight = c.encounters[0]
    mara = c.characters[0]
    assert Patch("", ()).summary == ChangeSummary()
    wound = Patch("", (ReplaceSheet(mara, mara.model_copy(update={"damage": 1})),))
    assert wound.summary == ChangeSummary(character_ids=frozenset({mara.id}))
    renamed = Patch("", (ReplaceSheet(mara, mara.model_copy(update={"name": "Mari"})),))
    assert renamed.summary == ChangeSummary(character_ids=frozenset({mara.id}),
                                            structure_changed=True)
    step = Patch("", (SetCombatantField(fight.id, fight.combatants[0].id, "aim", 0, 1),
                      SetClock(c.game_time, c.game_time.advance(rounds=1))))
    assert step.summary == ChangeSummary(encounter_ids=frozenset({fight.id}), time_changed=True)
    still = Patch("", (SetClock(c.game_time, c.game_time),))
    assert still.summary == ChangeSummary()
    assert Patch("", (), encounter_id=fight.id).summary == ChangeSummary(
        encounter_ids=frozenset({fight.id}))
    healing = Patch("", (AddJournalEntry(JournalEntry(title="t")),
                         SetInfirmary(Infirmary(), Infirmary(sickbay=True))))
    assert healing.summary == ChangeSummary(journal_changed=True, infirmary_changed=True)
    rules = Patch("", (SetRulesOption("threshold_basis", ThresholdBasis.HP_FRACTIONS,
                                      ThresholdBasis.CHARACTERISTIC),))
    assert rules.summary == ChangeSummary(rules_changed=True)
    items = Patch("", (InsertItem("characters", 0, sheet("Zed")),))
    assert items.summary == ChangeSummary(structure_changed=True)
    rename = Patch("", (SetEncounterField(fight.id, "name", "Ambush", "Trap"),))
    assert rename.summary == ChangeSummary(encounter_ids=frozenset({fight.id}),
                                           structure_changed=True)


def test_then_folds_a_gesture_into_one_patch_with_the_last_log_line() -> None:
    c = campaign()
    fight = c.encounters[0]
    mara = c.characters[0]
    one, two = mara.model_copy(update={"damage": 1}), mara.model_copy(update={"damage": 2})
    first = Patch("1", (ReplaceSheet(mara, one),
                        AppendLog(fight.id, (EncounterLogEntry(round=1, text="1"),))),
                  "drag", fight.id)
    second = Patch("2", (ReplaceSheet(one, two),
                         AppendLog(fight.id, (EncounterLogEntry(round=1, text="2"),))),
                   "drag", fight.id)
    folded = first.then(second)
    assert folded.text == "2" and folded.merge_key == "drag" and folded.encounter_id == fight.id
    sheets = [e for e in folded.edits if isinstance(e, ReplaceSheet)]
    assert len(sheets) == 1 and sheets[0].before is mara and sheets[0].after is two
    assert [x.text for x in folded.log_entries] == ["2"]
    with pytest.raises(ValueError):
        first.then(Patch("t", (SetClock(GameTime(), GameTime().advance(rounds=1)),)))


def test_settling_a_fold_leaves_the_campaign_as_the_fold_applied_alone() -> None:
    """A drag's steps are applied one by one; settling their fold must give exactly what
    reverting them and applying the fold gives (sheets, fields and a one-line log)."""
    def steps_on(c: Campaign) -> list[Patch]:
        fight = c.encounters[0]
        steps = []
        for damage in (1, 2, 3):
            mara = c.characters[0]
            combatant = fight.combatants[0]
            step = Patch(f"Damage {damage}", (
                ReplaceSheet(mara, mara.model_copy(update={"damage": damage})),
                SetCombatantField(fight.id, combatant.id, "aim", combatant.aim, damage),
                AppendLog(fight.id, (EncounterLogEntry(round=1, text=f"Mara at {damage}"),)),
            ), "drag", fight.id)
            step.apply(c)
            steps.append(step)
        return steps

    settled, replayed = campaign(), campaign()
    steps = steps_on(settled)
    folded = steps[0].then(steps[1]).then(steps[2])
    folded.settle_fold(settled, steps)
    again = steps_on(replayed)
    for step in reversed(again):
        step.revert(replayed)
    replay = again[0].then(again[1]).then(again[2])
    replay.apply(replayed)
    shape = lambda c: (c.characters[0].damage, c.encounters[0].combatants[0].aim,  # noqa: E731
                       [e.text for e in c.encounters[0].log])
    assert shape(settled) == shape(replayed) == (3, 3, ["Mara at 3"])
    folded.revert(settled)
    assert shape(settled) == (0, 0, [])
