"""The sheet's gear tables: skills, weapons, armor, cover and conditions, each with its
buttons to add and remove rows.

A table is as tall as its rows (and one spare), so the sheet scrolls, not each table. Each
view has a delegate of its own: a delegate's ``commitData`` goes to every view that uses it.
What a model or a delegate refuses is said on the sheet's message line.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QSortFilterProxyModel, Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
)

from mneme_desktop.domain import Armor, ConditionKind, Weapon
from mneme_desktop.domain.catalogue import CatalogueKind
from mneme_desktop.rules.checks import UNSKILLED
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.sheet_models import (
    CharacterItemsModel,
    ConditionsTableModel,
    format_modifier,
)
from mneme_desktop.ui.views.sheet_parts import SPACING, SheetEditor
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate

_CTX = "SheetTables"

__all__ = ["CataloguePicker", "ConditionsGroup", "ItemTableGroup", "skills_group"]

_MAX_TABLE_ROWS = 12


def _sheet_table(object_name: str) -> QTableView:
    view = QTableView()
    view.setObjectName(object_name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setEditTriggers(
        QAbstractItemView.EditTrigger.DoubleClicked
        | QAbstractItemView.EditTrigger.EditKeyPressed
        | QAbstractItemView.EditTrigger.AnyKeyPressed
        | QAbstractItemView.EditTrigger.SelectedClicked
    )
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return view


def _fit_table_height(view: QTableView) -> None:
    """Tall enough for every row and one spare, so the sheet scrolls, not each table."""
    rows = min(view.model().rowCount() + 1, _MAX_TABLE_ROWS)
    height = (view.horizontalHeader().sizeHint().height()
              + max(rows, 2) * view.verticalHeader().defaultSectionSize()
              + 2 * view.frameWidth())
    view.setFixedHeight(height)


def _keep_fitted(view: QTableView) -> None:
    model = view.model()
    for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset):
        signal.connect(lambda *_args, v=view: _fit_table_height(v))
    _fit_table_height(view)


def _size_columns(view: QTableView, stretch: tuple[int, ...]) -> None:
    header = view.horizontalHeader()
    header.setHighlightSections(False)
    model = view.model()
    for column in range(model.columnCount()):
        mode = (QHeaderView.ResizeMode.Stretch if column in stretch
                else QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(column, mode)


def _install_delegate(view: QTableView) -> SheetItemDelegate:
    # One delegate per view: a delegate's commitData goes to every view that uses it.
    delegate = SheetItemDelegate(view)
    delegate.setObjectName(f"{view.objectName()}Delegate")
    view.setItemDelegate(delegate)
    return delegate


def _enable_with_selection(view: QTableView, button: QPushButton) -> None:
    """A Remove button is enabled while the table has a row selected."""
    view.selectionModel().selectionChanged.connect(
        lambda *_args, v=view, b=button: b.setEnabled(v.selectionModel().hasSelection())
    )
    view.model().modelReset.connect(
        lambda v=view, b=button: b.setEnabled(v.selectionModel().hasSelection())
    )


def _remove_rows(model: CharacterItemsModel, view: QTableView,
                 proxy: QSortFilterProxyModel | None = None) -> None:
    indexes = view.selectionModel().selectedRows()
    if proxy is not None:
        indexes = [proxy.mapToSource(index) for index in indexes]
    model.remove_rows(index.row() for index in indexes)


class ItemTableGroup(QGroupBox):
    """A table of the character's items with Add and Remove buttons under it; sorted when
    given a ``proxy`` (the skills)."""

    def __init__(self, editor: SheetEditor, title: str, object_name: str,
                 model: CharacterItemsModel, noun: str, stretch: tuple[int, ...],
                 proxy: QSortFilterProxyModel | None = None) -> None:
        super().__init__(title)
        self._editor = editor
        self.editor = editor
        self.model = model
        self.proxy = proxy
        self.view = _sheet_table(f"{object_name}View")
        if proxy is None:
            self.view.setModel(model)
        else:
            self.view.setModel(proxy)
            self.view.setSortingEnabled(True)
            self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        _size_columns(self.view, stretch)
        self.setObjectName(f"{object_name}Group")
        layout = QVBoxLayout(self)
        layout.setSpacing(SPACING // 2)
        layout.addWidget(self.view)
        self.buttons = QHBoxLayout()
        self.add_button = QPushButton(tr(_CTX, "Add {0}").format(tr("SheetModels", noun)))
        self.add_button.setObjectName(f"add{noun.title().replace(' ', '')}Button")
        self.remove_button = QPushButton(tr(_CTX, "Remove {0}").format(tr("SheetModels", noun)))
        self.remove_button.setObjectName(f"remove{noun.title().replace(' ', '')}Button")
        self.remove_button.setEnabled(False)
        self.buttons.addWidget(self.add_button)
        self.buttons.addWidget(self.remove_button)
        self.buttons.addStretch(1)
        layout.addLayout(self.buttons)
        layout.addStretch(1)
        self.delegate = _install_delegate(self.view)
        _keep_fitted(self.view)

    def connect_edits(self) -> None:
        """Wire the model's and delegate's refusals, and the buttons."""
        self.model.edit_rejected.connect(self._editor.show_message)
        self.delegate.edit_refused.connect(self._editor.show_message)
        self.delegate.problem_changed.connect(self._editor.show_dice_problem)
        self.add_button.clicked.connect(self._add_row)
        self.remove_button.clicked.connect(
            lambda: _remove_rows(self.model, self.view, self.proxy)
        )
        _enable_with_selection(self.view, self.remove_button)

    def _add_row(self) -> None:
        """A new row, selected and open for typing its name."""
        row = self.model.add_item()
        if row is None:
            return
        index = self.model.index(row, 0)
        if self.proxy is not None:
            index = self.proxy.mapFromSource(index)
        view = self.view
        view.setFocus()
        view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        view.scrollTo(index)
        view.edit(index)


def _entry_summary(entry: Weapon | Armor) -> str:
    if isinstance(entry, Weapon):
        parts = [entry.damage, tr(_CTX, "RoA {0}").format(entry.rate_of_attack),
                 entry.range_class.label]
        if entry.thrown is not None:
            parts.append(tr(_CTX, "thrown {0}").format(format(entry.thrown.normalize(), "f")))
        if entry.skill:
            parts.append(entry.skill)
        return ", ".join(parts)
    return tr(_CTX, "{0}AR {1}").format(entry.scale.prefix, entry.rating)


class _ListOnDemand(QComboBox):
    """A combo box that asks for its items when they can first be seen or typed into:
    focused (typing, the keyboard) or its list opened."""

    def __init__(self, fill: Callable[[], None]) -> None:
        super().__init__()
        self._fill = fill

    def focusInEvent(self, event: QFocusEvent) -> None:
        self._fill()
        super().focusInEvent(event)

    def showPopup(self) -> None:
        self._fill()
        super().showPopup()


class CataloguePicker:
    """"Add from catalogue": a weapon or armor chosen by name (typing any part of it finds
    it) and added with every column filled, as one undo step.

    The list is filled when the box is first focused or opened, not with the sheet: the
    built-in catalogue's ~60 entries and their summaries were ~5 ms of every start."""

    def __init__(self, group: ItemTableGroup, kind: CatalogueKind) -> None:
        self._group = group
        self.kind = kind
        self.filled = False
        noun = "Weapon" if kind is CatalogueKind.WEAPONS else "Armor"
        self.combo = _ListOnDemand(self.fill)
        self.combo.setObjectName(f"catalogue{noun}Combo")
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setMinimumContentsLength(14)
        # As wide as 14 characters whether or not the list is filled yet (the list itself
        # opens as wide as its longest name).
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setToolTip(tr(_CTX, "Type any part of a name, or open the list"))
        line = self.combo.lineEdit()
        assert line is not None  # an editable combo box has one
        self.line_edit = line
        line.setPlaceholderText(tr(_CTX, "from the catalogue"))
        completer = QCompleter(self.combo.model(), self.combo)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.combo.setCompleter(completer)
        self.button = QPushButton(tr(_CTX, "Add from catalogue"))
        self.button.setObjectName(f"addCatalogue{noun}Button")
        group.buttons.insertWidget(2, self.combo)
        group.buttons.insertWidget(3, self.button)

    def connect_edits(self) -> None:
        self.button.clicked.connect(self.add_chosen)
        self.line_edit.returnPressed.connect(self.add_chosen)

    def fill(self) -> None:
        """Fill the list, the first time it is needed."""
        if not self.filled:
            self.reload()

    def reload(self) -> None:
        """Show the catalogue's entries again (the campaign's own entries changed)."""
        self.filled = True
        text = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for entry in self._group.model.catalogue().entries(self.kind):
            assert isinstance(entry, Weapon | Armor)
            self.combo.addItem(entry.name)
            self.combo.setItemData(self.combo.count() - 1, _entry_summary(entry),
                                   Qt.ItemDataRole.ToolTipRole)
        self.combo.setCurrentIndex(-1)
        self.combo.setEditText(text)
        self.combo.blockSignals(False)

    def add_chosen(self) -> int | None:
        """Add a copy of the entry named in the box; its row, or None (and why, said)."""
        name = self.combo.currentText().strip()
        catalogue = self._group.model.catalogue()
        entry = (catalogue.weapon(name) if self.kind is CatalogueKind.WEAPONS
                 else catalogue.armor_named(name)) if name else None
        if entry is None:
            # Whole sentences per kind ("Choose a armor" came of putting the noun in one).
            weapons = self.kind is CatalogueKind.WEAPONS
            if not name:
                message = (tr(_CTX, "Choose a weapon from the catalogue first.") if weapons
                           else tr(_CTX, "Choose armor from the catalogue first."))
            elif weapons:
                message = tr(_CTX, "No weapon called “{0}” in the catalogue: pick one from the "
                                   "list, or add it under Campaign > Catalogue….").format(name)
            else:
                message = tr(_CTX, "No armor called “{0}” in the catalogue: pick one from the "
                                   "list, or add it under Campaign > Catalogue….").format(name)
            self._group.editor.show_message(message)
            return None
        row = self._group.model.add_item(entry.model_copy(deep=True))
        if row is not None:
            self.combo.setEditText("")
            self._group.editor.clear_message()
        return row


