"""Thrown weapons (Ch.6): straight and lobbed range from STR and the Thrown value."""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "thrown_range",
]


def _exact(value: int | float | Fraction | str, what: str) -> Fraction:
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number, got {value!r}")
    try:
        exact = Fraction(str(value)) if isinstance(value, float | str) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{what} must be a number like 0.5 or 1.5, got {value!r}") from None
    if exact < 0:
        raise ValueError(f"{what} cannot be negative, got {value!r}")
    return exact


def thrown_range(strength: int, thrown: int | float | Fraction | str) -> tuple[int, int]:
    """(straight, lobbed) range in whole metres: STR x Thrown, and three times that for a
    lob, each rounded down (Thrown 0.5 at STR 7 is 3 m straight, 10 m lobbed)."""
    straight = _exact(strength, "strength") * _exact(thrown, "the Thrown value")
    return math.floor(straight), math.floor(straight * 3)
