"""The catalogue editor (Campaign > Catalogue…): the skills, weapons and armor a campaign
picks from, and the campaign's own entries beside the built-in ones.

A modeless window: the sheets' pick lists follow each change at once. Every change is one
undo step of the campaign (Ctrl+Z in the window undoes it); what the domain refuses is said
on the dialog's message line.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.catalogue import CatalogueKind
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.catalogue_model import CatalogueTableModel
from mneme_desktop.ui.models.roles import SORT_ROLE
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "CatalogueDialog"

__all__ = ["CatalogueDialog", "CataloguePage"]

_TITLES = {
    CatalogueKind.SKILLS: tr_noop(_CTX, "Skills"),
    CatalogueKind.WEAPONS: tr_noop(_CTX, "Weapons"),
    CatalogueKind.ARMOR: tr_noop(_CTX, "Armor"),
}


class CataloguePage(QWidget):
    """One list: a filter, the table and its buttons."""

    def __init__(self, document: CampaignDocument, kind: CatalogueKind,
                 message: StatusLine) -> None:
        super().__init__()
        self.kind = kind
        self._message = message
        self.setObjectName(f"catalogue{kind.value.title()}Page")
        self.model = CatalogueTableModel(document, kind, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.proxy.setFilterKeyColumn(0)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        layout = QVBoxLayout(self)
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName(f"catalogue{kind.value.title()}Filter")
        self.filter_edit.setPlaceholderText(tr(_CTX, "Find by name"))
        self.filter_edit.setClearButtonEnabled(True)
        layout.addWidget(self.filter_edit)
        self.view = QTableView()
        self.view.setObjectName(f"catalogue{kind.value.title()}View")
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setVisible(False)
        self.view.setWordWrap(False)
        self.delegate = SheetItemDelegate(self.view)
        self.view.setItemDelegate(self.delegate)
        header = self.view.horizontalHeader()
        for column in range(self.model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # the notes take the spare width (elided), so the origin column stays in view
        header.setSectionResizeMode(self.model.origin_column - 1, QHeaderView.ResizeMode.Stretch)
        self.proxy.sort(0, Qt.SortOrder.AscendingOrder)
        layout.addWidget(self.view, 1)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(tr(_CTX, "&New"))
        self.add_button.setObjectName(f"catalogue{kind.value.title()}AddButton")
        self.add_button.setToolTip(tr(_CTX, "A new entry of the campaign's own"))
        self.copy_button = QPushButton(tr(_CTX, "&Copy to campaign"))
        self.copy_button.setObjectName(f"catalogue{kind.value.title()}CopyButton")
        self.copy_button.setToolTip(tr(_CTX, "Make the campaign's own copy of a built-in entry "
                                             "to change it; it replaces the built-in one"))
        self.remove_button = QPushButton(tr(_CTX, "&Remove"))
        self.remove_button.setObjectName(f"catalogue{kind.value.title()}RemoveButton")
        for button in (self.add_button, self.copy_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        self.add_button.clicked.connect(self.add_entry)
        self.copy_button.clicked.connect(self.copy_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.model.edit_rejected.connect(message.show_message)
        self.delegate.edit_refused.connect(message.show_message)
        self.view.selectionModel().selectionChanged.connect(self._update_buttons)
        self.model.modelReset.connect(self._update_buttons)
        self._update_buttons()

    def _selected_rows(self) -> list[int]:
        return sorted({self.proxy.mapToSource(index).row()
                       for index in self.view.selectionModel().selectedRows()})

    def _update_buttons(self) -> None:
        rows = self._selected_rows()
        self.copy_button.setEnabled(any(not self.model.is_own(r) for r in rows))
        self.remove_button.setEnabled(any(self.model.is_own(r) for r in rows))

    def select_row(self, row: int, *, edit: bool = False) -> None:
        """Select the model's ``row`` (clearing the filter if it hides it)."""
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            self.filter_edit.clear()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.view.setFocus()
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.view.scrollTo(index)
        if edit:
            self.view.edit(index)

    def add_entry(self) -> None:
        row = self.model.add_entry()
        if row is not None:
            self._message.show_message("")
            self.select_row(row, edit=True)

    def copy_selected(self) -> None:
        for row in self._selected_rows():
            if not self.model.is_own(row):
                copied = self.model.copy_to_campaign(row)
                if copied is not None:
                    self._message.show_message("")
                    self.select_row(copied)
                return

    def remove_selected(self) -> None:
        if self.model.remove_entries(self._selected_rows()):
            self._message.show_message("")


class CatalogueDialog(QDialog):
    """Skills, weapons and armor, one tab each; the campaign's own entries editable."""

    def __init__(self, document: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("catalogueDialog")
        self.setWindowTitle(tr(_CTX, "Catalogue"))
        self.resize(900, 560)
        layout = QVBoxLayout(self)
        intro = QLabel(tr(_CTX, "What sheets pick from. Built-in entries come from the Mneme CE "
                                "chapters (hover a row for its source); the campaign's own "
                                "entries travel in its file, and one with a built-in name "
                                "replaces it."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.message = StatusLine("catalogueMessage")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("catalogueTabs")
        self.pages: dict[CatalogueKind, CataloguePage] = {}
        for kind in CatalogueKind:
            page = CataloguePage(document, kind, self.message)
            self.pages[kind] = page
            self.tabs.addTab(page, tr(_CTX, _TITLES[kind]))
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)
        layout.addWidget(close)

    def page(self, kind: CatalogueKind) -> CataloguePage:
        self.tabs.setCurrentWidget(self.pages[kind])
        return self.pages[kind]
