"""Bad input in the window: impossible values typed into every editable field of the sheet
and of the encounter view are refused with a message (or cannot be typed at all), and the
model never holds an invalid value: after every attempt the campaign still validates and
is exactly what it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QSpinBox

from mneme_desktop.domain import (
    MAX_CHARACTERISTIC,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CoverItem,
    Skill,
    Weapon,
)
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.sheet_models import CharacterItemsModel
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.character_sheet import CharacterSheetView
from mneme_desktop.ui.views.encounter_view import EncounterView
from mneme_desktop.ui.widgets.delegates import DiceLineEdit, EditorKind, EditorSpec
from tests.domain.test_combat import make_campaign
from tests.ui.test_encounter_fight import click, sheet, type_text

Snapshot = dict[str, Any]


def snapshot(campaign: Campaign) -> Snapshot:
    """The campaign as data, after checking that it is a valid campaign."""
    dump = campaign.model_dump()
    Campaign.model_validate(dump)
    return dump


def assert_unchanged(campaign: Campaign, before: Snapshot, what: str) -> None:
    assert snapshot(campaign) == before, f"{what}: the campaign changed"


def paste(qtbot, line: QLineEdit, text: str) -> None:
    """Select everything in ``line`` and paste ``text`` with Ctrl+V, as a referee would."""
    QApplication.clipboard().setText(text)
    line.setFocus()
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


# --- the character sheet --------------------------------------------------------------------


@pytest.fixture
def sheet_view(qtbot) -> Iterator[CharacterSheetView]:
    character = Character(
        name="Aria Vance", player="Sam",
        characteristics=Characteristics.of(7, 8, 6, 10, 9, 7),
        skills=[Skill(name="Medic", level=1)],
        weapons=[Weapon(name="Autorifle", damage="3d6", skill="Gun Combat (Slug Rifle)")],
        armor=[Armor(name="Flak Jacket", rating=4)],
        cover_items=[CoverItem(name="Shield", protection=2, hp=12)],
    )
    document = CampaignDocument(Campaign(name="Bad input", characters=[character]))
    view = CharacterSheetView(document)
    qtbot.addWidget(view)
    view.set_character(character.id)
    view.resize(1100, 1000)
    view.show()
    qtbot.waitExposed(view)
    yield view
    view.flush_pending_edits()


def _campaign(view: CharacterSheetView) -> Campaign:
    return view._document.campaign


def test_an_empty_or_blank_name_is_refused_with_a_message(qtbot, sheet_view) -> None:
    campaign = _campaign(sheet_view)
    for typed in ("", "   ", "\t"):
        before = snapshot(campaign)
        edit = sheet_view.name_edit
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClick(edit, Qt.Key.Key_Backspace)
        if typed:
            qtbot.keyClicks(edit, typed)
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        assert "cannot be empty" in sheet_view.message_label.message()
        assert sheet_view.message_label.isVisibleTo(sheet_view)
        assert_unchanged(campaign, before, f"name {typed!r}")
    # A name longer than the file allows cannot even be typed.
    assert sheet_view.name_edit.maxLength() == 200 == sheet_view.player_edit.maxLength()


IMPOSSIBLE_NUMBERS = ("-1", "-30", "34", "99", "1000000", "abc", "1.5", "7e3", "0x10", "½",
                      "--", "+-3", " ")


def test_characteristics_out_of_range_cannot_be_entered(qtbot, sheet_view) -> None:
    campaign = _campaign(sheet_view)
    spins = {**sheet_view.spin_boxes, **{f"{k} damage": s
                                          for k, s in sheet_view.damage_spin_boxes.items()}}
    for name, spin in spins.items():
        if not spin.isEnabled():  # PSI of a non-psionic character
            continue
        # The field's limits are the domain's, so no typed or pasted value can exceed them.
        assert (spin.minimum(), spin.maximum()) == (0, MAX_CHARACTERISTIC), name
        for typed in IMPOSSIBLE_NUMBERS:
            before = snapshot(campaign)
            shown = spin.value()
            paste(qtbot, spin.lineEdit(), typed)
            qtbot.keyClick(spin, Qt.Key.Key_Return)
            assert spin.value() == shown, f"{name}: pasted {typed!r}"
            assert_unchanged(campaign, before, f"{name} {typed!r}")


def test_characteristics_typed_key_by_key_never_leave_the_domain(qtbot, sheet_view) -> None:
    campaign = _campaign(sheet_view)
    for key in ("str", "int", "soc"):
        spin = sheet_view.spin_boxes[key]
        for typed in ("-5", "99", "1e9", "x1"):
            spin.setFocus()
            spin.selectAll()
            qtbot.keyClicks(spin, typed)
            qtbot.keyClick(spin, Qt.Key.Key_Return)
            value = snapshot(campaign)["characters"][0]["characteristics"][key]
            assert 0 <= value <= MAX_CHARACTERISTIC
            assert spin.value() == value


def test_an_impossible_combination_of_characteristics_is_refused_with_a_message(
    sheet_view,
) -> None:
    campaign = _campaign(sheet_view)
    sheet_view.spin_boxes["dex"].setValue(0)
    sheet_view.spin_boxes["end"].setValue(0)
    before = snapshot(campaign)
    sheet_view.spin_boxes["str"].setValue(0)  # HP would be 0
    assert "STR + DEX + END must be at least 1" in sheet_view.message_label.message()
    assert sheet_view.spin_boxes["str"].value() == 7
    assert_unchanged(campaign, before, "STR 0 with DEX 0 and END 0")


def test_damage_cannot_be_negative(qtbot, sheet_view) -> None:
    campaign = _campaign(sheet_view)
    assert sheet_view.damage_spin.minimum() == 0
    for typed in ("-1", "-99999", "abc", "1e6", "999999"):
        before = snapshot(campaign)
        paste(qtbot, sheet_view.damage_spin.lineEdit(), typed)
        qtbot.keyClick(sheet_view.damage_spin, Qt.Key.Key_Return)
        assert_unchanged(campaign, before, f"damage {typed!r}")


# Every editable column of every table, with values the domain must refuse.
BAD_CELLS: dict[str, dict[str, tuple[object, ...]]] = {
    "skills_model": {
        "Name": ("", "   ", "x" * 101),
        "Specialty": ("y" * 101,),
        "Level": (-1, 99, "-1", "100", "three", "1.5", "", None),
    },
    "weapons_model": {
        "Name": ("", "  ", "n" * 201),
        "Damage": ("", "2dx", "3d6+", "d", "0d6", "3d0", "1000000d6", "3d6*2", "import os"),
        "Rate of attack": (-1, 0, "-3", "0", "many", "", 10**12),
        "Range": ("nowhere", "", None, 7),
        "Aim": (-1, "-1", "lots", 10**12),
        "Thrown": ("abc", "1,5", "-1", "NaN", "Infinity", "1e999"),
        "Ready": (-1, "-2", "x"),
        "Reload": (-1, "-2", "x"),
        "Skill": ("s" * 201,),
    },
    "armor_model": {
        "Name": ("", " "),
        "Rating": (-1, -100, "-5", "heavy", "", 10**12),
        "Scale": ("huge", None, "X"),
    },
    "cover_model": {
        "Name": ("",),
        "Protection": (-1, "-2", "x", 10**12),
        "HP": (-1, "-1", "lots"),
        "Damage taken": (-1, "-4", "x", 10**12),
    },
}


def _column(model: CharacterItemsModel, header: str) -> int:
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in
               range(model.columnCount())]
    return headers.index(header)


def test_every_editable_table_cell_refuses_impossible_values_with_a_message(sheet_view) -> None:
    campaign = _campaign(sheet_view)
    checked = set()
    for model_name, columns in BAD_CELLS.items():
        model: CharacterItemsModel = getattr(sheet_view, model_name)
        editable = {model.headerData(c, Qt.Orientation.Horizontal)
                    for c in range(model.columnCount())
                    if model.flags(model.index(0, c)) & Qt.ItemFlag.ItemIsEditable}
        assert editable == set(columns), f"{model_name}: untested columns"
        for header, values in columns.items():
            index = model.index(0, _column(model, header))
            for value in values:
                before = snapshot(campaign)
                sheet_view.clear_message()
                assert not model.setData(index, value), f"{model_name}.{header} took {value!r}"
                message = sheet_view.message_label.message()
                assert message.startswith(f"{header}: ") and len(message) > len(header) + 3, \
                    f"{model_name}.{header} {value!r}: {message!r}"
                assert "Traceback" not in message and "pydantic" not in message
                assert_unchanged(campaign, before, f"{model_name}.{header} {value!r}")
                checked.add((model_name, header))
    assert len(checked) == sum(len(c) for c in BAD_CELLS.values())


def _open_editor(view: QAbstractItemView, index) -> Any:
    view.setFocus()
    view.setCurrentIndex(index)
    view.edit(index)
    editor = QApplication.focusWidget()
    assert editor is not None and editor is not view
    return editor


@pytest.mark.parametrize(("table", "model_name", "header"), [
    ("skills_view", "skills_model", "Level"),
    ("weapons_view", "weapons_model", "Rate of attack"),
    ("weapons_view", "weapons_model", "Aim"),
    ("armor_view", "armor_model", "Rating"),
    ("cover_view", "cover_model", "Protection"),
])
def test_number_cell_editors_cannot_hold_an_out_of_range_value(
    qtbot, sheet_view, table: str, model_name: str, header: str
) -> None:
    campaign = _campaign(sheet_view)
    view: QAbstractItemView = getattr(sheet_view, table)
    model: CharacterItemsModel = getattr(sheet_view, model_name)
    source = model.index(0, _column(model, header))
    index = source if view.model() is model else view.model().mapFromSource(source)
    for typed in ("-1", "-999", "99999999999", "abc", "1.5"):
        before = snapshot(campaign)
        editor = _open_editor(view, index)
        assert isinstance(editor, QSpinBox)
        limits = (editor.minimum(), editor.maximum())
        paste(qtbot, editor.lineEdit(), typed)
        assert limits[0] <= editor.value() <= limits[1]
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda v=view: v.state() != QAbstractItemView.State.EditingState)
        assert_unchanged(campaign, before, f"{header} pasted {typed!r}")


@pytest.mark.parametrize("typed", ["2dx", "3d6+", "", "d6d6", "__import__('os')"])
def test_invalid_damage_dice_typed_in_the_cell_are_refused_with_a_message(
    qtbot, sheet_view, typed: str
) -> None:
    campaign = _campaign(sheet_view)
    before = snapshot(campaign)
    view = sheet_view.weapons_view
    editor = _open_editor(view, sheet_view.weapons_model.index(0, 1))
    assert isinstance(editor, DiceLineEdit)
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    qtbot.keyClicks(editor, typed)
    assert editor.problem
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.problem in sheet_view.message_label.message()
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: view.state() != QAbstractItemView.State.EditingState)
    assert sheet_view.message_label.message().startswith("Damage not changed: ")
    assert_unchanged(campaign, before, f"dice {typed!r}")


@pytest.mark.parametrize("typed", ["-1", "-999", "99999999999", "abc", "1.5", "2 XHP",
                                   "9999999999 KHP"])
def test_impossible_hit_points_typed_in_the_cover_cell_are_refused(
    qtbot, sheet_view, typed: str
) -> None:
    """Cover HP takes a number or the Ch.7 scale notation ("2 DHP"), so it is a text cell:
    anything that is not hit points in range is refused with a message, nothing changed."""
    campaign = _campaign(sheet_view)
    before = snapshot(campaign)
    view = sheet_view.cover_view
    model = sheet_view.cover_model
    source = model.index(0, _column(model, "HP"))
    index = source if view.model() is model else view.model().mapFromSource(source)
    editor = _open_editor(view, index)
    assert isinstance(editor, QLineEdit)
    paste(qtbot, editor, typed)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.state() != QAbstractItemView.State.EditingState)
    assert sheet_view.message_label.message(), f"no word for HP {typed!r}"
    assert_unchanged(campaign, before, f"cover HP {typed!r}")


def test_the_editor_specs_match_the_domain_limits(sheet_view) -> None:
    """The integer editors cannot go below what the domain allows (no negative rating)."""
    for model in (sheet_view.skills_model, sheet_view.weapons_model, sheet_view.armor_model,
                  sheet_view.cover_model):
        for column in model.columns:
            spec = column.editor
            if isinstance(spec, EditorSpec) and spec.kind is EditorKind.INTEGER:
                assert spec.minimum >= 0, column.header
                if column.header == "Rate of attack":
                    assert spec.minimum == 1


# --- the encounter view ---------------------------------------------------------------------


@pytest.fixture
def encounter_view(qtbot) -> EncounterView:
    campaign = make_campaign()
    view = EncounterView(CampaignDocument(campaign), rng=random.Random(5))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_encounter(campaign.encounters[0].id)
    assert view.add_characters([c.id for c in campaign.characters])
    assert view.add_adversaries(campaign.adversary_library[0].id, 2)
    model = view.turn_model
    for name, value in (("Mara Vey", 12), ("Ilse Brandt", 10), ("Tomas Okoro", 8),
                        ("Raider 1", 6), ("Raider 2", 5)):
        _, combatant = sheet(view, name)
        assert model.setData(model.index(model.row_of(combatant.id), TurnOrderModel.COL_INIT),
                             str(value))
    assert view.start_encounter()
    return view


BAD_INITIATIVE = ("abc", "", "  ", "99999999999", "-99999999999", str(10**30), "1.5", "7 7",
                  "0 0", "4 5 6", "1e3", "12abc", "six", "__import__('os').system('x')")


def test_initiative_typed_by_hand_out_of_range_or_not_a_number_is_refused(
    qtbot, encounter_view
) -> None:
    view = encounter_view
    campaign, table, model = view.document.campaign, view.turn_view, view.turn_model
    for typed in BAD_INITIATIVE:
        before = snapshot(campaign)
        steps = view.document.undo_stack.count()
        view.show_message("")
        row = model.row_of(sheet(view, "Mara Vey")[1].id)
        table.setCurrentIndex(model.index(row, TurnOrderModel.COL_INIT))
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_F2)
        editor = table.focusWidget()
        assert isinstance(editor, QLineEdit)
        qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(editor, Qt.Key.Key_Delete)
        qtbot.keyClicks(editor, typed)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState)
        assert view.message_label.isVisible() and view.message_label.message(), typed
        assert "validation error" not in view.message_label.message(), view.message_label.message()
        assert view.document.undo_stack.count() == steps
        assert_unchanged(campaign, before, f"initiative {typed!r}")
    # The app is still healthy: a real value is taken afterwards (a refused edit left no
    # broken command on the undo stack).
    assert model.setData(model.index(0, TurnOrderModel.COL_INIT), "11")
    view.document.undo_stack.undo()
    view.document.undo_stack.redo()


@pytest.mark.parametrize("typed", ["0 0", "7 7", "x", "1", "1 2 3", "9,9", "-1 -1", "66 1"])
def test_survival_dice_typed_in_invalid_are_refused(qtbot, encounter_view, typed: str) -> None:
    view = encounter_view
    campaign = view.document.campaign
    view.select_combatant(sheet(view, "Ilse Brandt")[1].id)
    panel = view.panel
    for button in (panel.dying_button, panel.massive_button):
        before = snapshot(campaign)
        view.show_message("")
        type_text(qtbot, panel.survival_dice_edit, typed)
        if button.isEnabled() and button.isVisible():
            click(qtbot, button)
        else:
            panel.survival_roll(dying=button is panel.dying_button)
        assert view.message_label.message(), typed
        assert_unchanged(campaign, before, f"survival dice {typed!r}")


@pytest.mark.parametrize("typed", ["0 0", "7 1", "x y", "1", "123"])
def test_task_dice_typed_in_invalid_are_refused(qtbot, encounter_view, typed: str) -> None:
    view = encounter_view
    campaign = view.document.campaign
    view.select_combatant(sheet(view, "Tomas Okoro")[1].id)
    panel = view.panel
    assert panel.start_task()
    before = snapshot(campaign)
    view.show_message("")
    type_text(qtbot, panel.work_dice_edit, typed)
    qtbot.keyClick(panel.work_dice_edit, Qt.Key.Key_Return)
    assert view.message_label.message(), typed
    assert_unchanged(campaign, before, f"task dice {typed!r}")


@pytest.mark.parametrize("typed", ["0 0", "x", "7 7", "1 2 3 4 5 6 7 8 9"])
def test_attack_dice_typed_in_invalid_are_refused(qtbot, encounter_view, typed: str) -> None:
    view = encounter_view
    campaign = view.document.campaign
    view.select_combatant(sheet(view, "Raider 1")[1].id)
    view.show_attack()
    resolver = view.resolver
    before = snapshot(campaign)
    type_text(qtbot, resolver.dice_edit, typed)
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.problem_label.text(), typed
    assert not resolver.apply_button.isEnabled()
    assert_unchanged(campaign, before, f"attack dice {typed!r}")
