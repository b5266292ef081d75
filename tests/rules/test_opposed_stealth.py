"""Ch.6 Deliberate Stealth and Scan/Search: Difficulty 8 + the opponent's skill + ChM +
conditions."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    RECON,
    STEALTH,
    UNSKILLED,
    TermKind,
    opposed_stealth_difficulty,
    opposing_skill,
)


@pytest.mark.parametrize(("skill", "opposed"), [
    ("Stealth", RECON), ("stealth", RECON), (" Recon ", STEALTH), ("Recon (Urban)", STEALTH),
    ("Tactics", None), ("", None), (None, None), ("Stealthy", None),
])
def test_stealth_is_opposed_by_recon_and_recon_by_stealth(skill: str | None,
                                                          opposed: str | None) -> None:
    assert opposing_skill(skill) == opposed


def test_the_difficulty_is_eight_plus_skill_plus_chm_plus_conditions() -> None:
    breakdown = opposed_stealth_difficulty(RECON, 2, "INT", 1, -1, opponent="Vex")
    assert [(t.label, t.value) for t in breakdown.terms] == [
        ("Base difficulty", DEFAULT_DIFFICULTY), ("Vex: Recon-2", 2), ("Vex: INT DM", 1),
        ("Vex: conditions", -1)]
    assert breakdown.total == 10
    assert breakdown.label == "Difficult"
    assert breakdown.total_of(TermKind.CONDITION) == -1
    assert all("Ch.6" in t.rule for t in breakdown.terms)


def test_an_unskilled_opponent_counts_minus_three_and_zero_terms_stay_shown() -> None:
    breakdown = opposed_stealth_difficulty(STEALTH, None, "DEX", 0)
    assert [(t.label, t.value) for t in breakdown.terms] == [
        ("Base difficulty", 8), ("Opponent: unskilled (Stealth)", UNSKILLED),
        ("Opponent: DEX DM", 0)]
    assert breakdown.terms[1].rule == "Ch.3 unskilled"
    assert breakdown.total == 5
    skill_zero = opposed_stealth_difficulty(STEALTH, 0, "DEX", -1)
    assert [t.value for t in skill_zero.terms] == [8, 0, -1]


def test_the_caller_names_the_conditions_it_counted() -> None:
    breakdown = opposed_stealth_difficulty(RECON, 1, "INT", 0, -2, "Vex", "wounds")
    assert (breakdown.terms[-1].label, breakdown.terms[-1].value) == ("Vex: wounds", -2)
    assert breakdown.total == 7
