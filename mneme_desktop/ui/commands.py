"""Undoable edits. Every change a referee makes is one :class:`PatchCommand` on the
document's stack, holding a :class:`~mneme_desktop.domain.edits.Patch`.

Patches hold copies of what they replace, never live references the next edit could
change under them, so undo always restores exactly what was there. The functions below
keep the names views call; each builds a patch and pushes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand

from mneme_desktop.domain import AdversaryTemplate, Character, Encounter
from mneme_desktop.domain.edits import (
    ChangeSummary,
    Edit,
    InsertItem,
    ItemList,
    Patch,
    RemoveItem,
    ReplaceSheet,
    SetEncounterField,
    SetRulesOption,
)
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.ui.document import CampaignDocument, DocumentCommand
from mneme_desktop.ui.i18n import tr

_CTX = "Commands"

__all__ = [
    "MERGE_PATCH",
    "PatchCommand",
    "ThresholdBasisCommand",
    "add_character",
    "add_encounter",
    "add_template",
    "edit_character",
    "push_patch",
    "remove_character",
    "remove_encounter",
    "remove_template",
    "rename_encounter",
]

MERGE_PATCH = 1001
"""QUndoCommand id of mergeable steps (see :attr:`Patch.merge_key`)."""


class PatchCommand(DocumentCommand):
    """One step: its patches applied in order, undone in reverse, and one notice to the
    document after either. Consecutive steps with the same merge key are one (a drag, typing
    into one field): the patches fold into one when they can, else they are kept in order.
    """

    def __init__(self, document: CampaignDocument, patch: Patch) -> None:
        super().__init__(patch.text)
        self._document = document
        self._patches = [patch]
        self._applied = 0
        self._pushed = False
        self._held = False
        """``do`` kept its notice back: the step it merges into gives one for both."""

    @property
    def patch(self) -> Patch:
        return self._patches[-1]

    @property
    def summary(self) -> ChangeSummary:
        total = ChangeSummary()
        for patch in self._patches:
            total = total | patch.summary
        return total

    def do(self) -> None:
        campaign = self._document.campaign
        self._applied = 0
        for patch in self._patches:
            patch.apply(campaign)  # a patch that fails takes back its own part, then raises
            self._applied += 1
        first = not self._pushed
        self._pushed = True
        if first and self._merges_into_top():
            self._held = True  # one notice per gesture step, given by mergeWith
        else:
            self._document.announce(self.summary)

    def _merges_into_top(self) -> bool:
        """Whether QUndoStack.push will offer this new step to the step on top for a merge
        (Qt's own test: same id, not -1, the top not the clean state) with the same key."""
        if self.id() == -1:
            return False
        stack = self._document.undo_stack
        index = stack.index()
        if index == 0 or index == stack.cleanIndex():
            return False
        top = stack.command(index - 1)
        return isinstance(top, PatchCommand) and top is not self and top.id() == self.id() \
            and not top.isObsolete() and top.patch.merge_key == self.patch.merge_key

    def release_held_notice(self) -> None:
        if self._held:
            self._held = False
            self._document.announce(self.summary)

    def undo(self) -> None:
        """Take back the patches that were applied (all of them, unless ``do`` failed)."""
        campaign = self._document.campaign
        for patch in reversed(self._patches[: self._applied]):
            patch.revert(campaign)
        self._applied = 0
        self._document.announce(self.summary)

    def id(self) -> int:
        return MERGE_PATCH if self.patch.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PatchCommand) or other.isObsolete():
            return False
        if other.patch.merge_key is None or other.patch.merge_key != self.patch.merge_key:
            return False
        steps = [*self._patches, *other._patches]
        try:
            folded = steps[0]
            for step in steps[1:]:
                folded = folded.then(step)
        except ValueError:
            self._patches.extend(other._patches)
        else:
            # Both steps are applied; the campaign is made as the one folded step leaves it,
            # so the log keeps one line (the gesture's final value).
            folded.settle_fold(self._document.campaign, steps)
            self._patches = [folded]
        self._applied = len(self._patches)
        self.setText(other.text())
        other._held = False
        self._document.announce(self.summary)  # the gesture's one notice for this step
        return True


def push_patch(document: CampaignDocument, patch: Patch) -> bool:
    """Push ``patch`` as one undo step; a patch that changes nothing is not pushed."""
    if patch.empty:
        return False
    document.push(PatchCommand(document, patch))
    return True


