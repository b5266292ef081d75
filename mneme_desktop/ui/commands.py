"""Undoable edits. Every change a referee makes is one of these on the document's stack.

Commands hold copies of what they replace, never live references the next edit could
change under them, so undo always restores exactly what was there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand

from mneme_desktop.domain import AdversaryTemplate, Campaign, Character, Encounter
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.ui.document import CampaignDocument, DocumentCommand

# Ids for QUndoCommand.mergeWith: consecutive edits of one kind merge into one step.
MERGE_CHARACTER_EDIT = 1001


class EditCharacterCommand(DocumentCommand):
    """Replace a character sheet with an edited copy (the caller validated the copy).

    With a ``merge_key``, consecutive edits of the same thing (dragging the HP bar,
    typing into one spin box) merge into one undo step.
    """

    def __init__(self, document: CampaignDocument, before: Character, after: Character,
                 text: str, merge_key: str | None = None) -> None:
        super().__init__(text)
        if before.id != after.id:
            raise ValueError("an edit must keep the character's id")
        self._document = document
        self._before = before.model_copy(deep=True)
        self._after = after.model_copy(deep=True)
        self._merge_key = merge_key

    @property
    def character_id(self) -> str:
        return self._after.id

    def do(self) -> None:
        self._document.replace_character(self._after.model_copy(deep=True))

    def undo(self) -> None:
        self._document.replace_character(self._before.model_copy(deep=True))

    def id(self) -> int:
        return MERGE_CHARACTER_EDIT if self._merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCharacterCommand):
            return False
        if other._merge_key != self._merge_key or other.character_id != self.character_id:
            return False
        self._after = other._after
        self.setText(other.text())
        return True


def edit_character(document: CampaignDocument, character: Character, text: str,
                   change: Callable[[Character], Any], merge_key: str | None = None) -> Character:
    """Apply ``change`` to a copy of ``character`` and push it as one undoable edit.

    Validation errors from the domain model (pydantic ``ValidationError``, ``ValueError``)
    propagate before anything is pushed, so an impossible value never reaches the campaign.
    """
    edited = character.model_copy(deep=True)
    change(edited)
    edited = Character.model_validate(edited.model_dump())
    document.push(EditCharacterCommand(document, character, edited, text, merge_key))
    return edited


class CampaignChangeCommand(DocumentCommand):
    """A change described by a pair of functions on the campaign and what it touched.

    ``apply`` and ``revert`` must be exact inverses; ``notify`` tells the document which
    signals to emit after either.
    """

    def __init__(self, document: CampaignDocument, text: str,
                 apply: Callable[[Campaign], None], revert: Callable[[Campaign], None],
                 notify: Callable[[CampaignDocument], None]) -> None:
        super().__init__(text)
        self._document = document
        self._apply = apply
        self._revert = revert
        self._notify = notify

    def do(self) -> None:
        self._apply(self._document.campaign)
        self._notify(self._document)

    def undo(self) -> None:
        self._revert(self._document.campaign)
        self._notify(self._document)


def _structure(document: CampaignDocument) -> None:
    document.structure_changed.emit()


def _insert_item(document: CampaignDocument, field: str,
                 item: Character | AdversaryTemplate | Encounter, index: int | None,
                 text: str) -> None:
    """Insert a copy of ``item`` into the campaign list ``field``; undo takes it out again."""
    saved = item.model_copy(deep=True)
    where = len(getattr(document.campaign, field)) if index is None else index

    def apply(campaign: Campaign) -> None:
        getattr(campaign, field).insert(where, saved.model_copy(deep=True))

    def revert(campaign: Campaign) -> None:
        setattr(campaign, field, [x for x in getattr(campaign, field) if x.id != saved.id])

    document.push(CampaignChangeCommand(document, text, apply, revert, _structure))


def _remove_item(document: CampaignDocument, field: str, item_id: str, text: str) -> None:
    """Remove the item with ``item_id`` from the list ``field``; undo puts it back in place."""
    items = getattr(document.campaign, field)
    index = next(i for i, x in enumerate(items) if x.id == item_id)
    saved = items[index].model_copy(deep=True)

    def apply(campaign: Campaign) -> None:
        setattr(campaign, field, [x for x in getattr(campaign, field) if x.id != saved.id])

    def revert(campaign: Campaign) -> None:
        getattr(campaign, field).insert(index, saved.model_copy(deep=True))

    document.push(CampaignChangeCommand(document, f"{text} {saved.name}", apply, revert,
                                        _structure))


def add_character(document: CampaignDocument, character: Character,
                  index: int | None = None) -> None:
    _insert_item(document, "characters", character, index, f"Add {character.name}")


def remove_character(document: CampaignDocument, character_id: str) -> None:
    """Remove a character; encounters it fought in lose it too, and undo brings all back."""
    campaign_now = document.campaign
    name = campaign_now.character(character_id).name
    encounters_before = [e.model_copy(deep=True) for e in campaign_now.encounters]
    characters_before = [c.model_copy(deep=True) for c in campaign_now.characters]

    def apply(campaign: Campaign) -> None:
        campaign.remove_character(character_id)

    def revert(campaign: Campaign) -> None:
        campaign.characters = [c.model_copy(deep=True) for c in characters_before]
        campaign.encounters = [e.model_copy(deep=True) for e in encounters_before]

    def notify(doc: CampaignDocument) -> None:
        doc.structure_changed.emit()
        for encounter in doc.campaign.encounters:
            doc.encounter_changed.emit(encounter.id)

    document.push(CampaignChangeCommand(document, f"Delete {name}", apply, revert, notify))


def add_template(document: CampaignDocument, template: AdversaryTemplate,
                 index: int | None = None) -> None:
    _insert_item(document, "adversary_library", template, index,
                 f"Add template {template.name}")


def remove_template(document: CampaignDocument, template_id: str) -> None:
    _remove_item(document, "adversary_library", template_id, "Delete template")


def add_encounter(document: CampaignDocument, encounter: Encounter,
                  index: int | None = None) -> None:
    _insert_item(document, "encounters", encounter, index, f"Add encounter {encounter.name}")


def remove_encounter(document: CampaignDocument, encounter_id: str) -> None:
    _remove_item(document, "encounters", encounter_id, "Delete encounter")


def rename_encounter(document: CampaignDocument, encounter_id: str, name: str) -> None:
    encounter = document.campaign.encounter(encounter_id)
    old = encounter.name
    Encounter.model_validate({**encounter.model_dump(), "name": name})

    def apply(campaign: Campaign) -> None:
        campaign.encounter(encounter_id).name = name

    def revert(campaign: Campaign) -> None:
        campaign.encounter(encounter_id).name = old

    def notify(doc: CampaignDocument) -> None:
        doc.structure_changed.emit()
        doc.encounter_changed.emit(encounter_id)

    document.push(CampaignChangeCommand(document, f"Rename {old} to {name}", apply, revert,
                                        notify))


class ThresholdBasisCommand(CampaignChangeCommand):
    """Change the campaign's wound-threshold basis; every sheet's thresholds follow it."""

    def __init__(self, document: CampaignDocument, basis: ThresholdBasis) -> None:
        old = document.threshold_basis

        def apply(campaign: Campaign) -> None:
            campaign.rules_options.threshold_basis = basis

        def revert(campaign: Campaign) -> None:
            campaign.rules_options.threshold_basis = old

        super().__init__(document, f"Wound thresholds: {basis.value}", apply, revert,
                         _rules_and_every_character)


def _rules_and_every_character(document: CampaignDocument) -> None:
    document.rules_changed.emit()
    for character in document.campaign.characters:
        document.character_changed.emit(character.id)
