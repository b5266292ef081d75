"""Things: vehicles, craft, structures and cover objects, on the same damage track as people.

Ch.7: "Characters, Objects, Vehicles, and Infrastructure have Hit Points", each with a scale
(Deka, Heka, Kilo) for HP and armor; a thing used as cover absorbs fail effect up to its
protection and takes those damage rolls itself. Only the referee's inputs are stored (HP and
armor as written, with their scale; damage taken in plain points); the state, thresholds and
track are asked of :mod:`mneme_desktop.rules.thing_damage` each time.

Things live in three places, as character sheets do: the campaign's own things
(:attr:`Campaign.things`, the party's ground car), the template library
(:attr:`Campaign.thing_library`, "Shield"), and encounters (:class:`EncounterThing`: a campaign
thing by reference, or a numbered instance of a template, "Shield 2"; see
:class:`mneme_desktop.domain.encounter.EncounterThing`).
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from mneme_desktop.domain.character import MAX_AMOUNT, Amount, Weapon, new_id
from mneme_desktop.rules.damage import scaled_armor, scaled_hit_points
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.thing_damage import (
    ThingState,
    scale_notation,
    thing_state,
    thing_track,
)
from mneme_desktop.rules.track import DamageTrack

__all__ = [
    "MAX_PROTECTION",
    "CrewPosition",
    "Thing",
    "ThingKind",
    "ThingTemplate",
    "next_thing_number",
]

_MODEL = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

MAX_PROTECTION = 20
"""Largest protection a thing can give as cover (the book's cover goes to +4, a Defend
doubles it; headroom for house rules, never an absurd number)."""


class ThingKind(StrEnum):
    """What sort of thing a sheet describes; the value is the key used in files."""

    VEHICLE = "vehicle"
    CRAFT = "craft"
    STRUCTURE = "structure"
    COVER = "cover"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]

    @property
    def crewed(self) -> bool:
        """Vehicles and craft carry crew positions and weapons."""
        return self in (ThingKind.VEHICLE, ThingKind.CRAFT)


_KIND_LABELS = {
    ThingKind.VEHICLE: "Vehicle",
    ThingKind.CRAFT: "Craft",
    ThingKind.STRUCTURE: "Structure",
    ThingKind.COVER: "Cover object",
}


class CrewPosition(BaseModel):
    """A place aboard ("Driver", "Gunner") and who sits there.

    ``character_id`` is a character sheet's id (a campaign character, or an adversary
    instance in the encounter the vehicle is in); None: the position is empty. A sheet that
    is no longer there simply leaves the position empty (:meth:`Campaign.crew_of`).
    """

    model_config = _MODEL

    role: str = Field(min_length=1, max_length=100)
    character_id: str | None = None


class Thing(BaseModel):
    """A vehicle, craft, structure or cover object: HP and armor with their scales, the
    protection it gives as cover, the damage it has taken, crew and weapons."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    kind: ThingKind = ThingKind.COVER
    hp: int = Field(default=10, ge=1, le=MAX_AMOUNT,
                    description="Hit points as written, in hp_scale units")
    hp_scale: Scale = Scale.NONE
    armor: Amount = Field(default=0, description="Armor rating as written, in armor_scale units")
    armor_scale: Scale = Scale.NONE
    protection: int = Field(
        default=0, ge=0, le=MAX_PROTECTION,
        description="The Difficulty it adds as cover; that much fail effect it absorbs",
    )
    damage: Amount = Field(default=0, description="Damage taken, in plain points")
    crew: list[CrewPosition] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    notes: str = ""
    template_id: str | None = Field(default=None, description="The template it was made from")

    # --- derived, never stored ---------------------------------------------------------

    @property
    def plain_hp(self) -> int:
        """HP in plain points (20 DHP = 200)."""
        return scaled_hit_points(self.hp, self.hp_scale)

    @property
    def plain_armor(self) -> int:
        """Armor in plain AR (DAR 2 = 20), what every damage roll is reduced by."""
        return scaled_armor(self.armor, self.armor_scale)

    @property
    def scale(self) -> Scale:
        """The thing's default damage scale for scale immunity: the larger of its HP and
        armor scales."""
        return max(self.hp_scale, self.armor_scale, key=lambda s: s.multiplier)

    @property
    def remaining_hp(self) -> int:
        """Plain HP left; cover at 0 stops absorbing."""
        return max(0, self.plain_hp - self.damage)

    @property
    def state(self) -> ThingState:
        return thing_state(self.damage, self.hp, self.hp_scale)

    @property
    def track(self) -> DamageTrack:
        """The damage track in scale units (see :func:`rules.thing_damage.thing_track`)."""
        return thing_track(self.damage, self.hp, self.hp_scale)

    @property
    def destroyed(self) -> bool:
        return self.damage > self.plain_hp

    @property
    def absorbs(self) -> bool:
        """Whether it still protects as cover: some protection and HP left."""
        return self.protection > 0 and self.remaining_hp > 0

    @property
    def hp_label(self) -> str:
        """"20 DHP = 200 HP" (the book's notation with the plain value)."""
        return scale_notation(self.hp, self.hp_scale, "HP")

    @property
    def armor_label(self) -> str:
        """"DAR 2 = 20 AR"."""
        return scale_notation(self.armor, self.armor_scale, "AR")


class ThingTemplate(BaseModel):
    """A reusable thing ("Shield", "Cinder blocks"); encounters make numbered instances."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    stats: Thing
    tags: list[str] = Field(default_factory=list)

    @property
    def name(self) -> str:
        return self.stats.name

    def make_instance(self, number: int) -> Thing:
        """A fresh, undamaged copy named "Shield 3", its crew positions empty."""
        if number < 1:
            raise ValueError(f"instance numbers start at 1, not {number}")
        data = self.stats.model_dump()
        data.update(
            id=new_id(),
            name=f"{self.stats.name} {number}",
            template_id=self.id,
            damage=0,
            crew=[{"role": p.role, "character_id": None} for p in self.stats.crew],
        )
        return Thing.model_validate(data)


def next_thing_number(template: ThingTemplate, things: list[Thing]) -> int:
    """The number after the highest "Shield N" among ``things`` (removed ones count too)."""
    pattern = re.compile(rf"^{re.escape(template.name)} (\d+)$")
    highest = 0
    for thing in things:
        match = pattern.match(thing.name)
        if match:
            highest = max(highest, int(match.group(1)))
    return highest + 1
