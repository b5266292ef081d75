"""Undoable encounter steps: a :class:`~mneme_desktop.domain.combat.EncounterPatch` on the stack.

A patch holds only what its step changed (a few fields, the sheets it touched, its log
entries), so pushing, undoing and redoing a turn in a large fight never copies the campaign.
After either direction the document is told exactly which characters changed, then that the
encounter changed (views diff their rows), then whether the clock moved.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from mneme_desktop.domain.combat import EncounterPatch
from mneme_desktop.ui.document import CampaignDocument, DocumentCommand

__all__ = ["MERGE_ENCOUNTER_EDIT", "EncounterCommand", "push_patch"]

MERGE_ENCOUNTER_EDIT = 1101
"""QUndoCommand id shared by mergeable encounter steps (see :attr:`EncounterPatch.merge_key`)."""


class EncounterCommand(DocumentCommand):
    """One referee step in a fight; consecutive steps with the same merge key are one."""

    def __init__(self, document: CampaignDocument, patch: EncounterPatch) -> None:
        super().__init__(patch.text)
        self._document = document
        self._patches = [patch]

    @property
    def patch(self) -> EncounterPatch:
        return self._patches[-1]

    def do(self) -> None:
        campaign = self._document.campaign
        for patch in self._patches:
            patch.apply(campaign)
        self._notify()

    def undo(self) -> None:
        campaign = self._document.campaign
        for patch in reversed(self._patches):
            patch.revert(campaign)
        self._notify()

    def id(self) -> int:
        return MERGE_ENCOUNTER_EDIT if self.patch.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EncounterCommand):
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
            # Both steps are applied; put the campaign back before them and apply the one
            # folded step, so the log keeps one line (the gesture's final value).
            campaign = self._document.campaign
            for patch in reversed(steps):
                patch.revert(campaign)
            self._patches = [folded]
            folded.apply(campaign)
            self._notify()
        self.setText(other.text())
        return True

    def _notify(self) -> None:
        document = self._document
        characters: set[str] = set()
        time_changed = False
        for patch in self._patches:
            characters |= patch.character_ids
            time_changed = time_changed or patch.time_changed
        for character_id in sorted(characters):
            document.character_changed.emit(character_id)
        document.encounter_changed.emit(self.patch.encounter_id)
        if time_changed:
            document.time_changed.emit()


def push_patch(document: CampaignDocument, patch: EncounterPatch) -> bool:
    """Push ``patch`` as one undo step; a patch that changes nothing is not pushed."""
    if patch.empty:
        return False
    document.push(EncounterCommand(document, patch))
    return True
