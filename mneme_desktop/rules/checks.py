"""Checks (Ch.3): 2d6 + modifiers against a Difficulty, and what the Effect means.

A check succeeds when the total meets the Difficulty; Effect = total - Difficulty. Its
sign says success or failure and its size drives damage rolls, time and harm. The odds
here are exact so the referee can show a player their true chance before they commit.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from typing import NamedTuple

from mneme_desktop.rules.dice import DiceSource, roll_two_d6, two_d6_distribution

__all__ = [
    "COSTLY_SUCCESS_BASE",
    "DEFAULT_DIFFICULTY",
    "MAX_SUPERIORITY",
    "OUTNUMBERED_KINDS",
    "RECKLESS_EFFECT_PENALTY",
    "RECKLESS_ROLL_BONUS",
    "RECON",
    "STEALTH",
    "UNSKILLED",
    "CheckResult",
    "CoverLevel",
    "Difficulty",
    "DifficultyBreakdown",
    "DifficultyTerm",
    "RecklessOutcome",
    "SuperiorityBalance",
    "SuperiorityKind",
    "SuperioritySituations",
    "TermKind",
    "TimeModifier",
    "attack_difficulty",
    "characteristic_modifier",
    "check_from",
    "check_from_dice",
    "costly_success",
    "difficulty_label",
    "effect",
    "effect_distribution",
    "from_pseudo_hex",
    "net_advantage",
    "opposed_stealth_difficulty",
    "opposing_skill",
    "pseudo_hex",
    "reckless",
    "reckless_effect",
    "resolve_time",
    "roll_check",
    "success_chance",
    "superiority_modifier",
    "time_modifier_source",
    "time_multiplier",
    "upp",
]

UNSKILLED = -3
"""DM for a check made without the skill (Skill-0 is a skill and rolls at +0)."""

DEFAULT_DIFFICULTY = 8
"""Average/Challenging: the Difficulty when the referee sets nothing else."""

RECKLESS_ROLL_BONUS = 2
RECKLESS_EFFECT_PENALTY = 3
COSTLY_SUCCESS_BASE = 3
"""Costly Success Fail Effect = Fail Effect x 2 + 3."""


# --- characteristics -------------------------------------------------------------------


def characteristic_modifier(value: int) -> int:
    """ChM = floor(value / 3) - 2: 0-2 = -2, 6-8 = +0, 9-11 = +1, 15-17 = +3.

    Floor division keeps the pattern below zero (a drained -1 gives -3).
    """
    return value // 3 - 2


# Traveller-style extended hex: 0-9, then letters with I and O left out because they read
# as 1 and 0 on a character sheet.
_PSEUDO_HEX_DIGITS = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def pseudo_hex(value: int) -> str:
    """One characteristic as a UPP digit: 0-9, A = 10 ... H = 17, J = 18 (no I or O)."""
    if not 0 <= value < len(_PSEUDO_HEX_DIGITS):
        raise ValueError(f"a UPP digit covers 0..{len(_PSEUDO_HEX_DIGITS) - 1}, got {value}")
    return _PSEUDO_HEX_DIGITS[value]


def from_pseudo_hex(digit: str) -> int:
    """The value of one UPP digit (case-insensitive); I and O are rejected, not guessed."""
    upper = digit.strip().upper()
    if len(upper) != 1 or upper not in _PSEUDO_HEX_DIGITS:
        raise ValueError(f"{digit!r} is not a UPP digit (0-9, A-Z without I and O)")
    return _PSEUDO_HEX_DIGITS.index(upper)


def upp(values: Sequence[int]) -> str:
    """A characteristic line (STR DEX END INT EDU SOC [PSI]) in pseudo-hex, e.g. 789A87."""
    return "".join(pseudo_hex(value) for value in values)


# --- difficulty ------------------------------------------------------------------------


class Difficulty(IntEnum):
    """The Ch.3 Difficulty ladder."""

    EASY = 4
    ROUTINE = 6
    AVERAGE = 8
    DIFFICULT = 10
    VERY_DIFFICULT = 12
    FORMIDABLE = 14

    @property
    def label(self) -> str:
        return _DIFFICULTY_LABELS[self]

    @property
    def modifier(self) -> int:
        """The table's "Difficulty Modifier": what this Difficulty is worth against Average."""
        return DEFAULT_DIFFICULTY - self.value


