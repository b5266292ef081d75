"""The campaign: everything a referee keeps in one ``.mneme`` file."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.catalogue.entries import CampaignCatalogue
from mneme_desktop.domain.character import Character, new_id
from mneme_desktop.domain.encounter import Combatant, Encounter, EncounterThing
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.domain.lookup import IdIndex, Place, PrivateIndex, SheetPlaces
from mneme_desktop.domain.things import CrewPosition, Thing, ThingTemplate
from mneme_desktop.rules.wounds import ThresholdBasis

__all__ = [
    "CAMPAIGN_FORMAT",
    "SCHEMA_VERSION",
    "Campaign",
    "CampaignIntegrityError",
    "IntegrityProblem",
    "JournalEntry",
    "RulesOptions",
]

CAMPAIGN_FORMAT: Final = "mneme-campaign"
"""The ``format`` key every campaign file carries, so other JSON is recognised at once."""

SCHEMA_VERSION = 2
"""The campaign schema this version writes. Older files are migrated on load
(:mod:`mneme_desktop.storage.migrations`); newer ones are refused."""

FieldPath = tuple[str | int, ...]


@dataclass(frozen=True)
class IntegrityProblem:
    """Something wrong between parts of a campaign (a duplicate id, a dangling reference)."""

    path: FieldPath
    message: str

    @property
    def where(self) -> str:
        """``characters[3].id`` - the path as a referee would search the file for it."""
        text = ""
        for part in self.path:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
        return text

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.path else self.message


class CampaignIntegrityError(ValueError):
    """Raised by validation when the parts of a campaign do not fit together."""

    def __init__(self, problems: list[IntegrityProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


class JournalEntry(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    game_time: GameTime = Field(default_factory=GameTime)
    title: str = Field(default="", max_length=500)
    text: str = ""


class RulesOptions(BaseModel):
    """Where the chapters allow two readings, the campaign records which one it plays."""

    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

    threshold_basis: ThresholdBasis = Field(
        default=ThresholdBasis.HP_FRACTIONS,
        description="Seriously/critically wounded from HP thirds, or from the best physical "
        "characteristic",
    )


class _Lookups(PrivateIndex):
    """A campaign's indexes by id (see :mod:`mneme_desktop.domain.lookup`)."""

    __slots__ = (
        "characters", "encounters", "sheets", "templates", "thing_places", "thing_templates",
        "things",
    )

    def __init__(self) -> None:
        self.characters: IdIndex[Character] = IdIndex()
        self.templates: IdIndex[AdversaryTemplate] = IdIndex()
        self.encounters: IdIndex[Encounter] = IdIndex()
        self.sheets = SheetPlaces()
        self.things: IdIndex[Thing] = IdIndex()
        self.thing_templates: IdIndex[ThingTemplate] = IdIndex()
        self.thing_places = SheetPlaces()


