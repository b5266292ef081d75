"""Long session: a seeded random walk of 3,000 referee actions through the real window
(add and edit characters, damage with the HP bar keys, heal in the planner, next turn in a
fight, undo, redo, save, reopen) raises nothing, keeps the campaign valid, and undoing the
whole undo stack gives back exactly the campaign as it was at the last (re)open.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Campaign, CharacterKind
from mneme_desktop.paths import AppPaths
from mneme_desktop.storage import build_sample_campaign, load_campaign, save_campaign
from mneme_desktop.ui.main_window import MainWindow, Page

ACTIONS = 3000
SEED = 20261209
ROSTER = 14
"""Characters come and go around this many, so the 3,000th action costs what the first did."""
Button = QMessageBox.StandardButton
HP_KEYS = (Qt.Key.Key_Plus, Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_PageUp,
           Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_Right, Qt.Key.Key_Left)

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    paths = AppPaths.under(tmp_path / "appdirs").ensure()
    context = AppContext.create(paths)
    win = MainWindow(context)
    win.autosave_timer.stop()  # the walk is about edits; autosave has its own tests
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.discard_and_close()  # not added to qtbot: closing it would ask to save
    win.deleteLater()


class Walk:
    """The referee: each method is one action done through the window and its views."""

    def __init__(self, qtbot: Any, window: MainWindow, path: Path, rng: random.Random) -> None:
        self.qtbot, self.window, self.path, self.rng = qtbot, window, path, rng
        self.baseline: dict[str, Any] = {}
        self.reopens = self.saves = 0
        self.counts: dict[str, int] = {}

    # --- helpers ---------------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        assert self.window.document is not None
        return self.window.document.campaign

    def reset_baseline(self) -> None:
        self.baseline = self.campaign.model_dump()

    def show_some_character(self) -> bool:
        characters = self.campaign.characters
        if not characters:
            return False
        shown = self.campaign.find_character(self.window.sheet_view.character_id() or "")
        # A referee mostly keeps working on the sheet in front of them.
        character = shown if shown is not None and self.rng.random() < 0.7 else \
            self.rng.choice(characters)
        assert self.window.select_entity(character.id)
        if self.window.stack.currentIndex() != Page.SHEET:  # the same row, another page
            self.window.sheet_page_action.trigger()
        assert self.window.stack.currentIndex() == Page.SHEET
        assert self.window.sheet_view.character_id() == character.id
        return True

    # --- actions ---------------------------------------------------------------------------

    def add_character(self) -> None:
        if len(self.campaign.characters) >= ROSTER:
            self.delete()
            return
        kind = self.rng.choice([CharacterKind.PLAYER, CharacterKind.NPC])
        assert self.window.add_character(kind) is not None

    def select(self) -> None:
        self.show_some_character()

    def step_characteristic(self) -> None:
        if not self.show_some_character():
            return
        sheet = self.window.sheet_view
        spin = sheet.spin_boxes[self.rng.choice(["str", "dex", "end", "int", "edu", "soc"])]
        spin.setFocus()
        key = self.rng.choice([Qt.Key.Key_Up, Qt.Key.Key_Down])
        for _ in range(self.rng.randint(1, 3)):
            self.qtbot.keyClick(spin, key)
        spin.clearFocus()  # finishes the edit, like tabbing away

    def hp_bar_keys(self) -> None:
        if not self.show_some_character():
            return
        bar = self.window.sheet_view.hp_bar
        bar.setFocus()
        for _ in range(self.rng.randint(1, 4)):
            self.qtbot.keyClick(bar, self.rng.choice(HP_KEYS))

    def rename(self) -> None:
        if not self.show_some_character():
            return
        edit = self.window.sheet_view.name_edit
        edit.setFocus()
        edit.selectAll()
        self.qtbot.keyClicks(edit, f"Walker {self.rng.randrange(1000)}")
        self.qtbot.keyClick(edit, Qt.Key.Key_Return)

    def add_or_remove_skill(self) -> None:
        if not self.show_some_character():
            return
        sheet = self.window.sheet_view
        if self.rng.random() < 0.6 or sheet.skills_model.rowCount() == 0:
            sheet.add_skill_button.click()
            sheet.skills_view.closePersistentEditor(sheet.skills_view.currentIndex())
            sheet.setFocus()
        else:
            sheet.skills_view.selectRow(self.rng.randrange(sheet.skills_model.rowCount()))
            sheet.remove_skill_button.click()

    def heal(self) -> None:
        injured = [c for c in self.campaign.characters if c.damage > 0]
        if not injured:
            return
        assert self.window.select_entity(self.rng.choice(injured).id)
        self.window.show_page(Page.HEALING)
        healing = self.window.healing_view
        healing.advance_days_spin.setValue(self.rng.randint(1, 5))
        healing.advance_button.click()

    def next_turn(self) -> None:
        encounters = [e for e in self.campaign.encounters if e.combatants]
        if not encounters:
            return
        encounter = self.rng.choice(encounters)
        assert self.window.select_entity(encounter.id)
        view = self.window.encounter_view
        if not encounter.started:
            view.start_encounter()
            return
        view.turn_view.setFocus()
        self.qtbot.keyClick(view.turn_view, Qt.Key.Key_N)

    def undo(self) -> None:
        self.window.undo_action.trigger()

    def redo(self) -> None:
        self.window.redo_action.trigger()

    def delete(self) -> None:
        if not self.show_some_character():
            return
        self.window.queue_dialog_answer(Button.Yes)
        self.window.delete_selected()
        assert not self.window._dialog_answers

    def duplicate_or_delete(self) -> None:
        if len(self.campaign.characters) >= ROSTER or self.rng.random() < 0.5:
            self.delete()
        elif self.show_some_character():
            self.window.duplicate_action.trigger()

    def save(self) -> None:
        assert self.window.save()
        self.saves += 1
        assert not self.window.document.modified

    def reopen(self) -> None:
        self.save()
        self.window.new_campaign()
        assert self.window.open_path(self.path)
        self.reopens += 1
        assert self.window.document.undo_stack.count() == 0
        assert self.campaign.model_dump() == load_campaign(self.path).model_dump()
        self.reset_baseline()

    def plan(self) -> list[tuple[Callable[[], None], int]]:
        return [
            (self.add_character, 4), (self.select, 8), (self.step_characteristic, 14),
            (self.hp_bar_keys, 20), (self.rename, 3), (self.add_or_remove_skill, 5),
            (self.heal, 2), (self.next_turn, 16), (self.undo, 12), (self.redo, 7),
            (self.duplicate_or_delete, 3), (self.save, 1), (self.reopen, 1),
        ]


@pytest.mark.slow
def test_3000_random_actions_then_undo_everything(qtbot, window: MainWindow,
                                                  tmp_path: Path) -> None:
    path = tmp_path / "session.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    assert window.open_path(path)
    walk = Walk(qtbot, window, path, random.Random(SEED))
    walk.reset_baseline()
    plan = walk.plan()
    actions, weights = [a for a, _ in plan], [w for _, w in plan]
    done = 0
    while done < ACTIONS:
        action = walk.rng.choices(actions, weights)[0]
        # Actions come in short bursts (a few turns in a row, a few keys on one sheet).
        for _ in range(min(walk.rng.randint(1, 4), ACTIONS - done)):
            walk.counts[action.__name__] = walk.counts.get(action.__name__, 0) + 1
            action()
            done += 1
            if done % 100 == 0:
                Campaign.model_validate(walk.campaign.model_dump())

    Campaign.model_validate(walk.campaign.model_dump())
    stack = window.document.undo_stack
    assert stack.count() > 0
    while stack.canUndo():
        window.undo_action.trigger()
    assert walk.campaign.model_dump() == walk.baseline
    # Redo all of it and the campaign is valid again; then it saves and reopens.
    while stack.canRedo():
        window.redo_action.trigger()
    Campaign.model_validate(walk.campaign.model_dump())
    walk.reopen()

    assert walk.reopens >= 10 and walk.saves >= 20, walk.counts
    assert all(walk.counts.get(a.__name__, 0) >= 20 for a in actions
               if a not in (walk.save, walk.reopen)), walk.counts
