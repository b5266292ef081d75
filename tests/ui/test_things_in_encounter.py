"""Things in a fight, driven through the encounter view's widgets (#18): the chapter 7 shield
example end to end, the walker's scale immunity said before the roll, a cover object
destroyed mid-fight, a vehicle with crew, damage set by hand, and undo of all of it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from mneme_desktop.domain import Side
from mneme_desktop.ui.models.encounter_things_model import EncounterThingsModel
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import dice_for, make_campaign
from tests.domain.test_things import with_things
from tests.ui.test_encounter_fight import (
    attack,
    choose,
    click,
    sheet,
    tick_targets,
    type_text,
)
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def view(qtbot) -> EncounterView:
    """The test fight (Mara, Ilse, Tomas against two raiders) with a brute (club 3d6) and
    a thing library of a shield (protection 2, 12 HP) and a D-plated walker."""
    view = start_fight(open_test_encounter(qtbot, campaign=with_things(make_campaign())))
    assert view.add_adversaries(view.document.campaign.adversary_library[1].id, 1)
    return view


def things_tab(view: EncounterView):
    panel = view.things_panel
    view.tabs.setCurrentWidget(panel)
    return panel


def add_thing(qtbot, view: EncounterView, label: str, side: Side = Side.NEUTRAL) -> str:
    """Add one copy of a library template with the Things tab's widgets; its entry id."""
    panel = things_tab(view)
    choose(panel.source_combo, label)
    panel.side_combo.setCurrentIndex(panel.side_combo.findData(side))
    before = {t.id for t in view.encounter().things}
    click(qtbot, panel.add_button)
    (entry_id,) = {t.id for t in view.encounter().things} - before
    return entry_id


def cell(view: EncounterView, entry_id: str, column: int) -> str:
    model = view.things_panel.model
    return model.data(model.index(model.row_of(entry_id), column))


def shelter(qtbot, view: EncounterView, entry_id: str, who: str) -> None:
    panel = things_tab(view)
    panel.select(entry_id)
    choose(panel.cover_combatant_combo, who)
    click(qtbot, panel.take_cover_button)


def thing(view: EncounterView, entry_id: str):
    return view.document.campaign.encounter_thing(view.encounter().find_thing_entry(entry_id))