_DIFFICULTY_LABELS = {
    Difficulty.EASY: "Easy",
    Difficulty.ROUTINE: "Routine",
    Difficulty.AVERAGE: "Average",
    Difficulty.DIFFICULT: "Difficult",
    Difficulty.VERY_DIFFICULT: "Very Difficult",
    Difficulty.FORMIDABLE: "Formidable",
}


def difficulty_label(value: int) -> str:
    """Name a Difficulty; off-ladder values read from the rung below ("Average +1")."""
    ladder = list(Difficulty)
    for rung in ladder:
        if value == rung.value:
            return rung.label
    below = [rung for rung in ladder if rung.value < value]
    rung = below[-1] if below else ladder[0]
    return f"{rung.label} {value - rung.value:+d}"


# --- advantage and odds ----------------------------------------------------------------


def net_advantage(advantages: int, disadvantages: int) -> int:
    """Advantages and disadvantages cancel one for one; positive means net advantage."""
    if advantages < 0 or disadvantages < 0:
        raise ValueError("advantages and disadvantages are counts and cannot be negative")
    return advantages - disadvantages


def effect(roll_total: int, difficulty: int) -> int:
    """Effect = roll (with all modifiers) - Difficulty; 0 or more is a success."""
    return roll_total - difficulty


def success_chance(modifier: int, difficulty: int, advantage: int = 0) -> Fraction:
    """Exact chance that 2d6 (with net advantage) + ``modifier`` meets ``difficulty``."""
    return sum(
        (
            chance
            for total, chance in two_d6_distribution(advantage).items()
            if total + modifier >= difficulty
        ),
        Fraction(0),
    )


def effect_distribution(modifier: int, difficulty: int, advantage: int = 0) -> dict[int, Fraction]:
    """Exact odds of every signed Effect of a check."""
    return {
        total + modifier - difficulty: chance
        for total, chance in two_d6_distribution(advantage).items()
    }


@dataclass(frozen=True)
class CheckResult:
    """One resolved check, keeping every die so the table can see what happened."""

    dice: tuple[int, ...]
    kept: tuple[int, ...]
    modifier: int
    difficulty: int
    advantage: int = 0

    @property
    def total(self) -> int:
        return sum(self.kept) + self.modifier

    @property
    def effect(self) -> int:
        return self.total - self.difficulty

    @property
    def success(self) -> bool:
        return self.effect >= 0

    @property
    def success_effect(self) -> int:
        """Degree of success (0 on a bare success or a failure)."""
        return max(0, self.effect)

    @property
    def fail_effect(self) -> int:
        """Degree of failure, Difficulty - roll, as a positive number (0 on a success)."""
        return max(0, -self.effect)


def roll_check(
    rng: random.Random, modifier: int, difficulty: int, advantage: int = 0
) -> CheckResult:
    """Roll a check: 2d6 (+|advantage| dice, keep two best or worst) + modifier."""
    rolled = roll_two_d6(rng, advantage)
    return CheckResult(rolled.dice, rolled.kept, modifier, difficulty, advantage)


def check_from_dice(
    dice_values: Sequence[int], modifier: int, difficulty: int, advantage: int = 0
) -> CheckResult:
    """Resolve dice rolled at the table: 2 dice, or 2 + |advantage| with advantage."""
    values = tuple(dice_values)
    expected = 2 + abs(advantage)
    if len(values) != expected:
        raise ValueError(
            f"expected {expected} dice for net advantage {advantage}, got {len(values)}"
        )
    for index, value in enumerate(values, start=1):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise ValueError(f"die {index} must be a whole number 1..6, got {value!r}")
    ordered = sorted(values, reverse=advantage >= 0)
    return CheckResult(values, tuple(ordered[:2]), modifier, difficulty, advantage)


# --- superiority -----------------------------------------------------------------------


