"""NPCs in and out of the campaign in bulk: pasted one-line NPCs and quick NPCs added as
one undoable step, and the one-line form of what the navigator has chosen, for copying.

The reading and writing are :mod:`mneme_desktop.domain.npc_line`'s; this module knows the
document (one step) and the navigator (what "the selection" means).
"""

from __future__ import annotations

from collections.abc import Sequence

from mneme_desktop.domain import Campaign, Character, CharacterKind
from mneme_desktop.domain.catalogue import catalogue_for
from mneme_desktop.domain.duplicate import unique_name
from mneme_desktop.domain.edits import Edit, InsertItem, Patch
from mneme_desktop.domain.npc_line import KnownSkills, as_template, format_npc_lines
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.navigator_nodes import Group, Node

_CTX = "LibraryCommands"

__all__ = ["add_npcs", "known_skills", "lines_for_node"]


def known_skills(campaign: Campaign) -> KnownSkills:
    """The skills a pasted or generated NPC may have: the campaign's catalogue (built-in
    and its own entries), and any skill a sheet of this campaign already holds."""
    catalogue = catalogue_for(campaign.catalogue)
    held = (skill.name for sheet in _sheets(campaign) for skill in sheet.skills)
    return KnownSkills([*(entry.name for entry in catalogue.skills), *held])


def _sheets(campaign: Campaign) -> list[Character]:
    return [*campaign.characters, *(t.stats for t in campaign.adversary_library)]


def add_npcs(document: CampaignDocument, characters: Sequence[Character], *,
             as_templates: bool) -> list[str]:
    """Add ``characters`` as NPCs (or as adversary templates) in one undo step; names
    already taken get a number. Returns the new items' ids (a template's, not its stats')."""
    campaign = document.campaign
    if as_templates:
        taken = [t.name for t in campaign.adversary_library]
    else:
        taken = [c.name for c in campaign.characters]
    edits: list[Edit] = []
    ids: list[str] = []
    for character in characters:
        named = character.model_copy(update={"name": unique_name(character.name, taken)},
                                     deep=True)
        taken.append(named.name)
        if as_templates:
            template = as_template(named)
            edits.append(InsertItem("adversary_library",
                                    len(campaign.adversary_library) + len(ids), template))
            ids.append(template.id)
        else:
            edits.append(InsertItem("characters", len(campaign.characters) + len(ids), named))
            ids.append(named.id)
    if len(characters) == 1:
        text = tr(_CTX, "Add {0}").format(characters[0].name)
    elif as_templates:
        text = tr(_CTX, "Add {0} adversary templates").format(len(characters))
    else:
        text = tr(_CTX, "Add {0} NPCs").format(len(characters))
    push_patch(document, Patch(text, tuple(edits)))
    return ids


def lines_for_node(campaign: Campaign, node: Node | None) -> tuple[str, int]:
    """The one-line form of what ``node`` stands for, and how many lines: a character or a
    template, or every item of a group heading (NPCs, Player Characters, the Library)."""
    if node is None or node.group not in (Group.PLAYERS, Group.NPCS, Group.LIBRARY):
        return "", 0
    sheets: list[Character]
    if node.group is Group.LIBRARY:
        templates = campaign.adversary_library if node.entity_id is None else [
            t for t in campaign.adversary_library if t.id == node.entity_id]
        sheets = [t.stats for t in templates]
    else:
        players = node.group is Group.PLAYERS
        sheets = [c for c in campaign.characters
                  if (c.id == node.entity_id if node.entity_id is not None
                      else (c.kind is CharacterKind.PLAYER) == players)]
    return format_npc_lines(sheets), len(sheets)