def test_the_model_passes_qts_checks(qtbot, view):
    tester = QAbstractItemModelTester(view.things_panel.model,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    entry_id = add_thing(qtbot, view, "Shield (template)")
    shelter(qtbot, view, entry_id, "Tomas Okoro")
    view.document.undo_stack.undo()
    view.document.undo_stack.undo()
    assert view.things_panel.model.rowCount() == 0
    del tester


def test_shield_example_through_the_window(qtbot, view):
    """Ch.7: Tomas behind a shield of protection 2 fails by 3 against the brute's 3d6 club:
    the shield takes two of the three rolls, Tomas the third; the shield's HP falls."""
    entry_id = add_thing(qtbot, view, "Shield (template)")
    assert cell(view, entry_id, EncounterThingsModel.COL_NAME) == "Shield 1"
    assert cell(view, entry_id, EncounterThingsModel.COL_HP) == "12/12 HP"
    shelter(qtbot, view, entry_id, "Tomas Okoro")
    tomas_sheet, tomas = sheet(view, "Tomas Okoro")
    assert tomas.cover_thing_id == entry_id
    assert cell(view, entry_id, EncounterThingsModel.COL_BEHIND) == "Tomas Okoro"
    before = tomas_sheet.damage
    outcome = attack(qtbot, view, "Tomas Okoro", ["Brute 1"], -3, return_fire="3 4 9")
    resolver = view.resolver
    assert resolver.defence_cover_combo.currentText() == "Shield 1 (protection 2, 12 HP left)"
    harm = outcome.harm
    assert (list(harm.cover.rolls), list(harm.attacker.rolls)) == ([3, 4], [9])
    click(qtbot, resolver.apply_button)
    assert thing(view, entry_id).damage == 7
    assert sheet(view, "Tomas Okoro")[0].damage == before + 5  # 9 - flak jacket 4
    assert cell(view, entry_id, EncounterThingsModel.COL_HP) == "5/12 HP"
    log = view.encounter().log[-1]
    assert "Shield 1 takes 2 damage rolls of 3d6: 3, 4 (7 damage, 5 HP left" in log.text
    assert "Cover Absorption" in log.text
    undo = view.document.undo_stack
    undo.undo()
    assert thing(view, entry_id).damage == 0
    assert sheet(view, "Tomas Okoro")[0].damage == before
    undo.undo()
    assert sheet(view, "Tomas Okoro")[1].cover_thing_id is None
    undo.undo()
    assert view.encounter().things == []
    assert view.things_panel.model.rowCount() == 0


def test_walker_ignores_the_rifle_before_the_roll_with_the_rules_name(qtbot, view):
    entry_id = add_thing(qtbot, view, "Walker (template)", Side.ENEMIES)
    assert cell(view, entry_id, EncounterThingsModel.COL_HP) == "20/20 DHP"
    resolver = view.resolver
    view.show_attack(sheet(view, "Mara Vey")[1].id)
    tick_targets(qtbot, view, ["Walker 1"])
    assert resolver.immunity_label.text() == (
        "Ignored: Walker 1 of the Deka scale ignores personal-scale damage from Automatic "
        "Rifle (Scale Immunity, Ch.7 Damage Scale)")
    outcome = attack(qtbot, view, "Mara Vey", ["Walker 1"], 2)
    assert outcome.hits[0].immune
    click(qtbot, resolver.apply_button)
    assert thing(view, entry_id).damage == 0
    assert "ignores personal-scale damage" in view.encounter().log[-1].text
    tick_targets(qtbot, view, ["Raider 1"])
    assert resolver.immunity_label.text() == ""


def test_cover_destroyed_mid_fight_stops_absorbing(qtbot, view):
    entry_id = add_thing(qtbot, view, "Shield (template)")
    shelter(qtbot, view, entry_id, "Tomas Okoro")
    attack(qtbot, view, "Tomas Okoro", ["Brute 1"], -2, return_fire="6 8")
    click(qtbot, view.resolver.apply_button)
    assert thing(view, entry_id).remaining_hp == 0
    log = view.encounter().log[-1]
    assert "Shield 1: destroyed (0 HP): it stops absorbing" in log.state_changes
    assert cell(view, entry_id, EncounterThingsModel.COL_PROTECTION) == \
        "2 (0 HP: absorbs nothing)"
    # Again (a free attack, no action spent): behind a shield at 0 HP, both rolls reach
    # Tomas and the log says why.
    resolver = view.resolver
    view.show_attack(sheet(view, "Tomas Okoro")[1].id)
    tick_targets(qtbot, view, ["Brute 1"])
    click(qtbot, resolver.spend_check)
    assert not resolver.spend_check.isChecked()
    assert resolver.defence_cover_combo.currentText() == "Shield 1 (protection 2, 0 HP left)"
    spec = resolver.spec
    a, b = dice_for(-2, spec.roll_modifier, spec.difficulty.total)
    type_text(qtbot, resolver.return_fire_edit, "6 8")
    type_text(qtbot, resolver.dice_edit, f"{a} {b}")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    outcome = resolver.outcome
    assert outcome.harm.cover is None and len(outcome.harm.attacker.rolls) == 2
    click(qtbot, view.resolver.apply_button)
    assert any("Shield 1 is at 0 HP: it no longer absorbs fail effect" in entry.text
               for entry in view.encounter().log[-3:])


def test_vehicle_with_crew_takes_its_crews_initiative(qtbot, view):
    entry_id = add_thing(qtbot, view, "Walker (template)", Side.PLAYERS)
    panel = things_tab(view)
    panel.select(entry_id)
    assert cell(view, entry_id, EncounterThingsModel.COL_CREW) == "no crew aboard"
    assert panel.position_combo.itemText(0) == "Pilot (empty)"
    panel.position_combo.setCurrentIndex(0)
    choose(panel.crew_combo, "Mara Vey")
    click(qtbot, panel.board_button)
    panel.position_combo.setCurrentIndex(1)
    choose(panel.crew_combo, "Ilse Brandt")
    click(qtbot, panel.board_button)
    assert cell(view, entry_id, EncounterThingsModel.COL_CREW) == \
        "Pilot: Mara Vey; Gunner: Ilse Brandt (12)"
    assert panel.position_combo.itemText(1) == "Gunner (Ilse Brandt)"
    # The gunner fires the walker's autocannon from the resolver, after her own weapons.
    resolver = view.resolver
    view.show_attack(sheet(view, "Ilse Brandt")[1].id)
    weapons = [resolver.weapon_combo.itemText(i) for i in range(resolver.weapon_combo.count())]
    assert weapons[-1] == "Walker 1: Autocannon D 2d6, rate 2"
    resolver.weapon_combo.setCurrentIndex(len(weapons) - 1)
    tick_targets(qtbot, view, ["Raider 1"])
    assert resolver.spec is not None and resolver.spec.dice.scale.label == "Deka"
    view.document.undo_stack.undo()
    view.document.undo_stack.undo()
    assert cell(view, entry_id, EncounterThingsModel.COL_CREW) == "no crew aboard"
    qtbot.waitUntil(lambda: resolver.weapon_combo.count() == len(weapons) - 1)


def test_damage_set_by_hand_is_one_step(qtbot, view):
    entry_id = add_thing(qtbot, view, "Walker (template)")
    panel = things_tab(view)
    panel.select(entry_id)
    panel.damage_spin.setFocus()
    panel.damage_spin.selectAll()
    qtbot.keyClicks(panel.damage_spin, "65")
    qtbot.keyClick(panel.damage_spin, Qt.Key.Key_Return)
    assert thing(view, entry_id).damage == 65
    assert cell(view, entry_id, EncounterThingsModel.COL_HP) == "13/20 DHP"
    assert cell(view, entry_id, EncounterThingsModel.COL_STATE) == "Seriously Damaged"
    assert "200 HP" in panel.damage_label.text()
    view.document.undo_stack.undo()
    assert thing(view, entry_id).damage == 0


def test_a_refusal_is_said_not_raised(qtbot, view):
    entry_id = add_thing(qtbot, view, "Walker (template)")
    panel = things_tab(view)
    panel.select(entry_id)
    panel.crew_combo.setCurrentIndex(0)
    # The walker gives protection 0 in the test library: no one can shelter behind it.
    shelter(qtbot, view, entry_id, "Mara Vey")
    assert "gives no protection" in view.message_label.message()
    assert sheet(view, "Mara Vey")[1].cover_thing_id is None


def test_a_things_name_is_shown_whole_on_one_line(qtbot, view):
    """QA: at 1366x768 the Thing column was squeezed and "Cinder Blocks 1" wrapped onto two
    clipped lines."""
    view.resize(1100, 700)
    view.show()
    entry_id = add_thing(qtbot, view, "Shield (template)")
    table = view.things_panel.table
    qtbot.waitUntil(lambda: table.isVisible())
    name = cell(view, entry_id, 0)
    assert not table.wordWrap()
    assert table.columnWidth(0) > table.fontMetrics().horizontalAdvance(name)
