"""The one vocabulary of reversible edits, and the :class:`Patch` that makes them one step.

Every change a referee makes to a campaign - a combat step, an advance of the clock, a
sheet typed into, a character added - is a :class:`Patch` of these small, exact edits.
A patch applies and reverts exactly and says what it touched (:class:`ChangeSummary`), so
the undo stack holds only what changed and each view refreshes from one notice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from pydantic import BaseModel

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.catalogue.entries import CampaignCatalogue
from mneme_desktop.domain.character import Character
from mneme_desktop.domain.encounter import (
    Combatant,
    Encounter,
    EncounterLogEntry,
    EncounterThing,
)
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.domain.things import Thing, ThingTemplate

__all__ = [
    "AddJournalEntry",
    "AppendLog",
    "ChangeSummary",
    "Edit",
    "InsertCombatant",
    "InsertEncounterThing",
    "InsertItem",
    "ItemList",
    "Locator",
    "MoveCombatant",
    "Patch",
    "RemoveCombatant",
    "RemoveEncounterThing",
    "RemoveItem",
    "ReplaceSheet",
    "ReplaceThing",
    "SetCatalogue",
    "SetClock",
    "SetCombatantField",
    "SetEncounterField",
    "SetEncounterThingField",
    "SetInfirmary",
    "SetRulesOption",
]


@dataclass(frozen=True)
class ChangeSummary:
    """What one step touched: the one notice the document turns into its signals."""

    character_ids: frozenset[str] = frozenset()
    encounter_ids: frozenset[str] = frozenset()
    structure_changed: bool = False
    """Characters, templates or encounters added, removed, renamed (the navigator's items)."""
    time_changed: bool = False
    journal_changed: bool = False
    infirmary_changed: bool = False
    rules_changed: bool = False
    thing_ids: frozenset[str] = frozenset()
    """Things (vehicles, cover objects) whose sheet changed, wherever they live."""
    catalogue_changed: bool = False
    """The campaign's own catalogue entries (skills, weapons, armor)."""

    def __or__(self, other: ChangeSummary) -> ChangeSummary:
        return ChangeSummary(
            self.character_ids | other.character_ids,
            self.encounter_ids | other.encounter_ids,
            self.structure_changed or other.structure_changed,
            self.time_changed or other.time_changed,
            self.journal_changed or other.journal_changed,
            self.infirmary_changed or other.infirmary_changed,
            self.rules_changed or other.rules_changed,
            self.thing_ids | other.thing_ids,
            catalogue_changed=self.catalogue_changed or other.catalogue_changed,
        )

    @property
    def empty(self) -> bool:
        return self == ChangeSummary()

    def touches_sheet(self, sheet_id: str | None, campaign: Campaign) -> bool:
        """Whether a view of the sheet ``sheet_id`` must show it again after this step.

        An encounter's step can remove the combatant an instance sheet lives in, so any
        encounter change touches a sheet that is not a campaign character.
        """
        if sheet_id is None:
            return self.structure_changed
        if sheet_id in self.character_ids or self.structure_changed or self.rules_changed:
            return True
        return bool(self.encounter_ids) and campaign.find_character(sheet_id) is None

    def touches_thing(self, thing_id: str | None, campaign: Campaign) -> bool:
        """Whether a view of the thing ``thing_id`` must show it again after this step
        (an encounter's step can remove the entry an instance lives in)."""
        if thing_id is None:
            return self.structure_changed
        if thing_id in self.thing_ids or self.structure_changed:
            return True
        return bool(self.encounter_ids) and campaign.find_campaign_thing(thing_id) is None

    def reach(self, campaign: Campaign) -> ChangeSummary:
        """Everything this step changed as the views see it, worked out once per step.

        A sheet that changed changes every encounter that fights with it (its rows, its
        status); a rules option changes every character's derived numbers, so every campaign
        character and every encounter. Views
        refresh from the result alone and never work these consequences out themselves.
        """
        characters = self.character_ids
        if self.rules_changed:
            characters = characters | {c.id for c in campaign.characters}
        encounters = set(self.encounter_ids)
        if self.rules_changed:
            encounters |= {e.id for e in campaign.encounters}
        if self.thing_ids and not self.rules_changed:
            for encounter in campaign.encounters:
                if encounter.id not in encounters and any(
                        t.thing_id in self.thing_ids
                        or (t.instance is not None and t.instance.id in self.thing_ids)
                        for t in encounter.things):
                    encounters.add(encounter.id)
        if self.character_ids and not self.rules_changed:
            for encounter in campaign.encounters:
                if encounter.id not in encounters and any(
                        c.character_id in self.character_ids
                        or (c.instance is not None and c.instance.id in self.character_ids)
                        for c in encounter.combatants):
                    encounters.add(encounter.id)
        if characters == self.character_ids and encounters == self.encounter_ids:
            return self
        return replace(self, character_ids=frozenset(characters),
                       encounter_ids=frozenset(encounters))


_NOTHING = ChangeSummary()


class Locator:
    """Finds encounters and combatants by id during one apply or revert.

    Lookups are indexed once per patch, so a patch touching every combatant stays linear.
    """

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self._combatants: dict[str, dict[str, Combatant]] = {}

    def encounter(self, encounter_id: str) -> Encounter:
        return self.campaign.encounter(encounter_id)

    def combatant(self, encounter_id: str, combatant_id: str) -> Combatant:
        table = self._combatants.get(encounter_id)
        if table is None:
            table = {c.id: c for c in self.encounter(encounter_id).combatants}
            self._combatants[encounter_id] = table
        try:
            return table[combatant_id]
        except KeyError:
            raise KeyError(f"no combatant {combatant_id!r} in this encounter") from None

    def invalidate(self) -> None:
        self._combatants.clear()


def _fresh(value: object) -> object:
    """A private copy of model values, so nothing stored in an edit is ever shared live."""
    if isinstance(value, BaseModel):
        return value.model_copy(deep=True)
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


# --- encounters ------------------------------------------------------------------------


@dataclass(frozen=True)
class SetEncounterField:
    encounter_id: str
    name: str
    before: object
    after: object

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}),
                             structure_changed=self.name == "name")

    def apply(self, loc: Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.after))
        loc.invalidate()

    def revert(self, loc: Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.before))
        loc.invalidate()


