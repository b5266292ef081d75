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

from mneme_desktop.ui.i18n import tr

_CTX = "MainActions"


def name_step(action: QAction, verb: str, step: str) -> None:
    """The menu says which step ("Undo Rename Mara to Ilse"); the toolbar keeps the short
    word so it fits a 1280-pixel screen, with the whole text in its tooltip. ``verb`` is
    the untranslated "Undo" or "Redo"; ``step`` the step's text, already translated."""
    verb = tr(_CTX, verb)
    full = tr(_CTX, "{0} {1}").format(verb, step).strip() if step else verb
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
        self.new_action = make(tr(_CTX, "&New Campaign"), seq.New, sp.SP_FileIcon,
                               tr(_CTX, "Start an empty campaign"))
        self.open_action = make(tr(_CTX, "&Open…"), seq.Open, sp.SP_DialogOpenButton,
                                tr(_CTX, "Open a campaign file"))
        self.save_action = make(tr(_CTX, "&Save"), seq.Save, sp.SP_DialogSaveButton, tr(_CTX,
                "Save the campaign"))
        self.save_as_action = make(tr(_CTX, "Save &As…"), seq.SaveAs,
                                   tip=tr(_CTX, "Save the campaign under a new name"))
        self.import_action = make(tr(_CTX, "&Import Character…"), "Ctrl+I",
                                  tip=tr(_CTX, "Add a character from a JSON file (Mneme Desktop "
                                               "or CE CharacterGen)"))
        self.export_character_action = make(
            tr(_CTX, "Export &Character…"),
            tip=tr(_CTX, "Save the selected character as a JSON file for another campaign"))
        self.export_action = make(
            tr(_CTX, "&Export…"), "Ctrl+E", sp.SP_DriveFDIcon,
            tr(_CTX, "Export the selected character's sheet or the selected encounter's referee "
                     "pack as PDF, HTML or JSON"))
        self.print_action = make(
            tr(_CTX, "&Print…"), seq.Print, tip=tr(_CTX,
                    "Print the selected character's sheet or the "
                                               "selected encounter's referee pack, with a preview"))
        self.print_all_action = make(tr(_CTX, "Print All Player &Characters…"),
                                     tip=tr(_CTX, "Print every player character's sheet, with a "
                                                  "preview"))
        self.export_all_action = make(
            tr(_CTX, "Export All Player C&haracters…"),
            tip=tr(_CTX, "Export every player character's sheet as one PDF, HTML or JSON file"))
        self.quit_action = make(tr(_CTX, "&Quit"), seq.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        self.undo_action = make(tr(_CTX, "&Undo"), seq.Undo, sp.SP_ArrowBack)
        self.redo_action = make(tr(_CTX, "&Redo"), "Ctrl+Shift+Z", sp.SP_ArrowForward)
        name_step(self.undo_action, tr(_CTX, "Undo"), "")
        name_step(self.redo_action, tr(_CTX, "Redo"), "")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for step in (self.undo_action, self.redo_action):  # nothing to undo before a campaign
            step.setEnabled(False)
        self.settings_action = make(tr(_CTX, "&Settings…"), seq.Preferences,
                                    tip=tr(_CTX, "Theme, autosave, backups, printing, rules"))
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)

        self.add_pc_action = make(tr(_CTX, "Add &Player Character"), "Ctrl+Shift+P",
                                  tip=tr(_CTX, "Add a new player character"))
        self.add_npc_action = make(tr(_CTX, "Add &NPC"), "Ctrl+Shift+N",
                                   tip=tr(_CTX, "Add a new non-player character"))
        self.add_template_action = make(tr(_CTX, "Add Adversary &Template"), "Ctrl+Shift+T",
                                        tip=tr(_CTX, "Add an adversary template"))
        self.add_encounter_action = make(tr(_CTX, "Add &Encounter"), "Ctrl+Shift+E",
                                         tip=tr(_CTX, "Add an encounter"))
        self.add_thing_action = make(
            tr(_CTX, "Add &Vehicle or Object"), "Ctrl+Shift+O",
            tip=tr(_CTX, "Add a vehicle, craft, structure or cover object to the campaign"))
        self.add_thing_template_action = make(
            tr(_CTX, "Add Object Te&mplate"), "Ctrl+Shift+M",
            tip=tr(_CTX, "Add a template to the object library (encounters and the campaign "
                         "make numbered copies)"))
        self.import_npc_lines_action = make(
            tr(_CTX, "Import NPC &Lines…"), "Ctrl+Shift+L",
            tip=tr(_CTX, "Add NPCs or adversary templates from one-line NPCs (name, UPP, age, "
                         "careers, credits, skills), pasted or typed"))
        self.copy_npc_lines_action = make(
            tr(_CTX, "Cop&y as NPC Lines"),
            tip=tr(_CTX, "Copy the selected character or template, or every one of the "
                         "selected group, as one-line NPCs"))
        self.quick_npc_action = make(
            tr(_CTX, "&Quick NPC…"), "Ctrl+Shift+G",
            tip=tr(_CTX, "Roll NPCs: UPP 2d6 each, skills from a package, a name from a list"))
        self.recap_action = make(
            tr(_CTX, "Session &Recap…"), "Ctrl+Shift+R",
            tip=tr(_CTX, "What happened over some in-game days, from the encounter logs and "
                         "the journal: save as Markdown or HTML, or print"))
        self.duplicate_action = make(tr(_CTX, "&Duplicate"), "Ctrl+D", tip=tr(_CTX,
                "Copy the selected item"))
        self.rename_action = make(tr(_CTX, "&Rename"), "F2", tip=tr(_CTX,
                "Rename the selected item"))
        self.delete_action = make(tr(_CTX, "De&lete"), seq.Delete, sp.SP_TrashIcon,
                                  tr(_CTX, "Delete the selected item"))
        # Only while the navigator has focus: in a text field, Delete edits the text.
        for action in (self.duplicate_action, self.delete_action, self.rename_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

        self.sheet_page_action = make(tr(_CTX, "Character &Sheet"), "Ctrl+1",
                                      tip=tr(_CTX, "Show the selected character's sheet"))
        self.encounter_page_action = make(tr(_CTX, "&Encounter"), "Ctrl+2",
                                          tip=tr(_CTX, "Show the selected encounter"))
        self.healing_page_action = make(tr(_CTX,
                "&Healing Planner"), "Ctrl+3", sp.SP_DialogApplyButton,
                                        tr(_CTX, "Plan recovery over days and run the infirmary"))
        self.player_display_action = make(
            tr(_CTX, "&Player Display…"), "Ctrl+Shift+D",
            tip=tr(_CTX, "Show the fight to the players on a second screen (what they may "
                         "see only)"))
        self.check_action = make(tr(_CTX, "Make a Chec&k…"), "Ctrl+K", sp.SP_MediaPlay,
                                 tr(_CTX, "Roll a check for anyone, or any dice, and log it"))
        self.check_action.setIconText(tr(_CTX, "Check"))
        self.catalogue_action = make(
            tr(_CTX, "Catal&ogue…"),
            tip=tr(_CTX, "The skills, weapons and armor sheets pick from; add the campaign's own"))
        self.about_action = make(tr(_CTX, "&About Mneme Desktop"))
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
                self.add_encounter_action, self.add_thing_action,
                self.add_thing_template_action, self.duplicate_action, self.rename_action,
                self.delete_action, self.import_npc_lines_action, self.copy_npc_lines_action,
                self.quick_npc_action]

    def build_menus(self, navigator_dock: QDockWidget, history_dock: QDockWidget) -> QMenu:
        """The window's menu bar; returns the Open Recent menu, which the window fills."""
        bar = self._window.menuBar()
        file_menu = bar.addMenu(tr(_CTX, "&File"))
        file_menu.addActions([self.new_action, self.open_action])
        recent_menu = file_menu.addMenu(tr(_CTX, "Open &Recent"))
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

        edit_menu = bar.addMenu(tr(_CTX, "&Edit"))
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addSeparator()
        edit_menu.addAction(self.settings_action)

        campaign_menu = bar.addMenu(tr(_CTX, "&Campaign"))
        campaign_menu.addActions([self.add_pc_action, self.add_npc_action,
                                  self.add_template_action, self.add_encounter_action,
                                  self.add_thing_action, self.add_thing_template_action])
        campaign_menu.addSeparator()
        campaign_menu.addActions([self.duplicate_action, self.rename_action, self.delete_action])
        campaign_menu.addSeparator()
        campaign_menu.addActions([self.quick_npc_action, self.import_npc_lines_action,
                                  self.copy_npc_lines_action])
        campaign_menu.addSeparator()
        campaign_menu.addAction(self.recap_action)
        campaign_menu.addSeparator()
        campaign_menu.addAction(self.check_action)
        campaign_menu.addAction(self.catalogue_action)

        view_menu = bar.addMenu(tr(_CTX, "&View"))
        view_menu.addActions([self.sheet_page_action, self.encounter_page_action,
                              self.healing_page_action])
        view_menu.addSeparator()
        view_menu.addAction(self.player_display_action)
        view_menu.addSeparator()
        view_menu.addAction(navigator_dock.toggleViewAction())
        history = history_dock.toggleViewAction()
        history.setText(tr(_CTX, "Undo &History"))
        history.setShortcut(QKeySequence("Ctrl+H"))
        view_menu.addAction(history)

        help_menu = bar.addMenu(tr(_CTX, "&Help"))
        help_menu.addAction(self.about_action)
        return recent_menu

    def build_toolbars(self) -> tuple[QToolBar, QToolBar]:
        """The main toolbar and the (empty) campaign-time toolbar, added to the window."""
        toolbar = QToolBar(tr(_CTX, "Main toolbar"))
        toolbar.setObjectName("main_toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addActions([self.new_action, self.open_action, self.save_action])
        toolbar.addSeparator()
        toolbar.addActions([self.undo_action, self.redo_action])
        toolbar.addSeparator()
        toolbar.addActions([self.print_action, self.export_action, self.healing_page_action,
                            self.check_action])
        self._window.addToolBar(toolbar)
        time_toolbar = QToolBar(tr(_CTX, "Campaign time"))
        time_toolbar.setObjectName("time_toolbar")
        self._window.addToolBar(time_toolbar)
        return toolbar, time_toolbar


def fill_recent_menu(menu: QMenu, recent: list[Path], open_recent: Callable[[Path], object],
                     clear: Callable[[], object]) -> None:
    """Open Recent, filled as it opens: a file that is gone is listed but disabled."""
    menu.clear()
    if not recent:
        empty = menu.addAction(tr(_CTX, "No recent campaigns"))
        empty.setEnabled(False)
        return
    for number, path in enumerate(recent, start=1):
        action = menu.addAction(f"&{number % 10} {path.name}")
        action.setToolTip(str(path))
        action.setStatusTip(str(path))
        action.setEnabled(path.is_file())
        action.triggered.connect(lambda _c=False, p=path: open_recent(p))
    menu.addSeparator()
    clear_action = menu.addAction(tr(_CTX, "Clear Recent Campaigns"))
    clear_action.triggered.connect(lambda _c=False: clear())
