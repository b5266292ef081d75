"""Table models for the Healing view: patients, plan segments, day-by-day projections, the
comparison of two plans, and the infirmary's staff and load.

Numbers shown here are asked of the rules core or the domain (projections, care levels,
capacities); the models only lay them out. Edits to characters (a healing regime) go onto
the undo stack through :mod:`mneme_desktop.ui.healing_commands`; a refused edit changes
nothing and is explained through ``edit_rejected``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from mneme_desktop.domain import Character, Characteristic, ConditionKind, GameTime
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.healing.infirmary import Infirmary, InfirmaryReport, Medic
from mneme_desktop.domain.healing.plan import HealingPlan, Projection
from mneme_desktop.rules.healing import (
    THERAPY_DAYS_PER_POINT,
    Activity,
    PlanSegment,
    care_for_state,
)
from mneme_desktop.rules.wounds import WoundState, wound_state
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.healing_commands import set_regime
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.headed_table import HeadedTableModel, full_text_tip
from mneme_desktop.ui.models.roles import (
    CHOICES_ROLE,
    EDITOR_ROLE,
    ENTITY_ROLE,
    ID_ROLE,
    RULE_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
    WOUND_STATE_ROLE,
)
from mneme_desktop.ui.widgets.delegates import EditorKind, EditorSpec

__all__ = [
    "ACTIVITY_CHOICES",
    "ComparisonModel",
    "InfirmaryLoadModel",
    "InfirmaryStaffModel",
    "PatientListModel",
    "PlanSegmentModel",
    "ProjectionTableModel",
    "characteristic_damage_text",
    "regime_text",
]

_CTX = "HealingModels"

_Index = QModelIndex | QPersistentModelIndex
_NO_REGIME = ""
_NO_REGIME_TEXT = tr_noop(_CTX, "no regime")

ACTIVITY_CHOICES: list[tuple[str, str]] = [(a.label, a.value) for a in reversed(Activity)]
"""Full rest first: the regime a referee picks most."""

_DISPLAY = Qt.ItemDataRole.DisplayRole
_EDIT = Qt.ItemDataRole.EditRole
_CHECK = Qt.ItemDataRole.CheckStateRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_FONT = Qt.ItemDataRole.FontRole
_BACKGROUND = Qt.ItemDataRole.BackgroundRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CHANGE_BACKGROUND = QColor(255, 243, 196)
_HEALED_BACKGROUND = QColor(214, 240, 214)
_IMPOSSIBLE_FOREGROUND = QColor(0xC6, 0x28, 0x28)
_CONTINUING_FOREGROUND = QColor(110, 110, 110)


def _check(value: bool) -> Qt.CheckState:
    return Qt.CheckState.Checked if value else Qt.CheckState.Unchecked


def _is_checked(value: object) -> bool:
    if isinstance(value, Qt.CheckState):
        return value == Qt.CheckState.Checked
    return value == Qt.CheckState.Checked.value or value is True


_BOLD: list[QFont] = []


def _bold() -> QFont:
    """A bold font, made once (a table asks for it per row; a QFont needs the app)."""
    if not _BOLD:
        font = QFont()
        font.setBold(True)
        _BOLD.append(font)
    return _BOLD[0]


def _with_care(label: str, care: bool) -> str:
    return tr(_CTX, "{0} + care").format(label) if care else label


def regime_text(character: Character) -> str:
    """"full rest + care", or "no regime"."""
    recovery = character.recovery
    if recovery is None:
        return tr(_CTX, _NO_REGIME_TEXT)
    return _with_care(recovery.activity.label, recovery.care)


def characteristic_damage_text(character: Character) -> str:
    """"INT 2, EDU 1" - characteristic damage, PSI included (it is shown, not treated)."""
    damage = character.characteristic_damage
    parts = []
    for code in Characteristic:
        points = damage.value_of(code) or 0
        if points:
            parts.append(f"{code.value.upper()} {points}")
    return ", ".join(parts)


def _day_label(start: GameTime | None, day: int) -> str:
    return "" if start is None else start.advance(days=day).label


class _TranslatedHeaders(HeadedTableModel):
    """Headers marked with ``tr_noop(_CTX, ...)``, translated where shown."""

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        value = super().headerData(section, orientation, role)
        return tr(_CTX, value) if isinstance(value, str) and value else value


# ---------------------------------------------------------------------- patients


class PatientListModel(_TranslatedHeaders):
    """The campaign's characters with their wounds and healing regime.

    Column 0 is checkable: the characters a plan is projected and advanced for. The
    Activity and Care columns edit the character's regime (undoable).
    """

    NAME, DAMAGE, STATE, ACTIVITY, CARE, CHARACTERISTICS = range(6)
    HEADERS = (tr_noop(_CTX, "Character"), tr_noop(_CTX, "Dmg/HP"), tr_noop(_CTX, "State"),
               tr_noop(_CTX, "Activity"), tr_noop(_CTX, "Care"), tr_noop(_CTX, "Char."))
    TEXT_COLUMNS = (NAME, STATE, ACTIVITY, CHARACTERISTICS)
    """Cells that can be cut short: their tooltip always holds the whole shown text."""

    checked_changed = Signal()
    edit_rejected = Signal(str)

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._ids: list[str] = [c.id for c in document.campaign.characters]
        self._checked: dict[str, None] = {}  # an ordered set: a check per cell is O(1)
        document.changed.connect(self._document_changed)

    # --- public -------------------------------------------------------------------

    def checked_ids(self) -> list[str]:
        """Checked characters in list order."""
        checked = self._checked
        return [cid for cid in self._ids if cid in checked]

    def set_checked_ids(self, ids: Sequence[str]) -> None:
        known = set(self._ids)
        wanted = [cid for cid in ids if cid in known and self._plannable(cid)]
        if wanted == self.checked_ids():
            return
        self._checked = dict.fromkeys(wanted)
        if self._ids:
            self.dataChanged.emit(self.index(0, self.NAME),
                                  self.index(len(self._ids) - 1, self.NAME), [_CHECK])
        self.checked_changed.emit()

    def character_at(self, row: int) -> Character | None:
        if not 0 <= row < len(self._ids):
            return None
        return self._document.campaign.find_character(self._ids[row])

    def row_of(self, character_id: str) -> int:
        return self._ids.index(character_id) if character_id in self._ids else -1

    # --- signals from the document ---------------------------------------------------

    def _reset(self) -> None:
        self.beginResetModel()
        self._ids = [c.id for c in self._document.campaign.characters]
        before = list(self._checked)
        known = set(self._ids)
        self._checked = dict.fromkeys(cid for cid in self._checked if cid in known)
        self.endResetModel()
        if before != list(self._checked):
            self.checked_changed.emit()

    def _document_changed(self, summary: ChangeSummary) -> None:
        changed = summary.character_ids
        dropped = [cid for cid in self._checked if cid in changed and not self._plannable(cid)]
        if dropped:  # the dead leave the plan
            for cid in dropped:
                del self._checked[cid]
            self.checked_changed.emit()
        if summary.structure_changed:
            self._reset()
            return
        rows = [row for row, cid in enumerate(self._ids) if cid in changed] if changed else []
        if rows:  # one notice for the span of rows the step touched
            self.dataChanged.emit(self.index(rows[0], 0),
                                  self.index(rows[-1], self.columnCount() - 1))

    def _plannable(self, character_id: str) -> bool:
        character = self._document.campaign.find_character(character_id)
        return character is not None and not character.has_condition(ConditionKind.DEAD)

    # --- Qt model ------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        character = self.character_at(index.row())
        if character is None or character.has_condition(ConditionKind.DEAD):
            return flags
        column = index.column()
        if column in (self.NAME, self.CARE):
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        if column == self.ACTIVITY:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or role not in _PATIENT_ROLES:
            return None
        character = self.character_at(index.row())
        if character is None:
            return None
        return self._data(character, index, role)

    def multiData(self, index: _Index, span: Any) -> None:
        """All the roles a cell is painted or measured with in one call (Qt 6 asks for
        eight together, for every row when sizing the columns to their contents): the
        character is looked up once, and the roles this model does not answer cost
        nothing. Qt reuses the span between cells, so every role not answered is cleared."""
        character = self.character_at(index.row()) if index.isValid() else None
        for item in span:
            role = item.role()
            value = None if character is None or role not in _PATIENT_ROLES else \
                self._data(character, index, role)
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _data(self, character: Character, index: _Index, role: int) -> Any:
        column = index.column()
        if role == ID_ROLE:
            return character.id
        if role == ENTITY_ROLE:
            return character
        if role == WOUND_STATE_ROLE:
            return character.wound_state(self._document.threshold_basis)
        if role == _CHECK:
            if column == self.NAME and not character.has_condition(ConditionKind.DEAD):
                return _check(character.id in self._checked)
            if column == self.CARE and not character.has_condition(ConditionKind.DEAD):
                return _check(character.recovery is not None and character.recovery.care)
            return None
        if role == _FONT and column == self.NAME and (
            character.damage or character.characteristic_damage.is_damaged
        ):
            return _bold()
        if role == _ALIGN and column == self.DAMAGE:
            return _RIGHT
        if role == EDITOR_ROLE and column == self.ACTIVITY:
            return EditorSpec(EditorKind.CHOICE)
        if role == CHOICES_ROLE and column == self.ACTIVITY:
            return [(tr(_CTX, _NO_REGIME_TEXT), _NO_REGIME), *ACTIVITY_CHOICES]
        if role == VALUE_ROLE:
            if column == self.ACTIVITY:
                recovery = character.recovery
                return _NO_REGIME if recovery is None else recovery.activity.value
            if column == self.STATE:
                return character.wound_state(self._document.threshold_basis)
            if column == self.CARE:
                return character.recovery is not None and character.recovery.care
            return None
        if role in (RULE_ROLE, _TOOLTIP):
            rule = self._rule(character, column,
                              character.wound_state(self._document.threshold_basis))
            if role == _TOOLTIP and column in self.TEXT_COLUMNS:
                return full_text_tip(self._text(character, column, _DISPLAY), rule)
            return rule
        if role == SORT_ROLE:
            if column == self.DAMAGE:
                return character.damage
            if column == self.STATE:
                return character.wound_state(self._document.threshold_basis).severity
            return str(self.data(index, _DISPLAY) or "").casefold()
        if role in (_DISPLAY, _EDIT):
            return self._text(character, column, role)
        return None

    def _text(self, character: Character, column: int, role: int) -> Any:
        """A cell's text; the wound state is worked out for the State column only (a
        table of a thousand patients asks for every cell's text to size its columns)."""
        if column == self.NAME:
            return character.name
        if column == self.DAMAGE:
            return f"{character.damage}/{character.hit_points}"
        if column == self.STATE:
            return character.wound_state(self._document.threshold_basis).label
        if column == self.ACTIVITY:
            recovery = character.recovery
            if role == _EDIT:
                return _NO_REGIME if recovery is None else recovery.activity.value
            return tr(_CTX, _NO_REGIME_TEXT) if recovery is None else recovery.activity.label
        if column == self.CARE:
            return ""
        if column == self.CHARACTERISTICS:
            return characteristic_damage_text(character)
        return None

    def _rule(self, character: Character, column: int, state: WoundState) -> str | None:
        basis = self._document.threshold_basis
        if column in (self.STATE, self.DAMAGE) and state is not WoundState.DEAD:
            rule = character.wound_thresholds(basis).rule_for(state)
            needed = care_for_state(state)
            if needed is None:
                return rule
            needs = tr(_CTX, "Needs {0}: {1} light-care unit") if needed.load == 1 else \
                tr(_CTX, "Needs {0}: {1} light-care units")
            return f"{rule}\n" + needs.format(needed.label, needed.load)
        if column == self.ACTIVITY:
            return tr(_CTX, "The activity level the character heals at; edit to change the "
                            "regime.")
        if column == self.CARE:
            needed = care_for_state(state)
            what = tr(_CTX, "the care level the wound needs") if needed is None \
                else needed.label
            return tr(_CTX, "Receiving {0} (counts against the medics' capacity).").format(what)
        if column == self.NAME:
            return tr(_CTX, "Check to include in the healing plan.")
        return None

    def setData(self, index: _Index, value: Any, role: int = _EDIT) -> bool:
        if not index.isValid():
            return False
        character = self.character_at(index.row())
        if character is None or character.has_condition(ConditionKind.DEAD):
            return False
        column = index.column()
        if column == self.NAME and role == _CHECK:
            checked = _is_checked(value)
            if checked == (character.id in self._checked):
                return True
            if checked:
                self._checked[character.id] = None
            else:
                del self._checked[character.id]
            self.dataChanged.emit(index, index, [_CHECK])
            self.checked_changed.emit()
            return True
        recovery = character.recovery
        try:
            if column == self.CARE and role == _CHECK:
                activity = Activity.FULL_REST if recovery is None else recovery.activity
                set_regime(self._document, character, activity, _is_checked(value))
                return True
            if column == self.ACTIVITY and role == _EDIT:
                text = str(value or "")
                if text == _NO_REGIME:
                    set_regime(self._document, character, None, False)
                else:
                    set_regime(self._document, character, Activity(text),
                               recovery is not None and recovery.care)
                return True
        except (ValueError, ValidationError) as exc:
            self.edit_rejected.emit(
                tr(_CTX, "{0}: regime not changed: {1}").format(character.name, exc))
            return False
        return False


