"""The resolver names a helpless target's advantage and lets its player abort, driven with
keys and clicks as a referee would."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import combat as fight
from mneme_desktop.ui.commands import push_patch
from tests.ui.test_attack_resolver_trust import show_panel
from tests.ui.test_encounter_fight import click, sheet, tick_targets
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def running(qtbot):
    view = start_fight(open_test_encounter(qtbot))
    show_panel(view)
    return view


def test_first_aid_under_fire_gives_an_advantage_the_referee_sees(qtbot, running):
    view = running
    campaign = view.document.campaign
    _, tomas = sheet(view, "Tomas Okoro")
    _, ilse = sheet(view, "Ilse Brandt")
    push_patch(view.document, fight.start_task_patch(
        campaign, view.encounter(), tomas.id, "First aid", target_id=ilse.id,
        first_aid=True))
    resolver = view.resolver
    _, raider = sheet(view, "Raider 1")
    resolver.set_attacker(raider.id)
    assert resolver.helpless_label.text() == ""
    assert not resolver.abort_check.isEnabled()
    tick_targets(qtbot, view, ["Tomas Okoro"])
    text = resolver.helpless_label.text()
    assert text.startswith("Helpless target: +1 advantage")
    assert "Tomas Okoro: extended action (First aid, 30 rounds left)" in text
    assert "3d6 keep the 2 highest" in resolver.dm_label.text()
    assert resolver.spec is not None and resolver.spec.net_advantage == 1
    assert resolver.abort_check.isEnabled()
    resolver.abort_check.setFocus()
    qtbot.keyClick(resolver.abort_check, Qt.Key.Key_Space)
    assert resolver.abort_check.isChecked()
    assert resolver.helpless_label.text().startswith(
        "Helpless target, no advantage (they abort to defend)")
    assert resolver.spec is not None and resolver.spec.net_advantage == 0
    assert resolver.dm_label.text().startswith("Roll 2d6")
    # Rolled and applied, the log keeps the advantage it was rolled with.
    qtbot.keyClick(resolver.abort_check, Qt.Key.Key_Space)
    click(qtbot, resolver.roll_button)
    assert resolver.outcome is not None and len(resolver.outcome.check.dice) == 3
    click(qtbot, resolver.apply_button)
    assert any("Helpless target: +1 advantage" in entry.text
               for entry in view.encounter().log)
    assert not resolver.abort_check.isChecked()


def test_an_alert_second_target_denies_the_advantage(qtbot, running):
    view = running
    campaign = view.document.campaign
    _, raider = sheet(view, "Raider 1")
    push_patch(view.document, fight.start_task_patch(campaign, view.encounter(), raider.id,
                                                     "Hack the door"))
    resolver = view.resolver
    _, mara = sheet(view, "Mara Vey")
    resolver.set_attacker(mara.id)
    tick_targets(qtbot, view, ["Raider 1", "Raider 2"])
    assert resolver.helpless_label.text().startswith(
        "Helpless target, no advantage (one roll for every target")
    assert resolver.spec is not None and resolver.spec.net_advantage == 0
