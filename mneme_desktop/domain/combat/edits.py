"""Reversible edits: the exact, small changes a referee step makes, and the patch that
applies and reverts them as one undo step.

Everything else in the package builds an :class:`EncounterPatch` through a
:class:`PatchBuilder`, so this module depends on nothing else in it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pydantic import BaseModel

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterLogEntry
from mneme_desktop.domain.gametime import GameTime


class _Locator:
    """Finds encounters, combatants and character sheets by id during one apply or revert.

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

    def put_character(self, character: Character) -> None:
        """Put ``character`` where the sheet with its id lives (campaign or instance)."""
        characters = self.campaign.characters
        for index, old in enumerate(characters):
            if old.id == character.id:
                characters[index] = character
                return
        for encounter in self.campaign.encounters:
            for combatant in encounter.combatants:
                if combatant.instance is not None and combatant.instance.id == character.id:
                    combatant.instance = character
                    return
        raise KeyError(f"no character {character.id!r} in this campaign")


def _fresh(value: object) -> object:
    """A private copy of model values, so nothing stored in an edit is ever shared live."""
    return value.model_copy(deep=True) if isinstance(value, BaseModel) else value


@dataclass(frozen=True)
class SetEncounterField:
    encounter_id: str
    name: str
    before: object
    after: object

    def apply(self, loc: _Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.after))

    def revert(self, loc: _Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.before))


@dataclass(frozen=True)
class SetCombatantField:
    encounter_id: str
    combatant_id: str
    name: str
    before: object
    after: object

    def apply(self, loc: _Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.after))

    def revert(self, loc: _Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.before))


@dataclass(frozen=True)
class ReplaceCharacter:
    """One character sheet before and after (both private copies)."""

    before: Character
    after: Character

    def __post_init__(self) -> None:
        if self.before.id != self.after.id:
            raise ValueError("a character edit must keep the character's id")

    @property
    def character_id(self) -> str:
        return self.after.id

    def apply(self, loc: _Locator) -> None:
        loc.put_character(self.after.model_copy(deep=True))

    def revert(self, loc: _Locator) -> None:
        loc.put_character(self.before.model_copy(deep=True))


@dataclass(frozen=True)
class InsertCombatant:
    encounter_id: str
    index: int
    combatant: Combatant

    def apply(self, loc: _Locator) -> None:
        loc.encounter(self.encounter_id).combatants.insert(
            self.index, self.combatant.model_copy(deep=True)
        )
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        position = next(i for i, c in enumerate(combatants) if c.id == self.combatant.id)
        del combatants[position]
        loc.invalidate()


@dataclass(frozen=True)
class RemoveCombatant:
    encounter_id: str
    index: int
    combatant: Combatant

    def apply(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        position = next(i for i, c in enumerate(combatants) if c.id == self.combatant.id)
        del combatants[position]
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        loc.encounter(self.encounter_id).combatants.insert(
            self.index, self.combatant.model_copy(deep=True)
        )
        loc.invalidate()


@dataclass(frozen=True)
class MoveCombatant:
    """Move a combatant within the list; ties in initiative keep list order, so this is
    how a referee breaks a tie."""

    encounter_id: str
    from_index: int
    to_index: int

    def apply(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.to_index, combatants.pop(self.from_index))
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.from_index, combatants.pop(self.to_index))
        loc.invalidate()


