"""The part every flat table model shares: columns named by ``HEADERS`` or by the
headers of its ``columns``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from mneme_desktop.ui.i18n import tr

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole


class HeadedTableModel(QAbstractTableModel):
    """A table whose columns are ``HEADERS``, each optionally explained by ``HEADER_TIPS``
    (column number to tooltip). Subclasses give rows and cells."""

    HEADERS: ClassVar[tuple[str, ...]] = ()
    HEADER_TIPS: ClassVar[Mapping[int, str]] = {}

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            if role == _DISPLAY:
                return self.HEADERS[section]
            if role == _TOOLTIP:
                return self.HEADER_TIPS.get(section)
        return None


class HeadedColumn(Protocol):
    """A column of a :class:`ColumnsTableModel`: its header, an untranslated source text."""

    @property
    def header(self) -> str: ...


class ColumnsTableModel(QAbstractTableModel):
    """A table of ``_rows`` whose columns are ``columns``, each headed by its ``header`` and,
    when it has one, explained by its ``header_tooltip`` (source texts marked with
    ``tr_noop`` in ``tr_context``, translated here). The sheet's lists, a thing's lists and
    the catalogue share it; subclasses give the cells."""

    tr_context: ClassVar[str]
    columns: Sequence[HeadedColumn]
    _rows: Sequence[Any]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        column = self.columns[section]
        if role == _DISPLAY:
            return tr(self.tr_context, column.header)
        tip = getattr(column, "header_tooltip", "")
        if role == _TOOLTIP and tip:
            return tr(self.tr_context, tip)
        return None


def full_text_tip(shown: object, tip: object = None) -> str | None:
    """A text cell's tooltip that always holds the whole shown text, so a cell the view
    cuts short (elides) can be read in full: ``tip`` when it already contains ``shown``,
    else ``shown`` followed by ``tip`` on the next line."""
    text = shown if isinstance(shown, str) else ""
    explanation = tip if isinstance(tip, str) and tip else None
    if not text.strip():
        return explanation
    if explanation is None:
        return text
    return explanation if text in explanation else f"{text}\n{explanation}"