_PATIENT_ROLES = frozenset(int(role) for role in (
    ID_ROLE, ENTITY_ROLE, WOUND_STATE_ROLE, _CHECK, _FONT, _ALIGN, EDITOR_ROLE, CHOICES_ROLE,
    VALUE_ROLE, RULE_ROLE, _TOOLTIP, SORT_ROLE, _DISPLAY, _EDIT))
"""The roles :class:`PatientListModel` answers."""


# ----------------------------------------------------------------- plan segments


class PlanSegmentModel(_TranslatedHeaders):
    """The segments of one plan: activity, care and days, edited in place (view state)."""

    ACTIVITY, CARE, DAYS = range(3)
    HEADERS = (tr_noop(_CTX, "Activity"), tr_noop(_CTX, "Care"), tr_noop(_CTX, "Days"))
    MAX_DAYS = 3650

    plan_changed = Signal()

    def __init__(self, plan: HealingPlan, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._segments: list[PlanSegment] = list(plan.segments)
        self._name = plan.name
        self._therapy = plan.therapy

    def plan(self) -> HealingPlan:
        return HealingPlan(tuple(self._segments), self._name, self._therapy)

    def set_plan(self, plan: HealingPlan) -> None:
        self.beginResetModel()
        self._segments = list(plan.segments)
        self._name = plan.name
        self._therapy = plan.therapy
        self.endResetModel()
        self.plan_changed.emit()

    def set_name(self, name: str) -> None:
        if name != self._name:
            self._name = name
            self.plan_changed.emit()

    def set_therapy(self, therapy: bool) -> None:
        if therapy != self._therapy:
            self._therapy = therapy
            self.plan_changed.emit()

    def segment(self, row: int) -> PlanSegment:
        return self._segments[row]

    def add_segment(self) -> int:
        """Append a copy of the last segment; returns its row."""
        row = len(self._segments)
        last = self._segments[-1]
        self.beginInsertRows(QModelIndex(), row, row)
        self._segments.append(PlanSegment(last.activity, last.care, last.days))
        self.endInsertRows()
        self.plan_changed.emit()
        return row

    def remove_segment(self, row: int) -> bool:
        """Remove a segment; a plan keeps at least one."""
        if len(self._segments) <= 1 or not 0 <= row < len(self._segments):
            return False
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._segments[row]
        self.endRemoveRows()
        self.plan_changed.emit()
        return True

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._segments)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        if role != _DISPLAY:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return tr(_CTX, self.HEADERS[section])
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._segments):
            return str(section + 1)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == self.CARE:
            return flags | Qt.ItemFlag.ItemIsUserCheckable
        return flags | Qt.ItemFlag.ItemIsEditable

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._segments):
            return None
        segment = self._segments[index.row()]
        column = index.column()
        if column == self.ACTIVITY:
            if role in (_DISPLAY, _TOOLTIP):
                return segment.activity.label
            if role in (_EDIT, VALUE_ROLE):
                return segment.activity.value
            if role == EDITOR_ROLE:
                return EditorSpec(EditorKind.CHOICE)
            if role == CHOICES_ROLE:
                return list(ACTIVITY_CHOICES)
        elif column == self.CARE:
            if role == _CHECK:
                return _check(segment.care)
            if role == VALUE_ROLE:
                return segment.care
            if role == _TOOLTIP:
                return tr(_CTX, "With the care level the wound needs (light, moderate, "
                                "serious, intensive)")
        elif column == self.DAYS:
            if role in (_DISPLAY, _EDIT, VALUE_ROLE):
                return segment.days
            if role == EDITOR_ROLE:
                return EditorSpec(EditorKind.INTEGER, 1, self.MAX_DAYS)
            if role == _ALIGN:
                return _RIGHT
        return None

    def setData(self, index: _Index, value: Any, role: int = _EDIT) -> bool:
        if not index.isValid() or not 0 <= index.row() < len(self._segments):
            return False
        segment = self._segments[index.row()]
        column = index.column()
        try:
            if column == self.ACTIVITY and role == _EDIT:
                new = PlanSegment(Activity(str(value)), segment.care, segment.days)
            elif column == self.CARE and role == _CHECK:
                new = PlanSegment(segment.activity, _is_checked(value), segment.days)
            elif column == self.DAYS and role == _EDIT:
                days = int(value)
                if not 1 <= days <= self.MAX_DAYS:
                    return False
                new = PlanSegment(segment.activity, segment.care, days)
            else:
                return False
        except (TypeError, ValueError):
            return False
        if new != segment:
            self._segments[index.row()] = new
            self.dataChanged.emit(index, index)
            self.plan_changed.emit()
        return True