class SuperiorityKind(Enum):
    """Ch.3 superiority situations, each with the range of modifier the table allows."""

    FIREPOWER = "firepower"
    POSITION = "position"
    OUTNUMBERED_MINOR = "outnumbered_minor"
    OUTNUMBERED_SIGNIFICANT = "outnumbered_significant"
    OUTNUMBERED_OVERWHELMING = "outnumbered_overwhelming"

    @property
    def label(self) -> str:
        return _SUPERIORITY_TABLE[self][0]

    @property
    def minimum(self) -> int:
        return _SUPERIORITY_TABLE[self][1]

    @property
    def maximum(self) -> int:
        return _SUPERIORITY_TABLE[self][2]


_SUPERIORITY_TABLE = {
    SuperiorityKind.FIREPOWER: ("Superior Firepower", 1, 3),
    SuperiorityKind.POSITION: ("Superior Position/Action", 1, 2),
    SuperiorityKind.OUTNUMBERED_MINOR: ("Outnumbered (minor)", 1, 1),
    SuperiorityKind.OUTNUMBERED_SIGNIFICANT: ("Outnumbered (significant)", 2, 2),
    SuperiorityKind.OUTNUMBERED_OVERWHELMING: ("Outnumbered (overwhelming)", 3, 3),
}


def superiority_modifier(kind: SuperiorityKind, value: int | None = None) -> int:
    """Validate a superiority modifier against its table range; fixed rows need no value."""
    if value is None:
        if kind.minimum != kind.maximum:
            raise ValueError(
                f"{kind.label} ranges +{kind.minimum} to +{kind.maximum}: choose a value"
            )
        return kind.minimum
    if not kind.minimum <= value <= kind.maximum:
        raise ValueError(f"{kind.label} must be +{kind.minimum} to +{kind.maximum}, got {value:+d}")
    return value


OUTNUMBERED_KINDS = (
    SuperiorityKind.OUTNUMBERED_MINOR,
    SuperiorityKind.OUTNUMBERED_SIGNIFICANT,
    SuperiorityKind.OUTNUMBERED_OVERWHELMING,
)
"""The three outnumbered rows: a party outnumbers the other one way only, so at most one."""
MAX_SUPERIORITY = (SuperiorityKind.FIREPOWER.maximum + SuperiorityKind.POSITION.maximum
                   + max(kind.maximum for kind in OUTNUMBERED_KINDS))
"""The largest sum one party's situations reach (+3 +2 +3 = 8)."""


@dataclass(frozen=True)
class SuperioritySituations:
    """One party's superiority as the Ch.3 table names it: superior firepower (+1 to +3),
    superior position/action (+1 to +2) and how far it outnumbers the other party (one of
    the outnumbered rows, +1/+2/+3). Its modifier is the sum of the rows it has."""

    firepower: int = 0
    position: int = 0
    outnumbers: SuperiorityKind | None = None

    def __post_init__(self) -> None:
        if self.firepower:
            superiority_modifier(SuperiorityKind.FIREPOWER, self.firepower)
        if self.position:
            superiority_modifier(SuperiorityKind.POSITION, self.position)
        if self.outnumbers is not None and self.outnumbers not in OUTNUMBERED_KINDS:
            raise ValueError(f"{self.outnumbers.label} is not an outnumbered row")

    def situations(self) -> tuple[tuple[SuperiorityKind, int], ...]:
        """The table's rows this party has, each with its modifier."""
        rows: list[tuple[SuperiorityKind, int]] = []
        if self.firepower:
            rows.append((SuperiorityKind.FIREPOWER, self.firepower))
        if self.position:
            rows.append((SuperiorityKind.POSITION, self.position))
        if self.outnumbers is not None:
            rows.append((self.outnumbers, superiority_modifier(self.outnumbers)))
        return tuple(rows)

    @property
    def total(self) -> int:
        return sum(value for _kind, value in self.situations())

    def describe(self) -> str:
        """"Superior Firepower +2, Outnumbered (minor) +1" (empty: no superiority)."""
        return ", ".join(f"{kind.label} +{value}" for kind, value in self.situations())


