"""JSON export: the domain objects themselves, dumped by pydantic.

One character is written in the storage layer's importable character format
(``"format": "mneme-character"``), so ``mneme-desktop import`` reads it back into any
campaign. Several characters, a vehicle or object, or a referee pack, are written as
``"format": "mneme-export"``: the characters, adversary templates, things (vehicles and
objects, with their templates) and encounter exactly as a campaign file holds them, at the
same schema version. Derived numbers (HP, thresholds) are not stored, as in a campaign: the
rules core recomputes them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.domain import Campaign, Character, CharacterKind
from mneme_desktop.domain.campaign import SCHEMA_VERSION
from mneme_desktop.export.document import ExportTarget, TargetKind
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.files import write_file_atomically
from mneme_desktop.storage.characters import character_to_json

__all__ = ["EXPORT_FORMAT", "export_json", "write_json"]

EXPORT_FORMAT: Final = "mneme-export"


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json")


def _document(campaign: Campaign, contents: str, **body: Any) -> bytes:
    document = {
        "format": EXPORT_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "exported_by": f"{APP_NAME} {__version__}",
        "campaign": campaign.name,
        "game_time": _dump(campaign.game_time),
        "rules_options": _dump(campaign.rules_options),
        "contents": contents,
        **body,
    }
    return json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"


def _pack(campaign: Campaign, encounter_id: str) -> bytes:
    encounter = campaign.find_encounter(encounter_id)
    if encounter is None:
        raise ExportError(f"The encounter to export is no longer in '{campaign.name}'.")
    referenced: list[Character] = []
    template_ids: list[str] = []
    for combatant in encounter.combatants:
        if combatant.character_id is not None:
            character = campaign.character(combatant.character_id)
            if character not in referenced:
                referenced.append(character)
        character = campaign.combatant_character(combatant)
        if character.template_id and character.template_id not in template_ids:
            template_ids.append(character.template_id)
    templates = [t for t in (campaign.find_template(i) for i in template_ids) if t is not None]
    things = [t for t in (campaign.find_campaign_thing(e.thing_id or "")
                          for e in encounter.things) if t is not None]
    thing_template_ids = {campaign.encounter_thing(e).template_id for e in encounter.things}
    thing_templates = [t for t in campaign.thing_library if t.id in thing_template_ids]
    return _document(
        campaign,
        "referee-pack",
        encounter=_dump(encounter),
        characters=[_dump(character) for character in referenced],
        adversary_templates=[_dump(template) for template in templates],
        things=[_dump(thing) for thing in things],
        thing_templates=[_dump(template) for template in thing_templates],
    )


def _thing(campaign: Campaign, thing_id: str) -> bytes:
    """One vehicle or object as stored (HP and armor as written with their scales, damage
    in plain points), with its template if it came from one."""
    thing = campaign.find_thing(thing_id)
    if thing is None:
        raise ExportError(f"The vehicle or object to export is no longer in '{campaign.name}'.")
    template = campaign.find_thing_template(thing.template_id or "")
    return _document(campaign, "thing", thing=_dump(thing),
                     thing_templates=[_dump(template)] if template is not None else [])


def export_json(campaign: Campaign, target: ExportTarget) -> bytes:
    """The JSON bytes for ``target`` (UTF-8, indented, non-ASCII kept readable)."""
    if target.kind is TargetKind.CHARACTER:
        assert target.character_id is not None
        character = campaign.find_sheet(target.character_id)
        if character is None:
            raise ExportError(f"The character to export is no longer in '{campaign.name}'.")
        return character_to_json(character)
    if target.kind is TargetKind.THING:
        assert target.thing_id is not None
        return _thing(campaign, target.thing_id)
    if target.kind is TargetKind.PLAYER_CHARACTERS:
        players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
        if not players:
            raise ExportError(f"'{campaign.name}' has no player characters to export.")
        return _document(campaign, "characters", characters=[_dump(c) for c in players])
    assert target.encounter_id is not None
    return _pack(campaign, target.encounter_id)


def write_json(campaign: Campaign, target: ExportTarget, path: Path) -> None:
    """Write the JSON to ``path`` atomically; ExportError with a readable reason on failure."""
    write_file_atomically(path, export_json(campaign, target))