def edit_character(document: CampaignDocument, character: Character, text: str,
                   change: Callable[[Character], Any], merge_key: str | None = None) -> Character:
    """Apply ``change`` to a copy of ``character`` and push it as one undoable edit.

    Validation errors from the domain model (pydantic ``ValidationError``, ``ValueError``)
    propagate before anything is pushed, so an impossible value never reaches the campaign.
    With a ``merge_key``, consecutive edits of the same sheet merge into one step.
    """
    edited = character.model_copy(deep=True)
    change(edited)
    edited = Character.model_validate(edited.model_dump())
    key = None if merge_key is None else f"{merge_key}\x1f{character.id}"
    sheet = ReplaceSheet(character.model_copy(deep=True), edited.model_copy(deep=True))
    patch = Patch(text, (sheet,), key)
    document.push(PatchCommand(document, patch))
    return edited


def _insert_item(document: CampaignDocument, where: ItemList,
                 item: Character | AdversaryTemplate | Encounter, index: int | None,
                 text: str) -> None:
    """Insert a copy of ``item`` into the campaign list ``where``; undo takes it out again."""
    at = len(getattr(document.campaign, where)) if index is None else index
    push_patch(document, Patch(text, (InsertItem(where, at, item.model_copy(deep=True)),)))


def _remove_item(document: CampaignDocument, where: ItemList, item_id: str, text: str) -> None:
    """Remove the item with ``item_id`` from the list ``where``; undo puts it back in place."""
    items: list[Character | AdversaryTemplate | Encounter] = getattr(document.campaign, where)
    index = next(i for i, x in enumerate(items) if x.id == item_id)
    saved = items[index].model_copy(deep=True)
    push_patch(document, Patch(f"{text} {saved.name}", (RemoveItem(where, index, saved),)))


def add_character(document: CampaignDocument, character: Character,
                  index: int | None = None) -> None:
    _insert_item(document, "characters", character, index, tr(_CTX, "Add {0}").format(
            character.name))


def remove_character(document: CampaignDocument, character_id: str) -> None:
    """Remove a character; encounters it fought in lose it too, and undo brings all back."""
    campaign = document.campaign
    character = campaign.character(character_id)
    probe = campaign.model_copy(deep=True)
    probe.remove_character(character_id)
    edits: list[Edit] = []
    for before, after in zip(campaign.encounters, probe.encounters, strict=True):
        for name in Encounter.model_fields:
            old, new = getattr(before, name), getattr(after, name)
            if old != new:
                edits.append(SetEncounterField(before.id, name, _copy(old), new))
    index = campaign.characters.index(character)
    edits.append(RemoveItem("characters", index, character.model_copy(deep=True)))
    push_patch(document, Patch(tr(_CTX, "Delete {0}").format(character.name), tuple(edits)))


def _copy(value: object) -> object:
    """A private copy of a field's value (a list of models too): edits never share live data."""
    if isinstance(value, list):
        return [_copy(x) for x in value]
    return value.model_copy(deep=True) if hasattr(value, "model_copy") else value


def add_template(document: CampaignDocument, template: AdversaryTemplate,
                 index: int | None = None) -> None:
    _insert_item(document, "adversary_library", template, index,
                 tr(_CTX, "Add template {0}").format(template.name))


def remove_template(document: CampaignDocument, template_id: str) -> None:
    _remove_item(document, "adversary_library", template_id, tr(_CTX, "Delete template"))


def add_encounter(document: CampaignDocument, encounter: Encounter,
                  index: int | None = None) -> None:
    _insert_item(document, "encounters", encounter, index, tr(_CTX, "Add encounter {0}").format(
            encounter.name))


def remove_encounter(document: CampaignDocument, encounter_id: str) -> None:
    _remove_item(document, "encounters", encounter_id, tr(_CTX, "Delete encounter"))


def rename_encounter(document: CampaignDocument, encounter_id: str, name: str) -> None:
    encounter = document.campaign.encounter(encounter_id)
    old = encounter.name
    Encounter.model_validate({**encounter.model_dump(), "name": name})
    push_patch(document, Patch(tr(_CTX, "Rename {0} to {1}").format(old, name),
                               (SetEncounterField(encounter_id, "name", old, name),)))


class ThresholdBasisCommand(PatchCommand):
    """Change the campaign's wound-threshold basis; every sheet's thresholds follow it."""

    def __init__(self, document: CampaignDocument, basis: ThresholdBasis) -> None:
        old = document.threshold_basis
        edit = SetRulesOption("threshold_basis", old, basis)
        super().__init__(document, Patch(tr(_CTX, "Wound thresholds: {0}").format(
                basis.value), (edit,)))
