"""Log rows say who they are about in their own columns, not only in the row's text."""

from __future__ import annotations

from mneme_desktop.domain import combat
from tests.domain.test_combat import fight, make_campaign


def test_join_rows_name_who_joined() -> None:
    campaign = make_campaign()
    encounter = fight(campaign)
    joins = [entry for entry in encounter.log if entry.action == "Join"]
    assert [entry.target for entry in joins] == [
        "Mara Vey, Ilse Brandt, Tomas Okoro", "Raider 1..Raider 2", "Brute 1"]
    for entry in joins:
        assert entry.text.startswith(entry.target)
        assert entry.target in combat.format_log_entry(entry)
