"""The player display's models: the filtered turn order and the public log lines, fed by
one :class:`DisplayFeed` that follows the document's ``changed`` notice.

The models hold only what a :class:`~.filtering.Scene` holds, so every role they answer
is something the players may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont

from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE, WOUND_STATE_ROLE
from mneme_desktop.ui.player_display.filtering import (
    DisplayOptions,
    DisplayRow,
    Scene,
    TurnMark,
    build_scene,
)

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["DisplayFeed", "PlayerTurnModel", "PublicLogModel"]

_CTX = "PlayerDisplay"

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_SIDES = {"players": tr_noop(_CTX, "players' side"), "enemies": tr_noop(_CTX, "enemies"),
          "neutral": tr_noop(_CTX, "neutral")}


class PlayerTurnModel(QAbstractTableModel):
    """The turn order as the players may see it: one row per revealed combatant."""

    COL_TURN, COL_NAME, COL_WOUNDS, COL_HP, COL_CONDITIONS = range(5)
    HEADERS = (tr_noop(_CTX, "Turn"), tr_noop(_CTX, "Name"), tr_noop(_CTX, "Wounds"),
               tr_noop(_CTX, "HP"), tr_noop(_CTX, "Conditions"))
    MARKS: ClassVar[dict[TurnMark, str]] = {
        TurnMark.NOW: tr_noop(_CTX, "▶ Now"), TurnMark.NEXT: tr_noop(_CTX, "Next"),
        TurnMark.NONE: ""}

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: tuple[DisplayRow, ...] = ()

    @property
    def rows(self) -> tuple[DisplayRow, ...]:
        return self._rows

    def set_rows(self, rows: tuple[DisplayRow, ...]) -> None:
        """Show ``rows``: the same people in the same order repaint only the rows that
        changed; anyone coming, going or moving resets the (short) table."""
        if [r.id for r in rows] != [r.id for r in self._rows]:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
            return
        old, self._rows = self._rows, rows
        last = self.columnCount() - 1
        for number, (before, after) in enumerate(zip(old, rows, strict=True)):
            if before != after:
                self.dataChanged.emit(self.index(number, 0), self.index(number, last))

    # --- the model ---------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        if orientation is not Qt.Orientation.Horizontal or \
                not 0 <= section < len(self.HEADERS):
            return None
        if role == _DISPLAY:
            return tr(_CTX, self.HEADERS[section])
        if role == Qt.ItemDataRole.TextAlignmentRole:  # over the column's text, as it lines up
            return int(Qt.AlignmentFlag.AlignVCenter | (
                Qt.AlignmentFlag.AlignRight if section == self.COL_HP
                else Qt.AlignmentFlag.AlignLeft))
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == _DISPLAY:
            return self._text(row, column)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._spoken(row, column)
        if role == ID_ROLE:
            return row.id
        if role == WOUND_STATE_ROLE:
            return row.band if column == self.COL_WOUNDS else None
        if role == VALUE_ROLE:
            if column == self.COL_TURN:
                return row.mark
            if column == self.COL_NAME:
                return row.side
            return None
        if role == Qt.ItemDataRole.FontRole and row.mark is TurnMark.NOW:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignVCenter | (
                Qt.AlignmentFlag.AlignRight if column == self.COL_HP
                else Qt.AlignmentFlag.AlignLeft))
        return None

    def _text(self, row: DisplayRow, column: int) -> str:
        if column == self.COL_TURN:
            return tr(_CTX, self.MARKS[row.mark]) if row.mark is not TurnMark.NONE else ""
        if column == self.COL_NAME:
            return row.name
        if column == self.COL_WOUNDS:
            return row.wounds
        if column == self.COL_HP:
            return row.hp
        return ", ".join(row.conditions)

    def _spoken(self, row: DisplayRow, column: int) -> str:
        """What a screen reader says: the cell's words, and for the name the side."""
        if column == self.COL_NAME:
            return tr(_CTX, "{0}, {1}").format(row.name, tr(_CTX, _SIDES[row.side.value]))
        if column == self.COL_HP and row.hp:
            return tr(_CTX, "{0} hit points").format(row.hp)
        return self._text(row, column)


class PublicLogModel(QAbstractListModel):
    """The last public lines of the log (attacks and whether they hit), oldest first."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lines: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        return self._lines

    def set_lines(self, lines: tuple[str, ...]) -> None:
        if lines == self._lines:
            return
        self.beginResetModel()
        self._lines = lines
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._lines)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._lines):
            return None
        if role in (_DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return self._lines[index.row()]
        return None


class DisplayFeed(QObject):
    """Follows the document's one ``changed`` notice (undo and redo included) and hands
    the scene to the models and the window; the display reads nothing else."""

    scene_changed = Signal(object)
    """The new :class:`~.filtering.Scene`, after the models took their part of it."""

    def __init__(self, document: CampaignDocument, options: DisplayOptions,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._options = options
        self._preferred: str | None = None
        self.turn_model = PlayerTurnModel(self)
        self.log_model = PublicLogModel(self)
        self.scene = build_scene(document.campaign, options)
        self._show(self.scene)
        document.changed.connect(self._document_changed)

    @property
    def options(self) -> DisplayOptions:
        return self._options

    def set_document(self, document: CampaignDocument) -> None:
        """Follow another open campaign."""
        if document is self.document:
            return
        self.document.changed.disconnect(self._document_changed)
        self.document = document
        self._preferred = None
        document.changed.connect(self._document_changed)
        self.refresh()

    def set_options(self, options: DisplayOptions) -> None:
        if options != self._options:
            self._options = options
            self.refresh()

    def prefer(self, encounter_id: str | None) -> None:
        """Follow ``encounter_id`` while it runs (the one the referee is looking at)."""
        if encounter_id != self._preferred:
            self._preferred = encounter_id
            self.refresh()

    def refresh(self) -> None:
        scene = build_scene(self.document.campaign, self._options, self._preferred)
        if scene != self.scene:
            self._show(scene)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.encounter_ids or summary.structure_changed or summary.time_changed or \
                summary.rules_changed or summary.character_ids:
            self.refresh()

    def _show(self, scene: Scene) -> None:
        self.scene = scene
        self.turn_model.set_rows(scene.rows)
        self.log_model.set_lines(scene.log)
        self.scene_changed.emit(scene)