@dataclass(frozen=True)
class SuperiorityBalance:
    """Both parties' situations. The modifier of the roll is ours minus theirs: the table
    gives its modifier to the superior party, so the other's superiority counts against."""

    ours: SuperioritySituations = SuperioritySituations()
    theirs: SuperioritySituations = SuperioritySituations()

    @property
    def modifier(self) -> int:
        return self.ours.total - self.theirs.total

    def describe(self) -> str:
        """"ours: Superior Firepower +2; theirs: Outnumbered (minor) +1" (empty: none)."""
        parts = [f"{side}: {text}" for side, text in
                 (("ours", self.ours.describe()), ("theirs", self.theirs.describe())) if text]
        return "; ".join(parts)


# --- reckless action and costly success ------------------------------------------------


def reckless(roll_modifier: int) -> int:
    """A Reckless Action rolls at +2 DM."""
    return roll_modifier + RECKLESS_ROLL_BONUS


class RecklessOutcome(NamedTuple):
    """A Reckless Action after its -3 Effect penalty.

    ``success`` is whether the roll met the Difficulty: the book resolves that success
    first ("after resolving success"). ``effect`` is the signed Effect after -3; when it
    is negative the failure's harm (``fail_effect``) is resolved as well.
    """

    success: bool
    effect: int

    @property
    def success_effect(self) -> int:
        return max(0, self.effect)

    @property
    def fail_effect(self) -> int:
        return max(0, -self.effect)

    @property
    def harmed(self) -> bool:
        """True when a failure outcome must be resolved (even after a success)."""
        return self.effect < 0


def reckless_effect(effect: int) -> RecklessOutcome:
    """Apply the Reckless -3 to a signed Effect (rolled with the +2 already included).

    A success keeps its success but its Effect drops by 3 (a negative result is then
    resolved as a fail effect of that degree); a failure's fail effect worsens by 3.
    """
    return RecklessOutcome(success=effect >= 0, effect=effect - RECKLESS_EFFECT_PENALTY)


def costly_success(fail_effect: int) -> int:
    """The Fail Effect paid for a Costly Success: fail effect x 2 + 3 (fail by 2 costs 7).

    ``fail_effect`` is the positive degree of failure (Difficulty - roll); the check's
    Success Effect becomes 0.
    """
    if fail_effect <= 0:
        raise ValueError(
            f"a costly success needs a failure: give the fail effect as a positive degree "
            f"(failing by 2 is 2), got {fail_effect}"
        )
    return fail_effect * 2 + COSTLY_SUCCESS_BASE


# --- time resolution -------------------------------------------------------------------


class TimeModifier(NamedTuple):
    """Multiplier on the median time; ``interpolated`` marks values not printed in Ch.3."""

    multiplier: Fraction
    interpolated: bool


_TIME_TABLE = {
    2: Fraction(1, 4),
    1: Fraction(1, 2),
    0: Fraction(1),
    -1: Fraction(3, 2),
    -3: Fraction(2),
}
_TIME_INTERPOLATED_MINUS_2 = Fraction(7, 4)
_TIME_STEP_BEYOND_MINUS_3 = Fraction(1, 4)


def time_multiplier(effect: int) -> TimeModifier:
    """Ch.3 time resolution: how much of the median time a task takes at this Effect.

    Printed rows: +2 = 25%, +1 = 50%, 0 = 100%, -1 = 150%, -3 = 200%. Project decisions
    (marked interpolated): -2 = 175%; past -3 each point adds 25% (the slope of the
    fail rows); past +2 the time stays at 25%.
    """
    if effect in _TIME_TABLE:
        return TimeModifier(_TIME_TABLE[effect], False)
    if effect > 2:
        return TimeModifier(_TIME_TABLE[2], True)
    if effect == -2:
        return TimeModifier(_TIME_INTERPOLATED_MINUS_2, True)
    return TimeModifier(_TIME_TABLE[-3] + (-3 - effect) * _TIME_STEP_BEYOND_MINUS_3, True)