@dataclass(frozen=True)
class AppendLog:
    encounter_id: str
    entries: tuple[EncounterLogEntry, ...]

    def apply(self, loc: _Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        log.extend(entry.model_copy(deep=True) for entry in self.entries)

    def revert(self, loc: _Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        count = len(self.entries)
        tail = [entry.id for entry in log[len(log) - count :]]
        if tail != [entry.id for entry in self.entries]:
            raise RuntimeError("the encounter log changed under an undo step")
        del log[len(log) - count :]


@dataclass(frozen=True)
class SetGameTime:
    before: GameTime
    after: GameTime

    def apply(self, loc: _Locator) -> None:
        loc.campaign.game_time = self.after

    def revert(self, loc: _Locator) -> None:
        loc.campaign.game_time = self.before


Edit = (
    SetEncounterField
    | SetCombatantField
    | ReplaceCharacter
    | InsertCombatant
    | RemoveCombatant
    | MoveCombatant
    | AppendLog
    | SetGameTime
)


@dataclass(frozen=True)
class EncounterPatch:
    """One referee step as exact, reversible edits; ``apply`` then ``revert`` is a no-op."""

    encounter_id: str
    text: str
    edits: tuple[Edit, ...]
    merge_key: str | None = None
    """Patches with the same key in a row merge into one undo step (dragging an HP bar)."""

    def apply(self, campaign: Campaign) -> None:
        loc = _Locator(campaign)
        for edit in self.edits:
            edit.apply(loc)

    def revert(self, campaign: Campaign) -> None:
        loc = _Locator(campaign)
        for edit in reversed(self.edits):
            edit.revert(loc)

    @property
    def empty(self) -> bool:
        return not self.edits

    @property
    def character_ids(self) -> frozenset[str]:
        return frozenset(e.character_id for e in self.edits if isinstance(e, ReplaceCharacter))

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
        return any(isinstance(e, SetGameTime) for e in self.edits)

    @property
    def log_entries(self) -> tuple[EncounterLogEntry, ...]:
        return tuple(x for e in self.edits if isinstance(e, AppendLog) for x in e.entries)

    def then(self, later: EncounterPatch) -> EncounterPatch:
        """One patch doing this, then ``later``, as one step: each field goes from this
        patch's before to ``later``'s after, and only ``later``'s log lines are kept (one
        gesture, one line with the final value). Refused (ValueError) for patches that add,
        remove or move combatants or change the time, which do not fold this way."""
        merged: dict[tuple[object, ...], Edit] = {}
        for edit in (*self.edits, *later.edits):
            key: tuple[object, ...]
            if isinstance(edit, ReplaceCharacter):
                key = ("character", edit.character_id)
                earlier = merged.get(key)
                if isinstance(earlier, ReplaceCharacter):
                    edit = ReplaceCharacter(earlier.before, edit.after)
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
        log = merged.pop(("log",), None)
        if log is not None and later.log_entries:
            merged[("log",)] = AppendLog(later.encounter_id, later.log_entries)
        return EncounterPatch(later.encounter_id, later.text, tuple(merged.values()),
                              later.merge_key)


class PatchBuilder:
    """Collects the edits of one step, reading through what the step already changed.

    Character sheets are edited on working copies (one per character) that become a
    single :class:`ReplaceCharacter` each; field edits that change nothing are dropped.
    """

    def __init__(self, campaign: Campaign, encounter: Encounter) -> None:
        self.campaign = campaign
        self.encounter = encounter
        self._encounter_fields: dict[str, object] = {}
        self._combatant_fields: dict[tuple[str, str], object] = {}
        self._characters: dict[str, tuple[Character, Character]] = {}
        self._structural: list[Edit] = []
        self._log: list[EncounterLogEntry] = []
        self._time: GameTime | None = None
        self._order: list[tuple[str, object]] = []

    # --- reading through pending changes --------------------------------------------

    @property
    def round(self) -> int:
        value = self.get_encounter("round")
        assert isinstance(value, int)
        return value

    @property
    def turn_index(self) -> int:
        value = self.get_encounter("turn_index")
        assert isinstance(value, int)
        return value

    @property
    def now(self) -> GameTime:
        return self._time if self._time is not None else self.campaign.game_time

    def get_encounter(self, name: str) -> object:
        if name in self._encounter_fields:
            return self._encounter_fields[name]
        return getattr(self.encounter, name)

    def get(self, combatant: Combatant, name: str) -> object:
        key = (combatant.id, name)
        if key in self._combatant_fields:
            return self._combatant_fields[key]
        return getattr(combatant, name)

    def get_int(self, combatant: Combatant, name: str) -> int:
        value = self.get(combatant, name)
        assert isinstance(value, int)
        return value

    def character(self, combatant: Combatant) -> Character:
        """The combatant's sheet as this step has left it so far (read only)."""
        original = self.campaign.combatant_character(combatant)
        pending = self._characters.get(original.id)
        return original if pending is None else pending[1]

    def edit_character(self, combatant: Combatant) -> Character:
        """A working copy of the combatant's sheet that this step may change."""
        original = self.campaign.combatant_character(combatant)
        pending = self._characters.get(original.id)
        if pending is None:
            pending = (original, original.model_copy(deep=True))
            self._characters[original.id] = pending
            self._order.append(("character", original.id))
        return pending[1]

    # --- writing ----------------------------------------------------------------------

    def set_encounter(self, name: str, value: object) -> None:
        if name not in self._encounter_fields:
            self._order.append(("encounter", name))
        self._encounter_fields[name] = value

    def set(self, combatant: Combatant, name: str, value: object) -> None:
        key = (combatant.id, name)
        if key not in self._combatant_fields:
            self._order.append(("combatant", key))
        self._combatant_fields[key] = value

    def set_time(self, value: GameTime) -> None:
        self._time = value

    def structural(self, edit: Edit) -> None:
        self._structural.append(edit)

    def log(self, **values: object) -> EncounterLogEntry:
        """Add a log entry stamped with this step's round and game time."""
        values.setdefault("round", self.round)
        values.setdefault("at", self.now)
        entry = EncounterLogEntry.model_validate(values)
        self._log.append(entry)
        return entry

    @property
    def logged(self) -> tuple[EncounterLogEntry, ...]:
        return tuple(self._log)

    def build(self, text: str, merge_key: str | None = None) -> EncounterPatch:
        encounter_id = self.encounter.id
        edits: list[Edit] = list(self._structural)
        combatants = {c.id: c for c in self.encounter.combatants}
        for kind, key in self._order:
            if kind == "encounter":
                assert isinstance(key, str)
                before = getattr(self.encounter, key)
                after = self._encounter_fields[key]
                if before != after:
                    edits.append(SetEncounterField(encounter_id, key, before, after))
            elif kind == "combatant":
                assert isinstance(key, tuple)
                combatant_id, name = key
                before = getattr(combatants[combatant_id], name)
                after = self._combatant_fields[key]
                if before != after:
                    edits.append(
                        SetCombatantField(encounter_id, combatant_id, name, before, after)
                    )
            else:
                assert isinstance(key, str)
                original, changed = self._characters[key]
                validated = Character.model_validate(changed.model_dump())
                if validated != original:
                    # The sheet being replaced leaves the campaign when the patch applies,
                    # so it is kept as it is rather than copied (patches are pushed at once).
                    edits.append(ReplaceCharacter(original, validated))
        if self._time is not None and self._time != self.campaign.game_time:
            edits.append(SetGameTime(self.campaign.game_time, self._time))
        if self._log:
            edits.append(AppendLog(encounter_id, tuple(self._log)))
        return EncounterPatch(encounter_id, text, tuple(edits), merge_key)
