"""The quick NPC: 2d6 a characteristic, skills from the package, a name from the list."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import AdversaryTemplate, Character, Characteristics, CharacterKind
from mneme_desktop.domain.catalogue import catalogue_for
from mneme_desktop.domain.character import Skill
from mneme_desktop.domain.npc_generator import (
    BUILTIN_NAMES,
    BUILTIN_PACKAGES,
    generate_npc,
    package_of_template,
    roll_upp,
)


def test_each_characteristic_is_two_dice_from_the_generator_given():
    rng = random.Random(7)
    upp = roll_upp(rng)
    again = random.Random(7)
    expected = [again.randint(1, 6) + again.randint(1, 6) for _ in range(6)]
    assert list(upp.values()) == expected and upp.psionic_strength is None
    rolls = [v for _ in range(400) for v in roll_upp(rng).values()]
    assert min(rolls) == 2 and max(rolls) == 12


def test_the_same_seed_gives_the_same_npc():
    package = BUILTIN_PACKAGES[0]
    one = generate_npc(random.Random(3), package, BUILTIN_NAMES, skill_count=3)
    two = generate_npc(random.Random(3), package, BUILTIN_NAMES, skill_count=3)
    assert one.model_dump(exclude={"id"}) == two.model_dump(exclude={"id"})


@pytest.mark.parametrize("count", [0, 2, 4, 99])
def test_skills_are_picked_from_the_package_in_its_order(count):
    package = BUILTIN_PACKAGES[2]
    npc = generate_npc(random.Random(count), package, ["Ada"], skill_count=count)
    assert len(npc.skills) == min(count, len(package.skills))
    positions = [package.skills.index(skill) for skill in npc.skills]
    assert positions == sorted(positions)
    assert npc.careers[0].name == package.career and 1 <= npc.careers[0].terms <= 3
    assert npc.age is not None and 22 <= npc.age <= 33


def test_the_name_comes_from_the_list_and_is_not_taken():
    npc = generate_npc(random.Random(1), BUILTIN_PACKAGES[0], ["Ada Merrow"], skill_count=1,
                       taken=["Ada Merrow", "Ada Merrow 2"], kind=CharacterKind.ADVERSARY)
    assert npc.name == "Ada Merrow 3" and npc.kind is CharacterKind.ADVERSARY


def test_an_empty_name_list_is_refused():
    with pytest.raises(ValueError, match="names is empty"):
        generate_npc(random.Random(1), BUILTIN_PACKAGES[0], [], skill_count=1)


def test_every_built_in_skill_is_in_the_catalogue():
    catalogue = catalogue_for()
    for package in BUILTIN_PACKAGES:
        for skill in package.skills:
            assert catalogue.knows_skill(skill.name), (package.name, skill.name)


def test_a_library_template_is_a_package():
    template = AdversaryTemplate(stats=Character(
        name="Raider", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
        skills=[Skill(name="Stealth", level=1)]))
    package = package_of_template(template)
    npc = generate_npc(random.Random(2), package, ["Kes"], skill_count=3)
    assert [str(s) for s in npc.skills] == ["Stealth-1"] and npc.careers[0].name == "Raider"