def time_modifier_source(effect: int) -> str:
    """Which rule produced :func:`time_multiplier` for this Effect, for display."""
    percent = time_multiplier(effect).multiplier * 100
    shown = f"{float(percent):g}%"
    if effect in _TIME_TABLE:
        kind = "Success" if effect >= 0 else "Fail"
        return f"Ch.3 time table, {kind} {effect:+d}: {shown} of median time"
    if effect > 2:
        return f"beyond the Ch.3 table: held at the Success +2 row ({shown})"
    if effect == -2:
        return f"interpolated between Fail -1 (150%) and Fail -3 (200%): {shown}"
    return f"extrapolated 25% per point beyond Fail -3: {shown} of median time"


def resolve_time(median: int | Fraction, effect: int) -> Fraction:
    """The time a task takes at this Effect, in the same unit as ``median``."""
    if median < 0:
        raise ValueError(f"median time cannot be negative, got {median}")
    return Fraction(median) * time_multiplier(effect).multiplier


# --- attack difficulty -----------------------------------------------------------------


class CoverLevel(IntEnum):
    """Partially / mostly / fully covered or concealed: +1 / +2 / +4 Difficulty."""

    NONE = 0
    PARTIAL = 1
    MOSTLY = 2
    FULL = 4

    @property
    def label(self) -> str:
        return _COVER_LABELS[self]


_COVER_LABELS = {
    CoverLevel.NONE: "none",
    CoverLevel.PARTIAL: "partial",
    CoverLevel.MOSTLY: "mostly",
    CoverLevel.FULL: "full",
}


class TermKind(Enum):
    """What a Difficulty term is, so Fail Effect mitigation can take them in Ch.7 order."""

    BASE = "base"
    CONDITION = "condition"
    COVER = "cover"
    SUPERIORITY = "superiority"
    AIM = "aim"
    TARGETED = "targeted"
    OTHER = "other"


class DifficultyTerm(NamedTuple):
    """One line of a Difficulty: what it is, what it adds, and which rule says so."""

    label: str
    value: int
    rule: str
    kind: TermKind = TermKind.OTHER


@dataclass(frozen=True)
class DifficultyBreakdown:
    """A Difficulty built from named terms, each shown separately at the table."""

    terms: tuple[DifficultyTerm, ...]

    @property
    def total(self) -> int:
        return sum(term.value for term in self.terms)

    def total_of(self, kind: TermKind) -> int:
        """Sum of the terms of one kind (e.g. COVER, which absorbs Fail Effect)."""
        return sum(term.value for term in self.terms if term.kind is kind)

    @property
    def label(self) -> str:
        return difficulty_label(self.total)


def attack_difficulty(
    base: int = DEFAULT_DIFFICULTY,
    cover: CoverLevel = CoverLevel.NONE,
    concealment: CoverLevel = CoverLevel.NONE,
    close_quarters: bool = False,
    range_mod: int = 0,
    superiority: int = 0,
    aim: int = 0,
    targeted: int = 0,
    other: Iterable[DifficultyTerm] = (),
) -> DifficultyBreakdown:
    """Build an attack's Difficulty term by term (Ch.6 "Difficulty Factors").

    Ch.6 lists aim and superiority among the attack's Difficulty factors, so they appear
    here as terms that *lower* the Difficulty: ``aim`` (the attacker's aim bonus) and a
    positive ``superiority`` (the attacker's) subtract; a negative ``superiority`` (the
    target side is superior) adds. The Effect is the same as adding them to the roll.
    ``close_quarters`` means a ranged attack made in close quarters (+2). Zero terms
    other than the base are left out.
    """
    if aim < 0:
        raise ValueError(f"aim bonus cannot be negative, got {aim}")
    if targeted < 0:
        raise ValueError(f"a targeted attack cannot lower the Difficulty, got {targeted}")
    terms = [DifficultyTerm("Base difficulty", base, "Ch.6 attack basics", TermKind.BASE)]
    candidates = [
        DifficultyTerm(
            f"Cover ({cover.label})", int(cover), "Ch.3 conditions: cover", TermKind.COVER
        ),
        DifficultyTerm(
            f"Concealment ({concealment.label})",
            int(concealment),
            "Ch.3 conditions: concealment",
            TermKind.CONDITION,
        ),
        DifficultyTerm(
            "Ranged attack in close quarters",
            2 if close_quarters else 0,
            "Ch.3 conditions: ranged attack in close quarters",
            TermKind.CONDITION,
        ),
        DifficultyTerm(
            "Range, size and movement", range_mod, "Ch.6 ranged attack", TermKind.CONDITION
        ),
        DifficultyTerm(
            "Superiority (attacker)" if superiority > 0 else "Superiority (target side)",
            -superiority,
            "Ch.3 superiority modifier",
            TermKind.SUPERIORITY,
        ),
        DifficultyTerm("Aim", -aim, "Ch.6 aim: +1 per minor action, max +6", TermKind.AIM),
        DifficultyTerm(
            "Targeted attack", targeted, "Ch.6 targeted attack location", TermKind.TARGETED
        ),
        *other,
    ]
    terms.extend(term for term in candidates if term.value != 0)
    return DifficultyBreakdown(tuple(terms))


