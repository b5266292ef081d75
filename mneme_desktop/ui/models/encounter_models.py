"""Qt models of the encounter screen: the turn order, the log, the action catalog, the terms
of a Difficulty, and the targets of an attack.

The turn order and the log follow the document's ``encounter_changed`` signal by diffing:
rows that came or went are inserted or removed, a new order is a layout change, and only
rows whose shown values differ get ``dataChanged``. A turn in a 200-combatant fight repaints
two rows, not the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPalette, QPixmap
from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import (
    Campaign,
    Character,
    Combatant,
    Encounter,
    EncounterLogEntry,
    Side,
)
from mneme_desktop.domain.combat import (
    CombatantStatus,
    combatant_status,
    format_log_entry,
    initiative_from_text,
    initiative_patch,
    initiative_ties,
)
from mneme_desktop.drawing.track_painter import describe_track
from mneme_desktop.rules.actions import ACTION_CATALOG, MINOR_ACTIONS_PER_ROUND, Stance
from mneme_desktop.rules.checks import CoverLevel, DifficultyBreakdown
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import WoundState, WoundThresholds
from mneme_desktop.ui.encounter_commands import push_patch
from mneme_desktop.ui.models.headed_table import HeadedTableModel
from mneme_desktop.ui.models.roles import (
    ID_ROLE,
    RULE_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
    WOUND_STATE_ROLE,
)
from mneme_desktop.ui.widgets.action_pips import pips_text
from mneme_desktop.ui.widgets.plain_text import TOOLTIP_LIMIT, clip

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = [
    "SIDE_COLORS",
    "ActionCatalogModel",
    "AttackTargetsModel",
    "DifficultyTermsModel",
    "EncounterLogModel",
    "TurnOrderModel",
    "side_icon",
]

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_EDIT = Qt.ItemDataRole.EditRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole

SIDE_COLORS = {
    Side.PLAYERS: QColor(0x2E, 0x7D, 0xD2),
    Side.ENEMIES: QColor(0xC6, 0x28, 0x28),
    Side.NEUTRAL: QColor(0x75, 0x75, 0x75),
}
"""The colour a side is marked with (a swatch beside the name, never the only cue)."""

_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_SELECTABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EDITABLE = _SELECTABLE | Qt.ItemFlag.ItemIsEditable
_TIE_BRUSH = QBrush(QColor(0xF2, 0xB7, 0x05, 56))
_SIDE_ICONS: dict[Side, QIcon] = {}


def side_icon(side: Side) -> QIcon:
    """A small swatch in the side's colour, made once (a QColor decoration would be turned
    into a new pixmap on every paint)."""
    icon = _SIDE_ICONS.get(side)
    if icon is None:
        pixmap = QPixmap(12, 12)
        pixmap.fill(SIDE_COLORS[side])
        icon = QIcon(pixmap)
        _SIDE_ICONS[side] = icon
    return icon


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ===================================================================== turn order


@dataclass(frozen=True)
class _Row:
    """Everything a turn-order row shows; rows are compared to find what changed."""

    id: str
    character_id: str
    place: int
    name: str
    side: Side
    initiative: int | None
    dice: tuple[int, ...]
    tie: tuple[int, int] | None
    current: bool
    delayed: bool
    spent: int
    aim: int
    aim_target: str
    stance: Stance
    cover: CoverLevel
    damage: int
    hp: int
    thresholds: WoundThresholds
    state: WoundState
    penalty: int
    conditions: tuple[str, ...]
    can_act: bool
    dying_due: bool
    task: tuple[str, int, int] | None


# What each turn-order column is drawn from; a change in a row-wide field (the turn
# highlight, the greyed-out look of a combatant who cannot act) repaints the whole row.
_ROW_WIDE = ("id", "character_id", "place", "current", "can_act", "state", "delayed")
_COLUMN_FIELDS: tuple[tuple[str, ...], ...] = (
    ("place", "current"),  # Turn
    ("initiative", "tie", "dice"),  # Init
    ("name", "delayed", "side"),  # Combatant
    ("spent",),  # Actions
    ("damage", "hp", "thresholds"),  # HP
    ("state", "penalty"),  # State
    ("conditions", "dying_due"),  # Conditions
    ("aim", "aim_target"),  # Aim
    ("stance", "cover"),  # Stance
    ("task",),  # Task
)


def _changed_columns(old: _Row, new: _Row) -> tuple[int, int] | None:
    """The first and last column whose cells differ between two versions of a row."""
    if any(getattr(old, name) != getattr(new, name) for name in _ROW_WIDE):
        return 0, len(_COLUMN_FIELDS) - 1
    columns = [column for column, names in enumerate(_COLUMN_FIELDS)
               if any(getattr(old, name) != getattr(new, name) for name in names)]
    return (columns[0], columns[-1]) if columns else None


class TurnOrderModel(HeadedTableModel):
    """The encounter's combatants in initiative order (Ch.6: descending), one row each."""

    COL_TURN, COL_INIT, COL_NAME, COL_ACTIONS, COL_HP, COL_STATE, COL_CONDITIONS, \
        COL_AIM, COL_STANCE, COL_TASK = range(10)
    HEADERS = ("Turn", "Init", "Combatant", "Actions", "HP", "State", "Conditions", "Aim",
               "Stance", "Task")
    HEADER_TIPS: ClassVar[dict[int, str]] = dict(enumerate((
        "▶ marks whose turn it is",
        "Initiative (2d6 + DEX DM + skill), descending; ties are marked",
        "Combatant; the swatch marks the side",
        "Minor actions left this round (3 per round)",
        "Damage against HP with the wound thresholds",
        "Wound state and wound penalty",
        "Conditions with their timers",
        "Aim bonus built up and its target",
        "Stance and cover",
        "Extended action (first aid ...) and the rounds left",
    )))

    refused = Signal(str)
    """An edit the rules refused (an initiative that is not a number or two dice)."""
    edit_accepted = Signal()
    """An edit in the table was made (a refusal shown for an earlier one no longer holds)."""

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._encounter_id: str | None = None
        self._rows: list[_Row] = []
        self._tracks: dict[tuple[int, int, WoundThresholds], DamageTrack] = {}
        self._cache: dict[str, tuple[tuple[object, ...], _Row]] = {}
        self._cells: dict[str, tuple[_Row, list[dict[int, Any]]]] = {}
        self._statuses: dict[str, tuple[tuple[object, ...], CombatantStatus]] = {}
        self._stale: set[str] = set()
        self._stale_now: set[str] = set()
        self._tie_names: dict[int, list[str]] = {}
        self._ties: tuple[tuple[object, ...], dict[str, tuple[int, int]]] = ((), {})
        self._deferred = QTimer(self)
        self._deferred.setSingleShot(True)
        self._deferred.setInterval(0)
        self._deferred.timeout.connect(self.sync)
        self.initiative_skill: str | None = None
        """The skill added when initiative is typed as two dice."""
        document.encounter_changed.connect(self._encounter_changed)
        document.character_changed.connect(self._character_changed)
        document.rules_changed.connect(self._deferred.start)
        document.time_changed.connect(self._deferred.start)

    # --- public ----------------------------------------------------------------------

    @property
    def encounter_id(self) -> str | None:
        return self._encounter_id

    def set_encounter(self, encounter_id: str | None) -> None:
        self.beginResetModel()
        self._encounter_id = encounter_id
        self._rows = []
        self._cache = {}
        self._cells = {}
        self._statuses = {}
        encounter = self._encounter()
        if encounter is not None:
            order = encounter.initiative_order()
            self._rows = self._compute(self._document.campaign, encounter, order)
        self.endResetModel()

    def combatant_id(self, row: int) -> str | None:
        return self._rows[row].id if 0 <= row < len(self._rows) else None

    def row_of(self, combatant_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == combatant_id), -1)

    def current_row(self) -> int:
        return next((i for i, r in enumerate(self._rows) if r.current), -1)

    def sync(self) -> None:
        """Bring the rows in line with the encounter, signalling only what changed."""
        encounter = self._encounter()
        if encounter is None:
            if self._rows:
                self.set_encounter(None)
            return
        campaign = self._document.campaign
        order = encounter.initiative_order()
        self._sync_structure(campaign, encounter, order)
        fresh = self._compute(campaign, encounter, order)
        changed = []
        for number, (old, new) in enumerate(zip(self._rows, fresh, strict=True)):
            if old is not new and old != new:
                columns = _changed_columns(old, new)
                if columns is not None:
                    changed.append((number, columns))
        self._rows = fresh
        if len(self._cells) > 2 * len(fresh) + 16:
            live = {r.id for r in fresh}
            self._cells = {k: v for k, v in self._cells.items() if k in live}
        self._emit_changed(changed)

    # --- Qt model --------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return _NO_FLAGS
        return _EDITABLE if index.column() == self.COL_INIT else _SELECTABLE

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        number = index.row()
        if not 0 <= number < len(self._rows) or not index.isValid():
            return None
        row = self._rows[number]
        column = index.column()
        if role == _TOOLTIP:
            return self._tooltip(row, column)
        if role == VALUE_ROLE:
            return self._value(row, column)
        # A table paint asks each cell for a dozen roles: answer from a per-row table that
        # is built once for each version of the row.
        return self._roles(row)[column].get(role)

    def multiData(self, index: _Index, span: Any) -> None:
        """All the roles a cell is painted with in one call (Qt 6 asks for them together),
        instead of a Python call per role. Qt reuses the span between cells, so every role
        not answered is cleared."""
        number = index.row()
        if not 0 <= number < len(self._rows) or not index.isValid():
            for item in span:
                item.clearData()
            return
        row = self._rows[number]
        column = index.column()
        roles = self._roles(row)[column]
        for item in span:
            role = item.role()
            if role == _TOOLTIP:
                value = self._tooltip(row, column)
            elif role == VALUE_ROLE:
                value = self._value(row, column)
            else:
                value = roles.get(role)
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _roles(self, row: _Row) -> list[dict[int, Any]]:
        cached = self._cells.get(row.id)
        if cached is None or cached[0] is not row:
            cached = (row, self._cell_roles(row))
            self._cells[row.id] = cached
        return cached[1]

    def _cell_roles(self, row: _Row) -> list[dict[int, Any]]:
        palette = QApplication.palette()
        muted = row.state is WoundState.DEAD or not row.can_act
        foreground = QBrush(palette.color(QPalette.ColorGroup.Disabled,
                                          QPalette.ColorRole.Text)) if muted else None
        background = None
        if row.current:
            highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
            highlight.setAlphaF(0.22)
            background = QBrush(highlight)
        cells = []
        for column in range(len(self.HEADERS)):
            display = self._display(row, column)
            roles: dict[int, Any] = {
                _DISPLAY: display,
                ID_ROLE: row.id,
                WOUND_STATE_ROLE: row.state,
                SORT_ROLE: row.place,
                Qt.ItemDataRole.AccessibleTextRole: display or self.HEADERS[column],
            }
            if column == self.COL_HP:  # the bar's band by name, not by colour and hatch only
                roles[Qt.ItemDataRole.AccessibleTextRole] = describe_track(self._track(row))
            if foreground is not None:
                roles[Qt.ItemDataRole.ForegroundRole] = foreground
            cell_background = background
            if cell_background is None and column == self.COL_INIT and row.tie is not None:
                cell_background = _TIE_BRUSH
            if cell_background is not None:
                roles[Qt.ItemDataRole.BackgroundRole] = cell_background
            font = self._font(row, column)
            if font is not None:
                roles[Qt.ItemDataRole.FontRole] = font
            if column in (self.COL_TURN, self.COL_ACTIONS):
                roles[_ALIGN] = _CENTER
            elif column == self.COL_INIT:
                roles[_ALIGN] = _RIGHT
                roles[_EDIT] = "" if row.initiative is None else str(row.initiative)
                if row.tie is not None:
                    roles[RULE_ROLE] = _TIE_RULE
            elif column == self.COL_NAME:
                roles[Qt.ItemDataRole.DecorationRole] = side_icon(row.side)
            cells.append(roles)
        return cells

    def setData(self, index: _Index, value: Any, role: int = _EDIT) -> bool:
        if role != _EDIT or not index.isValid() or index.column() != self.COL_INIT:
            return False
        encounter = self._encounter()
        if encounter is None:
            return False
        row = self._rows[index.row()]
        campaign = self._document.campaign
        combatant = encounter.find_combatant(row.id)
        if combatant is None:
            return False
        try:
            initiative, dice = initiative_from_text(
                campaign.combatant_character(combatant), str(value), self.initiative_skill)
            push_patch(self._document, initiative_patch(campaign, encounter, row.id,
                                                        initiative, dice))
        except ValueError as exc:
            self.refused.emit(str(exc))
            return False
        self.edit_accepted.emit()
        return True

    # --- rows ------------------------------------------------------------------------

    def _encounter(self) -> Encounter | None:
        return self._document.encounter(self._encounter_id)

    def _compute(self, campaign: Campaign, encounter: Encounter,
                 order: list[Combatant]) -> list[_Row]:
        """Rows for ``order``. A row whose inputs are the very same objects as last time
        is reused, so a turn in a large fight recomputes only the rows it touched."""
        current = encounter.current_combatant
        current_id = current.id if current is not None else None
        ties_key = tuple((c.id, c.initiative) for c in order)
        if ties_key != self._ties[0]:
            self._ties = (ties_key, initiative_ties(order))
        ties = self._ties[1]
        characters = {c.id: c for c in campaign.characters}
        sheets = []
        names: dict[str, str] = {}
        for combatant in order:
            sheet = combatant.instance if combatant.instance is not None else characters.get(
                combatant.character_id or "")
            if sheet is None:
                sheet = campaign.combatant_character(combatant)
            sheets.append(sheet)
            names[combatant.id] = sheet.name
        by_value: dict[int, list[str]] = {}
        for combatant in order:
            if combatant.id in ties and combatant.initiative is not None:
                by_value.setdefault(combatant.initiative, []).append(names[combatant.id])
        self._tie_names = by_value
        context = (encounter.round, encounter.started, encounter.ended, campaign.game_time,
                   campaign.rules_options.threshold_basis)
        cache = self._cache
        fresh_cache: dict[str, tuple[tuple[object, ...], _Row]] = {}
        stale, self._stale = self._stale, set()
        self._stale_now = stale
        if len(self._statuses) > 2 * len(order) + 16:
            live = {c.id for c in order}
            self._statuses = {k: v for k, v in self._statuses.items() if k in live}
        rows = []
        for place, (combatant, sheet) in enumerate(zip(order, sheets, strict=True), start=1):
            tie = ties.get(combatant.id)
            key = (place, combatant.id == current_id, tie,
                   names.get(combatant.aim_target_id or "", ""), context, sheet,
                   tuple(combatant.__dict__.values()))
            hit = cache.get(combatant.id)
            if hit is not None and hit[1].state is not WoundState.DYING and \
                    combatant.id not in stale and sheet.id not in stale and hit[0] == key:
                rows.append(hit[1])
                fresh_cache[combatant.id] = hit
                continue
            row = self._row(campaign, encounter, combatant, sheet, place, current_id, tie,
                            names)
            rows.append(row)
            fresh_cache[combatant.id] = (key, row)
        self._cache = fresh_cache
        return rows

    def _row(self, campaign: Campaign, encounter: Encounter, combatant: Combatant,
             sheet: Character, place: int, current_id: str | None,
             tie: tuple[int, int] | None, names: dict[str, str]) -> _Row:
        # What follows from the sheet is kept while the sheet is the same object: a new
        # round changes every row's actions but rarely a sheet.
        clock = (encounter.round, campaign.game_time) if sheet.conditions else None
        status_key = (sheet, combatant.out_of_fight, encounter.started, encounter.ended,
                      campaign.rules_options.threshold_basis, clock)
        known = self._statuses.get(combatant.id)
        if known is not None and known[0] == status_key and \
                known[1].state is not WoundState.DYING and sheet.id not in self._stale_now:
            status = known[1]
        else:
            status = combatant_status(campaign, encounter, combatant, sheet)
            self._statuses[combatant.id] = (status_key, status)
        task = combatant.extended_task
        return _Row(
            id=combatant.id,
            character_id=sheet.id,
            place=place,
            name=sheet.name,
            side=combatant.side,
            initiative=combatant.initiative,
            dice=tuple(combatant.initiative_dice),
            tie=tie,
            current=combatant.id == current_id,
            delayed=combatant.delayed,
            spent=combatant.actions_spent,
            aim=combatant.aim,
            aim_target=names.get(combatant.aim_target_id or "", ""),
            stance=combatant.stance,
            cover=combatant.cover,
            damage=status.damage,
            hp=status.hp,
            thresholds=status.thresholds,
            state=status.state,
            penalty=status.penalty,
            conditions=status.conditions,
            can_act=status.can_act,
            dying_due=status.dying_roll_due,
            task=(task.description, task.remaining_rounds, task.total_rounds)
            if task is not None else None,
        )

    def _sync_structure(self, campaign: Campaign, encounter: Encounter,
                        order: list[Combatant]) -> None:
        wanted = [c.id for c in order]
        if [r.id for r in self._rows] == wanted:
            return
        keep = set(wanted)
        index = len(self._rows) - 1
        while index >= 0:
            if self._rows[index].id in keep:
                index -= 1
                continue
            last = index
            while index >= 0 and self._rows[index].id not in keep:
                index -= 1
            self.beginRemoveRows(QModelIndex(), index + 1, last)
            del self._rows[index + 1 : last + 1]
            self.endRemoveRows()
        present = {r.id for r in self._rows}
        fresh = {r.id: r for r in self._compute(campaign, encounter, order)}
        for position, combatant_id in enumerate(wanted):
            if combatant_id in present:
                continue
            at = min(position, len(self._rows))
            self.beginInsertRows(QModelIndex(), at, at)
            self._rows.insert(at, fresh[combatant_id])
            self.endInsertRows()
        if [r.id for r in self._rows] != wanted:
            self.layoutAboutToBeChanged.emit()
            old_rows = {r.id: i for i, r in enumerate(self._rows)}
            new_rows = {cid: i for i, cid in enumerate(wanted)}
            before = self.persistentIndexList()
            after = [self.index(new_rows[self._rows[i.row()].id], i.column())
                     if i.isValid() else QModelIndex() for i in before]
            self._rows = [self._rows[old_rows[cid]] for cid in wanted]
            self.changePersistentIndexList(before, after)
            self.layoutChanged.emit()

    def _emit_changed(self, rows: list[tuple[int, tuple[int, int]]]) -> None:
        """One dataChanged per run of neighbouring rows whose same columns changed, so Qt
        repaints those cells only (a new round repaints the Actions column, not the table)."""
        start = previous = None
        span: tuple[int, int] | None = None
        for row, columns in [*rows, (None, None)]:
            if row is not None and previous is not None and row == previous + 1 and \
                    columns == span:
                previous = row
                continue
            if start is not None and previous is not None and span is not None:
                self.dataChanged.emit(self.index(start, span[0]), self.index(previous, span[1]))
            start = previous = row
            span = columns

    def _encounter_changed(self, encounter_id: str) -> None:
        if encounter_id == self._encounter_id:
            self._deferred.stop()
            self.sync()

    def _character_changed(self, character_id: str) -> None:
        """A sheet changed (perhaps in place, from another view): recompute its rows. An
        encounter step announces its sheets and then the encounter, so the sync waits for
        the event loop and is usually done by then."""
        if any(r.character_id == character_id for r in self._rows):
            self._stale.add(character_id)
            self._deferred.start()

    def _track(self, row: _Row) -> DamageTrack:
        key = (row.damage, row.hp, row.thresholds)
        track = self._tracks.get(key)
        if track is None:
            if len(self._tracks) > 512:
                self._tracks.clear()
            track = damage_track(row.damage, row.hp, row.thresholds)
            self._tracks[key] = track
        return track

    # --- cells -----------------------------------------------------------------------

    def _display(self, row: _Row, column: int) -> str:
        if column == self.COL_TURN:
            return "▶" if row.current else str(row.place)
        if column == self.COL_INIT:
            if row.initiative is None:
                return "—"
            return f"{row.initiative} tie {row.tie[0]}/{row.tie[1]}" if row.tie else str(
                row.initiative)
        if column == self.COL_NAME:
            return f"{row.name} (delayed)" if row.delayed else row.name
        if column == self.COL_ACTIONS:
            return f"{MINOR_ACTIONS_PER_ROUND - row.spent}/{MINOR_ACTIONS_PER_ROUND}"
        if column == self.COL_HP:
            return f"{row.damage}/{row.hp}"
        if column == self.COL_STATE:
            return f"{row.state.label} {row.penalty}" if row.penalty else row.state.label
        if column == self.COL_CONDITIONS:
            parts = list(row.conditions)
            if row.dying_due:
                parts.append("dying roll due")
            return "; ".join(parts)
        if column == self.COL_AIM:
            return f"+{row.aim} {row.aim_target}".strip() if row.aim else ""
        if column == self.COL_STANCE:
            stance = row.stance.value.capitalize()
            return f"{stance}, {row.cover.label} cover" if row.cover else stance
        if column == self.COL_TASK and row.task is not None:
            description, remaining, total = row.task
            return f"{description}: {remaining}/{total} rd"
        return ""

    def _value(self, row: _Row, column: int) -> Any:
        if column == self.COL_HP:
            return self._track(row)
        if column == self.COL_ACTIONS:
            return row.spent
        if column == self.COL_INIT:
            return row.initiative
        if column == self.COL_TASK and row.task is not None:
            return row.task
        return None

    def _tooltip(self, row: _Row, column: int) -> str | None:
        if column == self.COL_TURN:
            return "Whose turn it is (▶) and each combatant's place in the order"
        if column == self.COL_INIT:
            lines = []
            if row.dice:
                lines.append(f"Rolled {'+'.join(map(str, row.dice))}")
            if row.tie is not None and row.initiative is not None:
                others = [n for n in self._tie_names.get(row.initiative, []) if n != row.name]
                lines.append(f"Tied on {row.initiative} with {', '.join(others)}: "
                             f"acts {_ordinal(row.tie[0])} of {row.tie[1]}.")
                lines.append(_TIE_RULE)
            lines.append("Type a value (11) or the two dice rolled at the table (4 5).")
            return "\n".join(lines)
        if column == self.COL_NAME:
            notes = [f"{row.name} — {row.side.label}"]
            if row.delayed:
                notes.append("Delayed: acts later this round by taking actions from this row.")
            if not row.can_act:
                notes.append("Cannot act: Next turn passes over this combatant.")
            return "\n".join(notes)
        if column == self.COL_ACTIONS:
            return f"{pips_text(row.spent)} this round"
        if column == self.COL_HP:
            return describe_track(self._track(row))
        if column == self.COL_STATE:
            if row.state is WoundState.DEAD:
                return "Dead"
            return row.thresholds.rule_for(row.state) + (
                f"\nWound penalty {row.penalty} to all rolls" if row.penalty else "")
        if column == self.COL_CONDITIONS:
            return self._display(row, column) or "No conditions"
        return self._display(row, column) or None

    def _font(self, row: _Row, column: int) -> QFont | None:
        if column != self.COL_NAME and column != self.COL_TURN:
            return None
        if not (row.current or row.delayed or row.state is WoundState.DEAD):
            return None
        font = QFont(QApplication.font())
        font.setBold(row.current)
        font.setItalic(row.delayed)
        font.setStrikeOut(row.state is WoundState.DEAD)
        return font


