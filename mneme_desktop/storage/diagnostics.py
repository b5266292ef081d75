"""Turning parse and validation failures into messages a referee can act on.

A pydantic error says ``('characters', 3, 'characteristics', 'str')``; the referee needs
"characters[3].characteristics.str: must be at least 0 (line 42)". The line is found by
walking the JSON text along that path, which only happens once something is already wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from pydantic import ValidationError

from mneme_desktop.domain.campaign import CampaignIntegrityError, IntegrityProblem

__all__ = [
    "MAX_REPORTED_PROBLEMS",
    "WORK",
    "LocateWork",
    "Problem",
    "describe_json_error",
    "duplicate_key",
    "error_message",
    "format_path",
    "line_of",
    "lines_of",
    "locate",
    "locate_all",
    "validation_problems",
]

MAX_REPORTED_PROBLEMS = 5
"""A message lists this many problems and counts the rest: one fix often clears several."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()

Loc = Sequence[str | int]


class LocateWork:
    """What locating problems cost: paths located and characters walked (tests read it).

    Locating is the one part of refusing a bad file that walks its text in Python; these
    counts let tests prove it stays linear in the file's size, whatever the file holds.
    """

    __slots__ = ("chars", "paths", "walks")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.paths = 0
        self.walks = 0
        self.chars = 0


WORK = LocateWork()


class Problem:
    """One located problem: where (path and line) and what."""

    __slots__ = ("line", "message", "path")

    def __init__(self, path: Loc, message: str, line: int | None = None) -> None:
        self.path = tuple(path)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        where = format_path(self.path)
        text = f"{where}: {self.message}" if where else self.message
        return f"{text} (line {self.line})" if self.line is not None else text

    def __repr__(self) -> str:
        return f"Problem({self.path!r}, {self.message!r}, line={self.line!r})"


def format_path(path: Loc) -> str:
    """('characters', 3, 'skills', 0, 'level') -> "characters[3].skills[0].level"."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def _skip(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    return match.end() if match else pos


def locate(text: str, path: Loc) -> int | None:
    """Character offset of the value at ``path`` in JSON ``text`` (or of the deepest part of
    the path that exists: a missing key points at its object). None if nothing matches."""
    return locate_all(text, [path])[tuple(path)]


def line_of(text: str, offset: int | None) -> int | None:
    return None if offset is None else text.count("\n", 0, offset) + 1


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    except ValueError:  # an integer too long to print
        return "a number too large"
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _found(error: dict[str, Any]) -> str:
    value = error.get("input")
    if isinstance(value, dict):
        return " (found an object)"
    if isinstance(value, list):
        return " (found a list)"
    return f" (found {_short(value)})" if _jsonable(value) else ""


def _message(error: dict[str, Any]) -> str:
    """The error in plain words, keyed on pydantic's stable error ``type``."""
    kind = error["type"]
    ctx: dict[str, Any] = error.get("ctx") or {}
    simple = {
        "missing": "is missing",
        "int_type": "must be a whole number",
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number, not a fraction",
        "string_type": "must be text in quotes",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "list_type": "must be a list [...]",
        "model_type": "must be an object {...}",
        "model_attributes_type": "must be an object {...}",
        "dict_type": "must be an object {...}",
        "finite_number": "must be a finite number (NaN and Infinity are not allowed)",
        "none_required": "must be null",
        "decimal_parsing": "must be a number like 0.5",
        "decimal_type": "must be a number like 0.5",
        "fraction_parsing": "must be a fraction like 1/3",
        "fraction_type": "must be a fraction like 1/3",
    }
    if kind in simple:
        suffix = "" if kind == "missing" else _found(error)
        return simple[kind] + suffix
    if kind == "extra_forbidden":
        return (
            "is not a field this version of Mneme Desktop knows (a typo, or a file from a newer "
            "version?)"
        )
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}{_found(error)}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}{_found(error)}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}{_found(error)}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}{_found(error)}"
    if kind == "string_too_short":
        if ctx.get("min_length") == 1:
            return "must not be empty"
        return f"must be at least {ctx.get('min_length')} characters"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters"
    if kind in ("enum", "literal_error"):
        return f"must be one of {ctx.get('expected')}{_found(error)}"
    if kind in ("value_error", "assertion_error"):
        cause = ctx.get("error")
        return str(cause) if cause is not None else str(error.get("msg", ""))
    if kind.startswith("decimal_"):
        return f"{error['msg'][0].lower()}{error['msg'][1:]}{_found(error)}"
    msg = str(error.get("msg", kind))
    if msg.startswith("Input should be "):
        msg = "must be " + msg[len("Input should be ") :]
    return msg + _found(error)


