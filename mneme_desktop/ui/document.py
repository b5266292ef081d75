"""The open campaign: the domain object, its file, its undo stack, and change signals.

Views never mutate the campaign directly: they push a
:class:`~mneme_desktop.ui.commands.PatchCommand` (see :mod:`.commands`); the command applies
its :class:`~mneme_desktop.domain.edits.Patch` and hands the patch's summary to
:meth:`CampaignDocument.announce`, which emits ``changed(summary)``: the one notice every
model and view refreshes from. One document per open campaign, one
``QUndoStack`` per document.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from mneme_desktop.domain import AdversaryTemplate, Campaign, Character, Encounter
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.storage.verified import VerifiedParts

log = logging.getLogger(__name__)


class EditRefusedError(ValueError):
    """A step the domain refused while it was being made; the campaign is as it was."""


class DocumentCommand(QUndoCommand):
    """A command whose failure leaves no trace: if ``do`` raises, whatever part of it
    happened is taken back with ``undo`` and the command marks itself obsolete, so Qt drops
    it from the stack instead of keeping a step that never happened (a later push or undo
    would otherwise act on a campaign the stack does not describe)."""

    failures: list[BaseException] | None = None

    def do(self) -> None:
        raise NotImplementedError

    def release_held_notice(self) -> None:
        """Tell the views now, if ``do`` held its notice back for a merge that did not
        happen (see :class:`~mneme_desktop.ui.commands.PatchCommand`)."""

    def redo(self) -> None:
        try:
            self.do()
        except Exception as exc:
            log.exception("Edit %r failed and was taken back", self.text())
            try:
                self.undo()
            except Exception:
                log.exception("Taking back the failed edit %r failed too", self.text())
            self.setObsolete(True)
            if self.failures is not None:
                self.failures.append(exc)


class CampaignDocument(QObject):
    """An open campaign and everything that says whether it is saved."""

    changed = Signal(object)
    """One step was done or undone: its :class:`ChangeSummary` as the views see it (see
    :meth:`ChangeSummary.reach`), once per step. Every model and view refreshes from this
    one notice (as Anki's views do from ``OpChanges``), so each works out its status once
    per step."""
    path_changed = Signal()
    modified_changed = Signal(bool)

    def __init__(self, campaign: Campaign, path: Path | None = None,
                 file_hash: str | None = None, parent: QObject | None = None,
                 verified: VerifiedParts | None = None) -> None:
        super().__init__(parent)
        self.campaign = campaign
        self.path = path
        self.file_hash = file_hash
        self.verified = verified if verified is not None else VerifiedParts()
        """What the load or the last save verified: a save validates only what changed."""
        self.undo_stack = QUndoStack(self)
        self._unsaved_without_undo = False
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    # --- state -------------------------------------------------------------------------

    def _clean_changed(self, _clean: bool) -> None:
        self.modified_changed.emit(self.modified)

    @property
    def modified(self) -> bool:
        return self._unsaved_without_undo or not self.undo_stack.isClean()

    def mark_unsaved(self) -> None:
        """For content that did not come from the file (a recovered autosave, a new campaign)."""
        self._unsaved_without_undo = True
        self.modified_changed.emit(True)

    def mark_saved(self, path: Path, file_hash: str | None) -> None:
        changed = path != self.path
        self.path = path
        self.file_hash = file_hash
        self._unsaved_without_undo = False
        self.undo_stack.setClean()
        self.modified_changed.emit(False)
        if changed:
            self.path_changed.emit()

    def forget_unsaved(self) -> None:
        """Treat the campaign as saved without writing it, for a close that must not ask
        (the smoke test): the caller has put the unsaved work in the autosave."""
        self.undo_stack.setClean()
        self._unsaved_without_undo = False

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else f"{self.campaign.name} (unsaved)"

    @property
    def threshold_basis(self) -> ThresholdBasis:
        return self.campaign.rules_options.threshold_basis

    def push(self, command: QUndoCommand) -> None:
        """Every edit goes through here, so it is undoable and marks the campaign modified.

        A :class:`DocumentCommand` that fails is not kept; a refusal by the domain (a
        ``ValueError``, pydantic's validation errors among them) is raised as
        :class:`EditRefusedError` with the reason, anything else as it was.
        """
        failures: list[BaseException] = []
        if isinstance(command, DocumentCommand):
            command.failures = failures
        self.undo_stack.push(command)
        if isinstance(command, DocumentCommand):
            command.release_held_notice()
        if failures:
            failure = failures[0]
            if isinstance(failure, ValueError):
                raise EditRefusedError(str(failure)) from failure
            raise failure

    # --- finding things ----------------------------------------------------------------

    def character(self, character_id: str) -> Character | None:
        """Any character sheet: a campaign character, a template's stat block, an instance."""
        return self.campaign.find_sheet(character_id)

    def template_of_stats(self, character_id: str) -> AdversaryTemplate | None:
        return next((t for t in self.campaign.adversary_library
                     if t.stats.id == character_id), None)

    def encounter(self, encounter_id: str | None) -> Encounter | None:
        """The encounter, or None when there is none by that id (or no id)."""
        return None if encounter_id is None else self.campaign.find_encounter(encounter_id)

    # --- telling the views -------------------------------------------------------------

    def announce(self, summary: ChangeSummary) -> None:
        """Emit ``changed`` once with what the step reached (sheets, the encounters that
        fight with them, every character on a rules change)."""
        self.changed.emit(summary.reach(self.campaign))

    def replace_character(self, new: Character) -> None:
        """Put ``new`` where the sheet with its id is, outside the undo stack (tests set a
        scene this way), and tell the views as a step would."""
        old = self.campaign.put_sheet(new)
        renamed = old.name != new.name or old.kind != new.kind
        self.announce(ChangeSummary(character_ids=frozenset({new.id}),
                                    structure_changed=renamed))
