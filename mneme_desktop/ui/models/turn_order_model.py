"""The encounter's turn order as a table model, one row per combatant in initiative order.

It follows the document's ``changed`` notice by diffing: rows that came or went
are inserted or removed, a new order is a layout change, and only rows whose shown values
differ get ``dataChanged``. A turn in a 200-combatant fight repaints two rows, not the
table.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import Campaign, Character, Combatant, Encounter
from mneme_desktop.domain.combat import (
    CombatantStatus,
    combatant_status,
    initiative_from_text,
    initiative_patch,
    initiative_ties,
    own_initiative_skill,
)
from mneme_desktop.domain.combat.thing_turns import (
    TurnSlot,
    VehicleTurn,
    acting_crew,
    slot_can_act,
    vehicle_turns,
)
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.domain.lookup import IdIndex
from mneme_desktop.drawing.track_painter import describe_track
from mneme_desktop.rules.actions import MINOR_ACTIONS_PER_ROUND
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.movement import Stance
from mneme_desktop.rules.thing_damage import ThingState
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import WoundState, WoundThresholds
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.encounter_things_model import thing_state_text
from mneme_desktop.ui.models.headed_table import HeadedTableModel, full_text_tip
from mneme_desktop.ui.models.roles import (
    ID_ROLE,
    RULE_ROLE,
    SORT_ROLE,
    VALUE_ROLE,
    WOUND_STATE_ROLE,
)
from mneme_desktop.ui.models.side_marks import hidden_side_icon, side_icon
from mneme_desktop.ui.models.turn_order_rows import COLUMN_FIELDS, ROW_WIDE, TurnRow, with_spent
from mneme_desktop.ui.widgets.action_pips import pips_text

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["TurnOrderModel"]

_CTX = "TurnOrderModel"


_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_EDIT = Qt.ItemDataRole.EditRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole

# Plain ints: the cell tables are keyed by role number, and a paint asks for a dozen roles
# per cell (enum members would be compared through the enum machinery).
_DISPLAY_N = int(_DISPLAY)
_EDIT_N = int(_EDIT)
_TOOLTIP_N = int(_TOOLTIP)
_ALIGN_N = int(_ALIGN)
_ACCESSIBLE_N = int(Qt.ItemDataRole.AccessibleTextRole)
_FOREGROUND_N = int(Qt.ItemDataRole.ForegroundRole)
_BACKGROUND_N = int(Qt.ItemDataRole.BackgroundRole)
_FONT_N = int(Qt.ItemDataRole.FontRole)
_DECORATION_N = int(Qt.ItemDataRole.DecorationRole)
_VALUE_N = int(VALUE_ROLE)
_ID_N = int(ID_ROLE)
_WOUND_STATE_N = int(WOUND_STATE_ROLE)
_SORT_N = int(SORT_ROLE)
_RULE_N = int(RULE_ROLE)
_ON_DEMAND = object()
"""A cell table's value for the roles worked out only when asked (tooltip, value)."""

_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_SELECTABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EDITABLE = _SELECTABLE | Qt.ItemFlag.ItemIsEditable
_TIE_BRUSH = QBrush(QColor(0xF2, 0xB7, 0x05, 56))


_ORDINALS = {1: tr_noop(_CTX, "{0}st"), 2: tr_noop(_CTX, "{0}nd"), 3: tr_noop(_CTX, "{0}rd")}
_ORDINAL_TH = tr_noop(_CTX, "{0}th")
_STANCES = {Stance.STANDING: tr_noop(_CTX, "Standing"), Stance.CROUCHED: tr_noop(_CTX, "Crouched"),
            Stance.PRONE: tr_noop(_CTX, "Prone")}


def _ordinal(n: int) -> str:
    form = _ORDINAL_TH if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, _ORDINAL_TH)
    return tr(_CTX, form).format(n)


