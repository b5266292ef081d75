"""What the window's referee's-library entries do: Import NPC Lines, Copy as NPC Lines,
Quick NPC and Session Recap (Campaign menu; the first three also in the navigator's
context menu). Apart from the window so it stays a shell; imported when first used.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QStatusBar, QWidget

from mneme_desktop.settings import Settings
from mneme_desktop.ui.dialogs.export_dialog import RunDialog
from mneme_desktop.ui.dialogs.npc_lines_dialog import NpcLinesDialog
from mneme_desktop.ui.dialogs.quick_npc_dialog import QuickNpcDialog
from mneme_desktop.ui.dialogs.recap_dialog import RecapDialog
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.library_commands import lines_for_node
from mneme_desktop.ui.models.navigator_nodes import Group, Node

_CTX = "LibraryWindow"

__all__ = ["LibraryHost", "copy_npc_lines", "npc_lines_dialog", "quick_npc_dialog",
           "recap_dialog"]


class LibraryHost(Protocol):
    """The window, as these entries use it."""

    @property
    def document(self) -> CampaignDocument | None: ...

    def selected_node(self) -> Node | None: ...

    def select_entity(self, entity_id: str) -> bool: ...

    def statusBar(self) -> QStatusBar: ...  # Qt's name

    def tell(self, title: str, text: str, *, error: bool = True) -> None: ...


def _library_selected(host: LibraryHost) -> bool:
    """New NPCs go to the Library when the referee is working in it."""
    node = host.selected_node()
    return node is not None and node.group is Group.LIBRARY


def _show_added(host: LibraryHost, ids: list[str], what: str, one: str | None = None) -> None:
    """``what`` says how many were added (``{0}``); ``one``, when given, says it for one."""
    if ids:
        host.select_entity(ids[0])
        text = one if one is not None and len(ids) == 1 else what.format(len(ids))
        host.statusBar().showMessage(text, 5000)


def npc_lines_dialog(host: LibraryHost, parent: QWidget, *,
                     run: RunDialog | None = None) -> NpcLinesDialog | None:
    """Import NPC Lines: paste one-line NPCs; all added in one step, or none."""
    if host.document is None:
        return None
    dialog = NpcLinesDialog(host.document, as_templates=_library_selected(host), parent=parent)
    if (run or NpcLinesDialog.exec)(dialog) == NpcLinesDialog.DialogCode.Accepted:
        _show_added(host, dialog.added_ids, tr(_CTX, "Added {0} from NPC lines"))
    return dialog


def copy_npc_lines(host: LibraryHost) -> str:
    """Copy as NPC Lines: the selection (or its whole group) on the clipboard."""
    if host.document is None:
        return ""
    text, count = lines_for_node(host.document.campaign, host.selected_node())
    if not count:
        host.tell(tr(_CTX, "Copy as NPC Lines"),
                  tr(_CTX, "Select a character, a template or their group first."),
                  error=False)
        return ""
    QGuiApplication.clipboard().setText(text)
    host.statusBar().showMessage(tr(_CTX, "Copied 1 NPC line") if count == 1 else
                                 tr(_CTX, "Copied {0} NPC lines").format(count), 5000)
    return text


def quick_npc_dialog(host: LibraryHost, parent: QWidget, rng: random.Random | None = None, *,
                     run: RunDialog | None = None) -> QuickNpcDialog | None:
    """Quick NPC: roll NPCs and add what was rolled in one step."""
    if host.document is None:
        return None
    dialog = QuickNpcDialog(host.document, rng=rng, as_templates=_library_selected(host),
                            parent=parent)
    if (run or QuickNpcDialog.exec)(dialog) == QuickNpcDialog.DialogCode.Accepted:
        _show_added(host, dialog.added_ids, tr(_CTX, "Added {0} quick NPCs"),
                    tr(_CTX, "Added 1 quick NPC"))
    return dialog


def recap_dialog(host: LibraryHost, parent: QWidget, settings: Settings,
                 last_folder: Path | None, *, run: RunDialog | None = None
                 ) -> RecapDialog | None:
    """Session Recap: the recap of some days, to save, copy or print; its ``last_folder``
    is where it saved last (the window offers it to the next export)."""
    if host.document is None:
        return None
    dialog = RecapDialog(host.document, settings, parent=parent)
    dialog.last_folder = last_folder
    (run or RecapDialog.exec)(dialog)
    return dialog
