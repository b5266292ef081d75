"""The main window's actions, menus and toolbars, declared in one place.

Each action's words, shortcut, icon and tip are here; what it does is the window's
business, so nothing here is connected to a slot. Qt only: the window builds these before
its first paint.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QStyle, QToolBar


def name_step(action: QAction, verb: str, step: str) -> None:
    """The menu says which step ("Undo Rename Mara to Ilse"); the toolbar keeps the short
    word so it fits a 1280-pixel screen, with the whole text in its tooltip."""
    full = f"{verb} {step}".strip()
    action.setText(f"&{full}")
    action.setIconText(verb)
    action.setToolTip(full)


class MainActions:
    """Every action of the main window, each named as the window exposes it."""

    def __init__(self, window: QMainWindow) -> None:
        self._window = window
        sp = QStyle.StandardPixmap
        seq = QKeySequence.StandardKey
        make = self._make
        self.new_action = make("&New Campaign", seq.New, sp.SP_FileIcon,
                               "Start an empty campaign")
        self.open_action = make("&Open…", seq.Open, sp.SP_DialogOpenButton,
                                "Open a campaign file")
        self.save_action = make("&Save", seq.Save, sp.SP_DialogSaveButton, "Save the campaign")
        self.save_as_action = make("Save &As…", seq.SaveAs,
                                   tip="Save the campaign under a new name")
        self.import_action = make("&Import Character…", "Ctrl+I",
                                  tip="Add a character from a JSON file "
                                  "(Mneme Desktop or CE CharacterGen)")
        self.export_character_action = make(
            "Export &Character…",
            tip="Save the selected character as a JSON file for another campaign")
        self.export_action = make(
            "&Export…", "Ctrl+E", sp.SP_DriveFDIcon,
            "Export the selected character's sheet or the selected encounter's referee pack "
            "as PDF, HTML or JSON")
        self.print_action = make(
            "&Print…", seq.Print, tip="Print the selected character's sheet "
            "or the selected encounter's referee pack, with a preview")
        self.print_all_action = make("Print All Player &Characters…",
                                     tip="Print every player character's sheet, with a preview")
        self.export_all_action = make(
            "Export All Player C&haracters…",
            tip="Export every player character's sheet as one PDF, HTML or JSON file")
        self.quit_action = make("&Quit", seq.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        self.undo_action = make("&Undo", seq.Undo, sp.SP_ArrowBack)
        self.redo_action = make("&Redo", "Ctrl+Shift+Z", sp.SP_ArrowForward)
        name_step(self.undo_action, "Undo", "")
        name_step(self.redo_action, "Redo", "")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.settings_action = make("&Settings…", seq.Preferences,
                                    tip="Theme, autosave, backups, printing, rules")
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)

        self.add_pc_action = make("Add &Player Character", "Ctrl+Shift+P",
                                  tip="Add a new player character")
        self.add_npc_action = make("Add &NPC", "Ctrl+Shift+N",
                                   tip="Add a new non-player character")
        self.add_template_action = make("Add Adversary &Template", "Ctrl+Shift+T",
                                        tip="Add an adversary template")
        self.add_encounter_action = make("Add &Encounter", "Ctrl+Shift+E",
                                         tip="Add an encounter")
        self.duplicate_action = make("&Duplicate", "Ctrl+D", tip="Copy the selected item")
        self.rename_action = make("&Rename", "F2", tip="Rename the selected item")
        self.delete_action = make("De&lete", seq.Delete, sp.SP_TrashIcon,
                                  "Delete the selected item")
        # Only while the navigator has focus: in a text field, Delete edits the text.
        for action in (self.duplicate_action, self.delete_action, self.rename_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

        self.sheet_page_action = make("Character &Sheet", "Ctrl+1",
                                      tip="Show the selected character's sheet")
        self.encounter_page_action = make("&Encounter", "Ctrl+2",
                                          tip="Show the selected encounter")
        self.healing_page_action = make("&Healing Planner", "Ctrl+3", sp.SP_DialogApplyButton,
                                        "Plan recovery over days and run the infirmary")
        self.about_action = make("&About Mneme Desktop")
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _make(self, text: str,
              shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
              icon: QStyle.StandardPixmap | None = None, tip: str = "") -> QAction:
        action = QAction(text, self._window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(self._window.style().standardIcon(icon))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        return action

    def by_name(self) -> dict[str, QAction]:
        """Every action under its attribute name (``undo_action`` …)."""
        return {name: value for name, value in vars(self).items()
                if isinstance(value, QAction)}

    def navigator_actions(self) -> list[QAction]:
        """What the navigator's context menu offers."""
        return [self.add_pc_action, self.add_npc_action, self.add_template_action,
                self.add_encounter_action, self.duplicate_action, self.rename_action,
                self.delete_action]

    def build_menus(self, navigator_dock: QDockWidget, history_dock: QDockWidget) -> QMenu:
        """The window's menu bar; returns the Open Recent menu, which the window fills."""
        bar = self._window.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        recent_menu = file_menu.addMenu("Open &Recent")
        recent_menu.setObjectName("recent_menu")
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
        view_menu.addAction(navigator_dock.toggleViewAction())
        history = history_dock.toggleViewAction()
        history.setText("Undo &History")
        history.setShortcut(QKeySequence("Ctrl+H"))
        view_menu.addAction(history)

        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)
        return recent_menu

    def build_toolbars(self) -> tuple[QToolBar, QToolBar]:
        """The main toolbar and the (empty) campaign-time toolbar, added to the window."""
        toolbar = QToolBar("Main toolbar")
        toolbar.setObjectName("main_toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addActions([self.new_action, self.open_action, self.save_action])
        toolbar.addSeparator()
        toolbar.addActions([self.undo_action, self.redo_action])
        toolbar.addSeparator()
        toolbar.addActions([self.print_action, self.export_action, self.healing_page_action])
        self._window.addToolBar(toolbar)
        time_toolbar = QToolBar("Campaign time")
        time_toolbar.setObjectName("time_toolbar")
        self._window.addToolBar(time_toolbar)
        return toolbar, time_toolbar


def fill_recent_menu(menu: QMenu, recent: list[Path], open_recent: Callable[[Path], object],
                     clear: Callable[[], object]) -> None:
    """Open Recent, filled as it opens: a file that is gone is listed but disabled."""
    menu.clear()
    if not recent:
        empty = menu.addAction("No recent campaigns")
        empty.setEnabled(False)
        return
    for number, path in enumerate(recent, start=1):
        action = menu.addAction(f"&{number % 10} {path.name}")
        action.setToolTip(str(path))
        action.setStatusTip(str(path))
        action.setEnabled(path.is_file())
        action.triggered.connect(lambda _c=False, p=path: open_recent(p))
    menu.addSeparator()
    clear_action = menu.addAction("Clear Recent Campaigns")
    clear_action.triggered.connect(lambda _c=False: clear())
