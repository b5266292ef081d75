"""Item delegates: the editors a referee types into inside the sheet's tables.

A model says how each cell is edited through :data:`~mneme_desktop.ui.models.roles.EDITOR_ROLE`
(an :class:`EditorSpec`), so one :class:`SheetItemDelegate` serves every table, through a
sort proxy or not. Editors only collect input: the model validates through the domain
and refuses what the domain refuses; the dice editor additionally explains, while typing,
why an expression cannot be read, using the rules core's parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QStandardItem, QStandardItemModel, QValidator
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QLineEdit,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from mneme_desktop.rules.dice import DiceParseError, parse_dice
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import CHOICES_ROLE, EDITOR_ROLE, VALUE_ROLE
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox

_CTX = "Delegates"

__all__ = [
    "DiceLineEdit",
    "DiceValidator",
    "EditorKind",
    "EditorSpec",
    "SheetItemDelegate",
    "choice_completer",
    "dice_problem",
]

_Index = QModelIndex | QPersistentModelIndex


class EditorKind(Enum):
    """Which editor a cell gets."""

    TEXT = "text"
    INTEGER = "integer"
    DICE = "dice"
    CHOICE = "choice"


@dataclass(frozen=True)
class EditorSpec:
    """How a cell is edited: the editor kind and, for numbers, the range the domain allows."""

    kind: EditorKind
    minimum: int = 0
    maximum: int = 0
    max_length: int = 0
    placeholder: str = ""


COMPLETION_VALUE_ROLE = int(Qt.ItemDataRole.UserRole) + 1
"""In a completer's list: the text a choice puts in the field (it shows more)."""


def choice_completer(choices: list[tuple[str, str]], parent: QObject) -> QCompleter:
    """A completer over ``(shown, inserted)`` pairs: typing any part of a name lists the
    matches, case-insensitively; choosing one puts its inserted text in the field."""
    model = QStandardItemModel(parent)
    for shown, inserted in choices:
        item = QStandardItem(shown)
        item.setData(inserted, COMPLETION_VALUE_ROLE)
        item.setEditable(False)
        model.appendRow(item)
    completer = QCompleter(model, parent)
    completer.setObjectName("choiceCompleter")
    completer.setCompletionRole(COMPLETION_VALUE_ROLE)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    completer.setMaxVisibleItems(12)
    return completer


def dice_problem(text: str) -> str:
    """Why ``text`` is not a dice expression, in the parser's words; "" when it is one."""
    try:
        parse_dice(text)
    except DiceParseError as exc:
        return str(exc)
    return ""


class DiceValidator(QValidator):
    """Acceptable only for what :func:`parse_dice` reads.

    Anything else is Intermediate rather than Invalid: "3d" is on its way to "3d6", so
    typing must not be blocked, only committing.
    """

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        if dice_problem(text):
            return QValidator.State.Intermediate, text, pos
        return QValidator.State.Acceptable, text, pos


_INVALID_STYLE = "QLineEdit { border: 2px solid #c62828; background: #fff3f3; }"


class DiceLineEdit(QLineEdit):
    """A line edit for a damage expression that says what is wrong as you type.

    The parser's message goes to the tooltip (shown at the field at once) and out through
    :attr:`problem_changed` for a status line; the frame turns red while it is unreadable.
    """

    problem_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diceLineEdit")
        self.setValidator(DiceValidator(self))
        self.setPlaceholderText(tr(_CTX, "e.g. 3d6, 3d3-2, D 2d6"))
        self._problem = ""
        self.field_label = tr(_CTX, "Damage")
        self.textChanged.connect(self._check)

    @property
    def problem(self) -> str:
        return self._problem

    def _check(self, text: str) -> None:
        problem = dice_problem(text)
        if problem == self._problem:
            return
        self._problem = problem
        self.setStyleSheet(_INVALID_STYLE if problem else "")
        self.setToolTip(problem or tr(_CTX, "Damage dice, e.g. 3d6, 3d3-2 or D 2d6 (Deka scale)"))
        if problem:
            self.show_problem()
        else:
            QToolTip.hideText()
        self.problem_changed.emit(problem)

    def show_problem(self) -> None:
        """Show the current problem in a tooltip just under the field."""
        if self._problem and self.isVisible():
            QToolTip.showText(self.mapToGlobal(self.rect().bottomLeft()), self._problem, self)


