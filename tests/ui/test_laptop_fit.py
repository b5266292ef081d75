"""Laptop screens (1280x720, 1366x768) and a wide one (1920x1080): nothing on a page is
clipped, the healing splitters hold still, and dark-theme check boxes can be seen.

What may be elided, by design: a :class:`StatusLine` (its whole text is its tooltip), and
names in the turn order's Combatant column (the name's tooltip holds it whole; checked in
``test_encounter_page.py``). Every other label, button and column header must fit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QLabel,
    QSplitter,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from mneme_desktop.drawing.contrast import contrast_ratio
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.theme import INDICATOR_BORDER_ROLE, DarkIndicatorStyle, dark_palette
from mneme_desktop.ui.views.healing_view import HealingView
from mneme_desktop.ui.widgets.status_line import StatusLine
from tests.ui.test_encounter_page import _open_running_encounter

LAPTOPS = [(1280, 720), (1366, 768)]


def _where(widget: QWidget) -> str:
    names = []
    parent: QWidget | None = widget
    while parent is not None and len(names) < 4:
        names.append(parent.objectName() or type(parent).__name__)
        parent = parent.parentWidget()
    return "/".join(reversed(names))


def shown_width(widget: QWidget) -> int:
    """How much of ``widget``'s width its ancestors show (a scroll area's viewport, a tab,
    a splitter pane clip what overhangs them)."""
    window = widget.window()
    left = widget.mapTo(window, QPoint(0, 0)).x()
    right = left + widget.width()
    parent = widget.parentWidget()
    while parent is not None:
        start = parent.mapTo(window, QPoint(0, 0)).x()
        left, right = max(left, start), min(right, start + parent.width())
        parent = parent.parentWidget()
    return max(0, right - left)


def clipped(root: QWidget) -> list[str]:
    """Every visible label, button and table header under ``root`` narrower than its text,
    or cut by what holds it."""
    found = []
    for widget in [*root.findChildren(QLabel), *root.findChildren(QAbstractButton)]:
        if not widget.isVisible() or type(widget) is QAbstractButton:
            continue
        if isinstance(widget, QLabel) and not widget.text():
            continue
        if shown_width(widget) < widget.width():
            found.append(f"{type(widget).__name__} {widget.text()!r} cut to "
                         f"{shown_width(widget)} of {widget.width()} in {_where(widget)}")
    for label in root.findChildren(QLabel):
        if not label.isVisible() or label.wordWrap() or not label.text():
            continue
        if isinstance(label, StatusLine):  # elides on purpose, the whole text in its tooltip
            assert label.toolTip() or not label.message()
            continue
        if label.sizeHint().width() > label.width():
            found.append(f"label {label.text()!r} {label.sizeHint().width()}>{label.width()} "
                         f"in {_where(label)}")
    for button in root.findChildren(QAbstractButton):
        if not button.isVisible() or type(button) is QAbstractButton:  # the table's corner
            continue
        if button.sizeHint().width() > button.width():
            found.append(f"button {button.text()!r} {button.sizeHint().width()}>"
                         f"{button.width()} in {_where(button)}")
    for table in root.findChildren(QTableView):
        header = table.horizontalHeader()
        if not table.isVisible() or not header.isVisible():
            continue
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        model = table.model()
        for section in range(header.count()):
            if header.isSectionHidden(section):
                continue
            text = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
            need = max(header.fontMetrics().horizontalAdvance(line)
                       for line in text.split("\n")) + 2 * margin
            if need > header.sectionSize(section):
                found.append(f"header {text!r} {need}>{header.sectionSize(section)} "
                             f"in {table.objectName()}")
    return found


def _pages(window: MainWindow, qtbot) -> Iterator[str]:
    """Show each page and tab in turn, naming it."""
    window.show_page(Page.SHEET)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == Page.SHEET)
    yield "sheet"
    view = _open_running_encounter(window, qtbot)
    for tab in range(view.tabs.count()):
        view.tabs.setCurrentIndex(tab)
        yield f"encounter, {view.tabs.tabText(tab)} tab"
    healing = _healing(window, qtbot)
    for tab in range(healing.tabs.count()):
        healing.tabs.setCurrentIndex(tab)
        yield f"healing, {healing.tabs.tabText(tab)} tab"


def _healing(window: MainWindow, qtbot) -> HealingView:
    window.show_page(Page.HEALING)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == Page.HEALING)
    view = window.stack.currentWidget()
    assert isinstance(view, HealingView)
    return view


@pytest.mark.parametrize("size", LAPTOPS)
def test_nothing_is_clipped_on_a_laptop_screen(qtbot, sample_window, size) -> None:
    window = sample_window
    problems = []
    for page in _pages(window, qtbot):
        window.resize(*size)
        qtbot.wait(20)
        problems += [f"{page}: {problem}" for problem in clipped(window)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", LAPTOPS)
def test_the_healing_splitters_hold_still(qtbot, sample_window, size) -> None:
    """The Medical tab was wider once shown, and wider again for a long patient state or the
    intensive-care dying box: the splitter beside the tabs jumped."""
    window = sample_window
    window.resize(*size)
    view = _healing(window, qtbot)
    qtbot.wait(20)

    def sizes() -> list[list[int]]:
        return [splitter.sizes() for splitter in view.findChildren(QSplitter)]

    before = sizes()
    for tab in (1, 2, 0, 1):
        view.tabs.setCurrentIndex(tab)
        qtbot.wait(10)
        assert sizes() == before, view.tabs.tabText(tab)
    for row in range(view.event_patient_combo.count()):
        view.event_patient_combo.setCurrentIndex(row)
        qtbot.wait(10)
        assert sizes() == before, view.event_patient_combo.itemText(row)
    for radio in (view.intensive_radio, view.surgery_radio, view.first_aid_radio):
        radio.setChecked(True)
        qtbot.wait(10)
        assert sizes() == before, radio.text()
    view.tabs.setCurrentIndex(0)
    table = view.patients_table
    for row in range(table.model().rowCount()):
        table.setCurrentIndex(table.model().index(row, 1))
        qtbot.wait(10)
        assert sizes() == before
    assert sizes() == before


def test_the_dark_check_box_border_reaches_3_to_1() -> None:
    palette = dark_palette()
    border = palette.color(INDICATOR_BORDER_ROLE)
    for background in (QColor(palette.color(role)) for role in (
            palette.ColorRole.Base, palette.ColorRole.AlternateBase, palette.ColorRole.Window)):
        assert contrast_ratio(border, background) >= 3.0, background.name()


def test_an_unchecked_table_check_box_is_drawn_with_that_border(qapp) -> None:
    """Drawn as a table draws it: Fusion alone bordered it in Window darkened (1.1:1)."""
    palette = dark_palette()
    base = palette.color(palette.ColorRole.Base)
    image = QImage(24, 24, QImage.Format.Format_ARGB32)
    image.fill(base)
    option = QStyleOptionViewItem()
    option.rect = QRect(2, 2, 16, 16)
    option.palette = palette
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Off
    option.checkState = Qt.CheckState.Unchecked
    style = DarkIndicatorStyle()
    painter = QPainter(image)
    style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck, option, painter)
    painter.end()
    edge = max((image.pixelColor(2, y) for y in range(4, 16)),
               key=lambda c: contrast_ratio(c, base))
    assert contrast_ratio(edge, base) >= 3.0, edge.name()