def skills_group(editor: SheetEditor, model: CharacterItemsModel,
                 proxy: QSortFilterProxyModel) -> tuple[ItemTableGroup, QLabel]:
    """The skills table, sorted by name, with the unskilled DM beside its buttons."""
    group = ItemTableGroup(editor, tr(_CTX, "Skills"), "skills", model, "skill", (0, 1), proxy)
    unskilled = QLabel(tr(_CTX, "Unskilled: {0}").format(format_modifier(UNSKILLED)))
    unskilled.setObjectName("unskilledLabel")
    unskilled.setToolTip(
        tr(_CTX, "A check with a skill the character does not have takes {0}; Skill-0 is a skill "
                 "and rolls at +0.").format(UNSKILLED)
    )
    group.buttons.addWidget(unskilled)
    return group, unskilled


class ConditionsGroup(QGroupBox):
    """The character's conditions; a new one is chosen by kind, with a detail."""

    def __init__(self, editor: SheetEditor, model: ConditionsTableModel) -> None:
        super().__init__(tr(_CTX, "Conditions"))
        self._editor = editor
        self.model = model
        self.view = _sheet_table("conditionsView")
        self.view.setModel(model)
        _size_columns(self.view, stretch=(1,))
        self.setObjectName("conditionsGroup")
        layout = QVBoxLayout(self)
        layout.setSpacing(SPACING // 2)
        layout.addWidget(self.view)
        self.delegate = _install_delegate(self.view)
        _keep_fitted(self.view)
        row = QHBoxLayout()
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("conditionKindCombo")
        for kind in ConditionKind:
            self.kind_combo.addItem(kind.label, kind.value)
        self.detail_edit = QLineEdit()
        self.detail_edit.setObjectName("conditionDetailEdit")
        self.detail_edit.setPlaceholderText(tr(_CTX, "detail, e.g. left arm"))
        self.detail_edit.setMaxLength(200)
        self.add_button = QPushButton(tr(_CTX, "Add condition"))
        self.add_button.setObjectName("addConditionButton")
        self.add_button.setToolTip(tr(_CTX, "Starts now on the campaign clock"))
        self.remove_button = QPushButton(tr(_CTX, "Remove condition"))
        self.remove_button.setObjectName("removeConditionButton")
        self.remove_button.setEnabled(False)
        row.addWidget(self.kind_combo)
        row.addWidget(self.detail_edit, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        layout.addLayout(row)

    def connect_edits(self) -> None:
        """Wire the model's and delegate's refusals, and the buttons."""
        self.model.edit_rejected.connect(self._editor.show_message)
        self.delegate.edit_refused.connect(self._editor.show_message)
        self.delegate.problem_changed.connect(self._editor.show_dice_problem)
        self.remove_button.clicked.connect(lambda: _remove_rows(self.model, self.view))
        self.add_button.clicked.connect(self._on_add_condition)
        self.detail_edit.returnPressed.connect(self._on_add_condition)
        _enable_with_selection(self.view, self.remove_button)

    def _on_add_condition(self) -> None:
        kind = ConditionKind(self.kind_combo.currentData())
        if self.model.add_condition(kind, self.detail_edit.text()) is not None:
            self.detail_edit.clear()