_TIE_RULE = ("Ties act in the order the combatants joined the encounter; "
             "Ctrl+Up / Ctrl+Down moves a combatant within its tie.")



# ===================================================================== log


class EncounterLogModel(HeadedTableModel):
    """The encounter log, one structured entry per row, oldest first, optionally filtered
    by words and by who was involved (filtering here rather than in a proxy keeps each
    painted cell one Python call)."""

    COL_ROUND, COL_ACTOR, COL_ACTION, COL_TARGET, COL_ROLL, COL_EFFECT, COL_DAMAGE, \
        COL_CHANGES, COL_TEXT = range(9)
    HEADERS = ("Rd", "Actor", "Action", "Target", "Roll", "Effect", "Damage", "State changes",
               "Details")

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._encounter_id: str | None = None
        self._entries: list[EncounterLogEntry] = []
        self._lines: dict[str, str] = {}
        self._cells: dict[str, tuple[str, ...]] = {}
        self._words: list[str] = []
        self._person: str | None = None
        document.encounter_changed.connect(self._encounter_changed)

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

    def _encounter_changed(self, encounter_id: str) -> None:
        if encounter_id == self._encounter_id:
            self.sync()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._entries)

    def multiData(self, index: _Index, span: Any) -> None:
        """A cell's roles in one call (see :meth:`TurnOrderModel.multiData`)."""
        number = index.row()
        valid = 0 <= number < len(self._entries) and index.isValid()
        column = index.column()
        for item in span:
            role = item.role()
            if valid and role == _DISPLAY:
                item.setData(self._texts(self._entries[number])[column])
            elif valid and role == _ALIGN and column in (self.COL_ROUND, self.COL_EFFECT):
                item.setData(_RIGHT)
            elif valid and role == _TOOLTIP:
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
            roll += f" {entry.modifier:+d} vs {entry.difficulty}"
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


