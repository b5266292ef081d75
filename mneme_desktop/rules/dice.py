"""Dice expressions, exact dice odds and dice read as typed from the table.

Mneme CE writes weapon damage as dice expressions (``1d6``, ``3d6``, ``3d3-2``, ``2d6+1``)
with an optional scale prefix (``D 3d3`` = x10, ``H 2d6-2`` = x100, ``K 5d6-4`` = x1000),
and resolves every check on 2d6, rolling extra dice and keeping two for advantage.
Everything here is exact (``fractions.Fraction``) so the referee sees true odds, and
every roll takes a ``random.Random`` so results are reproducible.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import NamedTuple

__all__ = [
    "MAX_DICE",
    "MAX_MODIFIER",
    "MAX_SIDES",
    "DiceExpression",
    "DiceParseError",
    "DiceRoll",
    "DiceSource",
    "KeptRoll",
    "Scale",
    "clamp_distribution",
    "clamp_roll",
    "distribution_mean",
    "keep_distribution",
    "parse_dice",
    "parse_dice_source",
    "parse_dice_values",
    "parse_roll_groups",
    "roll_keep",
    "roll_two_d6",
    "sum_distribution",
    "two_d6_distribution",
]

MAX_DICE = 100
"""Most dice one expression (or one advantage roll) may hold."""
MAX_SIDES = 100
"""Largest die the parser accepts; the smallest is a d2."""
MAX_MODIFIER = 1000
"""Largest flat number or modifier the parser accepts (before scaling)."""

_MIN_SIDES = 2


class Scale(Enum):
    """Damage scale of Ch.7: a weapon of a greater scale multiplies its whole result."""

    NONE = ""
    DEKA = "D"
    HEKA = "H"
    KILO = "K"

    @property
    def prefix(self) -> str:
        """The letter written before the dice ("" for the personal scale)."""
        return self.value

    @property
    def multiplier(self) -> int:
        return _SCALE_MULTIPLIERS[self]

    @property
    def label(self) -> str:
        return _SCALE_LABELS[self]

    @classmethod
    def from_prefix(cls, prefix: str) -> Scale:
        """The scale for a written prefix (case-insensitive; "" is the personal scale)."""
        wanted = prefix.strip().upper()
        for scale in cls:
            if scale.value == wanted:
                return scale
        raise ValueError(f"unknown scale prefix {prefix!r}: expected one of '', 'D', 'H', 'K'")


_SCALE_MULTIPLIERS = {Scale.NONE: 1, Scale.DEKA: 10, Scale.HEKA: 100, Scale.KILO: 1000}
_SCALE_LABELS = {Scale.NONE: "personal", Scale.DEKA: "Deka", Scale.HEKA: "Heka", Scale.KILO: "Kilo"}


class DiceParseError(ValueError):
    """A dice expression could not be read; says what was wrong and where (1-based)."""

    def __init__(self, reason: str, text: str, position: int) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        super().__init__(f"{reason} at position {position} in {text!r}")


class DiceRoll(NamedTuple):
    """One roll of a dice expression, kept whole so the table can see each die."""

    dice: tuple[int, ...]
    modifier: int
    multiplier: int
    total: int


class KeptRoll(NamedTuple):
    """Dice rolled with advantage or disadvantage: all dice shown, two (or more) kept."""

    dice: tuple[int, ...]
    kept: tuple[int, ...]
    total: int


def _check_dice_count(count: int, *, minimum: int = 0) -> None:
    if not minimum <= count <= MAX_DICE:
        raise ValueError(f"number of dice must be {minimum}..{MAX_DICE}, got {count}")


def _check_sides(sides: int, *, minimum: int = 1) -> None:
    if not minimum <= sides <= MAX_SIDES:
        raise ValueError(f"a die must have {minimum}..{MAX_SIDES} sides, got {sides}")


@functools.lru_cache(maxsize=512)
def _sum_counts(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    """Ways to roll each total on ``count`` dice, by repeated convolution."""
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return tuple(sorted(ways.items()))


def sum_distribution(count: int, sides: int) -> dict[int, Fraction]:
    """Exact odds of each total of ``count`` dice with ``sides`` sides (0 dice: always 0)."""
    _check_dice_count(count)
    _check_sides(sides)
    outcomes = sides**count
    return {total: Fraction(n, outcomes) for total, n in _sum_counts(count, sides)}


@functools.lru_cache(maxsize=512)
def _keep_counts(dice: int, sides: int, keep: int, highest: bool) -> tuple[tuple[int, int], ...]:
    """Ways to reach each kept total.

    Faces are visited from the best kept face down; at each face we choose how many of the
    still-unassigned dice show it (``comb`` counts their arrangements) and keep as many of
    them as the kept slots allow. This stays fast for large pools where brute force would not.
    """
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    # state: (dice assigned, dice kept, kept sum) -> arrangements
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for face in faces:
        nxt: dict[tuple[int, int, int], int] = {}
        for (assigned, kept, total), ways in states.items():
            free = dice - assigned
            for showing in range(free + 1):
                newly_kept = min(keep - kept, showing)
                key = (assigned + showing, kept + newly_kept, total + newly_kept * face)
                nxt[key] = nxt.get(key, 0) + ways * math.comb(free, showing)
        states = nxt
    result: dict[int, int] = {}
    for (assigned, _kept, total), ways in states.items():
        if assigned == dice:
            result[total] = result.get(total, 0) + ways
    return tuple(sorted(result.items()))


def keep_distribution(
    dice: int, sides: int, keep: int, highest: bool = True
) -> dict[int, Fraction]:
    """Exact odds of the sum of the ``keep`` highest (or lowest) of ``dice`` dice."""
    _check_dice_count(dice, minimum=1)
    _check_sides(sides)
    if not 1 <= keep <= dice:
        raise ValueError(f"can keep 1..{dice} of {dice} dice, not {keep}")
    outcomes = sides**dice
    return {total: Fraction(n, outcomes) for total, n in _keep_counts(dice, sides, keep, highest)}


def two_d6_distribution(net_advantage: int = 0) -> dict[int, Fraction]:
    """Exact odds of a Mneme check roll: 2d6, or (2+N)d6 keeping the two best/worst.

    Net advantage N > 0 keeps the two highest of 2+N dice; N < 0 keeps the two lowest
    of 2+|N| dice.
    """
    extra = abs(net_advantage)
    if extra > MAX_DICE - 2:
        raise ValueError(f"net advantage must be within ±{MAX_DICE - 2}, got {net_advantage}")
    return keep_distribution(2 + extra, 6, 2, highest=net_advantage >= 0)


def distribution_mean(distribution: Mapping[int, Fraction]) -> Fraction:
    """Expected value of an exact distribution."""
    return sum((Fraction(value) * chance for value, chance in distribution.items()), Fraction(0))


def clamp_roll(value: int, minimum: int = 0) -> int:
    """A rolled total floored at ``minimum``: damage after armor is never negative."""
    return max(minimum, value)


def clamp_distribution(
    distribution: Mapping[int, Fraction], minimum: int = 0
) -> dict[int, Fraction]:
    """A distribution with every outcome below ``minimum`` gathered onto ``minimum``."""
    result: dict[int, Fraction] = {}
    for value, chance in distribution.items():
        key = max(minimum, value)
        result[key] = result.get(key, Fraction(0)) + chance
    return dict(sorted(result.items()))


def roll_keep(
    rng: random.Random, dice: int, sides: int, keep: int, highest: bool = True
) -> KeptRoll:
    """Roll ``dice`` dice and keep the ``keep`` highest (or lowest), reporting every die."""
    _check_dice_count(dice, minimum=1)
    _check_sides(sides)
    if not 1 <= keep <= dice:
        raise ValueError(f"can keep 1..{dice} of {dice} dice, not {keep}")
    rolled = tuple(rng.randint(1, sides) for _ in range(dice))
    ordered = sorted(rolled, reverse=highest)
    kept = tuple(ordered[:keep])
    return KeptRoll(dice=rolled, kept=kept, total=sum(kept))


def roll_two_d6(rng: random.Random, net_advantage: int = 0) -> KeptRoll:
    """Roll a check's dice: 2d6, with |N| extra dice for net advantage/disadvantage N."""
    extra = abs(net_advantage)
    if extra > MAX_DICE - 2:
        raise ValueError(f"net advantage must be within ±{MAX_DICE - 2}, got {net_advantage}")
    return roll_keep(rng, 2 + extra, 6, 2, highest=net_advantage >= 0)


