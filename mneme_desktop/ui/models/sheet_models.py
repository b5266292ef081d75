"""Table models for the lists on a character sheet: skills, weapons, armor, cover, conditions.

Each model shows one list of one character, read from the document every time the document
says that character changed (an edit here, an undo, an edit from another view). Edits build
the new item through the domain model, so pydantic decides what is valid, and go onto the
undo stack through :func:`~mneme_desktop.ui.commands.edit_character`; a refused edit changes
nothing and is explained through :attr:`CharacterItemsModel.edit_rejected`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any, ClassVar, cast

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from mneme_desktop.domain import (
    MAX_SKILL_LEVEL,
    Armor,
    Character,
    Condition,
    ConditionKind,
    CoverItem,
    RangeClass,
    Skill,
    Weapon,
)
from mneme_desktop.domain.catalogue import Catalogue, UnknownSkillError, catalogue_for
from mneme_desktop.domain.character import MAX_AMOUNT
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.actions import thrown_range
from mneme_desktop.rules.checks import UNSKILLED
from mneme_desktop.rules.damage import parse_hit_points
from mneme_desktop.rules.dice import Scale
from mneme_desktop.ui.commands import edit_character
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.headed_table import ColumnsTableModel
from mneme_desktop.ui.models.roles import (
    CHOICES_ROLE,
    EDITOR_ROLE,
    ENTITY_ROLE,
    ID_ROLE,
    RULE_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
)
from mneme_desktop.ui.widgets.delegates import EditorKind, EditorSpec

# Roles as plain ints, compared once per call of data() (a Qt enum's attribute and its
# comparison cost more than the rest of a typical call).
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_EDIT = Qt.ItemDataRole.EditRole.value
_CHECK_STATE = Qt.ItemDataRole.CheckStateRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
_NUMBER_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ANSWERED = frozenset({_DISPLAY, _EDIT, _CHECK_STATE, _TOOLTIP, _ALIGNMENT, SORT_ROLE,
                       ENTITY_ROLE, ID_ROLE, VALUE_ROLE, CHOICES_ROLE, EDITOR_ROLE, RULE_ROLE})

_CTX = "SheetModels"

__all__ = [
    "ArmorTableModel",
    "CharacterItemsModel",
    "Column",
    "ConditionsTableModel",
    "CoverTableModel",
    "SkillsTableModel",
    "WeaponsTableModel",
    "aim_text",
    "decimal_text",
    "describe_error",
    "enum_parser",
    "format_modifier",
    "parse_integer",
    "parse_text",
    "parse_thrown",
    "skill_dm_text",
    "text_editor",
    "weapon_skill_choices",
]

_Index = QModelIndex | QPersistentModelIndex
_Item = Any  # a pydantic item model (Skill, Weapon ...); Qt classes cannot be Generic


def format_modifier(value: int) -> str:
    """A DM as the book writes it: +1, +0, -2."""
    return f"{value:+d}"


def describe_error(exc: Exception) -> str:
    """A refusal in the referee's words: pydantic's messages without its framing."""
    if isinstance(exc, UnknownSkillError):
        return tr(_CTX, "unknown skill “{0}”: pick one from the list, or add it to the "
                        "campaign's catalogue first (Campaign > Catalogue…)").format(exc.label)
    if isinstance(exc, ValidationError):
        parts: list[str] = []
        for error in exc.errors():
            message = str(error["msg"])
            if message.startswith("Value error, "):
                message = message.removeprefix("Value error, ")
            if error["type"] == "string_too_short" and error.get("ctx", {}).get(
                "min_length"
            ) == 1:
                message = tr(_CTX, "cannot be empty")
            if message not in parts:
                parts.append(message)
        return "; ".join(parts)
    return str(exc)


def skill_dm_text(character: Character, skill_label: str) -> str:
    """The DM a check with ``skill_label`` rolls at: the level held, or unskilled -3."""
    if not skill_label.strip():
        return ""
    level = character.skill_level(skill_label)
    if level is None:
        return tr(_CTX, "{0} (unskilled)").format(format_modifier(UNSKILLED))
    return format_modifier(level)


@dataclass(frozen=True)
class Column:
    """One column: how a cell shows, sorts and is edited.

    ``field`` is the item attribute an edit replaces (None: a derived, read-only column);
    ``parse`` turns what the editor produced into the field's value and raises ValueError
    with a message when it cannot.
    """

    header: str
    display: Callable[[_Item, Character], str]
    field: str | None = None
    editor: EditorSpec | None = None
    checkable: bool = False
    edit_value: Callable[[_Item], object] | None = None
    parse: Callable[[object], object] | None = None
    sort_key: Callable[[_Item], str | int] | None = None
    tooltip: Callable[[_Item, Character], str] | None = None
    choices: tuple[tuple[str, object], ...] = ()
    numeric: bool = False
    header_tooltip: str = ""


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(tr(_CTX, "expected text"))
    return value.strip()


def _optional_text(value: object) -> str | None:
    return _text(value) or None


def _integer(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError(tr(_CTX, "expected a whole number"))
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(tr(_CTX, "{0!r} is not a whole number").format(value)) from None


def _enum_parser(enum_type: type[Enum]) -> Callable[[object], object]:
    def parse(value: object) -> object:
        try:
            return enum_type(value)
        except ValueError:
            known = ", ".join(str(member.value) for member in enum_type)
            raise ValueError(tr(_CTX, "{0!r} is not one of {1}").format(value, known)) from None

    return parse


def _thrown(value: object) -> Decimal | None:
    text = str(value).strip() if value is not None else ""
    if not text:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError(
            tr(_CTX, "{0!r} is not a number: write the Thrown value like 0.5 or 1.5, or leave it "
                     "empty for a weapon that is not thrown").format(text)
        ) from None


parse_text = _text
parse_integer = _integer
enum_parser = _enum_parser


def _text_editor(max_length: int, placeholder: str = "") -> EditorSpec:
    return EditorSpec(EditorKind.TEXT, max_length=max_length, placeholder=placeholder)


text_editor = _text_editor
parse_thrown = _thrown


def _int_editor(minimum: int, maximum: int) -> EditorSpec:
    return EditorSpec(EditorKind.INTEGER, minimum=minimum, maximum=maximum)


def _choice_editor() -> EditorSpec:
    return EditorSpec(EditorKind.CHOICE)


def _decimal_text(value: Decimal) -> str:
    """0.5, 1.5, 10 - a Decimal without trailing zeros or exponent."""
    return format(value.normalize(), "f")


decimal_text = _decimal_text


def _item_label(item: _Item, noun: str) -> str:
    return str(getattr(item, "name", None) or getattr(item, "label", None) or noun)


def _casefold_sort(item: _Item) -> str:
    return str(item.name).casefold()


class CharacterItemsModel(ColumnsTableModel):
    """One list of one character (``list_field``) as a table of ``columns``.

    The rows are a snapshot of the list, renewed when ``document.changed`` touches the
    sheet: an equal length is a dataChanged, one contiguous insertion or removal is reported
    as such (so selections survive), anything else is a reset.
    """

    edit_rejected = Signal(str)
    """An edit was refused; the message says why (nothing was changed)."""

    tr_context = _CTX
    item_type: ClassVar[type[BaseModel]]
    list_field: ClassVar[str]
    noun: ClassVar[str]
    nouns: ClassVar[str]
    """What one item (``noun``) and several (``nouns``) are called, untranslated source
    texts (marked with :func:`tr_noop`, translated where shown)."""
    columns: tuple[Column, ...]

    def __init__(self, document: CampaignDocument, character_id: str | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._character_id: str | None = None
        self._rows: list[_Item] = []
        document.changed.connect(self._document_changed)
        self.set_character(character_id)

    # --- the character ---------------------------------------------------------------------

    def set_character(self, character_id: str | None) -> None:
        self.beginResetModel()
        self._character_id = character_id
        self._rows = self._current_items()
        self.endResetModel()

    def character_id(self) -> str | None:
        return self._character_id

    def character(self) -> Character | None:
        if self._character_id is None:
            return None
        return self._document.character(self._character_id)

    def item(self, row: int) -> _Item:
        return self._rows[row]

    def items(self) -> list[_Item]:
        return list(self._rows)

    def _current_items(self) -> list[_Item]:
        character = self.character()
        return list(getattr(character, self.list_field)) if character is not None else []

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.touches_sheet(self._character_id, self._document.campaign):
            self._refresh()

    def _refresh(self) -> None:
        old, new = self._rows, self._current_items()
        if len(new) == len(old):
            self._rows = new
            if new and new != old:
                self.dataChanged.emit(self.index(0, 0),
                                      self.index(len(new) - 1, len(self.columns) - 1))
            return
        prefix = 0
        while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
            prefix += 1
        count = abs(len(new) - len(old))
        if len(new) > len(old) and new[prefix + count:] == old[prefix:]:
            self.beginInsertRows(QModelIndex(), prefix, prefix + count - 1)
            self._rows = new
            self.endInsertRows()
        elif len(new) < len(old) and old[prefix + count:] == new[prefix:]:
            self.beginRemoveRows(QModelIndex(), prefix, prefix + count - 1)
            self._rows = new
            self.endRemoveRows()
        else:
            self.beginResetModel()
            self._rows = new
            self.endResetModel()

    # --- Qt model interface ----------------------------------------------------------------

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        column = self.columns[index.column()]
        if column.checkable:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        elif column.field is not None:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        # Qt asks ~10 roles per cell at every paint; most are none of ours (see _ANSWERED).
        if role not in _ANSWERED or not index.isValid() \
                or not 0 <= index.row() < len(self._rows):
            return None
        character = self.character()
        if character is None:
            return None
        item = self._rows[index.row()]
        column = self.columns[index.column()]
        if role == _DISPLAY:
            return "" if column.checkable else column.display(item, character)
        if role == _EDIT:
            return self._edit_value(column, item)
        if role == _CHECK_STATE and column.checkable:
            checked = bool(getattr(item, column.field or ""))
            return Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        if role == _TOOLTIP and column.tooltip is not None:
            return column.tooltip(item, character) or None
        if role == _ALIGNMENT and column.numeric:
            return _NUMBER_ALIGNMENT
        if role == SORT_ROLE:
            if column.sort_key is not None:
                return column.sort_key(item)
            return column.display(item, character).casefold()
        if role == ENTITY_ROLE:
            return item
        if role == ID_ROLE:
            return getattr(item, "id", None)
        if role == VALUE_ROLE and column.field is not None:
            value = getattr(item, column.field)
            return value.value if isinstance(value, Enum) else value
        if role == CHOICES_ROLE:
            completions = self.completions(index.column(), item, character)
            if completions is not None:
                return completions
            return list(column.choices) if column.choices else None
        if role == EDITOR_ROLE:
            return column.editor
        if role == RULE_ROLE and column.tooltip is not None:
            return column.tooltip(item, character) or None
        return None

    @staticmethod
    def _edit_value(column: Column, item: _Item) -> object:
        if column.edit_value is not None:
            return column.edit_value(item)
        if column.field is None:
            return None
        value = getattr(item, column.field)
        if isinstance(value, Enum):
            return value.value
        return value

    def setData(self, index: _Index, value: object,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return False
        column = self.columns[index.column()]
        if column.field is None:
            return False
        if column.checkable:
            if role != Qt.ItemDataRole.CheckStateRole:
                return False
            state = (value if isinstance(value, Qt.CheckState)
                     else Qt.CheckState(int(cast(int, value))))
            value = state == Qt.CheckState.Checked
        elif role != Qt.ItemDataRole.EditRole:
            return False
        row = index.row()
        item = self._rows[row]
        try:
            new_value = column.parse(value) if column.parse is not None else value
            updates = self.field_updates(column, item, new_value)
            edited = self.item_type.model_validate({**item.model_dump(), **updates})
        except (ValidationError, ValueError, TypeError) as exc:
            self._reject(tr(_CTX, "{0}: {1}").format(tr(_CTX, column.header), describe_error(exc)))
            return False
        if edited == item:
            return True
        field = self.list_field

        def change(character: Character) -> None:
            items = list(getattr(character, field))
            items[row] = edited
            setattr(character, field, items)

        label = _item_label(item, tr(_CTX, self.noun))
        text = tr(_CTX, "Edit {0} of {1}").format(tr(_CTX, column.header).lower(), label)
        return self._edit(text, change)

    # --- pick lists ---------------------------------------------------------------------------

    def catalogue(self) -> Catalogue:
        """The catalogue the campaign plays with (built-in and its own entries)."""
        return catalogue_for(self._document.campaign.catalogue)

    def completions(self, column: int, item: _Item,
                    character: Character) -> list[tuple[str, str]] | None:
        """What a text cell offers while typing, as ``(shown, inserted)`` pairs; None for a
        cell without a pick list."""
        return None

    def field_updates(self, column: Column, item: _Item, value: object) -> dict[str, object]:
        """The fields an edit of ``column`` sets; raises ValueError to refuse it."""
        assert column.field is not None
        return {column.field: value}

    # --- adding and removing -----------------------------------------------------------------

    def new_item(self) -> BaseModel:
        """The item an "Add" button appends, for the referee to fill in."""
        raise NotImplementedError

    def add_item(self, item: BaseModel | None = None) -> int | None:
        """Append ``item`` (or :meth:`new_item`) as one undoable edit; its row, or None."""
        if self.character() is None:
            return None
        added = item if item is not None else self.new_item()
        field = self.list_field

        def change(character: Character) -> None:
            setattr(character, field, [*getattr(character, field), added])

        noun = tr(_CTX, self.noun)
        name = _item_label(added, noun)
        if not self._edit(tr(_CTX, "Add {0} {1}").format(noun, name), change):
            return None
        return len(self._rows) - 1

    def remove_rows(self, rows: Iterable[int]) -> bool:
        """Remove the given rows as one undoable edit."""
        doomed = sorted({row for row in rows if 0 <= row < len(self._rows)})
        if not doomed or self.character() is None:
            return False
        field = self.list_field
        noun = tr(_CTX, self.noun)
        names = [_item_label(self._rows[row], noun) for row in doomed]

        def change(character: Character) -> None:
            items = list(getattr(character, field))
            setattr(character, field, [x for i, x in enumerate(items) if i not in doomed])

        text = (tr(_CTX, "Remove {0} {1}").format(noun, names[0]) if len(names) == 1
                else tr(_CTX, "Remove {0} {1}").format(len(names), tr(_CTX, self.nouns)))
        return self._edit(text, change)

    # --- helpers -------------------------------------------------------------------------------

    def _edit(self, text: str, change: Callable[[Character], None]) -> bool:
        character = self.character()
        if character is None:
            self._reject(tr(_CTX, "This character is no longer in the campaign."))
            return False
        try:
            edit_character(self._document, character, text, change)
        except (ValidationError, ValueError) as exc:
            self._reject(describe_error(exc))
            return False
        return True

    def _reject(self, message: str) -> None:
        self.edit_rejected.emit(message)


# --- skills ----------------------------------------------------------------------------------


def _skill_sort(skill: Skill) -> str:
    return f"{skill.name.casefold()}\x00{(skill.specialty or '').casefold()}"


def _skill_dm_tooltip(skill: Skill, _character: Character) -> str:
    return (
        tr(_CTX, "Skill-{0} adds {1} to checks with {2}. Without any level in a skill a check is "
                 "made unskilled, at {3}; Skill-0 is a skill and rolls at +0.").format(
                     skill.level, format_modifier(skill.level), skill.label,
                     format_modifier(UNSKILLED))
    )


class SkillsTableModel(CharacterItemsModel):
    """Skills as Name, Specialty, Level and the Roll DM a check with them takes."""

    item_type = Skill
    list_field = "skills"
    noun = tr_noop(_CTX, "skill")
    nouns = tr_noop(_CTX, "skills")
    columns = (
        Column(tr_noop(_CTX, "Name"), lambda s, _c: s.name, "name", _text_editor(100), parse=_text,
               sort_key=_skill_sort),
        Column(tr_noop(_CTX, "Specialty"), lambda s, _c: s.specialty or "", "specialty",
               _text_editor(100, tr_noop(_CTX, "none")), edit_value=lambda s: s.specialty or "",
               parse=_optional_text),
        Column(tr_noop(_CTX, "Level"),
               lambda s, _c: str(s.level), "level", _int_editor(0, MAX_SKILL_LEVEL),
               parse=_integer, sort_key=lambda s: s.level, numeric=True),
        Column(tr_noop(_CTX, "Roll DM"),
               lambda s, _c: format_modifier(s.level), sort_key=lambda s: s.level,
               tooltip=_skill_dm_tooltip, numeric=True,
               header_tooltip=tr_noop(_CTX, "The level held; unskilled checks take -3")),
    )

    def new_item(self) -> Skill:
        return Skill(name=tr(_CTX, "New skill"), level=0)

    def completions(self, column: int, item: _Item,
                    character: Character) -> list[tuple[str, str]] | None:
        if column == 0:
            return [(label, label) for label in self.catalogue().skill_labels()]
        if column == 1:
            entry = self.catalogue().skill(item.name)
            return [(s, s) for s in entry.specialties] if entry is not None else []
        return None

    def field_updates(self, column: Column, item: _Item, value: object) -> dict[str, object]:
        """A name is checked against the catalogue and spelt as it spells it; a typed
        "Gun Combat (Slug Rifle)" sets the specialty too."""
        if column.field != "name" or not isinstance(value, str) or not value:
            return super().field_updates(column, item, value)
        if value == item.name:
            return {"name": value}
        name, specialty = self.catalogue().canonical_skill(value)
        updates: dict[str, object] = {"name": name}
        if specialty is not None:
            updates["specialty"] = specialty
        return updates


# --- weapons ---------------------------------------------------------------------------------


def _damage_tooltip(weapon: Weapon, _character: Character) -> str:
    dice = weapon.damage_dice
    scale = ""
    if dice.scale is not Scale.NONE:
        scale = tr(_CTX, ", {0} scale (x{1})").format(dice.scale.label, dice.scale.multiplier)
    mean = float(dice.mean)
    return tr(_CTX, "{0}: {1} to {2}, average {3:g}{4}").format(
            dice, dice.minimum, dice.maximum, mean, scale)


def aim_text(aim_modifier: int) -> str:
    """A weapon's aim modifier as the sheet and the catalogue both show it: "+2" or "none"."""
    return f"+{aim_modifier}" if aim_modifier else tr(_CTX, "none")


