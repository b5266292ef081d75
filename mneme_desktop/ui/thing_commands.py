"""The window's steps on things (vehicles, craft, structures, cover objects): add, copy,
remove, edit and damage them, and make a campaign thing from a template. Each is one undo
step built by :mod:`mneme_desktop.domain.thing_edits` and pushed as a ``PatchCommand``."""

from __future__ import annotations

from collections.abc import Callable

from mneme_desktop.domain import Thing, ThingKind, ThingTemplate, new_id
from mneme_desktop.domain.duplicate import unique_name
from mneme_desktop.domain.thing_edits import (
    add_thing,
    add_thing_template,
    change_thing,
    remove_thing,
    remove_thing_template,
    set_thing_damage,
)
from mneme_desktop.domain.things import next_thing_number
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr

_CTX = "ThingCommands"

__all__ = [
    "add_new_thing",
    "add_new_thing_template",
    "delete_thing",
    "delete_thing_template",
    "duplicate_thing",
    "duplicate_thing_template",
    "edit_thing",
    "set_damage",
    "thing_from_template",
]


def add_new_thing(document: CampaignDocument, kind: ThingKind = ThingKind.VEHICLE) -> Thing:
    """A new campaign thing ("New Vehicle"), for the referee to fill in."""
    campaign = document.campaign
    name = unique_name(tr(_CTX, "New {0}").format(tr(_CTX, kind.label)),
                       (t.name for t in campaign.things))
    thing = Thing(name=name, kind=kind)
    push_patch(document, add_thing(campaign, thing, text=tr(_CTX, "Add {0}").format(name)))
    return thing


def add_new_thing_template(document: CampaignDocument) -> ThingTemplate:
    """A new template in the object library ("New Object")."""
    campaign = document.campaign
    name = unique_name(tr(_CTX, "New Object"), (t.name for t in campaign.thing_library))
    template = ThingTemplate(stats=Thing(name=name))
    push_patch(document, add_thing_template(
        campaign, template, text=tr(_CTX, "Add template {0}").format(name)))
    return template


def thing_from_template(document: CampaignDocument, template_id: str) -> Thing:
    """A campaign thing made from a library template, numbered after the ones made before
    ("Shield 3"), undamaged and with its crew seats empty."""
    campaign = document.campaign
    template = campaign.thing_template(template_id)
    thing = template.make_instance(next_thing_number(template, campaign.things))
    push_patch(document, add_thing(campaign, thing, text=tr(
        _CTX, "Add {0} from template {1}").format(thing.name, template.name)))
    return thing


def duplicate_thing(document: CampaignDocument, thing_id: str) -> Thing:
    """A copy of a campaign thing, right after it."""
    campaign = document.campaign
    original = campaign.thing(thing_id)
    copy = original.model_copy(deep=True, update={"id": new_id()})
    copy.name = unique_name(tr(_CTX, "{0} (copy)").format(original.name),
                            (t.name for t in campaign.things))
    index = next(i for i, t in enumerate(campaign.things) if t.id == thing_id) + 1
    push_patch(document, add_thing(campaign, copy, index,
                                   text=tr(_CTX, "Duplicate {0}").format(original.name)))
    return copy


def duplicate_thing_template(document: CampaignDocument, template_id: str) -> ThingTemplate:
    """A copy of a library template, right after it."""
    campaign = document.campaign
    original = campaign.thing_template(template_id)
    stats = original.stats.model_copy(deep=True, update={"id": new_id()})
    stats.name = unique_name(tr(_CTX, "{0} (copy)").format(original.name),
                             (t.name for t in campaign.thing_library))
    copy = ThingTemplate(stats=stats, tags=list(original.tags))
    index = next(i for i, t in enumerate(campaign.thing_library) if t.id == template_id) + 1
    push_patch(document, add_thing_template(
        campaign, copy, index, text=tr(_CTX, "Duplicate template {0}").format(original.name)))
    return copy


def delete_thing(document: CampaignDocument, thing_id: str) -> None:
    """A campaign thing taken out (and out of its encounters); undo brings it all back."""
    name = document.campaign.thing(thing_id).name
    push_patch(document, remove_thing(document.campaign, thing_id,
                                      text=tr(_CTX, "Delete {0}").format(name)))


def delete_thing_template(document: CampaignDocument, template_id: str) -> None:
    name = document.campaign.thing_template(template_id).name
    push_patch(document, remove_thing_template(
        document.campaign, template_id, text=tr(_CTX, "Delete template {0}").format(name)))


def edit_thing(document: CampaignDocument, thing_id: str, text: str,
               change: Callable[[Thing], object], merge_key: str | None = None) -> bool:
    """``change`` applied to the thing as one undo step (validated first: an impossible
    value raises ``ValidationError``/``ValueError`` and nothing is pushed)."""
    return push_patch(document, change_thing(document.campaign, thing_id, change, text,
                                             merge_key))


def set_damage(document: CampaignDocument, thing_id: str, damage: int,
               merge_key: str | None) -> bool:
    """The damage a thing has taken, in plain points; a drag's steps share ``merge_key``."""
    thing = document.campaign.thing(thing_id)
    text = tr(_CTX, "Set damage of {0} to {1}").format(thing.name, damage)
    return push_patch(document, set_thing_damage(document.campaign, thing_id, damage, text,
                                                 merge_key))
