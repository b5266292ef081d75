"""The Defend action (Ch.6): one defense modifier doubled, and the Defend roll's DM."""

from __future__ import annotations

from enum import Enum

from mneme_desktop.rules.checks import UNSKILLED

__all__ = [
    "DefenseKind",
    "defend_modifier",
    "defend_roll_modifier",
]


class DefenseKind(Enum):
    """The one defense modifier a Defend action doubles."""

    COVER = "cover"
    CONCEALMENT = "concealment"
    SKILL = "skill"


_CONDITION_CAP = 4


def defend_modifier(value: int, kind: DefenseKind) -> int:
    """The doubled defense modifier. Cover and concealment never exceed 4, doubled or not."""
    if value < 0:
        raise ValueError(f"a defense modifier cannot be negative, got {value}")
    doubled = value * 2
    if kind is DefenseKind.SKILL:
        return doubled
    return min(doubled, _CONDITION_CAP)


def defend_roll_modifier(skill: int | None, chm: int, skill_doubled: bool = True) -> int:
    """The DM of a Defend roll: skill (doubled when Skill is the modifier chosen) + ChM.

    Ch.6's example: "Skill 1 and ChM 0 rolls on a 1 DM" is the ordinary, undoubled roll;
    "Skill 2 rolls at a 4 DM" is that skill doubled. ``None`` is unskilled (-3, which
    there is no skill to double).
    """
    if skill is None:
        return UNSKILLED + chm
    return skill * (2 if skill_doubled else 1) + chm
