"""The character sheet view, driven the way a referee uses it: keys, clicks, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QFileDialog, QLineEdit

from mneme_desktop.domain import (
    MAX_PORTRAIT_BYTES,
    AdversaryTemplate,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    ConditionKind,
    GameTime,
    Skill,
    Weapon,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.actions import Load
from mneme_desktop.rules.dice import DiceParseError, parse_dice
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.ui.commands import add_character, edit_character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.character_sheet import CharacterSheetView, sniff_image_type
from mneme_desktop.ui.widgets.delegates import DiceLineEdit


def make_character() -> Character:
    return Character(
        name="Aria Vance",
        player="Sam",
        characteristics=Characteristics.of(7, 8, 6, 10, 9, 7),
        skills=[Skill(name="Medic", level=1), Skill(name="Athletics", level=0)],
        weapons=[Weapon(name="Autorifle", damage="3d6", skill="Gun Combat (Slug Rifle)")],
    )


@pytest.fixture
def document(qapp) -> CampaignDocument:
    campaign = Campaign(name="Test", characters=[make_character()],
                        game_time=GameTime.at(2, 10, 0))
    return CampaignDocument(campaign)


@pytest.fixture
def character_id(document: CampaignDocument) -> str:
    return document.campaign.characters[0].id


@pytest.fixture
def view(qtbot, document: CampaignDocument, character_id: str) -> CharacterSheetView:
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(character_id)
    sheet.resize(1000, 900)
    sheet.show()
    qtbot.waitExposed(sheet)
    return sheet


def current(document: CampaignDocument, character_id: str) -> Character:
    found = document.character(character_id)
    assert found is not None
    return found


def type_into_spin(qtbot, spin, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Return)


# --- identity and characteristics -----------------------------------------------------------


def test_shows_the_character(view: CharacterSheetView) -> None:
    assert view.stack.currentIndex() == 1
    assert view.name_edit.text() == "Aria Vance"
    assert view.player_edit.text() == "Sam"
    assert view.kind_combo.currentData() == CharacterKind.PLAYER.value
    assert view.spin_boxes["str"].value() == 7
    assert view.chm_labels["int"].text() == "+1"
    assert view.chm_labels["end"].text() == "+0"
    assert "786A97" in view.upp_label.text()
    assert "21" in view.hp_label.text()
    assert view.state_label.text() == "Unhurt"
    assert view.penalty_label.text() == "none"
    assert view.hp_bar.track().hp == 21
    assert view.box_chart.track().hp == 21
    assert not view.spin_boxes["psi"].isEnabled()
    assert view.unskilled_label.text() == "Unskilled: -3"
    assert view.hp_bar.objectName() == "hpBar"
    assert view.message_label.objectName() == "sheetMessage"


def test_typing_str_updates_hp_bar_and_undo_restores(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    spin = view.spin_boxes["str"]
    type_into_spin(qtbot, spin, "10")
    assert current(document, character_id).characteristics.strength == 10
    assert "24" in view.hp_label.text()
    assert view.hp_bar.track().hp == 24
    assert view.box_chart.track().hp == 24
    assert view.chm_labels["str"].text() == "+1"
    assert "A86A97" in view.upp_label.text()
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert spin.value() == 7
    assert "21" in view.hp_label.text()
    assert view.hp_bar.track().hp == 21
    assert view.chm_labels["str"].text() == "+0"


def test_spin_box_steps_merge_into_one_undo_step(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    spin = view.spin_boxes["dex"]
    spin.setFocus()
    for _ in range(3):
        qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert current(document, character_id).characteristics.dexterity == 11
    assert document.undo_stack.count() == 1
    assert document.undo_stack.undoText() == "Set DEX to 11"
    document.undo_stack.undo()
    assert current(document, character_id).characteristics.dexterity == 8
    assert spin.value() == 8


def test_set_value_commits_like_typing(view: CharacterSheetView, document: CampaignDocument,
                                       character_id: str) -> None:
    view.spin_boxes["end"].setValue(9)
    view.spin_boxes["end"].editingFinished.emit()
    assert current(document, character_id).characteristics.endurance == 9
    assert view.hp_bar.track().hp == 24


def test_impossible_characteristics_are_refused(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    view.spin_boxes["dex"].setValue(0)
    view.spin_boxes["end"].setValue(0)
    assert document.undo_stack.count() == 2
    view.spin_boxes["str"].setValue(0)
    assert current(document, character_id).characteristics.strength == 7
    assert view.spin_boxes["str"].value() == 7  # the field shows the model again
    assert "STR + DEX + END must be at least 1" in view.message_label.message()
    assert view.message_label.isVisibleTo(view)
    assert document.undo_stack.count() == 2


def test_characteristic_damage_changes_current_value_and_chm(
    view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    view.damage_spin_boxes["int"].setValue(4)
    assert current(document, character_id).characteristic("int") == 6
    assert view.current_labels["int"].text() == "6"
    assert view.chm_labels["int"].text() == "+0"
    assert "786A97" in view.upp_label.text()  # the UPP shows the characteristics themselves


def test_psionic_checkbox_adds_psi(view: CharacterSheetView, document: CampaignDocument,
                                   character_id: str) -> None:
    view.psionic_check.setChecked(True)
    assert current(document, character_id).characteristics.psionic_strength == 0
    assert view.spin_boxes["psi"].isEnabled()
    view.spin_boxes["psi"].setValue(9)
    assert current(document, character_id).characteristics.psionic_strength == 9
    assert view.chm_labels["psi"].text() == "+1"
    assert "786A979" in view.upp_label.text()
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert current(document, character_id).characteristics.psionic_strength is None
    assert not view.psionic_check.isChecked()
    assert view.chm_labels["psi"].text() == "—"


def test_empty_name_is_refused_at_the_field(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    edit = view.name_edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    assert view.name_error_label.isVisibleTo(view)
    assert "required" in view.name_error_label.message()
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert current(document, character_id).name == "Aria Vance"
    assert "cannot be empty" in view.name_error_label.message()
    assert "cannot be empty" in view.message_label.message()
    assert document.undo_stack.count() == 0
    qtbot.keyClicks(edit, "Aria Kane")
    assert view.name_error_label.message() == ""
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert current(document, character_id).name == "Aria Kane"
    assert view.title_label.text() == "Aria Kane"
    assert view.message_label.message() == ""
    document.undo_stack.undo()
    assert edit.text() == "Aria Vance"


def test_player_kind_and_load(qtbot, view: CharacterSheetView, document: CampaignDocument,
                              character_id: str) -> None:
    view.player_edit.setFocus()
    view.player_edit.selectAll()
    qtbot.keyClicks(view.player_edit, "Robin")
    qtbot.keyClick(view.player_edit, Qt.Key.Key_Return)
    assert current(document, character_id).player == "Robin"
    view.kind_combo.setCurrentIndex(view.kind_combo.findData(CharacterKind.NPC.value))
    assert current(document, character_id).kind is CharacterKind.NPC
    view.load_combo.setCurrentIndex(view.load_combo.findData(Load.HEAVY.value))
    assert current(document, character_id).load is Load.HEAVY
    assert document.undo_stack.count() == 3
    document.undo_stack.undo()
    assert view.load_combo.currentData() == Load.LIGHT.value


# --- damage ---------------------------------------------------------------------------------


def test_damage_by_keyboard_on_the_bar_crosses_the_thresholds(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    bar = view.hp_bar
    bar.setFocus()
    states = {}
    for damage in range(1, 16):
        qtbot.keyClick(bar, Qt.Key.Key_Plus)
        assert current(document, character_id).damage == damage
        states[damage] = view.state_label.text()
    assert states[6] == "Wounded"
    assert states[7] == "Seriously Wounded"
    assert states[13] == "Seriously Wounded"
    assert states[14] == "Critically Wounded"
    assert view.penalty_label.text() == "-5 to all rolls"
    assert view.box_chart.track().damage == 15
    assert view.damage_spin.value() == 15
    assert document.undo_stack.count() == 15
    document.undo_stack.undo()
    assert view.state_label.text() == "Critically Wounded"
    assert bar.track().damage == 14
    for _ in range(8):
        document.undo_stack.undo()
    assert view.state_label.text() == "Wounded"
    assert bar.track().damage == 6


def test_box_chart_keys_change_damage_too(qtbot, view: CharacterSheetView,
                                          document: CampaignDocument, character_id: str) -> None:
    chart = view.box_chart
    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_PageUp)
    assert current(document, character_id).damage == 3
    assert view.hp_bar.track().damage == 3
    assert view.penalty_label.text() == "-1 to all rolls"


def test_a_drag_on_the_bar_is_one_undo_step(view: CharacterSheetView,
                                            document: CampaignDocument,
                                            character_id: str) -> None:
    bar = view.hp_bar
    bar.damage_requested.emit(3, False)
    bar.damage_requested.emit(4, True)
    bar.damage_requested.emit(8, True)
    assert current(document, character_id).damage == 8
    assert document.undo_stack.count() == 1
    bar.damage_requested.emit(2, False)  # a new gesture is a new step
    assert document.undo_stack.count() == 2
    document.undo_stack.undo()
    assert current(document, character_id).damage == 8
    document.undo_stack.undo()
    assert current(document, character_id).damage == 0
    assert view.state_label.text() == "Unhurt"


def test_damage_spin_and_rules_option(view: CharacterSheetView, document: CampaignDocument,
                                      character_id: str) -> None:
    view.damage_spin.setValue(8)
    assert view.state_label.text() == "Seriously Wounded"
    assert "Seriously wounded at 7" in view.thresholds_label.text()
    document.campaign.rules_options.threshold_basis = ThresholdBasis.CHARACTERISTIC
    document.announce(ChangeSummary(rules_changed=True))
    # Best physical characteristic is DEX 8: seriously at 8, critically at 16.
    assert "Seriously wounded at 8, critically wounded at 16" in view.thresholds_label.text()
    assert view.hp_bar.track().thresholds.basis is ThresholdBasis.CHARACTERISTIC
    assert view.state_label.text() == "Seriously Wounded"


def test_dead_condition_shows_dead(qtbot, view: CharacterSheetView,
                                   document: CampaignDocument, character_id: str) -> None:
    view.condition_kind_combo.setCurrentIndex(
        view.condition_kind_combo.findData(ConditionKind.DEAD.value))
    qtbot.mouseClick(view.add_condition_button, Qt.MouseButton.LeftButton)
    assert view.state_label.text() == "Dead"
    added = current(document, character_id).conditions[0]
    assert added.started_at == GameTime.at(2, 10, 0)
    assert view.conditions_model.index(0, 2).data() == "Day 2, 10:00"


def test_conditions_add_with_detail_and_remove(qtbot, view: CharacterSheetView,
                                               document: CampaignDocument,
                                               character_id: str) -> None:
    view.condition_kind_combo.setCurrentIndex(
        view.condition_kind_combo.findData(ConditionKind.BLEEDING.value))
    qtbot.keyClicks(view.condition_detail_edit, "left arm")
    qtbot.keyClick(view.condition_detail_edit, Qt.Key.Key_Return)
    assert current(document, character_id).conditions[0].label == "Bleeding (left arm)"
    assert view.condition_detail_edit.text() == ""
    table = view.conditions_view
    table.selectRow(0)
    assert view.remove_condition_button.isEnabled()
    qtbot.mouseClick(view.remove_condition_button, Qt.MouseButton.LeftButton)
    assert current(document, character_id).conditions == []
    document.undo_stack.undo()
    assert len(current(document, character_id).conditions) == 1


# --- skills and weapons ---------------------------------------------------------------------


def test_skills_table_is_sorted_by_name(view: CharacterSheetView) -> None:
    table = view.skills_view
    names = [table.model().index(row, 0).data() for row in range(table.model().rowCount())]
    assert names == ["Athletics", "Medic"]


def test_add_and_remove_a_skill_with_the_buttons(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    qtbot.mouseClick(view.add_skill_button, Qt.MouseButton.LeftButton)
    assert len(current(document, character_id).skills) == 3
    editor = view.skills_view.findChild(QLineEdit, "textCellEditor")
    assert editor is not None and editor.isVisible()  # the new name is ready to type
    editor.selectAll()
    qtbot.keyClicks(editor, "Zero-G")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # Qt commits on Enter through the event loop
    qtbot.waitUntil(lambda: current(document, character_id).skills[2].name == "Zero-G")
    assert [s.name for s in current(document, character_id).skills] == [
        "Medic", "Athletics", "Zero-G"]
    proxy = view.skills_view.model()
    assert [proxy.index(r, 0).data() for r in range(3)] == ["Athletics", "Medic", "Zero-G"]

    view.skills_view.clearSelection()
    assert not view.remove_skill_button.isEnabled()
    view.skills_view.selectionModel().select(
        proxy.index(1, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    assert view.remove_skill_button.isEnabled()
    qtbot.mouseClick(view.remove_skill_button, Qt.MouseButton.LeftButton)
    assert [s.name for s in current(document, character_id).skills] == ["Athletics", "Zero-G"]
    document.undo_stack.undo()
    assert [s.name for s in current(document, character_id).skills] == [
        "Medic", "Athletics", "Zero-G"]
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert [s.name for s in current(document, character_id).skills] == ["Medic", "Athletics"]
    assert view.skills_view.model().rowCount() == 2


def test_skill_level_edited_in_the_table(qtbot, view: CharacterSheetView,
                                         document: CampaignDocument, character_id: str) -> None:
    proxy = view.skills_view.model()
    index = proxy.index(1, 2)  # Medic's level
    view.skills_view.setCurrentIndex(index)
    view.skills_view.edit(index)
    spin = view.skills_view.findChild(object, "integerCellEditor")
    assert spin is not None
    spin.selectAll()
    qtbot.keyClicks(spin, "4")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: current(document, character_id).skills[0].level == 4)
    assert current(document, character_id).skills[0].level == 4
    assert proxy.index(1, 3).data() == "+4"


def test_invalid_dice_typed_in_the_weapon_editor_is_refused(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    table = view.weapons_view
    index = view.weapons_model.index(0, 1)
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.findChild(DiceLineEdit)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "2dx")
    with pytest.raises(DiceParseError) as caught:
        parse_dice("2dx")
    reason = str(caught.value)
    assert editor.problem == reason
    assert editor.toolTip() == reason
    assert reason in view.message_label.message()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # refused at the field: editor stays open
    qtbot.wait(50)  # let a (wrongly) queued commit run, if there were one
    assert editor.isVisible()
    assert current(document, character_id).weapons[0].damage == "3d6"
    assert reason in view.message_label.message()
    delegate = view.delegates["weaponsView"]
    delegate.setModelData(editor, view.weapons_model, index)  # a forced commit
    assert current(document, character_id).weapons[0].damage == "3d6"
    assert view.weapons_model.index(0, 1).data() == "3d6"
    assert reason in view.message_label.message()
    assert document.undo_stack.count() == 0

    editor.selectAll()
    qtbot.keyClicks(editor, "2d6+1")
    assert editor.problem == ""
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: current(document, character_id).weapons[0].damage != "3d6")
    assert current(document, character_id).weapons[0].damage == "2d6+1"
    document.undo_stack.undo()
    assert view.weapons_model.index(0, 1).data() == "3d6"


def test_invalid_dice_left_in_a_closing_editor_says_why(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    table = view.weapons_view
    index = view.weapons_model.index(0, 1)
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.findChild(DiceLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "3d6+")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert current(document, character_id).weapons[0].damage == "3d6"
    assert view.message_label.message().startswith("Damage not changed: ")


def test_add_and_remove_weapon_armor_cover(qtbot, view: CharacterSheetView,
                                           document: CampaignDocument,
                                           character_id: str) -> None:
    for button in (view.add_weapon_button, view.add_armor_button, view.add_cover_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    character = current(document, character_id)
    assert [w.name for w in character.weapons] == ["Autorifle", "New weapon"]
    assert [a.name for a in character.armor] == ["New armor"]
    assert [c.name for c in character.cover_items] == ["New cover"]
    view.weapons_view.selectRow(0)
    qtbot.mouseClick(view.remove_weapon_button, Qt.MouseButton.LeftButton)
    assert [w.name for w in current(document, character_id).weapons] == ["New weapon"]
    document.undo_stack.undo()
    assert view.weapons_model.rowCount() == 2


# --- notes and portrait ---------------------------------------------------------------------


def test_notes_commit_once_per_burst(qtbot, view: CharacterSheetView,
                                     document: CampaignDocument, character_id: str) -> None:
    view.notes_edit.setFocus()
    qtbot.keyClicks(view.notes_edit, "Owes Marcus")
    assert current(document, character_id).notes == ""  # not yet: still typing
    qtbot.waitUntil(lambda: current(document, character_id).notes == "Owes Marcus")
    assert document.undo_stack.count() == 1
    qtbot.keyClicks(view.notes_edit, " 500 Cr")
    view.flush_pending_edits()
    assert current(document, character_id).notes == "Owes Marcus 500 Cr"
    assert document.undo_stack.count() == 2
    document.undo_stack.undo()
    assert view.notes_edit.toPlainText() == "Owes Marcus"


def test_notes_are_committed_when_switching_character(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    qtbot.keyClicks(view.notes_edit, "Scar")
    view.set_character(None)
    assert current(document, character_id).notes == "Scar"


def write_png(path: Path) -> Path:
    image = QImage(16, 16, QImage.Format.Format_ARGB32)
    image.fill(QColor("teal"))
    assert image.save(str(path), "PNG")
    return path


def test_portrait_set_and_removed(qtbot, view: CharacterSheetView, document: CampaignDocument,
                                  character_id: str, tmp_path: Path, monkeypatch) -> None:
    png = write_png(tmp_path / "face.png")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *args, **kwargs: (str(png), "Images"))
    qtbot.mouseClick(view.set_portrait_button, Qt.MouseButton.LeftButton)
    portrait = current(document, character_id).portrait
    assert portrait is not None and portrait.media_type == "image/png"
    assert portrait.image_bytes == png.read_bytes()
    assert not view.portrait_label.pixmap().isNull()
    assert view.remove_portrait_button.isEnabled()
    qtbot.mouseClick(view.remove_portrait_button, Qt.MouseButton.LeftButton)
    assert current(document, character_id).portrait is None
    assert view.portrait_label.text() == "No portrait"
    document.undo_stack.undo()
    assert current(document, character_id).portrait is not None


def test_portrait_refuses_large_files_and_non_images(
    view: CharacterSheetView, document: CampaignDocument, character_id: str, tmp_path: Path
) -> None:
    big = tmp_path / "huge.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_PORTRAIT_BYTES)
    assert view.set_portrait_from_file(big) is False
    assert "at most 2 MiB" in view.message_label.message()
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    assert view.set_portrait_from_file(text) is False
    assert "not a PNG, JPEG, GIF or WebP image" in view.message_label.message()
    assert view.set_portrait_from_file(tmp_path / "missing.png") is False
    assert "Could not read missing.png" in view.message_label.message()
    assert current(document, character_id).portrait is None
    assert document.undo_stack.count() == 0


def test_sniff_image_type() -> None:
    assert sniff_image_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert sniff_image_type(b"GIF89a...") == "image/gif"
    assert sniff_image_type(b"RIFF\0\0\0\0WEBPVP8 ") == "image/webp"
    assert sniff_image_type(b"hello") is None


# --- which character -----------------------------------------------------------------------


def test_empty_state_when_the_character_disappears(qtbot, qapp) -> None:
    document = CampaignDocument(Campaign(name="Empty"))
    view = CharacterSheetView(document)
    qtbot.addWidget(view)
    assert view.stack.currentIndex() == 0
    assert "No character selected" in view.empty_label.text()
    character = make_character()
    add_character(document, character)
    view.set_character(character.id)
    assert view.character_id() == character.id
    assert view.stack.currentIndex() == 1
    document.undo_stack.undo()
    assert view.stack.currentIndex() == 0
    assert "no longer in the campaign" in view.empty_label.text()
    assert view.skills_model.rowCount() == 0
    document.undo_stack.redo()
    assert view.stack.currentIndex() == 1
    assert view.name_edit.text() == "Aria Vance"


def test_edits_an_adversary_template_stat_block(qtbot, qapp) -> None:
    stats = Character(name="Raider", kind=CharacterKind.ADVERSARY,
                      characteristics=Characteristics.of(8, 7, 8, 6, 5, 4))
    template = AdversaryTemplate(stats=stats)
    document = CampaignDocument(Campaign(name="Lib", adversary_library=[template]))
    view = CharacterSheetView(document)
    qtbot.addWidget(view)
    view.set_character(stats.id)
    assert "Adversary template" in view.subtitle_label.text()
    view.spin_boxes["str"].setValue(9)
    assert document.campaign.adversary_library[0].stats.characteristics.strength == 9
    assert "24" in view.hp_label.text()


def test_switching_characters_shows_the_other_one(qtbot, view: CharacterSheetView,
                                                  document: CampaignDocument) -> None:
    other = Character(name="Bob", characteristics=Characteristics.of(5, 5, 5, 5, 5, 5))
    add_character(document, other)
    view.set_character(other.id)
    assert view.name_edit.text() == "Bob"
    assert view.skills_model.rowCount() == 0
    assert view.hp_bar.track().hp == 15


def test_sheet_renders(view: CharacterSheetView, tmp_path: Path) -> None:
    image = view.grab()
    assert not image.isNull()
    assert image.save(str(tmp_path / "sheet.png"))


def test_a_deleted_sheet_no_longer_listens(qtbot, document: CampaignDocument,
                                           character_id: str) -> None:
    sheet = CharacterSheetView(document)
    sheet.set_character(character_id)
    sheet.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(sheet))
    edit_character(document, current(document, character_id), "Hurt",
                   lambda c: setattr(c, "damage", 3))
    document.changed.emit(ChangeSummary(encounter_ids=frozenset({"none"})))
    document.changed.emit(ChangeSummary(structure_changed=True))
    document.changed.emit(ChangeSummary(rules_changed=True))
    assert current(document, character_id).damage == 3


def test_an_out_of_range_keystroke_is_explained(
    qtbot, view: CharacterSheetView, document: CampaignDocument, character_id: str
) -> None:
    spin = view.spin_boxes["str"]
    spin.setFocus()
    spin.lineEdit().selectAll()
    from mneme_desktop.domain import MAX_CHARACTERISTIC

    qtbot.keyClicks(spin, "9")
    qtbot.keyClicks(spin, "9")  # 99 is above the maximum: the keystroke is not taken
    assert spin.lineEdit().text() == "9"
    assert f"Strength runs from 0 to {MAX_CHARACTERISTIC}" in view.message_label.message()
    count = document.undo_stack.count()
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert current(document, character_id).characteristics.strength == 9
    assert document.undo_stack.count() == count + 1


def test_the_weapon_range_editor_opens_as_wide_as_it_needs(qtbot, view: CharacterSheetView
                                                          ) -> None:
    """The Range column is sized to its text ("Close"); its combo box needs more than that
    for the arrow and the longest range, and opens over the next cells rather than clipped."""
    from PySide6.QtWidgets import QComboBox

    table = view.weapons_view
    column = [view.weapons_model.headerData(c, Qt.Orientation.Horizontal)
              for c in range(view.weapons_model.columnCount())].index("Range")
    index = table.model().index(0, column)
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.viewport().findChild(QComboBox)
    assert editor is not None and editor.isVisible()
    assert editor.geometry().width() >= editor.sizeHint().width()
    assert table.viewport().rect().contains(editor.geometry())
    assert editor.geometry().width() > table.columnWidth(column)  # it was clipped to the cell
