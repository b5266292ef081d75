"""The one-line NPC that 2d6 referees trade, read and written.

``Jana Kell  789A87  Age 34  Marine (3 terms)  Cr2000  Gun Combat-2, Melee (Blade)-1``

Fields are separated by tabs, commas, semicolons or runs of two spaces (single spaces work too when
every field is recognisable); commas inside brackets or quotes do not separate. A line is
the name, the UPP (six pseudo-hex digits, a seventh for PSI), then in any order: ``Age N``,
careers ``Marine (3 terms)`` or ``Marine (3 terms, Captain)``, credits ``Cr2000`` or
``MCr1.5``, and skills ``Skill-N`` or ``Skill (Specialty)-N``. A name with a comma is
written in double quotes. Blank lines and lines starting with ``#`` are skipped.

Many lines are read all or nothing: every line that cannot be read is reported with its
line number and what was wrong (:class:`NpcLinesError`), so a paste never half-lands.
Pure and Qt-free; the window turns the characters into one undoable step.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from pydantic import ValidationError

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.character import (
    CHARACTERISTIC_CODES,
    MAX_AMOUNT,
    MAX_SKILL_LEVEL,
    Career,
    Character,
    Characteristics,
    CharacterKind,
    Skill,
)
from mneme_desktop.rules.checks import from_pseudo_hex

__all__ = [
    "KnownSkills",
    "NpcLineError",
    "NpcLinesError",
    "SkillLookup",
    "as_template",
    "format_npc_line",
    "format_npc_lines",
    "parse_npc_line",
    "parse_npc_lines",
    "skill_lookup",
]

SkillLookup = Callable[[str], str | None]
"""A skill name as typed to the name the campaign knows it by, or None when unknown."""

MAX_AGE = 1000
"""An NPC's age above this is a typing slip, not a long-lived alien."""


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


class KnownSkills:
    """A :data:`SkillLookup` over a list of names (case and spacing do not matter) that can
    also say which known skill a misspelt or shortened name was likely meant to be."""

    def __init__(self, names: Iterable[str]) -> None:
        self._known: dict[str, str] = {}
        for name in names:
            self._known.setdefault(_fold(name), name)

    def __call__(self, name: str) -> str | None:
        return self._known.get(_fold(name))

    def suggest(self, name: str) -> str | None:
        """"Melee" -> "Melee Combat", "Gun Kombat" -> "Gun Combat"; None when nothing is close."""
        folded = _fold(name)
        longer = sorted(key for key in self._known if key.startswith(folded + " "))
        if longer:
            return self._known[longer[0]]
        close = difflib.get_close_matches(folded, list(self._known), n=1, cutoff=0.75)
        return self._known[close[0]] if close else None


def skill_lookup(names: Iterable[str]) -> KnownSkills:
    """A :data:`SkillLookup` over ``names``."""
    return KnownSkills(names)


