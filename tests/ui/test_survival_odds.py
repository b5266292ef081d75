"""Survival odds before the roll, in the window: the combatant panel names the exact chance
of the dying roll and of a massive-damage roll left to the table; the resolver's outcome
says it too; entering the roll takes the "due" away."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.ui.views.attack_text import format_percent
from tests.ui.test_encounter_fight import attack, click, sheet, type_text
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight


def test_a_massive_roll_left_to_the_table_shows_its_odds_until_rolled(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    outcome = attack(qtbot, view, "Mara Vey", ["Raider 2"], 3, damage="16, 16, 16, 16")
    hit = outcome.hits[0]
    assert hit.massive_due
    resolver = view.resolver
    click(qtbot, resolver.apply_button)
    raider, _combatant = sheet(view, "Raider 2")
    chance = fight.survival_chance(raider, dying=False)
    select(view, "Raider 2")
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
    qtbot.wait(1)  # the panel, shown again, follows the step
    panel = view.panel
    assert panel.isVisible()
    assert panel.massive_button.text() == "Massive damage (due)"
    assert panel.survival_odds.message().startswith("Massive damage: 2d6 DM ")
    assert panel.survival_odds.message().endswith(f"vs 8 survives {format_percent(chance)}")
    assert f"survives {format_percent(fight.survival_chance(raider, dying=True))}" in \
        panel.dying_button.toolTip()
    type_text(qtbot, panel.survival_dice_edit, "6 6")
    qtbot.keyClick(panel.survival_dice_edit, Qt.Key.Key_Tab)
    click(qtbot, panel.massive_button)
    qtbot.wait(1)
    assert view.encounter().log[-1].action == "Massive damage roll"
    assert panel.massive_button.text() == "Massive damage"
    assert view.encounter().log[-1].text.endswith(
        f"(chance to survive was {chance_text(chance)})")


def test_the_resolver_outcome_names_the_massive_rolls_chance(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    attack(qtbot, view, "Mara Vey", ["Raider 2"], 3, damage="16, 16, 16, 16")
    text = view.resolver.outcome_view.toPlainText()
    assert "massive damage roll due (2d6 + END DM with wound penalties vs 8, survives " in text
