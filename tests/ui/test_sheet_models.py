"""The character sheet's table models: data, validation through the domain, undo, signals."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    qInstallMessageHandler,
)
from PySide6.QtGui import QValidator
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox, QStyleOptionViewItem, QWidget

from mneme_desktop.domain import (
    MAX_SKILL_LEVEL,
    Armor,
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    CoverItem,
    GameTime,
    RangeClass,
    Skill,
    Weapon,
)
from mneme_desktop.rules.dice import DiceParseError, Scale, parse_dice
from mneme_desktop.ui.commands import add_character, edit_character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.roles import (
    CHOICES_ROLE,
    EDITOR_ROLE,
    ENTITY_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
    ItemRole,
)
from mneme_desktop.ui.models.sheet_models import (
    ArmorTableModel,
    CharacterItemsModel,
    ConditionsTableModel,
    CoverTableModel,
    SkillsTableModel,
    WeaponsTableModel,
    describe_error,
)
from mneme_desktop.ui.widgets.delegates import (
    DiceLineEdit,
    DiceValidator,
    EditorKind,
    SheetItemDelegate,
    dice_problem,
)

EDIT = Qt.ItemDataRole.EditRole
DISPLAY = Qt.ItemDataRole.DisplayRole


def parser_message(text: str) -> str:
    with pytest.raises(DiceParseError) as caught:
        parse_dice(text)
    return str(caught.value)


def make_character() -> Character:
    return Character(
        name="Aria Vance",
        player="Sam",
        characteristics=Characteristics.of(7, 8, 6, 10, 9, 7),
        skills=[
            Skill(name="Medic", level=1),
            Skill(name="Gun Combat", specialty="Slug Rifle", level=2),
            Skill(name="athletics", level=0),
        ],
        weapons=[
            Weapon(name="Autorifle", damage="3d6", rate_of_attack=4,
                   range_class=RangeClass.LONG, skill="Gun Combat (Slug Rifle)"),
            Weapon(name="Knife", damage="1d3+1", thrown=Decimal("0.5"), skill="Melee (Blade)"),
        ],
        armor=[Armor(name="Mesh", rating=5), Armor(name="Combat Armor", rating=11, worn=False)],
        cover_items=[CoverItem(name="Riot shield", protection=2, hp=20, damage=4)],
        conditions=[Condition(kind=ConditionKind.BLEEDING, detail="left arm",
                              started_at=GameTime.at(3, 14, 30), started_round=4)],
    )


@pytest.fixture
def document(qapp) -> CampaignDocument:
    campaign = Campaign(name="Test", characters=[make_character()],
                        game_time=GameTime.at(5, 9, 15))
    return CampaignDocument(campaign)


@pytest.fixture
def character_id(document: CampaignDocument) -> str:
    return document.campaign.characters[0].id


def current(document: CampaignDocument, character_id: str) -> Character:
    found = document.character(character_id)
    assert found is not None
    return found


class ModelWatch:
    """Qt's model tester, reporting through warnings that the test then checks."""

    def __init__(self, model: QAbstractTableModel | QSortFilterProxyModel, qtlog) -> None:
        self.tester = QAbstractItemModelTester(
            model, QAbstractItemModelTester.FailureReportingMode.Warning
        )
        self._qtlog = qtlog

    def failures(self) -> list[str]:
        return [r.message for r in self._qtlog.records if "FAIL" in r.message]


MODEL_TYPES = [SkillsTableModel, WeaponsTableModel, ArmorTableModel, CoverTableModel,
               ConditionsTableModel]


# --- the model tester over every model -------------------------------------------------------


