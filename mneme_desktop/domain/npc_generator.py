"""The quick NPC: a UPP rolled 2d6 a characteristic, skills picked from a package, a name
from a list. For the walk-on the players suddenly talk to; every roll takes the
``random.Random`` it is given, so a seeded generator gives the same NPC twice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.character import Career, Character, Characteristics, CharacterKind, Skill
from mneme_desktop.domain.duplicate import unique_name

__all__ = [
    "BUILTIN_NAMES",
    "BUILTIN_PACKAGES",
    "SkillPackage",
    "generate_npc",
    "package_of_template",
    "roll_upp",
]


def _skills(text: str) -> tuple[Skill, ...]:
    """``"Gun Combat (Slug Rifle)-1, Recon-0"`` as skills (the one-line NPC's skill list)."""
    skills: list[Skill] = []
    for item in text.split(","):
        label, _, level = item.strip().rpartition("-")
        name, specialty = Skill.split_label(label)
        skills.append(Skill(name=name, specialty=specialty, level=int(level)))
    return tuple(skills)


@dataclass(frozen=True)
class SkillPackage:
    """What an NPC of one trade knows: a career name and the skills to pick from."""

    name: str
    career: str
    skills: tuple[Skill, ...]


BUILTIN_PACKAGES: tuple[SkillPackage, ...] = (
    SkillPackage("Guard", "Security", _skills(
        "Gun Combat (Slug Pistol)-1, Melee Combat (Bludgeoning)-1, Recon-1, Athletics-0, "
        "Comms-0, Streetwise-0")),
    SkillPackage("Raider", "Outlaw", _skills(
        "Gun Combat (Slug Rifle)-1, Melee Combat (Slashing)-1, Stealth-1, Survival-0, "
        "Vehicle (Wheeled)-0, Recon-0")),
    SkillPackage("Soldier", "Army", _skills(
        "Gun Combat (Slug Rifle)-2, Melee Combat (Slashing)-1, Recon-1, Tactics (Military)-0, "
        "Athletics-0, Medic-0")),
    SkillPackage("Merchant", "Merchant", _skills(
        "Broker-2, Admin-1, Persuade-1, Steward-0, Trade-0, Gun Combat (Slug Pistol)-0")),
    SkillPackage("Scout", "Scout", _skills(
        "Pilot (Small Craft)-1, Survival-1, Recon-1, Astrogation-0, Vacc Suit-0, "
        "Gun Combat (Slug Rifle)-0")),
    SkillPackage("Technician", "Technician", _skills(
        "Mechanic-2, Engineering (Electronics)-1, Computers-1, Comms-0, Vacc Suit-0")),
    SkillPackage("Medic", "Physician", _skills(
        "Medic-2, Science (Biology)-1, Admin-0, Persuade-0, Computers-0")),
    SkillPackage("Noble", "Noble", _skills(
        "Leadership-1, Persuade-1, Advocate-1, Carouse-0, Admin-0, Deception-0")),
    SkillPackage("Thug", "Criminal", _skills(
        "Melee Combat (Bludgeoning)-1, Streetwise-1, Deception-0, Gun Combat (Slug Pistol)-0, "
        "Carouse-0, Gambling-0")),
)
"""Built-in packages; their skill names are the catalogue's (``domain.catalogue``)."""

BUILTIN_NAMES: tuple[str, ...] = (
    "Ada Merrow", "Bram Tolliver", "Cass Ordan", "Dace Fennick", "Edda Voss", "Falk Arren",
    "Gita Sorrel", "Hale Brisco", "Ines Kaldor", "Jory Wend", "Kesh Marlo", "Lida Crane",
    "Mott Ashby", "Nadia Roke", "Oren Quill", "Pell Davan", "Rhea Tamsin", "Sten Harrow",
    "Tova Leck", "Ulric Fane", "Vesna Korr", "Wil Dunmore", "Yara Pike", "Zev Calder",
    "Ansel Rook", "Brina Holt", "Corin Mace", "Della Strand", "Emil Varga", "Fenna Lusk",
)
"""Names a quick NPC is given when the referee has no list of their own."""


def package_of_template(template: AdversaryTemplate) -> SkillPackage:
    """An adversary template's skills as a package (its name as the career)."""
    return SkillPackage(template.name, template.name, tuple(template.stats.skills))


def _two_dice(rng: random.Random) -> int:
    return rng.randint(1, 6) + rng.randint(1, 6)


def roll_upp(rng: random.Random) -> Characteristics:
    """STR DEX END INT EDU SOC, each rolled on 2d6."""
    return Characteristics.of(*(_two_dice(rng) for _ in range(6)))


def generate_npc(rng: random.Random, package: SkillPackage, names: Sequence[str], *,
                 skill_count: int, taken: Iterable[str] = (),
                 kind: CharacterKind = CharacterKind.NPC) -> Character:
    """A new NPC: UPP rolled (2d6 each), ``skill_count`` skills picked from ``package``
    (in its order), 1d3 terms in its career, age 18 + 4 per term + 1d4 - 1, a name picked
    from ``names`` and made unique against ``taken``."""
    if not names:
        raise ValueError("the list of names is empty")
    if skill_count < 0:
        raise ValueError(f"a number of skills, not {skill_count}")
    characteristics = roll_upp(rng)
    count = min(skill_count, len(package.skills))
    picked = sorted(rng.sample(range(len(package.skills)), count))
    terms = rng.randint(1, 3)
    age = 18 + 4 * terms + rng.randint(0, 3)
    name = unique_name(" ".join(rng.choice(list(names)).split()), taken)
    careers = [Career(name=package.career, terms=terms)] if package.career else []
    return Character(name=name, kind=kind, characteristics=characteristics, age=age,
                     careers=careers,
                     skills=[package.skills[i].model_copy() for i in picked])