@dataclass(frozen=True)
class SetCombatantField:
    encounter_id: str
    combatant_id: str
    name: str
    before: object
    after: object

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.after))

    def revert(self, loc: Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.before))


def _put_combatant(loc: Locator, encounter_id: str, index: int, combatant: Combatant) -> None:
    loc.encounter(encounter_id).combatants.insert(index, combatant.model_copy(deep=True))
    loc.invalidate()


def _take_combatant(loc: Locator, encounter_id: str, combatant_id: str) -> None:
    encounter = loc.encounter(encounter_id)
    position = encounter.combatant_position(combatant_id)
    if position is None:
        raise KeyError(f"no combatant {combatant_id!r} in this encounter")
    del encounter.combatants[position]
    loc.invalidate()


@dataclass(frozen=True)
class InsertCombatant:
    encounter_id: str
    index: int
    combatant: Combatant

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        _put_combatant(loc, self.encounter_id, self.index, self.combatant)

    def revert(self, loc: Locator) -> None:
        _take_combatant(loc, self.encounter_id, self.combatant.id)


@dataclass(frozen=True)
class RemoveCombatant:
    """The inverse of :class:`InsertCombatant`."""

    encounter_id: str
    index: int
    combatant: Combatant

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        _take_combatant(loc, self.encounter_id, self.combatant.id)

    def revert(self, loc: Locator) -> None:
        _put_combatant(loc, self.encounter_id, self.index, self.combatant)


@dataclass(frozen=True)
class MoveCombatant:
    """Move a combatant within the list; ties in initiative keep list order, so this is
    how a referee breaks a tie."""

    encounter_id: str
    from_index: int
    to_index: int

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.to_index, combatants.pop(self.from_index))
        loc.invalidate()

    def revert(self, loc: Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.from_index, combatants.pop(self.to_index))
        loc.invalidate()