def test_model_tester_catches_a_broken_model(qapp, qtlog) -> None:
    """The tester reports a real fault as a warning, which pytest-qt turns into a failure
    (category qt.modeltest) and :class:`ModelWatch` checks too: passing it means something."""

    class Broken(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()) -> int:
            return 2  # rows under every cell too: a table must say 0 for a valid parent

        def columnCount(self, parent=QModelIndex()) -> int:
            return 2

        def data(self, index, role=DISPLAY):
            return "x"

    messages: list[str] = []
    model = Broken()
    with qtlog.disabled():
        previous = qInstallMessageHandler(lambda _mode, _context, text: messages.append(text))
        try:
            tester = QAbstractItemModelTester(
                model, QAbstractItemModelTester.FailureReportingMode.Warning
            )
        finally:
            qInstallMessageHandler(previous)
    assert tester is not None
    assert any("FAIL" in message for message in messages)


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_every_model_passes_the_model_tester_through_edits(
    model_type: type[CharacterItemsModel], document: CampaignDocument, character_id: str, qtlog
) -> None:
    model = model_type(document, character_id)
    watch = ModelWatch(model, qtlog)
    assert model.rowCount() > 0
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            for role in (DISPLAY, EDIT, Qt.ItemDataRole.ToolTipRole, SORT_ROLE, EDITOR_ROLE,
                         VALUE_ROLE, CHOICES_ROLE, ENTITY_ROLE):
                model.data(index, role)
    before = model.rowCount()
    assert model.add_item() == before
    assert model.rowCount() == before + 1
    assert model.setData(model.index(before, 0), "", EDIT) in (False, True)
    assert model.remove_rows([0]) is True
    assert model.rowCount() == before
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert model.rowCount() == before
    document.undo_stack.redo()
    model.set_character(None)
    assert model.rowCount() == 0
    model.set_character(character_id)
    assert watch.failures() == []


def test_proxy_over_skills_passes_the_model_tester_and_sorts_by_name(
    document: CampaignDocument, character_id: str, qtlog
) -> None:
    model = SkillsTableModel(document, character_id)
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    proxy.setDynamicSortFilter(True)
    proxy.sort(0)
    watch = ModelWatch(proxy, qtlog)
    names = [proxy.index(row, 0).data() for row in range(proxy.rowCount())]
    assert names == ["athletics", "Gun Combat", "Medic"]
    model.add_item(Skill(name="Broker", level=1))
    names = [proxy.index(row, 0).data() for row in range(proxy.rowCount())]
    assert names == ["athletics", "Broker", "Gun Combat", "Medic"]
    document.undo_stack.undo()
    assert proxy.rowCount() == 3
    assert watch.failures() == []


# --- roles ----------------------------------------------------------------------------------


def test_roles_are_distinct_and_past_user_role() -> None:
    values = [int(role) for role in ItemRole]
    assert len(set(values)) == len(values)
    assert min(values) > int(Qt.ItemDataRole.UserRole)


# --- skills ---------------------------------------------------------------------------------


