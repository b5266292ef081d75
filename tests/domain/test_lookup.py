"""Lookups by id are O(1) and never stale: whatever changed the lists (edits, undo and
redo, whole-list assignment, direct list mutation), every answer is the linear search's."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Encounter,
    Side,
)
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.edits import InsertItem, Patch, RemoveItem, ReplaceSheet
from mneme_desktop.domain.lookup import IdIndex


def sheet(name: str, kind: CharacterKind = CharacterKind.NPC) -> Character:
    return Character(name=name, kind=kind, characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))


def scan(items: list, item_id: str):  # type: ignore[type-arg]
    return next((x for x in items if x.id == item_id), None)


def sheet_scan(campaign: Campaign, sheet_id: str) -> Character | None:
    """The linear search find_sheet replaced: characters, then templates, then instances."""
    for found in campaign.characters:
        if found.id == sheet_id:
            return found
    for template in campaign.adversary_library:
        if template.stats.id == sheet_id:
            return template.stats
    for encounter in campaign.encounters:
        for combatant in encounter.combatants:
            if combatant.instance is not None and combatant.instance.id == sheet_id:
                return combatant.instance
    return None


def assert_agrees(campaign: Campaign, *extra_ids: str) -> None:
    """Every lookup answers exactly what a linear search of the lists answers now."""
    ids = {c.id for c in campaign.characters} | set(extra_ids) | {"nobody"}
    for character_id in ids:
        assert campaign.find_character(character_id) is scan(campaign.characters, character_id)
        expected = next((i for i, c in enumerate(campaign.characters) if c.id == character_id),
                        None)
        assert campaign.character_position(character_id) == expected
    for template in campaign.adversary_library:
        assert campaign.find_template(template.id) is template
    for encounter in campaign.encounters:
        assert campaign.find_encounter(encounter.id) is encounter
        for combatant in encounter.combatants:
            assert encounter.find_combatant(combatant.id) is combatant
            if combatant.instance is not None:
                ids.add(combatant.instance.id)
            expected_sheet = combatant.instance or scan(campaign.characters,
                                                        combatant.character_id or "")
            if expected_sheet is None:  # a reference left dangling by a direct mutation
                with pytest.raises(KeyError):
                    campaign.combatant_character(combatant)
            else:
                assert campaign.combatant_character(combatant) is expected_sheet
        assert encounter.find_combatant("nobody") is None
    for template in campaign.adversary_library:
        ids.add(template.stats.id)
    for sheet_id in ids:
        assert campaign.find_sheet(sheet_id) is sheet_scan(campaign, sheet_id)
    assert campaign.find_template("nobody") is None
    assert campaign.find_encounter("nobody") is None


@pytest.fixture
def campaign() -> Campaign:
    people = [sheet(f"NPC {n}") for n in range(6)]
    raider = AdversaryTemplate(stats=sheet("Raider", CharacterKind.ADVERSARY))
    campaign = Campaign(name="Index", characters=people, adversary_library=[raider],
                        encounters=[Encounter(name="Fight")])
    encounter = campaign.encounters[0]
    for character in people[:4]:
        encounter.add_character(character, Side.PLAYERS)
    encounter.add_from_template(raider, 3)
    return campaign


def test_lookups_follow_direct_mutation_of_the_lists(campaign: Campaign) -> None:
    assert_agrees(campaign)  # indexes built
    campaign.encounters[0].combatants.clear()  # no references left dangling below
    removed = campaign.characters.pop(0)
    assert campaign.find_character(removed.id) is None
    assert_agrees(campaign, removed.id)
    campaign.characters.append(removed)
    assert_agrees(campaign)
    campaign.characters.insert(2, sheet("Inserted"))
    assert_agrees(campaign)
    campaign.characters.reverse()  # same list, same length, every position changed
    assert_agrees(campaign)
    stranger = sheet("Stranger")
    old = campaign.characters[3]
    campaign.characters[3] = stranger  # same length: the old id must not be answered
    assert campaign.find_character(old.id) is None
    assert campaign.find_character(stranger.id) is stranger
    assert_agrees(campaign, old.id)
    renamed = campaign.characters[1]
    former = renamed.id
    renamed.id = "renamed"  # an id changed in place
    assert campaign.find_character(former) is None
    assert campaign.find_character("renamed") is renamed
    assert_agrees(campaign, former)
    campaign.characters = list(reversed(campaign.characters))  # a whole new list
    assert_agrees(campaign, former, old.id)
    del campaign.characters[:]
    assert_agrees(campaign, former, old.id)


def test_combatant_and_sheet_lookups_follow_the_encounter(campaign: Campaign) -> None:
    encounter = campaign.encounters[0]
    assert_agrees(campaign)
    instance = encounter.combatants[-1]
    encounter.remove_combatant(instance.id)  # assigns a new list
    assert encounter.find_combatant(instance.id) is None
    assert instance.instance is not None
    assert campaign.find_sheet(instance.instance.id) is None
    assert_agrees(campaign)
    encounter.combatants.insert(0, instance)  # direct insert
    assert_agrees(campaign)
    encounter.combatants.reverse()
    assert_agrees(campaign)
    before = instance.instance
    replacement = before.model_copy(deep=True)
    replacement.damage = 3
    assert campaign.put_sheet(replacement) is before
    assert campaign.find_sheet(replacement.id) is replacement is instance.instance
    assert_agrees(campaign)
    template = campaign.adversary_library[0]
    stats = template.stats.model_copy(deep=True)
    stats.name = "Raider boss"
    campaign.put_sheet(stats)
    assert campaign.find_sheet(stats.id) is template.stats and template.stats.name == (
        "Raider boss")
    campaign.encounters.append(Encounter(name="Second"))
    campaign.adversary_library.pop()
    assert_agrees(campaign, stats.id)
    with pytest.raises(KeyError):
        campaign.put_sheet(sheet("Nobody"))


def test_lookups_follow_undo_and_redo_of_adding_and_removing(campaign: Campaign) -> None:
    rng = random.Random(3)
    added = sheet("Added")
    adding = Patch("Add", (InsertItem("characters", 2, added),))
    gone = campaign.characters[4]
    removing = Patch("Remove", (RemoveItem("characters", 4, gone.model_copy(deep=True)),))
    changed = gone.model_copy(deep=True)
    changed.damage = 2
    editing = Patch("Edit", (ReplaceSheet(gone.model_copy(deep=True), changed),))
    assert_agrees(campaign)
    for _ in range(3):
        steps = [adding, editing, removing]
        rng.shuffle(steps)
        steps = [s for s in steps if s is not removing] + [removing]  # edit before removal
        for step in steps:
            step.apply(campaign)
            assert_agrees(campaign, added.id, gone.id)
        assert campaign.find_character(added.id) is not None
        assert campaign.find_character(gone.id) is None
        for step in reversed(steps):
            step.revert(campaign)
            assert_agrees(campaign, added.id, gone.id)
        assert campaign.find_character(added.id) is None
        restored = campaign.find_character(gone.id)
        assert restored is not None and restored.damage == gone.damage


def test_the_index_is_private_state_copies_do_not_share_or_compare(campaign: Campaign) -> None:
    assert_agrees(campaign)
    shallow = campaign.model_copy()  # shares the lists: both answer from them
    assert shallow == campaign
    assert_agrees(shallow)
    assert_agrees(campaign)
    for twin in (campaign.model_copy(deep=True), copy.deepcopy(campaign),
                 pickle.loads(pickle.dumps(campaign))):
        assert twin == campaign
        twin.characters.pop(0)
        assert_agrees(twin)
        assert_agrees(campaign)
        assert len(campaign.characters) == 6
    fresh = Campaign.model_validate_json(campaign.model_dump_json())
    assert fresh == campaign  # one index built, the other not: still equal
    assert_agrees(fresh)


class CountingList(list):  # type: ignore[type-arg]
    """A list that counts the items read from it: a measure of list scans."""

    visits = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in list.__iter__(self):
            CountingList.visits += 1
            yield item

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        CountingList.visits += 1
        return list.__getitem__(self, index)


def new_round_reads(size: int) -> tuple[int, int]:
    """(find_character calls, items read from the character and combatant lists) for the
    Next turn that starts round 2 of a fight of ``size`` campaign characters."""
    people = [sheet(f"NPC {n}") for n in range(size)]
    campaign = Campaign(name="Count", characters=people, encounters=[Encounter(name="Fight")])
    encounter = campaign.encounters[0]
    rng = random.Random(1)
    for make in (
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in people], Side.ENEMIES),
        lambda c, e: fight.roll_initiative_patch(c, e, rng),
        fight.start_patch,
    ):
        make(campaign, encounter).apply(campaign)
    last = fight.PatchBuilder(campaign, encounter)
    last.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    last.build("last turn").apply(campaign)
    # The same lists, counting every item read (no validation: these are the live lists).
    campaign.__dict__["characters"] = CountingList(campaign.characters)
    encounter.__dict__["combatants"] = CountingList(encounter.combatants)
    campaign.find_character(people[0].id)
    encounter.find_combatant(encounter.combatants[0].id)  # indexes as a running app has them
    calls = 0
    original = Campaign.find_character

    def counting(self: Campaign, character_id: str) -> Character | None:
        nonlocal calls
        calls += 1
        return original(self, character_id)

    CountingList.visits = 0
    Campaign.find_character = counting  # type: ignore[method-assign]
    try:
        fight.next_turn_patch(campaign, encounter, rng).apply(campaign)
    finally:
        Campaign.find_character = original  # type: ignore[method-assign]
    assert encounter.round == 2
    return calls, CountingList.visits


def test_a_new_round_reads_each_list_a_constant_number_of_times() -> None:
    """Counted, not timed: a new round over N combatants does O(N) lookups, and each reads
    O(1) items (a linear search read O(N) each: 16 times the reads for 4 times the fight)."""
    small_calls, small_reads = new_round_reads(50)
    large_calls, large_reads = new_round_reads(200)
    assert small_calls >= 50
    assert large_calls <= 4 * small_calls * 1.25
    assert large_reads <= 4 * small_reads * 1.5
    assert large_reads <= 20 * 200


def test_lookups_rebuild_their_index_once_not_per_lookup(campaign: Campaign) -> None:
    rebuilds = IdIndex.rebuilds
    for _ in range(3):
        for character in campaign.characters:
            assert campaign.find_character(character.id) is character
    assert IdIndex.rebuilds - rebuilds == 1
    campaign.characters.pop()
    for character in campaign.characters:
        assert campaign.find_character(character.id) is character
    assert IdIndex.rebuilds - rebuilds == 2
