"""The infirmary: patients' care loads against the medics' capacity, and what would fix it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import (
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    Recovery,
)
from mneme_desktop.domain.healing.infirmary import (
    Infirmary,
    Medic,
    capacity_fixes,
    infirmary_report,
    patient_load,
)
from mneme_desktop.rules.healing import MONITORING_NOTE, Activity, CareLevel
from mneme_desktop.rules.wounds import ThresholdBasis, WoundState


def patient(name: str, damage: int, care: bool = True, **extra: object) -> Character:
    """HP 24: wounded 1-7, seriously 8-15, critically 16-24, dying 25+."""
    return Character(
        name=name,
        characteristics=Characteristics.of(7, 8, 9, 10, 8, 7),
        damage=damage,
        recovery=Recovery(activity=Activity.FULL_REST, care=care),
        **extra,  # type: ignore[arg-type]
    )


def test_patients_are_the_hurt_under_care() -> None:
    assert patient_load(patient("A", 3)).care is CareLevel.LIGHT
    assert patient_load(patient("B", 8)).load == 2
    assert patient_load(patient("C", 24)).care is CareLevel.SERIOUS
    dying = patient_load(patient("D", 25))
    assert (dying.state, dying.care, dying.load) == (WoundState.DYING, CareLevel.INTENSIVE, 8)
    assert patient_load(patient("E", 3, care=False)) is None
    assert patient_load(patient("F", 0)) is None
    assert patient_load(patient("G", 30, conditions=[Condition(kind=ConditionKind.DEAD)])) is None
    no_regime = patient("H", 5)
    no_regime.recovery = None
    assert patient_load(no_regime) is None


def test_the_characteristic_basis_moves_the_care_level() -> None:
    strong = Character(name="S", characteristics=Characteristics.of(12, 6, 6, 7, 7, 7),
                       damage=9, recovery=Recovery(care=True))
    assert patient_load(strong).care is CareLevel.MODERATE  # 9 >= floor(24 / 3)
    assert patient_load(strong, ThresholdBasis.CHARACTERISTIC).care is CareLevel.LIGHT


def test_capacity_doubles_per_level_and_under_a_supervisor() -> None:
    staff = [Medic(name="A", level=0), Medic(name="B", level=1)]
    assert Infirmary(medics=staff).capacity.total == 24
    supervised = Infirmary(medics=staff, supervisor=Medic(name="S", level=2))
    assert (supervised.capacity.staff, supervised.capacity.supervision_bonus,
            supervised.capacity.supervisor, supervised.capacity.total) == (24, 24, 32, 80)
    low = Infirmary(medics=staff, supervisor=Medic(name="S", level=1))
    assert low.capacity.total == 40
    assert supervised.supervises_intensive_care
    assert not low.supervises_intensive_care
    assert Infirmary(ai_supervision=True).supervises_intensive_care


def test_a_report_within_capacity_has_no_warning() -> None:
    report = infirmary_report(Infirmary(medics=[Medic(name="Doc", level=1)]),
                              [patient("A", 3), patient("B", 9), patient("C", 5, care=False)])
    assert report.load == 3
    assert not report.over_capacity
    assert report.warning == ""
    assert report.fixes == ()
    assert report.summary == "Care needed: 3 light-care units; capacity 16 (2 patients)"
    assert report.monitoring_note == MONITORING_NOTE


def test_over_capacity_warns_and_offers_fixes() -> None:
    infirmary = Infirmary(medics=[Medic(name="Doc", level=0)])
    patients = [patient("A", 3), patient("B", 9), patient("C", 17), patient("D", 26)]
    report = infirmary_report(infirmary, patients)
    assert report.load == 1 + 2 + 4 + 8
    assert report.over_by == 7
    assert report.warning == (
        "Over capacity: the patients need 15 light-care units, the medics can give 8 (7 short).")
    assert report.fixes[0] == "Add one Medic 0 medic (+8 units)."
    assert report.fixes[1] == (
        "Or have a Medic 2 supervise the medics: it doubles their 8 units and adds 32.")
    # Never the dying patient; the heaviest others first.
    assert report.fixes[2] == (
        "Or take C (serious care, 4), B (moderate care, 2), A (light care, 1) off care: they "
        "then heal at the rate without care.")


def test_fixes_under_a_supervisor_count_double() -> None:
    infirmary = Infirmary(medics=[Medic(name="Doc", level=0)],
                          supervisor=Medic(name="Chief", level=2))
    patients = [patient(f"P{i}", 26) for i in range(8)]  # 64 units against 16 + 32
    report = infirmary_report(infirmary, patients)
    assert report.over_by == 16
    assert report.fixes == (
        "Add one Medic 0 medic under the supervisor (+16 units).",)


def test_large_shortfalls_suggest_several_medics() -> None:
    fixes = capacity_fixes(Infirmary(), [], 300)
    assert fixes == ("Or add 38 Medic 0 medics (+304 units).",)
    assert capacity_fixes(Infirmary(), [], 0) == ()


def test_medics_are_validated_and_round_trip() -> None:
    with pytest.raises(ValidationError):
        Medic(name="", level=1)
    with pytest.raises(ValidationError):
        Medic(name="Doc", level=16)
    infirmary = Infirmary(medics=[Medic(name="Doc", level=3, character_id="abc")],
                          supervisor=Medic(name="Chief", level=2), sickbay=True)
    assert Infirmary.model_validate_json(infirmary.model_dump_json()) == infirmary
