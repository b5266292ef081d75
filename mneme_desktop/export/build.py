"""The whole document for an export target, its text made safe to print."""

from __future__ import annotations

from mneme_desktop.domain import Campaign, Character, CharacterKind
from mneme_desktop.export.character_sheet import character_sheet
from mneme_desktop.export.document import (
    ExportDocument,
    ExportOptions,
    ExportTarget,
    Part,
    TargetKind,
)
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.referee_pack import adversary_cards, encounter_roster
from mneme_desktop.export.safe_text import sanitised
from mneme_desktop.export.thing_sheet import thing_cards, thing_sheet

__all__ = [
    "build_document",
]


def _player_characters(campaign: Campaign) -> list[Character]:
    return [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]


def build_document(
    campaign: Campaign, target: ExportTarget, options: ExportOptions
) -> ExportDocument:
    """The printable document for ``target``, its text made safe to print (:func:`sanitised`);
    ExportError when there is nothing to print."""
    return sanitised(_build_document(campaign, target, options))


def _build_document(
    campaign: Campaign, target: ExportTarget, options: ExportOptions
) -> ExportDocument:
    if target.kind is TargetKind.CHARACTER:
        assert target.character_id is not None
        character = campaign.find_sheet(target.character_id)
        if character is None:
            raise ExportError(f"The character to export is no longer in '{campaign.name}'.")
        return ExportDocument(f"{character.name} · {campaign.name}",
                              (character_sheet(character, campaign, options),))
    if target.kind is TargetKind.THING:
        assert target.thing_id is not None
        thing = campaign.find_thing(target.thing_id)
        if thing is None:
            raise ExportError(f"The vehicle or object to export is no longer in "
                              f"'{campaign.name}'.")
        return ExportDocument(f"{thing.name} · {campaign.name}",
                              (thing_sheet(thing, campaign, options),))
    if target.kind is TargetKind.PLAYER_CHARACTERS:
        players = _player_characters(campaign)
        if not players:
            raise ExportError(f"'{campaign.name}' has no player characters to export.")
        sheets = tuple(character_sheet(c, campaign, options) for c in players)
        return ExportDocument(f"Player characters · {campaign.name}", sheets)
    assert target.encounter_id is not None
    encounter = campaign.find_encounter(target.encounter_id)
    if encounter is None:
        raise ExportError(f"The encounter to export is no longer in '{campaign.name}'.")
    parts: list[Part] = [encounter_roster(campaign, encounter, options)]
    cards = adversary_cards(campaign, encounter, options)
    if cards.cards:
        parts.append(cards)
    if encounter.things:  # the vehicles and objects taking part, a card each
        parts.append(thing_cards(campaign, encounter, options))
    return ExportDocument(f"Referee pack: {encounter.name} · {campaign.name}", tuple(parts))
