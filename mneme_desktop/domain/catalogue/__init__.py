"""Catalogues a referee picks from: skills with specialties, weapons and armor.

``entries`` (the models, and the campaign's own entries stored in its file), ``builtin``
(the entries seeded from the Mneme CE chapters), ``lookup`` (the merged :class:`Catalogue`
a campaign plays with).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mneme_desktop.domain.catalogue import builtin
from mneme_desktop.domain.catalogue.builtin import builtin_source
from mneme_desktop.domain.catalogue.entries import CampaignCatalogue, SkillEntry, entry_key
from mneme_desktop.domain.catalogue.lookup import (
    Catalogue,
    CatalogueEntry,
    CatalogueKind,
    Origin,
    UnknownSkillError,
    catalogue_for,
)

if TYPE_CHECKING:
    from mneme_desktop.domain.catalogue.builtin import (
        BUILTIN_ARMOR,
        BUILTIN_SKILLS,
        BUILTIN_WEAPONS,
    )


def __getattr__(name: str) -> Any:
    """The built-in lists, made on first use (see :mod:`.builtin`)."""
    if name in ("BUILTIN_ARMOR", "BUILTIN_SKILLS", "BUILTIN_WEAPONS"):
        return getattr(builtin, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILTIN_ARMOR",
    "BUILTIN_SKILLS",
    "BUILTIN_WEAPONS",
    "CampaignCatalogue",
    "Catalogue",
    "CatalogueEntry",
    "CatalogueKind",
    "Origin",
    "SkillEntry",
    "UnknownSkillError",
    "builtin_source",
    "catalogue_for",
    "entry_key",
]
