"""What a catalogue holds: skills with their specialties, weapons and armor.

Weapons and armor are the very models a character carries (:class:`Weapon`,
:class:`Armor`), so taking one from the catalogue copies every column and a new column
can never be forgotten. A campaign's own entries (:class:`CampaignCatalogue`) are stored
in its ``.mneme`` file; the built-in ones live in :mod:`.builtin`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from mneme_desktop.domain.character import Armor, Skill, Weapon

__all__ = ["CampaignCatalogue", "SkillEntry", "entry_key"]

_MODEL = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)


def entry_key(name: str) -> str:
    """How catalogue names compare: "gun combat" and "Gun Combat" are one entry."""
    return " ".join(name.split()).casefold()


class SkillEntry(BaseModel):
    """A skill a character may learn, and the specialties the book lists for it.

    ``specialties`` is empty for a skill without them. A specialty not listed is still
    allowed on a sheet (Craft, Language and Science have as many as a setting needs).
    """

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=100)
    specialties: list[str] = Field(default_factory=list, max_length=100)
    notes: str = Field(default="", max_length=2000)

    @field_validator("name", mode="after")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("a skill needs a name")
        if "(" in value or ")" in value:
            raise ValueError(
                f"{value!r}: write the skill name without brackets and list the specialty "
                "separately"
            )
        return value

    @field_validator("specialties", mode="after")
    @classmethod
    def _clean_specialties(cls, value: list[str]) -> list[str]:
        cleaned: list[str] = []
        seen: set[str] = set()
        for item in value:
            text = " ".join(item.split())
            if not text:
                continue
            if len(text) > 100:
                raise ValueError(f"specialty {text[:20]!r}... is longer than 100 characters")
            if entry_key(text) in seen:
                raise ValueError(f"specialty {text!r} is listed twice")
            seen.add(entry_key(text))
            cleaned.append(text)
        return cleaned

    def labels(self) -> list[str]:
        """"Gun Combat", then "Gun Combat (Slug Rifle)" for every specialty."""
        return [self.name, *(Skill(name=self.name, specialty=s).label for s in self.specialties)]


def _unique(kind: str, names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        key = entry_key(name)
        if key in seen:
            raise ValueError(f"the campaign catalogue has two {kind} called {name!r}")
        seen.add(key)


class CampaignCatalogue(BaseModel):
    """The campaign's own catalogue entries: added to the built-in ones, and replacing a
    built-in entry of the same name (a setting's own Broadsword)."""

    model_config = _MODEL

    skills: list[SkillEntry] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    armor: list[Armor] = Field(default_factory=list)

    @model_validator(mode="after")
    def _names_unique(self) -> CampaignCatalogue:
        _unique("skills", [s.name for s in self.skills])
        _unique("weapons", [w.name for w in self.weapons])
        _unique("armors", [a.name for a in self.armor])
        return self

    @property
    def empty(self) -> bool:
        return not (self.skills or self.weapons or self.armor)
