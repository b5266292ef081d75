"""The Ch.3 superiority situations summed: each party's rows, ours minus theirs."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.checks import (
    MAX_SUPERIORITY,
    SuperiorityBalance,
    SuperiorityKind,
    SuperioritySituations,
)


def test_a_partys_rows_sum_and_are_named() -> None:
    ours = SuperioritySituations(firepower=2, position=1,
                                 outnumbers=SuperiorityKind.OUTNUMBERED_OVERWHELMING)
    assert ours.total == 6
    assert ours.describe() == ("Superior Firepower +2, Superior Position/Action +1, "
                               "Outnumbered (overwhelming) +3")
    assert SuperioritySituations().total == 0 and SuperioritySituations().describe() == ""
    assert MAX_SUPERIORITY == SuperioritySituations(
        3, 2, SuperiorityKind.OUTNUMBERED_OVERWHELMING).total == 8


def test_the_balance_is_ours_minus_theirs() -> None:
    balance = SuperiorityBalance(
        SuperioritySituations(firepower=1),
        SuperioritySituations(outnumbers=SuperiorityKind.OUTNUMBERED_SIGNIFICANT))
    assert balance.modifier == -1
    assert balance.describe() == ("ours: Superior Firepower +1; "
                                  "theirs: Outnumbered (significant) +2")
    assert SuperiorityBalance().modifier == 0 and SuperiorityBalance().describe() == ""


@pytest.mark.parametrize("kwargs", [
    {"firepower": 4}, {"position": 3}, {"firepower": -1},
    {"outnumbers": SuperiorityKind.FIREPOWER},
])
def test_values_off_the_table_are_refused(kwargs) -> None:
    with pytest.raises(ValueError):
        SuperioritySituations(**kwargs)