# --- stealth against recon ---------------------------------------------------------------

STEALTH = "Stealth"
RECON = "Recon"
_OPPOSING_SKILLS = {STEALTH.lower(): RECON, RECON.lower(): STEALTH}
_STEALTH_RULE = ("Ch.6 Deliberate Stealth and Scan/Search: "
                 "Difficulty 8 + the opponent's skill + ChM + conditions")


def opposing_skill(skill: str | None) -> str | None:
    """The skill that opposes ``skill`` in Ch.6's stealth rules, or None where they say
    nothing: Deliberate Stealth rolls Stealth against the adversary's Recon, Scan/Search rolls
    Recon against the adversary's Stealth. A specialty is ignored ("Recon (Urban)" is Recon);
    case does not matter."""
    name = (skill or "").split("(", 1)[0].strip().lower()
    return _OPPOSING_SKILLS.get(name)


def opposed_stealth_difficulty(
    skill: str,
    skill_level: int | None,
    characteristic: str,
    characteristic_modifier: int,
    conditions: int = 0,
    opponent: str = "Opponent",
    conditions_label: str = "conditions",
) -> DifficultyBreakdown:
    """The Difficulty of Deliberate Stealth or Scan/Search (Ch.6 Actions, Significant Actions).

    "Roll stealth against Difficulty equal 8 + Adversary's Recon + Adversary ChM + Adversary's
    Conditions to detect"; Scan/Search rolls "Recon against Difficulty 8 + Adversary Stealth +
    Adversary ChM + Conditions". ``skill`` is the opponent's opposing skill and
    ``skill_level`` its level, None when the opponent lacks it (unskilled, -3 as in Ch.3).
    ``characteristic`` names the ChM's characteristic (the chapter does not; the caller
    chooses) and ``conditions`` is the opponent's conditions as a DM on their own rolls (a
    wounded opponent's -2 lowers the Difficulty by 2), labelled ``conditions_label`` (the
    caller names what it counted). Terms: base, skill and ChM always (a Skill-0 or a ChM of
    +0 is still shown), conditions when not 0.
    """
    level = UNSKILLED if skill_level is None else skill_level
    skill_label = (f"{opponent}: unskilled ({skill})" if skill_level is None
                   else f"{opponent}: {skill}-{skill_level}")
    terms = [
        DifficultyTerm("Base difficulty", DEFAULT_DIFFICULTY, _STEALTH_RULE, TermKind.BASE),
        DifficultyTerm(skill_label, level,
                       "Ch.3 unskilled" if skill_level is None else _STEALTH_RULE),
        DifficultyTerm(f"{opponent}: {characteristic} DM", characteristic_modifier,
                       _STEALTH_RULE),
    ]
    if conditions:
        terms.append(DifficultyTerm(f"{opponent}: {conditions_label}", conditions, _STEALTH_RULE,
                                    TermKind.CONDITION))
    return DifficultyBreakdown(tuple(terms))


def check_from(
    source: DiceSource, modifier: int, difficulty: int, advantage: int = 0
) -> CheckResult:
    """A check from either dice source: typed dice resolve as the table rolled them, an
    app roll rolls here; both keep the two best (or worst) the same way."""
    if source.typed is not None:
        return check_from_dice(source.typed, modifier, difficulty, advantage)
    assert source.rng is not None
    return roll_check(source.rng, modifier, difficulty, advantage)
