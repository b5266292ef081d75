"""Undoable edits of the campaign's own catalogue entries, and taking an entry onto a sheet.

The campaign's entries are few, so each step replaces them as a whole
(:class:`~mneme_desktop.domain.edits.SetCatalogue`): one step, exactly reverted.
"""

from __future__ import annotations

from collections.abc import Callable

from mneme_desktop.domain.catalogue import CampaignCatalogue
from mneme_desktop.domain.edits import Patch, SetCatalogue
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument

__all__ = ["edit_catalogue"]


def edit_catalogue(document: CampaignDocument, text: str,
                   change: Callable[[CampaignCatalogue], object]) -> bool:
    """Apply ``change`` to a copy of the campaign's entries and push it as one step.

    What the domain refuses (two weapons of one name, bad dice) raises ValueError or
    pydantic's ValidationError before anything is pushed. False when nothing changed.
    """
    before = document.campaign.catalogue
    edited = before.model_copy(deep=True)
    change(edited)
    after = CampaignCatalogue.model_validate(edited.model_dump())
    if after == before:
        return False
    return push_patch(document, Patch(text, (SetCatalogue(before.model_copy(deep=True),
                                                          after),)))
