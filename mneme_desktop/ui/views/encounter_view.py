"""The encounter screen a referee keeps open for a whole fight.

Turn order on the left (initiative, whose turn, actions left, HP, conditions with timers),
the log below it, and on the right the selected combatant's panel (action economy, aim,
stance, movement, extended actions, conditions, survival rolls) and the attack resolver.
Every step is one command on the document's undo stack; keys drive the common steps
(N next turn, Shift+N previous, E end round, D delay, R initiative, T tactics, A attack).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Campaign, Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat import EncounterPatch
from mneme_desktop.domain.combat.attack_things import crew_weapons
from mneme_desktop.domain.combat.tactics import tactics_check_patch
from mneme_desktop.domain.combat.thing_turns import acting_crew, current_slot
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.storage.atomic import atomic_write
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.dialogs.encounter_dialogs import (
    AddAdversariesDialog,
    AddCharactersDialog,
    InitiativeDialog,
    TacticsDialog,
)
from mneme_desktop.ui.models.encounter_log_model import EncounterLogModel
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.views.attack_resolver import AttackResolver
from mneme_desktop.ui.views.combatant_panel import CombatantPanel
from mneme_desktop.ui.views.encounter_things import EncounterThingsPanel
from mneme_desktop.ui.views.turn_order_delegate import TurnOrderDelegate
from mneme_desktop.ui.widgets.fill_column import FillColumn, header_width
from mneme_desktop.ui.widgets.log_table import AppendTable
from mneme_desktop.ui.widgets.plain_text import set_rich_text
from mneme_desktop.ui.widgets.status_line import StatusLine, clear_on_undo
from mneme_desktop.ui.widgets.steady_header import SteadyHeader
from mneme_desktop.ui.widgets.steady_tabs import SteadyTabs

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

from mneme_desktop.ui.i18n import tr

_CTX = "EncounterView"

__all__ = ["EncounterView"]

_MakePatch = Callable[[Campaign, Encounter], EncounterPatch]


_VIEW_ONLY_KEYS = frozenset({"Del", "Ctrl+Up", "Ctrl+Down"})


class EncounterView(QWidget):
    """The encounter screen. ``rng`` is the generator every in-app roll uses (inject a
    seeded one to replay a fight)."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("encounter_view")
        self.document = document
        self.rng = rng if rng is not None else random.Random()
        self.ask: Callable[[QMessageBox], object] = QMessageBox.exec
        """Shows a question and waits (tests answer it instead)."""
        self._encounter_id: str | None = None
        self._last_current: str | None = None
        self.initiative_dialog: InitiativeDialog | None = None
        self.tactics_dialog: TacticsDialog | None = None
        self.adversaries_dialog: AddAdversariesDialog | None = None
        self.characters_dialog: AddCharactersDialog | None = None
        self.turn_model = TurnOrderModel(document, self)
        self.log_model = EncounterLogModel(document, self)
        self._build()
        document.changed.connect(self._document_changed)
        clear_on_undo(self.message_label, document.undo_stack)
        self._panel_refresh = QTimer(self)
        self._panel_refresh.setSingleShot(True)
        self._panel_refresh.setInterval(0)
        self._panel_refresh.timeout.connect(lambda: self.panel.refresh())
        self.turn_model.refused.connect(self.show_message)
        self.turn_model.edit_accepted.connect(lambda: self.show_message(""))
        self.set_encounter(None)

    # --- layout ------------------------------------------------------------------------

    def _action(self, text: str, slot: Callable[[], object], keys: str | None = None,
                tip: str = "", name: str = "") -> QAction:
        action = QAction(text, self)
        action.setObjectName(name or text.lower().replace(" ", "_").strip("…."))
        if keys:
            action.setShortcut(QKeySequence(keys))
            # The turn keys work whenever the encounter shows, focus in the navigator or not
            # (Qt keeps a window shortcut to visible widgets); keys the navigator uses for
            # itself (Del, Ctrl+arrows) stay with the view, or neither would fire.
            context = (Qt.ShortcutContext.WidgetWithChildrenShortcut
                       if keys in _VIEW_ONLY_KEYS else Qt.ShortcutContext.WindowShortcut)
            action.setShortcutContext(context)
        shown = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) if keys \
            else ""
        action.setToolTip(f"{tip or text} ({shown})" if shown else (tip or text))
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)

        header = QHBoxLayout()
        self.title_label = QLabel(objectName="encounter_title")
        title_font = QFont(self.title_label.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.35)
        title_font.setBold(True)
        self.title_label.setFont(title_font)
        self.round_label = QLabel(objectName="round_label")
        self.round_label.setFont(title_font)
        self.turn_label = QLabel(objectName="turn_label")
        set_rich_text(self.turn_label, "")
        header.addWidget(self.title_label)
        header.addSpacing(16)
        header.addWidget(self.round_label)
        header.addSpacing(16)
        header.addWidget(self.turn_label, 1)
        self.auto_dying_check = QCheckBox(tr(_CTX, "Roll dying checks each round"),
                                          objectName="auto_dying")
        self.auto_dying_check.setChecked(True)
        self.auto_dying_check.setToolTip(tr(_CTX, "At the start of each round the app rolls END "
                                                  "vs 4 for everyone dying; untick to enter the "
                                                  "table's dice in the combatant panel"))
        header.addWidget(self.auto_dying_check)
        layout.addLayout(header)

        self.toolbar = QToolBar(tr(_CTX, "Encounter"), self)
        self.toolbar.setObjectName("encounter_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.start_action = self._action(tr(_CTX, "Start"), self.start_encounter, None,
                                         tr(_CTX, "Begin round 1 with the highest initiative"))
        self.previous_action = self._action(tr(_CTX, "Previous"), self.previous_turn, "Shift+N",
                                            tr(_CTX, "Previous turn in this round"))
        self.next_action = self._action(tr(_CTX, "Next turn"), self.next_turn, "N",
                                        tr(_CTX, "Pass the turn to the next combatant"))
        self.delay_action = self._action(tr(_CTX, "Delay"), self.delay, "D",
                                         tr(_CTX, "The current combatant holds their turn"))
        self.end_round_action = self._action(tr(_CTX, "End round"), self.end_round, "E",
                                             tr(_CTX, "Declare the round over: actions come "
                                                      "back, bleeding and dying tick"))
        self.end_action = self._action(tr(_CTX, "End fight"), self.end_encounter, None,
                                       tr(_CTX, "End the encounter"))
        self.initiative_action = self._action(tr(_CTX,
                "Initiative…"), self.open_initiative_dialog, "R",
                                              tr(_CTX, "Roll initiative for everyone or an ambush"),
                                              "roll_initiative")
        self.tactics_action = self._action(tr(_CTX, "Tactics…"), self.open_tactics_dialog, "T",
                                           tr(_CTX, "A Tactics check adds its Effect to a unit's "
                                                    "initiative"), "tactics")
        self.earlier_action = self._action(tr(_CTX,
                "Tie ↑"), lambda: self.move_in_tie(-1), "Ctrl+Up",
                                           tr(_CTX, "Act earlier among those tied on initiative"),
                                           "tie_earlier")
        self.later_action = self._action(tr(_CTX,
                "Tie ↓"), lambda: self.move_in_tie(1), "Ctrl+Down",
                                         tr(_CTX, "Act later among those tied on initiative"),
                                         "tie_later")
        self.add_characters_action = self._action(
            tr(_CTX, "Add characters…"), self.open_add_characters_dialog, "Shift+Ins",
            tr(_CTX, "Bring player characters and NPCs into the fight"), "add_characters")
        self.add_adversaries_action = self._action(
            tr(_CTX, "Add adversaries…"), self.open_add_adversaries_dialog, "Ins",
            tr(_CTX, "Add numbered copies of a library template"), "add_adversaries")
        self.remove_action = self._action(tr(_CTX, "Remove"), self.remove_selected, "Del",
                                          tr(_CTX, "Remove the selected combatants"))
        self.attack_action = self._action(tr(_CTX, "Attack"), lambda: self.show_attack(), "A",
                                          tr(_CTX, "Open the attack resolver for whose turn it is"))
        self.hide_action = self._action(
            tr(_CTX, "Hide from players"), lambda: self.set_selected_revealed(False), None,
            tr(_CTX, "Keep the selected combatants off the player display"), "hide_from_players")
        self.reveal_action = self._action(
            tr(_CTX, "Reveal to players"), lambda: self.set_selected_revealed(True), None,
            tr(_CTX, "Show the selected combatants on the player display"), "reveal_to_players")
        for action in (self.start_action, self.previous_action, self.next_action,
                       self.delay_action, self.end_round_action, self.end_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        for action in (self.initiative_action, self.tactics_action, self.earlier_action,
                       self.later_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        for action in (self.add_characters_action, self.add_adversaries_action,
                       self.remove_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.attack_action)
        layout.addWidget(self.toolbar)

        self.message_label = StatusLine("encounter_message")
        layout.addWidget(self.message_label)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QSplitter(Qt.Orientation.Vertical)
        self.turn_view = QTableView(objectName="turn_order")
        self.turn_view.setHorizontalHeader(SteadyHeader(self.turn_view))
        self.turn_view.setAccessibleName(tr(_CTX, "Turn order"))
        self.turn_view.setModel(self.turn_model)
        painter_delegate = TurnOrderDelegate(self.turn_view)
        for column in (TurnOrderModel.COL_ACTIONS, TurnOrderModel.COL_HP):
            self.turn_view.setItemDelegateForColumn(column, painter_delegate)
        self.turn_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.turn_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.turn_view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                       | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.turn_view.verticalHeader().hide()
        self.turn_view.verticalHeader().setDefaultSectionSize(
            int(self.fontMetrics().height() * 1.7))
        self.turn_view.setWordWrap(False)
        self.turn_view.setAlternatingRowColors(True)
        header_view = self.turn_view.horizontalHeader()
        # The names take the room a wide screen has (an empty Task column stretched to
        # the edge took it before), never less than ten ems. A long name in a narrow
        # window is elided, and its tooltip holds it whole.
        widths = {TurnOrderModel.COL_TURN: 2.6, TurnOrderModel.COL_INIT: 5.2,
                  TurnOrderModel.COL_ACTIONS: 4.6,
                  TurnOrderModel.COL_HP: 11.5, TurnOrderModel.COL_STATE: 8.5,
                  TurnOrderModel.COL_AIM: 6.5, TurnOrderModel.COL_STANCE: 7}
        em = self.fontMetrics().horizontalAdvance("m")
        for column, width in widths.items():
            header_view.resizeSection(column, int(width * em))
        # Conditions and Task keep a width of their own (ResizeToContents would measure all
        # rows at every step: a turn in a 200-row fight took twice as long).
        header_view.resizeSection(TurnOrderModel.COL_CONDITIONS, int(11 * em))
        header_view.resizeSection(TurnOrderModel.COL_TASK,
                                  header_width(self.turn_view, TurnOrderModel.COL_TASK))
        self._name_column = FillColumn(self.turn_view, TurnOrderModel.COL_NAME, int(10 * em))
        # Right-click: what the player display may show of the selected rows.
        self.turn_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.turn_view.addActions([self.hide_action, self.reveal_action])
        self.turn_view.setToolTip(tr(_CTX, "Double-click (or F2) an initiative to type a value "
                                           "or the two dice rolled at the table"))
        left.addWidget(self.turn_view)

        log_box = QWidget()
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        log_title = QLabel()
        set_rich_text(log_title, tr(_CTX, "<b>Log</b>"))
        row.addWidget(log_title)
        self.log_filter_edit = QLineEdit(objectName="log_filter")
        self.log_filter_edit.setPlaceholderText(tr(_CTX, "Filter the log (words)"))
        self.log_filter_edit.setAccessibleName(tr(_CTX, "Filter the log"))
        self.log_filter_edit.setClearButtonEnabled(True)
        self.log_person_combo = QComboBox(objectName="log_person")
        self.log_person_combo.setToolTip(tr(_CTX, "Only entries this combatant acted in or "
                                                  "suffered"))
        self.export_button = QPushButton(tr(_CTX, "Export…"), objectName="export_log")
        self.export_button.setToolTip(tr(_CTX, "Save the log (as filtered) as a text file"))
        row.addWidget(self.log_filter_edit, 1)
        row.addWidget(self.log_person_combo)
        row.addWidget(self.export_button)
        log_layout.addLayout(row)
        self.log_view = AppendTable(objectName="encounter_log")
        self.log_view.setAccessibleName(tr(_CTX, "Encounter log"))
        self.log_view.setModel(self.log_model)
        self.log_view.verticalHeader().hide()
        self.log_view.setWordWrap(False)
        self.log_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.log_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.log_view.horizontalHeader().setStretchLastSection(True)
        log_widths = (2.5, 9, 11, 9, 8, 4, 7, 16)
        for column, width in enumerate(log_widths):
            self.log_view.horizontalHeader().resizeSection(column, int(width * em))
        self.log_view.verticalHeader().setDefaultSectionSize(
            int(self.fontMetrics().height() * 1.4))
        log_layout.addWidget(self.log_view)
        self.note_edit = QLineEdit(objectName="log_note")
        self.note_edit.setPlaceholderText(tr(_CTX, "Add a note to the log (Enter)"))
        self.note_edit.setAccessibleName(tr(_CTX, "Note for the log"))
        self.note_edit.setToolTip(tr(_CTX, "A referee's note, logged in this round (undoable)"))
        log_layout.addWidget(self.note_edit)
        left.addWidget(log_box)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        splitter.addWidget(left)

        self.tabs = SteadyTabs(objectName="encounter_tabs")
        self.panel = CombatantPanel(self)
        self.resolver = AttackResolver(self.document, self.rng, self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.panel)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tabs.addTab(scroll, tr(_CTX, "Combatant"))
        self.tabs.addTab(self.resolver, tr(_CTX, "Attack"))
        self.things_panel = EncounterThingsPanel(self)
        self.tabs.addTab(self.things_panel, tr(_CTX, "Things"))
        # The panel never scrolls sideways, so the tabs must be at least as wide as it needs.
        scrollbar = scroll.verticalScrollBar().sizeHint().width()
        self.tabs.setMinimumWidth(max(int(30 * em),
                                      self.panel.minimumSizeHint().width() + scrollbar + 12))
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([860, 420])
        self.splitter = splitter
        layout.addWidget(splitter, 1)

        self.placeholder = QLabel(objectName="encounter_placeholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        set_rich_text(self.placeholder, tr(_CTX, "<h2>No encounter</h2><p>Choose an encounter in "
                                                 "the navigator.</p>"))
        self.placeholder.setSizePolicy(QSizePolicy.Policy.Expanding,
                                       QSizePolicy.Policy.Expanding)
        layout.addWidget(self.placeholder, 1)

        self.turn_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.log_filter_edit.textChanged.connect(self.log_model.set_text)
        self.log_person_combo.currentIndexChanged.connect(
            lambda: self.log_model.set_person(self.log_person_combo.currentData()))
        self.export_button.clicked.connect(self._export_clicked)
        self.note_edit.returnPressed.connect(self.add_note)
        self.log_model.rowsInserted.connect(lambda *_: self.log_view.scrollToBottom())
        self.resolver.message.connect(self.show_message)
        self.resolver.weapon_chosen.connect(lambda _id: self.panel.refresh())
        self.resolver.applied.connect(lambda text: self.show_message(tr(_CTX,
                "Applied: {0}").format(text)))

    # --- encounter ---------------------------------------------------------------------

    def encounter_id(self) -> str | None:
        return self._encounter_id

    def encounter(self) -> Encounter | None:
        return self.document.encounter(self._encounter_id)

    def set_encounter(self, encounter_id: str | None) -> None:
        """Show ``encounter_id`` (None: nothing)."""
        if encounter_id is not None and self.document.campaign.find_encounter(
                encounter_id) is None:
            encounter_id = None
        self._encounter_id = encounter_id
        shown = encounter_id is not None
        self.splitter.setVisible(shown)
        self.toolbar.setVisible(shown)
        self.placeholder.setVisible(not shown)
        for action in self.actions():
            action.setEnabled(shown)
        self.turn_model.set_encounter(encounter_id)
        self.log_model.set_encounter(encounter_id)
        self.resolver.set_encounter(encounter_id)
        self.things_panel.set_encounter(encounter_id)
        self.show_message("")
        self._last_current = None
        self._fill_people()
        self._encounter_changed(encounter_id or "")
        encounter = self.encounter()
        if encounter is not None and self.turn_model.current_row() < 0 and \
                self.turn_model.rowCount():
            self.select_combatant(self.turn_model.row_id(0) or "")

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id is None:
            return
        if summary.structure_changed and self.encounter() is None:
            self.set_encounter(None)
        elif self._encounter_id in summary.encounter_ids:
            self._encounter_changed(self._encounter_id)
        elif summary.character_ids:
            self._panel_refresh.start()

    def _encounter_changed(self, encounter_id: str) -> None:
        if encounter_id != self._encounter_id:
            return
        encounter = self.encounter()
        if encounter is None:
            self.title_label.setText("")
            self.round_label.setText("")
            self.turn_label.setText("")
            self.panel.set_combatant(None)
            return
        self.title_label.setText(encounter.name)
        current = encounter.current_combatant
        if not encounter.started:
            self.round_label.setText(tr(_CTX, "Setting up"))
            self.turn_label.setText(
                tr(_CTX, "Roll initiative (R), then Start") if encounter.combatants else
                tr(_CTX, "Add characters (Shift+Ins) and adversaries (Ins)"))
        elif encounter.ended:
            self.round_label.setText(tr(_CTX, "Ended in round {0}").format(encounter.round))
            self.turn_label.setText("")
        else:
            self.round_label.setText(tr(_CTX, "Round {0}").format(encounter.round))
            row = self.turn_model.current_row()  # a crewed vehicle's turn has its own row
            if current is not None and row >= 0:
                name = self.turn_model.index(row, TurnOrderModel.COL_NAME).data(
                    Qt.ItemDataRole.DisplayRole)
                set_rich_text(self.turn_label, tr(_CTX, "Turn: <b>{}</b> ({} of {})"), name,
                              row + 1, self.turn_model.rowCount())
        # The current row's id: a crewed vehicle's in its turn, else the combatant's.
        current_id = self.turn_model.row_id(self.turn_model.current_row()) \
            if current is not None else None
        self._panel_refresh.stop()
        shown = self.panel.combatant_id
        if current_id != self._last_current:
            self._last_current = current_id
            if current_id is not None:
                self.select_combatant(current_id)
        if self.panel.combatant_id != shown:
            pass  # the selection moved and the panel was filled for it just now
        elif shown is not None and encounter.find_combatant(shown) is None:
            self.panel.set_combatant(self.selected_combatant_id())
        else:
            self.panel.refresh()
        if self.log_person_combo.count() != len(encounter.combatants) + 1:
            self._fill_people()

    def _fill_people(self) -> None:
        encounter = self.encounter()
        chosen = self.log_person_combo.currentData()
        self.log_person_combo.blockSignals(True)
        self.log_person_combo.clear()
        self.log_person_combo.addItem(tr(_CTX, "Everyone"), None)
        if encounter is not None:
            for combatant in encounter.combatants:
                name = self.document.campaign.combatant_character(combatant).name
                self.log_person_combo.addItem(name, name)
        self.log_person_combo.setCurrentIndex(max(0, self.log_person_combo.findData(chosen)))
        self.log_person_combo.blockSignals(False)

    # --- selection ---------------------------------------------------------------------

    def selected_combatant_id(self) -> str | None:
        index = self.turn_view.currentIndex()
        return self.turn_model.combatant_id(index.row()) if index.isValid() else None

    def selected_combatant_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.turn_view.selectionModel().selectedRows()})
        ids = [self.turn_model.combatant_id(row) for row in rows]
        return [i for i in ids if i is not None]

    def select_combatant(self, combatant_id: str) -> None:
        row = self.turn_model.row_of(combatant_id)
        if row < 0:
            return
        index = self.turn_model.index(row, TurnOrderModel.COL_NAME)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | \
            QItemSelectionModel.SelectionFlag.Rows
        self.turn_view.selectionModel().setCurrentIndex(index, flags)
        self.turn_view.scrollTo(index)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # A crewed vehicle's row shows the crew member who acts first in its turn.
        combatant_id = self.turn_model.acting_id(current.row()) if current.isValid() else None
        if combatant_id != self.panel.combatant_id:
            self.panel.set_combatant(combatant_id)

    # --- running steps -----------------------------------------------------------------

    def show_message(self, text: str) -> None:
        """Tell the referee why something was refused (or what just happened)."""
        self.message_label.show_message(text)

    def run(self, make: _MakePatch) -> bool:
        """Build a step from the current encounter and push it; refusals become messages."""
        encounter = self.encounter()
        if encounter is None:
            self.show_message(tr(_CTX, "Choose an encounter first"))
            return False
        try:
            patch = make(self.document.campaign, encounter)
        except ValueError as exc:
            self.show_message(str(exc))
            return False
        self.show_message("")
        push_patch(self.document, patch)
        return True

    @property
    def auto_dying(self) -> bool:
        return self.auto_dying_check.isChecked()

    def start_encounter(self) -> bool:
        return self.run(fight.start_patch)

    def next_turn(self) -> bool:
        return self.run(lambda c, e: fight.next_turn_patch(c, e, self.rng, self.auto_dying))

    def previous_turn(self) -> bool:
        return self.run(fight.previous_turn_patch)

    def end_round(self) -> bool:
        return self.run(lambda c, e: fight.end_round_patch(c, e, self.rng, self.auto_dying))

    def delay(self) -> bool:
        return self.run(lambda c, e: fight.delay_patch(c, e, self.rng, self.auto_dying))

    def end_encounter(self) -> bool:
        """End the fight; anyone left dying, bleeding, stabilised or mid-task is listed
        and the referee confirms first (the list goes to the log with the end)."""
        encounter = self.encounter()
        if encounter is not None and encounter.started and not encounter.ended:
            ends = fight.loose_ends(self.document.campaign, encounter)
            if ends and not self._confirm_end(ends):
                self.show_message(tr(_CTX, "The fight goes on"))
                return False
        return self.run(fight.end_encounter_patch)

    def _confirm_end(self, ends: tuple[str, ...]) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, tr(_CTX, "End fight?"),
                          tr(_CTX, "Some combatants still need the rules after this fight:"),
                          QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("end_fight_confirm")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText("\n".join(ends) + tr(_CTX, "\n\nEnd the fight anyway? The list goes "
                                                          "to the log."))
        end = box.addButton(tr(_CTX, "End fight"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(tr(_CTX, "Keep fighting"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(end)
        self.ask(box)
        return box.clickedButton() is end

    def roll_initiative(self, skill: str | None = None, only_missing: bool = False) -> bool:
        return self.run(lambda c, e: fight.roll_initiative_patch(c, e, self.rng, skill,
                                                                 only_missing))

    def ambush(self, prepared: Side, skill: str | None = None) -> bool:
        return self.run(lambda c, e: fight.ambush_patch(c, e, prepared, self.rng, skill))

    def move_in_tie(self, step: int) -> bool:
        combatant_id = self.selected_combatant_id()
        if combatant_id is None:
            self.show_message(tr(_CTX, "Select a combatant tied on initiative"))
            return False
        done = self.run(lambda c, e: fight.move_in_ties_patch(c, e, combatant_id, step))
        if done:
            self.select_combatant(combatant_id)
        return done

    def add_adversaries(self, template_id: str, count: int, side: Side = Side.ENEMIES,
                        revealed: bool = True) -> bool:
        template = self.document.campaign.find_template(template_id)
        if template is None:
            self.show_message(tr(_CTX, "That template is no longer in the library"))
            return False
        return self.run(lambda c, e: fight.add_adversaries_patch(c, e, template, count, side,
                                                                 revealed))

    def set_selected_revealed(self, revealed: bool) -> bool:
        """Hide the selected combatants from the player display, or reveal them (the turn
        order's context menu): one undo step however many are selected."""
        ids = self.selected_combatant_ids()
        if not ids:
            self.show_message(tr(_CTX, "Select the combatants to hide or reveal"))
            return False
        return self.run(lambda c, e: fight.set_revealed_many_patch(c, e, ids, revealed))

    def add_characters(self, character_ids: list[str], side: Side = Side.PLAYERS) -> bool:
        return self.run(lambda c, e: fight.add_characters_patch(c, e, character_ids, side))

    def remove_selected(self) -> bool:
        ids = self.selected_combatant_ids()
        if not ids:
            self.show_message(tr(_CTX, "Select the combatants to remove"))
            return False
        return self.run(lambda c, e: fight.remove_combatants_patch(c, e, ids))

    def show_attack(self, attacker_id: str | None = None, defend: bool = False) -> None:
        """Switch to the resolver: the attacker is whose turn it is (or ``attacker_id``);
        a different selected row becomes the target. In a crewed vehicle's turn the
        attacker is the crew member who acts first, with the vehicle's first weapon."""
        encounter = self.encounter()
        if encounter is None:
            return
        current = encounter.current_combatant
        selected = self.selected_combatant_id()
        attacker = attacker_id or (current.id if current is not None else selected)
        weapon = self._vehicle_weapon(encounter) if attacker_id is None else None
        if weapon is not None:
            attacker = weapon[0]
        self.resolver.set_attacker(attacker)
        if weapon is not None and weapon[1] is not None:
            self.resolver.set_weapon(weapon[1])
        mode = self.resolver.mode_combo
        mode.setCurrentIndex(1 if defend else 0)
        if selected is not None and selected != attacker:
            self.resolver.suggest_target(selected)  # only an opponent who can act
        self.tabs.setCurrentIndex(1)
        self.resolver.targets_view.setFocus()

    def _vehicle_weapon(self, encounter: Encounter) -> tuple[str, int | None] | None:
        """In a crewed vehicle's turn: the crew member who fires and the place of the
        vehicle's first weapon in their list (None: it has none); else None."""
        campaign = self.document.campaign
        slot = current_slot(campaign, encounter)
        if slot is None or slot.vehicle is None:
            return None
        crew = acting_crew(campaign, slot.vehicle)
        sheet = campaign.combatant_character(crew)
        thing_id = slot.vehicle.thing.id
        place = next((i for i, (vehicle, _) in enumerate(crew_weapons(campaign, encounter,
                                                                       sheet.id))
                      if vehicle.id == thing_id), None)
        return crew.id, None if place is None else len(sheet.weapons) + place

    # --- dialogs -----------------------------------------------------------------------

    def open_initiative_dialog(self) -> InitiativeDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        campaign = self.document.campaign
        skills = sorted({skill.label for c in encounter.combatants
                         for skill in campaign.combatant_character(c).skills}
                        | {"Recon", "Tactics"})
        own = [(campaign.combatant_character(c).name, c.initiative_skill or "")
               for c in encounter.initiative_order() if c.initiative_skill]
        dialog = InitiativeDialog(skills, self, own)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.initiative_dialog = dialog

        def accepted() -> None:
            skill = dialog.skill
            self.turn_model.initiative_skill = skill
            side = dialog.ambush_combo.currentData()
            if side is None:
                self.roll_initiative(skill, dialog.only_missing_check.isChecked())
            else:
                self.ambush(Side(side), skill)

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def open_tactics_dialog(self) -> TacticsDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        dialog = TacticsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fill(self.document.campaign, encounter, self.selected_combatant_id())
        self.tactics_dialog = dialog

        def accepted() -> None:
            leader = dialog.leader_combo.currentData()
            difficulty = int(dialog.difficulty_combo.currentData())
            modifier = dialog.dm_spin.value()
            try:
                source = dialog.dice_source(self.rng)
            except ValueError as exc:
                self.show_message(str(exc))
                return
            units = dialog.unit_ids()
            use, changed = dialog.use, dialog.changed_check.isChecked()
            self.run(lambda c, e: tactics_check_patch(c, e, leader, difficulty, source, units,
                                                      modifier, use, changed))

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def open_add_adversaries_dialog(self) -> AddAdversariesDialog | None:
        if self.encounter() is None:
            return None
        if not self.document.campaign.adversary_library:
            self.show_message(tr(_CTX, "The adversary library is empty: add a template first"))
            return None
        dialog = AddAdversariesDialog(self.document.campaign, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.adversaries_dialog = dialog
        dialog.accepted.connect(lambda: self.add_adversaries(
            str(dialog.template_combo.currentData()), dialog.count_spin.value(),
            Side(dialog.side_combo.currentData()), not dialog.hidden_check.isChecked()))
        dialog.open()
        return dialog

    def open_add_characters_dialog(self) -> AddCharactersDialog | None:
        encounter = self.encounter()
        if encounter is None:
            return None
        dialog = AddCharactersDialog(self.document.campaign, encounter, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.characters_dialog = dialog
        dialog.accepted.connect(lambda: self.add_characters(
            dialog.chosen_ids(), Side(dialog.side_combo.currentData())))
        dialog.open()
        return dialog

    # --- log ---------------------------------------------------------------------------

    def add_note(self) -> bool:
        text = self.note_edit.text()
        done = self.run(lambda c, e: fight.note_patch(c, e, text))
        if done:
            self.note_edit.clear()
        return done

    def log_text(self) -> str:
        """The log as shown (filters applied) as plain text."""
        encounter = self.encounter()
        if encounter is None:
            return ""
        return fight.log_as_text(encounter, self.log_model.visible_entries())

    def export_log(self, path: Path) -> bool:
        """Write the shown log to ``path`` atomically (never a half-written file)."""
        try:
            atomic_write(path, self.log_text().encode("utf-8"))
        except OSError as exc:
            self.show_message(tr(_CTX, "Could not save the log to {0}: {1}").format(
                    path, exc.strerror or exc))
            return False
        self.show_message(tr(_CTX, "Log saved to {0}").format(path))
        return True

    def _export_clicked(self) -> None:
        encounter = self.encounter()
        if encounter is None:
            return
        name, _ = QFileDialog.getSaveFileName(self, tr(_CTX, "Export the encounter log"),
                                              tr(_CTX, "{0} log.txt").format(
                                                      encounter.name), tr(_CTX, "Text (*.txt)"))
        if name:
            self.export_log(Path(name))