def test_skill_columns_and_roll_dm(document: CampaignDocument, character_id: str) -> None:
    model = SkillsTableModel(document, character_id)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)]
    assert headers == ["Name", "Specialty", "Level", "Roll DM"]
    assert model.index(1, 0).data() == "Gun Combat"
    assert model.index(1, 1).data() == "Slug Rifle"
    assert model.index(1, 3).data() == "+2"
    assert model.index(2, 3).data() == "+0"
    assert "-3" in model.index(2, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(model.index(0, 3)) & Qt.ItemFlag.ItemIsEditable
    assert model.index(0, 0).data(ENTITY_ROLE) == Skill(name="Medic", level=1)


def test_editing_a_skill_is_undoable(document: CampaignDocument, character_id: str,
                                     qtbot) -> None:
    model = SkillsTableModel(document, character_id)
    with qtbot.waitSignal(model.dataChanged):
        assert model.setData(model.index(0, 2), 3, EDIT)
    assert current(document, character_id).skills[0].level == 3
    assert model.index(0, 3).data() == "+3"
    assert model.setData(model.index(0, 1), "  Trauma ", EDIT)
    assert current(document, character_id).skills[0].specialty == "Trauma"
    assert model.setData(model.index(0, 1), "", EDIT)
    assert current(document, character_id).skills[0].specialty is None
    document.undo_stack.undo()
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert current(document, character_id).skills[0] == Skill(name="Medic", level=1)
    assert model.index(0, 2).data() == "1"


@pytest.mark.parametrize(
    ("column", "value", "expected"),
    [(0, "", "Name: cannot be empty"), (0, "   ", "Name: cannot be empty"),
     (2, MAX_SKILL_LEVEL + 1, "Level: "), (2, -1, "Level: ")],
)
def test_invalid_skill_edits_are_refused_with_a_message(
    document: CampaignDocument, character_id: str, qtbot, column: int, value: object,
    expected: str,
) -> None:
    model = SkillsTableModel(document, character_id)
    before = current(document, character_id).model_copy(deep=True)
    with qtbot.waitSignal(model.edit_rejected) as rejected:
        assert model.setData(model.index(0, column), value, EDIT) is False
    assert rejected.args[0].startswith(expected)
    assert current(document, character_id) == before
    assert document.undo_stack.count() == 0


def test_add_and_remove_skills_with_undo(document: CampaignDocument, character_id: str,
                                         qtbot) -> None:
    model = SkillsTableModel(document, character_id)
    with qtbot.waitSignal(model.rowsInserted):
        row = model.add_item()
    assert row == 3
    assert current(document, character_id).skills[3].name == "New skill"
    with qtbot.waitSignal(model.modelReset):  # two rows apart: not one contiguous removal
        assert model.remove_rows([0, 2])
    assert [s.name for s in current(document, character_id).skills] == ["Gun Combat",
                                                                         "New skill"]
    assert document.undo_stack.undoText() == "Remove 2 skills"
    document.undo_stack.undo()
    assert [s.name for s in current(document, character_id).skills] == [
        "Medic", "Gun Combat", "athletics", "New skill"]
    assert model.rowCount() == 4
    with qtbot.waitSignal(model.rowsRemoved) as removed:
        document.undo_stack.undo()
    assert removed.args[1:] == [3, 3]
    assert model.rowCount() == 3
    assert model.remove_rows([]) is False


def test_model_follows_edits_made_elsewhere(document: CampaignDocument,
                                            character_id: str, qtbot) -> None:
    model = SkillsTableModel(document, character_id)
    character = current(document, character_id)
    with qtbot.waitSignal(model.dataChanged):
        edit_character(document, character, "Train",
                       lambda c: setattr(c, "skills", [Skill(name="Pilot", level=2),
                                                       *c.skills[1:]]))
    assert model.index(0, 0).data() == "Pilot"


def test_model_empties_when_the_character_disappears(qapp) -> None:
    document = CampaignDocument(Campaign(name="Empty"))
    character = make_character()
    add_character(document, character)
    model = WeaponsTableModel(document, character.id)
    assert model.rowCount() == 2
    document.undo_stack.undo()
    assert model.rowCount() == 0
    assert model.data(model.index(0, 0)) is None
    assert model.add_item() is None
    document.undo_stack.redo()
    assert model.rowCount() == 2


# --- weapons --------------------------------------------------------------------------------


def test_weapon_columns(document: CampaignDocument, character_id: str) -> None:
    model = WeaponsTableModel(document, character_id)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(9)]
    assert headers == ["Name", "Damage", "Rate of attack", "Range", "Aim", "Thrown", "Ready",
                       "Reload", "Skill"]
    assert model.index(0, 1).data() == "3d6"
    assert "3 to 18" in model.index(0, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(0, 3).data() == "Long"
    assert model.index(0, 3).data(VALUE_ROLE) == "long"
    assert ("Very Long", "very_long") in model.index(0, 3).data(CHOICES_ROLE)
    # Thrown 0.5 at STR 7: 3 m straight, 10 m lobbed (Ch.6 example).
    assert model.index(1, 5).data() == "0.5 (3 m / 10 m lobbed)"
    assert model.index(1, 5).data(EDIT) == "0.5"
    assert model.index(0, 8).data() == "Gun Combat (Slug Rifle) [+2]"
    assert model.index(1, 8).data() == "Melee (Blade) [-3 (unskilled)]"
    assert model.index(0, 8).data(EDIT) == "Gun Combat (Slug Rifle)"
    assert model.index(0, 1).data(EDITOR_ROLE).kind is EditorKind.DICE


def test_invalid_dice_is_refused_with_the_parsers_message(
    document: CampaignDocument, character_id: str, qtbot
) -> None:
    model = WeaponsTableModel(document, character_id)
    with qtbot.waitSignal(model.edit_rejected) as rejected:
        assert model.setData(model.index(0, 1), "2dx", EDIT) is False
    assert parser_message("2dx") in rejected.args[0]
    assert rejected.args[0].startswith("Damage: ")
    assert current(document, character_id).weapons[0].damage == "3d6"
    assert model.index(0, 1).data() == "3d6"
    assert document.undo_stack.count() == 0


def test_valid_dice_is_stored_canonically_and_undone(document: CampaignDocument,
                                                     character_id: str) -> None:
    model = WeaponsTableModel(document, character_id)
    assert model.setData(model.index(0, 1), "3D3 - 2", EDIT)
    assert current(document, character_id).weapons[0].damage == "3d3-2"
    assert model.setData(model.index(0, 1), "D 2d6", EDIT)
    assert current(document, character_id).weapons[0].scale is Scale.DEKA
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert current(document, character_id).weapons[0].damage == "3d6"


def test_weapon_fields_parse_through_the_domain(document: CampaignDocument,
                                                character_id: str, qtbot) -> None:
    model = WeaponsTableModel(document, character_id)
    assert model.setData(model.index(0, 3), "very_long", EDIT)
    assert current(document, character_id).weapons[0].range_class is RangeClass.VERY_LONG
    assert model.setData(model.index(0, 5), "1.5", EDIT)
    assert current(document, character_id).weapons[0].thrown == Decimal("1.5")
    assert model.setData(model.index(0, 5), "", EDIT)
    assert current(document, character_id).weapons[0].thrown is None
    with qtbot.waitSignal(model.edit_rejected) as rejected:
        assert not model.setData(model.index(0, 5), "far", EDIT)
    assert "Thrown" in rejected.args[0] and "0.5" in rejected.args[0]
    with qtbot.waitSignal(model.edit_rejected):
        assert not model.setData(model.index(0, 2), 0, EDIT)  # rate of attack is at least 1
    with qtbot.waitSignal(model.edit_rejected):
        assert not model.setData(model.index(0, 3), "orbit", EDIT)
    assert model.setData(model.index(1, 8), "Melee (Blade)", EDIT)  # unchanged: no command
    assert document.undo_stack.count() == 3


# --- armor, cover, conditions --------------------------------------------------------------


def test_armor_worn_is_a_check_box(document: CampaignDocument, character_id: str) -> None:
    model = ArmorTableModel(document, character_id)
    worn = model.index(1, 3)
    assert model.flags(worn) & Qt.ItemFlag.ItemIsUserCheckable
    assert not model.flags(worn) & Qt.ItemFlag.ItemIsEditable
    assert worn.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert model.setData(worn, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert current(document, character_id).armor[1].worn is True
    assert worn.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert model.setData(model.index(0, 2), "D", EDIT)
    assert current(document, character_id).armor[0].scale is Scale.DEKA
    assert model.index(0, 2).data() == "Deka"
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert current(document, character_id).armor[1].worn is False


def test_cover_damage_and_negative_refused(document: CampaignDocument, character_id: str,
                                           qtbot) -> None:
    model = CoverTableModel(document, character_id)
    assert model.setData(model.index(0, 3), 9, EDIT)
    assert current(document, character_id).cover_items[0].remaining_hp == 11
    assert "11 of 20" in model.index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(model.edit_rejected):
        assert not model.setData(model.index(0, 1), -1, EDIT)


def test_conditions_start_on_the_campaign_clock(document: CampaignDocument,
                                                character_id: str) -> None:
    model = ConditionsTableModel(document, character_id)
    assert model.index(0, 0).data() == "Bleeding"
    assert model.index(0, 2).data() == "Day 3, 14:30, round 4"
    assert not model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable
    row = model.add_condition(ConditionKind.STUNNED, " head ")
    added = current(document, character_id).conditions[row]
    assert (added.kind, added.detail, added.started_at) == (
        ConditionKind.STUNNED, "head", GameTime.at(5, 9, 15))
    assert model.setData(model.index(row, 1), "right eye", EDIT)
    assert current(document, character_id).conditions[row].detail == "right eye"
    assert model.remove_rows([0])
    assert [c.kind for c in current(document, character_id).conditions] == [
        ConditionKind.STUNNED]
    for _ in range(3):
        document.undo_stack.undo()
    assert model.rowCount() == 1


def test_describe_error_strips_pydantic_framing() -> None:
    with pytest.raises(ValueError) as caught:
        Weapon(name="x", damage="3q")
    assert describe_error(caught.value).startswith("not a dice expression: ")
    with pytest.raises(ValueError) as caught:
        Skill(name="")
    assert describe_error(caught.value) == "cannot be empty"


# --- delegates ------------------------------------------------------------------------------


def test_dice_validator_states() -> None:
    validator = DiceValidator()
    assert validator.validate("3d6", 3)[0] == QValidator.State.Acceptable
    assert validator.validate("3d", 2)[0] == QValidator.State.Intermediate
    assert dice_problem("3d") == parser_message("3d")
    assert dice_problem("D 3d3-2") == ""


def test_dice_line_edit_explains_as_you_type(qtbot) -> None:
    editor = DiceLineEdit()
    qtbot.addWidget(editor)
    problems: list[str] = []
    editor.problem_changed.connect(problems.append)
    qtbot.keyClicks(editor, "2dx")
    assert problems[-1] == parser_message("2dx")
    assert editor.problem == parser_message("2dx")
    assert editor.toolTip() == parser_message("2dx")
    assert not editor.hasAcceptableInput()
    editor.clear()
    qtbot.keyClicks(editor, "2d6+1")
    assert editor.problem == ""
    assert problems[-1] == ""
    assert editor.hasAcceptableInput()


def test_delegate_makes_the_editor_each_column_asks_for(
    document: CampaignDocument, character_id: str, qtbot
) -> None:
    model = WeaponsTableModel(document, character_id)
    delegate = SheetItemDelegate()
    parent = QWidget()
    qtbot.addWidget(parent)
    option = QStyleOptionViewItem()
    rate = delegate.createEditor(parent, option, model.index(0, 2))
    assert isinstance(rate, QSpinBox)
    assert (rate.minimum(), rate.maximum()) == (1, 1000)
    delegate.setEditorData(rate, model.index(0, 2))
    assert rate.value() == 4
    range_editor = delegate.createEditor(parent, option, model.index(0, 3))
    assert isinstance(range_editor, QComboBox)
    delegate.setEditorData(range_editor, model.index(0, 3))
    assert range_editor.currentText() == "Long"
    range_editor.setCurrentIndex(range_editor.findData("short"))
    delegate.setModelData(range_editor, model, model.index(0, 3))
    assert current(document, character_id).weapons[0].range_class is RangeClass.SHORT
    damage = delegate.createEditor(parent, option, model.index(0, 1))
    assert isinstance(damage, DiceLineEdit)
    name = delegate.createEditor(parent, option, model.index(0, 0))
    assert isinstance(name, QLineEdit) and not isinstance(name, DiceLineEdit)
    assert name.maxLength() == 200
