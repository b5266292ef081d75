"""Pick lists on the sheet, driven as a referee uses them: a skill name completed from the
catalogue while typing, a weapon's skill chosen from the character's skills or the
catalogue (unskilled -3 shown), weapons and armor added from the catalogue with every
column filled; unknown skills refused naming them; each one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QLineEdit, QTableView

from mneme_desktop.domain import (
    Armor,
    Campaign,
    Character,
    Characteristics,
    GameTime,
    Skill,
    Weapon,
)
from mneme_desktop.domain.catalogue import CampaignCatalogue, catalogue_for
from mneme_desktop.ui.catalogue_commands import edit_catalogue
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.roles import CHOICES_ROLE
from mneme_desktop.ui.models.sheet_models import weapon_skill_choices
from mneme_desktop.ui.views.character_sheet import CharacterSheetView


@pytest.fixture
def document(qapp) -> CampaignDocument:
    character = Character(
        name="Aria Vance",
        characteristics=Characteristics.of(7, 8, 6, 10, 9, 7),
        skills=[Skill(name="Medic", level=1), Skill(name="Gun Combat", specialty="Slug Rifle",
                                                    level=2)],
        weapons=[Weapon(name="Autorifle", damage="3d6", skill="Gun Combat (Slug Rifle)")],
    )
    return CampaignDocument(Campaign(name="Test", characters=[character],
                                     game_time=GameTime.at(2, 10, 0)))


@pytest.fixture
def view(qtbot, document: CampaignDocument) -> CharacterSheetView:
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(document.campaign.characters[0].id)
    sheet.resize(1100, 900)
    sheet.show()
    qtbot.waitExposed(sheet)
    return sheet


def me(document: CampaignDocument) -> Character:
    return document.campaign.characters[0]


def _open_editor(qtbot, table: QTableView, row: int, column: int) -> QLineEdit:
    index = table.model().index(row, column)
    table.scrollTo(index)
    table.setFocus()
    table.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.findChild(QLineEdit, "textCellEditor")
    assert editor is not None and editor.isVisible()
    qtbot.waitUntil(editor.hasFocus)
    return editor


def _pick_completion(qtbot, editor: QLineEdit, typed: str, wanted: str) -> list[str]:
    """Type ``typed``, then move down the completer's list to ``wanted`` and press Enter;
    the list as shown."""
    editor.selectAll()
    qtbot.keyClicks(editor, typed)
    completer = editor.completer()
    assert completer is not None
    popup = completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    model = popup.model()
    shown = [str(model.index(r, 0).data()) for r in range(model.rowCount())]
    target = next(r for r, text in enumerate(shown) if text.startswith(wanted))
    for _ in range(target + 1):
        qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert editor.text() == wanted
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    return shown


def test_a_skill_name_completes_from_the_catalogue(qtbot, view: CharacterSheetView,
                                                   document: CampaignDocument) -> None:
    qtbot.mouseClick(view.add_skill_button, Qt.MouseButton.LeftButton)
    assert len(me(document).skills) == 3
    editor = view.skills_view.findChild(QLineEdit, "textCellEditor")
    assert editor is not None
    qtbot.waitUntil(editor.hasFocus)
    shown = _pick_completion(qtbot, editor, "slash", "Melee Combat (Slashing)")
    assert shown == ["Melee Combat (Slashing)"]  # any part of the name finds it
    qtbot.waitUntil(lambda: me(document).skills[2].name == "Melee Combat")
    assert me(document).skills[2].specialty == "Slashing"  # the label set both fields
    document.undo_stack.undo()
    assert me(document).skills[2].name == "New skill"
    document.undo_stack.undo()
    assert len(me(document).skills) == 2


def test_the_specialty_cell_offers_the_skills_specialties(view: CharacterSheetView) -> None:
    proxy = view.skills_view.model()
    rows = {proxy.index(r, 0).data(): r for r in range(proxy.rowCount())}
    gun_choices = proxy.index(rows["Gun Combat"], 1).data(CHOICES_ROLE)
    assert ("Slug Pistol", "Slug Pistol") in gun_choices
    assert proxy.index(rows["Medic"], 1).data(CHOICES_ROLE) == []


def test_an_unknown_skill_is_refused_naming_it(qtbot, view: CharacterSheetView,
                                               document: CampaignDocument) -> None:
    proxy = view.skills_view.model()
    depth = document.undo_stack.count()
    editor = _open_editor(qtbot, view.skills_view, 1, 0)  # Medic
    editor.selectAll()
    qtbot.keyClicks(editor, "Basket Weaving")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Basket Weaving" in view.message_line.message())
    assert "unknown skill" in view.message_line.message()
    assert "Catalogue" in view.message_line.message()
    assert [s.name for s in me(document).skills] == ["Medic", "Gun Combat"]
    assert document.undo_stack.count() == depth
    assert proxy.index(1, 0).data() == "Medic"


def test_a_campaign_skill_is_offered_and_accepted(qtbot, view: CharacterSheetView,
                                                  document: CampaignDocument) -> None:
    from mneme_desktop.domain.catalogue import SkillEntry

    edit_catalogue(document, "Catalogue: add Xenology",
                   lambda c: c.skills.append(SkillEntry(name="Xenology", specialties=["Fauna"])))
    editor = _open_editor(qtbot, view.skills_view, 1, 0)
    _pick_completion(qtbot, editor, "xeno", "Xenology (Fauna)")
    qtbot.waitUntil(lambda: me(document).skills[0].name == "Xenology")
    assert me(document).skills[0].specialty == "Fauna"


def test_a_weapons_skill_is_picked_with_the_dm_it_rolls_at(qtbot, view: CharacterSheetView,
                                                           document: CampaignDocument) -> None:
    column = 8
    choices = view.weapons_model.index(0, column).data(CHOICES_ROLE)
    labels = [shown for shown, _value in choices]
    # the character's own skills first, each with its DM; then the catalogue's
    assert labels[:2] == ["Gun Combat (Slug Rifle)  +2", "Medic  +1"]
    assert "Melee Combat (Slashing)  unskilled -3" in labels
    editor = _open_editor(qtbot, view.weapons_view, 0, column)
    _pick_completion(qtbot, editor, "slashing", "Melee Combat (Slashing)")
    qtbot.waitUntil(lambda: me(document).weapons[0].skill == "Melee Combat (Slashing)")
    assert view.weapons_model.index(0, column).data() == \
        "Melee Combat (Slashing) [-3 (unskilled)]"
    document.undo_stack.undo()
    assert me(document).weapons[0].skill == "Gun Combat (Slug Rifle)"


def test_a_weapons_unknown_skill_is_refused(qtbot, view: CharacterSheetView,
                                            document: CampaignDocument) -> None:
    editor = _open_editor(qtbot, view.weapons_view, 0, 8)
    editor.selectAll()
    qtbot.keyClicks(editor, "Gun Kombat")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Gun Kombat" in view.message_line.message())
    assert me(document).weapons[0].skill == "Gun Combat (Slug Rifle)"


def test_weapon_skill_choices_hold_each_skill_once() -> None:
    character = Character(name="X", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
                          skills=[Skill(name="Gun Combat", level=1)])
    choices = weapon_skill_choices(character, catalogue_for())
    values = [value for _shown, value in choices]
    assert len(values) == len(set(values))
    # holding Gun Combat without specialty covers every specialty: +1, not unskilled
    assert ("Gun Combat (Archery)  +1", "Gun Combat (Archery)") in choices


def test_a_weapon_from_the_catalogue_fills_every_column(qtbot, view: CharacterSheetView,
                                                        document: CampaignDocument) -> None:
    combo = view.weapon_catalogue_combo
    combo.setFocus()
    qtbot.keyClicks(combo, "Throwing Axe")
    qtbot.mouseClick(view.add_weapon_from_catalogue_button, Qt.MouseButton.LeftButton)
    weapons = me(document).weapons
    assert len(weapons) == 2
    assert weapons[1] == catalogue_for().weapon("Throwing Axe")  # every column, notes too
    assert combo.currentText() == ""
    assert document.undo_stack.undoText() == "Add weapon Throwing Axe"
    document.undo_stack.undo()
    assert len(me(document).weapons) == 1


def test_armor_from_the_catalogue_by_its_list(qtbot, view: CharacterSheetView,
                                              document: CampaignDocument) -> None:
    combo = view.armor_catalogue_combo
    combo.showPopup()  # the list opened
    names = [combo.itemText(i) for i in range(combo.count())]
    combo.hidePopup()
    assert {"Jack", "Mesh", "Cloth", "Vacc Suit", "Combat Armor", "Battle Dress"} <= set(names)
    combo.setFocus()
    combo.setCurrentIndex(names.index("Battle Dress"))
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    assert me(document).armor == [Armor(name="Battle Dress", rating=18)]
    document.undo_stack.undo()
    assert me(document).armor == []


def test_the_catalogue_lists_fill_when_first_focused_or_opened(
        qtbot, view: CharacterSheetView, document: CampaignDocument) -> None:
    """Not with the sheet (~5 ms of every start): the list is there before it can be seen
    or typed into, with the campaign's entries as they are then."""
    weapons, armor = view.weapon_picker, view.armor_picker
    assert not weapons.filled and view.weapon_catalogue_combo.count() == 0
    edit_catalogue(document, "Catalogue: add Ablat",
                   lambda c: c.armor.append(Armor(name="Ablat", rating=7)))
    assert not armor.filled  # filled later, with the new entry
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.weapon_catalogue_combo.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: weapons.filled)
    assert view.weapon_catalogue_combo.findText("Throwing Axe") >= 0
    assert not armor.filled
    view.armor_catalogue_combo.showPopup()
    assert armor.filled and view.armor_catalogue_combo.findText("Ablat") >= 0
    view.armor_catalogue_combo.hidePopup()
    width = view.armor_catalogue_combo.width()
    assert width == view.weapon_catalogue_combo.width()  # the same whether filled or not


