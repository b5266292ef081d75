"""The built-in catalogue, seeded from the Mneme CE chapters (``/work/shared/rules``).

Where a chapter gives a number it is used as written and the entry's source names the
chapter; the other columns follow the chapters' defaults (Ch.6: "most weapons take one
minor action to draw and another minor action to reload"). Entries the chapters only name
take the stat lines of the sample campaign, and their source says so: a referee reading
the catalogue editor always sees where a number came from.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from mneme_desktop.domain.catalogue.entries import SkillEntry, entry_key
from mneme_desktop.domain.character import Armor, RangeClass, Weapon
from mneme_desktop.rules.dice import Scale

__all__ = [
    "BUILTIN_ARMOR",
    "BUILTIN_SKILLS",
    "BUILTIN_WEAPONS",
    "WIDER_RULES_ARMOR",
    "builtin_source",
]

_RULES = "Mneme CE rules README: armor values of the wider rules"
_CH6 = "Mneme CE Ch.6 (Actions)"
_CH7 = "Mneme CE Ch.7 (Outcomes)"
_SAMPLE = "the sample campaign's stat line (the chapters name it without numbers)"
_COMMON = "the common 2d6 skill list"


def _skill(name: str, *specialties: str, notes: str = "") -> SkillEntry:
    return SkillEntry(name=name, specialties=list(specialties), notes=notes)


def _build_skills() -> tuple[SkillEntry, ...]:
    return (
        _skill("Admin"),
        _skill("Advocate"),
        _skill("Animals", "Riding", "Training", "Veterinary"),
        _skill("Astrogation"),
        _skill("Athletics", "Coordination", "Endurance", "Strength"),
        _skill("Battle Dress"),
        _skill("Broker"),
        _skill("Carouse"),
        _skill("Comms"),
        _skill("Computers"),
        _skill("Craft", notes="Any craft the setting has: name it as the specialty."),
        _skill("Deception"),
        _skill("Demolitions"),
        _skill("Engineering", "Electronics", "Life Support", "Power", "Drive"),
        _skill("Gambling"),
        _skill("Gun Combat", "Archery", "Energy Pistol", "Energy Rifle", "Heavy Weapons",
               "Shotgun", "Slug Pistol", "Slug Rifle",
               notes="Ch.6: attacks roll the weapon skill + ChM against Difficulty 8."),
        _skill("Gunnery"),
        _skill("History"),
        _skill("Investigate"),
        _skill("Language", notes="One specialty per language."),
        _skill("Leadership", notes="Ch.6: reduces the Difficulty of coordinating a unit."),
        _skill("Mechanic"),
        _skill("Medic", notes="Ch.7: first aid, surgery and care; a medic's level sets capacity."),
        _skill("Melee Combat", "Bludgeoning", "Natural", "Piercing", "Slashing",
               notes="Natural is the Natural Weapons skill Ch.6 grapples with."),
        _skill("Navigation"),
        _skill("Occult"),
        _skill("Persuade"),
        _skill("Pilot", "Small Craft", "Spacecraft", "Capital Ships"),
        _skill("Recon"),
        _skill("Religion"),
        _skill("Science", "Biology", "Chemistry", "Physics", "Planetology", "Psychology"),
        _skill("Seafarer"),
        _skill("Stealth", notes="Ch.6: Fire and Displace uses it with a near-silent weapon."),
        _skill("Steward"),
        _skill("Streetwise"),
        _skill("Survival"),
        _skill("Tactics", "Military", "Naval",
               notes="Ch.6: a Tactics check adds its Effect to the unit's Initiative."),
        _skill("Telepathy", notes="A psionic talent: PSI characters only."),
        _skill("Clairvoyance", notes="A psionic talent: PSI characters only."),
        _skill("Telekinesis", notes="A psionic talent: PSI characters only."),
        _skill("Trade"),
        _skill("Vacc Suit"),
        _skill("Vehicle", "Aircraft", "Grav", "Tracked", "Watercraft", "Wheeled"),
        _skill("Zero-G"),
    )

_CHAPTER_SKILLS = frozenset({"gun combat", "leadership", "medic", "melee combat", "stealth",
                             "tactics"})

def _build_weapons() -> tuple[Weapon, ...]:
    return (
        Weapon(name="Broadsword", damage="3d3-2", rate_of_attack=3, range_class=RangeClass.MELEE,
               ready_actions=1, skill="Melee Combat (Slashing)"),
        Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=4,
               range_class=RangeClass.LONG, ready_actions=1, reload_actions=1,
               skill="Gun Combat (Slug Rifle)"),
        Weapon(name="Autopistol", damage="3d6-3", rate_of_attack=2, range_class=RangeClass.SHORT,
               ready_actions=1, reload_actions=1, skill="Gun Combat (Slug Pistol)"),
        Weapon(name="Combat Knife", damage="2d3", range_class=RangeClass.MELEE,
               skill="Melee Combat (Slashing)"),
        Weapon(name="Throwing Knife", damage="1d3+1", range_class=RangeClass.CLOSE,
               thrown=Decimal("0.5"), skill="Melee Combat (Piercing)",
               notes="Thrown 0.5: STR x 0.5 metres straight, three times that lobbed."),
        Weapon(name="Throwing Axe", damage="2d3", range_class=RangeClass.MELEE,
               thrown=Decimal("1.5"), skill="Melee Combat (Slashing)",
               notes="Thrown 1.5: STR x 1.5 metres straight, three times that lobbed."),
        Weapon(name="Compound Bow", damage="3d6-3", range_class=RangeClass.LONG, ready_actions=1,
               reload_actions=1, skill="Gun Combat (Archery)"),
        Weapon(name="Autocannon", damage="D 2d6", rate_of_attack=2,
               range_class=RangeClass.VERY_LONG, aim_modifier=2, ready_actions=2,
               reload_actions=3, skill="Gun Combat (Heavy Weapons)"),
        Weapon(name="Bite", damage="1d6+1", ready_actions=0, skill="Melee Combat (Natural)"),
    )

def _build_armor() -> tuple[Armor, ...]:
    return (
        Armor(name="Jack", rating=3),
        Armor(name="Flak Jacket", rating=4),
        Armor(name="Mesh", rating=5),
        Armor(name="Vacc Suit", rating=6),
        Armor(name="Cloth", rating=9),
        Armor(name="Combat Armor", rating=11),
        Armor(name="Battle Dress", rating=18),
        Armor(name="Hull Plating", rating=2, scale=Scale.DEKA,
              notes="DAR 2 = 20 AR; ignores damage of a lesser scale."),
    )


_BUILDERS: Final[dict[str, Callable[[], tuple[Any, ...]]]] = {
    "BUILTIN_SKILLS": _build_skills,
    "BUILTIN_WEAPONS": _build_weapons,
    "BUILTIN_ARMOR": _build_armor,
}
"""BUILTIN_SKILLS (alphabetical, psionic talents beside Telepathy), BUILTIN_WEAPONS and
BUILTIN_ARMOR (light to heavy; the six values of the wider rules among them) are made on
first use: building them validates ~70 models, which start-up does not need."""

if TYPE_CHECKING:
    BUILTIN_SKILLS: tuple[SkillEntry, ...]
    BUILTIN_WEAPONS: tuple[Weapon, ...]
    BUILTIN_ARMOR: tuple[Armor, ...]


def __getattr__(name: str) -> Any:
    builder = _BUILDERS.get(name)
    if builder is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = builder()
    globals()[name] = value
    return value

WIDER_RULES_ARMOR: Final[tuple[str, ...]] = (
    "Jack", "Mesh", "Vacc Suit", "Cloth", "Combat Armor", "Battle Dress",
)
"""The armor the rules README lists from the wider rules, light to heavy: the columns a
printed weapon table shows damage against."""

_SOURCES: Final[dict[tuple[str, str], str]] = {
    ("weapon", "broadsword"): f"{_CH7}: 3d3-2, several damage rolls per Effect",
    ("weapon", "automatic rifle"): f"{_CH7}: 3d6-2, Rate of Attack 4",
    ("weapon", "throwing knife"): f"{_CH6}: the Thrown 0.5 example; damage from {_SAMPLE}",
    ("weapon", "throwing axe"): f"{_CH6}: the Thrown 1.5 example; damage from {_SAMPLE}",
    ("weapon", "autocannon"): f"{_CH7}: Deka scale notation (D 2d6 = 2d6 x 10); {_SAMPLE}",
    ("armor", "flak jacket"): f"{_CH7}: the Flak Jacket of Armor 4",
    ("armor", "hull plating"): f"{_CH7}: armor scale notation, DAR 2 = 20 AR",
}


def builtin_source(kind: str, name: str) -> str:
    """Where a built-in entry's numbers come from ("weapon", "armor" or "skill")."""
    key = entry_key(name)
    if (kind, key) in _SOURCES:
        return _SOURCES[(kind, key)]
    if kind == "armor":
        return _RULES
    if kind == "skill":
        return _CH6 if key in _CHAPTER_SKILLS else _COMMON
    return _SAMPLE
