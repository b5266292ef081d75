"""The campaign navigator: the groups and their items, and the referee's chosen item kept
chosen when the tree is rebuilt (an item added, deleted or undone).

Qt only at import: the window builds the tree before its first paint; the model comes with
the campaign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QTreeView, QWidget

from mneme_desktop.ui.models.navigator_nodes import Group, Node

if TYPE_CHECKING:
    from mneme_desktop.ui.models.navigator_model import NavigatorModel

from mneme_desktop.ui.i18n import tr

_CTX = "NavigatorTree"


class NavigatorTree(QTreeView):
    """The navigator's view; one model per open document."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigator")
        self.setHeaderHidden(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.SelectedClicked)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.setAccessibleName(tr(_CTX, "Campaign navigator"))
        self.setMinimumWidth(160)
        self.navigator_model: NavigatorModel | None = None
        self._selected_before_reset: str | None = None

    def set_navigator_model(self, model: NavigatorModel) -> None:
        """Show ``model`` in place of the old document's (which is deleted)."""
        self.navigator_model = model
        old_model = self.model()
        self.setModel(model)
        if old_model is not None:
            old_model.deleteLater()

    def follow_resets(self) -> None:
        """Expanded and on the same item after every rebuild of the model."""
        model = self.navigator_model
        assert model is not None
        self.expandAll()
        model.modelReset.connect(self.expandAll)
        model.modelAboutToBeReset.connect(self._remember_selection)
        model.modelReset.connect(self._restore_selection)

    def selected_node(self) -> Node | None:
        if self.navigator_model is None:
            return None
        return self.navigator_model.node(self.currentIndex())

    def select_entity(self, entity_id: str) -> bool:
        if self.navigator_model is None:
            return False
        index = self.navigator_model.find(entity_id)
        if not index.isValid():
            return False
        self.setCurrentIndex(index)
        return True

    def first_entity_index(self) -> QModelIndex:
        """The first item of the first group that has one (invalid if all are empty)."""
        model = self.navigator_model
        if model is None:
            return QModelIndex()
        for group in Group:
            group_index = model.group_index(group)
            if model.rowCount(group_index):
                return model.index(0, 0, group_index)
        return QModelIndex()

    def _remember_selection(self) -> None:
        node = self.selected_node()
        self._selected_before_reset = node.entity_id if node is not None else None

    def _restore_selection(self) -> None:
        """The navigator was rebuilt (an item added or removed): keep the same item chosen."""
        entity_id, self._selected_before_reset = self._selected_before_reset, None
        if entity_id is not None and self.navigator_model is not None:
            index = self.navigator_model.find(entity_id)
            if index.isValid():
                self.setCurrentIndex(index)
                self.scrollTo(index)
