"""The encounter log as a table model: one structured entry per row, filtered by words and
by who was involved, following the log as steps are done and undone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from mneme_desktop.domain import Encounter, EncounterLogEntry
from mneme_desktop.domain.combat import format_log_entry
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.ui.models.headed_table import HeadedTableModel
from mneme_desktop.ui.models.roles import ID_ROLE, SORT_ROLE
from mneme_desktop.ui.widgets.plain_text import TOOLTIP_LIMIT, clip

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "EncounterLogModel"

__all__ = ["EncounterLogModel"]


_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
# Plain ints for multiData, which compares every role a paint asks for.
_DISPLAY_N = int(_DISPLAY)
_TOOLTIP_N = int(_TOOLTIP)
_ALIGN_N = int(_ALIGN)


class EncounterLogModel(HeadedTableModel):
    """The encounter log, one structured entry per row, oldest first, optionally filtered
    by words and by who was involved (filtering here rather than in a proxy keeps each
    painted cell one Python call)."""

    COL_ROUND, COL_ACTOR, COL_ACTION, COL_TARGET, COL_ROLL, COL_EFFECT, COL_DAMAGE, \
        COL_CHANGES, COL_TEXT = range(9)
    HEADERS = (tr_noop(_CTX, "Rd"), tr_noop(_CTX, "Actor"), tr_noop(_CTX, "Action"),
               tr_noop(_CTX, "Target"), tr_noop(_CTX, "Roll"), tr_noop(_CTX, "Effect"),
               tr_noop(_CTX, "Damage"), tr_noop(_CTX, "State changes"), tr_noop(_CTX, "Details"))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        value = super().headerData(section, orientation, role)
        return tr(_CTX, value) if isinstance(value, str) and value else value

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._encounter_id: str | None = None
        self._entries: list[EncounterLogEntry] = []
        self._lines: dict[str, str] = {}
        self._cells: dict[str, tuple[str, ...]] = {}
        self._words: list[str] = []
        self._person: str | None = None
        document.changed.connect(self._document_changed)

    def set_encounter(self, encounter_id: str | None) -> None:
        self.beginResetModel()
        self._encounter_id = encounter_id
        self._entries = self._wanted()
        self.endResetModel()

    def set_text(self, text: str) -> None:
        """Only entries containing every word of ``text`` (any case)."""
        words = text.casefold().split()
        if words != self._words:
            self._words = words
            self.set_encounter(self._encounter_id)

    def set_person(self, name: str | None) -> None:
        """Only entries where ``name`` acted or was a target (None: everyone)."""
        if (name or None) != self._person:
            self._person = name or None
            self.set_encounter(self._encounter_id)

    @property
    def filtered(self) -> bool:
        return bool(self._words) or self._person is not None

    def entry(self, row: int) -> EncounterLogEntry:
        return self._entries[row]

    def visible_entries(self) -> list[EncounterLogEntry]:
        """The entries shown, in order (what an export of the shown log writes)."""
        return list(self._entries)

    def line(self, row: int) -> str:
        return self._line(self._entries[row])

    def _line(self, entry: EncounterLogEntry) -> str:
        """The entry as one line of text (cached; entries never change once logged)."""
        text = self._lines.get(entry.id)
        if text is None:
            text = format_log_entry(entry)
            self._lines[entry.id] = text
        return text

    def _accepts(self, entry: EncounterLogEntry) -> bool:
        person = self._person
        if person is not None and person != entry.actor and person != entry.target and \
                person not in entry.target.split(", "):
            return False
        if self._words:
            line = self._line(entry).casefold()
            return all(word in line for word in self._words)
        return True

    def _wanted(self) -> list[EncounterLogEntry]:
        encounter = self._encounter()
        if encounter is None:
            return []
        if not self.filtered:
            return list(encounter.log)
        return [entry for entry in encounter.log if self._accepts(entry)]

    def sync(self) -> None:
        new = self._wanted()
        common = 0
        limit = min(len(new), len(self._entries))
        while common < limit and new[common].id == self._entries[common].id:
            common += 1
        if common == len(new) - 1 == len(self._entries) - 1:
            # One gesture's line replaced by its next value (a drag): the row repaints, the
            # table keeps its rows (a removal and insertion would lay them all out again).
            self._entries = new
            self.dataChanged.emit(self.index(common, 0),
                                  self.index(common, self.columnCount() - 1))
            return
        if common < len(self._entries):
            self.beginRemoveRows(QModelIndex(), common, len(self._entries) - 1)
            del self._entries[common:]
            self.endRemoveRows()
        if common < len(new):
            self.beginInsertRows(QModelIndex(), common, len(new) - 1)
            self._entries.extend(new[common:])
            self.endInsertRows()
        # Entries are replaced by equal copies on undo/redo; keep the live objects.
        self._entries = new

    def _encounter(self) -> Encounter | None:
        return self._document.encounter(self._encounter_id)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id in summary.encounter_ids:
            self.sync()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._entries)

    def multiData(self, index: _Index, span: Any) -> None:
        """A cell's roles in one call (see :meth:`TurnOrderModel.multiData`)."""
        number = index.row()  # -1 for an invalid index
        entries = self._entries
        if not 0 <= number < len(entries):
            for item in span:
                item.clearData()
            return
        column = index.column()
        text = self._texts(entries[number])[column]
        right = column == self.COL_ROUND or column == self.COL_EFFECT
        for item in span:
            role = item.role()
            if role == _DISPLAY_N:
                item.setData(text)
            elif role == _ALIGN_N and right:
                item.setData(_RIGHT)
            elif role == _TOOLTIP_N:
                item.setData(clip(self.line(number), TOOLTIP_LIMIT))
            else:
                item.clearData()

    def _texts(self, entry: EncounterLogEntry) -> tuple[str, ...]:
        cells = self._cells.get(entry.id)
        if cells is None:
            cells = tuple(_log_cell(entry, c) for c in range(len(self.HEADERS)))
            self._cells[entry.id] = cells
        return cells

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._entries):
            return None
        entry = self._entries[index.row()]
        column = index.column()
        if role == _DISPLAY:
            return self._texts(entry)[column]
        if role == _TOOLTIP:
            return clip(self.line(index.row()), TOOLTIP_LIMIT)
        if role == ID_ROLE:
            return entry.id
        if role == SORT_ROLE:
            return index.row()
        if role == _ALIGN and column in (self.COL_ROUND, self.COL_EFFECT):
            return _RIGHT
        return None


