"""The document model: what a sheet, a roster and a card say, built from the domain."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mneme_desktop.domain import Campaign, Character, CharacterKind
from mneme_desktop.export import (
    COMMON_ARMOR,
    ExportError,
    ExportOptions,
    ExportTarget,
    build_document,
    damage_after_armor,
)
from mneme_desktop.export.character_sheet import character_sheet
from mneme_desktop.export.document import (
    CardSheet,
    Columns,
    Fields,
    Sheet,
    Table,
    Text,
    TrackBlock,
    TrackKind,
    iter_strings,
)
from mneme_desktop.rules.dice import Scale, parse_dice
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.settings import PageSize, Settings

CURRENT = ExportOptions(show_damage=True)
BLANK = ExportOptions(show_damage=False)


def _blocks(sheet: Sheet) -> list[object]:
    found: list[object] = []
    for block in sheet.blocks:
        if isinstance(block, Columns):
            for part in block.parts:
                found.extend(part)
            found.extend(block.extra)
        else:
            found.append(block)
    return found


def _table(sheet: Sheet, title: str) -> Table:
    return next(b for b in _blocks(sheet) if isinstance(b, Table) and b.title == title)


def _tracks(sheet: Sheet) -> list[TrackBlock]:
    return [b for b in _blocks(sheet) if isinstance(b, TrackBlock)]


def _character(campaign: Campaign, name: str) -> Character:
    return next(c for c in campaign.characters if c.name == name)


# --- damage against armor ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "armor", "scale", "expected"),
    [
        ("3d6-2", 3, Scale.NONE, "3d6-5"),  # Jack: the armor comes off the modifier
        ("3d3-2", 4, Scale.NONE, "3d3-6"),  # the chapter's broadsword vs flak jacket
        ("3d3-2", 18, Scale.NONE, "0"),  # Battle Dress: can never get through
        ("1d6", 6, Scale.NONE, "0"),  # best roll exactly equals armor: nothing
        ("1d6", 5, Scale.NONE, "1d6-5"),
        ("2d6+1", 0, Scale.NONE, "2d6+1"),
        ("D 2d6", 10, Scale.NONE, "D 2d6-1"),  # a whole Deka point of armor
        ("D 2d6", 3, Scale.NONE, "17–117"),  # not a whole Deka point: the floored range
        ("D 1d6", 60, Scale.NONE, "0"),
        ("3d6-2", 2, Scale.DEKA, "immune"),  # a larger-scale target ignores it
        ("D 2d6", 2, Scale.DEKA, "D 2d6-2"),  # DAR 2 against a Deka weapon
    ],
)
def test_damage_after_armor(dice: str, armor: int, scale: Scale, expected: str) -> None:
    assert damage_after_armor(parse_dice(dice), armor, scale) == expected


def test_damage_after_armor_floors_at_zero_range() -> None:
    # D 1d6 vs armor 15: 10..60 less 15 is -5..45, floored to 0..45.
    assert damage_after_armor(parse_dice("D 1d6"), 15) == "0–45"


def test_common_armor_is_the_rules_readme_list() -> None:
    assert {(a.name, a.rating) for a in COMMON_ARMOR} == {
        ("Jack", 3), ("Mesh", 5), ("Cloth", 9), ("Vacc Suit", 6), ("Combat Armor", 11),
        ("Battle Dress", 18),
    }
    ratings = [a.rating for a in COMMON_ARMOR]
    assert ratings == sorted(ratings)


# --- character sheet -----------------------------------------------------------------------


def test_sheet_shows_identity_characteristics_and_upp(campaign: Campaign) -> None:
    mara = _character(campaign, "Mara Vey")
    sheet = character_sheet(mara, campaign, BLANK)
    assert sheet.heading.title == "Mara Vey"
    assert "Alex" in sheet.heading.subtitle
    table = _table(sheet, "Characteristics")
    assert [c.header for c in table.columns[1:]] == ["STR", "DEX", "END", "INT", "EDU", "SOC"]
    assert table.rows[0][1:] == ("8", "9", "8", "7", "8", "6")
    assert table.rows[1][1:] == ("0", "+1", "0", "0", "0", "0")
    strings = set(iter_strings(build_document(campaign, ExportTarget.character(mara.id), BLANK)))
    assert mara.upp in strings


def test_psionic_character_has_a_psi_column(campaign: Campaign) -> None:
    sef = _character(campaign, "Sef Adeyemi")
    table = _table(character_sheet(sef, campaign, BLANK), "Characteristics")
    assert table.columns[-1].header == "PSI"
    assert table.rows[0][-1] == "8"


def test_weapons_show_damage_after_every_common_armor(campaign: Campaign) -> None:
    mara = _character(campaign, "Mara Vey")
    table = _table(character_sheet(mara, campaign, BLANK), "Weapons")
    headers = [c.header for c in table.columns]
    assert headers[:5] == ["Weapon", "Damage", "RoA", "Range", "Aim"]
    assert headers[5:] == [f"vs {a.name}\u00a0{a.rating}" for a in COMMON_ARMOR]
    rifle = next(row for row in table.rows if str(row[0]).startswith("Automatic Rifle"))
    assert rifle[1] == "3d6-2"
    assert rifle[2] == "4"  # rate of attack
    assert rifle[3] == "Long"
    assert "Gun Combat (Slug Rifle)-2" in str(rifle[0])  # her skill level with it
    assert list(rifle[5:]) == ["3d6-5", "3d6-7", "3d6-8", "3d6-11", "3d6-13", "0"]
    assert "never below 0" in table.note


def test_unskilled_weapon_says_so(campaign: Campaign) -> None:
    sef = _character(campaign, "Sef Adeyemi")
    axe = next(row for row in _table(character_sheet(sef, campaign, BLANK), "Weapons").rows
               if str(row[0]).startswith("Throwing Axe"))
    assert "unskilled −3" in str(axe[0])
    assert "thrown ×1.5" in str(axe[3])


def test_tracks_are_the_rules_core_tracks(campaign: Campaign) -> None:
    """The bar and the box chart carry damage_track() itself: nothing recomputed."""
    ilse = _character(campaign, "Ilse Brandt")
    basis = campaign.rules_options.threshold_basis
    expected = damage_track(ilse.damage, ilse.hit_points, ilse.wound_thresholds(basis))
    tracks = _tracks(character_sheet(ilse, campaign, CURRENT))
    assert {t.kind for t in tracks} == {TrackKind.BAR, TrackKind.BOX_CHART}
    assert all(t.track == expected and t.show_damage for t in tracks)
    blank = _tracks(character_sheet(ilse, campaign, BLANK))
    assert all(t.track.damage == 0 and not t.show_damage for t in blank)
    assert all(t.track.marks == expected.marks for t in blank)


def test_threshold_basis_of_the_campaign_is_used(campaign: Campaign) -> None:
    campaign.rules_options.threshold_basis = ThresholdBasis.CHARACTERISTIC
    ilse = _character(campaign, "Ilse Brandt")  # STR 10 DEX 8 END 9: seriously at 10
    track = _tracks(character_sheet(ilse, campaign, BLANK))[0].track
    assert [m.value for m in track.marks][:2] == [10, 20]
    texts = [b for b in _blocks(character_sheet(ilse, campaign, BLANK)) if isinstance(b, Text)]
    assert any("best physical characteristic" in p for t in texts for p in t.paragraphs)


def test_wound_penalty_steps_come_from_the_tally_groups(campaign: Campaign) -> None:
    mara = _character(campaign, "Mara Vey")
    sheet = character_sheet(mara, campaign, BLANK)
    steps = next(b for b in _blocks(sheet) if isinstance(b, Text) and b.title == "Wound penalty")
    assert "3+: −1 · 6+: −2 · 9+: −3" in steps.paragraphs[0]


def test_current_damage_option_shows_conditions_and_cover_damage(campaign: Campaign) -> None:
    ilse = _character(campaign, "Ilse Brandt")
    current = character_sheet(ilse, campaign, CURRENT)
    conditions = next(b for b in _blocks(current) if isinstance(b, Text)
                      and b.title == "Conditions")
    assert conditions.paragraphs[0].startswith("Crippled (left arm)")
    assert _table(current, "Cover items").rows[0][3] == "5 (7 left)"
    blank = character_sheet(ilse, campaign, BLANK)
    blank_conditions = next(b for b in _blocks(blank) if isinstance(b, Text)
                            and b.title == "Conditions")
    assert blank_conditions.paragraphs == () and blank_conditions.blank_lines > 0
    assert _table(blank, "Cover items").rows[0][3] == ""


def test_damaged_characteristic_shows_current_and_full(campaign: Campaign) -> None:
    mara = _character(campaign, "Mara Vey")
    mara.characteristic_damage.dexterity = 4  # DEX 9 drained to 5
    table = _table(character_sheet(mara, campaign, CURRENT), "Characteristics")
    assert table.rows[0][2] == "5 of 9"
    assert table.rows[1][2] == "−1"
    assert _table(character_sheet(mara, campaign, BLANK), "Characteristics").rows[0][2] == "9"


# --- whole documents -----------------------------------------------------------------------


def test_player_characters_document_has_one_sheet_per_player(campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), BLANK)
    players = [c.name for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    assert [part.heading.title for part in document.parts] == players
    assert "Captain Rhea Hollis" not in {part.heading.title for part in document.parts}


def test_nothing_to_export_is_a_clear_error(campaign: Campaign) -> None:
    campaign.encounters = []
    campaign.characters = [c for c in campaign.characters if c.kind is not CharacterKind.PLAYER]
    with pytest.raises(ExportError, match="no player characters"):
        build_document(campaign, ExportTarget.player_characters(), BLANK)
    with pytest.raises(ExportError, match="no longer"):
        build_document(campaign, ExportTarget.character("missing"), BLANK)
    with pytest.raises(ExportError, match="no longer"):
        build_document(campaign, ExportTarget.referee_pack("missing"), BLANK)


def test_target_needs_its_id() -> None:
    from mneme_desktop.export.document import TargetKind

    with pytest.raises(ValueError, match="character"):
        ExportTarget(TargetKind.CHARACTER)
    with pytest.raises(ValueError, match="encounter"):
        ExportTarget(TargetKind.REFEREE_PACK)


def test_options_from_settings() -> None:
    options = ExportOptions.from_settings(
        Settings(page_size=PageSize.LETTER, print_current_damage=True))
    assert options == ExportOptions(PageSize.LETTER, True)


# --- referee pack --------------------------------------------------------------------------


def test_roster_follows_initiative_order(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    pack = build_document(campaign, ExportTarget.referee_pack(ford.id), BLANK)
    roster = pack.parts[0]
    assert isinstance(roster, Sheet)
    table = next(b for b in roster.blocks if isinstance(b, Table) and b.title == "Initiative order")
    names = [str(row[2]).split("\n")[0] for row in table.rows]
    expected = [campaign.combatant_character(c).name for c in ford.initiative_order()]
    assert names == expected
    assert [row[1] for row in table.rows] == [str(c.initiative) for c in ford.initiative_order()]
    tracks = [row[5] for row in table.rows]
    assert all(isinstance(t, TrackBlock) and t.kind is TrackKind.BAR for t in tracks)
    first = campaign.combatant_character(ford.initiative_order()[0])
    assert "SW\u00a07+" in str(table.rows[0][3]) and str(first.hit_points) in str(table.rows[0][3])
    assert "aim +2 on Raider Chief 1" in str(table.rows[0][7])


def test_out_of_fight_combatants_come_last(campaign: Campaign) -> None:
    well = campaign.encounters[1]
    roster = build_document(campaign, ExportTarget.referee_pack(well.id), BLANK).parts[0]
    assert isinstance(roster, Sheet)
    table = next(b for b in roster.blocks if isinstance(b, Table) and b.title == "Initiative order")
    assert [row[0] for row in table.rows] == ["1", "2", "3", "–", "–"]
    assert "out of the fight" in str(table.rows[-1][2])


def test_cards_group_instances_of_one_template(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    pack = build_document(campaign, ExportTarget.referee_pack(ford.id), BLANK)
    cards = pack.parts[1]
    assert isinstance(cards, CardSheet)
    titles = [card.title for card in cards.cards]
    assert titles == ["Raider", "Raider Gunner", "Shieldwall Raider", "Raider Chief"]
    raider = cards.cards[0]
    assert "×2: Raider 1, Raider 2" in raider.subtitle
    weapons = [b for b in raider.blocks if isinstance(b, Table)][-1]
    # Against the armor the players wear in this fight: Jack 3, Flak Jacket 4, Mesh 5.
    assert [c.header for c in weapons.columns][-3:] == ["vs Jack\u00a03", "vs Flak Jacket\u00a04",
                                                        "vs Mesh\u00a05"]
    assert weapons.rows[0][-2] == "3d3-6"
    fields = next(b for b in raider.blocks if isinstance(b, Fields))
    assert ("UPP", "878654") in fields.items


def test_edited_instance_gets_its_own_card(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    raider2 = next(c.instance for c in ford.combatants
                   if c.instance is not None and c.instance.name == "Raider 2")
    assert raider2 is not None
    raider2.skills[0].level = 3
    cards = build_document(campaign, ExportTarget.referee_pack(ford.id), BLANK).parts[1]
    assert isinstance(cards, CardSheet)
    assert [card.title for card in cards.cards][:2] == ["Raider", "Raider 2"]


def test_every_user_string_reaches_the_model(campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), CURRENT)
    text = "\n".join(iter_strings(document))
    for character in campaign.characters:
        if character.kind is CharacterKind.PLAYER:
            assert character.name in text
            assert character.notes.split(".")[0] in text
            for weapon in character.weapons:
                assert weapon.name in text


def test_document_layer_imports_no_qt() -> None:
    code = ("import sys, mneme_desktop.export, mneme_desktop.export.cli; "
            "print(sorted(m for m in sys.modules if m.startswith('PySide6')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_roster_conditions_name_dying_unconscious_and_bleeding(campaign: Campaign) -> None:
    """The printed roster says what the turn order says: a dying combatant is unconscious
    and dying, and bleeding shows with its timer (stored conditions alone missed both)."""
    from mneme_desktop.domain import Condition, ConditionKind

    ford = campaign.encounters[0]
    first = ford.initiative_order()[0]
    sheet = campaign.combatant_character(first)
    sheet.damage = sheet.hit_points + 1
    sheet.conditions.append(Condition(kind=ConditionKind.BLEEDING, detail="arm",
                                      started_at=campaign.game_time))
    roster = build_document(campaign, ExportTarget.referee_pack(ford.id), CURRENT).parts[0]
    assert isinstance(roster, Sheet)
    table = next(b for b in roster.blocks if isinstance(b, Table) and b.title == "Initiative order")
    notes = str(table.rows[0][7])
    assert "Unconscious (dying)" in notes
    assert "Bleeding" in notes and "-1 in" in notes
