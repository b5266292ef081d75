"""Tactics as Ch.6 has it, driven from the window: the declared risk caps the Effect, which
becomes the side's pool of advantage (or disadvantage) rolls, spent one at a time from the
resolver, a grapple or a quick check; a new check only once the pool is spent and while
the leader's attempts are under Tactics skill + 1, or when the battle changed a lot."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from mneme_desktop.domain import Side
from mneme_desktop.domain.combat.tactics import TacticsUse
from mneme_desktop.ui.dialogs.check_dialog import CheckDialog
from tests.ui.test_attack_resolver_trust import show_panel
from tests.ui.test_encounter_fight import OK, click, press, sheet, tick_targets, type_text
from tests.ui.test_encounter_view import open_test_encounter, start_fight


@pytest.fixture
def running(qtbot):
    view = start_fight(open_test_encounter(qtbot))
    show_panel(view)
    return view


def tactics(qtbot, view, dice: str, difficulty: int, use: TacticsUse = TacticsUse.POOL,
            changed: bool = False):
    view.select_combatant(sheet(view, "Mara Vey")[1].id)
    press(qtbot, view, Qt.Key.Key_T)
    dialog = view.tactics_dialog
    dialog.use_combo.setCurrentIndex(dialog.use_combo.findData(use))
    dialog.difficulty_combo.setCurrentIndex(dialog.difficulty_combo.findData(difficulty))
    dialog.changed_check.setChecked(changed)
    type_text(qtbot, dialog.dice_edit, dice)
    attempts = dialog.attempts_label.text()
    click(qtbot, dialog.buttons.button(OK))
    return attempts


def pool(view):
    return next((p for p in view.encounter().tactics if p.side is Side.PLAYERS), None)


def test_the_pool_is_granted_shown_spent_in_the_resolver_and_undone(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    attempts = tactics(qtbot, view, "6 6", 10)
    assert attempts == "Mara Vey has made 0 of 2 attempts for advantage rolls (Tactics skill + 1)"
    # 12 + 1 (Tactics-1, INT +0) - 10 = Effect +3, within the cap of 4 at Difficulty 10.
    assert (pool(view).kind.value, pool(view).granted, pool(view).left) == ("advantage", 3, 3)
    assert mara.tactics_attempts == 1
    assert mara.initiative == 12  # the pool, not the initiative
    assert view.encounter().log[-1].text == (
        "Tactics at Difficulty 10, attempt 1 of 2: 6+6 +1 = 13, Effect +3, capped to +3: "
        "the Players gain 3 advantage rolls")
    assert view.panel.rolls_box.tactics_label.text() == (
        "Players: 3 of 3 advantage rolls left (Mara Vey's Tactics at 10); this combatant's "
        "attempts 1 of 2")
    # Not again while the rolls are unspent.
    tactics(qtbot, view, "6 6", 10)
    assert view.message_label.message().startswith(
        "the Players' Tactics rolls are not used up yet: 3 of 3 advantage rolls left")
    # Ilse spends one on her attack.
    _, ilse = sheet(view, "Ilse Brandt")
    resolver = view.resolver
    resolver.set_attacker(ilse.id)
    view.tabs.setCurrentIndex(1)
    tick_targets(qtbot, view, ["Raider 1"])
    check = resolver.tactics_check
    assert check.isEnabled() and not check.isChecked()
    assert check.text() == ("Spend a Tactics advantage roll: 3 of 3 advantage rolls left "
                            "(Mara Vey's Tactics at 10)")
    check.setFocus()
    qtbot.keyClick(check, Qt.Key.Key_Space)
    assert resolver.spec is not None and resolver.spec.net_advantage == 1
    click(qtbot, resolver.roll_button)
    click(qtbot, resolver.apply_button)
    assert pool(view).left == 2
    view.document.undo_stack.undo()
    assert pool(view).left == 3
    view.document.undo_stack.redo()
    assert pool(view).left == 2


def test_a_failed_plan_leaves_disadvantages_spent_by_a_check_and_a_grapple(qtbot, running):
    view = running
    tactics(qtbot, view, "1 1", 8)  # 2 + 1 - 8 = -5, capped to -2 at Difficulty 8
    assert (pool(view).kind.value, pool(view).left) == ("disadvantage", 2)
    tomas_sheet, _ = sheet(view, "Tomas Okoro")
    panel = CheckDialog(view.document, rng=random.Random(1), sheet_id=tomas_sheet.id,
                        encounter_id=view.encounter_id())
    qtbot.addWidget(panel)
    panel.show()
    assert panel.tactics_check.isVisible()
    panel.tactics_check.setChecked(True)
    assert panel.odds().advantage == -1
    click(qtbot, panel.roll_button)
    assert pool(view).left == 1
    assert "a Tactics disadvantage roll spent" in view.encounter().log[-1].text
    # The grapple dialog offers the last one.
    view.select_combatant(sheet(view, "Ilse Brandt")[1].id)
    click(qtbot, view.panel.rolls_box.grapple_button)
    grapple = view.panel.rolls_box.grapple_dialog
    grapple.tactics_check.setChecked(True)
    assert grapple.spec.net_advantage == -1
    type_text(qtbot, grapple.dice_edit, "6 6 6")
    click(qtbot, grapple.roll_button)
    click(qtbot, grapple.apply_button)
    assert not grapple.isVisible(), grapple.message.message()
    assert pool(view).left == 0
    assert not panel.tactics_check.isVisible()  # nothing left to offer


def test_attempts_are_limited_to_skill_plus_one_unless_the_battle_changed(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    tactics(qtbot, view, "3 4", 8)  # Effect 0: no rolls, the pool is spent at once
    assert pool(view).granted == 0
    tactics(qtbot, view, "3 4", 8)
    assert mara.tactics_attempts == 2
    tactics(qtbot, view, "3 4", 8)
    assert view.message_label.message() == (
        "Mara Vey has made 2 of 2 Tactics attempts (skill + 1): another only if the battle "
        "has changed a lot")
    tactics(qtbot, view, "6 6", 12, changed=True)
    assert mara.tactics_attempts == 3 and pool(view).left == 1  # 13 - 12
    assert "attempt 3 of 2 (the battle changed)" in view.encounter().log[-1].text


def test_both_uses_share_one_roll(qtbot, running):
    view = running
    _, mara = sheet(view, "Mara Vey")
    _, tomas = sheet(view, "Tomas Okoro")
    tactics(qtbot, view, "6 5", 8, TacticsUse.BOTH)  # 11 + 1 - 8 = +4, capped +2
    assert mara.initiative == 14 and tomas.initiative == 10
    assert pool(view).left == 2
    view.document.undo_stack.undo()
    assert mara.initiative == 12 and pool(view) is None