def _aim_text(weapon: Weapon, _character: Character) -> str:
    return aim_text(weapon.aim_modifier)


def _aim_tooltip(weapon: Weapon, _character: Character) -> str:
    if weapon.aim_modifier:
        return tr(_CTX, "Each aim action gives +{0} to the next attack (at most 6 aims).").format(
                weapon.aim_modifier)
    return tr(_CTX, "No aim modifier: each aim action gives +1 to the next attack (at most +6).")


def _thrown_text(weapon: Weapon, character: Character) -> str:
    if weapon.thrown is None:
        return ""
    strength = character.characteristic("str") or 0
    straight, lobbed = thrown_range(strength, str(weapon.thrown))
    return tr(_CTX, "{0} ({1} m / {2} m lobbed)").format(
            _decimal_text(weapon.thrown), straight, lobbed)


def _thrown_tooltip(weapon: Weapon, character: Character) -> str:
    if weapon.thrown is None:
        return tr(_CTX, "Not a thrown weapon (type a Thrown value like 0.5 to make it one).")
    strength = character.characteristic("str") or 0
    thrown = _decimal_text(weapon.thrown)
    return (tr(_CTX, "Thrown {0}: STR {1} x {2} metres straight, three times that lobbed, "
                     "rounded down.").format(thrown, strength, thrown))


