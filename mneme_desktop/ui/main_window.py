"""The main window: navigator, the selected item's view, menus, undo history.

The window shows; the :class:`~mneme_desktop.ui.session.CampaignSession` decides about the
campaign file (open, save, autosave, lock, recovery) and asks the referee through the
window's :meth:`MainWindow.ask` and :meth:`MainWindow.tell`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QPaintEvent, QPalette, QShowEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QUndoView, QWidget

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.context import AppContext
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.main_actions import MainActions, fill_recent_menu, name_step
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.navigator_tree import NavigatorTree
from mneme_desktop.ui.page_stack import Page, PageStack
from mneme_desktop.ui.theme import apply_theme
from mneme_desktop.ui.widgets.plain_text import message_box
from mneme_desktop.ui.window_layout import fit_available_screen, remember_layout, restore_layout

# Everything that needs the campaign (pydantic models, storage, the session, the views) is
# imported where it is used: the window paints its frame first and loads the campaign after.
if TYPE_CHECKING:
    import random

    from PySide6.QtWidgets import QDialog, QMessageBox

    from mneme_desktop.domain import (
        AdversaryTemplate,
        Character,
        CharacterKind,
        Encounter,
        Thing,
        ThingTemplate,
    )
    from mneme_desktop.domain.edits import ChangeSummary
    from mneme_desktop.export.document import ExportTarget
    from mneme_desktop.ui.campaign_items import CampaignItems
    from mneme_desktop.ui.dialogs.check_dialog import CheckDialog
    from mneme_desktop.ui.dialogs.export_dialog import ChooseFile, RunDialog
    from mneme_desktop.ui.dialogs.npc_lines_dialog import NpcLinesDialog
    from mneme_desktop.ui.dialogs.quick_npc_dialog import QuickNpcDialog
    from mneme_desktop.ui.dialogs.recap_dialog import RecapDialog
    from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog
    from mneme_desktop.ui.document import CampaignDocument
    from mneme_desktop.ui.models.navigator_model import NavigatorModel
    from mneme_desktop.ui.player_display import PlayerDisplay
    from mneme_desktop.ui.session import CampaignSession
    from mneme_desktop.ui.startup_report import StartupReport
    from mneme_desktop.ui.views.character_sheet import CharacterSheetView
    from mneme_desktop.ui.views.encounter_view import EncounterView
    from mneme_desktop.ui.views.healing_view import HealingView

log = logging.getLogger(__name__)

_CTX = "MainWindow"

FILE_FILTER = tr_noop(_CTX, "Mneme campaigns (*.mneme);;All files (*)")
CHARACTER_FILTER = tr_noop(_CTX, "Character files (*.json);;All files (*)")


class MainWindow(QMainWindow):
    """One window, one open campaign at a time."""

    document_replaced = Signal()
    opening_finished = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setObjectName("main_window")
        self._session: CampaignSession | None = None
        self._items: CampaignItems | None = None
        self._pending_open: tuple[Path | None] | None = None
        app = QApplication.instance()
        self._system_palette = QPalette(app.palette()) if isinstance(app, QApplication) else None
        self._dialog_answers: list[QMessageBox.StandardButton] = []
        self._last_export_folder: Path | None = None
        self._fitted_to_screen = False
        self._check_panel: CheckDialog | None = None
        self._catalogue_dialog: QDialog | None = None
        self._player_display: PlayerDisplay | None = None
        self.startup_report: StartupReport | None = None  # the benchmarks' timing marks

        self._build_central()
        self._build_docks()
        self._build_actions()
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave_now)
        self.apply_settings(at_start=True)
        restore_layout(self, context.settings, self.navigator_dock)

    # --- construction ------------------------------------------------------------------

    def _build_central(self) -> None:
        self.stack = PageStack(context=self.context)
        self.stack.select_requested.connect(self.select_entity)
        self.empty_label = self.stack.empty_label
        self.setCentralWidget(self.stack)

    @property
    def sheet_view(self) -> CharacterSheetView | None:
        return self.stack.sheet_view

    @property
    def encounter_view(self) -> EncounterView | None:
        return self.stack.encounter_view

    @property
    def healing_view(self) -> HealingView | None:
        return self.stack.healing_view

    def _build_docks(self) -> None:
        self.tree = NavigatorTree()
        self.navigator_dock = QDockWidget(tr(_CTX, "Campaign"), self)
        self.navigator_dock.setObjectName("navigator_dock")
        self.navigator_dock.setWidget(self.tree)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.navigator_dock)

        self.undo_view = QUndoView()
        self.undo_view.setObjectName("undo_view")
        self.undo_view.setEmptyLabel(tr(_CTX, "<opened>"))
        self.history_dock = QDockWidget(tr(_CTX, "History"), self)
        self.history_dock.setObjectName("history_dock")
        self.history_dock.setWidget(self.undo_view)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.history_dock)
        self.history_dock.hide()

    def _build_actions(self) -> None:
        """The actions come from :mod:`.main_actions`; here each meets its slot. Each is also
        the window's attribute of the same name (``window.undo_action``)."""
        actions = self.main_actions = MainActions(self)
        slots: dict[QAction, Callable[[], object]] = {
            actions.new_action: self.new_campaign,
            actions.open_action: self.open_dialog,
            actions.save_action: self.save,
            actions.save_as_action: self.save_as,
            actions.import_action: self.import_character_dialog,
            actions.export_character_action: self.export_character_dialog,
            actions.export_action: self.export_dialog,
            actions.print_action: self.print_dialog,
            actions.print_all_action: lambda: self.print_dialog("players"),
            actions.export_all_action: lambda: self.export_dialog("players"),
            actions.quit_action: self.close,
            actions.undo_action: self._undo,
            actions.redo_action: self._redo,
            actions.settings_action: self.settings_dialog,
            actions.add_pc_action: lambda: self.add_character("player"),
            actions.add_npc_action: lambda: self.add_character("npc"),
            actions.add_template_action: self.add_template,
            actions.add_encounter_action: self.add_encounter,
            actions.add_thing_action: self.add_thing,
            actions.add_thing_template_action: self.add_thing_template,
            actions.duplicate_action: self.duplicate_selected,
            actions.rename_action: self.rename_selected,
            actions.delete_action: self.delete_selected,
            actions.sheet_page_action: lambda: self.show_page(Page.SHEET),
            actions.encounter_page_action: lambda: self.show_page(Page.ENCOUNTER),
            actions.healing_page_action: lambda: self.show_page(Page.HEALING),
            actions.about_action: self.about,
            actions.check_action: self.check_dialog,
            actions.catalogue_action: self.catalogue_dialog,
            actions.import_npc_lines_action: self.npc_lines_dialog,
            actions.copy_npc_lines_action: self.copy_npc_lines,
            actions.quick_npc_action: self.quick_npc_dialog,
            actions.recap_action: self.recap_dialog,
            actions.player_display_action: self.open_player_display,
        }
        for action, slot in slots.items():
            action.triggered.connect(lambda _checked=False, s=slot: s())
        for name, action in actions.by_name().items():
            setattr(self, name, action)
        self.tree.addActions(actions.navigator_actions())
        self.recent_menu = actions.build_menus(self.navigator_dock, self.history_dock)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.toolbar, self.time_toolbar = actions.build_toolbars()

    # --- settings and layout -------------------------------------------------------------

    def apply_settings(self, *, at_start: bool = False) -> None:
        """Apply the app settings; ``at_start``: from the window's constructor, before any
        view exists."""
        settings = self.context.settings
        self.autosave_timer.setInterval(settings.autosave_interval_s * 1000)
        self.autosave_timer.start()
        app = QApplication.instance()
        if isinstance(app, QApplication) and not self.context.smoke_test:
            apply_theme(app, settings.theme, self._system_palette, restyle_widgets=not at_start)

    # --- questions (answers can be queued by tests) ---------------------------------------

    def queue_dialog_answer(self, answer: QMessageBox.StandardButton) -> None:
        """Tests (and the smoke test) answer the next question without a modal loop."""
        self._dialog_answers.append(answer)

    def ask(self, title: str, text: str, buttons: QMessageBox.StandardButton,
            default: QMessageBox.StandardButton, *,
            labels: Mapping[QMessageBox.StandardButton, str] | None = None,
            ) -> QMessageBox.StandardButton:
        from PySide6.QtWidgets import QMessageBox

        if self._dialog_answers:
            return self._dialog_answers.pop(0)
        if self.context.smoke_test:
            return default
        box = message_box(QMessageBox.Icon.Question, title, text, buttons, self)
        box.setDefaultButton(default)
        for which, label in (labels or {}).items():
            button = box.button(which)
            if button is not None:
                button.setText(label)
        return QMessageBox.StandardButton(box.exec())

    def tell(self, title: str, text: str, *, error: bool = True) -> None:
        from PySide6.QtWidgets import QMessageBox

        log.warning("%s: %s", title, text)
        self.statusBar().showMessage(text.splitlines()[0], 10_000)
        if self.context.smoke_test:
            if error:
                self.context.errors.append(text)
            return
        if self._dialog_answers:
            self._dialog_answers.pop(0)
            return
        box = message_box(QMessageBox.Icon.Critical if error else QMessageBox.Icon.Information,
                          title, text, QMessageBox.StandardButton.Ok, self)
        box.exec()

    def _choose_save_path(self, suggested: Path) -> Path | None:
        from PySide6.QtWidgets import QFileDialog

        name, _ = QFileDialog.getSaveFileName(self, tr(_CTX, "Save campaign as"), str(suggested),
                                              tr(_CTX, FILE_FILTER))
        return Path(name) if name else None

    # --- the session -----------------------------------------------------------------------

    @property
    def session(self) -> CampaignSession:
        """The open campaign's file, lock and autosave; made when first needed, after the
        first paint (it imports pydantic and storage)."""
        if self._session is None:
            from mneme_desktop.ui.session import CampaignSession

            self._session = CampaignSession(self.context, self.ask, self.tell,
                                            self._choose_save_path, self)
            self._session.document_replaced.connect(self._show_document)
            self._session.status.connect(self.statusBar().showMessage)
            self._session.about_to_write.connect(self._flush_views)
        return self._session

    @property
    def document(self) -> CampaignDocument | None:
        return self._session.document if self._session is not None else None

    # --- opening ---------------------------------------------------------------------------

    def open_after_first_paint(self, path: Path | None) -> None:
        """Open the start campaign once the window's frame is on screen.

        The frame needs only Qt; the campaign needs pydantic, storage and the views, which
        together take longer to import than the frame takes to paint. A timer opens it anyway
        if the window is never painted (started minimised, say).
        """
        self._pending_open = (path,)
        self.stack.show_opening(path.name if path is not None else tr(_CTX, "your campaign"))
        QTimer.singleShot(1000, self._finish_opening)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted_to_screen:  # the window manager's frame is known once shown
            self._fitted_to_screen = True
            QTimer.singleShot(0, lambda: fit_available_screen(self))

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.startup_report is not None:
            self.startup_report.painted()
        if self._pending_open is not None:
            QTimer.singleShot(0, self._finish_opening)

    def _finish_opening(self) -> None:
        if self._pending_open is None:
            return
        (path,) = self._pending_open
        self._pending_open = None
        try:
            if self.document is not None:
                return
            if self.open_initial(path):
                return
            if path is not None and self.open_initial(None):
                return
            self.new_campaign()
        finally:
            self.opening_finished.emit()

    def open_initial(self, path: Path | None) -> bool:
        """What the app opens at start: the named file, the last one, or the sample.

        The input guard goes in first, so every field of the campaign's pages is polished
        through it; the frame painted before has no field (see app_guard)."""
        from mneme_desktop.ui.app_guard import install_app_guard

        install_app_guard()
        return self.session.open_initial(path)

    def open_path(self, path: Path) -> bool:
        return self.session.open_path(path)

    def _show_document(self) -> None:
        """Show the session's new document: a new navigator model and new views bound to it."""
        from mneme_desktop.ui.campaign_items import CampaignItems
        from mneme_desktop.ui.models.navigator_model import NavigatorModel

        document = self.document
        assert document is not None
        self._items = CampaignItems(document, self.tell)
        self._pending_open = None
        document.modified_changed.connect(self._update_title)
        document.path_changed.connect(self._update_title)
        document.changed.connect(self._document_changed)
        actions = self.main_actions
        document.undo_stack.canUndoChanged.connect(actions.undo_action.setEnabled)
        document.undo_stack.canRedoChanged.connect(actions.redo_action.setEnabled)
        document.undo_stack.undoTextChanged.connect(self._undo_text_changed)
        document.undo_stack.redoTextChanged.connect(self._redo_text_changed)
        actions.undo_action.setEnabled(False)
        actions.redo_action.setEnabled(False)
        self.undo_view.setStack(document.undo_stack)

        self.tree.set_navigator_model(NavigatorModel(document, self))
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.tree.follow_resets()

        self._build_views(document)
        self._update_title()
        self.document_replaced.emit()
        first = self.tree.first_entity_index()
        if first.isValid():
            self.tree.setCurrentIndex(first)
        else:
            self.show_page(Page.EMPTY)

    def _build_views(self, document: CampaignDocument) -> None:
        """New views for ``document``, and the campaign clock for the time toolbar."""
        from mneme_desktop.ui.views.time_controls import TimeControls

        self.stack.set_document(document)
        self.time_toolbar.clear()
        self.time_controls = TimeControls(document)
        self.time_toolbar.addWidget(self.time_controls)

    # --- navigation -------------------------------------------------------------------------

    @property
    def navigator_model(self) -> NavigatorModel | None:
        return self.tree.navigator_model

    def selected_node(self) -> Node | None:
        return self.tree.selected_node()

    def select_entity(self, entity_id: str) -> bool:
        return self.tree.select_entity(entity_id)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        assert self.navigator_model is not None
        node = self.navigator_model.node(current)
        self._show_node(node)

    def _show_node(self, node: Node | None) -> None:
        document = self.document
        if node is None or node.entity_id is None or document is None:
            self.stack.show_empty(node)
            return
        if node.group is Group.ENCOUNTERS:
            self.stack.encounter().set_encounter(node.entity_id)
            if self._player_display is not None:  # it follows the fight the referee shows
                self._player_display.prefer(node.entity_id)
            self.stack.setCurrentIndex(Page.ENCOUNTER)
            return
        if node.group.is_things:
            self.stack.thing().set_entry(node.entity_id)
            self.stack.setCurrentIndex(Page.THING)
            return
        if node.group is Group.LIBRARY:
            template = document.campaign.find_template(node.entity_id)
            character_id = template.stats.id if template is not None else None
        else:
            character_id = node.entity_id
        self.stack.sheet().set_character(character_id)
        self.stack.setCurrentIndex(Page.SHEET)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if summary.time_changed:
            self._update_title()  # the status bar's clock follows the campaign clock
        if summary.structure_changed:
            self._refresh_selection()

    def _refresh_selection(self) -> None:
        """After the tree was rebuilt, keep showing what was shown, if it still exists."""
        model = self.navigator_model
        if model is None:
            return
        shown = self.stack.shown_entity_id()
        index = model.find(shown) if shown else QModelIndex()
        if index.isValid():
            self.tree.setCurrentIndex(index)
        elif self.stack.currentIndex() in (Page.SHEET, Page.ENCOUNTER, Page.THING):
            first = self.tree.first_entity_index()
            if first.isValid():
                self.tree.setCurrentIndex(first)
            else:
                self.stack.show_empty(None)

    def show_page(self, page: int) -> None:
        if self.document is None:  # still opening: the page comes with the campaign
            return
        if page == Page.HEALING:
            healing = self.stack.healing()
            node = self.selected_node()
            if node is not None and node.entity_id and node.group in (Group.PLAYERS, Group.NPCS):
                healing.set_characters([node.entity_id])
            self.stack.setCurrentIndex(Page.HEALING)
            return
        if page == Page.ENCOUNTER and self.document is not None:
            node = self.selected_node()
            if node is None or node.group is not Group.ENCOUNTERS:
                encounters = self.document.campaign.encounters
                if encounters:
                    self.select_entity(encounters[0].id)
                    return
        if page == Page.SHEET:
            node = self.selected_node()
            if node is None or node.group not in (Group.PLAYERS, Group.NPCS, Group.LIBRARY):
                first = self.tree.first_entity_index()
                if first.isValid() and self.navigator_model is not None:
                    node = self.navigator_model.node(first)
                    if node is not None and node.group is not Group.ENCOUNTERS:
                        self.tree.setCurrentIndex(first)
                        return
        self._show_node(self.selected_node())

    # --- title ----------------------------------------------------------------------------

    def _update_title(self) -> None:
        document = self.document
        if document is None:
            self.setWindowTitle(APP_NAME)
            return
        self.setWindowTitle(tr(_CTX, "{0} — {1}[*] — {2}").format(
            document.campaign.name, document.display_name, APP_NAME))
        self.setWindowModified(document.modified)
        self.status_label.setText(document.campaign.game_time.label)

    # --- file actions ---------------------------------------------------------------------

    def new_campaign(self) -> None:
        self.session.new_campaign()

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if not self.maybe_save():
            return
        start = str(self.document.path.parent) if self.document and self.document.path else ""
        name, _ = QFileDialog.getOpenFileName(self, tr(_CTX, "Open campaign"), start,
                                              tr(_CTX, FILE_FILTER))
        if name:
            self.open_path(Path(name))

    def _fill_recent_menu(self) -> None:
        fill_recent_menu(self.recent_menu, [Path(p) for p in self.context.settings.recent_files],
                         self.open_recent, self._clear_recent)

    def open_recent(self, path: Path) -> bool:
        if not self.maybe_save():
            return False
        return self.open_path(path)

    def _clear_recent(self) -> None:
        self.context.settings.recent_files = []
        self.context.save_settings()

    def save(self) -> bool:
        return self.session.save()

    def save_as(self) -> bool:
        return self.session.save_as()

    def _flush_views(self) -> None:
        """Commit edits a view holds back (notes typed a moment ago) before writing."""
        if self.sheet_view is not None:
            self.sheet_view.flush_pending_edits()
        if self.stack.thing_view is not None:
            self.stack.thing_view.commit_notes()

    def autosave_now(self) -> bool:
        """Write unsaved work to the autosave folder (never over the campaign file)."""
        if self._session is None:  # nothing opened yet, so nothing to keep
            return False
        return self._session.autosave_now()

    def maybe_save(self) -> bool:
        """Ask before unsaved changes would be lost; False means the referee cancelled."""
        if self._session is None:
            return True
        return self._session.maybe_save()

    def discard_and_close(self) -> None:
        """Close without asking (smoke test): unsaved work stays in the autosave."""
        if self._session is not None:
            self._session.keep_in_autosave()
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        remember_layout(self, self.context.settings)
        if self._player_display is not None:
            self._player_display.close()
        self.context.save_settings()
        if self._session is not None:
            self._session.release_lock()
        self.autosave_timer.stop()
        event.accept()

    # --- the campaign's items ---------------------------------------------------------------

    def import_character_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        name, _ = QFileDialog.getOpenFileName(self, tr(_CTX, "Import character"), "",
                                              tr(_CTX, CHARACTER_FILTER))
        if name:
            self.import_character_file(Path(name))

    def import_character_file(self, path: Path) -> Character | None:
        if self._items is None:
            return None
        character = self._items.import_character(path)
        if character is not None:
            from mneme_desktop.storage.characters import character_report

            self.select_entity(character.id)
            unmapped = character_report(character)
            if unmapped:  # what CE CharacterGen had that the sheet has no field for
                self.statusBar().showMessage(
                    tr(_CTX, "Imported {0}; kept in its notes, with no field on the sheet: "
                             "{1}").format(character.name, unmapped), 15000)
            else:
                self.statusBar().showMessage(tr(_CTX, "Imported {0}").format(character.name),
                                             5000)
        return character

    def export_character_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        character = self._items.character_of(self.selected_node()) if self._items else None
        if self._items is None or character is None:
            self.tell(tr(_CTX, "Export character"),
                      tr(_CTX, "Select a character or template first."), error=False)
            return
        name, _ = QFileDialog.getSaveFileName(self, tr(_CTX, "Export character"),
                                              f"{character.name}.json",
                                              tr(_CTX, CHARACTER_FILTER))
        if name and self._items.export_character(character, Path(name)):
            self.statusBar().showMessage(
                tr(_CTX, "Exported {0} to {1}").format(character.name, name), 5000)

    def export_target(self, scope: str = "selection") -> ExportTarget:
        """What Print and Export act on: the selected character or encounter, or all PCs."""
        if self._items is None:
            from mneme_desktop.export.document import ExportTarget

            return ExportTarget.player_characters()
        return self._items.export_target(self.selected_node(), scope)

    def export_dialog(self, scope: str = "selection", *, run: RunDialog | None = None,
                      choose: ChooseFile | None = None) -> None:
        """Export what ``scope`` names; the folder it went to is offered next time this
        session (``run`` and ``choose`` answer the dialogs in tests)."""
        if self.document is None:
            return
        from mneme_desktop.ui.dialogs.export_dialog import export_with_dialog

        paths = self.context.paths
        written = export_with_dialog(self, self.document, self.context.settings,
                                     self.export_target(scope), run=run, choose=choose,
                                     last_folder=self._last_export_folder,
                                     app_folders=(paths.data_dir, paths.config_dir,
                                                  paths.cache_dir))
        if written is not None:
            self._last_export_folder = written.parent

    def print_dialog(self, scope: str = "selection") -> None:
        if self.document is None:
            return
        from mneme_desktop.ui.dialogs.export_dialog import print_with_preview

        print_with_preview(self, self.document, self.context.settings, self.export_target(scope))

    def add_character(self, kind: CharacterKind | str) -> Character | None:
        if self._items is None:
            return None
        character = self._items.add_character(kind)
        self.select_entity(character.id)
        return character

    def add_template(self) -> AdversaryTemplate | None:
        if self._items is None:
            return None
        template = self._items.add_template()
        self.select_entity(template.id)
        return template

    def add_encounter(self) -> Encounter | None:
        if self._items is None:
            return None
        encounter = self._items.add_encounter()
        self.select_entity(encounter.id)
        return encounter

    def add_thing(self) -> Thing | None:
        if self._items is None:
            return None
        thing = self._items.add_thing()
        self.select_entity(thing.id)
        return thing

    def add_thing_template(self) -> ThingTemplate | None:
        if self._items is None:
            return None
        template = self._items.add_thing_template()
        self.select_entity(template.id)
        return template

    def duplicate_selected(self) -> None:
        node = self.selected_node()
        if node is None or self._items is None:
            return
        copy_id = self._items.duplicate(node)
        if copy_id is not None:
            self.select_entity(copy_id)

    def rename_selected(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        index = self.tree.currentIndex()
        node = self.selected_node()
        if node is None or node.is_group or self.navigator_model is None:
            return
        current = self.navigator_model.data(index, Qt.ItemDataRole.EditRole)
        name, ok = QInputDialog.getText(self, tr(_CTX, "Rename"), tr(_CTX, "New name:"),
                                        text=str(current))
        if ok and name.strip() and not self.navigator_model.setData(index, name.strip()):
            self.tell(tr(_CTX, "Rename"), tr(_CTX, "“{0}” is not a valid name.").format(name),
                      error=False)

    def delete_selected(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        node = self.selected_node()
        if node is None or node.entity_id is None or self._items is None:
            return
        entity = self.navigator_model.entity(node) if self.navigator_model else None
        name = getattr(entity, "name", tr(_CTX, "this item"))
        answer = self.ask(tr(_CTX, "Delete"),
                          tr(_CTX, "Delete “{0}”? (Edit ▸ Undo brings it back.)").format(name),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          QMessageBox.StandardButton.Yes)
        if answer == QMessageBox.StandardButton.Yes:
            self._items.delete(node)

    def _undo_text_changed(self, text: str) -> None:
        name_step(self.main_actions.undo_action, tr_noop("MainActions", "Undo"), text)

    def _redo_text_changed(self, text: str) -> None:
        name_step(self.main_actions.redo_action, tr_noop("MainActions", "Redo"), text)

    def _undo(self) -> None:
        if self.document is not None:
            self.document.undo_stack.undo()

    def _redo(self) -> None:
        if self.document is not None:
            self.document.undo_stack.redo()

    def settings_dialog(self) -> SettingsDialog | None:
        from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog

        if self.document is None:
            return None
        dialog = SettingsDialog(self.context.settings, self.document.threshold_basis, self)
        if self.context.smoke_test or dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return dialog
        self.apply_settings_dialog(dialog)
        return dialog

    def apply_settings_dialog(self, dialog: SettingsDialog) -> None:
        """App settings apply at once; the campaign's threshold basis is an undoable step."""
        self.context.settings = dialog.result_settings()
        self.context.save_settings()
        self.apply_settings()
        if self._items is not None:
            self._items.set_threshold_basis(dialog.threshold_basis())

    def check_subject(self) -> tuple[str | None, str | None]:
        """Who a check is for and where it is logged: the sheet shown, or in an encounter
        the selected combatant (else whose turn it is) and that encounter."""
        from mneme_desktop.domain.quick_check import combatant_sheet_id

        document = self.document
        page = self.stack.currentIndex()
        if document is None:
            return None, None
        if page == Page.SHEET and self.sheet_view is not None:
            return self.sheet_view.character_id(), None
        if page == Page.ENCOUNTER and self.encounter_view is not None:
            encounter = self.encounter_view.encounter()
            if encounter is None:
                return None, None
            current = encounter.current_combatant
            combatant_id = self.encounter_view.selected_combatant_id() or (
                current.id if current is not None else None)
            sheet_id = combatant_sheet_id(document.campaign, encounter.id, combatant_id) \
                if combatant_id else None
            return sheet_id, encounter.id
        return None, None

    def check_dialog(self, rng: random.Random | None = None) -> CheckDialog | None:
        """The quick check panel (Ctrl+K), for the character or combatant shown; one panel,
        raised again (and pointed at what is shown now) when it is already open."""
        from mneme_desktop.ui.dialogs.check_dialog import CheckDialog

        document = self.document
        if document is None:
            return None
        sheet_id, encounter_id = self.check_subject()
        panel = self._check_panel
        if panel is None or panel.document is not document:
            if panel is not None:
                panel.close()
                panel.deleteLater()
            panel = self._check_panel = CheckDialog(document, rng=rng, sheet_id=sheet_id,
                                                    encounter_id=encounter_id, parent=self)
            self.document_replaced.connect(panel.close)  # it spoke of the old campaign
        else:
            panel.preselect(sheet_id, encounter_id)
        if rng is not None:
            panel.set_rng(rng)
        panel.show()
        panel.raise_()
        panel.activateWindow()
        return panel

    def open_player_display(self) -> PlayerDisplay | None:
        """View ▸ Player Display: the players' window on its screen, and the panel that
        sets it up; it follows whichever campaign this window has open."""
        from mneme_desktop.ui.player_display import PlayerDisplay

        document = self.document
        if document is None:
            return None
        display = self._player_display
        if display is None:
            display = self._player_display = PlayerDisplay(document, self.context, self)
            self.document_replaced.connect(
                lambda: display.set_document(self.document) if self.document else None)
        view = self.encounter_view
        if view is not None and self.stack.currentIndex() == Page.ENCOUNTER:
            display.prefer(view.encounter_id())
        display.open()
        return display

    # --- the referee's library: one-line NPCs, quick NPCs, the session recap -------------
    # (what each does is in ui/library_window.py)

    def npc_lines_dialog(self, *, run: RunDialog | None = None) -> NpcLinesDialog | None:
        from mneme_desktop.ui import library_window

        return library_window.npc_lines_dialog(self, self, run=run)

    def copy_npc_lines(self) -> str:
        from mneme_desktop.ui import library_window

        return library_window.copy_npc_lines(self)

    def quick_npc_dialog(self, rng: random.Random | None = None, *,
                         run: RunDialog | None = None) -> QuickNpcDialog | None:
        from mneme_desktop.ui import library_window

        return library_window.quick_npc_dialog(self, self, rng, run=run)

    def recap_dialog(self, *, run: RunDialog | None = None) -> RecapDialog | None:
        from mneme_desktop.ui import library_window

        dialog = library_window.recap_dialog(self, self, self.context.settings,
                                             self._last_export_folder, run=run)
        if dialog is not None and dialog.last_folder is not None:
            self._last_export_folder = dialog.last_folder
        return dialog

    def catalogue_dialog(self) -> QDialog | None:
        """The catalogue editor (Campaign > Catalogue…): one window, raised again when open,
        and closed when another campaign replaces this one."""
        from mneme_desktop.ui.dialogs.catalogue_dialog import CatalogueDialog

        document = self.document
        if document is None:
            return None
        dialog = self._catalogue_dialog
        if not isinstance(dialog, CatalogueDialog) or dialog.document is not document:
            if dialog is not None:
                dialog.close()
                dialog.deleteLater()
            dialog = self._catalogue_dialog = CatalogueDialog(document, self)
            self.document_replaced.connect(dialog.close)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        box = message_box(QMessageBox.Icon.NoIcon, tr(_CTX, "About {0}").format(APP_NAME),
                          tr(_CTX, "<h3>{0} {1}</h3>"
                                   "<p>An offline character-and-encounter manager for Mneme CE "
                                   "referees.</p><p>Rules from the Mneme CE chapters; where they "
                                   "disagree the choice is shown in Settings and in the "
                                   "tooltips.</p>").format(APP_NAME, __version__),
                          QMessageBox.StandardButton.Ok, self, rich=True)
        box.setIconPixmap(self.windowIcon().pixmap(64))
        box.exec()

    # --- screenshots ------------------------------------------------------------------------

    def save_screenshot(self, path: Path, view: str) -> int:
        """Render the window offscreen with ``view`` showing; 0 on success."""
        document = self.document
        if document is None:
            return 1
        if view == "player":
            from mneme_desktop.ui.player_display import save_display_screenshot

            shown = save_display_screenshot(document, self.context.settings, path)
            self.discard_and_close()
            if not shown:
                print(f"mneme-desktop: could not write the screenshot {path}")
            return 0 if shown else 1
        self.resize(1280, 820)
        self.show()
        if view == "encounter":
            self.show_page(Page.ENCOUNTER)
        elif view == "healing":
            injured = [c.id for c in document.campaign.characters if c.damage > 0]
            self.show_page(Page.HEALING)
            if injured:
                self.stack.healing().set_characters(injured)
        else:
            self.show_page(Page.SHEET)
        # "Opened /tmp/.../Sample Campaign.mneme" is the maker's folder, not the product:
        # the README's pictures showed it in the status bar.
        self.statusBar().clearMessage()
        app = QApplication.instance()
        if app is not None:
            for _ in range(3):
                app.processEvents()
        image = self.grab()
        ok = not image.isNull() and image.save(str(path))
        self.discard_and_close()
        if not ok:
            print(f"mneme-desktop: could not write the screenshot {path}")
        return 0 if ok else 1
