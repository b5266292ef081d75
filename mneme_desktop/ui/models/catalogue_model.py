"""The catalogue as tables for its editor: every skill, weapon or armor a campaign can pick
from, built-in and its own, with where each comes from.

Built-in rows are read-only (their numbers come from the chapters); the campaign's own
rows are edited in place, each change one undoable step through
:func:`~mneme_desktop.ui.catalogue_commands.edit_catalogue`, checked by the domain models.
A campaign entry with a built-in's name replaces it; removing it brings the built-in back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from mneme_desktop.domain import Armor, RangeClass, Weapon
from mneme_desktop.domain.catalogue import (
    CampaignCatalogue,
    Catalogue,
    CatalogueEntry,
    CatalogueKind,
    Origin,
    SkillEntry,
    builtin_source,
    catalogue_for,
    entry_key,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.dice import Scale
from mneme_desktop.ui.catalogue_commands import edit_catalogue
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
    aim_text,
    decimal_text,
    describe_error,
    enum_parser,
    parse_integer,
    parse_text,
    parse_thrown,
    text_editor,
)
from mneme_desktop.ui.widgets.delegates import EditorKind, EditorSpec

_CTX = "CatalogueModel"

__all__ = ["ORIGIN_LABELS", "CatalogueColumn", "CatalogueTableModel"]

_Index = QModelIndex | QPersistentModelIndex

ORIGIN_LABELS = {
    Origin.BUILTIN: tr_noop(_CTX, "built-in"),
    Origin.CAMPAIGN: tr_noop(_CTX, "campaign"),
    Origin.REPLACED: tr_noop(_CTX, "campaign (replaces built-in)"),
}


@dataclass(frozen=True)
class CatalogueColumn:
    """One column of a catalogue table; ``field`` None: shown only (the origin)."""

    header: str
    display: Callable[[Any], str]
    field: str | None = None
    editor: EditorSpec | None = None
    parse: Callable[[object], object] | None = None
    edit_value: Callable[[Any], object] | None = None
    choices: tuple[tuple[str, object], ...] = ()
    numeric: bool = False


def _specialties(value: object) -> list[str]:
    """"Slug Rifle, Archery" -> ["Slug Rifle", "Archery"]."""
    return [part.strip() for part in parse_text(value).split(",") if part.strip()]


def _int(minimum: int, maximum: int) -> EditorSpec:
    return EditorSpec(EditorKind.INTEGER, minimum=minimum, maximum=maximum)


_NAME = CatalogueColumn(tr_noop(_CTX, "Name"), lambda e: e.name, "name", text_editor(100),
                        parse_text)
_NOTES = CatalogueColumn(tr_noop(_CTX, "Notes"), lambda e: e.notes, "notes", text_editor(500),
                         parse_text)

_COLUMNS: dict[CatalogueKind, tuple[CatalogueColumn, ...]] = {
    CatalogueKind.SKILLS: (
        _NAME,
        CatalogueColumn(tr_noop(_CTX, "Specialties"), lambda s: ", ".join(s.specialties),
                        "specialties", text_editor(2000, tr_noop(_CTX, "comma-separated")),
                        _specialties, edit_value=lambda s: ", ".join(s.specialties)),
        _NOTES,
    ),
    CatalogueKind.WEAPONS: (
        _NAME,
        CatalogueColumn(tr_noop(_CTX, "Damage"), lambda w: w.damage, "damage",
                        EditorSpec(EditorKind.DICE), parse_text),
        CatalogueColumn(tr_noop(_CTX, "RoA"), lambda w: str(w.rate_of_attack), "rate_of_attack",
                        _int(1, 1000), parse_integer, numeric=True),
        CatalogueColumn(tr_noop(_CTX, "Range"), lambda w: w.range_class.label, "range_class",
                        EditorSpec(EditorKind.CHOICE), enum_parser(RangeClass),
                        choices=tuple((r.label, r.value) for r in RangeClass)),
        CatalogueColumn(tr_noop(_CTX, "Aim"), lambda w: aim_text(w.aim_modifier), "aim_modifier",
                        _int(0, 99), parse_integer, numeric=True),
        CatalogueColumn(tr_noop(_CTX, "Thrown"),
                        lambda w: "" if w.thrown is None else decimal_text(w.thrown), "thrown",
                        text_editor(8, tr_noop(_CTX, "not thrown")), parse_thrown,
                        edit_value=lambda w: "" if w.thrown is None else decimal_text(w.thrown)),
        CatalogueColumn(tr_noop(_CTX, "Ready"), lambda w: str(w.ready_actions), "ready_actions",
                        _int(0, 99), parse_integer, numeric=True),
        CatalogueColumn(tr_noop(_CTX, "Reload"), lambda w: str(w.reload_actions),
                        "reload_actions", _int(0, 99), parse_integer, numeric=True),
        CatalogueColumn(tr_noop(_CTX, "Skill"), lambda w: w.skill, "skill",
                        text_editor(200, tr_noop(_CTX, "e.g. Gun Combat (Slug Rifle)")),
                        parse_text),
        _NOTES,
    ),
    CatalogueKind.ARMOR: (
        _NAME,
        CatalogueColumn(tr_noop(_CTX, "Rating"), lambda a: str(a.rating), "rating",
                        _int(0, 999), parse_integer, numeric=True),
        CatalogueColumn(tr_noop(_CTX, "Scale"), lambda a: a.scale.label, "scale",
                        EditorSpec(EditorKind.CHOICE), enum_parser(Scale),
                        choices=tuple((s.label, s.value) for s in Scale)),
        _NOTES,
    ),
}

_NEW_ENTRY: dict[CatalogueKind, Callable[[str], BaseModel]] = {
    CatalogueKind.SKILLS: lambda name: SkillEntry(name=name),
    CatalogueKind.WEAPONS: lambda name: Weapon(name=name, damage="1d6"),
    CatalogueKind.ARMOR: lambda name: Armor(name=name, rating=0),
}
_NEW_NAME = {
    CatalogueKind.SKILLS: tr_noop(_CTX, "New skill"),
    CatalogueKind.WEAPONS: tr_noop(_CTX, "New weapon"),
    CatalogueKind.ARMOR: tr_noop(_CTX, "New armor"),
}
_ORIGIN_COLUMN = CatalogueColumn(tr_noop(_CTX, "From"), lambda _e: "")


class CatalogueTableModel(ColumnsTableModel):
    """Every entry of one catalogue list, sorted by name, with its origin last."""

    tr_context = _CTX
    columns: tuple[CatalogueColumn, ...]
    edit_rejected = Signal(str)
    """An edit was refused; the message says why (nothing was changed)."""

    def __init__(self, document: CampaignDocument, kind: CatalogueKind,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.kind = kind
        self.columns = (*_COLUMNS[kind], _ORIGIN_COLUMN)
        self.origin_column = len(self.columns) - 1
        self._catalogue = self._current()
        self._rows: tuple[CatalogueEntry, ...] = self._catalogue.entries(kind)
        document.changed.connect(self._document_changed)

    def _current(self) -> Catalogue:
        return catalogue_for(self._document.campaign.catalogue)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.catalogue_changed:
            self.beginResetModel()
            self._catalogue = self._current()
            self._rows = self._catalogue.entries(self.kind)
            self.endResetModel()

    # --- reading -------------------------------------------------------------------------

    def entry(self, row: int) -> CatalogueEntry:
        return self._rows[row]

    def origin(self, row: int) -> Origin:
        found = self._catalogue.origin(self.kind, str(self._rows[row].name))
        return found if found is not None else Origin.BUILTIN

    def is_own(self, row: int) -> bool:
        return self.origin(row) is not Origin.BUILTIN

    def row_of(self, name: str) -> int | None:
        key = entry_key(name)
        return next((row for row, entry in enumerate(self._rows)
                     if entry_key(str(entry.name)) == key), None)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self.columns[index.column()].field is not None and self.is_own(index.row()):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        column = self.columns[index.column()]
        if index.column() == self.origin_column:
            origin = self.origin(index.row())
            if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
                return tr(_CTX, ORIGIN_LABELS[origin])
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._source(entry, origin)
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return column.display(entry)
        if role == Qt.ItemDataRole.EditRole:
            if column.edit_value is not None:
                return column.edit_value(entry)
            value = getattr(entry, column.field) if column.field else None
            return value.value if isinstance(value, Enum) else value
        if role == VALUE_ROLE and column.field is not None:
            value = getattr(entry, column.field)
            return value.value if isinstance(value, Enum) else value
        if role == Qt.ItemDataRole.ToolTipRole and not self.is_own(index.row()):
            return self._source(entry, Origin.BUILTIN)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == SORT_ROLE:
            return column.display(entry).casefold()
        if role == ENTITY_ROLE:
            return entry
        if role == EDITOR_ROLE:
            return column.editor
        if role == CHOICES_ROLE:
            if column.field == "skill":
                return [(label, label) for label in self._catalogue.skill_labels()]
            return list(column.choices) if column.choices else None
        return None

    def _source(self, entry: CatalogueEntry, origin: Origin) -> str:
        if origin is not Origin.BUILTIN:
            return tr(_CTX, "The campaign's own entry, kept in its file")
        kind = {CatalogueKind.SKILLS: "skill", CatalogueKind.WEAPONS: "weapon",
                CatalogueKind.ARMOR: "armor"}[self.kind]
        return tr(_CTX, "Built-in, from {0}. Copy it to the campaign to change it.").format(
            builtin_source(kind, str(entry.name)))

    # --- editing -------------------------------------------------------------------------

    def _own_list(self, catalogue: CampaignCatalogue) -> list[Any]:
        items: list[Any] = getattr(catalogue, self.kind.value)
        return items

    def _own_position(self, catalogue: CampaignCatalogue, name: str) -> int:
        key = entry_key(name)
        return next(i for i, e in enumerate(self._own_list(catalogue))
                    if entry_key(e.name) == key)

    def setData(self, index: _Index, value: object,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (role != Qt.ItemDataRole.EditRole or not index.isValid()
                or not self.flags(index) & Qt.ItemFlag.ItemIsEditable):
            return False
        column = self.columns[index.column()]
        assert column.field is not None
        entry = self._rows[index.row()]
        header = tr(_CTX, column.header)
        try:
            parsed = column.parse(value) if column.parse is not None else value
            if column.field == "skill" and isinstance(parsed, str) and parsed:
                name, specialty = self._catalogue.canonical_skill(parsed)
                parsed = name if specialty is None else f"{name} ({specialty})"
            edited = type(entry).model_validate({**entry.model_dump(), column.field: parsed})
        except (ValidationError, ValueError, TypeError) as exc:
            self.edit_rejected.emit(tr(_CTX, "{0}: {1}").format(header, describe_error(exc)))
            return False
        if edited == entry:
            return True
        name = str(entry.name)
        if column.field == "name" and entry_key(edited.name) != entry_key(name) \
                and self.row_of(edited.name) is not None:
            self.edit_rejected.emit(
                tr(_CTX, "Name: the catalogue already has “{0}”; copy a built-in entry to the "
                         "campaign to change it.").format(edited.name))
            return False

        def change(catalogue: CampaignCatalogue) -> None:
            self._own_list(catalogue)[self._own_position(catalogue, name)] = edited

        return self._edit(tr(_CTX, "Catalogue: edit {0} of {1}").format(header.lower(), name),
                          change)

    def add_entry(self) -> int | None:
        """A new campaign entry with a free name; its row, or None."""
        base = tr(_CTX, _NEW_NAME[self.kind])
        name, number = base, 1
        while self.row_of(name) is not None:
            number += 1
            name = f"{base} {number}"
        entry = _NEW_ENTRY[self.kind](name)
        if not self._edit(tr(_CTX, "Catalogue: add {0}").format(name),
                          lambda c: self._own_list(c).append(entry)):
            return None
        return self.row_of(name)

    def copy_to_campaign(self, row: int) -> int | None:
        """A campaign copy of the built-in entry at ``row``, which it then replaces."""
        if not 0 <= row < len(self._rows) or self.is_own(row):
            return None
        entry = self._rows[row].model_copy(deep=True)
        name = str(entry.name)
        if not self._edit(tr(_CTX, "Catalogue: copy {0} to the campaign").format(name),
                          lambda c: self._own_list(c).append(entry)):
            return None
        return self.row_of(name)

    def remove_entries(self, rows: list[int]) -> bool:
        """Remove the campaign's own entries at ``rows`` (built-in ones stay) as one step."""
        names = [str(self._rows[r].name) for r in sorted(set(rows))
                 if 0 <= r < len(self._rows) and self.is_own(r)]
        if not names:
            self.edit_rejected.emit(tr(_CTX, "Built-in entries cannot be removed; only the "
                                             "campaign's own."))
            return False
        keys = {entry_key(n) for n in names}

        def change(catalogue: CampaignCatalogue) -> None:
            setattr(catalogue, self.kind.value, [e for e in self._own_list(catalogue)
                                                 if entry_key(e.name) not in keys])

        text = (tr(_CTX, "Catalogue: remove {0}").format(names[0]) if len(names) == 1
                else tr(_CTX, "Catalogue: remove {0} entries").format(len(names)))
        return self._edit(text, change)

    def _edit(self, text: str, change: Callable[[CampaignCatalogue], object]) -> bool:
        try:
            return edit_catalogue(self._document, text, change)
        except (ValidationError, ValueError) as exc:
            self.edit_rejected.emit(describe_error(exc))
            return False