class Campaign(BaseModel):
    """A whole campaign. Ids are unique within their list and every reference resolves."""

    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

    format: Literal["mneme-campaign"] = CAMPAIGN_FORMAT
    schema_version: int = Field(
        default=SCHEMA_VERSION, ge=SCHEMA_VERSION, le=SCHEMA_VERSION, strict=True
    )
    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    game_time: GameTime = Field(default_factory=GameTime)
    rules_options: RulesOptions = Field(default_factory=RulesOptions)
    characters: list[Character] = Field(default_factory=list)
    adversary_library: list[AdversaryTemplate] = Field(default_factory=list)
    encounters: list[Encounter] = Field(default_factory=list)
    journal: list[JournalEntry] = Field(default_factory=list)
    notes: str = ""
    infirmary: Infirmary = Field(default_factory=Infirmary)
    catalogue: CampaignCatalogue = Field(
        default_factory=CampaignCatalogue,
        description="The campaign's own skills, weapons and armor, beside the built-in ones",
    )
    things: list[Thing] = Field(
        default_factory=list, description="The campaign's own vehicles, craft, structures"
    )
    thing_library: list[ThingTemplate] = Field(
        default_factory=list, description="Templates of things encounters make instances of"
    )

    # Lookups by id, checked against the lists on every use (mneme_desktop.domain.lookup):
    # O(1) per row however the lists are changed, and never a stale answer.
    _lookups: _Lookups = PrivateAttr(default_factory=_Lookups)

    @model_validator(mode="after")
    def _parts_fit_together(self) -> Campaign:
        problems = self.integrity_problems()
        if problems:
            raise CampaignIntegrityError(problems)
        return self

    # --- integrity ---------------------------------------------------------------------

    def integrity_problems(self) -> list[IntegrityProblem]:
        """Duplicate ids and references to things that are not there, each with its path."""
        problems: list[IntegrityProblem] = []
        problems += _duplicates("characters", (c.id for c in self.characters))
        problems += _duplicates("adversary_library", (t.id for t in self.adversary_library))
        problems += _duplicates("encounters", (e.id for e in self.encounters))
        problems += _duplicates("journal", (j.id for j in self.journal))
        problems += _duplicates("things", (t.id for t in self.things))
        problems += _duplicates("thing_library", (t.id for t in self.thing_library))
        character_ids = {c.id for c in self.characters}
        thing_ids = {t.id for t in self.things}
        for e_index, encounter in enumerate(self.encounters):
            base: FieldPath = ("encounters", e_index, "combatants")
            problems += _duplicates(base, (c.id for c in encounter.combatants))
            combatant_ids = {c.id for c in encounter.combatants}
            problems += _thing_problems(("encounters", e_index), encounter, thing_ids)
            entry_ids = {t.id for t in encounter.things}
            for c_index, combatant in enumerate(encounter.combatants):
                here = (*base, c_index)
                if combatant.cover_thing_id is not None and combatant.cover_thing_id not in (
                    entry_ids
                ):
                    problems.append(
                        IntegrityProblem(
                            (*here, "cover_thing_id"),
                            f"no thing with id {combatant.cover_thing_id!r} in this encounter",
                        )
                    )
                if combatant.character_id is not None and combatant.character_id not in (
                    character_ids
                ):
                    problems.append(
                        IntegrityProblem(
                            (*here, "character_id"),
                            f"no character with id {combatant.character_id!r} in this campaign",
                        )
                    )
                if combatant.aim_target_id is not None and combatant.aim_target_id not in (
                    combatant_ids
                ):
                    problems.append(
                        IntegrityProblem(
                            (*here, "aim_target_id"),
                            f"no combatant with id {combatant.aim_target_id!r} in this encounter",
                        )
                    )
        return problems

    # --- lookups -----------------------------------------------------------------------

    def find_character(self, character_id: str) -> Character | None:
        return self._index().characters.find(self.characters, character_id)

    def character(self, character_id: str) -> Character:
        found = self.find_character(character_id)
        if found is None:
            raise KeyError(f"no character {character_id!r} in campaign {self.name!r}")
        return found

    def character_position(self, character_id: str) -> int | None:
        """Where the character is in :attr:`characters`, or None."""
        return self._index().characters.position(self.characters, character_id)

    def find_template(self, template_id: str) -> AdversaryTemplate | None:
        return self._index().templates.find(self.adversary_library, template_id)

    def template(self, template_id: str) -> AdversaryTemplate:
        found = self.find_template(template_id)
        if found is None:
            raise KeyError(f"no adversary template {template_id!r} in campaign {self.name!r}")
        return found

    def find_encounter(self, encounter_id: str) -> Encounter | None:
        return self._index().encounters.find(self.encounters, encounter_id)

    def encounter(self, encounter_id: str) -> Encounter:
        found = self.find_encounter(encounter_id)
        if found is None:
            raise KeyError(f"no encounter {encounter_id!r} in campaign {self.name!r}")
        return found

    def combatant_character(self, combatant: Combatant) -> Character:
        """The character sheet a combatant fights with: its instance, or the referenced PC/NPC."""
        if combatant.instance is not None:
            return combatant.instance
        assert combatant.character_id is not None  # guaranteed by Combatant validation
        return self.character(combatant.character_id)

    def find_sheet(self, sheet_id: str) -> Character | None:
        """Any character sheet by id, wherever it lives: a campaign character, a template's
        stat block or an encounter's instance. The one search for "any sheet"."""
        place = self._sheet_place(sheet_id)
        return None if place is None else self._sheet_at(place)

    def put_sheet(self, sheet: Character) -> Character:
        """Put ``sheet`` where the sheet with its id lives (see :meth:`find_sheet`) and
        return the one it replaced; the one way edits put a sheet back."""
        place = self._sheet_place(sheet.id)
        if place is None:
            raise KeyError(f"no character {sheet.id!r} in campaign {self.name!r}")
        old = self._sheet_at(place)
        assert old is not None  # checked by _sheet_place
        where, first, second = place
        if where == 0:
            self.characters[first] = sheet
        elif where == 1:
            self.adversary_library[first].stats = sheet
        else:
            self.encounters[first].combatants[second].instance = sheet
        return old

    # --- things (vehicles, craft, structures, cover objects) ---------------------------

    def find_campaign_thing(self, thing_id: str) -> Thing | None:
        """One of the campaign's own things (not a template's or an encounter's)."""
        return self._index().things.find(self.things, thing_id)

    def find_thing_template(self, template_id: str) -> ThingTemplate | None:
        return self._index().thing_templates.find(self.thing_library, template_id)

    def thing_template(self, template_id: str) -> ThingTemplate:
        found = self.find_thing_template(template_id)
        if found is None:
            raise KeyError(f"no thing template {template_id!r} in campaign {self.name!r}")
        return found

    def encounter_thing(self, entry: EncounterThing) -> Thing:
        """The thing an encounter entry stands for: its instance, or the campaign thing."""
        if entry.instance is not None:
            return entry.instance
        assert entry.thing_id is not None  # guaranteed by EncounterThing validation
        found = self.find_campaign_thing(entry.thing_id)
        if found is None:
            raise KeyError(f"no thing {entry.thing_id!r} in campaign {self.name!r}")
        return found

    def find_thing(self, thing_id: str) -> Thing | None:
        """Any thing by id, wherever it lives: a campaign thing, a template's stats or an
        encounter's instance. The one search for "any thing", as :meth:`find_sheet` is for
        character sheets."""
        place = self._thing_place(thing_id)
        return None if place is None else self._thing_at(place)

    def thing(self, thing_id: str) -> Thing:
        found = self.find_thing(thing_id)
        if found is None:
            raise KeyError(f"no thing {thing_id!r} in campaign {self.name!r}")
        return found

    def put_thing(self, thing: Thing) -> Thing:
        """Put ``thing`` where the thing with its id lives and return the one it replaced;
        the one way edits put a thing back."""
        place = self._thing_place(thing.id)
        if place is None:
            raise KeyError(f"no thing {thing.id!r} in campaign {self.name!r}")
        old = self._thing_at(place)
        assert old is not None  # checked by _thing_place
        where, first, second = place
        if where == 0:
            self.things[first] = thing
        elif where == 1:
            self.thing_library[first].stats = thing
        else:
            self.encounters[first].things[second].instance = thing
        return old

    def thing_encounters(self, thing_id: str) -> list[Encounter]:
        """The encounters a thing takes part in (by reference or as an instance)."""
        return [e for e in self.encounters
                if any(t.thing_id == thing_id or (t.instance is not None
                                                  and t.instance.id == thing_id)
                       for t in e.things)]

    def crew_of(self, thing: Thing) -> list[tuple[CrewPosition, Character | None]]:
        """Each crew position with the sheet sitting there (None: empty, or its character
        is gone)."""
        return [(position, None if position.character_id is None
                 else self.find_sheet(position.character_id)) for position in thing.crew]

    def _thing_at(self, place: Place) -> Thing | None:
        where, first, second = place
        if where == 0:
            return self.things[first] if first < len(self.things) else None
        if where == 1:
            library = self.thing_library
            return library[first].stats if first < len(library) else None
        if first >= len(self.encounters):
            return None
        entries = self.encounters[first].things
        return entries[second].instance if second < len(entries) else None

    def _thing_place(self, thing_id: str) -> Place | None:
        index = self._index().thing_places
        lists: list[Sequence[object]] = [self.things, self.thing_library, self.encounters]
        lists += [e.things for e in self.encounters]
        if index.current(*lists):
            place = index.places.get(thing_id)
            if place is not None:
                thing = self._thing_at(place)
                if thing is not None and thing.id == thing_id:
                    return place
        places: dict[str, Place] = {}
        for position, thing in enumerate(self.things):
            places.setdefault(thing.id, (0, position, 0))
        for position, template in enumerate(self.thing_library):
            places.setdefault(template.stats.id, (1, position, 0))
        for position, encounter in enumerate(self.encounters):
            for number, entry in enumerate(encounter.things):
                if entry.instance is not None:
                    places.setdefault(entry.instance.id, (2, position, number))
        index.rebuilt(places, *lists)
        return places.get(thing_id)

    def _index(self) -> _Lookups:
        # Read past pydantic's __getattr__ for private attributes (40 times slower).
        private = self.__pydantic_private__
        assert private is not None
        lookups: _Lookups = private["_lookups"]
        return lookups

    def _sheet_at(self, place: Place) -> Character | None:
        where, first, second = place
        if where == 0:
            return self.characters[first] if first < len(self.characters) else None
        if where == 1:
            library = self.adversary_library
            return library[first].stats if first < len(library) else None
        if first >= len(self.encounters):
            return None
        combatants = self.encounters[first].combatants
        return combatants[second].instance if second < len(combatants) else None

    def _sheet_place(self, sheet_id: str) -> Place | None:
        """Where the sheet ``sheet_id`` lives, checked against the lists (rebuilt from them
        when anything moved): characters first, then templates, then instances."""
        index = self._index().sheets
        lists = (self.characters, self.adversary_library, self.encounters)
        if index.current(*lists):
            place = index.places.get(sheet_id)
            if place is not None:
                sheet = self._sheet_at(place)
                if sheet is not None and sheet.id == sheet_id:
                    return place
        places: dict[str, Place] = {}
        for position, character in enumerate(self.characters):
            places.setdefault(character.id, (0, position, 0))
        for position, template in enumerate(self.adversary_library):
            places.setdefault(template.stats.id, (1, position, 0))
        for position, encounter in enumerate(self.encounters):
            for number, combatant in enumerate(encounter.combatants):
                if combatant.instance is not None:
                    places.setdefault(combatant.instance.id, (2, position, number))
        index.rebuilt(places, *lists)
        return places.get(sheet_id)

    # --- editing that keeps references whole --------------------------------------------

    def add_character(self, character: Character) -> Character:
        """Append a character, giving it a new id if this campaign already uses its id."""
        if self.find_character(character.id) is not None:
            character.id = new_id()
        self.characters.append(character)
        return character

    def remove_character(self, character_id: str) -> Character:
        """Remove a character and take it out of every encounter it was in."""
        character = self.character(character_id)
        for encounter in self.encounters:
            for combatant in [c for c in encounter.combatants if c.character_id == character_id]:
                encounter.remove_combatant(combatant.id)
        self.characters = [c for c in self.characters if c is not character]
        return character

    def advance_time(
        self,
        *,
        rounds: int = 0,
        seconds: int = 0,
        minutes: int = 0,
        hours: int = 0,
        days: int = 0,
    ) -> GameTime:
        self.game_time = self.game_time.advance(
            rounds=rounds, seconds=seconds, minutes=minutes, hours=hours, days=days
        )
        return self.game_time

    def all_characters(self) -> Iterator[Character]:
        """Every character sheet in the campaign, including adversary instances in encounters."""
        yield from self.characters
        for encounter in self.encounters:
            for combatant in encounter.combatants:
                if combatant.instance is not None:
                    yield combatant.instance


def _thing_problems(
    base: FieldPath, encounter: Encounter, thing_ids: set[str]
) -> list[IntegrityProblem]:
    """An encounter's things: unique ids, and every campaign thing they name is there."""
    problems = _duplicates((*base, "things"), (t.id for t in encounter.things))
    for index, entry in enumerate(encounter.things):
        if entry.thing_id is not None and entry.thing_id not in thing_ids:
            problems.append(IntegrityProblem(
                (*base, "things", index, "thing_id"),
                f"no thing with id {entry.thing_id!r} in this campaign"))
    return problems


def _duplicates(where: str | FieldPath, ids: Iterable[str]) -> list[IntegrityProblem]:
    base: FieldPath = (where,) if isinstance(where, str) else where
    seen: dict[str, int] = {}
    problems: list[IntegrityProblem] = []
    for index, item_id in enumerate(ids):
        if item_id in seen:
            first = IntegrityProblem((*base, seen[item_id]), "").where
            problems.append(
                IntegrityProblem((*base, index, "id"), f"duplicate id {item_id!r} (also {first})")
            )
        else:
            seen[item_id] = index
    return problems
