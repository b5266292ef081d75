"""The reversible changes healing makes to a campaign: one undo step is a list of them.

Healing never mutates the campaign it reads: it returns :class:`CampaignChange` objects
that apply and revert exactly, so the UI can put a whole advance on the undo stack at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.character import Character
from mneme_desktop.domain.gametime import GameTime

__all__ = [
    "CampaignChange",
    "CharacterChange",
    "ClockChange",
    "JournalChange",
    "Notice",
    "apply_changes",
    "revert_changes",
]


class CampaignChange(Protocol):
    """One reversible change: ``apply`` then ``revert`` leaves the campaign as it was."""

    @property
    def description(self) -> str: ...

    def apply(self, campaign: Campaign) -> None: ...

    def revert(self, campaign: Campaign) -> None: ...


@dataclass(frozen=True)
class ClockChange:
    """The campaign clock moves from ``before`` to ``after``."""

    before: GameTime
    after: GameTime

    @property
    def description(self) -> str:
        return f"Clock: {self.before.label} → {self.after.label}"

    def apply(self, campaign: Campaign) -> None:
        campaign.game_time = self.after

    def revert(self, campaign: Campaign) -> None:
        campaign.game_time = self.before


def _replace(campaign: Campaign, character: Character) -> None:
    for index, old in enumerate(campaign.characters):
        if old.id == character.id:
            campaign.characters[index] = character.model_copy(deep=True)
            return
    raise KeyError(f"no character {character.id!r} in campaign {campaign.name!r}")


@dataclass(frozen=True)
class CharacterChange:
    """A campaign character's sheet replaced by ``after``; ``lines`` say what happened."""

    before: Character
    after: Character
    lines: tuple[str, ...]

    @property
    def character_id(self) -> str:
        return self.after.id

    @property
    def description(self) -> str:
        return f"{self.after.name}: " + "; ".join(self.lines)

    def apply(self, campaign: Campaign) -> None:
        _replace(campaign, self.after)

    def revert(self, campaign: Campaign) -> None:
        _replace(campaign, self.before)


@dataclass(frozen=True)
class JournalChange:
    """An entry added to the campaign journal."""

    entry: JournalEntry

    @property
    def description(self) -> str:
        return f"Journal: {self.entry.title}"

    def apply(self, campaign: Campaign) -> None:
        campaign.journal.append(self.entry.model_copy(deep=True))

    def revert(self, campaign: Campaign) -> None:
        campaign.journal = [e for e in campaign.journal if e.id != self.entry.id]


@dataclass(frozen=True)
class Notice:
    """Something the referee must do that the clock cannot (a dying roll every round)."""

    text: str
    character_id: str | None = None

    @property
    def description(self) -> str:
        return self.text

    def apply(self, campaign: Campaign) -> None:
        """Nothing to change: a notice is only said."""

    def revert(self, campaign: Campaign) -> None:
        """Nothing to change back."""


def apply_changes(campaign: Campaign, changes: Sequence[CampaignChange]) -> None:
    for change in changes:
        change.apply(campaign)


def revert_changes(campaign: Campaign, changes: Sequence[CampaignChange]) -> None:
    for change in reversed(changes):
        change.revert(campaign)