@dataclass(frozen=True)
class DiceExpression:
    """``count``d``sides`` + ``modifier``, all multiplied by the scale.

    ``count == 0`` is a flat number (``sides`` must then be 0). Totals can be negative
    (``1d3-2`` rolls -1): :meth:`roll` reports the raw scaled total and callers that deal
    damage floor it with :func:`clamp_roll`, so the armor arithmetic stays visible.
    """

    count: int
    sides: int
    modifier: int = 0
    scale: Scale = Scale.NONE

    def __post_init__(self) -> None:
        if self.count == 0:
            if self.sides != 0:
                raise ValueError("a flat number (0 dice) must have 0 sides")
        else:
            _check_dice_count(self.count, minimum=1)
            _check_sides(self.sides, minimum=_MIN_SIDES)
        if not isinstance(self.scale, Scale):
            raise TypeError(f"scale must be a Scale, got {self.scale!r}")

    @classmethod
    def flat(cls, value: int, scale: Scale = Scale.NONE) -> DiceExpression:
        """A fixed amount written without dice, e.g. ``4``."""
        return cls(0, 0, value, scale)

    @property
    def is_flat(self) -> bool:
        return self.count == 0

    @property
    def minimum(self) -> int:
        return (self.count + self.modifier) * self.scale.multiplier

    @property
    def maximum(self) -> int:
        return (self.count * self.sides + self.modifier) * self.scale.multiplier

    @property
    def mean(self) -> Fraction:
        unscaled = Fraction(self.count * (self.sides + 1), 2) + self.modifier
        return unscaled * self.scale.multiplier

    def distribution(self) -> dict[int, Fraction]:
        """Exact odds of every scaled total."""
        multiplier = self.scale.multiplier
        if self.count == 0:
            return {self.modifier * multiplier: Fraction(1)}
        return {
            (total + self.modifier) * multiplier: chance
            for total, chance in sum_distribution(self.count, self.sides).items()
        }

    def roll_detailed(self, rng: random.Random) -> DiceRoll:
        """Roll and keep each die so the result can be shown at the table."""
        dice = tuple(rng.randint(1, self.sides) for _ in range(self.count))
        multiplier = self.scale.multiplier
        total = (sum(dice) + self.modifier) * multiplier
        return DiceRoll(dice=dice, modifier=self.modifier, multiplier=multiplier, total=total)

    def roll(self, rng: random.Random) -> int:
        """The raw scaled total (may be below 0; see :func:`clamp_roll`)."""
        return self.roll_detailed(rng).total

    def with_modifier(self, delta: int) -> DiceExpression:
        """The same dice with ``delta`` added before scaling: 3d3-2 with -3 armor is 3d3-5."""
        return DiceExpression(self.count, self.sides, self.modifier + delta, self.scale)

    def with_scale(self, scale: Scale) -> DiceExpression:
        return DiceExpression(self.count, self.sides, self.modifier, scale)

    def __str__(self) -> str:
        prefix = f"{self.scale.prefix} " if self.scale is not Scale.NONE else ""
        if self.count == 0:
            return f"{prefix}{self.modifier}"
        body = f"{self.count}d{self.sides}"
        if self.modifier:
            body += f"{self.modifier:+d}"
        return prefix + body