def _weapon_skill_text(weapon: Weapon, character: Character) -> str:
    dm = skill_dm_text(character, weapon.skill)
    return f"{weapon.skill} [{dm}]" if dm else ""


def _weapon_skill_tooltip(weapon: Weapon, character: Character) -> str:
    if not weapon.skill.strip():
        return tr(_CTX, "The skill this weapon is used with, e.g. Gun Combat (Slug Rifle).")
    level = character.skill_level(weapon.skill)
    if level is None:
        return (tr(_CTX, "{0} has no {1}: attacks are unskilled, at {2}.").format(
                character.name, weapon.skill, format_modifier(UNSKILLED)))
    return tr(_CTX, "{0} rolls {1} at {2}.").format(
            character.name, weapon.skill, format_modifier(level))


class WeaponsTableModel(CharacterItemsModel):
    """Weapons as their stat lines; damage dice are checked by the rules core's parser."""

    item_type = Weapon
    list_field = "weapons"
    noun = tr_noop(_CTX, "weapon")
    nouns = tr_noop(_CTX, "weapons")
    columns = (
        Column(tr_noop(_CTX, "Name"), lambda w, _c: w.name, "name", _text_editor(200), parse=_text,
               sort_key=_casefold_sort),
        Column(tr_noop(_CTX, "Damage"),
               lambda w, _c: w.damage, "damage", EditorSpec(EditorKind.DICE),
               parse=_text, tooltip=_damage_tooltip,
               header_tooltip=tr_noop(_CTX, "Damage dice, e.g. 3d6, 3d3-2; a D, H or K prefix "
                                            "sets the scale")),
        Column(tr_noop(_CTX, "Rate of attack"),
               lambda w, _c: str(w.rate_of_attack), "rate_of_attack",
               _int_editor(1, 1000), parse=_integer, sort_key=lambda w: w.rate_of_attack,
               numeric=True),
        Column(tr_noop(_CTX, "Range"),
               lambda w, _c: w.range_class.label, "range_class", _choice_editor(),
               parse=_enum_parser(RangeClass),
               sort_key=lambda w: list(RangeClass).index(w.range_class),
               choices=tuple((r.label, r.value) for r in RangeClass)),
        Column(tr_noop(_CTX, "Aim"), _aim_text, "aim_modifier", _int_editor(0, 99), parse=_integer,
               sort_key=lambda w: w.aim_modifier, tooltip=_aim_tooltip, numeric=True),
        Column(tr_noop(_CTX, "Thrown"),
               _thrown_text, "thrown", _text_editor(8, tr_noop(_CTX, "not thrown")),
               edit_value=lambda w: "" if w.thrown is None else _decimal_text(w.thrown),
               parse=_thrown, tooltip=_thrown_tooltip),
        Column(tr_noop(_CTX, "Ready"),
               lambda w, _c: str(w.ready_actions), "ready_actions", _int_editor(0, 99),
               parse=_integer, sort_key=lambda w: w.ready_actions, numeric=True,
               header_tooltip=tr_noop(_CTX, "Minor actions to ready the weapon")),
        Column(tr_noop(_CTX, "Reload"), lambda w, _c: str(w.reload_actions), "reload_actions",
               _int_editor(0, 99), parse=_integer, sort_key=lambda w: w.reload_actions,
               numeric=True, header_tooltip=tr_noop(_CTX, "Minor actions to reload")),
        Column(tr_noop(_CTX, "Skill"), _weapon_skill_text, "skill",
               _text_editor(200, tr_noop(_CTX, "e.g. Gun Combat (Slug Rifle)")),
               edit_value=lambda w: w.skill, parse=_text, tooltip=_weapon_skill_tooltip,
               header_tooltip=tr_noop(_CTX, "The skill used to attack, with the DM this "
                                            "character rolls at")),
    )

    def new_item(self) -> Weapon:
        return Weapon(name=tr(_CTX, "New weapon"), damage="1d6")

    def completions(self, column: int, item: _Item,
                    character: Character) -> list[tuple[str, str]] | None:
        if self.columns[column].field != "skill":
            return None
        return weapon_skill_choices(character, self.catalogue())

    def field_updates(self, column: Column, item: _Item, value: object) -> dict[str, object]:
        """A weapon's skill is one the character has or one the catalogue knows."""
        character = self.character()
        if (column.field != "skill" or not isinstance(value, str) or not value
                or value == item.skill or character is None):
            return super().field_updates(column, item, value)
        if character.skill_level(value) is not None:
            return {"skill": value}
        name, specialty = self.catalogue().canonical_skill(value)
        return {"skill": Skill(name=name, specialty=specialty).label}


