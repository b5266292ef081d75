"""Adversary templates: stat blocks in the campaign's library that encounters copy from."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mneme_desktop.domain.character import Character, CharacterKind, new_id

__all__ = ["AdversaryTemplate"]


class AdversaryTemplate(BaseModel):
    """A reusable adversary ("Raider", "Guard Dog"); encounters make numbered instances.

    The stat block is an ordinary :class:`Character` (kind adversary), so instances are
    characters like any other and every rule reads them the same way.
    """

    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    stats: Character
    tags: list[str] = Field(default_factory=list)

    @property
    def name(self) -> str:
        return self.stats.name

    def make_instance(self, number: int) -> Character:
        """A fresh, unhurt copy named "Raider 3", remembering which template it came from."""
        if number < 1:
            raise ValueError(f"instance numbers start at 1, not {number}")
        data = self.stats.model_dump()
        data.update(
            id=new_id(),
            name=f"{self.stats.name} {number}",
            kind=CharacterKind.ADVERSARY,
            template_id=self.id,
            damage=0,
            damage_history=[],
            conditions=[],
            recovery=None,
        )
        # Validated, not copied: a copy would skip the checks a later load will make.
        return Character.model_validate(data)
