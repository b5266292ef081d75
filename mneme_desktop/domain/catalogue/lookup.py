"""The catalogue a campaign plays with: the built-in entries and the campaign's own.

A campaign entry with the name of a built-in one replaces it, so a setting can give the
Broadsword its own stat line without losing the rest. Names compare case-insensitively.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from mneme_desktop.domain.catalogue import builtin
from mneme_desktop.domain.catalogue.entries import CampaignCatalogue, SkillEntry, entry_key
from mneme_desktop.domain.character import Armor, Skill, Weapon

__all__ = [
    "Catalogue",
    "CatalogueEntry",
    "CatalogueKind",
    "Origin",
    "UnknownSkillError",
    "catalogue_for",
]


class CatalogueKind(StrEnum):
    """The three lists; the value is the field of :class:`CampaignCatalogue`."""

    SKILLS = "skills"
    WEAPONS = "weapons"
    ARMOR = "armor"


class Origin(StrEnum):
    """Where a catalogue entry comes from."""

    BUILTIN = "built-in"
    CAMPAIGN = "campaign"
    REPLACED = "campaign, replaces built-in"


class UnknownSkillError(ValueError):
    """A skill name neither the character nor the catalogue knows; the message names it."""

    def __init__(self, label: str) -> None:
        self.label = label
        super().__init__(
            f"unknown skill {label!r}: choose one from the catalogue, or add it to the "
            "campaign's catalogue first (Campaign > Catalogue)"
        )


_Entry = TypeVar("_Entry", SkillEntry, Weapon, Armor)

CatalogueEntry = SkillEntry | Weapon | Armor
"""One row of a catalogue: a skill, a weapon or an armor."""


def _merge(builtin: Iterable[_Entry],
           own: Iterable[_Entry]) -> tuple[list[_Entry], dict[str, Origin]]:
    entries: dict[str, _Entry] = {}
    origins: dict[str, Origin] = {}
    for item in builtin:
        key = entry_key(item.name)
        entries[key] = item
        origins[key] = Origin.BUILTIN
    for item in own:
        key = entry_key(item.name)
        origins[key] = Origin.REPLACED if key in entries else Origin.CAMPAIGN
        entries[key] = item
    ordered = sorted(entries.values(), key=lambda x: entry_key(x.name))
    return ordered, origins


@dataclass(frozen=True)
class Catalogue:
    """Every entry a campaign can pick from, sorted by name; read-only."""

    skills: tuple[SkillEntry, ...]
    weapons: tuple[Weapon, ...]
    armor: tuple[Armor, ...]
    _origins: dict[tuple[CatalogueKind, str], Origin] = field(default_factory=dict, repr=False)

    def origin(self, kind: CatalogueKind, name: str) -> Origin | None:
        return self._origins.get((kind, entry_key(name)))

    def entries(self, kind: CatalogueKind) -> tuple[CatalogueEntry, ...]:
        items: tuple[CatalogueEntry, ...] = getattr(self, kind.value)
        return items

    # --- skills --------------------------------------------------------------------------

    def skill(self, name: str) -> SkillEntry | None:
        """The entry for ``name`` ("Gun Combat"; a bracketed specialty is ignored)."""
        bare, _specialty = Skill.split_label(name)
        key = entry_key(bare)
        return next((s for s in self.skills if entry_key(s.name) == key), None)

    def knows_skill(self, label: str) -> bool:
        return self.skill(label) is not None

    def check_skill(self, label: str) -> SkillEntry:
        """The entry for ``label``; :class:`UnknownSkillError` naming it when there is none."""
        entry = self.skill(label)
        if entry is None:
            raise UnknownSkillError(label.strip())
        return entry

    def skill_labels(self) -> list[str]:
        """Every name a skill cell can complete to: "Gun Combat", "Gun Combat (Archery)"..."""
        return [label for entry in self.skills for label in entry.labels()]

    def canonical_skill(self, label: str) -> tuple[str, str | None]:
        """(name, specialty) as the catalogue spells them: "gun combat (slug rifle)" ->
        ("Gun Combat", "Slug Rifle"); an unlisted specialty keeps the referee's spelling."""
        entry = self.check_skill(label)
        _bare, specialty = Skill.split_label(label)
        if specialty is not None:
            key = entry_key(specialty)
            specialty = next((s for s in entry.specialties if entry_key(s) == key),
                             " ".join(specialty.split()))
        return entry.name, specialty

    # --- weapons and armor ---------------------------------------------------------------

    def weapon(self, name: str) -> Weapon | None:
        key = entry_key(name)
        return next((w for w in self.weapons if entry_key(w.name) == key), None)

    def armor_named(self, name: str) -> Armor | None:
        key = entry_key(name)
        return next((a for a in self.armor if entry_key(a.name) == key), None)


_last: list[tuple[CampaignCatalogue, Catalogue]] = []
"""The last catalogue built and a copy of the entries it was built from: a sheet asks for
the catalogue on every cell it completes, and the campaign's entries rarely change."""


def catalogue_for(own: CampaignCatalogue | None = None) -> Catalogue:
    """The built-in catalogue with the campaign's ``own`` entries added (or replacing)."""
    own = own if own is not None else CampaignCatalogue()
    if _last and _last[0][0] == own:
        return _last[0][1]
    built = _build(own)
    _last[:] = [(own.model_copy(deep=True), built)]
    return built


def _build(own: CampaignCatalogue) -> Catalogue:
    skills, skill_origins = _merge(builtin.BUILTIN_SKILLS, own.skills)
    weapons, weapon_origins = _merge(builtin.BUILTIN_WEAPONS, own.weapons)
    armor, armor_origins = _merge(builtin.BUILTIN_ARMOR, own.armor)
    origins: dict[tuple[CatalogueKind, str], Origin] = {}
    for kind, found in ((CatalogueKind.SKILLS, skill_origins),
                        (CatalogueKind.WEAPONS, weapon_origins),
                        (CatalogueKind.ARMOR, armor_origins)):
        origins.update({(kind, key): origin for key, origin in found.items()})
    return Catalogue(tuple(skills), tuple(weapons), tuple(armor), origins)