def weapon_skill_choices(character: Character, catalogue: Catalogue) -> list[tuple[str, str]]:
    """The skills a weapon can use: the character's own first, with the DM they roll at,
    then the catalogue's, each "unskilled -3" unless the character holds the skill."""
    choices: list[tuple[str, str]] = []
    seen: set[str] = set()
    for skill in sorted(character.skills, key=_skill_sort):
        label = skill.label
        if label.casefold() not in seen:
            seen.add(label.casefold())
            choices.append((tr(_CTX, "{0}  {1}").format(label, format_modifier(skill.level)),
                            label))
    for label in catalogue.skill_labels():
        if label.casefold() in seen:
            continue
        seen.add(label.casefold())
        level = character.skill_level(label)
        shown = (format_modifier(level) if level is not None
                 else tr(_CTX, "unskilled {0}").format(format_modifier(UNSKILLED)))
        choices.append((tr(_CTX, "{0}  {1}").format(label, shown), label))
    return choices


# --- armor and cover -------------------------------------------------------------------------


class ArmorTableModel(CharacterItemsModel):
    """Armor worn or carried: its rating reduces every damage roll while worn."""

    item_type = Armor
    list_field = "armor"
    noun = tr_noop(_CTX, "armor")
    nouns = tr_noop(_CTX, "armors")
    columns = (
        Column(tr_noop(_CTX, "Name"), lambda a, _c: a.name, "name", _text_editor(200), parse=_text,
               sort_key=_casefold_sort),
        Column(tr_noop(_CTX, "Rating"), lambda a, _c: str(a.rating), "rating", _int_editor(0, 999),
               parse=_integer, sort_key=lambda a: a.rating, numeric=True,
               header_tooltip=tr_noop(_CTX, "Armor rating: subtracted from each damage roll")),
        Column(tr_noop(_CTX, "Scale"), lambda a, _c: a.scale.label, "scale", _choice_editor(),
               parse=_enum_parser(Scale), sort_key=lambda a: list(Scale).index(a.scale),
               choices=tuple((s.label, s.value) for s in Scale)),
        Column(tr_noop(_CTX, "Worn"), lambda a, _c: "", "worn", checkable=True,
               sort_key=lambda a: int(a.worn),
               header_tooltip=tr_noop(_CTX, "Only worn armor protects")),
    )

    def new_item(self) -> Armor:
        return Armor(name=tr(_CTX, "New armor"), rating=0)


