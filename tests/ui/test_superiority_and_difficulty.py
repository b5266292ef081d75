"""Superiority and Difficulty by name, driven as a referee drives them: the Ch.3 superiority
situations picked with keys in the attack resolver and the check panel (their sum is the
modifier, the situations named in the term), and the Difficulty ladder's names beside every
Difficulty spin box (resolver base, check panel, an extended task's timing check and each
round's check)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox

from mneme_desktop.ui.views.encounter_view import EncounterView
from mneme_desktop.ui.widgets.difficulty_picker import DifficultyPicker, difficulty_name
from tests.ui.test_check_dialog import open_panel, person
from tests.ui.test_encounter_fight import click, press, tick_targets
from tests.ui.test_encounter_view import open_test_encounter, select, start_fight
from tests.ui.test_task_timing import pick, type_number


def step_up(qtbot, spin: QSpinBox, times: int = 1) -> None:
    spin.setFocus()
    for _ in range(times):
        qtbot.keyClick(spin, Qt.Key.Key_Up)


def term_rows(resolver) -> list[tuple[str, str]]:
    model = resolver.terms_model
    return [(model.data(model.index(r, 0)), model.data(model.index(r, 1)))
            for r in range(model.rowCount())]


def term_rule(resolver, label: str) -> str:
    model = resolver.terms_model
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == label)
    return model.data(model.index(row, 2))


def test_difficulty_names_follow_the_number_and_set_it(qtbot) -> None:
    picker = DifficultyPicker("d", "d_name")
    qtbot.addWidget(picker)
    assert picker.combo.currentText() == "Average (8)"
    assert [picker.combo.itemText(i) for i in range(6)] == [
        "Easy (4)", "Routine (6)", "Average (8)", "Difficult (10)", "Very Difficult (12)",
        "Formidable (14)"]
    picker.spin.setValue(11)
    assert picker.combo.currentText() == "Difficult +1 (11)"
    assert difficulty_name(3) == "Easy -1" and difficulty_name(14) == "Formidable"


def test_resolver_superiority_situations_sum_into_the_modifier(qtbot) -> None:
    view: EncounterView = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)  # the view settles, as between a fixture and its test
    press(qtbot, view, Qt.Key.Key_A)
    resolver = view.resolver
    tick_targets(qtbot, view, ["Raider 1"])
    picker = resolver.superiority_picker
    step_up(qtbot, picker.ours.firepower, 2)               # superior firepower +2
    pick(qtbot, picker.ours.outnumbers, "minor +1")  # +1
    step_up(qtbot, picker.theirs.position)                  # they hold the position +1
    assert resolver.superiority_spin.value() == 2           # 2 + 1 - 1
    assert ("Superiority (attacker)", "-2") in term_rows(resolver)
    assert term_rule(resolver, "Superiority (attacker)") == (
        "Ch.3 superiority: ours: Superior Firepower +2, Outnumbered (minor) +1; "
        "theirs: Superior Position/Action +1")
    assert "Attacker's side: firepower +2, outnumbers (minor) +1" in \
        resolver.superiority_spin.toolTip()
    spec = resolver.spec
    assert spec is not None and ("Superiority +2 (ours: Superior Firepower +2, Outnumbered "
                                 "(minor) +1; theirs: Superior Position/Action +1)"
                                 ) in spec.options  # written in the attack's log line
    step_up(qtbot, picker.ours.firepower, 3)                # capped at the table's +3
    assert picker.ours.firepower.value() == 3 and resolver.superiority_spin.value() == 3
    step_up(qtbot, picker.theirs.firepower, 3)
    pick(qtbot, picker.theirs.outnumbers, "overwhelming +3")
    assert resolver.superiority_spin.value() == 4 - 7       # the target side is superior
    assert ("Superiority (target side)", "+3") in term_rows(resolver)

    type_number(qtbot, resolver.superiority_spin, 1)  # the referee's own number
    assert picker.modifier() == 0 and picker.ours.firepower.value() == 0
    assert term_rule(resolver, "Superiority (attacker)") == "Ch.3 superiority modifier"

    step_up(qtbot, picker.ours.position, 2)
    base = resolver.base_picker
    pick(qtbot, base.combo, "Difficult (10)")              # the base by name
    assert resolver.base_spin.value() == 10
    assert term_rows(resolver)[0] == ("Base difficulty", "10")
    assert term_rows(resolver)[-1] == ("Difficulty", "8")   # 10 - 2
    type_number(qtbot, resolver.base_spin, 13)
    assert base.combo.currentText() == "Very Difficult +1 (13)"


def test_check_panel_superiority_is_a_named_dm_in_the_log(qtbot, sample_window) -> None:
    window = sample_window
    ilse = person(window, "Ilse Brandt")
    window.select_entity(ilse.id)
    panel = open_panel(qtbot, window)
    before = panel.odds()
    assert before is not None
    picker = panel.superiority_picker
    pick(qtbot, picker.ours.outnumbers, "significant +2")
    step_up(qtbot, picker.theirs.firepower)
    odds = panel.odds()
    assert odds is not None and odds.modifier == before.modifier + 1
    assert "Superiority +1" in panel.dm_label.text()
    assert "Ch.3 superiority: ours: Outnumbered (significant) +2; theirs: Superior " \
           "Firepower +1" in panel.dm_label.toolTip()
    pick(qtbot, panel.difficulty_combo, "Routine (6)")
    assert panel.difficulty_spin.value() == 6
    panel.dice_edit.setText("4 4")
    qtbot.keyClick(panel.dice_edit, Qt.Key.Key_Return)
    assert "Superiority +1" in window.document.campaign.journal[-1].text
    assert "vs Routine (6)" in window.document.campaign.journal[-1].text


def test_extended_task_difficulties_by_name(qtbot) -> None:
    view = start_fight(open_test_encounter(qtbot))
    qtbot.wait(1)
    select(view, "Mara Vey")
    panel = view.panel
    pick(qtbot, panel.timing_mode_combo, "Timing: check rolled")
    timing = panel.findChild(QComboBox, "task_timing_difficulty_name")
    assert timing is not None and timing.isVisible()
    click(qtbot, panel.first_aid_check)  # not first aid: Average 8 unless chosen
    pick(qtbot, timing, "Formidable (14)")
    assert panel.timing_difficulty_spin.value() == 14
    type_number(qtbot, panel.timing_difficulty_spin, 7)
    assert timing.currentText() == "Routine +1 (7)"
    work = panel.findChild(QComboBox, "task_difficulty_name")
    assert work is not None
    pick(qtbot, work, "Easy (4)")
    assert panel.work_difficulty_spin.value() == 4