def test_an_entry_not_in_the_catalogue_is_refused(qtbot, view: CharacterSheetView,
                                                  document: CampaignDocument) -> None:
    combo = view.weapon_catalogue_combo
    combo.setFocus()
    qtbot.keyClicks(combo, "Phaser")
    qtbot.mouseClick(view.add_weapon_from_catalogue_button, Qt.MouseButton.LeftButton)
    assert "Phaser" in view.message_line.message()
    assert len(me(document).weapons) == 1


def test_campaign_entries_reach_the_pickers(qtbot, view: CharacterSheetView,
                                            document: CampaignDocument) -> None:
    edit_catalogue(document, "Catalogue: add Ablat",
                   lambda c: c.armor.append(Armor(name="Ablat", rating=7)))
    combo = view.armor_catalogue_combo
    combo.showPopup()
    assert "Ablat" in [combo.itemText(i) for i in range(combo.count())]
    document.undo_stack.undo()  # the list filled: the step changes it at once
    assert "Ablat" not in [combo.itemText(i) for i in range(combo.count())]
    combo.hidePopup()
    assert document.campaign.catalogue == CampaignCatalogue()


def test_the_sheet_models_pass_the_model_tester(view: CharacterSheetView) -> None:
    for model in (view.skills_model, view.weapons_model):
        QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)


def test_an_empty_pick_says_what_to_choose_in_a_whole_sentence(
        qtbot, view: CharacterSheetView) -> None:
    """QA: "Choose a armor from the catalogue first." (a noun put into one sentence)."""
    qtbot.mouseClick(view.add_armor_from_catalogue_button, Qt.MouseButton.LeftButton)
    assert view.message_line.message() == "Choose armor from the catalogue first."
    qtbot.mouseClick(view.add_weapon_from_catalogue_button, Qt.MouseButton.LeftButton)
    assert view.message_line.message() == "Choose a weapon from the catalogue first."