# -------------------------------------------------------------------- projection


class ProjectionTableModel(_TranslatedHeaders):
    """One plan's projection for one character, a row per day: the rule and rate in force,
    damage, progress carried, and where the state changes or the character is healed."""

    DAY, DAMAGE, RATE, NOTE, RULE, PROGRESS, DATE, STATE, REGIME = range(9)
    HEADERS = (tr_noop(_CTX, "Day"), tr_noop(_CTX, "Damage"), tr_noop(_CTX, "Rate"),
               tr_noop(_CTX, "Note"), tr_noop(_CTX, "Rule in force"), tr_noop(_CTX, "Progress"),
               tr_noop(_CTX, "Date"), tr_noop(_CTX, "State"), tr_noop(_CTX, "Regime"))
    TEXT_COLUMNS = (NOTE, RULE, DATE, STATE, REGIME, RATE)
    """Cells that can be cut short: their tooltip always holds the whole shown text."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._projection: Projection | None = None
        self._start: GameTime | None = None
        self._rows: list[tuple[str, int]] = []

    @property
    def projection(self) -> Projection | None:
        return self._projection

    def set_projection(self, projection: Projection | None, start: GameTime | None) -> None:
        self.beginResetModel()
        self._projection = projection
        self._start = start
        self._rows = []
        if projection is not None:
            self._rows = [("heal", i) for i in range(len(projection.healing))]
            self._rows += [("therapy", i) for i in range(len(projection.therapy))]
        self.endResetModel()

    def row_for_day(self, day: int) -> int:
        for row in range(len(self._rows)):
            if self._day(row) == day:
                return row
        return -1

    def _day(self, row: int) -> int:
        assert self._projection is not None
        kind, i = self._rows[row]
        if kind == "heal":
            return self._projection.healing[i].day
        return self._projection.therapy[i].day

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def _notes(self, row: int) -> tuple[list[str], str]:
        """Notes for the row and its highlight: "" / "change" / "healed" / "impossible" /
        "continuing"."""
        projection = self._projection
        assert projection is not None
        kind, i = self._rows[row]
        notes: list[str] = []
        highlight = ""
        if kind == "therapy":
            therapy = projection.therapy[i]
            if therapy.points_after < therapy.points_before:
                notes.append(f"{therapy.characteristic.value.upper()} +1")
            if therapy.day == projection.recovered_day:
                notes.append(tr(_CTX, "all restored"))
                highlight = "healed"
            return notes, highlight
        record = projection.healing[i]
        if record.rate is None:
            notes.append(tr(_CTX, "immobile: impossible"))
            highlight = "impossible"
        after = wound_state(record.damage_end, projection.hp, projection.thresholds)
        if record.damage_end == 0:
            notes.append(tr(_CTX, "fully healed"))
            highlight = "healed"
        elif after is not record.state:
            notes.append(tr(_CTX, "now {0}").format(after.label))
            highlight = highlight or "change"
        if record.day == projection.plan.total_days and record.damage_end > 0:
            notes.append(tr(_CTX, "last plan day"))
        elif record.day > projection.plan.total_days:
            highlight = highlight or "continuing"
        return notes, highlight

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        projection = self._projection
        if not index.isValid() or projection is None or not 0 <= index.row() < len(self._rows):
            return None
        row, column = index.row(), index.column()
        kind, i = self._rows[row]
        notes, highlight = self._notes(row)
        if role == _BACKGROUND:
            if highlight == "change":
                return QBrush(_CHANGE_BACKGROUND)
            if highlight == "healed":
                return QBrush(_HEALED_BACKGROUND)
            return None
        if role == _FOREGROUND:
            if highlight == "impossible":
                return QBrush(_IMPOSSIBLE_FOREGROUND)
            if highlight == "continuing":
                return QBrush(_CONTINUING_FOREGROUND)
            return None
        if role == _FONT and highlight in ("change", "healed"):
            return _bold()
        if role == _ALIGN and column in (self.DAY, self.DAMAGE, self.PROGRESS):
            return _RIGHT
        if role == VALUE_ROLE:
            if kind == "heal":
                record = projection.healing[i]
                return {self.DAY: record.day, self.STATE: record.state,
                        self.DAMAGE: record.damage_end, self.PROGRESS: record.progress,
                        self.RULE: record.rate}.get(column)
            therapy = projection.therapy[i]
            return {self.DAY: therapy.day, self.DAMAGE: therapy.points_after,
                    self.PROGRESS: therapy.progress}.get(column)
        if role in (RULE_ROLE, _TOOLTIP) and column in (self.RULE, self.RATE):
            rule = projection.healing[i].rule if kind == "heal" else projection.therapy[i].rule
            if role == RULE_ROLE:
                return rule
            return full_text_tip(self._display(kind, i, notes, column), rule)
        if role == _TOOLTIP and column in self.TEXT_COLUMNS:
            return full_text_tip(self._display(kind, i, notes, column))
        if role != _DISPLAY:
            return None
        return self._display(kind, i, notes, column)

    def _display(self, kind: str, i: int, notes: list[str], column: int) -> str | None:
        projection = self._projection
        assert projection is not None
        if kind == "heal":
            record = projection.healing[i]
            values: dict[int, str] = {
                self.DAY: str(record.day),
                self.DATE: _day_label(self._start, record.day),
                self.REGIME: _with_care(record.activity.label, record.care),
                self.STATE: record.state.label,
                self.RULE: record.rule,
                self.RATE: record.rule.rsplit(": ", 1)[-1],
                self.DAMAGE: f"{record.damage_start} → {record.damage_end}",
                self.PROGRESS: _progress_text(record.progress),
                self.NOTE: "; ".join(notes),
            }
            return values.get(column)
        therapy = projection.therapy[i]
        code = therapy.characteristic.value.upper()
        values = {
            self.DAY: str(therapy.day),
            self.DATE: _day_label(self._start, therapy.day),
            self.REGIME: tr(_CTX, "therapy"),
            self.STATE: WoundState.UNHURT.label,
            self.RULE: therapy.rule,
            self.RATE: tr(_CTX, "-1 point / {0} days").format(THERAPY_DAYS_PER_POINT),
            self.DAMAGE: f"{code} {therapy.points_before} → {therapy.points_after}",
            self.PROGRESS: _progress_text(therapy.progress),
            self.NOTE: "; ".join(notes),
        }
        return values.get(column)


def _progress_text(progress: Fraction) -> str:
    return "0" if progress == 0 else str(progress)


# -------------------------------------------------------------------- comparison


class ComparisonModel(QAbstractTableModel):
    """Every checked character under both plans: when fit to fight, when fully healed."""

    NAME, A_FIT, A_HEALED, B_FIT, B_HEALED = range(5)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[Projection, Projection]] = []
        self._names = (tr(_CTX, "Plan A"), tr(_CTX, "Plan B"))
        self._start: GameTime | None = None

    def set_rows(self, rows: Sequence[tuple[Projection, Projection]],
                 start: GameTime | None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._start = start
        if rows:
            self._names = (rows[0][0].plan.name, rows[0][1].plan.name)
        self.endResetModel()

    def set_plan_names(self, first: str, second: str) -> None:
        if (first, second) != self._names:
            self._names = (first, second)
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, self.A_FIT, self.B_HEALED)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else 5

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < 5:
            return None
        a, b = self._names
        if role == _DISPLAY:
            return tr(_CTX, _COMPARISON_HEADERS[section])
        if role == _TOOLTIP:
            if section == self.NAME:
                return None
            fit = tr(_CTX, "{0}: no worse than Wounded: full movement, can Dash")
            healed = tr(_CTX, "{0}: damage healed")
            plan = a if section in (self.A_FIT, self.A_HEALED) else b
            return (fit if section in (self.A_FIT, self.B_FIT) else healed).format(plan)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    @staticmethod
    def _when(day: int | None) -> str:
        if day is None:
            return tr(_CTX, "never")
        return tr(_CTX, "now") if day == 0 else tr(_CTX, "day {0}").format(day)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows) or \
                role not in _COMPARISON_ROLES:
            return None
        return self._data(index, role)

    def multiData(self, index: _Index, span: Any) -> None:
        """All the roles of a cell in one call (see :meth:`PatientListModel.multiData`)."""
        known = index.isValid() and 0 <= index.row() < len(self._rows)
        for item in span:
            role = item.role()
            value = self._data(index, role) if known and role in _COMPARISON_ROLES else None
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _data(self, index: _Index, role: int) -> Any:
        first, second = self._rows[index.row()]
        column = index.column()
        if role == ID_ROLE:
            return first.character_id
        if role == VALUE_ROLE:
            return {self.A_FIT: first.fit_day, self.A_HEALED: first.healed_day,
                    self.B_FIT: second.fit_day, self.B_HEALED: second.healed_day}.get(column)
        if role == _TOOLTIP:
            projection = first if column in (self.A_FIT, self.A_HEALED) else second
            if column == self.NAME:
                return full_text_tip(first.name, tr(_CTX, "Now: damage {0}/{1}, {2}").format(
                    first.start_damage, first.hp, first.start_state.label))
            day = projection.fit_day if column in (self.A_FIT, self.B_FIT) else (
                projection.healed_day)
            date = "" if not day else f"{_day_label(self._start, day)}\n"
            return date + projection.outcome
        if role == _FONT and column in (self.A_HEALED, self.B_HEALED):
            mine = first.healed_day if column == self.A_HEALED else second.healed_day
            other = second.healed_day if column == self.A_HEALED else first.healed_day
            if mine is not None and (other is None or mine < other):
                return _bold()
            return None
        if role != _DISPLAY:
            return None
        if column == self.NAME:
            return first.name
        return {
            self.A_FIT: self._when(first.fit_day),
            self.A_HEALED: self._when(first.healed_day),
            self.B_FIT: self._when(second.fit_day),
            self.B_HEALED: self._when(second.healed_day),
        }.get(column)


_COMPARISON_HEADERS = (tr_noop(_CTX, "Character"), tr_noop(_CTX, "A: fit"),
                       tr_noop(_CTX, "A: healed"), tr_noop(_CTX, "B: fit"),
                       tr_noop(_CTX, "B: healed"))

_COMPARISON_ROLES = frozenset(int(role) for role in (
    ID_ROLE, VALUE_ROLE, _TOOLTIP, _FONT, _DISPLAY))
"""The roles :class:`ComparisonModel` answers."""


# --------------------------------------------------------------------- infirmary


class InfirmaryStaffModel(_TranslatedHeaders):
    """The medics, editable: name and Medic level; capacity from the rules core.

    Edits do not change the model's infirmary directly: ``infirmary_edited`` carries the
    edited copy, the view stores it (undoably when the campaign keeps an infirmary) and
    hands it back through :meth:`set_infirmary`.
    """

    NAME, LEVEL, CAPACITY = range(3)
    HEADERS = (tr_noop(_CTX, "Medic"), tr_noop(_CTX, "Level"), tr_noop(_CTX, "Capacity"))

    infirmary_edited = Signal(object)
    edit_rejected = Signal(str)

    def __init__(self, infirmary: Infirmary, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._infirmary = infirmary.model_copy(deep=True)

    @property
    def infirmary(self) -> Infirmary:
        return self._infirmary.model_copy(deep=True)

    def set_infirmary(self, infirmary: Infirmary) -> None:
        self.beginResetModel()
        self._infirmary = infirmary.model_copy(deep=True)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._infirmary.medics)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (self.NAME, self.LEVEL):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        medics = self._infirmary.medics
        if not index.isValid() or not 0 <= index.row() < len(medics):
            return None
        medic = medics[index.row()]
        column = index.column()
        if role == ID_ROLE:
            return medic.id
        if role == ENTITY_ROLE:
            return medic
        if role == EDITOR_ROLE:
            if column == self.NAME:
                return EditorSpec(EditorKind.TEXT, max_length=200)
            if column == self.LEVEL:
                return EditorSpec(EditorKind.INTEGER, 0, 15)
        if role == _ALIGN and column in (self.LEVEL, self.CAPACITY):
            return _RIGHT
        if role in (RULE_ROLE, _TOOLTIP) and column == self.CAPACITY:
            return tr(_CTX, "8 x 2^{0} = {1} light-care patients").format(medic.level,
                                                                             medic.capacity)
        if role == _TOOLTIP and column == self.NAME:
            return full_text_tip(medic.name)
        if role in (_DISPLAY, _EDIT, VALUE_ROLE):
            if column == self.NAME:
                return medic.name
            if column == self.LEVEL:
                return medic.level if role != _DISPLAY else str(medic.level)
            if column == self.CAPACITY:
                return medic.capacity if role == VALUE_ROLE else str(medic.capacity)
        return None

    def setData(self, index: _Index, value: Any, role: int = _EDIT) -> bool:
        medics = self._infirmary.medics
        if role != _EDIT or not index.isValid() or not 0 <= index.row() < len(medics):
            return False
        medic = medics[index.row()]
        field = {self.NAME: "name", self.LEVEL: "level"}.get(index.column())
        if field is None:
            return False
        try:
            edited = Medic.model_validate({**medic.model_dump(), field: value})
        except ValidationError as exc:
            message = "; ".join(str(e["msg"]).removeprefix("Value error, ")
                                for e in exc.errors())
            self.edit_rejected.emit(tr(_CTX, "Medic not changed: {0}").format(message))
            return False
        if edited == medic:
            return True
        infirmary = self._infirmary.model_copy(deep=True)
        infirmary.medics[index.row()] = edited
        self.infirmary_edited.emit(infirmary)
        return True


class InfirmaryLoadModel(_TranslatedHeaders):
    """Patients under care with the care level their wound state needs and its load."""

    NAME, STATE, CARE, LOAD = range(4)
    HEADERS = (tr_noop(_CTX, "Patient"), tr_noop(_CTX, "State"), tr_noop(_CTX, "Care level"),
               tr_noop(_CTX, "Load"))

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._report: InfirmaryReport | None = None

    def set_report(self, report: InfirmaryReport) -> None:
        self.beginResetModel()
        self._report = report
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if parent.isValid() or self._report is None:
            return 0
        return len(self._report.patients)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        report = self._report
        if report is None or not index.isValid() or not 0 <= index.row() < len(
            report.patients
        ):
            return None
        patient = report.patients[index.row()]
        column = index.column()
        if role == ID_ROLE:
            return patient.character_id
        if role == WOUND_STATE_ROLE:
            return patient.state
        if role == _ALIGN and column == self.LOAD:
            return _RIGHT
        if role in (RULE_ROLE, _TOOLTIP) and column in (self.CARE, self.LOAD):
            return tr(_CTX, "{0} needs {1}; 1 {2} care patient = {3} light care").format(
                patient.state.label, patient.care.label, patient.care.value, patient.load)
        if role == _TOOLTIP and column in (self.NAME, self.STATE):
            return full_text_tip(patient.name if column == self.NAME else patient.state.label)
        if role == VALUE_ROLE and column == self.LOAD:
            return patient.load
        if role != _DISPLAY:
            return None
        return {
            self.NAME: patient.name,
            self.STATE: patient.state.label,
            self.CARE: patient.care.label,
            self.LOAD: str(patient.load),
        }.get(column)
