"""Tables of one thing's lists: its crew positions (who is aboard, and where) and its
weapons (the characters' weapon stat lines). Every edit, addition and removal is one undo
step through :func:`mneme_desktop.ui.thing_commands.edit_thing`; what is refused is said
through ``edit_rejected``, never raised."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from mneme_desktop.domain import CrewPosition, RangeClass, Thing, Weapon
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.ui import thing_commands
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.headed_table import ColumnsTableModel
from mneme_desktop.ui.models.roles import (
    CHOICES_ROLE,
    EDITOR_ROLE,
    ENTITY_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
)
from mneme_desktop.ui.models.sheet_models import (
    describe_error,
    enum_parser,
    parse_integer,
    parse_text,
    text_editor,
)
from mneme_desktop.ui.widgets.delegates import EditorKind, EditorSpec

_CTX = "ThingModels"

__all__ = ["CrewTableModel", "ThingColumn", "ThingListModel", "ThingWeaponsModel"]

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class ThingColumn:
    """One column of a thing's list: how a cell shows and is edited."""

    header: str
    display: Callable[[BaseModel, Thing], str]
    field: str
    editor: EditorSpec
    parse: Callable[[object], object]
    value: Callable[[BaseModel], object] | None = None
    """The cell's typed value (VALUE_ROLE): what a pick list selects."""
    choices: Callable[[Thing], list[tuple[str, object]]] | None = None