_HP_SCALE_TIP = tr_noop(_CTX, "Hit points as a number, or with their Ch.7 scale: 20 DHP is "
                              "200, 3 HHP is 300, 67 KHP is 67,000 (kept in plain HP)")


def _hit_points(value: object) -> int:
    """HP typed as a whole number or in the Ch.7 notation with its scale ("20 DHP" is 200),
    read by :func:`~mneme_desktop.rules.damage.parse_hit_points`; kept in plain HP."""
    if isinstance(value, int) and not isinstance(value, bool):
        hit_points = value
    else:
        text = str(value).strip()
        try:
            hit_points = int(text)
        except ValueError:
            try:
                hit_points = parse_hit_points(text if text.upper().endswith("HP")
                                              else f"{text}HP")
            except ValueError:
                raise ValueError(tr(_CTX, "{0!r} is not hit points: type 20, or 2 DHP (20), "
                                          "3 HHP (300), 67 KHP (67,000)").format(
                                              value)) from None
    if not 0 <= hit_points <= MAX_AMOUNT:
        raise ValueError(tr(_CTX, "hit points run from 0 to {0:,}, got {1:,}").format(
            MAX_AMOUNT, hit_points))
    return hit_points


def _cover_tooltip(cover: CoverItem, _character: Character) -> str:
    return tr(_CTX, "{0} of {1} HP left").format(cover.remaining_hp, cover.hp)