@dataclass(frozen=True)
class NpcLineError(ValueError):
    """One line that could not be read: its number (from 1), its text and what was wrong."""

    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class NpcLinesError(ValueError):
    """Every line of a paste that could not be read; nothing of the paste is taken."""

    def __init__(self, errors: Sequence[NpcLineError]) -> None:
        self.errors = tuple(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


class _RefusedError(ValueError):
    """What is wrong with a line, before its number is known."""


CLIP = 40
"""Characters of the referee's text quoted in a message: enough to find it on the line."""


def _clip(text: str) -> str:
    return text if len(text) <= CLIP else text[:CLIP - 1] + "…"


# --- splitting a line into fields ------------------------------------------------------------


def _fields(line: str) -> list[str]:
    """Fields split at tabs, commas and runs of two or more spaces, except inside brackets
    or double quotes."""
    fields: list[str] = []
    current: list[str] = []
    depth = 0
    quoted = False
    index = 0
    while index < len(line):
        char = line[index]
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth = max(0, depth - 1)
        split = not quoted and depth == 0 and (
            char in "\t,;" or (char == " " and line[index + 1:index + 2] == " "))
        if split:
            fields.append("".join(current))
            current = []
            while index + 1 < len(line) and line[index + 1] == " ":
                index += 1
        else:
            current.append(char)
        index += 1
    if quoted:
        raise _RefusedError("a double quote is not closed")
    if depth:
        raise _RefusedError("a bracket is not closed")
    fields.append("".join(current))
    return [field.strip() for field in fields if field.strip()]


_UPP = re.compile(r"[0-9A-Za-z]{6,7}")
_UPP_WITH_DIGIT = re.compile(r"(?=[0-9A-Za-z]{0,6}\d)[0-9A-Za-z]{6,7}")
_UPP_LIKE = re.compile(r"[^\s()-]{2,12}")
"""What stands where the UPP goes and is meant as one, right or wrong (``7!9A87``)."""
_WORD_UPP = re.compile(r"(?:^|\s)(?=[0-9A-Za-z]{0,6}\d)([0-9A-Za-z]{6,7})(?=\s|$)")
_AGE = re.compile(r"age\s*:?\s*(\d+)", re.IGNORECASE)
_CREDITS = re.compile(r"(m?cr)\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_CAREER = re.compile(
    r"(?P<name>[^()\d]*?[^\s()\d])\s*\(\s*(?P<terms>\d+)\s*terms?\s*(?:[,;]\s*(?P<rank>[^()]*?))?\s*\)",
    re.IGNORECASE)
_SKILL = re.compile(r"(?P<label>[^\d\s-][^\d-]*?(?:-[^\d\s-][^\d-]*?)*)\s*-\s*(?P<level>\d+)")
"""``Gun Combat-2``, ``Melee (Blade)-1``, ``Jack-of-all-Trades-1``: the level after the
last hyphen."""
# Cutting a single-spaced field into pieces needs the patterns above (no digits in a career
# or skill name, so "Age 34 Marine (3 terms)" is two pieces); a piece already cut out is
# read with these, which take any name ("2nd Fleet (2 terms)", "Gun Combat (9mm)-1").
_CAREER_PIECE = re.compile(
    r"(?P<name>.*?\S)\s*\(\s*(?P<terms>\d+)\s*terms?\s*(?:[,;]\s*(?P<rank>[^()]*?))?\s*\)",
    re.IGNORECASE)
_SKILL_PIECE = re.compile(r"(?P<label>[^\s-][^-]*?(?:-[^\s-][^-]*?)*)\s*-\s*(?P<level>\d+)")


def _split_head(first: str) -> tuple[str, str]:
    """The name, and what follows it in the first field when the line is single-spaced
    ("Jana Kell 789A87 Age 34 …"): the UPP is the first word of 6 or 7 letters and digits
    with a digit in it."""
    text = first.strip()
    if text.startswith('"'):
        end = text.find('"', 1)
        return text[1:end].strip(), text[end + 1:].strip()
    match = _WORD_UPP.search(text)
    if match is None or match.start(1) == 0:
        return text, ""
    return text[:match.start(1)].strip(), text[match.start(1):].strip()


def _pieces(field: str) -> list[str]:
    """One field cut into the things it holds, for single-spaced lines: ``Age 34 Marine (3
    terms) Cr2000`` is three pieces. A field that is one thing comes back whole."""
    if _one_thing(field):
        return [field]
    pieces: list[str] = []
    rest = field.strip()
    patterns = (_UPP_WITH_DIGIT, _AGE, _CREDITS, _CAREER, _SKILL)
    while rest:
        for pattern in patterns:
            match = pattern.match(rest)
            if match is not None and (match.end() == len(rest) or rest[match.end()] == " "):
                pieces.append(match.group(0))
                rest = rest[match.end():].strip()
                break
        else:
            return [*pieces, rest]
    return pieces


def _one_thing(field: str, *, upp: bool = True) -> bool:
    """Whether ``field`` is one whole age, credits, career or skill (or UPP)."""
    patterns = (_AGE, _CREDITS, _CAREER, _SKILL, *((_UPP,) if upp else ()))
    return any(pattern.fullmatch(field) for pattern in patterns)


# --- reading ---------------------------------------------------------------------------------


def _characteristics(text: str) -> Characteristics:
    codes = [code.value.upper() for code in CHARACTERISTIC_CODES]
    values: list[int] = []
    for code, digit in zip(codes, text, strict=False):
        try:
            value = from_pseudo_hex(digit)
        except ValueError:
            raise _RefusedError(f"UPP {text}: {code} '{digit}' is not a characteristic "
                                "(0-9, then A-H, J-N, P-Z)") from None
        values.append(value)
    if sum(values[:3]) < 1:
        raise _RefusedError(f"UPP {text}: STR, DEX and END are all 0, so no hit points")
    strength, dexterity, endurance, intelligence, education, social = values[:6]
    return Characteristics.of(strength, dexterity, endurance, intelligence, education, social,
                              values[6] if len(values) == 7 else None)


def _credits(unit: str, amount: str) -> int:
    try:
        value = Decimal(amount) * (1_000_000 if unit.lower() == "mcr" else 1)
    except InvalidOperation:
        raise _RefusedError(f"credits '{unit}{_clip(amount)}' are not a number") from None
    if value != value.to_integral_value():
        raise _RefusedError(f"credits '{unit}{_clip(amount)}' are not a whole number of credits")
    if abs(value) > MAX_AMOUNT:
        raise _RefusedError(f"credits '{unit}{_clip(amount)}' are beyond Cr{MAX_AMOUNT}")
    return int(value)


def _skill(text: str, level: str, known: SkillLookup | None) -> Skill:
    name, specialty = Skill.split_label(text)
    if not name or "(" in name or ")" in name:
        raise _RefusedError(
            f"'{_clip(text)}-{level}' is not a skill (write Skill-1 or Skill (Specialty)-1)")
    if known is not None:
        found = known(name)
        if found is None:
            hint = known.suggest(name) if isinstance(known, KnownSkills) else None
            raise _RefusedError(f"unknown skill '{_clip(name)}'"
                                + (f" (did you mean {hint}?)" if hint else ""))
        name = found
    if int(level) > MAX_SKILL_LEVEL:
        raise _RefusedError(f"skill '{_clip(text)}-{level}': level {_clip(level)} is beyond "
                            f"{MAX_SKILL_LEVEL}")
    try:
        return Skill(name=name, specialty=specialty, level=int(level))
    except ValidationError:
        raise _RefusedError(
            f"'{_clip(text)}-{level}' is not a skill this app can keep (too long?)") from None


def _read(line: str, kind: CharacterKind, known: SkillLookup | None) -> Character:
    fields = _fields(line)
    name, head_rest = _split_head(fields[0])
    if not name or (_UPP_WITH_DIGIT.fullmatch(name) and not fields[0].startswith('"')):
        raise _RefusedError("the line has no name before the UPP")
    rest = ([head_rest] if head_rest else []) + fields[1:]
    pieces = [piece for field in rest for piece in _pieces(field)]
    if not pieces or not _UPP_LIKE.fullmatch(pieces[0]) or _one_thing(pieces[0], upp=False):
        found = f"'{_clip(pieces[0])}'" if pieces else "nothing"
        raise _RefusedError(
            f"expected the UPP (like 789A87) after the name '{_clip(name)}', found {found}")
    if len(pieces[0]) not in (6, 7):
        raise _RefusedError(
            f"UPP '{_clip(pieces[0])}' has {len(pieces[0])} characteristics: a UPP has 6 "
            "(STR DEX END INT EDU SOC), 7 with PSI")
    characteristics = _characteristics(pieces[0])
    age: int | None = None
    careers: list[Career] = []
    credits: int | None = None
    skills: list[Skill] = []
    for piece in pieces[1:]:
        if match := _AGE.fullmatch(piece):
            if age is not None:
                raise _RefusedError(f"two ages ('Age {age}' and '{_clip(piece)}')")
            age = int(match.group(1))
            if age > MAX_AGE:
                raise _RefusedError(f"age {age} is beyond {MAX_AGE}")
        elif match := _CREDITS.fullmatch(piece):
            if credits is not None:
                raise _RefusedError(f"two amounts of credits ('{_clip(piece)}' and Cr{credits})")
            credits = _credits(match.group(1), match.group(2))
        elif match := _CAREER_PIECE.fullmatch(piece):
            careers.append(_career(match))
        elif match := _SKILL_PIECE.fullmatch(piece):
            skills.append(_skill(match.group("label").strip(), match.group("level"), known))
        elif known is not None and known(piece) is not None:
            raise _RefusedError(f"skill '{_clip(piece)}' has no level (write {_clip(piece)}-0)")
        elif _UPP.fullmatch(piece):
            raise _RefusedError(f"a second UPP '{_clip(piece)}'")
        else:
            raise _RefusedError(f"cannot read '{_clip(piece)}' "
                                "(not an age, career, credits or Skill-N)")
    try:
        return Character(name=name, kind=kind, characteristics=characteristics, age=age,
                         careers=careers, credits=credits or 0, skills=skills)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise _RefusedError(f"{where}: {first['msg']}") from None


def _career(match: re.Match[str]) -> Career:
    terms = int(match.group("terms"))
    try:
        return Career(name=match.group("name").strip(), terms=terms,
                      rank=(match.group("rank") or "").strip())
    except ValidationError:
        raise _RefusedError(f"career '{_clip(match.group(0))}' cannot be kept (terms 0-99, "
                            "short names)") from None


def parse_npc_line(line: str, *, kind: CharacterKind = CharacterKind.NPC,
                   known_skill: SkillLookup | None = None, number: int = 1) -> Character:
    """One line as a new character; :class:`NpcLineError` (with ``number``) if it cannot
    be read. With ``known_skill``, a skill it does not know is refused by name."""
    try:
        return _read(line.strip(), kind, known_skill)
    except _RefusedError as exc:
        raise NpcLineError(number, line, str(exc)) from None


def parse_npc_lines(text: str, *, kind: CharacterKind = CharacterKind.NPC,
                    known_skill: SkillLookup | None = None) -> list[Character]:
    """Every NPC line of ``text`` (blank lines and ``#`` comments skipped), or
    :class:`NpcLinesError` naming each line that cannot be read, and none taken."""
    characters: list[Character] = []
    errors: list[NpcLineError] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            characters.append(parse_npc_line(line, kind=kind, known_skill=known_skill,
                                             number=number))
        except NpcLineError as exc:
            errors.append(exc)
    if errors:
        raise NpcLinesError(errors)
    if not characters:
        raise NpcLinesError([NpcLineError(1, text, "there is no NPC line to read")])
    return characters


def as_template(character: Character) -> AdversaryTemplate:
    """An adversary template whose stat block is ``character`` (made an adversary)."""
    return AdversaryTemplate(stats=character.model_copy(
        update={"kind": CharacterKind.ADVERSARY}, deep=True))


# --- writing ---------------------------------------------------------------------------------


def _name_field(name: str) -> str:
    """The name as the reader takes it back: one space between words, quoted if it holds
    a separator or a bracket, or could be read as a UPP."""
    name = " ".join(name.replace('"', "'").split())
    if any(mark in name for mark in ",;()") or _split_head(name)[1] or \
            _UPP_WITH_DIGIT.fullmatch(name):
        return f'"{name}"'
    return name


def format_npc_line(character: Character) -> str:
    """The character as one tab-separated line (skills joined by ", ") that
    :func:`parse_npc_line` reads back to the same name, UPP, age, careers, credits, skills."""
    fields = [_name_field(character.name), character.upp]
    if character.age is not None:
        fields.append(f"Age {character.age}")
    for career in character.careers:
        terms = f"{career.terms} term{'s' if career.terms != 1 else ''}"
        rank = f", {career.rank}" if career.rank else ""
        fields.append(f"{career.name} ({terms}{rank})")
    if character.credits:
        fields.append(f"Cr{character.credits}")
    if character.skills:
        fields.append(", ".join(str(skill) for skill in character.skills))
    return "\t".join(fields)


def format_npc_lines(characters: Iterable[Character]) -> str:
    """One line per character, newline-terminated."""
    return "".join(f"{format_npc_line(character)}\n" for character in characters)