class TurnOrderModel(HeadedTableModel):
    """The encounter's combatants in initiative order (Ch.6: descending), one row each."""

    COL_TURN, COL_INIT, COL_NAME, COL_ACTIONS, COL_HP, COL_STATE, COL_CONDITIONS, \
        COL_AIM, COL_STANCE, COL_TASK = range(10)
    HEADERS = (tr_noop(_CTX, "Turn"), tr_noop(_CTX, "Init"), tr_noop(_CTX, "Combatant"),
               tr_noop(_CTX, "Actions"), tr_noop(_CTX, "HP"), tr_noop(_CTX, "State"),
               tr_noop(_CTX, "Conditions"), tr_noop(_CTX, "Aim"), tr_noop(_CTX, "Stance"),
               tr_noop(_CTX, "Task"))
    HEADER_TIPS: ClassVar[dict[int, str]] = dict(enumerate((
        tr_noop(_CTX, "▶ marks whose turn it is"),
        tr_noop(_CTX, "Initiative (2d6 + DEX DM + skill), descending; ties are marked"),
        tr_noop(_CTX, "Combatant; the swatch marks the side"),
        tr_noop(_CTX, "Minor actions left this round ({0} per round)"),
        tr_noop(_CTX, "Damage against HP with the wound thresholds"),
        tr_noop(_CTX, "Wound state and wound penalty"),
        tr_noop(_CTX, "Conditions with their timers"),
        tr_noop(_CTX, "Aim bonus built up and its target"),
        tr_noop(_CTX, "Stance and cover"),
        tr_noop(_CTX, "Extended action (first aid ...) and the rounds left"),
    )))
    TEXT_COLUMNS = (COL_STATE, COL_CONDITIONS, COL_AIM, COL_STANCE, COL_TASK)
    """Cells that can be cut short: their tooltip always holds the whole shown text."""

    refused = Signal(str)
    """An edit the rules refused (an initiative that is not a number or two dice)."""
    edit_accepted = Signal()
    """An edit in the table was made (a refusal shown for an earlier one no longer holds)."""

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        value = super().headerData(section, orientation, role)
        if not isinstance(value, str) or not value:
            return value
        return tr(_CTX, value).format(MINOR_ACTIONS_PER_ROUND)

    def __init__(self, document: CampaignDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._encounter_id: str | None = None
        self._rows: list[TurnRow] = []
        self._row_index: IdIndex[TurnRow] = IdIndex()
        self._tracks: dict[tuple[int, int, WoundThresholds], DamageTrack] = {}
        self._cache: dict[str, tuple[tuple[object, ...], TurnRow]] = {}
        self._cells: dict[str, tuple[TurnRow, list[dict[int, Any]]]] = {}
        self._changes: dict[str, tuple[TurnRow, TurnRow, tuple[int, int]]] = {}
        """The last change of each row that was not row-wide: (before, after, the columns
        it changed), so the cells of ``after`` are built from those of ``before``."""
        self._diffs: dict[str, tuple[TurnRow, TurnRow, tuple[int, int]]] = {}
        """The rows the last _compute found changed: (before, after, columns)."""
        self._statuses: dict[str, tuple[tuple[object, ...], CombatantStatus]] = {}
        self._stale: set[str] = set()
        self._stale_now: set[str] = set()
        self._tie_names: dict[int, list[str]] = {}
        self._ties: tuple[tuple[object, ...], dict[str, tuple[int, int]]] = ((), {})
        self._deferred = QTimer(self)
        self._deferred.setSingleShot(True)
        self._deferred.setInterval(0)
        self._deferred.timeout.connect(self.sync)
        self._acting: dict[str, str] = {}
        """A crewed vehicle's row id: the crew member who acts first in its turn."""
        self.initiative_skill: str | None = None
        """The skill added when initiative is typed as two dice."""
        document.changed.connect(self._document_changed)

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
        self._changes = {}
        self._diffs = {}
        self._statuses = {}
        encounter = self._encounter()
        if encounter is not None:
            order = encounter.initiative_order()
            self._rows = self._compute(self._document.campaign, encounter, order)
        self.endResetModel()

    def combatant_id(self, row: int) -> str | None:
        """The combatant of a row; None for a crewed vehicle's row (see :meth:`thing_entry_id`)."""
        if not 0 <= row < len(self._rows):
            return None
        found = self._rows[row]
        return found.id if found.thing is None else None

    def row_id(self, row: int) -> str | None:
        """A row's id: its combatant's, or its vehicle's encounter entry."""
        return self._rows[row].id if 0 <= row < len(self._rows) else None

    def thing_entry_id(self, row: int) -> str | None:
        """The encounter thing (a crewed vehicle) a row stands for, or None."""
        if not 0 <= row < len(self._rows):
            return None
        found = self._rows[row]
        return found.id if found.thing is not None else None

    def acting_id(self, row: int) -> str | None:
        """Who acts for a row: its combatant, or for a vehicle the crew member who acts
        first in its turn (the one who fires its weapons)."""
        if not 0 <= row < len(self._rows):
            return None
        found = self._rows[row]
        return self._acting.get(found.id) if found.thing is not None else found.id

    def row_of(self, combatant_id: str) -> int:
        row = self._row_index.position(self._rows, combatant_id)
        return -1 if row is None else row

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
        diffs = self._diffs
        for number, (old, new) in enumerate(zip(self._rows, fresh, strict=True)):
            if old is not new:
                known = diffs.get(new.id)  # what _compute found comparing the two
                columns = known[2] if known is not None and known[0] is old and \
                    known[1] is new else _changed_columns(old, new)
                if columns is not None:
                    changed.append((number, columns))
                    self._note_change(old, new, columns)
        self._rows = fresh
        if len(self._cells) > 2 * len(fresh) + 16:
            live = {r.id for r in fresh}
            self._cells = {k: v for k, v in self._cells.items() if k in live}
            self._changes = {k: v for k, v in self._changes.items() if k in live}
        self._emit_changed(changed)

    # --- Qt model --------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        column = index.column()  # -1 for an invalid index
        if column < 0:
            return _NO_FLAGS
        if column == self.COL_INIT:  # a vehicle's initiative is its crew's: not typed
            number = index.row()
            vehicle = 0 <= number < len(self._rows) and self._rows[number].thing is not None
            return _SELECTABLE if vehicle else _EDITABLE
        return _SELECTABLE

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        number = index.row()
        if not 0 <= number < len(self._rows) or not index.isValid():
            return None
        row = self._rows[number]
        column = index.column()
        # A table paint asks each cell for a dozen roles: answer from a per-row table that
        # is built once for each version of the row.
        value = self._roles(row)[column].get(role)
        if value is _ON_DEMAND:
            return self._tooltip(row, column) if role == _TOOLTIP_N else \
                self._value(row, column)
        return value

    def multiData(self, index: _Index, span: Any) -> None:
        """All the roles a cell is painted with in one call (Qt 6 asks for them together),
        instead of a Python call per role. Qt reuses the span between cells, so every role
        not answered is cleared."""
        number = index.row()  # -1 for an invalid index
        rows = self._rows
        if not 0 <= number < len(rows):
            for item in span:
                item.clearData()
            return
        row = rows[number]
        column = index.column()
        cached = self._cells.get(row.id)
        roles = (cached[1] if cached is not None and cached[0] is row
                 else self._roles(row))[column]
        get = roles.get
        for item in span:
            value = get(item.role())
            if value is None:
                item.clearData()
            elif value is _ON_DEMAND:
                value = self._tooltip(row, column) if item.role() == _TOOLTIP_N else \
                    self._value(row, column)
                if value is None:
                    item.clearData()
                else:
                    item.setData(value)
            else:
                item.setData(value)

    def _roles(self, row: TurnRow) -> list[dict[int, Any]]:
        cached = self._cells.get(row.id)
        if cached is None or cached[0] is not row:
            reuse = None
            change = self._changes.get(row.id)
            if cached is not None and change is not None and change[0] is cached[0] and \
                    change[1] is row:
                reuse = (change[2], cached[1])
            cached = (row, self._cell_roles(row, reuse))
            self._cells[row.id] = cached
        return cached[1]

    def _cell_roles(self, row: TurnRow, reuse: tuple[tuple[int, int], list[dict[int, Any]]]
                    | None = None) -> list[dict[int, Any]]:
        """Each column's roles for ``row``. ``reuse`` is the span of columns that changed
        since a version of the row whose cells are given: the other columns' are kept (a
        new round rebuilds the Actions cell of each row shown, not the row)."""
        palette = QApplication.palette()
        muted = row.state is WoundState.DEAD or not row.can_act
        foreground = QBrush(palette.color(QPalette.ColorGroup.Disabled,
                                          QPalette.ColorRole.Text)) if muted else None
        background = None
        if row.current:
            highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
            highlight.setAlphaF(0.22)
            background = QBrush(highlight)
        font = self._font(row, self.COL_NAME)  # the same for the Turn column
        shared: dict[int, Any] = {
            _ID_N: row.id,
            _WOUND_STATE_N: row.state,
            _SORT_N: row.place,
            _TOOLTIP_N: _ON_DEMAND,
            _VALUE_N: _ON_DEMAND,
        }
        if foreground is not None:
            shared[_FOREGROUND_N] = foreground
        if background is not None:
            shared[_BACKGROUND_N] = background
        if reuse is None:
            columns = range(len(self.HEADERS))
            cells: list[dict[int, Any]] = [shared] * len(self.HEADERS)
        else:
            columns = range(reuse[0][0], reuse[0][1] + 1)
            cells = list(reuse[1])
        for column in columns:
            display = self._display(row, column)
            roles = dict(shared)
            roles[_DISPLAY_N] = display
            roles[_ACCESSIBLE_N] = display or tr(_CTX, self.HEADERS[column])
            if column == self.COL_HP:  # the bar's band by name, not by colour and hatch only
                roles[_ACCESSIBLE_N] = describe_track(self._track(row)) if row.thing is None \
                    else f"{display}, {thing_state_text(row.thing)}"
            if background is None and column == self.COL_INIT and row.tie is not None:
                roles[_BACKGROUND_N] = _TIE_BRUSH
            if font is not None and (column == self.COL_NAME or column == self.COL_TURN):
                roles[_FONT_N] = font
            if column == self.COL_TURN or column == self.COL_ACTIONS:
                roles[_ALIGN_N] = _CENTER
            elif column == self.COL_INIT:
                roles[_ALIGN_N] = _RIGHT
                roles[_EDIT_N] = "" if row.initiative is None else str(row.initiative)
                if row.tie is not None:
                    roles[_RULE_N] = tr(_CTX, _TIE_RULE)
            elif column == self.COL_NAME:
                roles[_DECORATION_N] = side_icon(row.side)
                if row.hidden:  # the players cannot see them: muted, with a struck swatch
                    roles[_DECORATION_N] = hidden_side_icon(row.side)
                    roles[_FOREGROUND_N] = QBrush(palette.color(
                        QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
                    roles[_ACCESSIBLE_N] = tr(_CTX, "{0}, hidden from the players").format(
                        display)
            cells[column] = roles
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
                campaign.combatant_character(combatant), str(value),
                own_initiative_skill(combatant, self.initiative_skill))
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
                 order: list[Combatant]) -> list[TurnRow]:
        """Rows for ``order``. A row whose inputs are the very same objects as last time
        is reused, so a turn in a large fight recomputes only the rows it touched; a row
        recomputed to what it was is the old object again, so its cells are not rebuilt
        and the diff is an identity check."""
        # Whose turn it is, as Encounter.current_combatant has it, from the order at hand
        # (that property sorts the combatants again).
        current_id = order[min(encounter.turn_index, len(order) - 1)].id \
            if order and encounter.started and not encounter.ended else None
        # Crewed vehicles take a row just before their crew's (none: nothing to do).
        vehicles = vehicle_turns(campaign, encounter, order)
        if vehicles and current_id is not None and encounter.thing_turn is not None and \
                any(v.entry.id == encounter.thing_turn for v in vehicles.get(current_id, ())):
            current_id = encounter.thing_turn
        ties_key = tuple((c.id, c.initiative) for c in order)
        if ties_key != self._ties[0]:
            self._ties = (ties_key, initiative_ties(order))
        ties = self._ties[1]
        sheets = []
        names: dict[str, str] = {}
        by_value: dict[int, list[str]] = {}
        character_of = campaign.combatant_character
        for combatant in order:
            sheet = character_of(combatant)  # O(1): the campaign's index
            sheets.append(sheet)
            names[combatant.id] = sheet.name
            if combatant.initiative is not None and combatant.id in ties:
                by_value.setdefault(combatant.initiative, []).append(sheet.name)
        self._tie_names = by_value
        # The round and the clock reach a row only through its conditions' timers (and a
        # dying roll being due, but dying rows are always recomputed): a new round reuses
        # the rows of everyone without conditions whose combatant did not change.
        context = (encounter.started, encounter.ended, campaign.rules_options.threshold_basis)
        clock = (encounter.round, campaign.game_time)
        status_context = (encounter.started, encounter.ended,
                          campaign.rules_options.threshold_basis, clock)
        diffs: dict[str, tuple[TurnRow, TurnRow, tuple[int, int]]] = {}
        self._diffs = diffs
        cache = self._cache
        fresh_cache: dict[str, tuple[tuple[object, ...], TurnRow]] = {}
        stale, self._stale = self._stale, set()
        self._stale_now = stale
        if len(self._statuses) > 2 * len(order) + 16:
            live = {c.id for c in order}
            self._statuses = {k: v for k, v in self._statuses.items() if k in live}
        rows = []
        dying = WoundState.DYING
        place = 0
        for combatant, sheet in zip(order, sheets, strict=True):
            place += 1
            combatant_id = combatant.id
            if vehicles and combatant_id in vehicles:
                for vehicle in vehicles[combatant_id]:
                    rows.append(self._vehicle_row(campaign, vehicle, place, current_id, names,
                                                  cache, fresh_cache))
                    place += 1
            tie = ties.get(combatant_id)
            key = (place, combatant_id == current_id, tie,
                   names.get(combatant.aim_target_id or "", ""), context,
                   clock if sheet.conditions else None, sheet,
                   tuple(combatant.__dict__.values()))
            hit = cache.get(combatant_id)
            if hit is not None and hit[1].state is not dying and \
                    combatant_id not in stale and sheet.id not in stale:
                if hit[0] == key:
                    rows.append(hit[1])
                    fresh_cache[combatant_id] = hit
                    continue
                spent = _spent_only(hit[0], key)
                if spent is not None:
                    # Only the actions spent changed (a new round after everyone acted):
                    # the row is the old one with its Actions cell, not a row worked out
                    # again from the sheet (the status would come from its cache anyway).
                    row = with_spent(hit[1], spent)
                    diffs[combatant_id] = (hit[1], row, _ACTIONS_ONLY)
                    rows.append(row)
                    fresh_cache[combatant_id] = (key, row)
                    continue
            row = self._row(campaign, encounter, combatant, sheet, place, current_id, tie,
                            names, status_context)
            if hit is not None:
                columns = _changed_columns(hit[1], row)
                if columns is None:
                    row = hit[1]
                else:
                    diffs[combatant_id] = (hit[1], row, columns)
            rows.append(row)
            fresh_cache[combatant_id] = (key, row)
        self._cache = fresh_cache
        return rows

    def _vehicle_row(self, campaign: Campaign, vehicle: VehicleTurn, place: int,
                     current_id: str | None, names: dict[str, str],
                     cache: dict[str, tuple[tuple[object, ...], TurnRow]],
                     fresh_cache: dict[str, tuple[tuple[object, ...], TurnRow]]) -> TurnRow:
        """A crewed vehicle's row, in the same columns as a combatant's: its initiative
        (its crew's), its HP and thresholds in its scale, its state, its crew. Recomputed
        each time (a few per fight); a row that came out the same is the old object."""
        thing = vehicle.thing
        track = thing.track
        acting = acting_crew(campaign, vehicle)
        entry_id = vehicle.entry.id
        self._acting[entry_id] = acting.id
        crew = ", ".join(names.get(c.id, "") for c in vehicle.crew)
        row = TurnRow(
            id=entry_id,
            character_id=thing.id,
            place=place,
            name=thing.name,
            side=vehicle.entry.side,
            initiative=vehicle.initiative,
            dice=(),
            tie=None,
            current=entry_id == current_id,
            delayed=False,
            spent=acting.actions_spent,
            aim=0,
            aim_target="",
            stance=Stance.STANDING,
            cover=CoverLevel.NONE,
            damage=track.damage,
            hp=track.hp,
            thresholds=track.thresholds,
            state=WoundState.DEAD if thing.destroyed else track.state,
            penalty=0,
            conditions=(tr(_CTX, "Crew: {0}").format(crew),),
            can_act=slot_can_act(campaign, TurnSlot(0, vehicle.anchor, vehicle)),
            dying_due=False,
            task=None,
            thing=ThingState.DESTROYED if thing.destroyed else
            ThingState.from_wound_state(track.state),
            unit=f"{thing.hp_scale.prefix}HP",
        )
        hit = cache.get(entry_id)
        if hit is not None:
            columns = _changed_columns(hit[1], row)
            if columns is None:
                row = hit[1]
            else:
                self._diffs[entry_id] = (hit[1], row, columns)
        fresh_cache[entry_id] = ((), row)
        return row

    def _row(self, campaign: Campaign, encounter: Encounter, combatant: Combatant,
             sheet: Character, place: int, current_id: str | None,
             tie: tuple[int, int] | None, names: dict[str, str],
             context: tuple[bool, bool, object, object]) -> TurnRow:
        # What follows from the sheet is kept while the sheet is the same object: a new
        # round changes every row's actions but rarely a sheet. ``context`` is (started,
        # ended, the threshold basis, (round, game time)).
        started, ended, basis, clock = context
        status_key = (sheet, combatant.out_of_fight, started, ended, basis,
                      clock if sheet.conditions else None)
        known = self._statuses.get(combatant.id)
        if known is not None and known[0] == status_key and \
                known[1].state is not WoundState.DYING and sheet.id not in self._stale_now:
            status = known[1]
        else:
            status = combatant_status(campaign, encounter, combatant, sheet)
            self._statuses[combatant.id] = (status_key, status)
        task = combatant.extended_task
        return TurnRow(
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
            hidden=not combatant.revealed,
        )

    def _sync_structure(self, campaign: Campaign, encounter: Encounter,
                        order: list[Combatant]) -> None:
        vehicles = vehicle_turns(campaign, encounter, order)
        wanted = [c.id for c in order] if not vehicles else [
            slot_id for c in order
            for slot_id in (*(v.entry.id for v in vehicles.get(c.id, ())), c.id)]
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

    def _note_change(self, old: TurnRow, new: TurnRow, columns: tuple[int, int]) -> None:
        """Remember which columns of a row whose cells were built (it was painted) changed
        since: the cells of ``new`` are then built from those. Changes while the row is not
        painted add up (the turn passes down the table, then a new round)."""
        cached = self._cells.get(new.id)
        if cached is None:
            return
        if columns is _WHOLE_ROW:
            self._changes.pop(new.id, None)
        elif cached[0] is old:
            self._changes[new.id] = (old, new, columns)
        else:
            prior = self._changes.pop(new.id, None)
            if prior is not None and prior[0] is cached[0] and prior[1] is old:
                span = (min(prior[2][0], columns[0]), max(prior[2][1], columns[1]))
                self._changes[new.id] = (prior[0], new, span)

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

    def _document_changed(self, summary: ChangeSummary) -> None:
        """Recompute the rows of the sheets the step changed (perhaps in place, from another
        view), once: at once when the step was this encounter's, else when the event loop
        is next free."""
        stale = {r.character_id for r in self._rows} & summary.character_ids \
            if summary.character_ids else set()
        self._stale |= stale
        if self._encounter_id is not None and self._encounter_id in summary.encounter_ids:
            self._deferred.stop()
            self.sync()
        elif stale or summary.rules_changed or summary.time_changed:
            self._deferred.start()

    def _track(self, row: TurnRow) -> DamageTrack:
        key = (row.damage, row.hp, row.thresholds)
        track = self._tracks.get(key)
        if track is None:
            if len(self._tracks) > 512:
                self._tracks.clear()
            track = damage_track(row.damage, row.hp, row.thresholds)
            self._tracks[key] = track
        return track

    # --- cells -----------------------------------------------------------------------

    def _display(self, row: TurnRow, column: int) -> str:
        if row.thing is not None and column in _VEHICLE_OWN:
            return self._vehicle_display(row, column)
        if column == self.COL_TURN:
            return "▶" if row.current else str(row.place)
        if column == self.COL_INIT:
            if row.initiative is None:
                return "—"
            return tr(_CTX, "{0} tie {1}/{2}").format(row.initiative, *row.tie) if row.tie \
                else str(row.initiative)
        if column == self.COL_NAME:
            return tr(_CTX, "{0} (delayed)").format(row.name) if row.delayed else row.name
        if column == self.COL_ACTIONS:
            return f"{MINOR_ACTIONS_PER_ROUND - row.spent}/{MINOR_ACTIONS_PER_ROUND}"
        if column == self.COL_HP:
            return f"{row.damage}/{row.hp}"
        if column == self.COL_STATE:
            return f"{row.state.label} {row.penalty}" if row.penalty else row.state.label
        if column == self.COL_CONDITIONS:
            parts = list(row.conditions)
            if row.dying_due:
                parts.append(tr(_CTX, "dying roll due"))
            return "; ".join(parts)
        if column == self.COL_AIM:
            return f"+{row.aim} {row.aim_target}".strip() if row.aim else ""
        if column == self.COL_STANCE:
            stance = tr(_CTX, _STANCES[row.stance]) if row.stance in _STANCES \
                else row.stance.value.capitalize()
            return tr(_CTX, "{0}, {1} cover").format(stance, row.cover.label) if row.cover \
                else stance
        if column == self.COL_TASK and row.task is not None:
            description, remaining, total = row.task
            return tr(_CTX, "{0}: {1}/{2} rd").format(description, remaining, total)
        return ""

    def cell_value(self, row: int, column: int) -> Any:
        """What ``VALUE_ROLE`` answers for a cell (the painter's input for the pips and the
        HP bar), without going through Qt."""
        return self._value(self._rows[row], column) if 0 <= row < len(self._rows) else None

    def _value(self, row: TurnRow, column: int) -> Any:
        if column == self.COL_HP:
            return self._track(row)
        if column == self.COL_ACTIONS:
            return row.spent
        if column == self.COL_INIT:
            return row.initiative
        if column == self.COL_TASK and row.task is not None:
            return row.task
        return None

    def _tooltip(self, row: TurnRow, column: int) -> str | None:
        tip = self._explain(row, column)
        if column in self.TEXT_COLUMNS:  # a cell cut short can always be read in full
            return full_text_tip(self._display(row, column), tip)
        return tip

    def _vehicle_display(self, row: TurnRow, column: int) -> str:
        """A crewed vehicle's cells where they differ from a combatant's: HP in its scale,
        its state by a thing's names, no aim, stance or task of its own."""
        assert row.thing is not None
        if column == self.COL_HP:
            return tr(_CTX, "{0}/{1} {2}").format(row.damage, row.hp, row.unit)
        if column == self.COL_STATE:
            return thing_state_text(row.thing)
        return ""

    def _vehicle_explain(self, row: TurnRow, column: int) -> str | None:
        assert row.thing is not None
        if column == self.COL_INIT:
            return tr(_CTX, "A vehicle acts on its crew's initiative: the best of theirs. Its "
                            "turn comes just before that crew member's own.")
        if column == self.COL_NAME:
            notes = [tr(_CTX, "{0} — {1}").format(row.name, row.side.label),
                     tr(_CTX, "A crewed vehicle: in its turn its crew drive it and fire its "
                              "weapons (Attack), spending their own actions.")]
            if not row.can_act:
                notes.append(tr(_CTX, "Cannot act (destroyed, or no crew aboard who can act): "
                                      "Next turn passes over it."))
            return "\n".join(notes)
        if column == self.COL_ACTIONS:
            return tr(_CTX, "{0} this round: the actions of the crew member who acts first "
                            "in its turn").format(pips_text(row.spent))
        if column == self.COL_HP:
            return tr(_CTX, "{0} of {1} {2} of damage taken").format(row.damage, row.hp,
                                                                  row.unit)
        if column == self.COL_STATE:
            return tr(_CTX, "Seriously damaged at {0}, critically damaged at {1}, destroyed "
                            "past {2} {3}").format(row.thresholds.seriously,
                                                   row.thresholds.critically, row.hp, row.unit)
        return self._display(row, column) or None

    def _explain(self, row: TurnRow, column: int) -> str | None:
        if row.thing is not None and column != self.COL_TURN:
            return self._vehicle_explain(row, column)
        if column == self.COL_TURN:
            return tr(_CTX, "Whose turn it is (▶) and each combatant's place in the order")
        if column == self.COL_INIT:
            lines = []
            if row.dice:
                lines.append(tr(_CTX, "Rolled {0}").format("+".join(map(str, row.dice))))
            if row.tie is not None and row.initiative is not None:
                others = [n for n in self._tie_names.get(row.initiative, []) if n != row.name]
                lines.append(tr(_CTX, "Tied on {0} with {1}: acts {2} of {3}.").format(
                    row.initiative, ", ".join(others), _ordinal(row.tie[0]), row.tie[1]))
                lines.append(tr(_CTX, _TIE_RULE))
            lines.append(tr(_CTX, "Type a value (11) or the two dice rolled at the table (4 5)."))
            return "\n".join(lines)
        if column == self.COL_NAME:
            notes = [tr(_CTX, "{0} — {1}").format(row.name, row.side.label)]
            if row.hidden:
                notes.append(tr(_CTX, "(hidden) Not on the player display until revealed "
                                      "(right-click: Reveal to players)."))
            if row.delayed:
                notes.append(tr(_CTX, "Delayed: acts later this round by taking actions from "
                                      "this row."))
            if not row.can_act:
                notes.append(tr(_CTX, "Cannot act: Next turn passes over this combatant."))
            return "\n".join(notes)
        if column == self.COL_ACTIONS:
            return tr(_CTX, "{0} this round").format(pips_text(row.spent))
        if column == self.COL_HP:
            return describe_track(self._track(row))
        if column == self.COL_STATE:
            if row.state is WoundState.DEAD:
                return tr(_CTX, "Dead")
            return row.thresholds.rule_for(row.state) + (
                "\n" + tr(_CTX, "Wound penalty {0} to all rolls").format(row.penalty)
                if row.penalty else "")
        if column == self.COL_CONDITIONS:
            return self._display(row, column) or tr(_CTX, "No conditions")
        return self._display(row, column) or None

    def _font(self, row: TurnRow, column: int) -> QFont | None:
        if column != self.COL_NAME and column != self.COL_TURN:
            return None
        if not (row.current or row.delayed or row.state is WoundState.DEAD):
            return None
        font = QFont(QApplication.font())
        font.setBold(row.current)
        font.setItalic(row.delayed)
        font.setStrikeOut(row.state is WoundState.DEAD)
        return font


_VEHICLE_OWN = frozenset((TurnOrderModel.COL_HP, TurnOrderModel.COL_STATE, TurnOrderModel.COL_AIM,
                          TurnOrderModel.COL_STANCE, TurnOrderModel.COL_TASK))
"""The columns a crewed vehicle's row fills its own way."""
_FIELDS = tuple(field.name for field in fields(TurnRow))
_WHOLE_ROW = (0, len(COLUMN_FIELDS) - 1)
# For each TurnRow field, in the order a row's __dict__ holds them: the span of columns a
# change in it repaints (a row-wide field repaints the whole row), or None.
_FIELD_SPANS: tuple[tuple[int, int] | None, ...] = tuple(
    _WHOLE_ROW if name in ROW_WIDE else next(
        ((column, column) for column, names in enumerate(COLUMN_FIELDS) if name in names),
        None)
    for name in _FIELDS)


_ACTIONS_ONLY = (TurnOrderModel.COL_ACTIONS, TurnOrderModel.COL_ACTIONS)
_SPENT_AT = tuple(Combatant.model_fields).index("actions_spent")
"""Where ``actions_spent`` is in a combatant's field values (a row key's last part)."""


def _spent_only(old_key: tuple[object, ...], key: tuple[object, ...]) -> int | None:
    """The new actions spent when the only difference between a row's old and new key
    is its combatant's ``actions_spent`` (the row shows it in the Actions cell only),
    else None."""
    before, after = old_key[-1], key[-1]
    assert isinstance(before, tuple) and isinstance(after, tuple)
    at = _SPENT_AT
    if before[at] == after[at] or before[:at] != after[:at] or \
            before[at + 1:] != after[at + 1:] or old_key[:-1] != key[:-1]:
        return None
    spent = after[at]
    return spent if isinstance(spent, int) else None


def _changed_columns(old: TurnRow, new: TurnRow) -> tuple[int, int] | None:
    """The first and last column whose cells differ between two versions of a row (what
    turn_order_rows.changed_columns answers), in one pass over the fields: a new round
    in which everyone had acted diffs every row."""
    first = last = -1
    for span, before, after in zip(_FIELD_SPANS, old.__dict__.values(),
                                   new.__dict__.values(), strict=True):
        if before is after or span is None or before == after:
            continue
        if span is _WHOLE_ROW:
            return _WHOLE_ROW
        if first < 0 or span[0] < first:
            first = span[0]
        if span[1] > last:
            last = span[1]
    return (first, last) if first >= 0 else None


_TIE_RULE = tr_noop(_CTX, "Ties act in the order the combatants joined the encounter; "
                         "Ctrl+Up / Ctrl+Down moves a combatant within its tie.")
