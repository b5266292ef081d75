"""Screen readers can name every control and read every painted widget (issue 21).

The walk asks Qt's own accessibility interface for each control's name: that is what a
screen reader gets, and it already counts button text and QLabel buddies (for line edits,
spin boxes and combo boxes). Anything interactive that still has no name is listed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAccessible, QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from mneme_desktop.drawing.track_painter import TrackColors, paint_hp_bar
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.pdf import write_pdf
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.settings import PageSize
from mneme_desktop.storage import build_sample_campaign
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_nodes import Group
from mneme_desktop.ui.models.roles import VALUE_ROLE
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.theme import dark_palette
from mneme_desktop.ui.widgets.action_pips import ActionPips
from mneme_desktop.ui.widgets.box_chart import DamageBoxChart
from mneme_desktop.ui.widgets.hp_bar import DamageTrackWidget, HpThresholdBar
from mneme_desktop.ui.widgets.projection_chart import ProjectionChart
from tests.export.helpers import pdf_text

PAINTED = (DamageTrackWidget, ActionPips, ProjectionChart)
INTERACTIVE = (QAbstractButton, QLineEdit, QAbstractSpinBox, QComboBox, QAbstractItemView,
               QPlainTextEdit, QTextEdit, QAbstractSlider, *PAINTED)


@pytest.fixture
def window(sample_window):
    return sample_window


def _select_first(window: MainWindow, group: Group) -> None:
    model = window.navigator_model
    assert model is not None
    index = model.index(0, 0, model.group_index(group))
    assert index.isValid()
    window.tree.setCurrentIndex(index)


def _show(qtbot: QtBot, window: MainWindow, page: int) -> QWidget:
    _select_first(window, Group.ENCOUNTERS if page == Page.ENCOUNTER else Group.PLAYERS)
    window.show_page(page)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == page)
    root = window.stack.currentWidget()
    assert root is not None
    return root


def _part_of_a_compound(widget: QWidget) -> bool:
    """Qt's own pieces, named by Qt: a spin box's or combo's line edit, a line edit's clear
    button, a tab bar's scroll arrows, a view's headers and scroll bars, a toolbar's
    overflow button ("qt_toolbar_ext_button")."""
    if isinstance(widget, (QHeaderView, QScrollBar)) or widget.objectName().startswith("qt_"):
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QAbstractSpinBox, QComboBox, QTabBar, QAbstractItemView,
                               QLineEdit)):
            return True
        parent = parent.parentWidget()
    return False


def accessible_name(widget: QWidget) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None and iface.isValid()
    return iface.text(QAccessible.Text.Name).strip()


def _has_buddy(widget: QWidget, root: QWidget) -> bool:
    return any(label.buddy() is widget for label in root.findChildren(QLabel))


def unnamed_controls(root: QWidget) -> list[str]:
    """Every interactive widget under ``root`` with no accessible name, hidden ones too
    (other tabs, panels shown only mid-task): they are read out once shown."""
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, INTERACTIVE):
            continue
        if _part_of_a_compound(widget):
            continue
        if accessible_name(widget) or _has_buddy(widget, root):
            continue
        missing.append(f"{type(widget).__name__} {widget.objectName()!r}")
    return missing


@pytest.mark.parametrize("page", [Page.SHEET, Page.ENCOUNTER, Page.HEALING])
def test_every_control_on_every_page_has_a_name(qtbot: QtBot, window: MainWindow,
                                                page: int) -> None:
    root = _show(qtbot, window, page)
    assert unnamed_controls(root) == []


def test_navigator_and_toolbar_have_names(qtbot: QtBot, window: MainWindow) -> None:
    _show(qtbot, window, Page.SHEET)
    assert unnamed_controls(window.navigator_dock) == []
    for toolbar in window.findChildren(QWidget, "main_toolbar") or [window.toolbar]:
        assert unnamed_controls(toolbar) == []


@pytest.mark.parametrize("page", [Page.SHEET, Page.ENCOUNTER, Page.HEALING])
def test_painted_widgets_have_a_name_and_a_text_value(qtbot: QtBot, window: MainWindow,
                                                      page: int) -> None:
    root = _show(qtbot, window, page)
    painted = [w for w in root.findChildren(QWidget) if isinstance(w, PAINTED)]
    assert painted
    for widget in painted:
        iface = QAccessible.queryAccessibleInterface(widget)
        assert iface.text(QAccessible.Text.Name), type(widget).__name__
        assert iface.text(QAccessible.Text.Description), type(widget).__name__


def test_sheet_tracks_say_whose_damage_and_follow_it(qtbot: QtBot, window: MainWindow) -> None:
    root = _show(qtbot, window, Page.SHEET)
    assert window.document is not None
    name = window.document.campaign.characters[0].name
    bar = root.findChild(HpThresholdBar)
    chart = root.findChild(DamageBoxChart)
    assert bar is not None and chart is not None
    for widget in (bar, chart):
        assert name in accessible_name(widget)
        assert widget.accessibleDescription().startswith(f"{name}: damage ")
    track = bar.track()
    assert track is not None
    bar.damage_requested.emit(track.damage + 4, False)
    qtbot.waitUntil(lambda: getattr(bar.track(), "damage", None) == track.damage + 4)
    expected = f"{name}: damage {track.damage + 4} of {track.hp} HP"
    assert bar.accessibleDescription().startswith(expected)
    assert chart.accessibleDescription().startswith(expected)


def test_the_widgets_announce_changes(qtbot: QtBot) -> None:
    bar = HpThresholdBar()
    pips = ActionPips()
    chart = ProjectionChart()
    for widget in (bar, pips, chart):
        qtbot.addWidget(widget)
    bar.set_subject("Mara Vey")
    bar.set_track(damage_track(11, 25))
    assert bar.accessibleName() == "HP threshold bar for Mara Vey"
    assert bar.accessibleDescription() == (
        "Mara Vey: damage 11 of 25 HP: seriously wounded, penalty -3")
    pips.set_subject("Mara Vey")
    pips.set_spent(1)
    assert pips.accessibleName() == "Minor actions for Mara Vey"
    assert pips.accessibleDescription() == "Mara Vey: 2 of 3 minor actions left"
    chart.set_chart(damage_track(11, 25), [], "Mara Vey — damage 11/25")
    assert chart.accessibleDescription().startswith("Mara Vey — damage 11/25")


# --- bands carry a name or a pattern, never colour alone ---------------------------------


def _colours_in(image: QImage, rect: QRectF) -> set[int]:
    inner = rect.adjusted(2, 2, -2, -2).toAlignedRect()
    return {image.pixel(x, y) for y in range(inner.top(), inner.bottom())
            for x in range(inner.left(), inner.right())}


def test_turn_order_hp_and_state_cells_name_the_band(qtbot: QtBot, window: MainWindow) -> None:
    root = _show(qtbot, window, Page.ENCOUNTER)
    view = root.findChild(QAbstractItemView, "turn_order")
    assert view is not None
    model = view.model()
    assert model.rowCount() > 0
    for row in range(model.rowCount()):
        hp = model.index(row, TurnOrderModel.COL_HP)
        state = model.index(row, TurnOrderModel.COL_STATE)
        track = hp.data(VALUE_ROLE)
        assert isinstance(track, DamageTrack)
        assert track.state.label in state.data(Qt.ItemDataRole.DisplayRole)
        spoken = hp.data(Qt.ItemDataRole.AccessibleTextRole)
        assert track.state.label.lower() in spoken, spoken


def test_compact_hp_bar_hatches_every_band(qapp: QApplication) -> None:
    """The turn order's thin bar has no room for names: every band carries its hatching."""
    track = damage_track(20, 30)
    image = QImage(600, 24, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    rect = QRectF(0, 0, 600, 24)
    paint_hp_bar(painter, rect, track, TrackColors.from_palette(dark_palette()), QFont(),
                 labels=False)
    painter.end()
    for band in track.bands:
        start, end = track.band_span(band)
        band_rect = QRectF(600 * float(start), 0, 600 * float(end - start), 24)
        assert len(_colours_in(image, band_rect)) > 2, band.label


def test_projection_chart_names_or_hatches_every_band(qtbot: QtBot) -> None:
    """A band tall enough carries its name; a thin one (a short chart) its hatching."""
    track = damage_track(10, 24)
    for height in (400, 120):
        chart = ProjectionChart()
        qtbot.addWidget(chart)
        chart.resize(500, height)
        chart.set_chart(track, [])
        image = chart.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        named = 0
        for band in track.bands:
            if chart.band_text(band) is not None:
                named += 1
                continue
            assert len(_colours_in(image, chart.band_rect(band))) > 2, (height, band.label)
        assert named == len(track.bands) if height == 400 else named < len(track.bands)


def test_printed_box_chart_names_every_band(tmp_path: Path) -> None:
    """On paper the box chart's grey rows are named where each state begins, Wounded too."""
    campaign = build_sample_campaign()
    document = build_document(campaign, ExportTarget.player_characters(),
                              ExportOptions(show_damage=False))
    path = tmp_path / "sheets.pdf"
    write_pdf(document, path, PageSize.A4)
    notes = {line.strip().rsplit(" from ", 1)[0] for line in pdf_text(path).splitlines()
             if re.fullmatch(r"[A-Za-z ]+ from \d+( \(past HP \d+\))?", line.strip())}
    assert {"Wounded", "Seriously Wounded", "Critically Wounded", "Dying"} <= notes, notes
