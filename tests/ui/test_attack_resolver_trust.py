"""Issue 14 in the attack resolver and the aim controls, driven as a referee would: every
term on screen comes from the fight as it is now, not from the last attack's form."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import RangeClass, Weapon
from mneme_desktop.domain import combat as fight
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import make_campaign
from tests.ui.test_encounter_fight import click, press, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight


def laser() -> Weapon:
    return Weapon(name="Laser Rifle", damage="3d6", range_class=RangeClass.LONG, aim_modifier=2,
                  skill="Gun Combat (Energy)")


@pytest.fixture
def running(qtbot):
    """Everyone in (Mara also carries a laser rifle with aim +2), fixed initiatives (Mara 12,
    Ilse 10, Tomas 8, raiders 6, 5), round 1."""
    campaign = make_campaign()
    campaign.characters[0].weapons.append(laser())
    return start_fight(open_test_encounter(qtbot, campaign=campaign))


def pick(qtbot, combo, text: str) -> None:
    """Choose an entry with the arrow keys, as a user does (this emits ``activated``)."""
    index = combo.findText(text, Qt.MatchFlag.MatchStartsWith)
    assert index >= 0, f"{text!r} not in {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setFocus()
    while combo.currentIndex() < index:
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    while combo.currentIndex() > index:
        qtbot.keyClick(combo, Qt.Key.Key_Up)
    assert combo.currentIndex() == index


def select(view: EncounterView, name: str) -> None:
    view.select_combatant(sheet(view, name)[1].id)


def show_panel(view: EncounterView) -> None:
    view.tabs.setCurrentIndex(0)


def term_rows(view: EncounterView) -> list[tuple[str, str]]:
    terms = view.resolver.terms_model
    return [(terms.data(terms.index(r, 0)), terms.data(terms.index(r, 1)))
            for r in range(terms.rowCount())]


def ticked_names(view: EncounterView) -> list[str]:
    model = view.resolver.targets_model
    return [model.data(model.index(r, 0)) for r in range(model.rowCount())
            if model.data(model.index(r, 0), Qt.ItemDataRole.CheckStateRole)
            == Qt.CheckState.Checked]


def candidate_names(view: EncounterView) -> list[str]:
    model = view.resolver.targets_model
    return [model.data(model.index(r, 0)) for r in range(model.rowCount())]


# --- 1. the target's cover ---------------------------------------------------------------


def test_cover_set_on_the_targets_row_is_a_term_of_the_attacks_difficulty(qtbot, running):
    view = running
    select(view, "Raider 1")
    pick(qtbot, view.panel.cover_combo, "Mostly")
    assert sheet(view, "Raider 1")[1].cover.label == "mostly"
    press(qtbot, view, Qt.Key.Key_A)  # Mara's turn, Raider 1 selected: the target
    resolver = view.resolver
    assert ticked_names(view) == ["Raider 1"]
    assert term_rows(view) == [("Base difficulty", "8"), ("Cover (mostly): Raider 1", "+2"),
                               ("Difficulty", "10")]
    assert "against 10" in resolver.dm_label.text()
    click(qtbot, resolver.roll_button)
    assert resolver.outcome is not None and resolver.outcome.check.difficulty == 10


# --- 4. each attack starts from the attacker's situation ---------------------------------


def test_the_next_attacker_starts_from_their_own_situation_not_the_last_form(qtbot, running):
    view = running
    resolver = view.resolver
    press(qtbot, view, Qt.Key.Key_A)
    tick_targets(qtbot, view, ["Raider 1", "Raider 2"])
    pick(qtbot, resolver.cover_combo, "Full")
    pick(qtbot, resolver.concealment_combo, "Partial")
    click(qtbot, resolver.reckless_check)
    click(qtbot, resolver.roll_button)
    click(qtbot, resolver.apply_button)
    for _ in range(3):
        press(qtbot, view, Qt.Key.Key_N)  # Ilse, Tomas, Raider 1
    select(view, "Raider 1")
    press(qtbot, view, Qt.Key.Key_A)
    assert resolver.attacker_combo.currentText() == "Raider 1"
    assert "Raider 1" not in candidate_names(view)  # never offered to attack themselves
    assert ticked_names(view) == []  # not Raider 2, the ally Mara had ticked
    assert resolver.cover_combo.currentText() == "As on the targets' rows"
    assert resolver.concealment_combo.currentText() == "None"
    assert not resolver.reckless_check.isChecked()
    assert resolver.spec is None  # nothing chosen yet: nothing to roll
    assert not resolver.roll_button.isEnabled()


def test_an_attacker_aiming_starts_with_their_aim_target_ticked(qtbot, running):
    view = running
    for _ in range(3):
        press(qtbot, view, Qt.Key.Key_N)  # Raider 1's turn
    press(qtbot, view, Qt.Key.Key_A)
    assert view.resolver.attacker_combo.currentText() == "Raider 1"
    assert ticked_names(view) == []
    show_panel(view)
    select(view, "Raider 1")
    pick(qtbot, view.panel.aim_target_combo, "Ilse Brandt")
    click(qtbot, view.panel.aim_button)
    view.tabs.setCurrentIndex(1)  # back to the untouched form: it follows the fight
    assert ticked_names(view) == ["Ilse Brandt"]
    # A broadsword: the aim is not used on a melee attack, and kept (docs/rules.md readings).
    assert ("Aim", "-1") not in term_rows(view)
    assert "Aim +1 not used and kept" in view.resolver.dm_label.text()
    press(qtbot, view, Qt.Key.Key_A)
    assert ticked_names(view) == ["Ilse Brandt"]


def test_allies_and_the_unconscious_are_not_preticked(qtbot, running):
    view = running
    for name, damage in (("Tomas Okoro", 20), ("Raider 2", 18)):  # critically wounded
        combatant_id = sheet(view, name)[1].id
        assert view.run(lambda c, e, i=combatant_id, d=damage:
                        fight.set_damage_patch(c, e, i, d))
        status = fight.combatant_status(view.document.campaign, view.encounter(),
                                        sheet(view, name)[1])
        assert not status.can_act, name  # unconscious, still in the fight
    for name in ("Ilse Brandt", "Tomas Okoro", "Raider 2"):
        select(view, name)
        press(qtbot, view, Qt.Key.Key_A)
        assert view.resolver.attacker_combo.currentText() == "Mara Vey"
        assert ticked_names(view) == [], name
        assert "Mara Vey" not in candidate_names(view)
    select(view, "Raider 1")
    press(qtbot, view, Qt.Key.Key_A)
    assert ticked_names(view) == ["Raider 1"]


# --- 5. an attack the attacker cannot afford ----------------------------------------------


def test_roll_is_disabled_with_the_reason_when_the_attack_cannot_be_afforded(qtbot, running):
    view = running
    show_panel(view)
    select(view, "Mara Vey")
    pick(qtbot, view.panel.aim_target_combo, "Raider 1")
    for _ in range(2):
        click(qtbot, view.panel.aim_button)  # two minor actions spent: one left
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    assert ticked_names(view) == ["Raider 1"]
    assert resolver.spec is not None and "Chance of success" in resolver.odds_label.text()
    assert not resolver.roll_button.isEnabled()
    assert not resolver.use_dice_button.isEnabled()
    reason = "Mara Vey cannot attack: a Significant Action costs 2 minor actions but only 1"
    assert reason in resolver.roll_button.toolTip()
    assert resolver.problem_label.message().startswith(reason)
    type_text(qtbot, resolver.dice_edit, "6 6")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.outcome is None  # the table's dice are refused too
    assert view.message_label.message().startswith(reason)
    click(qtbot, resolver.spend_check)  # the referee lets it go without spending
    assert resolver.roll_button.isEnabled()
    assert resolver.problem_label.message() == ""


# --- 3. aim with the weapon of the next attack --------------------------------------------


def test_aim_follows_the_weapon_chosen_for_the_next_attack(qtbot, running):
    view = running
    panel, resolver = view.panel, view.resolver
    show_panel(view)
    select(view, "Mara Vey")
    assert panel.aim_label.text() == "No aim built up (max +6 with Automatic Rifle)"
    pick(qtbot, panel.aim_weapon_combo, "Laser Rifle")
    assert panel.aim_label.text() == "No aim built up (max +12 with Laser Rifle)"
    pick(qtbot, panel.aim_target_combo, "Raider 1")
    click(qtbot, panel.aim_button)
    mara = sheet(view, "Mara Vey")[1]
    assert mara.aim == 2  # the laser's aim modifier, not the rifle's +1
    assert panel.aim_label.text() == \
        "Aim +2 on Raider 1 (kept across rounds, max +12 with Laser Rifle)"
    press(qtbot, view, Qt.Key.Key_A)
    assert resolver.weapon_combo.currentText().startswith("Laser Rifle")
    assert ticked_names(view) == ["Raider 1"]
    assert ("Aim", "-2") in term_rows(view)
    terms = resolver.terms_model
    aim_row = next(r for r in range(terms.rowCount()) if terms.data(terms.index(r, 0)) == "Aim")
    assert terms.data(terms.index(aim_row, 2)) == "Ch.6 aim: max +12 with Laser Rifle"
    pick(qtbot, resolver.weapon_combo, "Automatic Rifle")  # the referee changes their mind
    show_panel(view)
    assert panel.aim_weapon_combo.currentText() == "Automatic Rifle"
    assert panel.aim_label.text().endswith("max +6 with Automatic Rifle)")


def test_an_open_resolver_follows_the_turn_without_carrying_the_form(qtbot, running):
    """The attack tab left open while the turn passes shows whose turn it is now, with a
    fresh form; an attacker chosen out of turn stays."""
    view = running
    resolver = view.resolver
    press(qtbot, view, Qt.Key.Key_A)  # Mara's turn
    assert resolver.attacker_combo.currentText() == "Mara Vey"
    tick_targets(qtbot, view, ["Raider 1"])
    pick(qtbot, resolver.cover_combo, "Full")
    press(qtbot, view, Qt.Key.Key_N)  # Ilse's turn, the tab still open
    qtbot.waitUntil(lambda: resolver.attacker_combo.currentText() == "Ilse Brandt")
    assert ticked_names(view) == []
    assert resolver.cover_combo.currentText() == "As on the targets' rows"
    pick(qtbot, resolver.attacker_combo, "Raider 2")  # out of turn, by choice
    press(qtbot, view, Qt.Key.Key_N)  # Tomas's turn
    qtbot.wait(50)
    assert resolver.attacker_combo.currentText() == "Raider 2"


def test_applying_an_attack_does_not_resize_the_form(qtbot, running):
    """The odds, the terms and a refusal line come and go between attacks; the resolver's
    scrolling inputs and its Roll box keep their size, so Apply neither moves what is under
    the pointer nor lays out and repaints the whole form (it did, at every Apply)."""
    from PySide6.QtWidgets import QScrollArea

    view = running
    resolver = view.resolver
    press(qtbot, view, Qt.Key.Key_A)
    inputs = resolver.findChild(QScrollArea).widget()
    sizes = []
    for _ in range(3):
        tick_targets(qtbot, view, ["Raider 1"])
        click(qtbot, resolver.roll_button)
        qtbot.wait(5)
        sizes.append(inputs.size())
        click(qtbot, resolver.apply_button)
        tick_targets(qtbot, view, [])  # no target: no odds, no terms, a refusal line
        qtbot.wait(5)
        assert resolver.odds_label.text() == ""
        sizes.append(inputs.size())
    assert len(set((s.width(), s.height()) for s in sizes[1:])) == 1, sizes
