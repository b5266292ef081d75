"""The one-line NPC: read, written, read again the same; bad lines refused by number."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mneme_desktop.domain import Character, Characteristics, CharacterKind, Skill
from mneme_desktop.domain.catalogue import BUILTIN_SKILLS
from mneme_desktop.domain.character import Career
from mneme_desktop.domain.npc_generator import BUILTIN_NAMES, BUILTIN_PACKAGES, generate_npc
from mneme_desktop.domain.npc_line import (
    NpcLineError,
    NpcLinesError,
    as_template,
    format_npc_line,
    format_npc_lines,
    parse_npc_line,
    parse_npc_lines,
    skill_lookup,
)
from tests.storage.strategies import characteristics

KNOWN = skill_lookup(entry.name for entry in BUILTIN_SKILLS)

JANA = ("Jana Kell  789A87  Age 34  Marine (3 terms)  Cr2000  "
        "Gun Combat-2, Melee Combat (Slashing)-1, Recon-0")


def same(a: Character, b: Character) -> bool:
    """Equal but for the id a new character is given."""
    return a.model_dump(exclude={"id"}) == b.model_dump(exclude={"id"})


def test_the_referees_line_reads_every_field():
    jana = parse_npc_line(JANA, known_skill=KNOWN)
    assert jana.name == "Jana Kell" and jana.kind is CharacterKind.NPC
    assert jana.upp == "789A87" and jana.characteristics.intelligence == 10
    assert jana.age == 34 and jana.credits == 2000
    assert jana.careers == [Career(name="Marine", terms=3)]
    assert [str(s) for s in jana.skills] == ["Gun Combat-2", "Melee Combat (Slashing)-1",
                                            "Recon-0"]


@pytest.mark.parametrize("line", [
    JANA,
    JANA.replace("  ", "\t"),
    "Jana Kell, 789A87, Age 34, Marine (3 terms), Cr2000, Gun Combat-2, "
    "Melee Combat (Slashing)-1, Recon-0",
    "Jana Kell 789A87 Age 34 Marine (3 terms) Cr2000 Gun Combat-2, Melee Combat (Slashing)-1, "
    "Recon-0",
])
def test_tabs_commas_two_spaces_or_single_spaces_read_the_same(line):
    assert same(parse_npc_line(line, known_skill=KNOWN), parse_npc_line(JANA, known_skill=KNOWN))


def test_skill_names_take_the_catalogues_spelling():
    npc = parse_npc_line("Ob  777777  gun combat (Slug Rifle)-1, RECON-0", known_skill=KNOWN)
    assert [str(s) for s in npc.skills] == ["Gun Combat (Slug Rifle)-1", "Recon-0"]


def test_import_export_import_is_equal_for_every_field_the_line_holds():
    text = "\n".join([
        JANA,
        '"Kell, Jana"  789A87C  Age 51  Army (2 terms, Captain)  Merchant (1 term)  MCr1.5  '
        "Leadership-2, Jack-of-all-Trades-1",
        "Raider  777777",
        "Brute  9A8543  Cr-300  Melee Combat (Bludgeoning)-2",
    ])
    known = skill_lookup([*(e.name for e in BUILTIN_SKILLS), "Jack-of-all-Trades"])
    first = parse_npc_lines(text, known_skill=known)
    assert [c.name for c in first] == ["Jana Kell", "Kell, Jana", "Raider", "Brute"]
    assert first[1].characteristics.psionic_strength == 12
    assert first[1].careers[0].rank == "Captain" and first[1].credits == 1_500_000
    assert first[3].credits == -300
    exported = format_npc_lines(first)
    assert exported.count("\n") == 4
    again = parse_npc_lines(exported, known_skill=known)
    assert len(again) == 4 and all(same(a, b) for a, b in zip(first, again, strict=True))
    assert format_npc_lines(again) == exported


def test_generated_npcs_round_trip():
    rng = random.Random(20)
    for number in range(60):
        npc = generate_npc(rng, BUILTIN_PACKAGES[number % len(BUILTIN_PACKAGES)],
                           BUILTIN_NAMES, skill_count=number % 7)
        assert same(parse_npc_line(format_npc_line(npc), known_skill=KNOWN), npc)


def test_a_sheet_with_more_than_the_line_holds_exports_what_the_line_holds():
    sheet = Character(name="Mara (the elder)", characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
                      skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=2)],
                      notes="not on the line")
    line = format_npc_line(sheet)
    assert line == '"Mara (the elder)"\t898786\tGun Combat (Slug Rifle)-2'
    back = parse_npc_line(line, kind=CharacterKind.PLAYER, known_skill=KNOWN)
    assert back.name == sheet.name and back.skills == sheet.skills and back.notes == ""


def test_lines_become_adversary_templates():
    (raider,) = parse_npc_lines("Raider  786544  Melee Combat (Slashing)-1",
                                kind=CharacterKind.ADVERSARY, known_skill=KNOWN)
    template = as_template(raider)
    assert template.name == "Raider" and template.stats.kind is CharacterKind.ADVERSARY


def test_blank_lines_and_comments_are_skipped_and_line_numbers_are_the_texts():
    text = "# the watch\n\nA  777777\nB  777777  Gun Kombat-1\n\nC  7Y7\n"
    with pytest.raises(NpcLinesError) as caught:
        parse_npc_lines(text, known_skill=KNOWN)
    errors = caught.value.errors
    assert [e.line for e in errors] == [4, 6]
    assert "unknown skill 'Gun Kombat'" in errors[0].message
    assert str(errors[0]).startswith("line 4: ")
    assert "line 6:" in str(caught.value)


@pytest.mark.parametrize(("line", "named"), [
    ("Jana Kell  789A87  Age 34  Marine (3 terms  Cr2000", "bracket is not closed"),
    ("Jana Kell  Age 34  Gun Combat-2", "expected the UPP (like 789A87) after the name "
                                       "'Jana Kell', found 'Age 34'"),
    ("Jana Kell  789A8  Gun Combat-2", "UPP '789A8' has 5 characteristics"),
    ("Jana Kell  789A87  Gun Combat", "skill 'Gun Combat' has no level"),
    ("Jana Kell  789A87  Gun Combat-2  sings loudly", "cannot read 'sings loudly'"),
    ("Jana Kell  789A87  Age 34  Age 35", "two ages"),
    ("  789A87  Gun Combat-2", "no name"),
])
def test_a_malformed_line_is_refused_naming_what_is_wrong(line, named):
    with pytest.raises(NpcLinesError) as caught:
        parse_npc_lines(f"Ok  777777\n{line}", known_skill=KNOWN)
    (error,) = caught.value.errors
    assert error.line == 2 and named in error.message, error.message


def test_an_unknown_skill_is_refused_by_name():
    with pytest.raises(NpcLineError, match="line 3: unknown skill 'Basket Weaving'"):
        parse_npc_line("Jana  789A87  Recon-1, Basket Weaving-2", known_skill=KNOWN, number=3)


@pytest.mark.parametrize(("upp", "named"), [
    ("7I9A87", "DEX 'I' is not a characteristic"),
    ("789A8!", "SOC '!' is not a characteristic"),
    ("000A87", "STR, DEX and END are all 0"),
])
def test_an_absurd_characteristic_is_refused_by_name(upp, named):
    with pytest.raises(NpcLineError) as caught:
        parse_npc_line(f"Jana  {upp}  Recon-1", known_skill=KNOWN)
    assert named in caught.value.message and upp in caught.value.message


@pytest.mark.parametrize(("extra", "named"), [
    ("Recon-16", "level 16 is beyond 15"),
    ("Age 4000", "age 4000 is beyond 1000"),
    ("MCr2000", "beyond Cr"),
    ("Cr2.5", "not a whole number"),
])
def test_absurd_numbers_are_refused_by_name(extra, named):
    with pytest.raises(NpcLineError, match=named):
        parse_npc_line(f"Jana  789A87  {extra}", known_skill=KNOWN)


def test_nothing_to_read_is_refused():
    with pytest.raises(NpcLinesError, match="no NPC line"):
        parse_npc_lines("\n  \n# only a comment\n")


def test_a_name_that_looks_like_a_upp_is_quoted_and_read_back():
    droid = Character(name="R2D2X5", characteristics=Characteristics.of(5, 5, 9, 8, 0, 0))
    line = format_npc_line(droid)
    assert line.startswith('"R2D2X5"\t')
    assert parse_npc_line(line).name == "R2D2X5"


@pytest.mark.parametrize(("skill", "hint"), [
    ("Melee (Blade)-1", "unknown skill 'Melee' (did you mean Melee Combat?)"),
    ("Gun Kombat-1", "unknown skill 'Gun Kombat' (did you mean Gun Combat?)"),
    ("Basket Weaving-1", "unknown skill 'Basket Weaving'"),
])
def test_an_unknown_skill_names_the_known_one_it_was_likely_meant_to_be(skill, hint):
    with pytest.raises(NpcLineError) as caught:
        parse_npc_line(f"Jana  789A87  {skill}", known_skill=KNOWN)
    assert caught.value.message == hint


def test_a_huge_pasted_line_is_refused_quickly_with_a_short_message():
    with pytest.raises(NpcLinesError) as caught:
        parse_npc_lines("Jana  789A87  " + "a-" * 5000 + "\n" + "x" * 20000)
    assert [e.line for e in caught.value.errors] == [1, 2]
    assert all(len(e.message) < 200 for e in caught.value.errors)


def test_careers_and_skills_with_digits_or_brackets_round_trip():
    known = skill_lookup(["Gun Combat", "Vehicle"])
    sheet = parse_npc_line("Ob\t777777\t2nd Fleet (2 terms, Lt)\tArmy (Infantry) (1 term)\t"
                           "Gun Combat (9mm)-1, Vehicle (G-Carrier)-0", known_skill=known)
    assert [(c.name, c.terms, c.rank) for c in sheet.careers] == \
        [("2nd Fleet", 2, "Lt"), ("Army (Infantry)", 1, "")]
    assert [str(s) for s in sheet.skills] == ["Gun Combat (9mm)-1", "Vehicle (G-Carrier)-0"]
    assert same(parse_npc_line(format_npc_line(sheet), known_skill=known), sheet)


_WORD = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                min_size=1, max_size=8)
_WORDS = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)
_LINE_NAMES = st.text(st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"),
                                    exclude_characters='"'), min_size=1, max_size=30) \
    .map(lambda text: " ".join(text.split())).filter(bool)


@settings(max_examples=150, deadline=None)
@given(
    name=_LINE_NAMES,
    values=characteristics,
    age=st.none() | st.integers(0, 1000),
    careers=st.lists(st.builds(Career, name=_WORDS, terms=st.integers(0, 99),
                               rank=st.just("") | _WORDS), max_size=3),
    credits=st.integers(-10**9, 10**9),
    skills=st.lists(st.builds(Skill, name=_WORDS, specialty=st.none() | _WORDS,
                              level=st.integers(0, 15)), max_size=5),
)
def test_any_line_able_sheet_round_trips(name, values, age, careers, credits, skills):
    """Whatever the name (commas, brackets, digits, any script), UPP, age, careers, credits
    and skills: written as a line, read back the same, and written again the same."""
    sheet = Character(name=name, kind=CharacterKind.NPC, characteristics=values, age=age,
                      careers=careers, credits=credits, skills=skills)
    line = format_npc_line(sheet)
    back = parse_npc_line(line)
    assert same(back, sheet), line
    assert format_npc_line(back) == line