class ThingListModel(ColumnsTableModel):
    """One list field of one thing as a table; the rows follow the campaign on every step
    that touches the thing."""

    edit_rejected = Signal(str)

    tr_context = _CTX
    list_field: ClassVar[str]
    noun: ClassVar[str]
    columns: tuple[ThingColumn, ...]

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._thing_id: str | None = None
        self._rows: list[BaseModel] = []
        document.changed.connect(self._document_changed)

    def set_thing(self, thing_id: str | None) -> None:
        self.beginResetModel()
        self._thing_id = thing_id
        self._rows = self._current()
        self.endResetModel()

    def thing(self) -> Thing | None:
        if self._thing_id is None:
            return None
        return self._document.campaign.find_thing(self._thing_id)

    def _current(self) -> list[BaseModel]:
        thing = self.thing()
        return list(getattr(thing, self.list_field)) if thing is not None else []

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._thing_id is not None and (
                summary.touches_thing(self._thing_id, self._document.campaign)
                or summary.structure_changed or summary.character_ids):
            new = self._current()
            if len(new) == len(self._rows):
                self._rows = new
                if new:
                    self.dataChanged.emit(self.index(0, 0),
                                          self.index(len(new) - 1, len(self.columns) - 1))
            else:
                self.beginResetModel()
                self._rows = new
                self.endResetModel()

    # --- Qt model --------------------------------------------------------------------------

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        thing = self.thing()
        if not index.isValid() or thing is None or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        column = self.columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return column.display(item, thing)
        if role == Qt.ItemDataRole.EditRole:
            value = getattr(item, column.field)
            return "" if value is None else str(getattr(value, "value", value))
        if role == VALUE_ROLE:
            return column.value(item) if column.value is not None else getattr(item, column.field)
        if role == CHOICES_ROLE:
            return column.choices(thing) if column.choices is not None else None
        if role == EDITOR_ROLE:
            return column.editor
        if role == SORT_ROLE:
            return column.display(item, thing).casefold()
        if role == ENTITY_ROLE:
            return item
        return None

    def setData(self, index: _Index, value: object,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        row = index.row()
        if not 0 <= row < len(self._rows):
            return False
        column = self.columns[index.column()]
        item = self._rows[row]
        try:
            edited = type(item).model_validate(
                {**item.model_dump(), column.field: column.parse(value)})
        except (ValidationError, ValueError, TypeError) as exc:
            self.edit_rejected.emit(tr(_CTX, "{0}: {1}").format(
                tr(_CTX, column.header), describe_error(exc)))
            return False
        if edited == item:
            return True
        field = self.list_field

        def change(thing: Thing) -> None:
            items = list(getattr(thing, field))
            items[row] = edited
            setattr(thing, field, items)

        return self._edit(tr(_CTX, "Edit {0} of {1}").format(
            tr(_CTX, column.header).lower(), self._label(item)), change)

    # --- adding and removing -----------------------------------------------------------

    def new_item(self) -> BaseModel:
        raise NotImplementedError

    def add_item(self) -> int | None:
        """A new row at the end, as one undo step; its row, or None."""
        if self.thing() is None:
            return None
        item = self.new_item()
        field = self.list_field

        def change(thing: Thing) -> None:
            setattr(thing, field, [*getattr(thing, field), item])

        if not self._edit(tr(_CTX, "Add {0} {1}").format(tr(_CTX, self.noun),
                                                         self._label(item)), change):
            return None
        return len(self._rows) - 1

    def remove_rows(self, rows: Iterable[int]) -> bool:
        doomed = sorted({row for row in rows if 0 <= row < len(self._rows)})
        if not doomed:
            return False
        field = self.list_field
        names = ", ".join(self._label(self._rows[row]) for row in doomed)

        def change(thing: Thing) -> None:
            items = list(getattr(thing, field))
            setattr(thing, field, [x for i, x in enumerate(items) if i not in doomed])

        return self._edit(tr(_CTX, "Remove {0} {1}").format(tr(_CTX, self.noun), names), change)

    def _label(self, item: BaseModel) -> str:
        return str(getattr(item, "name", None) or getattr(item, "role", None) or "")

    def _edit(self, text: str, change: Callable[[Thing], None]) -> bool:
        thing = self.thing()
        if thing is None:
            self.edit_rejected.emit(tr(_CTX, "This vehicle or object is no longer in the "
                                             "campaign."))
            return False
        try:
            thing_commands.edit_thing(self._document, thing.id, text, change)
        except (ValidationError, ValueError) as exc:
            self.edit_rejected.emit(describe_error(exc))
            return False
        return True


# --- crew ------------------------------------------------------------------------------------


def _seat_choices(document: CampaignDocument) -> Callable[[Thing], list[tuple[str, object]]]:
    def choices(_thing: Thing) -> list[tuple[str, object]]:
        empty: list[tuple[str, object]] = [(tr(_CTX, "(empty)"), "")]
        return empty + [(c.name, c.id) for c in document.campaign.characters]

    return choices


def _optional_id(value: object) -> str | None:
    text = "" if value is None else str(value).strip()
    return text or None


class CrewTableModel(ThingListModel):
    """The positions aboard a vehicle or craft ("Driver", "Gunner") and who sits in each."""

    list_field = "crew"
    noun = tr_noop(_CTX, "crew position")

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(document, parent)
        self.columns = (
            ThingColumn(tr_noop(_CTX, "Position"), lambda p, _t: str(getattr(p, "role", "")),
                        "role", text_editor(100), parse_text),
            ThingColumn(tr_noop(_CTX, "Aboard"), self._aboard, "character_id",
                        EditorSpec(EditorKind.CHOICE), _optional_id,
                        value=lambda p: getattr(p, "character_id", None) or "",
                        choices=_seat_choices(document)),
        )

    def _aboard(self, position: BaseModel, _thing: Thing) -> str:
        character_id = getattr(position, "character_id", None)
        if character_id is None:
            return tr(_CTX, "(empty)")
        sheet = self._document.campaign.find_sheet(character_id)
        return sheet.name if sheet is not None else tr(_CTX, "(empty)")

    def new_item(self) -> CrewPosition:
        return CrewPosition(role=tr(_CTX, "Crew"))


# --- weapons ---------------------------------------------------------------------------------


class ThingWeaponsModel(ThingListModel):
    """A vehicle's weapons as the characters' stat lines: name, damage dice (with a D, H or
    K scale prefix), rate of attack, range and the skill its gunner rolls."""

    list_field = "weapons"
    noun = tr_noop(_CTX, "weapon")
    columns = (
        ThingColumn(tr_noop(_CTX, "Name"), lambda w, _t: str(getattr(w, "name", "")), "name",
                    text_editor(200), parse_text),
        ThingColumn(tr_noop(_CTX, "Damage"), lambda w, _t: str(getattr(w, "damage", "")),
                    "damage", EditorSpec(EditorKind.DICE), parse_text),
        ThingColumn(tr_noop(_CTX, "Rate of attack"),
                    lambda w, _t: str(getattr(w, "rate_of_attack", "")), "rate_of_attack",
                    EditorSpec(EditorKind.INTEGER, minimum=1, maximum=1000), parse_integer),
        ThingColumn(tr_noop(_CTX, "Range"),
                    lambda w, _t: w.range_class.label if isinstance(w, Weapon) else "",
                    "range_class", EditorSpec(EditorKind.CHOICE), enum_parser(RangeClass),
                    value=lambda w: w.range_class.value if isinstance(w, Weapon) else None,
                    choices=lambda _t: [(r.label, r.value) for r in RangeClass]),
        ThingColumn(tr_noop(_CTX, "Skill"), lambda w, _t: str(getattr(w, "skill", "") or ""),
                    "skill", text_editor(200), parse_text),
    )

    def new_item(self) -> Weapon:
        return Weapon(name=tr(_CTX, "New weapon"), damage="D 2d6")
