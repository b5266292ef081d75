"""Hostile text on screen (issue 15): markup typed into any name or note is shown literally,
never rendered as HTML, and a megabyte-long note neither freezes the window nor reaches a
label, cell or tooltip in full.

A character named ``<img src="/dev/zero">`` once made Qt read /dev/zero until the app
aborted; these tests use a small local image instead (an older build would show it, not
hang the machine), and check every QLabel under the main window rather than a hand list.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6 import QtGui
from PySide6.QtCore import QMimeData, QModelIndex, QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QTextOption
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLabel,
    QMessageBox,
    QTextBrowser,
    QToolTip,
    QWidget,
)

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Campaign, Skill
from mneme_desktop.domain.encounter import EncounterLogEntry
from mneme_desktop.storage import save_campaign
from mneme_desktop.ui.app_guard import install_app_guard
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_model import Group
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.widgets.notes_edit import LONG_RUN, NotesEdit, has_long_run
from mneme_desktop.ui.widgets.plain_text import (
    DISPLAY_LIMIT,
    clip,
    escaped,
    message_box,
    plain_label,
    set_rich_text,
)
from tests.domain.test_combat import make_campaign

PROBE = "mneme-probe.png"
BOLD = "<b>x</b>"
MARKUP = f'{BOLD}<img src="{PROBE}">&amp;'
"""Bold markup, an image of a local file and an entity: all must show as typed."""

LABEL_BOUND = 2000
"""No label shows more text than this (constant help texts included)."""


def hostile(name: str) -> str:
    return f"{name} {MARKUP}"


def hostile_campaign() -> Campaign:
    campaign = make_campaign()
    campaign.name = hostile("Campaign")
    for character in campaign.characters:
        character.name = hostile(character.name)
        character.player = MARKUP
        character.notes = f"{MARKUP}\n{MARKUP}"
        character.skills.append(Skill(name=hostile("Lore"), level=1))
        for weapon in character.weapons:
            weapon.name = hostile(weapon.name)
            weapon.notes = MARKUP
        for armor in character.armor:
            armor.name = hostile(armor.name)
    campaign.characters[0].damage = 10  # a patient for the healing view
    for template in campaign.adversary_library:
        template.stats.name = hostile(template.stats.name)
    campaign.encounters[0].name = hostile("Ford")
    campaign.encounters[0].notes = MARKUP
    campaign.encounters[0].log.append(EncounterLogEntry(actor=MARKUP, action=MARKUP,
                                                        text=MARKUP))
    return campaign


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real image at the relative path the markup names, as in the report."""
    monkeypatch.chdir(tmp_path)
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(tmp_path / PROBE))
    return tmp_path / PROBE


@pytest.fixture
def window(open_window, tmp_path: Path, probe: Path):
    return open_window(hostile_campaign(), tmp_path / "hostile.mneme")


# --- checks ---------------------------------------------------------------------------------


def renders_rich(label: QLabel) -> bool:
    fmt = label.textFormat()
    return fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(label.text()))


def label_problems(root: QWidget) -> list[str]:
    """Every QLabel under ``root``: plain, or rich with no raw user markup; bounded."""
    problems = []
    for label in root.findChildren(QLabel):
        text = label.text()
        name = label.objectName() or type(label).__name__
        if renders_rich(label) and ("<img" in text.lower() or BOLD in text):
            problems.append(f"{name} renders markup: {text[:120]!r}")
        if len(text) > LABEL_BOUND:
            problems.append(f"{name} shows {len(text)} characters")
    return problems


def literal_labels(root: QWidget) -> list[QLabel]:
    """Labels that show the hostile markup as typed (plain text, or escaped rich text)."""
    shown = []
    for label in root.findChildren(QLabel):
        if not label.isVisibleTo(root):
            continue
        text = label.text()
        if (not renders_rich(label) and MARKUP in text) or (
                renders_rich(label) and "&lt;b&gt;x&lt;/b&gt;&lt;img" in text):
            shown.append(label)
    return shown


def tooltip_label() -> QLabel:
    tips = [w for w in QApplication.topLevelWidgets()
            if isinstance(w, QLabel) and w.objectName() == "qtooltip_label"]
    assert tips, "no tooltip was shown"
    return tips[0]


