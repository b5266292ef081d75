"""User text made safe to print: no control or bidi override characters, no lone surrogate,
applied once to the whole document so every renderer prints the same text."""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from typing import Any

from mneme_desktop.export.document import (
    Card,
    CardSheet,
    Column,
    Columns,
    ExportDocument,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
    TrackBlock,
)

__all__ = [
    "clean_text",
    "sanitised",
]

_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls but tab and newline, DEL, C1 controls
    "\u202a-\u202e\u2066-\u2069]"  # bidi embeddings, overrides and isolates
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """User text made safe to print: control characters (NUL included) are dropped, so are
    the bidi embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069),
    which would reorder the text around a name (an override in a name could make a sheet
    say something else), and a lone surrogate, which no file encoding can hold, becomes
    U+FFFD. Carriage returns become line breaks; right-to-left letters are kept."""
    if text.isprintable():
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _SURROGATE.sub("\ufffd", _UNPRINTABLE.sub("", text))


_MODEL_TYPES = (TrackBlock, Column, Table, Text, Fields, Columns, Heading, Sheet, Card,
                CardSheet, ExportDocument)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each model class's field names, looked up once rather than for every block."""


def _cleaned(value: object) -> object:
    if type(value) is str:  # the commonest case first (an Align member is not exactly str)
        return clean_text(value)
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return clean_text(value)
    # Nearly all text is printable already: a part in which nothing changed is kept as it
    # is (the model is frozen, so sharing it is safe) instead of being copied.
    if isinstance(value, tuple):
        items = tuple(_cleaned(item) for item in value)
        return value if all(new is old for new, old in zip(items, value, strict=True)) else items
    if isinstance(value, _MODEL_TYPES):
        names = _FIELD_NAMES.get(type(value))
        if names is None:
            names = _FIELD_NAMES[type(value)] = tuple(f.name for f in dataclasses.fields(value))
        changes: dict[str, Any] = {}
        for name in names:
            old = getattr(value, name)
            new = _cleaned(old)
            if new is not old:
                changes[name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value  # numbers, damage tracks: not text


def sanitised(document: ExportDocument) -> ExportDocument:
    """``document`` with :func:`clean_text` applied to every string in it, so every
    renderer (print, PDF, HTML) gets the same printable text."""
    cleaned = _cleaned(document)
    assert isinstance(cleaned, ExportDocument)
    return cleaned