def error_message(error: dict[str, Any]) -> str:
    """One pydantic error (an item of ``exc.errors()``) in plain words, without its place."""
    return _message(error)


def validation_problems(
    exc: ValidationError,
    text: str | None = None,
    prefix: Loc = (),
    *,
    located: int = MAX_REPORTED_PROBLEMS,
) -> list[Problem]:
    """Every error of ``exc`` as a :class:`Problem`; the first ``located`` get their line.

    Only the problems a message shows are located, in one walk over ``text``: locating all
    of 20,000 errors one by one took minutes. Cross-reference problems (duplicate ids,
    dangling references) carry their own paths.
    """
    found: list[tuple[Loc, str]] = []
    for error in exc.errors(include_url=False):
        cause = (error.get("ctx") or {}).get("error")
        base = (*prefix, *error["loc"])
        if isinstance(cause, CampaignIntegrityError):
            found.extend(((*base, *item.path), item.message) for item in cause.problems)
            continue
        found.append((base, _message(dict(error))))
    return _locate_problems(found, text, located)


def integrity_problems(items: Sequence[IntegrityProblem], text: str | None) -> list[Problem]:
    return _locate_problems([(item.path, item.message) for item in items], text,
                            MAX_REPORTED_PROBLEMS)


def _locate_problems(found: list[tuple[Loc, str]], text: str | None, located: int
                     ) -> list[Problem]:
    head = [tuple(path) for path, _ in found[:located]]
    offsets = locate_all(text, head) if text is not None and head else {}
    lines = lines_of(text, offsets.values()) if text is not None else {}
    problems = []
    for index, (path, message) in enumerate(found):
        line = lines.get(offsets.get(tuple(path))) if index < located else None
        problems.append(Problem(path, message, line))
    return problems


def lines_of(text: str, offsets: Iterable[int | None]) -> dict[int | None, int | None]:
    """Line numbers of several offsets, counted in one pass over ``text``."""
    result: dict[int | None, int | None] = {None: None}
    line, previous = 1, 0
    for offset in sorted({o for o in offsets if o is not None}):
        line += text.count("\n", previous, offset)
        previous = offset
        result[offset] = line
    return result


def locate_all(text: str, paths: Sequence[Loc]) -> dict[tuple[str | int, ...], int | None]:
    """Offsets of several paths (as :func:`locate` finds them) in one walk over ``text``.

    The walk descends only into the containers on the way to a wanted path and stops in
    each as soon as its wanted members are passed, so its cost is at most one reading of
    the text, however many problems the file has.
    """
    wanted = [tuple(path) for path in paths]
    WORK.walks += 1
    WORK.paths += len(wanted)
    trie: dict[Any, Any] = {}
    for path in wanted:
        node = trie
        for part in path:
            node = node.setdefault(part, {})
    found: dict[tuple[str | int, ...], int] = {}
    start = _skip(text, 0)
    end = start
    try:
        if start < len(text):
            found[()] = start
            if trie and text[start] in "{[":
                end = _walk(text, start, trie, (), start, found, finish=False)
    except (ValueError, IndexError, RecursionError):
        end = len(text)
    WORK.chars += max(end - start, 0)
    result: dict[tuple[str | int, ...], int | None] = {}
    for path in wanted:
        best: int | None = None
        for depth in range(len(path), -1, -1):
            if path[:depth] in found:
                best = found[path[:depth]]
                break
        result[path] = best
    return result


