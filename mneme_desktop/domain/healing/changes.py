"""What a healing step returns: a :class:`~mneme_desktop.domain.edits.Patch` of the one edit
vocabulary, and beside it the notices the referee must act on.

Healing never mutates the campaign it reads: it returns an :class:`Outcome` whose patch
applies and reverts exactly, so the UI can put a whole advance on the undo stack at once.
A :class:`Notice` changes nothing, so it is said beside the patch, never put in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mneme_desktop.domain.edits import Edit, Patch, ReplaceSheet

__all__ = ["Notice", "Outcome"]


@dataclass(frozen=True)
class Notice:
    """Something the referee must do that the clock cannot (a dying roll every round)."""

    text: str
    character_id: str | None = None

    @property
    def description(self) -> str:
        return self.text


@dataclass(frozen=True)
class Outcome:
    """A healing step: the patch that makes it, and what to tell the referee."""

    patch: Patch
    notices: tuple[Notice, ...] = ()

    @classmethod
    def of(cls, text: str, edits: Iterable[Edit], notices: Iterable[Notice] = ()) -> Outcome:
        return cls(Patch(text, tuple(edits)), tuple(notices))

    @property
    def edits(self) -> tuple[Edit, ...]:
        return self.patch.edits

    @property
    def empty(self) -> bool:
        return self.patch.empty and not self.notices

    @property
    def sheets(self) -> tuple[ReplaceSheet, ...]:
        """Each character's sheet before and after, with the lines saying what happened."""
        return tuple(e for e in self.patch.edits if isinstance(e, ReplaceSheet))

    @property
    def said(self) -> list[str]:
        """What happened to whom, then the notices: the report shown after the step."""
        return [s.description for s in self.sheets] + [n.text for n in self.notices]