class CoverTableModel(CharacterItemsModel):
    """Cover and shields: protection absorbs fail effect, and the cover takes that damage."""

    item_type = CoverItem
    list_field = "cover_items"
    noun = tr_noop(_CTX, "cover")
    nouns = tr_noop(_CTX, "covers")
    columns = (
        Column(tr_noop(_CTX, "Name"), lambda c, _ch: c.name, "name", _text_editor(200), parse=_text,
               sort_key=_casefold_sort),
        Column(tr_noop(_CTX, "Protection"),
               lambda c, _ch: str(c.protection), "protection", _int_editor(0, 99),
               parse=_integer, sort_key=lambda c: c.protection, numeric=True,
               header_tooltip=tr_noop(_CTX, "The Difficulty it adds (a shield: 2)")),
        Column(tr_noop(_CTX, "HP"),
               lambda c, _ch: str(c.hp), "hp", _text_editor(20, tr_noop(_CTX, "20 or 2 DHP")),
               parse=_hit_points, sort_key=lambda c: c.hp, tooltip=_cover_tooltip,
               numeric=True, header_tooltip=_HP_SCALE_TIP),
        Column(tr_noop(_CTX, "Damage taken"),
               lambda c, _ch: str(c.damage), "damage",
               _text_editor(20, tr_noop(_CTX, "5 or 1 DHP")), parse=_hit_points,
               sort_key=lambda c: c.damage, tooltip=_cover_tooltip, numeric=True,
               header_tooltip=_HP_SCALE_TIP),
    )

    def new_item(self) -> CoverItem:
        return CoverItem(name=tr(_CTX, "New cover"), protection=0)