class SheetItemDelegate(QStyledItemDelegate):
    """Creates the editor a cell's :class:`EditorSpec` asks for and writes it back.

    ``edit_refused`` carries a message when an edit could not be committed at the editor
    (an unreadable dice expression on Enter, or when the editor closes with one); refusals
    by the model come from the model's own ``edit_rejected`` signal.
    """

    edit_refused = Signal(str)
    problem_changed = Signal(str)

    # --- editors -------------------------------------------------------------------------

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: _Index) -> QWidget:
        spec = index.data(EDITOR_ROLE)
        if not isinstance(spec, EditorSpec):
            return super().createEditor(parent, option, index)
        editor: QWidget
        if spec.kind is EditorKind.INTEGER:
            spin = BoundedSpinBox(_header(index), parent)
            spin.refused.connect(self.edit_refused)
            spin.setRange(spec.minimum, spec.maximum)
            spin.setFrame(False)
            editor = spin
        elif spec.kind is EditorKind.CHOICE:
            combo = QComboBox(parent)
            for label, value in index.data(CHOICES_ROLE) or ():
                combo.addItem(label, value)
            editor = combo
        elif spec.kind is EditorKind.DICE:
            dice = DiceLineEdit(parent)
            dice.field_label = _header(index)
            dice.problem_changed.connect(self.problem_changed)
            editor = dice
        else:
            line = QLineEdit(parent)
            line.setFrame(False)
            if spec.max_length:
                line.setMaxLength(spec.max_length)
            if spec.placeholder:
                line.setPlaceholderText(tr("SheetModels", spec.placeholder))
            choices = index.data(CHOICES_ROLE)
            if choices:  # a pick list: the catalogue's skills, the character's own
                line.setCompleter(choice_completer(list(choices), line))
            editor = line
        editor.setObjectName(f"{spec.kind.value}CellEditor")
        return editor

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: _Index) -> None:
        """Open the editor at least as wide as it needs, over the next cells if it must:
        a combo box squeezed into a narrow column (the weapons' Range) hid its choice.
        It stays inside the table's viewport, shifted left at the right edge."""
        super().updateEditorGeometry(editor, option, index)
        rect = editor.geometry()
        width = max(rect.width(), editor.sizeHint().width())
        if width == rect.width():
            return
        rect.setWidth(width)
        parent = editor.parentWidget()
        if parent is not None and rect.right() > parent.rect().right():
            rect.moveRight(parent.rect().right())
            if rect.left() < 0:
                rect.moveLeft(0)
        editor.setGeometry(rect)

    def setEditorData(self, editor: QWidget, index: _Index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value or 0))
        elif isinstance(editor, QComboBox):
            found = editor.findData(index.data(VALUE_ROLE))
            editor.setCurrentIndex(max(0, found))
        elif isinstance(editor, QLineEdit):
            editor.setText("" if value is None else str(value))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: _Index) -> None:
        if isinstance(editor, QSpinBox):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def destroyEditor(self, editor: QWidget, index: _Index) -> None:
        # Qt closes an editor holding unacceptable input without committing it; say why.
        if isinstance(editor, DiceLineEdit) and editor.problem:
            self.edit_refused.emit(tr(_CTX, "{0} not changed: {1}").format(
                    _header(index), editor.problem))
        if isinstance(editor, DiceLineEdit):
            self.problem_changed.emit("")
        super().destroyEditor(editor, index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            isinstance(watched, DiceLineEdit)
            and watched.problem
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.edit_refused.emit(tr(_CTX, "{0}: {1}").format(
                    watched.field_label, watched.problem))
            watched.show_problem()
        return super().eventFilter(watched, event)


def _header(index: _Index) -> str:
    if not index.isValid():
        return tr(_CTX, "Value")
    model = index.model()
    header = model.headerData(index.column(), Qt.Orientation.Horizontal,
                              Qt.ItemDataRole.DisplayRole)
    return str(header) if header else tr(_CTX, "Value")