# ===================================================================== action catalog


class ActionCatalogModel(HeadedTableModel):
    """The chapter's action tables: name, type, minor actions, category, description."""

    HEADERS = ("Action", "Type", "Cost", "Category", "Description")

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(ACTION_CATALOG)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(ACTION_CATALOG):
            return None
        action = ACTION_CATALOG[index.row()]
        if role == _DISPLAY:
            return (f"{action.name} ({action.kind.value}, {action.kind.cost} minor)",
                    action.kind.label, str(action.kind.cost), action.category,
                    action.description)[index.column()]
        if role == _TOOLTIP:
            return f"{action.name} ({action.kind.label}, {action.kind.cost} minor): " \
                   f"{action.description}"
        if role == ID_ROLE:
            return action.key
        if role == VALUE_ROLE:
            return action.kind
        return None


# ===================================================================== difficulty terms


class DifficultyTermsModel(HeadedTableModel):
    """A Difficulty term by term (base 8, cover, concealment ...) and its total."""

    HEADERS = ("Term", "Difficulty", "Rule")

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
        if role == _DISPLAY:
            if total_row:
                return ("Difficulty", str(breakdown.total), breakdown.label)[index.column()]
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


# ===================================================================== attack targets


@dataclass
class _Candidate:
    combatant_id: str
    name: str
    side: Side
    armor: str
    checked: bool = False
    share: int = 1


class AttackTargetsModel(HeadedTableModel):
    """Who an attack can be aimed at: tick targets and say how many of the weapon's
    attacks each one gets (its share of the declared rate of attack)."""

    COL_TARGET, COL_SIDE, COL_ARMOR, COL_SHARE = range(4)
    HEADERS = ("Target", "Side", "Armor", "Attacks")
    HEADER_TIPS: ClassVar[dict[int, str]] = {
        COL_SHARE: "Damage rolls kept against this target: its share of the weapon's rate of "
                   "attack, declared before rolling",
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
                index = self.index(row, self.COL_TARGET)
                self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])

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
