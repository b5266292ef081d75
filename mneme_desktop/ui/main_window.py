"""The main window: navigator, the selected item's view, menus, undo history, autosave."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QPaintEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QStyle,
    QToolBar,
    QTreeView,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.app import AppContext
from mneme_desktop.ui.input_guard import install_input_guard
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.theme import apply_theme
from mneme_desktop.ui.widgets.plain_text import (
    install_plain_text_guard,
    message_box,
    set_rich_text,
)

# Everything that needs the campaign (pydantic models, storage, the views) is imported
# where it is used: the window paints its frame first and loads the campaign after.
if TYPE_CHECKING:
    from mneme_desktop.domain import (
        AdversaryTemplate,
        Campaign,
        Character,
        CharacterKind,
        Encounter,
    )
    from mneme_desktop.export.document import ExportTarget
    from mneme_desktop.storage import AutosaveStore, CampaignLock
    from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog
    from mneme_desktop.ui.document import CampaignDocument
    from mneme_desktop.ui.models.navigator_model import NavigatorModel
    from mneme_desktop.ui.views.character_sheet import CharacterSheetView
    from mneme_desktop.ui.views.encounter_view import EncounterView
    from mneme_desktop.ui.views.healing_view import HealingView

log = logging.getLogger(__name__)

FILE_FILTER = "Mneme campaigns (*.mneme);;All files (*)"
CHARACTER_FILTER = "Character files (*.json);;All files (*)"
SAMPLE_NAME = "Sample Campaign.mneme"


class Page:
    EMPTY = 0
    SHEET = 1
    ENCOUNTER = 2
    HEALING = 3


def _name_step(action: QAction, verb: str, step: str) -> None:
    """The menu says which step ("Undo Rename Mara to Ilse"); the toolbar keeps the short
    word so it fits a 1280-pixel screen, with the whole text in its tooltip."""
    full = f"{verb} {step}".strip()
    action.setText(f"&{full}")
    action.setIconText(verb)
    action.setToolTip(full)


class MainWindow(QMainWindow):
    """One window, one open campaign at a time."""

    document_replaced = Signal()
    opening_finished = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        install_input_guard()  # before any field exists: the wheel never edits unfocused
        install_plain_text_guard()  # before any label exists: user text is never markup
        self.context = context
        self.setObjectName("main_window")
        self._autosaves: AutosaveStore | None = None
        self._pending_open: tuple[Path | None] | None = None
        self.document: CampaignDocument | None = None
        self.navigator_model: NavigatorModel | None = None
        self._lock: CampaignLock | None = None
        app = QApplication.instance()
        self._system_palette = QPalette(app.palette()) if isinstance(app, QApplication) else None
        self._dialog_answers: list[QMessageBox.StandardButton] = []
        self._fitted_to_screen = False
        self._selected_before_reset: str | None = None
        self._read_only_allowed: set[Path] = set()

        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave_now)
        self.apply_settings()
        self._restore_layout()

    # --- construction ------------------------------------------------------------------

    def _build_central(self) -> None:
        self.stack = QStackedWidget()
        self.stack.setObjectName("central_stack")
        empty = QWidget()
        layout = QVBoxLayout(empty)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)
        self.stack.addWidget(empty)
        for _page in (Page.SHEET, Page.ENCOUNTER, Page.HEALING):
            self.stack.addWidget(QWidget())  # stands in until the view is first shown
        self.setCentralWidget(self.stack)
        self.sheet_view: CharacterSheetView | None = None
        self.encounter_view: EncounterView | None = None
        self.healing_view: HealingView | None = None

    def _build_docks(self) -> None:
        self.tree = QTreeView()
        self.tree.setObjectName("navigator")
        self.tree.setHeaderHidden(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.SelectedClicked)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.tree.setAccessibleName("Campaign navigator")
        self.tree.setMinimumWidth(160)
        self.navigator_dock = QDockWidget("Campaign", self)
        self.navigator_dock.setObjectName("navigator_dock")
        self.navigator_dock.setWidget(self.tree)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.navigator_dock)

        self.undo_view = QUndoView()
        self.undo_view.setObjectName("undo_view")
        self.undo_view.setEmptyLabel("<opened>")
        self.history_dock = QDockWidget("History", self)
        self.history_dock.setObjectName("history_dock")
        self.history_dock.setWidget(self.undo_view)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.history_dock)
        self.history_dock.hide()

    def _action(self, text: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                icon: QStyle.StandardPixmap | None = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        seq = QKeySequence.StandardKey
        self.new_action = self._action("&New Campaign", self.new_campaign, seq.New,
                                       sp.SP_FileIcon, "Start an empty campaign")
        self.open_action = self._action("&Open…", self.open_dialog, seq.Open,
                                        sp.SP_DialogOpenButton, "Open a campaign file")
        self.save_action = self._action("&Save", self.save, seq.Save, sp.SP_DialogSaveButton,
                                        "Save the campaign")
        self.save_as_action = self._action("Save &As…", self.save_as, seq.SaveAs,
                                           tip="Save the campaign under a new name")
        self.import_action = self._action("&Import Character…", self.import_character_dialog,
                                          "Ctrl+I", tip="Add a character from a JSON file "
                                          "(Mneme Desktop or CE CharacterGen)")
        self.export_character_action = self._action(
            "Export &Character…", self.export_character_dialog,
            tip="Save the selected character as a JSON file for another campaign")
        self.export_action = self._action(
            "&Export…", self.export_dialog, "Ctrl+E", sp.SP_DriveFDIcon,
            "Export the selected character's sheet or the selected encounter's referee pack "
            "as PDF, HTML or JSON")
        self.print_action = self._action(
            "&Print…", self.print_dialog, seq.Print, tip="Print the selected character's sheet "
            "or the selected encounter's referee pack, with a preview")
        self.print_all_action = self._action(
            "Print All Player &Characters…", lambda: self.print_dialog("players"),
            tip="Print every player character's sheet, with a preview")
        self.export_all_action = self._action(
            "Export All Player C&haracters…", lambda: self.export_dialog("players"),
            tip="Export every player character's sheet as one PDF, HTML or JSON file")
        self.quit_action = self._action("&Quit", self.close, seq.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        self.undo_action = self._action("&Undo", self._undo, seq.Undo, sp.SP_ArrowBack)
        self.redo_action = self._action("&Redo", self._redo, "Ctrl+Shift+Z", sp.SP_ArrowForward)
        _name_step(self.undo_action, "Undo", "")
        _name_step(self.redo_action, "Redo", "")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.settings_action = self._action("&Settings…", self.settings_dialog, seq.Preferences,
                                            tip="Theme, autosave, backups, printing, rules")
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)

        self.add_pc_action = self._action("Add &Player Character", lambda: self.add_character(
            "player"), "Ctrl+Shift+P", tip="Add a new player character")
        self.add_npc_action = self._action("Add &NPC", lambda: self.add_character(
            "npc"), "Ctrl+Shift+N", tip="Add a new non-player character")
        self.add_template_action = self._action("Add Adversary &Template", self.add_template,
                                                "Ctrl+Shift+T", tip="Add an adversary template")
        self.add_encounter_action = self._action("Add &Encounter", self.add_encounter,
                                                 "Ctrl+Shift+E", tip="Add an encounter")
        self.duplicate_action = self._action("&Duplicate", self.duplicate_selected, "Ctrl+D",
                                             tip="Copy the selected item")
        self.rename_action = self._action("&Rename", self.rename_selected, "F2",
                                          tip="Rename the selected item")
        self.delete_action = self._action("De&lete", self.delete_selected, seq.Delete,
                                          sp.SP_TrashIcon, "Delete the selected item")
        for action in (self.add_pc_action, self.add_npc_action, self.add_template_action,
                       self.add_encounter_action, self.duplicate_action, self.rename_action,
                       self.delete_action):
            self.tree.addAction(action)
        self.duplicate_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

        self.sheet_page_action = self._action("Character &Sheet", lambda: self.show_page(
            Page.SHEET), "Ctrl+1", tip="Show the selected character's sheet")
        self.encounter_page_action = self._action("&Encounter", lambda: self.show_page(
            Page.ENCOUNTER), "Ctrl+2", tip="Show the selected encounter")
        self.healing_page_action = self._action("&Healing Planner", lambda: self.show_page(
            Page.HEALING), "Ctrl+3", sp.SP_DialogApplyButton,
            "Plan recovery over days and run the infirmary")
        self.about_action = self._action("&About Mneme Desktop", self.about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _build_menus_and_toolbar(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.setObjectName("recent_menu")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        file_menu.addActions([self.import_action, self.export_character_action])
        file_menu.addSeparator()
        file_menu.addActions([self.export_action, self.export_all_action, self.print_action,
                              self.print_all_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addSeparator()
        edit_menu.addAction(self.settings_action)

        campaign_menu = bar.addMenu("&Campaign")
        campaign_menu.addActions([self.add_pc_action, self.add_npc_action,
                                  self.add_template_action, self.add_encounter_action])
        campaign_menu.addSeparator()
        campaign_menu.addActions([self.duplicate_action, self.rename_action, self.delete_action])

        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.sheet_page_action, self.encounter_page_action,
                              self.healing_page_action])
        view_menu.addSeparator()
        view_menu.addAction(self.navigator_dock.toggleViewAction())
        history = self.history_dock.toggleViewAction()
        history.setText("Undo &History")
        history.setShortcut(QKeySequence("Ctrl+H"))
        view_menu.addAction(history)

        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)

        self.toolbar = QToolBar("Main toolbar")
        self.toolbar.setObjectName("main_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toolbar.addActions([self.new_action, self.open_action, self.save_action])
        self.toolbar.addSeparator()
        self.toolbar.addActions([self.undo_action, self.redo_action])
        self.toolbar.addSeparator()
        self.toolbar.addActions([self.print_action, self.export_action,
                                 self.healing_page_action])
        self.addToolBar(self.toolbar)
        self.time_toolbar = QToolBar("Campaign time")
        self.time_toolbar.setObjectName("time_toolbar")
        self.addToolBar(self.time_toolbar)

    # --- settings and layout -------------------------------------------------------------

    def apply_settings(self) -> None:
        settings = self.context.settings
        self.autosave_timer.setInterval(settings.autosave_interval_s * 1000)
        self.autosave_timer.start()
        app = QApplication.instance()
        if isinstance(app, QApplication) and not self.context.smoke_test:
            apply_theme(app, settings.theme, self._system_palette)

    def _restore_layout(self) -> None:
        settings = self.context.settings
        self.resize(1280, 820)
        if settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(settings.window_geometry.encode()))
        self._fit_available_screen()
        if settings.window_state:
            self.restoreState(QByteArray.fromBase64(settings.window_state.encode()))
        else:
            self.resizeDocks([self.navigator_dock], [240], Qt.Orientation.Horizontal)

    def _fit_available_screen(self) -> None:
        """Never larger than the screen's free area (an 800-high laptop put the status bar
        off-screen), and on it; a maximised window stays maximised."""
        if self.isMaximized() or self.isFullScreen():
            return
        if QApplication.platformName() == "offscreen":  # no real screen: render as asked
            return
        screen = self.screen()
        if screen is None:
            return
        area = screen.availableGeometry()
        frame = self.frameGeometry().size() - self.geometry().size()
        if frame.isEmpty() and not self.isVisible():  # no frame yet: allow a title bar
            style = self.style()
            border = style.pixelMetric(QStyle.PixelMetric.PM_MdiSubWindowFrameWidth)
            title = style.pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight)
            frame = QSize(2 * border, title + 2 * border)
        width = min(self.width(), max(area.width() - frame.width(), 1))
        height = min(self.height(), max(area.height() - frame.height(), 1))
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        geometry = self.frameGeometry()
        if not area.contains(geometry):
            x = min(max(geometry.x(), area.x()), area.right() - geometry.width() + 1)
            y = min(max(geometry.y(), area.y()), area.bottom() - geometry.height() + 1)
            self.move(max(x, area.x()), max(y, area.y()))

    def _remember_layout(self) -> None:
        settings = self.context.settings
        settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        settings.window_state = bytes(self.saveState().toBase64().data()).decode()

    # --- dialogs (answers can be queued by tests) ------------------------------------------

    def queue_dialog_answer(self, answer: QMessageBox.StandardButton) -> None:
        """Tests (and the smoke test) answer the next question without a modal loop."""
        self._dialog_answers.append(answer)

    def ask(self, title: str, text: str, buttons: QMessageBox.StandardButton,
            default: QMessageBox.StandardButton) -> QMessageBox.StandardButton:
        if self._dialog_answers:
            return self._dialog_answers.pop(0)
        if self.context.smoke_test:
            return default
        box = message_box(QMessageBox.Icon.Question, title, text, buttons, self)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def tell(self, title: str, text: str, *, error: bool = True) -> None:
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

    # --- opening ---------------------------------------------------------------------------

    @property
    def autosaves(self) -> AutosaveStore:
        if self._autosaves is None:
            from mneme_desktop.storage import AutosaveStore

            self._autosaves = AutosaveStore(self.context.paths.autosave_dir)
        return self._autosaves

    def open_after_first_paint(self, path: Path | None) -> None:
        """Open the start campaign once the window's frame is on screen.

        The frame needs only Qt; the campaign needs pydantic, storage and the views, which
        together take longer to import than the frame takes to paint. A timer opens it anyway
        if the window is never painted (started minimised, say).
        """
        self._pending_open = (path,)
        name = path.name if path is not None else "your campaign"
        set_rich_text(self.empty_label, "<h2>Opening {}…</h2>", name)
        self.stack.setCurrentIndex(Page.EMPTY)
        QTimer.singleShot(1000, self._finish_opening)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted_to_screen:  # the window manager's frame is known once shown
            self._fitted_to_screen = True
            QTimer.singleShot(0, self._fit_available_screen)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
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
        """What the app opens at start: the named file, the last one, or the sample."""
        if path is not None:
            return self.open_path(path)
        if self._offer_untitled_recovery():
            return True
        last = self.context.settings.last_campaign
        if last and Path(last).is_file() and self.open_path(Path(last)):
            return True
        return self.open_sample()

    def open_sample(self) -> bool:
        """Open a private copy of the sample, so the installed one is never written to."""
        from mneme_desktop.storage import install_sample_campaign

        target = self.context.paths.data_dir / SAMPLE_NAME
        try:
            install_sample_campaign(target)
        except OSError as exc:
            self.tell("Sample campaign", f"Could not copy the sample campaign: {exc}")
            document = self._new_document(self._new_campaign())
            self.set_document(document)
            document.mark_unsaved()
            return True
        self.context.settings.first_run_done = True
        return self.open_path(target)

    def _offer_untitled_recovery(self) -> bool:
        from mneme_desktop.storage import CampaignLoadError

        untitled = [e for e in self.autosaves.entries() if e.untitled_id is not None]
        if not untitled:
            return False
        entry = untitled[0]
        answer = self.ask("Recover unsaved campaign",
                          f"An unsaved campaign, “{entry.campaign_name}”, was autosaved "
                          f"({entry.label}) before {APP_NAME} last closed.\n\nRecover it?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            self.autosaves.discard(entry)
            return False
        try:
            campaign = self.autosaves.load(entry)
        except CampaignLoadError as exc:
            self.tell("Recover", str(exc))
            return False
        self.autosaves.discard(entry)
        document = self._new_document(campaign)
        self.set_document(document)
        document.mark_unsaved()
        return True

    def open_path(self, path: Path) -> bool:
        from mneme_desktop.storage import (
            CampaignLoadError,
            CampaignLock,
            LockedError,
            load_campaign_file,
        )

        path = Path(path)
        if self.document is not None and self.document.path is not None and \
                path.resolve() == self.document.path.resolve():
            return True
        lock = CampaignLock(path, self.context.paths.lock_dir)
        holder = lock.live_holder()
        if holder is not None:
            answer = self.ask("Campaign already open",
                              f"“{path.name}” is already open: {holder.describe()}.\n\n"
                              "Opening it twice can lose the changes made in one of them. "
                              "Open it anyway?",
                              QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
                              QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Open:
                return False
        try:
            loaded = load_campaign_file(path)
        except CampaignLoadError as exc:
            self.tell("Cannot open campaign", str(exc))
            return False
        try:
            lock.acquire(force=True)
        except (LockedError, OSError) as exc:
            log.warning("Could not lock %s: %s", path, exc)
        campaign = loaded.campaign
        recovered = False
        entry = self.autosaves.recoverable(path)
        if entry is not None:
            summary = self.autosaves.recovery_summary(entry, path)
            answer = self.ask("Recover unsaved changes",
                              f"There are unsaved changes to “{path.name}” autosaved "
                              f"{entry.label}.\n\n{summary}\n\nRecover them? "
                              "(No keeps the file as it is and deletes the autosave.)",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                              QMessageBox.StandardButton.Yes)
            if answer == QMessageBox.StandardButton.Yes:
                try:
                    campaign = self.autosaves.load(entry)
                    recovered = True
                except CampaignLoadError as exc:
                    self.tell("Recover", f"The autosave is damaged and was not used: {exc}")
            else:
                self.autosaves.discard(entry)
        self._release_lock()
        self._lock = lock
        known_hash = loaded.content_hash
        if recovered and entry is not None and entry.base_hash is not None:
            # The recovered work was made on the file as it was then: if something has
            # changed the file since, saving must ask rather than silently replace it.
            known_hash = entry.base_hash
        document = self._new_document(campaign, path, known_hash)
        self.set_document(document)
        if recovered:
            document.mark_unsaved()
        self.context.settings.add_recent(path)
        self.context.save_settings()
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @staticmethod
    def _new_document(campaign: Campaign, path: Path | None = None,
                      file_hash: str | None = None) -> CampaignDocument:
        from mneme_desktop.ui.document import CampaignDocument

        return CampaignDocument(campaign, path, file_hash)

    def set_document(self, document: CampaignDocument) -> None:
        """Show ``document``: a new navigator model and new views bound to it."""
        from mneme_desktop.ui.models.navigator_model import NavigatorModel

        self._pending_open = None
        old = self.document
        self.document = document
        document.setParent(self)
        document.modified_changed.connect(self._update_title)
        document.path_changed.connect(self._update_title)
        document.structure_changed.connect(self._refresh_selection)
        document.undo_stack.canUndoChanged.connect(self.undo_action.setEnabled)
        document.undo_stack.canRedoChanged.connect(self.redo_action.setEnabled)
        document.undo_stack.undoTextChanged.connect(self._undo_text_changed)
        document.undo_stack.redoTextChanged.connect(self._redo_text_changed)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.undo_view.setStack(document.undo_stack)

        self.navigator_model = NavigatorModel(document, self)
        old_model = self.tree.model()
        self.tree.setModel(self.navigator_model)
        if old_model is not None:
            old_model.deleteLater()
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.tree.expandAll()
        self.navigator_model.modelReset.connect(self.tree.expandAll)
        self.navigator_model.modelAboutToBeReset.connect(self._remember_selection)
        self.navigator_model.modelReset.connect(self._restore_selection)

        self._build_views(document)
        if old is not None:
            old.deleteLater()
        self._update_title()
        self.document_replaced.emit()
        first = self._first_entity_index()
        if first.isValid():
            self.tree.setCurrentIndex(first)
        else:
            self.show_page(Page.EMPTY)

    def _build_views(self, document: CampaignDocument) -> None:
        """Drop the old document's views; each view is built the first time it is shown."""
        from mneme_desktop.ui.views.time_controls import TimeControls

        for page, view in ((Page.SHEET, self.sheet_view), (Page.ENCOUNTER, self.encounter_view),
                           (Page.HEALING, self.healing_view)):
            if view is not None:
                self._set_page(page, QWidget())
        self.sheet_view = self.encounter_view = self.healing_view = None
        self.time_toolbar.clear()
        self.time_controls = TimeControls(document)
        self.time_toolbar.addWidget(self.time_controls)

    def _set_page(self, page: int, widget: QWidget) -> None:
        """Put ``widget`` at ``page`` in the stack, in place of what was there."""
        old = self.stack.widget(page)
        self.stack.insertWidget(page, widget)
        self.stack.removeWidget(old)
        old.deleteLater()

    def _sheet(self) -> CharacterSheetView:
        if self.sheet_view is None:
            from mneme_desktop.ui.views.character_sheet import CharacterSheetView

            assert self.document is not None
            self.sheet_view = CharacterSheetView(self.document)
            self._set_page(Page.SHEET, self.sheet_view)
        return self.sheet_view

    def _encounter(self) -> EncounterView:
        if self.encounter_view is None:
            from mneme_desktop.ui.views.encounter_view import EncounterView

            assert self.document is not None
            self.encounter_view = EncounterView(self.document)
            self._set_page(Page.ENCOUNTER, self.encounter_view)
        return self.encounter_view

    def _healing(self) -> HealingView:
        if self.healing_view is None:
            from mneme_desktop.ui.views.healing_view import HealingView

            assert self.document is not None
            self.healing_view = HealingView(self.document)
            self._set_page(Page.HEALING, self.healing_view)
        return self.healing_view

    def _first_entity_index(self) -> QModelIndex:
        model = self.navigator_model
        if model is None:
            return QModelIndex()
        for group in Group:
            group_index = model.group_index(group)
            if model.rowCount(group_index):
                return model.index(0, 0, group_index)
        return QModelIndex()

    # --- navigation -------------------------------------------------------------------------

    def selected_node(self) -> Node | None:
        if self.navigator_model is None:
            return None
        return self.navigator_model.node(self.tree.currentIndex())

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        assert self.navigator_model is not None
        node = self.navigator_model.node(current)
        self._show_node(node)

    def _show_node(self, node: Node | None) -> None:
        document = self.document
        if node is None or node.entity_id is None or document is None:
            self._show_empty(node)
            return
        if node.group is Group.ENCOUNTERS:
            self._encounter().set_encounter(node.entity_id)
            self.stack.setCurrentIndex(Page.ENCOUNTER)
            return
        if node.group is Group.LIBRARY:
            template = document.campaign.find_template(node.entity_id)
            character_id = template.stats.id if template is not None else None
        else:
            character_id = node.entity_id
        self._sheet().set_character(character_id)
        self.stack.setCurrentIndex(Page.SHEET)

    def _show_empty(self, node: Node | None) -> None:
        if node is not None and node.is_group:
            hints = {
                Group.PLAYERS: "Add a player character with Campaign ▸ Add Player Character "
                               "(Ctrl+Shift+P), or import one with File ▸ Import Character.",
                Group.NPCS: "Add an NPC with Campaign ▸ Add NPC (Ctrl+Shift+N).",
                Group.LIBRARY: "Adversary templates are stat blocks that encounters copy: "
                               "Campaign ▸ Add Adversary Template (Ctrl+Shift+T).",
                Group.ENCOUNTERS: "Set up a fight with Campaign ▸ Add Encounter (Ctrl+Shift+E).",
            }
            set_rich_text(self.empty_label, "<h2>{}</h2><p>{}</p>", node.group.label,
                          hints[node.group])
        else:
            set_rich_text(self.empty_label, "<h2>Nothing selected</h2><p>Choose a character or "
                          "an encounter in the campaign navigator.</p>")
        self.stack.setCurrentIndex(Page.EMPTY)

    def _refresh_selection(self) -> None:
        """After the tree was rebuilt, keep showing what was shown, if it still exists."""
        model = self.navigator_model
        if model is None:
            return
        shown = self._shown_entity_id()
        index = model.find(shown) if shown else QModelIndex()
        if index.isValid():
            self.tree.setCurrentIndex(index)
        elif self.stack.currentIndex() in (Page.SHEET, Page.ENCOUNTER):
            first = self._first_entity_index()
            if first.isValid():
                self.tree.setCurrentIndex(first)
            else:
                self._show_empty(None)

    def _shown_entity_id(self) -> str | None:
        page = self.stack.currentIndex()
        document = self.document
        if document is None:
            return None
        if page == Page.SHEET and self.sheet_view is not None:
            character_id = self.sheet_view.character_id()
            template = document.template_of_stats(character_id) if character_id else None
            return template.id if template is not None else character_id
        if page == Page.ENCOUNTER and self.encounter_view is not None:
            return self.encounter_view.encounter_id()
        return None

    def _remember_selection(self) -> None:
        node = self.selected_node()
        self._selected_before_reset = node.entity_id if node is not None else None

    def _restore_selection(self) -> None:
        """The navigator was rebuilt (an item added or removed): keep the same item chosen."""
        entity_id, self._selected_before_reset = self._selected_before_reset, None
        if entity_id is not None and self.navigator_model is not None:
            index = self.navigator_model.find(entity_id)
            if index.isValid():
                self.tree.setCurrentIndex(index)
                self.tree.scrollTo(index)

    def select_entity(self, entity_id: str) -> bool:
        if self.navigator_model is None:
            return False
        index = self.navigator_model.find(entity_id)
        if not index.isValid():
            return False
        self.tree.setCurrentIndex(index)
        return True

    def show_page(self, page: int) -> None:
        if self.document is None:  # still opening: the page comes with the campaign
            return
        if page == Page.HEALING:
            healing = self._healing()
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
                first = self._first_entity_index()
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
        self.setWindowTitle(f"{document.campaign.name} — {document.display_name}[*] — {APP_NAME}")
        self.setWindowModified(document.modified)
        self.status_label.setText(document.campaign.game_time.label)

    # --- file actions ---------------------------------------------------------------------

    def _new_campaign(self) -> Campaign:
        from mneme_desktop.domain import Campaign

        return Campaign(name="New Campaign")

    def new_campaign(self) -> None:
        if not self.maybe_save():
            return
        self._release_lock()
        document = self._new_document(self._new_campaign())
        self.set_document(document)
        document.mark_unsaved()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.document.path.parent) if self.document and self.document.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open campaign", start, FILE_FILTER)
        if name:
            self.open_path(Path(name))

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = [Path(p) for p in self.context.settings.recent_files]
        if not recent:
            empty = self.recent_menu.addAction("No recent campaigns")
            empty.setEnabled(False)
            return
        for number, path in enumerate(recent, start=1):
            action = self.recent_menu.addAction(f"&{number % 10} {path.name}")
            action.setToolTip(str(path))
            action.setStatusTip(str(path))
            action.setEnabled(path.is_file())
            action.triggered.connect(lambda _c=False, p=path: self.open_recent(p))
        self.recent_menu.addSeparator()
        clear = self.recent_menu.addAction("Clear Recent Campaigns")
        clear.triggered.connect(self._clear_recent)

    def open_recent(self, path: Path) -> bool:
        if not self.maybe_save():
            return False
        return self.open_path(path)

    def _clear_recent(self) -> None:
        self.context.settings.recent_files = []
        self.context.save_settings()

    def save(self) -> bool:
        document = self.document
        if document is None:
            return False
        if document.path is None:
            return self.save_as()
        return self.save_to(document.path, expected_hash=document.file_hash,
                            overwrite_read_only=document.path in self._read_only_allowed)

    def save_as(self) -> bool:
        document = self.document
        if document is None:
            return False
        start = str(document.path) if document.path else str(
            Path.home() / f"{document.campaign.name}.mneme")
        name, _ = QFileDialog.getSaveFileName(self, "Save campaign as", start, FILE_FILTER)
        if not name:
            return False
        path = Path(name)
        if path.suffix.lower() != ".mneme":
            path = path.with_name(path.name + ".mneme")
        return self.save_to(path, expected_hash=None)

    def _flush_views(self) -> None:
        """Commit edits a view holds back (notes typed a moment ago) before writing."""
        if self.sheet_view is not None:
            self.sheet_view.flush_pending_edits()

    def save_to(self, path: Path, *, expected_hash: str | None,
                overwrite_read_only: bool = False) -> bool:
        from mneme_desktop.storage import (
            CampaignLock,
            CampaignSaveError,
            FileChangedError,
            LockedError,
            ReadOnlyFileError,
            save_campaign,
        )

        document = self.document
        if document is None:
            return False
        self._flush_views()
        try:
            new_hash = save_campaign(document.campaign, path,
                                     backups=self.context.settings.backup_count,
                                     expected_hash=expected_hash,
                                     overwrite_read_only=overwrite_read_only)
        except FileChangedError as exc:
            answer = self.ask("File changed on disk", f"{exc}\n\nOverwrite it anyway?",
                              QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                              QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Save:
                return False
            return self.save_to(path, expected_hash=None,
                                overwrite_read_only=overwrite_read_only)
        except ReadOnlyFileError:
            answer = self.ask("File is read-only",
                              f"“{path.name}” is read-only. Save anyway?\n\n"
                              "Yes overwrites the read-only file; Save saves a copy under "
                              "another name; Cancel does not save.",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Save
                              | QMessageBox.StandardButton.Cancel,
                              QMessageBox.StandardButton.Cancel)
            if answer == QMessageBox.StandardButton.Save:
                return self.save_as()
            if answer != QMessageBox.StandardButton.Yes:
                return False
            self._read_only_allowed.add(path)  # asked once per file and session
            return self.save_to(path, expected_hash=expected_hash, overwrite_read_only=True)
        except CampaignSaveError as exc:
            self.tell("Could not save", str(exc))
            return False
        old_path = document.path
        untitled = old_path is None
        if untitled:
            self.autosaves.discard(untitled_id=document.campaign.id)
        else:
            self.autosaves.discard(source=old_path)
        self.autosaves.discard(source=path)
        if old_path is None or old_path.resolve() != path.resolve():
            self._release_lock()
            self._lock = CampaignLock(path, self.context.paths.lock_dir)
            try:
                self._lock.acquire(force=True)
            except (LockedError, OSError) as exc:
                log.warning("Could not lock %s: %s", path, exc)
        document.mark_saved(path, new_hash)
        self.context.settings.add_recent(path)
        self.context.save_settings()
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def autosave_now(self) -> bool:
        """Write unsaved work to the autosave folder (never over the campaign file)."""
        from mneme_desktop.storage import CampaignSaveError

        self._flush_views()
        document = self.document
        if document is None or not document.modified:
            return False
        try:
            if document.path is not None:
                self.autosaves.write(document.campaign, source=document.path,
                                     base_hash=document.file_hash)
            else:
                self.autosaves.write(document.campaign, untitled_id=document.campaign.id)
        except CampaignSaveError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 10_000)
            log.warning("Autosave failed: %s", exc)
            return False
        self.statusBar().showMessage("Autosaved", 3000)
        return True

    def maybe_save(self) -> bool:
        """Ask before unsaved changes would be lost; False means the referee cancelled."""
        self._flush_views()
        document = self.document
        if document is None or not document.modified:
            return True
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        answer = self.ask("Unsaved changes",
                          f"“{document.campaign.name}” has unsaved changes.\n\n"
                          "Save them before closing?", buttons, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            self._discard_autosave()
            return True
        return False

    def _discard_autosave(self) -> None:
        document = self.document
        if document is None:
            return
        if document.path is not None:
            self.autosaves.discard(source=document.path)
        else:
            self.autosaves.discard(untitled_id=document.campaign.id)

    def discard_and_close(self) -> None:
        """Close without asking (smoke test): unsaved work stays in the autosave."""
        self.autosave_now()
        if self.document is not None:
            self.document.undo_stack.setClean()
            self.document._unsaved_without_undo = False
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self._remember_layout()
        self.context.save_settings()
        self._release_lock()
        self.autosave_timer.stop()
        event.accept()

    # --- characters in and out --------------------------------------------------------------

    def import_character_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Import character", "", CHARACTER_FILTER)
        if name:
            self.import_character_file(Path(name))

    def import_character_file(self, path: Path) -> Character | None:
        from mneme_desktop.domain import new_id
        from mneme_desktop.storage import CharacterImportError, import_character
        from mneme_desktop.ui import commands

        if self.document is None:
            return None
        try:
            character = import_character(path)
        except CharacterImportError as exc:
            self.tell("Cannot import character", str(exc))
            return None
        if self.document.campaign.find_character(character.id) is not None:
            character.id = new_id()
        commands.add_character(self.document, character)
        self.select_entity(character.id)
        self.statusBar().showMessage(f"Imported {character.name}", 5000)
        return character

    def _selected_character(self) -> Character | None:
        node = self.selected_node()
        document = self.document
        if node is None or node.entity_id is None or document is None:
            return None
        if node.group in (Group.PLAYERS, Group.NPCS):
            return document.campaign.find_character(node.entity_id)
        if node.group is Group.LIBRARY:
            template = document.campaign.find_template(node.entity_id)
            return template.stats if template is not None else None
        return None

    def export_character_dialog(self) -> None:
        from mneme_desktop.storage import CampaignSaveError, export_character

        character = self._selected_character()
        if character is None:
            self.tell("Export character", "Select a character or template first.", error=False)
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export character",
                                              f"{character.name}.json", CHARACTER_FILTER)
        if not name:
            return
        try:
            export_character(character, Path(name))
        except (CampaignSaveError, OSError) as exc:
            self.tell("Could not export character", str(exc))
            return
        self.statusBar().showMessage(f"Exported {character.name} to {name}", 5000)

    def export_target(self, scope: str = "selection") -> ExportTarget:
        """What Print and Export act on: the selected character or encounter, or all PCs."""
        from mneme_desktop.export.document import ExportTarget

        node = self.selected_node()
        if scope == "selection" and node is not None and node.entity_id is not None:
            if node.group is Group.ENCOUNTERS:
                return ExportTarget.referee_pack(node.entity_id)
            character = self._selected_character()
            if character is not None:
                return ExportTarget.character(character.id)
        return ExportTarget.player_characters()

    def export_dialog(self, scope: str = "selection") -> None:
        if self.document is None:
            return
        from mneme_desktop.ui.dialogs.export_dialog import export_with_dialog

        export_with_dialog(self, self.document, self.context.settings, self.export_target(scope))

    def print_dialog(self, scope: str = "selection") -> None:
        if self.document is None:
            return
        from mneme_desktop.ui.dialogs.export_dialog import print_with_preview

        print_with_preview(self, self.document, self.context.settings, self.export_target(scope))

    # --- campaign editing ------------------------------------------------------------------

    @staticmethod
    def _blank_character(name: str, kind: CharacterKind) -> Character:
        from mneme_desktop.domain import Character, Characteristics

        return Character(name=name, kind=kind, characteristics=Characteristics.model_validate(
            {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7}))

    def _unique_name(self, base: str, taken: set[str]) -> str:
        if base not in taken:
            return base
        number = 2
        while f"{base} {number}" in taken:
            number += 1
        return f"{base} {number}"

    def add_character(self, kind: CharacterKind | str) -> Character | None:
        from mneme_desktop.domain import CharacterKind
        from mneme_desktop.ui import commands

        if self.document is None:
            return None
        kind = CharacterKind(kind)
        taken = {c.name for c in self.document.campaign.characters}
        base = "New Character" if kind is CharacterKind.PLAYER else "New NPC"
        character = self._blank_character(self._unique_name(base, taken), kind)
        commands.add_character(self.document, character)
        self.select_entity(character.id)
        return character

    def add_template(self) -> AdversaryTemplate | None:
        from mneme_desktop.domain import AdversaryTemplate, CharacterKind
        from mneme_desktop.ui import commands

        if self.document is None:
            return None
        taken = {t.name for t in self.document.campaign.adversary_library}
        stats = self._blank_character(self._unique_name("New Adversary", taken),
                                      CharacterKind.ADVERSARY)
        template = AdversaryTemplate(stats=stats)
        commands.add_template(self.document, template)
        self.select_entity(template.id)
        return template

    def add_encounter(self) -> Encounter | None:
        from mneme_desktop.domain import Encounter
        from mneme_desktop.ui import commands

        if self.document is None:
            return None
        taken = {e.name for e in self.document.campaign.encounters}
        encounter = Encounter(name=self._unique_name("New Encounter", taken))
        commands.add_encounter(self.document, encounter)
        self.select_entity(encounter.id)
        return encounter

    def duplicate_selected(self) -> None:
        from mneme_desktop.domain import AdversaryTemplate, Encounter, new_id
        from mneme_desktop.ui import commands

        node = self.selected_node()
        document = self.document
        if node is None or node.entity_id is None or document is None:
            return
        campaign = document.campaign
        if node.group in (Group.PLAYERS, Group.NPCS):
            original = campaign.character(node.entity_id)
            copy = original.model_copy(deep=True, update={"id": new_id()})
            copy.name = self._unique_name(f"{original.name} (copy)",
                                          {c.name for c in campaign.characters})
            index = campaign.characters.index(original) + 1
            commands.add_character(document, copy, index)
            self.select_entity(copy.id)
        elif node.group is Group.LIBRARY:
            template = campaign.template(node.entity_id)
            stats = template.stats.model_copy(deep=True, update={"id": new_id()})
            stats.name = self._unique_name(f"{template.name} (copy)",
                                           {t.name for t in campaign.adversary_library})
            new_template = AdversaryTemplate(stats=stats, tags=list(template.tags))
            commands.add_template(document, new_template,
                                  campaign.adversary_library.index(template) + 1)
            self.select_entity(new_template.id)
        else:
            encounter = campaign.encounter(node.entity_id)
            data = encounter.model_dump()
            data["id"] = new_id()
            data["name"] = self._unique_name(f"{encounter.name} (copy)",
                                             {e.name for e in campaign.encounters})
            for combatant in data["combatants"]:
                combatant["id"] = new_id()
                combatant["aim_target_id"] = None
                if combatant.get("instance"):
                    combatant["instance"]["id"] = new_id()
            copy_encounter = Encounter.model_validate(data)
            commands.add_encounter(document, copy_encounter,
                                   campaign.encounters.index(encounter) + 1)
            self.select_entity(copy_encounter.id)

    def rename_selected(self) -> None:
        index = self.tree.currentIndex()
        node = self.selected_node()
        if node is None or node.is_group or self.navigator_model is None:
            return
        current = self.navigator_model.data(index, Qt.ItemDataRole.EditRole)
        name, ok = QInputDialog.getText(self, "Rename", "New name:", text=str(current))
        if ok and name.strip() and not self.navigator_model.setData(index, name.strip()):
            self.tell("Rename", f"“{name}” is not a valid name.", error=False)

    def delete_selected(self) -> None:
        from mneme_desktop.ui import commands

        node = self.selected_node()
        document = self.document
        if node is None or node.entity_id is None or document is None:
            return
        entity = self.navigator_model.entity(node) if self.navigator_model else None
        name = getattr(entity, "name", "this item")
        answer = self.ask("Delete", f"Delete “{name}”? (Edit ▸ Undo brings it back.)",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            return
        if node.group in (Group.PLAYERS, Group.NPCS):
            commands.remove_character(document, node.entity_id)
        elif node.group is Group.LIBRARY:
            commands.remove_template(document, node.entity_id)
        else:
            commands.remove_encounter(document, node.entity_id)

    def _undo_text_changed(self, text: str) -> None:
        _name_step(self.undo_action, "Undo", text)

    def _redo_text_changed(self, text: str) -> None:
        _name_step(self.redo_action, "Redo", text)

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
        from mneme_desktop.ui import commands

        self.context.settings = dialog.result_settings()
        self.context.save_settings()
        self.apply_settings()
        document = self.document
        basis = dialog.threshold_basis()
        if document is not None and basis != document.threshold_basis:
            old = document.threshold_basis

            def notify(doc: CampaignDocument) -> None:
                doc.rules_changed.emit()
                for character in doc.campaign.characters:
                    doc.character_changed.emit(character.id)

            document.push(commands.CampaignChangeCommand(
                document, f"Wound thresholds: {basis.value}",
                lambda c: setattr(c.rules_options, "threshold_basis", basis),
                lambda c: setattr(c.rules_options, "threshold_basis", old), notify))

    def about(self) -> None:
        box = message_box(QMessageBox.Icon.NoIcon, f"About {APP_NAME}",
                          f"<h3>{APP_NAME} {__version__}</h3>"
                          "<p>An offline character-and-encounter manager for Mneme CE referees."
                          "</p><p>Rules from the Mneme CE chapters; where they disagree the "
                          "choice is shown in Settings and in the tooltips.</p>",
                          QMessageBox.StandardButton.Ok, self, rich=True)
        box.setIconPixmap(self.windowIcon().pixmap(64))
        box.exec()

    # --- screenshots ------------------------------------------------------------------------

    def save_screenshot(self, path: Path, view: str) -> int:
        """Render the window offscreen with ``view`` showing; 0 on success."""
        document = self.document
        if document is None:
            return 1
        self.resize(1280, 820)
        self.show()
        if view == "encounter":
            self.show_page(Page.ENCOUNTER)
        elif view == "healing":
            injured = [c.id for c in document.campaign.characters if c.damage > 0]
            self.show_page(Page.HEALING)
            if injured:
                self._healing().set_characters(injured)
        else:
            self.show_page(Page.SHEET)
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