def _walk(text: str, pos: int, trie: dict[Any, Any], here: tuple[str | int, ...], best: int,
          found: dict[tuple[str | int, ...], int], *, finish: bool = True) -> int:
    """Record where each member of ``trie`` is in the container at ``pos``; returns the
    offset just past the container. Every character is read once, moving forward."""
    found[here] = best
    opener = text[pos]
    keys = {k for k in trie if isinstance(k, str)} if opener == "{" else set()
    indexes = {k for k in trie if isinstance(k, int)} if opener == "[" else set()
    remaining = len(keys) + len(indexes)
    closer = "}" if opener == "{" else "]"
    pos = _skip(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] != closer:
        if not remaining:
            return _skip_rest(text, pos) if finish else pos
        if opener == "{":
            if text[pos] != '"':
                raise ValueError("not a key")
            key_pos = pos
            key, pos = scanstring(text, pos + 1)
            pos = _skip(text, pos)
            if text[pos] != ":":
                raise ValueError("no colon")
            pos = _skip(text, pos + 1)
            member: str | int = key
            member_best = key_pos
            hit = key in keys and (*here, key) not in found
        else:
            member = index
            member_best = pos
            hit = index in indexes
            index += 1
        child = trie[member] if hit else None
        if hit:
            remaining -= 1
        if child and text[pos] in "{[":
            pos = _walk(text, pos, child, (*here, member), member_best, found)
        else:
            if hit:
                found[(*here, member)] = member_best
            pos = _skip_value(text, pos)
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
    return pos + 1


_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def _skip_value(text: str, pos: int) -> int:
    """The offset just past the value at ``pos``, without building it (a skipped list of
    ten million numbers costs no memory)."""
    first = text[pos]
    if first == '"':
        return int(scanstring(text, pos + 1)[1])
    if first in "{[":
        return _skip_rest(text, pos + 1)
    return int(_DECODER.raw_decode(text, pos)[1])


def _skip_rest(text: str, pos: int) -> int:
    """From inside a container, the offset just past its closing bracket."""
    depth = 1
    for match in _TOKEN.finditer(text, pos):
        char = match.group()[0]
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return match.end()
    raise ValueError("unclosed container")


def duplicate_key(text: str) -> tuple[str, int] | None:
    """The first key that appears twice in one object: (its path, its offset), else None.

    Only run once a duplicate is known to exist (the JSON parser says so, not where).
    """
    try:
        start = _skip(text, 0)
        return _first_duplicate(text, start, ())[0]
    except (ValueError, IndexError, RecursionError):
        return None


def _first_duplicate(text: str, pos: int, here: tuple[str | int, ...]
                     ) -> tuple[tuple[str, int] | None, int]:
    opener = text[pos] if pos < len(text) else ""
    if opener not in "{[" or not opener:
        return None, _skip_value(text, pos)
    closer = "}" if opener == "{" else "]"
    seen: set[str] = set()
    pos = _skip(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] != closer:
        member: str | int = index
        if opener == "{":
            key_pos = pos
            key, pos = scanstring(text, pos + 1)
            pos = _skip(text, pos)
            pos = _skip(text, pos + 1)  # the colon
            if key in seen:
                return (format_path((*here, key)), key_pos), pos
            seen.add(key)
            member = key
        result, pos = _first_duplicate(text, pos, (*here, member))
        if result is not None:
            return result, pos
        index += 1
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
    return None, pos + 1


def describe_json_error(exc: json.JSONDecodeError) -> str:
    """"Expecting ',' delimiter at line 3, column 7" with the parser's words made plainer."""
    reason = exc.msg
    if reason.startswith("Expecting value"):
        reason = "expected a value (the file may be cut short or have a stray comma)"
    elif reason.startswith("Unterminated string"):
        reason = "a text value is not closed with a quote (the file may be cut short)"
    elif reason.startswith("Extra data"):
        reason = "unexpected text after the end of the data"
    return f"{reason} at line {exc.lineno}, column {exc.colno}"


def summarise(problems: Sequence[Problem]) -> str:
    """Up to :data:`MAX_REPORTED_PROBLEMS` problems, one per line, and a count of the rest."""
    shown = [f"- {problem}" for problem in problems[:MAX_REPORTED_PROBLEMS]]
    rest = len(problems) - MAX_REPORTED_PROBLEMS
    if rest > 0:
        shown.append(f"- ... and {rest} more problem{'s' if rest > 1 else ''}")
    return "\n".join(shown)