def assert_tooltip_literal(widget: QWidget, text: str) -> None:
    """Show ``text`` as Qt shows a tooltip and check it is set as plain text."""
    QToolTip.showText(widget.mapToGlobal(QPoint(2, 2)), text, widget)
    tip = tooltip_label()
    assert tip.textFormat() == Qt.TextFormat.PlainText, text
    assert tip.text() == text
    QToolTip.hideText()


def model_tooltips(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    pending = [QModelIndex()]
    while pending:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            column = 0
            while (index := model.index(row, column, parent)).isValid():
                tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
                if isinstance(tip, str) and tip:
                    yield tip
                column += 1
            first = model.index(row, 0, parent)
            if first.isValid() and model.rowCount(first):
                pending.append(first)


def all_tooltips(root: QWidget) -> Iterator[tuple[QWidget, str]]:
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.toolTip():
            yield widget, widget.toolTip()
        if isinstance(widget, QAbstractItemView):
            for tip in model_tooltips(widget):
                yield widget.viewport(), tip


def check_page(qtbot, window: MainWindow) -> None:
    qtbot.wait(10)
    assert label_problems(window) == []
    hostile_tips = [(w, t) for w, t in all_tooltips(window) if BOLD in t]
    for widget, text in hostile_tips:
        assert len(text) <= LABEL_BOUND
        assert_tooltip_literal(widget, text)


def select(window: MainWindow, group: Group, row: int = 0) -> None:
    model = window.navigator_model
    assert model is not None
    window.tree.setCurrentIndex(model.index(row, 0, model.group_index(group)))


# --- the pages ------------------------------------------------------------------------------


def test_sheet_shows_names_and_notes_literally(qtbot, window: MainWindow) -> None:
    select(window, Group.PLAYERS)
    sheet = window.sheet_view
    assert sheet is not None and sheet.isVisible()
    assert sheet.title_label.textFormat() == Qt.TextFormat.PlainText
    assert sheet.title_label.text() == hostile("Mara Vey")
    assert sheet.notes_edit.toPlainText() == f"{MARKUP}\n{MARKUP}"
    assert literal_labels(window)
    check_page(qtbot, window)
    assert MARKUP in window.windowTitle()  # window titles are never rich


def test_every_label_of_the_window_is_plain_unless_registered(qtbot, window: MainWindow) -> None:
    """The guard: labels nobody registered as rich are plain text, Qt's own included."""
    select(window, Group.PLAYERS)
    for label in window.findChildren(QLabel):
        if label.textFormat() != Qt.TextFormat.PlainText:
            assert label.property("mnemeRichText"), label.objectName() or label.text()[:40]


def start_fight(window: MainWindow):
    select(window, Group.ENCOUNTERS)
    view = window.encounter_view
    assert view is not None and view.isVisible()
    campaign = view.document.campaign
    assert view.add_characters([c.id for c in campaign.characters])
    assert view.add_adversaries(campaign.adversary_library[0].id, 1)
    model = view.turn_model
    encounter = view.encounter()
    for value, combatant in enumerate(encounter.combatants, start=5):
        assert model.setData(model.index(model.row_of(combatant.id), TurnOrderModel.COL_INIT),
                             str(value))
    assert view.start_encounter()
    return view


def test_encounter_turn_label_panel_and_resolver_show_names_literally(
        qtbot, window: MainWindow) -> None:
    view = start_fight(window)
    encounter = view.encounter()
    current = encounter.current_combatant
    assert current is not None
    name = view.document.campaign.combatant_character(current).name
    assert MARKUP in name
    # the turn label is rich (the name in bold) but the name is escaped
    assert renders_rich(view.turn_label)
    assert "<img" not in view.turn_label.text()
    assert "&lt;img" in view.turn_label.text()
    # the combatant panel's name
    view.select_combatant(current.id)
    qtbot.waitUntil(lambda: MARKUP in view.panel.name_label.text())
    assert view.panel.name_label.textFormat() == Qt.TextFormat.PlainText
    assert MARKUP in view.panel.name_label.text()
    assert view.title_label.text() == hostile("Ford")
    assert not renders_rich(view.title_label)
    check_page(qtbot, window)

    # the attack resolver's result
    view.tabs.setCurrentIndex(1)
    resolver = view.resolver
    shooter = next(c for c in encounter.combatants
                   if view.document.campaign.combatant_character(c).name.startswith("Mara"))
    target = next(c for c in encounter.combatants
                  if view.document.campaign.combatant_character(c).name.startswith("Raider"))
    resolver.spend_check.setChecked(False)
    resolver.set_attacker(shooter.id)
    resolver.set_targets([target.id])
    outcome = None
    for _ in range(20):  # until a roll hits, so the target's name is in the result
        outcome = resolver.roll()
        if outcome is not None and outcome.hits:
            break
    assert outcome is not None and outcome.hits
    browser = view.findChild(QTextBrowser, "attack_outcome")
    assert browser is not None
    assert "<img" not in browser.toHtml()
    assert BOLD in browser.toPlainText()  # the target's name, as typed
    check_page(qtbot, window)


def test_healing_result_shows_the_patient_literally(qtbot, window: MainWindow) -> None:
    select(window, Group.PLAYERS)
    window.show_page(Page.HEALING)
    healing = window.healing_view
    assert healing is not None and healing.isVisible()
    healing.tabs.setCurrentIndex(1)
    campaign = healing.document.campaign
    patient = campaign.characters[0]
    medic = next(c for c in campaign.characters if c.name.startswith("Tomas"))
    healing.event_patient_combo.setCurrentIndex(healing.event_patient_combo.findData(patient.id))
    index = healing.medic_combo.findData(medic.id)
    if index >= 0:
        healing.medic_combo.setCurrentIndex(index)
    healing.entered_edit.setText("5 6")
    healing.apply_entered_button.click()
    result = healing.result_label
    assert MARKUP in patient.name
    assert "&lt;img" in result.text(), result.text()
    assert "<img" not in result.text()
    check_page(qtbot, window)


def test_delete_confirmation_shows_the_name_literally(qtbot, window: MainWindow) -> None:
    select(window, Group.PLAYERS)
    seen: list[tuple[Qt.TextFormat, str]] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        label = box.findChild(QLabel, "qt_msgbox_label")
        assert label is not None
        seen.append((label.textFormat(), label.text()))
        box.button(QMessageBox.StandardButton.No).click()

    QTimer.singleShot(0, answer)
    count = len(window.document.campaign.characters)
    window.delete_selected()
    assert seen, "the confirmation was not shown"
    fmt, text = seen[0]
    assert fmt == Qt.TextFormat.PlainText
    assert hostile("Mara Vey") in text
    assert len(window.document.campaign.characters) == count  # answered No


def test_navigator_and_table_tooltips_render_literally(qtbot, window: MainWindow) -> None:
    start_fight(window)
    tips = [text for _, text in all_tooltips(window) if BOLD in text]
    assert tips, "no tooltip carried a name"
    check_page(qtbot, window)


# --- the helpers ----------------------------------------------------------------------------


def test_guard_makes_unregistered_labels_plain_and_keeps_registered_ones(qtbot) -> None:
    install_app_guard()
    parent = QWidget()
    qtbot.addWidget(parent)
    auto = QLabel(MARKUP, parent)
    rich = QLabel(parent)
    rich.move(0, 30)
    set_rich_text(rich, "<b>{}</b>", MARKUP)
    parent.show()
    qtbot.waitExposed(parent)
    assert auto.textFormat() == Qt.TextFormat.PlainText
    assert auto.text() == MARKUP
    assert rich.textFormat() == Qt.TextFormat.RichText
    assert rich.text() == "<b>&lt;b&gt;x&lt;/b&gt;&lt;img src=\"mneme-probe.png\"&gt;&amp;amp;</b>"


def test_status_line_message_and_tooltip_are_literal(qtbot) -> None:
    from mneme_desktop.ui.widgets.status_line import StatusLine

    install_app_guard()
    line = StatusLine("probe_line")
    qtbot.addWidget(line)
    line.resize(400, 30)
    line.show()
    qtbot.waitExposed(line)
    line.show_message(f"Applied: {MARKUP}")
    assert line.textFormat() == Qt.TextFormat.PlainText
    assert line.toolTip() == f"Applied: {MARKUP}"
    assert_tooltip_literal(line, line.toolTip())
    line.show_message("z" * 1_000_000)
    assert len(line.toolTip()) <= LABEL_BOUND


def test_plain_label_is_plain_before_it_is_shown() -> None:
    label = plain_label(MARKUP)
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text() == MARKUP


def test_escaped_and_clip() -> None:
    assert escaped("<i>{}</i> {}", "<b>", "a & b") == "<i>&lt;b&gt;</i> a &amp; b"
    assert clip("x" * 10) == "x" * 10
    long = clip("y" * 1_000_000)
    assert len(long) == DISPLAY_LIMIT and long.endswith("…")
    assert len(escaped("{}", "z" * 10_000)) == DISPLAY_LIMIT


@given(st.text())
def test_escaped_pieces_are_escaped_as_html_escape_does(text: str) -> None:
    import html

    assert escaped("{}", text, limit=10_000_000) == html.escape(text, quote=False)


def test_message_box_is_plain_unless_rich(qtbot) -> None:
    box = message_box(QMessageBox.Icon.Question, "Delete", f"Delete {MARKUP}?",
                      QMessageBox.StandardButton.Yes)
    qtbot.addWidget(box)
    assert box.textFormat() == Qt.TextFormat.PlainText
    about = message_box(QMessageBox.Icon.NoIcon, "About", "<h3>App</h3>",
                        QMessageBox.StandardButton.Ok, rich=True)
    qtbot.addWidget(about)
    install_app_guard()
    about.show()
    label = about.findChild(QLabel, "qt_msgbox_label")
    assert label is not None and label.textFormat() == Qt.TextFormat.RichText
    about.close()


# --- a megabyte-long note -----------------------------------------------------------------


def test_long_run_detection() -> None:
    assert not has_long_run("word " * 100_000)
    assert not has_long_run("x" * (LONG_RUN - 1))
    assert has_long_run("a b " + "x" * LONG_RUN + " c")


def test_notes_edit_wraps_anywhere_for_a_huge_unbroken_line(qtbot) -> None:
    edit = NotesEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("x" * 1_000_000)
    assert edit.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert len(edit.toPlainText()) == 1_000_000  # the editor keeps the whole note
    edit.setPlainText("an ordinary note")
    assert edit.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    data = QMimeData()
    data.setText("y" * (LONG_RUN * 5))
    edit.insertFromMimeData(data)
    assert edit.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere


def test_a_million_character_note_loads_into_a_bounded_screen(
        qtbot, app_paths, tmp_path: Path) -> None:
    """Before the fix Qt laid out the note word-wrapped: about 28 s to open, 14 s per resize.
    Checked by what is laid out (wrap mode, label lengths), not by the clock."""
    campaign = make_campaign()
    campaign.characters[0].notes = "x" * 1_000_000
    campaign.characters[0].weapons[0].notes = "w" * 1_000_000
    campaign.encounters[0].log.append(EncounterLogEntry(text="n" * 1_000_000))
    path = tmp_path / "long.mneme"
    save_campaign(campaign, path, backups=0)
    win = MainWindow(AppContext.create(app_paths))
    try:
        assert win.open_initial(path)
        win.show()
        qtbot.waitExposed(win)
        select(win, Group.PLAYERS)
        sheet = win.sheet_view
        assert sheet is not None
        assert sheet.notes_edit.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
        assert len(sheet.notes_edit.toPlainText()) == 1_000_000
        assert label_problems(win) == []
        for _widget, text in all_tooltips(win):
            assert len(text) <= LABEL_BOUND
        select(win, Group.ENCOUNTERS)  # the log holds the megabyte note
        assert win.encounter_view is not None and win.encounter_view.log_model.rowCount()
        assert label_problems(win) == []
        for _widget, text in all_tooltips(win):
            assert len(text) <= LABEL_BOUND
    finally:
        win.discard_and_close()
        win.deleteLater()