@dataclass(frozen=True)
class AppendLog:
    encounter_id: str
    entries: tuple[EncounterLogEntry, ...]

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        log.extend(entry.model_copy(deep=True) for entry in self.entries)

    def revert(self, loc: Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        count = len(self.entries)
        tail = [entry.id for entry in log[len(log) - count :]]
        if tail != [entry.id for entry in self.entries]:
            raise RuntimeError("the encounter log changed under an undo step")
        del log[len(log) - count :]


# --- sheets ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplaceSheet:
    """One character sheet before and after, wherever it lives (a campaign character, a
    template's stat block, an encounter's instance); ``lines`` say what happened."""

    before: Character
    after: Character
    lines: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.before.id != self.after.id:
            raise ValueError("a character edit must keep the character's id")

    @property
    def character_id(self) -> str:
        return self.after.id

    @property
    def description(self) -> str:
        return f"{self.after.name}: " + "; ".join(self.lines)

    @property
    def summary(self) -> ChangeSummary:
        renamed = self.before.name != self.after.name or self.before.kind != self.after.kind
        return ChangeSummary(character_ids=frozenset({self.after.id}),
                             structure_changed=renamed)

    def apply(self, loc: Locator) -> None:
        loc.campaign.put_sheet(self.after.model_copy(deep=True))

    def revert(self, loc: Locator) -> None:
        loc.campaign.put_sheet(self.before.model_copy(deep=True))


@dataclass(frozen=True)
class ReplaceThing:
    """One thing (vehicle, cover object) before and after, wherever it lives (a campaign
    thing, a template's stats, an encounter's instance); ``lines`` say what happened."""

    before: Thing
    after: Thing
    lines: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.before.id != self.after.id:
            raise ValueError("a thing edit must keep the thing's id")

    @property
    def thing_id(self) -> str:
        return self.after.id

    @property
    def description(self) -> str:
        return f"{self.after.name}: " + "; ".join(self.lines)

    @property
    def summary(self) -> ChangeSummary:
        renamed = self.before.name != self.after.name or self.before.kind != self.after.kind
        return ChangeSummary(thing_ids=frozenset({self.after.id}), structure_changed=renamed)

    def apply(self, loc: Locator) -> None:
        loc.campaign.put_thing(self.after.model_copy(deep=True))

    def revert(self, loc: Locator) -> None:
        loc.campaign.put_thing(self.before.model_copy(deep=True))


# --- things in encounters --------------------------------------------------------------


def _put_entry(loc: Locator, encounter_id: str, index: int, entry: EncounterThing) -> None:
    loc.encounter(encounter_id).things.insert(index, entry.model_copy(deep=True))


def _take_entry(loc: Locator, encounter_id: str, entry_id: str) -> None:
    things = loc.encounter(encounter_id).things
    position = next((i for i, t in enumerate(things) if t.id == entry_id), None)
    if position is None:
        raise KeyError(f"no thing {entry_id!r} in this encounter")
    del things[position]


@dataclass(frozen=True)
class InsertEncounterThing:
    """A thing (a campaign thing by reference, or a template's instance) put into an
    encounter's things at ``index``."""

    encounter_id: str
    index: int
    entry: EncounterThing

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        _put_entry(loc, self.encounter_id, self.index, self.entry)

    def revert(self, loc: Locator) -> None:
        _take_entry(loc, self.encounter_id, self.entry.id)


@dataclass(frozen=True)
class RemoveEncounterThing:
    """The inverse of :class:`InsertEncounterThing`."""

    encounter_id: str
    index: int
    entry: EncounterThing

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def apply(self, loc: Locator) -> None:
        _take_entry(loc, self.encounter_id, self.entry.id)

    def revert(self, loc: Locator) -> None:
        _put_entry(loc, self.encounter_id, self.index, self.entry)


@dataclass(frozen=True)
class SetEncounterThingField:
    """One field of an encounter's thing entry (side, out of fight, notes)."""

    encounter_id: str
    entry_id: str
    name: str
    before: object
    after: object

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(encounter_ids=frozenset({self.encounter_id}))

    def _entry(self, loc: Locator) -> EncounterThing:
        entry = loc.encounter(self.encounter_id).find_thing_entry(self.entry_id)
        if entry is None:
            raise KeyError(f"no thing {self.entry_id!r} in this encounter")
        return entry

    def apply(self, loc: Locator) -> None:
        setattr(self._entry(loc), self.name, _fresh(self.after))

    def revert(self, loc: Locator) -> None:
        setattr(self._entry(loc), self.name, _fresh(self.before))


# --- the campaign ----------------------------------------------------------------------


@dataclass(frozen=True)
class SetClock:
    """The campaign clock moves from ``before`` to ``after``."""

    before: GameTime
    after: GameTime

    @property
    def description(self) -> str:
        return f"Clock: {self.before.label} → {self.after.label}"

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(time_changed=self.before != self.after)

    def apply(self, loc: Locator) -> None:
        loc.campaign.game_time = self.after

    def revert(self, loc: Locator) -> None:
        loc.campaign.game_time = self.before


@dataclass(frozen=True)
class AddJournalEntry:
    """An entry added to the campaign journal."""

    entry: JournalEntry

    @property
    def description(self) -> str:
        return f"Journal: {self.entry.title}"

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(journal_changed=True)

    def apply(self, loc: Locator) -> None:
        loc.campaign.journal.append(self.entry.model_copy(deep=True))

    def revert(self, loc: Locator) -> None:
        campaign = loc.campaign
        campaign.journal = [e for e in campaign.journal if e.id != self.entry.id]


@dataclass(frozen=True)
class SetInfirmary:
    """The infirmary (medics, supervisor, sickbay) replaced as a whole."""

    before: Infirmary
    after: Infirmary

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(infirmary_changed=True)

    def apply(self, loc: Locator) -> None:
        loc.campaign.infirmary = self.after.model_copy(deep=True)

    def revert(self, loc: Locator) -> None:
        loc.campaign.infirmary = self.before.model_copy(deep=True)


@dataclass(frozen=True)
class SetRulesOption:
    """One campaign rules option (e.g. the wound-threshold basis); every sheet follows it."""

    name: str
    before: object
    after: object

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(rules_changed=True)

    def apply(self, loc: Locator) -> None:
        setattr(loc.campaign.rules_options, self.name, self.after)

    def revert(self, loc: Locator) -> None:
        setattr(loc.campaign.rules_options, self.name, self.before)


@dataclass(frozen=True)
class SetCatalogue:
    """The campaign's own catalogue entries replaced as a whole (they are few and small)."""

    before: CampaignCatalogue
    after: CampaignCatalogue

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(catalogue_changed=True)

    def apply(self, loc: Locator) -> None:
        loc.campaign.catalogue = self.after.model_copy(deep=True)

    def revert(self, loc: Locator) -> None:
        loc.campaign.catalogue = self.before.model_copy(deep=True)


ItemList = Literal["characters", "adversary_library", "encounters", "things", "thing_library"]
"""The campaign lists whose items the navigator shows."""
Item = Character | AdversaryTemplate | Encounter | Thing | ThingTemplate


def _items(campaign: Campaign, where: ItemList) -> list[Item]:
    items: list[Item] = getattr(campaign, where)
    return items


def _take_out(campaign: Campaign, where: ItemList, item_id: str) -> None:
    items = _items(campaign, where)
    position = next(i for i, x in enumerate(items) if x.id == item_id)
    del items[position]


@dataclass(frozen=True)
class InsertItem:
    """A character, template or encounter put into its campaign list at ``index``."""

    where: ItemList
    index: int
    item: Item

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(structure_changed=True)

    def apply(self, loc: Locator) -> None:
        _items(loc.campaign, self.where).insert(self.index, self.item.model_copy(deep=True))
        loc.invalidate()

    def revert(self, loc: Locator) -> None:
        _take_out(loc.campaign, self.where, self.item.id)
        loc.invalidate()


@dataclass(frozen=True)
class RemoveItem:
    """A character, template or encounter taken out of its list (it was at ``index``)."""

    where: ItemList
    index: int
    item: Item

    @property
    def summary(self) -> ChangeSummary:
        return ChangeSummary(structure_changed=True)

    def apply(self, loc: Locator) -> None:
        _take_out(loc.campaign, self.where, self.item.id)
        loc.invalidate()

    def revert(self, loc: Locator) -> None:
        _items(loc.campaign, self.where).insert(self.index, self.item.model_copy(deep=True))
        loc.invalidate()


Edit = (
    SetEncounterField
    | SetCombatantField
    | InsertCombatant
    | RemoveCombatant
    | MoveCombatant
    | AppendLog
    | ReplaceSheet
    | ReplaceThing
    | InsertEncounterThing
    | RemoveEncounterThing
    | SetEncounterThingField
    | SetClock
    | AddJournalEntry
    | SetInfirmary
    | SetRulesOption
    | SetCatalogue
    | InsertItem
    | RemoveItem
)


# --- the patch -------------------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """One referee step as exact, reversible edits; ``apply`` then ``revert`` is a no-op."""

    text: str
    edits: tuple[Edit, ...]
    merge_key: str | None = None
    """Patches with the same key in a row merge into one undo step (dragging an HP bar)."""
    encounter_id: str | None = None
    """The encounter a combat step belongs to; it is named in the summary even when the
    step only changed sheets."""

    def apply(self, campaign: Campaign) -> None:
        """Every edit in order; if one fails, those already made are taken back first."""
        loc = Locator(campaign)
        done: list[Edit] = []
        try:
            for edit in self.edits:
                edit.apply(loc)
                done.append(edit)
        except Exception:
            loc.invalidate()
            for edit in reversed(done):
                edit.revert(loc)
            raise

    def revert(self, campaign: Campaign) -> None:
        loc = Locator(campaign)
        for edit in reversed(self.edits):
            edit.revert(loc)

    def settle_fold(self, campaign: Campaign, applied: list[Patch]) -> None:
        """The campaign has ``applied`` done and this patch is their fold (:meth:`then`):
        make it as if this had been done instead. Fields and sheets already hold the last
        step's values, so only the log differs (the fold keeps the last step's lines): take
        back every step's log lines and add this patch's. A drag step then copies no sheet.
        """
        loc = Locator(campaign)
        for patch in reversed(applied):
            for edit in reversed(patch.edits):
                if isinstance(edit, AppendLog):
                    edit.revert(loc)
        for edit in self.edits:
            if isinstance(edit, AppendLog):
                edit.apply(loc)

    @cached_property
    def summary(self) -> ChangeSummary:
        """What this step touches, the same whether it is applied or reverted."""
        total = _NOTHING if self.encounter_id is None else ChangeSummary(
            encounter_ids=frozenset({self.encounter_id}))
        for edit in self.edits:
            if type(edit) is SetCombatantField and edit.encounter_id in total.encounter_ids:
                continue  # it names only its encounter, already named (a new round has 200)
            total = total | edit.summary
        return total

    @property
    def empty(self) -> bool:
        return not self.edits

    @property
    def character_ids(self) -> frozenset[str]:
        return self.summary.character_ids

    @property
    def combatant_ids(self) -> frozenset[str]:
        return frozenset(e.combatant_id for e in self.edits if isinstance(e, SetCombatantField))

    @property
    def structural(self) -> bool:
        """Combatants were added, removed or reordered (not just changed)."""
        kinds = (InsertCombatant, RemoveCombatant, MoveCombatant)
        return any(isinstance(e, kinds) for e in self.edits)

    @property
    def time_changed(self) -> bool:
        return self.summary.time_changed

    @property
    def log_entries(self) -> tuple[EncounterLogEntry, ...]:
        return tuple(x for e in self.edits if isinstance(e, AppendLog) for x in e.entries)

    def then(self, later: Patch) -> Patch:
        """One patch doing this, then ``later``, as one step: each field goes from this
        patch's before to ``later``'s after, and only ``later``'s log lines are kept (one
        gesture, one line with the final value). Refused (ValueError) for patches that do
        anything else (add, remove or move, change the time), which do not fold this way."""
        merged: dict[tuple[object, ...], Edit] = {}
        for edit in (*self.edits, *later.edits):
            key: tuple[object, ...]
            if isinstance(edit, ReplaceSheet):
                key = ("character", edit.character_id)
                earlier = merged.get(key)
                if isinstance(earlier, ReplaceSheet):
                    edit = ReplaceSheet(earlier.before, edit.after, edit.lines)
            elif isinstance(edit, ReplaceThing):
                key = ("thing", edit.thing_id)
                earlier = merged.get(key)
                if isinstance(earlier, ReplaceThing):
                    edit = ReplaceThing(earlier.before, edit.after, edit.lines)
            elif isinstance(edit, SetEncounterThingField):
                key = ("encounter thing", edit.encounter_id, edit.entry_id, edit.name)
                earlier = merged.get(key)
                if isinstance(earlier, SetEncounterThingField):
                    edit = replace(edit, before=earlier.before)
            elif isinstance(edit, SetCombatantField):
                key = ("combatant", edit.encounter_id, edit.combatant_id, edit.name)
                earlier = merged.get(key)
                if isinstance(earlier, SetCombatantField):
                    edit = replace(edit, before=earlier.before)
            elif isinstance(edit, SetEncounterField):
                key = ("encounter", edit.encounter_id, edit.name)
                earlier = merged.get(key)
                if isinstance(earlier, SetEncounterField):
                    edit = replace(edit, before=earlier.before)
            elif isinstance(edit, AppendLog):
                key = ("log",)
            else:
                raise ValueError("only field, sheet and log edits fold into one step")
            merged[key] = edit
        merged.pop(("log",), None)
        edits = list(merged.values())
        edits += [e for e in later.edits if isinstance(e, AppendLog)]
        return Patch(later.text, tuple(edits), later.merge_key,
                     later.encounter_id or self.encounter_id)
