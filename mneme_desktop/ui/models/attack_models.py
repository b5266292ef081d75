"""The attack resolver's models: a Difficulty term by term, and the targets an attack can
be aimed at with each one's share of the rate of attack."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import Side
from mneme_desktop.rules.checks import DifficultyBreakdown
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.headed_table import HeadedTableModel, full_text_tip
from mneme_desktop.ui.models.roles import ID_ROLE, RULE_ROLE, VALUE_ROLE
from mneme_desktop.ui.models.side_marks import side_icon

__all__ = ["AttackTargetsModel", "DifficultyTermsModel"]

_CTX = "AttackModels"


_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_EDIT = Qt.ItemDataRole.EditRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class _TranslatedHeaders(HeadedTableModel):
    """Headers marked with ``tr_noop(_CTX, ...)``, translated where shown."""

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        value = super().headerData(section, orientation, role)
        return tr(_CTX, value) if isinstance(value, str) and value else value


class DifficultyTermsModel(_TranslatedHeaders):
    """A Difficulty term by term (base 8, cover, concealment ...) and its total."""

    HEADERS = (tr_noop(_CTX, "Term"), tr_noop(_CTX, "Difficulty"), tr_noop(_CTX, "Rule"))

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._breakdown: DifficultyBreakdown | None = None

    def set_breakdown(self, breakdown: DifficultyBreakdown | None) -> None:
        if breakdown == self._breakdown:
            return
        self.beginResetModel()
        self._breakdown = breakdown
        self.endResetModel()

    @property
    def breakdown(self) -> DifficultyBreakdown | None:
        return self._breakdown

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if parent.isValid() or self._breakdown is None:
            return 0
        return len(self._breakdown.terms) + 1

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        breakdown = self._breakdown
        if breakdown is None or not index.isValid() or not 0 <= index.row() <= len(
                breakdown.terms):
            return None
        total_row = index.row() == len(breakdown.terms)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() != 1:
            return full_text_tip(self.data(index, _DISPLAY))
        if role == _DISPLAY:
            if total_row:
                return (tr(_CTX, "Difficulty"), str(breakdown.total),
                        breakdown.label)[index.column()]
            term = breakdown.terms[index.row()]
            value = str(term.value) if index.row() == 0 else f"{term.value:+d}"
            return (term.label, value, term.rule)[index.column()]
        if role == Qt.ItemDataRole.FontRole and total_row:
            font = QFont(QApplication.font())
            font.setBold(True)
            return font
        if role == _ALIGN and index.column() == 1:
            return _RIGHT
        if role == RULE_ROLE and not total_row:
            return breakdown.terms[index.row()].rule
        if role == VALUE_ROLE:
            return breakdown.total if total_row else breakdown.terms[index.row()].value
        return None


@dataclass
class _Candidate:
    combatant_id: str
    name: str
    side: Side
    armor: str
    checked: bool = False
    share: int = 1


class AttackTargetsModel(_TranslatedHeaders):
    """Who an attack can be aimed at: tick targets and say how many of the weapon's
    attacks each one gets (its share of the declared rate of attack)."""

    COL_TARGET, COL_SIDE, COL_ARMOR, COL_SHARE = range(4)
    HEADERS = (tr_noop(_CTX, "Target"), tr_noop(_CTX, "Side"), tr_noop(_CTX, "Armor"),
               tr_noop(_CTX, "Attacks"))
    HEADER_TIPS: ClassVar[dict[int, str]] = {
        COL_SHARE: tr_noop(_CTX, "Damage rolls kept against this target: its share of the "
                                 "weapon's rate of attack, declared before rolling"),
    }

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[_Candidate] = []

    def set_candidates(self, candidates: list[tuple[str, str, Side, str]]) -> None:
        """(combatant id, name, side, armor text) for each possible target; ticks and
        shares of those still present are kept."""
        previous = {c.combatant_id: c for c in self._rows}
        rows = []
        for combatant_id, name, side, armor in candidates:
            old = previous.get(combatant_id)
            rows.append(_Candidate(combatant_id, name, side, armor,
                                   old.checked if old else False, old.share if old else 1))
        if [(r.combatant_id, r.name, r.side, r.armor) for r in rows] == [
                (r.combatant_id, r.name, r.side, r.armor) for r in self._rows]:
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def checked(self) -> list[tuple[str, int]]:
        return [(r.combatant_id, r.share) for r in self._rows if r.checked]

    def candidate_ids(self) -> list[str]:
        return [r.combatant_id for r in self._rows]

    def set_checked_ids(self, ids: list[str]) -> None:
        for row, candidate in enumerate(self._rows):
            state = candidate.combatant_id in ids
            if candidate.checked != state:
                candidate.checked = state
                # The Attacks cell shows the share of a ticked target only: it changes too
                # (signalled for the tick alone, an untick left the share on screen).
                self.dataChanged.emit(self.index(row, self.COL_TARGET),
                                      self.index(row, self.COL_SHARE),
                                      [Qt.ItemDataRole.CheckStateRole,
                                       Qt.ItemDataRole.DisplayRole])

    def set_shares(self, shares: dict[str, int]) -> None:
        for row, candidate in enumerate(self._rows):
            share = shares.get(candidate.combatant_id)
            if share is not None and share != candidate.share:
                candidate.share = share
                index = self.index(row, self.COL_SHARE)
                self.dataChanged.emit(index, index)

    def row_of(self, combatant_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.combatant_id == combatant_id), -1)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == self.COL_TARGET:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        if index.column() == self.COL_SHARE and self._rows[index.row()].checked:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == _DISPLAY:
            if column == self.COL_SHARE:
                return str(row.share) if row.checked else ""
            return (row.name, row.side.label, row.armor, "")[column]
        if role == Qt.ItemDataRole.ToolTipRole and column != self.COL_SHARE:
            return full_text_tip(self.data(index, _DISPLAY))
        if role == _EDIT and column == self.COL_SHARE:
            return row.share
        if role == Qt.ItemDataRole.CheckStateRole and column == self.COL_TARGET:
            return Qt.CheckState.Checked if row.checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_TARGET:
            return side_icon(row.side)
        if role == ID_ROLE:
            return row.combatant_id
        return None

    def setData(self, index: _Index, value: Any, role: int = _EDIT) -> bool:
        if not index.isValid():
            return False
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.CheckStateRole and index.column() == self.COL_TARGET:
            checked = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(
                value, bool) else value
            if checked == row.checked:
                return True
            row.checked = checked
            self.dataChanged.emit(index, self.index(index.row(), self.COL_SHARE))
            return True
        if role == _EDIT and index.column() == self.COL_SHARE and row.checked:
            try:
                share = int(value)
            except (TypeError, ValueError):
                return False
            if share < 1:
                return False
            row.share = share
            self.dataChanged.emit(index, index)
            return True
        return False
