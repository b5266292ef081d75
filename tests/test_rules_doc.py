"""docs/rules.md says, for every rule, where in the window the referee reaches it: each rule
is a row of a table with a "where in the window" column, none of those cells is empty, and
every control named there (`#object_name`) is one the app builds. The readings issue 17 asked
to settle are rows of their own, each with the chapter's sentence."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
WHERE = "where in the window"
_EMPTY = {"", "-", "—", "–", "?", "tbd", "todo", "n/a", "none"}
_CONTROL = re.compile(r"#([A-Za-z_][A-Za-z0-9_]*)")
READINGS = (
    "Splitting a rate of attack between targets",
    "First aid: a significant action or a full action",
    "Targeted thresholds rounded down",
    "Aim on melee attacks",
    "The Effect 6+ minimum on a Fail Effect",
)


def _cells(line: str) -> list[str]:
    """The cells of one table row (a ``\\|`` inside a cell is not a separator)."""
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]


def rule_tables(text: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """(section heading, header cells, rows) of every table in the document."""
    tables: list[tuple[str, list[str], list[list[str]]]] = []
    heading = ""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|") and index + 1 < len(lines) \
                and re.match(r"^\|\s*-{3}", lines[index + 1]):
            header = _cells(line)
            rows = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(_cells(lines[index]))
                index += 1
            tables.append((heading, header, rows))
            continue
        index += 1
    return tables


@cache
def _source_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8")
                     for path in (ROOT / "mneme_desktop").rglob("*.py"))


def where_problems(text: str, known: str | None = None) -> list[str]:
    """Everything wrong with the document's "where in the window" column (empty: nothing)."""
    problems = []
    tables = rule_tables(text)
    if not tables:
        return ["no rule tables"]
    source = _source_text() if known is None else known
    for heading, header, rows in tables:
        lowered = [cell.lower() for cell in header]
        if WHERE not in lowered:
            problems.append(f"{heading}: a table without a '{WHERE}' column")
            continue
        column = lowered.index(WHERE)
        for row in rows:
            name = row[0] if row else "?"
            if len(row) != len(header):
                problems.append(f"{heading} / {name}: {len(row)} cells, the header has "
                                f"{len(header)}")
                continue
            where = row[column]
            if where.strip().lower().strip("*_` ") in _EMPTY:
                problems.append(f"{heading} / {name}: nothing under '{WHERE}'")
            for control in _CONTROL.findall(where):
                if f'"{control}"' not in source:
                    problems.append(f"{heading} / {name}: #{control} is no control of the app")
    return problems


def loose_rules(text: str) -> list[str]:
    """Rules written as list items under a chapter heading instead of as table rows."""
    loose = []
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif re.match(r"^\s*[-*] ", line) and heading.startswith(("Ch.", "Readings", "Left")):
            loose.append(f"{heading}: {line.strip()[:60]}")
    return loose


def test_every_rule_row_says_where_in_the_window() -> None:
    assert where_problems(DOC.read_text(encoding="utf-8")) == []


def test_every_rule_is_a_row_not_a_loose_item() -> None:
    assert loose_rules(DOC.read_text(encoding="utf-8")) == []


def test_the_readings_are_settled_with_the_chapters_sentence() -> None:
    rows = {row[0]: row for heading, _header, rows in rule_tables(DOC.read_text(
        encoding="utf-8")) if heading.startswith("Readings") for row in rows}
    for reading in READINGS:
        assert reading in rows, reading
        sentence = rows[reading][1]
        assert re.search(r"Ch\.[367]", sentence) and '"' in sentence, reading


@pytest.mark.parametrize(("where", "problem"), [
    ("", "nothing under"),
    ("—", "nothing under"),
    ("Encounter ▸ Attack `#no_such_control_anywhere`", "is no control of the app"),
])
def test_a_row_without_a_place_or_with_an_unknown_control_fails(where: str,
                                                                problem: str) -> None:
    text = ("## Ch.3 Dice Mechanics\n\n| rule | chapter sentence | reading and code | "
            f"{WHERE} |\n| --- | --- | --- | --- |\n| A rule | \"a sentence\" | code | {where} |\n")
    problems = where_problems(text, known='"spotter"')
    assert len(problems) == 1 and problem in problems[0]
    assert where_problems(text.replace(f"| {where} |", "| Encounter `#spotter` |"),
                          known='"spotter"') == []


def test_a_rule_written_as_a_list_item_fails() -> None:
    assert loose_rules("## Ch.6 Actions\n\n- Aim: +1 per minor action\n") != []
    assert loose_rules("# Rules implemented\n\n- not a chapter section\n") == []
