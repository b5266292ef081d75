"""One-line NPCs, quick NPCs and the session recap, driven from the window as a referee
would: menus, the clipboard, typing, clicks; every addition one undo step."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSpinBox,
)

from mneme_desktop.domain import CharacterKind
from mneme_desktop.domain.npc_generator import BUILTIN_NAMES, BUILTIN_PACKAGES, generate_npc
from mneme_desktop.domain.npc_line import format_npc_lines
from mneme_desktop.settings import Settings
from mneme_desktop.storage import build_sample_campaign
from mneme_desktop.ui.dialogs.npc_lines_dialog import NpcLinesDialog
from mneme_desktop.ui.dialogs.quick_npc_dialog import QuickNpcDialog
from mneme_desktop.ui.dialogs.recap_dialog import RecapDialog
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.main_window import MainWindow
from mneme_desktop.ui.models.navigator_nodes import Group
from tests.domain.test_session_recap import SECRET, scripted_fight
from tests.ui.test_translation_ready import (  # noqa: F401 (bracketing: a fixture)
    bracketing,
    campaign_names,
    untranslated,
)

OK = QDialogButtonBox.StandardButton.Ok

LINES = (
    "Jana Kell\t789A87\tAge 34\tMarine (3 terms)\tCr2000\tGun Combat-2, "
    "Melee Combat (Slashing)-1, Recon-0\n"
    "Dorn Vale, 6A7855, Age 41, Merchant (4 terms, Captain), Cr12000, Broker-2, Admin-1\n"
    "Sef  8B9766  Age 27  Scout (2 terms)  Recon-2, Survival-1, Stealth-1\n"
)


@pytest.fixture
def window(sample_window: MainWindow) -> MainWindow:
    return sample_window


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def paste(qtbot, dialog: NpcLinesDialog, text: str) -> None:
    """What a referee does: copy lines elsewhere, click Paste from Clipboard."""
    QApplication.clipboard().setText(text)
    click(qtbot, dialog.paste_button)


def choose_target(qtbot, combo, text: str) -> None:
    combo.setFocus()
    while combo.currentText() != text:
        qtbot.keyClick(combo, Qt.Key.Key_Down)


def set_spin(qtbot, spin: QSpinBox, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == value


def group_node(window: MainWindow, group: Group, row: int | None = None) -> None:
    model = window.navigator_model
    assert model is not None
    index = model.group_index(group)
    if row is not None:
        index = model.index(row, 0, index)
    window.tree.setCurrentIndex(index)


def drive(qtbot, steps):
    """A ``run`` for the window's dialogs: show it, do ``steps`` as the referee, and return
    how it ended (a dialog that refused to close counts as still open: -1)."""
    def run(dialog: QDialog) -> int:
        dialog.show()
        qtbot.waitExposed(dialog)
        steps(dialog)
        result = dialog.result() if not dialog.isVisible() else -1
        dialog.close()
        return result
    return run


# --- the window's entries ----------------------------------------------------------------


def test_the_menus_and_the_navigator_reach_the_referees_library(qtbot, window):
    campaign_menu = next(a.menu() for a in window.menuBar().actions()
                         if a.text() == "&Campaign")
    entries = campaign_menu.actions()
    for action in (window.quick_npc_action, window.import_npc_lines_action,
                   window.copy_npc_lines_action, window.recap_action):
        assert action in entries
    for action in (window.quick_npc_action, window.import_npc_lines_action,
                   window.copy_npc_lines_action):
        assert action in window.tree.actions()

    seen: list[str] = []

    def cancel_the_dialog() -> None:
        dialog = QApplication.activeModalWidget()
        assert dialog is not None
        seen.append(dialog.objectName())
        dialog.reject()

    for action in (window.import_npc_lines_action, window.quick_npc_action,
                   window.recap_action):
        QTimer.singleShot(50, cancel_the_dialog)
        action.trigger()
    assert seen == ["npc_lines_dialog", "quick_npc_dialog", "recap_dialog"]
    assert window.document is not None and not window.document.undo_stack.count()


# --- one-line NPCs ------------------------------------------------------------------------


def test_many_pasted_lines_are_added_as_npcs_in_one_undo_step(qtbot, window):
    document = window.document
    assert document is not None
    before = [c.name for c in document.campaign.characters]

    def steps(dialog: NpcLinesDialog) -> None:
        paste(qtbot, dialog, LINES)
        qtbot.waitUntil(lambda: dialog.summary_label.text().startswith(
            "3 ready: Jana Kell, Dorn Vale, Sef"))
        assert dialog.problems_list.isHidden()
        click(qtbot, dialog.buttons.button(OK))

    dialog = window.npc_lines_dialog(run=drive(qtbot, steps))
    assert dialog is not None and dialog.result() == QDialog.DialogCode.Accepted
    added = document.campaign.characters[len(before):]
    assert [c.name for c in added] == ["Jana Kell", "Dorn Vale", "Sef"]
    assert all(c.kind is CharacterKind.NPC for c in added)
    assert added[1].careers[0].rank == "Captain" and added[1].credits == 12000
    assert window.sheet_view is not None and window.sheet_view.character_id() == added[0].id
    stack = document.undo_stack
    assert stack.count() == 1 and stack.text(0) == "Add 3 NPCs"
    window.undo_action.trigger()
    assert [c.name for c in document.campaign.characters] == before
    window.redo_action.trigger()
    assert [c.name for c in document.campaign.characters[len(before):]] == \
        ["Jana Kell", "Dorn Vale", "Sef"]


def test_bad_lines_are_named_by_number_and_nothing_is_added(qtbot, window):
    document = window.document
    assert document is not None
    before = document.campaign.model_dump(exclude={"id"})
    bad = (LINES.splitlines()[0] + "\n"
           "Ugo Brask  7A8965  Gun Kombat-1\n"     # an unknown skill
           "Ilka Rhee  7A8I65  Recon-1\n"          # an absurd characteristic
           "Pell Davan  Age 30  Recon-1\n")         # no UPP: malformed
    problems: list[str] = []

    def steps(dialog: NpcLinesDialog) -> None:
        paste(qtbot, dialog, bad)
        click(qtbot, dialog.buttons.button(OK))
        assert dialog.isVisible()  # refused: the dialog stays, with the reasons
        problems.extend(dialog.problems_list.item(i).text()
                        for i in range(dialog.problems_list.count()))
        assert "nothing will be added" in dialog.summary_label.text()
        # A click on a problem puts the cursor on its line.
        second = dialog.problems_list.item(1)
        rect = dialog.problems_list.visualItemRect(second)
        qtbot.mouseClick(dialog.problems_list.viewport(), Qt.MouseButton.LeftButton,
                         pos=rect.center())
        cursor = dialog.lines_edit.textCursor()
        assert cursor.blockNumber() == 2
        assert cursor.selectedText() == "Ilka Rhee  7A8I65  Recon-1"
        # Cancel leaves nothing behind.
        click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel))

    window.npc_lines_dialog(run=drive(qtbot, steps))
    assert problems == [
        "Line 2: unknown skill 'Gun Kombat' (did you mean Gun Combat?)",
        "Line 3: UPP 7A8I65: INT 'I' is not a characteristic (0-9, then A-H, J-N, P-Z)",
        "Line 4: expected the UPP (like 789A87) after the name 'Pell Davan', found 'Age 30'",
    ]
    assert document.campaign.model_dump(exclude={"id"}) == before
    assert document.undo_stack.count() == 0


def test_copy_export_then_paste_import_gives_the_same_npcs(qtbot, window):
    """Copy the NPCs group as lines, paste them back as adversary templates: import ->
    export -> import is equal for every field the line holds."""
    document = window.document
    assert document is not None
    group_node(window, Group.NPCS)
    npcs = [c for c in document.campaign.characters if c.kind is not CharacterKind.PLAYER]
    assert npcs
    window.copy_npc_lines_action.trigger()
    copied = QApplication.clipboard().text()
    assert copied == format_npc_lines(npcs)
    assert len(npcs) > 1
    assert window.statusBar().currentMessage() == f"Copied {len(npcs)} NPC lines"
    templates_before = len(document.campaign.adversary_library)

    def steps(dialog: NpcLinesDialog) -> None:
        choose_target(qtbot, dialog.target_combo, "Adversary templates")
        paste(qtbot, dialog, copied)
        click(qtbot, dialog.buttons.button(OK))

    window.npc_lines_dialog(run=drive(qtbot, steps))
    added = document.campaign.adversary_library[templates_before:]
    assert len(added) == len(npcs)
    fields = ("upp", "age", "careers", "credits", "skills")
    for template, npc in zip(added, npcs, strict=True):
        assert template.name.startswith(npc.name)
        assert template.stats.kind is CharacterKind.ADVERSARY
        assert all(getattr(template.stats, f) == getattr(npc, f) for f in fields)
    # And out again: the same lines (names aside, which a template may have numbered).
    group_node(window, Group.LIBRARY)
    window.copy_npc_lines_action.trigger()
    lines = QApplication.clipboard().text().splitlines()[templates_before:]
    assert [line.split("\t", 1)[1] for line in lines] == \
        [line.split("\t", 1)[1] for line in copied.splitlines()]


def test_copying_one_npc_says_one_line(qtbot, window):
    group_node(window, Group.NPCS, 0)
    window.copy_npc_lines_action.trigger()
    assert len(QApplication.clipboard().text().splitlines()) == 1
    assert window.statusBar().currentMessage() == "Copied 1 NPC line"


def test_copy_with_an_encounter_selected_says_what_to_select(qtbot, window):
    group_node(window, Group.ENCOUNTERS, 0)
    window.queue_dialog_answer(QMessageBox.StandardButton.Ok)  # the message box
    assert window.copy_npc_lines() == ""
    assert window.statusBar().currentMessage() == \
        "Select a character, a template or their group first."


# --- quick NPCs ---------------------------------------------------------------------------


def test_quick_npcs_seeded_through_the_dialog_and_undone_in_one_step(qtbot, window):
    document = window.document
    assert document is not None
    before = [c.name for c in document.campaign.characters]
    shown: list[str] = []

    def steps(dialog: QuickNpcDialog) -> None:
        choose_target(qtbot, dialog.package_combo, "Soldier")
        set_spin(qtbot, dialog.skills_spin, 4)
        set_spin(qtbot, dialog.count_spin, 3)
        first = dialog.preview.toPlainText()
        click(qtbot, dialog.reroll_button)
        assert dialog.preview.toPlainText() != first  # rolled again
        shown.append(dialog.preview.toPlainText())
        click(qtbot, dialog.buttons.button(OK))

    dialog = window.quick_npc_dialog(random.Random(11), run=drive(qtbot, steps))
    assert dialog is not None
    added = document.campaign.characters[len(before):]
    assert len(added) == 3 and format_npc_lines(added) == shown[0]
    assert window.statusBar().currentMessage() == "Added 3 quick NPCs"
    soldier = next(p for p in BUILTIN_PACKAGES if p.name == "Soldier")
    for npc in added:
        assert npc.kind is CharacterKind.NPC and len(npc.skills) == 4
        assert all(skill in soldier.skills for skill in npc.skills)
        assert all(2 <= value <= 12 for value in npc.characteristics.values())
        assert any(npc.name.startswith(name) for name in BUILTIN_NAMES)
    assert len({npc.name for npc in added}) == 3
    stack = document.undo_stack
    assert stack.count() == 1
    window.undo_action.trigger()
    assert [c.name for c in document.campaign.characters] == before
    assert not stack.canUndo()


def test_the_same_seed_rolls_the_same_npcs(qtbot):
    document = CampaignDocument(build_sample_campaign())
    dialog = QuickNpcDialog(document, rng=random.Random(5))
    qtbot.addWidget(dialog)
    taken = [c.name for c in document.campaign.characters]
    expected = generate_npc(random.Random(5), BUILTIN_PACKAGES[0], BUILTIN_NAMES,
                            skill_count=3, taken=taken)
    assert dialog.preview.toPlainText() == format_npc_lines([expected])


def test_quick_npcs_go_to_the_library_and_need_a_name(qtbot, window):
    document = window.document
    assert document is not None
    templates = len(document.campaign.adversary_library)

    def steps(dialog: QuickNpcDialog) -> None:
        choose_target(qtbot, dialog.target_combo, "Adversary templates")
        dialog.names_edit.setFocus()
        dialog.names_edit.selectAll()
        qtbot.keyClick(dialog.names_edit, Qt.Key.Key_Delete)
        click(qtbot, dialog.reroll_button)
        assert dialog.status.text() == "Give at least one name to pick from."
        click(qtbot, dialog.buttons.button(OK))
        assert dialog.isVisible()  # nothing to add
        qtbot.keyClicks(dialog.names_edit, "Gate Warden")
        click(qtbot, dialog.reroll_button)
        click(qtbot, dialog.buttons.button(OK))

    window.quick_npc_dialog(random.Random(2), run=drive(qtbot, steps))
    (added,) = document.campaign.adversary_library[templates:]
    assert added.name == "Gate Warden" and added.stats.kind is CharacterKind.ADVERSARY


# --- the session recap --------------------------------------------------------------------


@pytest.fixture
def fought(qtbot):
    campaign, encounter = scripted_fight()
    return CampaignDocument(campaign), encounter


def test_the_recap_dialog_saves_markdown_and_html_and_prints(qtbot, fought, tmp_path: Path):
    document, _encounter = fought
    saved: list[tuple[Path, str]] = []

    def choose(_parent, suggested: Path, file_filter: str) -> Path:
        saved.append((suggested, file_filter))
        return tmp_path / ("recap" if "md" in file_filter else "recap.html")

    printed: list[Path] = []

    def run(preview: QDialog) -> int:
        printer = preview._mneme_printer  # type: ignore[attr-defined]
        pdf = tmp_path / "recap.pdf"
        printer.setOutputFileName(str(pdf))
        preview._mneme_painter.paint(printer)  # type: ignore[attr-defined]
        printed.append(pdf)
        return int(QDialog.DialogCode.Accepted)

    reports: list[tuple[bool, str]] = []
    dialog = RecapDialog(document, Settings(), choose=choose, run=run,
                         report=lambda _p, ok, text: reports.append((ok, text)))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    set_spin(qtbot, dialog.first_day_spin, 3)
    set_spin(qtbot, dialog.last_day_spin, 3)
    encounters = dialog.encounter_list
    assert encounters.item(0).checkState() == Qt.CheckState.Checked  # fought on day 3
    preview = dialog.preview.toPlainText()
    assert "Hits and wounds" in preview and "Raider 2: Stunned" in preview
    assert "brother" not in preview

    click(qtbot, dialog.markdown_button)
    markdown = (tmp_path / "recap.md").read_text(encoding="utf-8")
    assert saved[0][0].name == "Test-recap-day-3.md"
    assert "Raider 2 is out of the fight" in markdown and "brother" not in markdown
    assert dialog.status.text() == f"Saved the recap to {tmp_path / 'recap.md'}"
    click(qtbot, dialog.html_button)
    page = (tmp_path / "recap.html").read_text(encoding="utf-8")
    assert "Who acted" in page and "brother" not in page
    click(qtbot, dialog.print_button)
    assert printed and printed[0].read_bytes().startswith(b"%PDF") and not reports

    box = dialog.notes_check  # a click on its box (a wide check box is not all button)
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert box.isChecked()
    assert "brother" in dialog.preview.toPlainText()
    click(qtbot, dialog.copy_button)
    assert SECRET in QApplication.clipboard().text()


def test_unticking_the_encounter_leaves_only_the_journal(qtbot, fought):
    document, _encounter = fought
    dialog = RecapDialog(document, Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    set_spin(qtbot, dialog.first_day_spin, 2)
    set_spin(qtbot, dialog.last_day_spin, 3)
    encounters: QListWidget = dialog.encounter_list
    item = encounters.item(0)
    assert item.checkState() == Qt.CheckState.Checked
    encounters.setFocus()
    encounters.setCurrentItem(item)
    qtbot.keyClick(encounters, Qt.Key.Key_Space)
    assert item.checkState() == Qt.CheckState.Unchecked
    text = dialog.preview.toPlainText()
    assert "Hits and wounds" not in text
    assert "Before" in text and "Ilse Brandt: heals 1 (light care)" in text


def test_the_window_opens_the_recap_on_its_campaign(qtbot, window):
    def steps(dialog: RecapDialog) -> None:
        assert dialog.document is window.document
        assert dialog.last_day_spin.value() == window.document.campaign.game_time.day
        buttons = dialog.findChildren(QPushButton)
        close = next(b for b in buttons if b.text() in ("Close", "&Close"))
        click(qtbot, close)

    dialog = window.recap_dialog(run=drive(qtbot, steps))
    assert dialog is not None and "Skirmish at the Salt Well" in dialog.preview.toPlainText()


@pytest.mark.usefixtures("bracketing")
def test_the_dialogs_are_translated(qtbot, fought):
    """Every word of the three dialogs goes through the translator (names are data)."""
    document, _encounter = fought
    names = campaign_names(document.campaign) | {p.name for p in BUILTIN_PACKAGES}
    dialogs: list[QDialog] = [NpcLinesDialog(document), QuickNpcDialog(document),
                              RecapDialog(document, Settings())]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        problems = untranslated(dialog, names)
        assert not problems, "\n".join(problems)


def test_a_bad_line_does_not_shrink_the_paste_box(qtbot, window):
    """QA: the problem list appeared under the paste box and shrank it while the referee
    typed, and it grew back once the line was fixed."""
    document = window.document
    assert document is not None
    dialog = NpcLinesDialog(document)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.lines_edit.setFocus()
    qtbot.keyClicks(dialog.lines_edit, LINES.splitlines()[1])
    qtbot.waitUntil(lambda: "ready" in dialog.summary_label.text())
    before = dialog.lines_edit.geometry()
    qtbot.keyClick(dialog.lines_edit, Qt.Key.Key_Return)
    qtbot.keyClicks(dialog.lines_edit, "Bob  XYZ")
    qtbot.waitUntil(lambda: dialog.problems_list.isVisible())
    assert dialog.lines_edit.geometry() == before