_MINUS_SIGNS = frozenset("-−–")  # hyphen, U+2212 minus sign, U+2013 en dash
_PLUS_SIGNS = frozenset("+")


class _Scanner:
    """Reads a dice expression left to right, reporting 1-based positions in errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, reason: str, pos: int | None = None) -> DiceParseError:
        return DiceParseError(reason, self.text, (self.pos if pos is None else pos) + 1)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def describe_here(self) -> str:
        char = self.peek()
        return f"{char!r}" if char else "end of text"

    def number(self, what: str) -> int:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if start == self.pos:
            raise self.fail(f"expected {what}, found {self.describe_here()}")
        return int(self.text[start : self.pos])

    def scale(self) -> Scale:
        """A scale letter followed by a space. Upper-case D with no space is a die (D6 = 1d6)."""
        char = self.peek()
        following = self.text[self.pos + 1 : self.pos + 2]
        if char in "HhKk" or (char == "D" and following.isspace()):
            self.pos += 1
            return Scale.from_prefix(char)
        return Scale.NONE


def parse_dice(text: str) -> DiceExpression:
    """Read a dice expression such as ``3d6``, ``d6``, ``3d3-2``, ``H 2d6-2`` or ``4``.

    Whitespace is allowed between parts, ``D``/``d`` both mark the dice, ``−`` is a minus
    sign, and chained modifiers are summed (``3d3-2-3`` is ``3d3-5``). A scale prefix is
    ``D``, ``H`` or ``K``; a Deka ``D`` must be followed by a space so ``D6`` stays 1d6.
    """
    scan = _Scanner(text)
    scan.skip_space()
    if not scan.peek():
        raise scan.fail("empty dice expression")
    scale = scan.scale()
    scan.skip_space()
    first_pos = scan.pos
    negative_flat = False
    if scan.peek() in _MINUS_SIGNS or scan.peek() in _PLUS_SIGNS:
        negative_flat = scan.peek() in _MINUS_SIGNS
        sign_pos = scan.pos
        scan.pos += 1
        scan.skip_space()
        value = scan.number("a number after the sign")
        scan.skip_space()
        if scan.peek() in ("d", "D"):
            raise scan.fail("a signed number cannot be a number of dice", sign_pos)
        count, sides, modifier = 0, 0, -value if negative_flat else value
    else:
        count_pos = scan.pos
        count = 1 if scan.peek() in ("d", "D") else scan.number("a number of dice or 'd'")
        scan.skip_space()
        if scan.peek() in ("d", "D"):
            die_pos = scan.pos
            scan.pos += 1
            scan.skip_space()
            sides_pos = scan.pos
            if not scan.peek().isdigit():
                letter = scan.text[die_pos]
                raise scan.fail(
                    f"expected a number of sides after '{letter}', found {scan.describe_here()}"
                )
            sides = scan.number("a number of sides")
            if count == 0:
                raise scan.fail("need at least 1 die", count_pos)
            if count > MAX_DICE:
                raise scan.fail(f"at most {MAX_DICE} dice allowed, got {count}", count_pos)
            if not _MIN_SIDES <= sides <= MAX_SIDES:
                raise scan.fail(
                    f"a die must have {_MIN_SIDES}..{MAX_SIDES} sides, got {sides}", sides_pos
                )
            modifier = 0
        else:
            count, sides, modifier = 0, 0, count
    if abs(modifier) > MAX_MODIFIER:
        raise scan.fail(f"number is larger than {MAX_MODIFIER}", first_pos)
    scan.skip_space()
    while scan.peek():
        sign_char = scan.peek()
        if sign_char not in _MINUS_SIGNS and sign_char not in _PLUS_SIGNS:
            hint = ""
            if sign_char in "dD" and text.lstrip().startswith("D"):
                hint = " (write a Deka prefix with a space, as in 'D 3d3')"
            raise scan.fail(f"expected '+' or '-', found {scan.describe_here()}{hint}")
        scan.pos += 1
        scan.skip_space()
        amount_pos = scan.pos
        amount = scan.number(f"a number after '{sign_char}'")
        if scan.peek() in ("d", "D"):
            raise scan.fail("only one group of dice is allowed", amount_pos)
        modifier += -amount if sign_char in _MINUS_SIGNS else amount
        if abs(modifier) > MAX_MODIFIER:
            raise scan.fail(f"modifier is larger than {MAX_MODIFIER}", amount_pos)
        scan.skip_space()
    return DiceExpression(count, sides, modifier, scale)


def parse_dice_values(text: str, count: int | None = None) -> tuple[int, ...]:
    """Dice typed from the table: "4 5", "4,5", "4+5" or "45" (each die 1-6).

    ``count`` is how many dice are expected; a run of digits with no separators is read as
    one die per digit only when that matches ``count``.
    """
    cleaned = text.strip()
    if not cleaned:
        raise ValueError("type the dice rolled, e.g. 4 5")
    parts = [p for p in re.split(r"[\s,;+/]+", cleaned) if p]
    if len(parts) == 1 and count is not None and count > 1 and len(parts[0]) == count:
        parts = list(parts[0])
    values: list[int] = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise ValueError(f"{part!r} is not a die: each die is a whole number 1 to 6")
        values.append(int(part))
    if count is not None and len(values) != count:
        raise ValueError(f"expected {count} dice, got {len(values)}: {cleaned!r}")
    return tuple(values)


def parse_roll_groups(text: str) -> list[list[int]]:
    """Damage-roll totals typed from the table: rolls separated by commas or spaces, one
    group per target separated by semicolons ("7, 9; 5")."""
    groups: list[list[int]] = []
    for chunk in text.split(";"):
        values = [p for p in re.split(r"[\s,]+", chunk.strip()) if p]
        group: list[int] = []
        for value in values:
            if not re.fullmatch(r"-?\d+", value):
                raise ValueError(f"{value!r} is not a damage roll total (a whole number)")
            group.append(int(value))
        groups.append(group)
    if all(not group for group in groups):
        raise ValueError("type the damage roll totals, e.g. 7, 9")
    return groups


@dataclass(frozen=True)
class DiceSource:
    """Where a check's dice come from: typed at the table, or rolled by the app.

    One type for every step that rolls, so "typed or rolled" is decided once (by the view
    that reads the referee's text) and every rule resolves both the same way. Exactly one
    of ``typed`` (the dice values as read) and ``rng`` is set.
    """

    typed: tuple[int, ...] | None = None
    rng: random.Random | None = None

    def __post_init__(self) -> None:
        if (self.typed is None) == (self.rng is None):
            raise ValueError("a dice source is either dice typed at the table or an rng")

    @classmethod
    def table(cls, values: tuple[int, ...] | list[int]) -> DiceSource:
        """Dice rolled at the table and typed in."""
        return cls(typed=tuple(values))

    @classmethod
    def app(cls, rng: random.Random) -> DiceSource:
        """Dice the app rolls with ``rng`` (seed it for repeatable rolls)."""
        return cls(rng=rng)

    @property
    def at_table(self) -> bool:
        return self.typed is not None

    @property
    def how(self) -> str:
        """How the roll was made, for the log."""
        return "dice at the table" if self.at_table else "rolled"


def parse_dice_source(text: str, rng: random.Random | None, count: int = 2) -> DiceSource:
    """The referee's dice box read once: empty means the app rolls with ``rng``; otherwise
    the ``count`` dice typed (errors as :func:`parse_dice_values` words them). With no
    ``rng`` (a "use the table's dice" button) empty text is refused as today."""
    if not text.strip() and rng is not None:
        return DiceSource.app(rng)
    return DiceSource.table(parse_dice_values(text, count))
