"""Combat's side of the one edit vocabulary (:mod:`mneme_desktop.domain.edits`): the
:class:`PatchBuilder` every combat step builds its :class:`~mneme_desktop.domain.edits.Patch`
with. ``EncounterPatch`` is the same :class:`Patch`, its encounter named in the summary.

Everything else in the package builds its patch through a :class:`PatchBuilder`, so this
module depends on nothing else in it.
"""

from __future__ import annotations

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Character
from mneme_desktop.domain.edits import (
    AppendLog,
    Edit,
    InsertCombatant,
    MoveCombatant,
    Patch,
    RemoveCombatant,
    ReplaceSheet,
    ReplaceThing,
    SetClock,
    SetCombatantField,
    SetEncounterField,
)
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterLogEntry
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.things import Thing

__all__ = [
    "AppendLog",
    "Edit",
    "EncounterPatch",
    "InsertCombatant",
    "MoveCombatant",
    "Patch",
    "PatchBuilder",
    "RemoveCombatant",
    "ReplaceSheet",
    "SetClock",
    "SetCombatantField",
    "SetEncounterField",
]

EncounterPatch = Patch
"""A combat step is a :class:`Patch` whose ``encounter_id`` names its fight."""


class PatchBuilder:
    """Collects the edits of one step, reading through what the step already changed.

    Character sheets are edited on working copies (one per character) that become a
    single :class:`ReplaceSheet` each; field edits that change nothing are dropped.
    """

    def __init__(self, campaign: Campaign, encounter: Encounter) -> None:
        self.campaign = campaign
        self.encounter = encounter
        self._encounter_fields: dict[str, object] = {}
        self._combatant_fields: dict[tuple[str, str], object] = {}
        self._characters: dict[str, tuple[Character, Character]] = {}
        self._things: dict[str, tuple[Thing, Thing, list[str]]] = {}
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

    def thing(self, thing_id: str) -> Thing:
        """A thing (cover object, vehicle) as this step has left it so far (read only)."""
        pending = self._things.get(thing_id)
        return self.campaign.thing(thing_id) if pending is None else pending[1]

    def edit_thing(self, thing_id: str, line: str = "") -> Thing:
        """A working copy of a thing that this step may change; ``line`` says what."""
        pending = self._things.get(thing_id)
        if pending is None:
            original = self.campaign.thing(thing_id)
            pending = (original, original.model_copy(deep=True), [])
            self._things[thing_id] = pending
            self._order.append(("thing", thing_id))
        if line:
            pending[2].append(line)
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

    def build(self, text: str, merge_key: str | None = None) -> Patch:
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
            elif kind == "thing":
                assert isinstance(key, str)
                thing, edited, lines = self._things[key]
                checked = Thing.model_validate(edited.model_dump())
                if checked != thing:
                    edits.append(ReplaceThing(thing, checked, tuple(lines)))
            else:
                assert isinstance(key, str)
                original, changed = self._characters[key]
                validated = Character.model_validate(changed.model_dump())
                if validated != original:
                    # The sheet being replaced leaves the campaign when the patch applies,
                    # so it is kept as it is rather than copied (patches are pushed at once).
                    edits.append(ReplaceSheet(original, validated))
        if self._time is not None and self._time != self.campaign.game_time:
            edits.append(SetClock(self.campaign.game_time, self._time))
        if self._log:
            edits.append(AppendLog(encounter_id, tuple(self._log)))
        return Patch(text, tuple(edits), merge_key, encounter_id)
