"""The catalogue: built-in entries seeded from the chapters, the campaign's own entries
(stored in its file, replacing built-ins by name), and skill names checked against it."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import Armor, Campaign, Weapon
from mneme_desktop.domain.catalogue import (
    BUILTIN_ARMOR,
    BUILTIN_WEAPONS,
    CampaignCatalogue,
    CatalogueKind,
    Origin,
    SkillEntry,
    UnknownSkillError,
    builtin_source,
    catalogue_for,
)
from mneme_desktop.domain.edits import Patch, SetCatalogue
from mneme_desktop.rules.dice import Scale
from mneme_desktop.storage import load_campaign, save_campaign


def test_the_armor_of_the_wider_rules_is_built_in() -> None:
    catalogue = catalogue_for()
    ratings = {a.name: (a.rating, a.scale) for a in catalogue.armor}
    for name, rating in (("Jack", 3), ("Mesh", 5), ("Cloth", 9), ("Vacc Suit", 6),
                         ("Combat Armor", 11), ("Battle Dress", 18)):
        assert ratings[name] == (rating, Scale.NONE)
    assert ratings["Hull Plating"] == (2, Scale.DEKA)  # Ch.7: DAR 2 = 20 AR
    assert "README" in builtin_source("armor", "Battle Dress")


def test_the_chapters_weapons_keep_their_numbers() -> None:
    catalogue = catalogue_for()
    broadsword = catalogue.weapon("broadsword")
    rifle = catalogue.weapon("Automatic Rifle")
    assert broadsword is not None and broadsword.damage == "3d3-2"
    assert rifle is not None and (rifle.damage, rifle.rate_of_attack) == ("3d6-2", 4)
    axe = catalogue.weapon("Throwing Axe")
    assert axe is not None and axe.thrown == Decimal("1.5")  # Ch.6's Thrown 1.5 example
    assert "Ch.7" in builtin_source("weapon", "Broadsword")
    # every weapon's skill is a skill the catalogue knows
    for weapon in BUILTIN_WEAPONS:
        assert catalogue.knows_skill(weapon.skill), weapon.name


def test_skills_come_with_their_specialties() -> None:
    catalogue = catalogue_for()
    gun = catalogue.skill("gun combat")
    assert gun is not None and "Slug Rifle" in gun.specialties
    assert "Gun Combat (Slug Rifle)" in catalogue.skill_labels()
    assert catalogue.canonical_skill("  gun combat (slug RIFLE) ") == ("Gun Combat", "Slug Rifle")
    # an unlisted specialty is allowed, spelt as typed
    assert catalogue.canonical_skill("craft (boat building)") == ("Craft", "boat building")
    with pytest.raises(UnknownSkillError, match="Gun Kombat"):
        catalogue.check_skill("Gun Kombat (Slug Rifle)")


def test_campaign_entries_add_to_and_replace_built_in_ones() -> None:
    own = CampaignCatalogue(
        skills=[SkillEntry(name="Xenology", specialties=["Fauna"])],
        weapons=[Weapon(name="broadsword", damage="3d3-1")],
        armor=[Armor(name="Ablat", rating=7)],
    )
    catalogue = catalogue_for(own)
    assert catalogue.knows_skill("Xenology (Fauna)")
    sword = catalogue.weapon("Broadsword")
    assert sword is not None and sword.damage == "3d3-1"
    assert [w.name for w in catalogue.weapons].count("broadsword") == 1
    assert catalogue.origin(CatalogueKind.WEAPONS, "Broadsword") is Origin.REPLACED
    assert catalogue.origin(CatalogueKind.ARMOR, "ablat") is Origin.CAMPAIGN
    assert catalogue.origin(CatalogueKind.ARMOR, "Jack") is Origin.BUILTIN
    assert len(catalogue.armor) == len(BUILTIN_ARMOR) + 1
    assert len(catalogue_for().weapons) == len(BUILTIN_WEAPONS)  # the built-in one is intact


@pytest.mark.parametrize("bad, message", [
    ({"weapons": [{"name": "Spear", "damage": "2d6"}, {"name": "SPEAR", "damage": "1d6"}]},
     "two weapons called 'SPEAR'"),
    ({"skills": [{"name": "Gun Combat (Laser)"}]}, "without brackets"),
    ({"skills": [{"name": "Lore", "specialties": ["Elves", "elves"]}]}, "'elves' is listed twice"),
    ({"weapons": [{"name": "Odd", "damage": "3q6"}]}, "not a dice expression"),
    ({"armor": [{"name": "Paper", "rating": -1}]}, "greater than or equal to 0"),
])
def test_bad_campaign_entries_are_refused_naming_them(bad: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CampaignCatalogue.model_validate(bad)


def test_campaign_entries_travel_in_the_file(tmp_path: Path) -> None:
    campaign = Campaign(name="Library")
    campaign.catalogue = CampaignCatalogue(
        skills=[SkillEntry(name="Xenology", specialties=["Fauna", "Flora"], notes="setting")],
        weapons=[Weapon(name="Needler", damage="2d6+1", rate_of_attack=3, thrown=None,
                        skill="Gun Combat (Energy Pistol)", reload_actions=2)],
        armor=[Armor(name="Void Plate", rating=4, scale=Scale.HEKA, notes="starship")],
    )
    path = tmp_path / "library.mneme"
    save_campaign(campaign, path, backups=0)
    loaded = load_campaign(path)
    assert loaded.catalogue == campaign.catalogue
    assert catalogue_for(loaded.catalogue).origin(CatalogueKind.SKILLS, "xenology") \
        is Origin.CAMPAIGN


def test_a_file_without_a_catalogue_loads_with_none_of_its_own() -> None:
    data = Campaign(name="Old").model_dump(mode="json")
    del data["catalogue"]
    assert Campaign.model_validate(data).catalogue.empty


def test_set_catalogue_applies_and_reverts_exactly() -> None:
    campaign = Campaign(name="Undo")
    before = campaign.catalogue.model_copy(deep=True)
    after = CampaignCatalogue(armor=[Armor(name="Ablat", rating=7)])
    patch = Patch("Catalogue: add Ablat", (SetCatalogue(before, after),))
    assert patch.summary.catalogue_changed and not patch.summary.character_ids
    patch.apply(campaign)
    assert campaign.catalogue == after
    campaign.catalogue.armor[0].rating = 99  # the patch kept its own copy
    patch.revert(campaign)
    assert campaign.catalogue == before
    patch.apply(campaign)
    assert campaign.catalogue.armor[0].rating == 7


def test_the_built_in_lists_are_made_on_first_use_not_at_import() -> None:
    """Start-up imports the domain; building the lists validates ~70 models it does not
    need, so they are made when a catalogue is first asked for."""
    import subprocess
    import sys

    code = (
        "import mneme_desktop.domain, mneme_desktop.domain.catalogue as c\n"
        "from mneme_desktop.domain.catalogue import builtin\n"
        "assert 'BUILTIN_SKILLS' not in vars(builtin), 'built at import'\n"
        "assert len(c.BUILTIN_SKILLS) > 30 and 'BUILTIN_SKILLS' in vars(builtin)\n"
        "assert c.BUILTIN_ARMOR is builtin.BUILTIN_ARMOR\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
