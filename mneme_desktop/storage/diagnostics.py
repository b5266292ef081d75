"""Turning parse and validation failures into messages a referee can act on.

A pydantic error says ``('characters', 3, 'characteristics', 'str')``; the referee needs
"characters[3].characteristics.str: must be at least 0 (line 42)". The line is found by
walking the JSON text along that path, which only happens once something is already wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from pydantic import ValidationError

from mneme_desktop.domain.campaign import CampaignIntegrityError, IntegrityProblem

__all__ = [
    "MAX_REPORTED_PROBLEMS",
    "Problem",
    "describe_json_error",
    "format_path",
    "line_of",
    "locate",
    "validation_problems",
]

MAX_REPORTED_PROBLEMS = 5
"""A message lists this many problems and counts the rest: one fix often clears several."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()

Loc = Sequence[str | int]


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
    try:
        return _locate(text, path)
    except (ValueError, IndexError, RecursionError):
        return None


def _locate(text: str, path: Loc) -> int | None:
    pos = _skip(text, 0)
    if pos >= len(text):
        return None
    best = pos
    for part in path:
        if pos >= len(text):
            break
        opener = text[pos]
        if isinstance(part, str) and opener == "{":
            found = _find_key(text, pos, part)
            if found is None:
                return best
            best, pos = found
        elif isinstance(part, int) and opener == "[":
            found_at = _find_index(text, pos, part)
            if found_at is None:
                return best
            best = pos = found_at
        else:
            return best
    return best


def _find_key(text: str, pos: int, wanted: str) -> tuple[int, int] | None:
    """(offset of the key, offset of its value) inside the object starting at ``pos``."""
    pos = _skip(text, pos + 1)
    while pos < len(text) and text[pos] != "}":
        if text[pos] != '"':
            return None
        key_pos = pos
        key, pos = scanstring(text, pos + 1)
        pos = _skip(text, pos)
        if text[pos] != ":":
            return None
        pos = _skip(text, pos + 1)
        if key == wanted:
            return key_pos, pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
    return None


def _find_index(text: str, pos: int, wanted: int) -> int | None:
    pos = _skip(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] != "]":
        if index == wanted:
            return pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
        index += 1
    return None


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


def validation_problems(
    exc: ValidationError, text: str | None = None, prefix: Loc = ()
) -> list[Problem]:
    """Every error of ``exc`` as a :class:`Problem`, located in ``text`` when given.

    Cross-reference problems (duplicate ids, dangling references) carry their own paths.
    """
    problems: list[Problem] = []
    for error in exc.errors(include_url=False):
        cause = (error.get("ctx") or {}).get("error")
        base = (*prefix, *error["loc"])
        if isinstance(cause, CampaignIntegrityError):
            for item in cause.problems:
                problems.append(_located(text, (*base, *item.path), item.message))
            continue
        problems.append(_located(text, base, _message(dict(error))))
    return problems


def integrity_problems(items: Sequence[IntegrityProblem], text: str | None) -> list[Problem]:
    return [_located(text, item.path, item.message) for item in items]


def _located(text: str | None, path: Loc, message: str) -> Problem:
    line = line_of(text, locate(text, path)) if text is not None else None
    return Problem(path, message, line)


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
