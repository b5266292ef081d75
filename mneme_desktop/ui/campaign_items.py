"""The navigator's items on one open campaign: add, duplicate, delete, import, export.

Each change is one undoable step on the document (see :mod:`.commands`); copies come from
:mod:`mneme_desktop.domain.duplicate`. The window chooses the item and shows the result;
failures a referee can meet (an unreadable character file) go to the ``tell`` it gives.
Imported once the window has painted: it needs pydantic and storage.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mneme_desktop.domain import (
    AdversaryTemplate,
    Character,
    Characteristics,
    CharacterKind,
    Encounter,
    Thing,
    ThingTemplate,
    new_id,
)
from mneme_desktop.domain.duplicate import (
    duplicate_character,
    duplicate_encounter,
    duplicate_template,
    unique_name,
)
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.storage import CampaignSaveError, CharacterImportError
from mneme_desktop.ui import commands, thing_commands
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.session import Tell

if TYPE_CHECKING:
    from mneme_desktop.export.document import ExportTarget

from mneme_desktop.ui.i18n import tr

_CTX = "CampaignItems"


def blank_character(name: str, kind: CharacterKind) -> Character:
    """A new sheet: every characteristic 7, the middle of 2d6."""
    return Character(name=name, kind=kind, characteristics=Characteristics.model_validate(
        {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7}))


class CampaignItems:
    """Adds, copies and removes the campaign's characters, templates and encounters."""

    def __init__(self, document: CampaignDocument, tell: Tell) -> None:
        self.document = document
        self._tell = tell

    # --- adding ------------------------------------------------------------------------

    def add_character(self, kind: CharacterKind | str) -> Character:
        kind = CharacterKind(kind)
        taken = {c.name for c in self.document.campaign.characters}
        base = tr(_CTX, "New Character") if kind is CharacterKind.PLAYER else tr(_CTX, "New NPC")
        character = blank_character(unique_name(base, taken), kind)
        commands.add_character(self.document, character)
        return character

    def add_template(self) -> AdversaryTemplate:
        taken = {t.name for t in self.document.campaign.adversary_library}
        stats = blank_character(unique_name(tr(_CTX,
                "New Adversary"), taken), CharacterKind.ADVERSARY)
        template = AdversaryTemplate(stats=stats)
        commands.add_template(self.document, template)
        return template

    def add_encounter(self) -> Encounter:
        taken = {e.name for e in self.document.campaign.encounters}
        encounter = Encounter(name=unique_name(tr(_CTX, "New Encounter"), taken))
        commands.add_encounter(self.document, encounter)
        return encounter

    def add_thing(self) -> Thing:
        return thing_commands.add_new_thing(self.document)

    def add_thing_template(self) -> ThingTemplate:
        return thing_commands.add_new_thing_template(self.document)

    def duplicate(self, node: Node) -> str | None:
        """Put a copy of the node's item right after it; the copy's id, or None."""
        document = self.document
        campaign = document.campaign
        entity_id = node.entity_id
        if entity_id is None:
            return None
        if node.group is Group.THINGS:
            return thing_commands.duplicate_thing(document, entity_id).id
        if node.group is Group.THING_LIBRARY:
            return thing_commands.duplicate_thing_template(document, entity_id).id
        if node.group in (Group.PLAYERS, Group.NPCS):
            character = duplicate_character(campaign, entity_id)
            index = campaign.characters.index(campaign.character(entity_id)) + 1
            commands.add_character(document, character, index)
            return character.id
        if node.group is Group.LIBRARY:
            template = duplicate_template(campaign, entity_id)
            index = campaign.adversary_library.index(campaign.template(entity_id)) + 1
            commands.add_template(document, template, index)
            return template.id
        encounter = duplicate_encounter(campaign, entity_id)
        index = campaign.encounters.index(campaign.encounter(entity_id)) + 1
        commands.add_encounter(document, encounter, index)
        return encounter.id

    def delete(self, node: Node) -> None:
        """Remove the node's item (undo brings it back, and what it fought in)."""
        if node.entity_id is None:
            return
        if node.group is Group.THINGS:
            thing_commands.delete_thing(self.document, node.entity_id)
        elif node.group is Group.THING_LIBRARY:
            thing_commands.delete_thing_template(self.document, node.entity_id)
        elif node.group in (Group.PLAYERS, Group.NPCS):
            commands.remove_character(self.document, node.entity_id)
        elif node.group is Group.LIBRARY:
            commands.remove_template(self.document, node.entity_id)
        else:
            commands.remove_encounter(self.document, node.entity_id)

    def set_threshold_basis(self, basis: ThresholdBasis) -> None:
        if basis != self.document.threshold_basis:
            self.document.push(commands.ThresholdBasisCommand(self.document, basis))

    # --- characters in and out -----------------------------------------------------------

    def import_character(self, path: Path) -> Character | None:
        """Add the character in ``path`` (ours or CE CharacterGen); a new id if taken."""
        # Imported here: character files are not needed until the referee imports one.
        from mneme_desktop.storage.characters import import_character

        try:
            character = import_character(path)
        except CharacterImportError as exc:
            self._tell(tr(_CTX, "Cannot import character"), str(exc))
            return None
        if self.document.campaign.find_character(character.id) is not None:
            character.id = new_id()
        commands.add_character(self.document, character)
        return character

    def character_of(self, node: Node | None) -> Character | None:
        """The sheet a node stands for: a character's, or a template's stat block."""
        if node is None or node.entity_id is None:
            return None
        campaign = self.document.campaign
        if node.group in (Group.PLAYERS, Group.NPCS):
            return campaign.find_character(node.entity_id)
        if node.group is Group.LIBRARY:
            template = campaign.find_template(node.entity_id)
            return template.stats if template is not None else None
        return None

    def export_character(self, character: Character, path: Path) -> bool:
        from mneme_desktop.storage.characters import export_character

        try:
            export_character(character, path)
        except (CampaignSaveError, OSError) as exc:
            self._tell(tr(_CTX, "Could not export character"), str(exc))
            return False
        return True

    def export_target(self, node: Node | None, scope: str = "selection") -> ExportTarget:
        # Imported here: the export package is not needed until the referee exports.
        from mneme_desktop.export.document import ExportTarget
        """What Print and Export act on: the node's character or encounter, or all PCs."""
        if scope == "selection" and node is not None and node.entity_id is not None:
            if node.group is Group.ENCOUNTERS:
                return ExportTarget.referee_pack(node.entity_id)
            if node.group is Group.THINGS:
                return ExportTarget.thing(node.entity_id)
            if node.group is Group.THING_LIBRARY:
                template = self.document.campaign.find_thing_template(node.entity_id)
                if template is not None:
                    return ExportTarget.thing(template.stats.id)
            character = self.character_of(node)
            if character is not None:
                return ExportTarget.character(character.id)
        return ExportTarget.player_characters()
