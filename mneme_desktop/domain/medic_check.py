"""A character's DM on a Medic check, the one number the encounter and the Healing view share.

The rules core sums the terms (:func:`mneme_desktop.rules.healing.medic_check_modifier`);
this module reads them off a character sheet. The book names no characteristic for the
Medic skill: the project reads it as EDU (see docs/rules.md), kept here as one constant.
"""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain.character import Character, Characteristic
from mneme_desktop.domain.roll_terms import wound_modifier
from mneme_desktop.rules.checks import UNSKILLED
from mneme_desktop.rules.healing import medic_check_modifier

__all__ = ["MEDIC_CHARACTERISTIC", "MEDIC_SKILL", "MedicModifier", "medic_modifier"]

MEDIC_SKILL = "Medic"
MEDIC_CHARACTERISTIC = Characteristic.EDU
"""The characteristic whose ChM a Medic check adds (a reading: the chapters name none)."""


@dataclass(frozen=True)
class MedicModifier:
    """The terms of a medic's DM, so a view can say where the number comes from.

    ``level`` None is unskilled (-3). ``total`` is the rules core's sum.
    """

    name: str
    level: int | None
    characteristic: Characteristic
    characteristic_dm: int
    wound_penalty: int

    @property
    def total(self) -> int:
        return medic_check_modifier(self.level, self.characteristic_dm, self.wound_penalty)

    def with_level(self, level: int | None) -> MedicModifier:
        """The same medic rolling at another Medic level (the referee overrode the skill)."""
        return MedicModifier(self.name, level, self.characteristic, self.characteristic_dm,
                             self.wound_penalty)

    @property
    def terms(self) -> str:
        """"Medic 2 +2, EDU +1, wounds -1"."""
        skill = (f"unskilled {UNSKILLED:+d}" if self.level is None
                 else f"Medic {self.level} {self.level:+d}")
        return (f"{skill}, {self.characteristic.value.upper()} {self.characteristic_dm:+d}, "
                f"wounds {self.wound_penalty:+d}")


def medic_modifier(character: Character) -> MedicModifier:
    """``character``'s DM on a Medic check: Medic level, EDU ChM and their wound penalty."""
    return MedicModifier(
        name=character.name,
        level=character.skill_level(MEDIC_SKILL),
        characteristic=MEDIC_CHARACTERISTIC,
        characteristic_dm=character.characteristic_modifier(MEDIC_CHARACTERISTIC),
        wound_penalty=wound_modifier(character),
    )