def _log_cell(entry: EncounterLogEntry, column: int) -> str:
    if column == EncounterLogModel.COL_ROUND:
        return str(entry.round)
    if column == EncounterLogModel.COL_ACTOR:
        return entry.actor
    if column == EncounterLogModel.COL_ACTION:
        return entry.action
    if column == EncounterLogModel.COL_TARGET:
        return entry.target
    if column == EncounterLogModel.COL_ROLL:
        if not entry.dice:
            return ""
        roll = "+".join(map(str, entry.dice))
        if entry.difficulty is not None:
            roll += tr(_CTX, " {0:+d} vs {1}").format(entry.modifier, entry.difficulty)
        return roll
    if column == EncounterLogModel.COL_EFFECT:
        return "" if entry.effect is None else f"{entry.effect:+d}"
    if column == EncounterLogModel.COL_DAMAGE:
        return ", ".join(map(str, entry.damage))
    if column == EncounterLogModel.COL_CHANGES:
        return "; ".join(entry.state_changes)
    if column == EncounterLogModel.COL_TEXT:
        # A cell shows about a line; eliding a long text on every paint is slow, so the cell
        # holds the start and the tooltip (and the export) the whole entry.
        return entry.text if len(entry.text) <= _CELL_TEXT else \
            entry.text[: _CELL_TEXT - 1].rstrip() + "…"
    return ""


_CELL_TEXT = 140
