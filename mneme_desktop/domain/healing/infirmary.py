"""The infirmary: who cares for the wounded, how much care they need, and whether it is enough.

Patients are the characters whose healing regime says they receive care
(``Character.recovery.care``). Each needs the care level of their wound state, counted in
light-care units (light 1, moderate 2, serious 4, intensive 8), against the medics'
capacity of 8 x 2^Medic level, doubled for the medics a Medic 2+ supervises (Ch.7). The
numbers come from :mod:`mneme_desktop.rules.healing`; this module only adds them up for a
referee and says what would fix an overloaded infirmary.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from mneme_desktop.domain.character import MAX_SKILL_LEVEL, Character, ConditionKind, new_id
from mneme_desktop.rules.healing import (
    MONITORING_NOTE,
    SUPERVISOR_MIN_MEDIC,
    CareLevel,
    InfirmaryCapacity,
    care_level,
    infirmary_capacity,
    intensive_care_needs_roll,
    medic_capacity,
)
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState

__all__ = [
    "SUGGESTED_MAX_MEDIC",
    "Infirmary",
    "InfirmaryReport",
    "Medic",
    "PatientLoad",
    "capacity_fixes",
    "infirmary_report",
    "patient_load",
]

SUGGESTED_MAX_MEDIC = 4
"""Highest Medic level the fixes suggest hiring or appointing; beyond it, suggest more people."""

_MODEL = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)


class Medic(BaseModel):
    """A caregiver: a campaign character (by id) or staff known only by name and level."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    level: int = Field(default=0, ge=0, le=MAX_SKILL_LEVEL, description="Medic skill level")
    character_id: str | None = None

    @property
    def capacity(self) -> int:
        """Light-care patients this medic can care for on their own."""
        return medic_capacity(self.level)


class Infirmary(BaseModel):
    """The campaign's medical staff and facilities.

    ``supervisor`` is a Medic 2+ who doubles the capacity of the medics under them (a lower
    supervisor just adds their own capacity). ``sickbay``: a hospital or sickbay is at hand,
    which surgery requires. ``ai_supervision``: an AI sickbay supervises intensive care, so
    intensive-care patients need no rolls.
    """

    model_config = _MODEL

    medics: list[Medic] = Field(default_factory=list)
    supervisor: Medic | None = None
    sickbay: bool = False
    ai_supervision: bool = False

    @property
    def capacity(self) -> InfirmaryCapacity:
        supervisor = None if self.supervisor is None else self.supervisor.level
        return infirmary_capacity([medic.level for medic in self.medics], supervisor)

    @property
    def supervises_intensive_care(self) -> bool:
        """Intensive care needs no roll under a Medic 2+ supervisor or an AI sickbay."""
        supervisor = None if self.supervisor is None else self.supervisor.level
        return self.ai_supervision or not intensive_care_needs_roll(supervisor)


@dataclass(frozen=True)
class PatientLoad:
    """One patient under care: the care level their wound state needs and its load."""

    character_id: str
    name: str
    state: WoundState
    care: CareLevel
    load: int


def patient_load(
    character: Character, basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS
) -> PatientLoad | None:
    """The care a character receives, or None when they are not a patient (no regime with
    care, unhurt, or dead)."""
    recovery = character.recovery
    if recovery is None or not recovery.care or character.has_condition(ConditionKind.DEAD):
        return None
    level = care_level(character.damage, character.hit_points, character.wound_thresholds(basis))
    if level is None:
        return None
    return PatientLoad(
        character.id, character.name, character.wound_state(basis), level, level.load
    )


@dataclass(frozen=True)
class InfirmaryReport:
    """Load against capacity, and the fixes to offer when the load is too great."""

    patients: tuple[PatientLoad, ...]
    capacity: InfirmaryCapacity
    load: int
    fixes: tuple[str, ...]

    @property
    def over_by(self) -> int:
        return max(0, self.load - self.capacity.total)

    @property
    def over_capacity(self) -> bool:
        return self.over_by > 0

    @property
    def summary(self) -> str:
        return (
            f"Care needed: {self.load} light-care units; capacity {self.capacity.total} "
            f"({len(self.patients)} patient{'s' if len(self.patients) != 1 else ''})"
        )

    @property
    def warning(self) -> str:
        """"" when the medics can cope; otherwise the shortfall in light-care units."""
        if not self.over_capacity:
            return ""
        return (
            f"Over capacity: the patients need {self.load} light-care units, the medics can "
            f"give {self.capacity.total} ({self.over_by} short)."
        )

    @property
    def monitoring_note(self) -> str:
        return MONITORING_NOTE


def infirmary_report(
    infirmary: Infirmary,
    characters: Iterable[Character],
    basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS,
) -> InfirmaryReport:
    """Every patient's care level and load against the infirmary's capacity."""
    patients = tuple(
        load for load in (patient_load(c, basis) for c in characters) if load is not None
    )
    total = sum(patient.load for patient in patients)
    capacity = infirmary.capacity
    fixes = capacity_fixes(infirmary, patients, total - capacity.total)
    return InfirmaryReport(patients, capacity, total, fixes)


def _supervising(infirmary: Infirmary) -> bool:
    supervisor = infirmary.supervisor
    return supervisor is not None and supervisor.level >= SUPERVISOR_MIN_MEDIC


def capacity_fixes(
    infirmary: Infirmary, patients: Iterable[PatientLoad], shortfall: int
) -> tuple[str, ...]:
    """What would bring the load within capacity, cheapest first; () when it already fits.

    Offered: one more medic of the lowest sufficient level, that many Medic 0 medics, a
    Medic 2+ supervisor (who doubles the staff), and taking the fewest patients off care
    (never a dying one: dying characters require intensive care).
    """
    if shortfall <= 0:
        return ()
    fixes: list[str] = []
    factor = 2 if _supervising(infirmary) else 1
    under = " under the supervisor" if factor == 2 else ""
    for level in range(SUGGESTED_MAX_MEDIC + 1):
        if factor * medic_capacity(level) >= shortfall:
            fixes.append(
                f"Add one Medic {level} medic{under} (+{factor * medic_capacity(level)} units)."
            )
            break
    per_medic = factor * medic_capacity(0)
    count = -(-shortfall // per_medic)
    if count > 1:
        fixes.append(f"Or add {count} Medic 0 medics{under} (+{count * per_medic} units).")
    if factor == 1:
        staff = sum(medic.capacity for medic in infirmary.medics)
        own = 0 if infirmary.supervisor is None else infirmary.supervisor.capacity
        needed = shortfall + own  # the new supervisor replaces the current one
        for level in range(SUPERVISOR_MIN_MEDIC, SUGGESTED_MAX_MEDIC + 1):
            if staff > 0 and staff + medic_capacity(level) >= needed:
                fixes.append(
                    f"Or have a Medic {level} supervise the medics: it doubles their "
                    f"{staff} units and adds {medic_capacity(level)}."
                )
                break
    movable = sorted(
        (p for p in patients if p.state is not WoundState.DYING),
        key=lambda p: (-p.load, p.name.casefold()),
    )
    freed = 0
    chosen: list[PatientLoad] = []
    for patient in movable:
        if freed >= shortfall:
            break
        chosen.append(patient)
        freed += patient.load
    if freed >= shortfall:
        names = ", ".join(f"{p.name} ({p.care.label}, {p.load})" for p in chosen)
        fixes.append(
            f"Or take {names} off care: they then heal at the rate without care."
        )
    return tuple(fixes)