# --- conditions ------------------------------------------------------------------------------


def _condition_started(condition: Condition, _character: Character) -> str:
    parts: list[str] = []
    if condition.started_at is not None:
        parts.append(condition.started_at.label)
    if condition.started_round is not None:
        parts.append(tr(_CTX, "round {0}").format(condition.started_round))
    return ", ".join(parts) or "—"


def _condition_tooltip(condition: Condition, _character: Character) -> str:
    if condition.expires_at is not None:
        return tr(_CTX, "{0} until {1}").format(condition.label, condition.expires_at.label)
    return condition.label


class ConditionsTableModel(CharacterItemsModel):
    """Conditions with the moment each started; only the detail is edited in place."""

    item_type = Condition
    list_field = "conditions"
    noun = tr_noop(_CTX, "condition")
    nouns = tr_noop(_CTX, "conditions")
    columns = (
        Column(tr_noop(_CTX, "Condition"), lambda c, _ch: c.kind.label,
               sort_key=lambda c: list(ConditionKind).index(c.kind),
               tooltip=_condition_tooltip),
        Column(tr_noop(_CTX, "Detail"),
               lambda c, _ch: c.detail, "detail",
               _text_editor(200, tr_noop(_CTX, "e.g. left arm")),
               parse=_text),
        Column(tr_noop(_CTX, "Started"), _condition_started,
               sort_key=lambda c: c.started_at.total_seconds if c.started_at else -1),
    )

    def new_item(self) -> Condition:
        return Condition(kind=ConditionKind.OTHER)

    def add_condition(self, kind: ConditionKind, detail: str = "") -> int | None:
        """Add ``kind`` started now on the campaign clock."""
        condition = Condition(kind=kind, detail=detail.strip(),
                              started_at=self._document.campaign.game_time)
        return self.add_item(condition)


