"""Undoable healing edits: the clock, healing plans, regimes, medical events, the infirmary.

The domain (:mod:`mneme_desktop.domain.healing`) works out what happens as a list of
patch of reversible edits (with notices beside it); this module pushes the patch as one
:class:`~mneme_desktop.ui.commands.PatchCommand`, whose summary tells the document which
signals to emit, so one Undo takes back the clock, the damage and the journal entry together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mneme_desktop.domain import Character, Recovery
from mneme_desktop.domain.edits import Patch, SetInfirmary
from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.domain.healing.changes import Outcome
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.domain.healing.medical import MedicalRoll, first_aid, intensive_care, surgery
from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.domain.healing.time_stops import StoppedAdvance, advance_until_roll
from mneme_desktop.domain.healing.time_stops import record_dying_roll as record_dying_roll_changes
from mneme_desktop.rules.healing import Activity
from mneme_desktop.ui.commands import edit_character, push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr

__all__ = [
    "advance_clock",
    "advance_under_plan",
    "push_changes",
    "record_dying_roll",
    "record_first_aid",
    "record_intensive_care",
    "record_surgery",
    "set_infirmary",
    "set_regime",
]

_CTX = "HealingCommands"


def push_changes(document: CampaignDocument, text: str, changes: Outcome) -> None:
    """Put the outcome's patch on the undo stack as one step named ``text``."""
    push_patch(document, replace(changes.patch, text=text))


def advance_clock(document: CampaignDocument, seconds: int,
                  text: str = "") -> StoppedAdvance:
    """Move the campaign clock forward: bleeding, conditions and healing follow it. It
    stops where a roll the rules require falls due (``due``); one undo step, none when it
    could not move at all."""
    result = advance_until_roll(document.campaign, seconds)
    if not result.changes.patch.empty:
        push_changes(document, text or tr(_CTX, "Advance the clock"), result.changes)
    return result


def advance_under_plan(document: CampaignDocument, character_ids: Sequence[str],
                       plan: HealingPlan, days: int) -> StoppedAdvance:
    """``days`` days pass with ``character_ids`` following ``plan`` (everyone else follows
    their own regime, and every patient keeps theirs afterwards); one undo step. Stops
    where a roll the rules require falls due."""
    if days < 1:
        raise ValueError(tr(_CTX, "advance at least one day"))
    if not character_ids:
        raise ValueError(tr(_CTX, "choose the characters who follow the plan"))
    names = ", ".join(document.campaign.character(cid).name for cid in character_ids)
    if len(names) > 200:
        names = tr(_CTX, "{0} characters").format(len(character_ids))
    title = (tr(_CTX, "{0}: {1} day for {2}") if days == 1
             else tr(_CTX, "{0}: {1} days for {2}")).format(plan.name, days, names)
    result = advance_until_roll(
        document.campaign,
        days * SECONDS_PER_DAY,
        {cid: plan for cid in character_ids},
        title=title,
    )
    if not result.changes.patch.empty:
        step = tr(_CTX, "Advance {0} day under {1}") if days == 1 \
            else tr(_CTX, "Advance {0} days under {1}")
        push_changes(document, step.format(days, plan.name), result.changes)
    return result


def set_regime(document: CampaignDocument, character: Character,
               activity: Activity | None, care: bool) -> None:
    """Put a character on a healing regime (None: no regime); the regime starts now and
    progress already earned carries over."""
    recovery = character.recovery
    if activity is None:
        if recovery is None:
            return
        new: Recovery | None = None
        text = tr(_CTX, "{0}: no healing regime").format(character.name)
    else:
        if recovery is not None and recovery.activity is activity and recovery.care == care:
            return
        new = Recovery(
            activity=activity,
            care=care,
            progress=recovery.progress if recovery is not None else 0,
            since=document.campaign.game_time,
            caregiver_id=None if recovery is None else recovery.caregiver_id,
        )
        text = (tr(_CTX, "{0}: {1} + care") if care else tr(_CTX, "{0}: {1}")).format(
            character.name, activity.label)

    def change(edited: Character) -> None:
        edited.recovery = new

    edit_character(document, character, text, change)


def record_first_aid(document: CampaignDocument, patient_id: str, roll: MedicalRoll, *,
                     on_self: bool, medic: str, advance_clock: bool) -> Outcome:
    changes = first_aid(document.campaign, patient_id, roll, on_self=on_self, medic=medic,
                        advance_clock=advance_clock)
    name = document.campaign.character(patient_id).name
    push_changes(document, tr(_CTX, "First aid on {0}").format(name), changes)
    return changes


def record_surgery(document: CampaignDocument, patient_id: str, roll: MedicalRoll, *,
                   medic_skill: int | None, sickbay: bool, medic: str,
                   advance_clock: bool) -> Outcome:
    changes = surgery(document.campaign, patient_id, roll, medic_skill=medic_skill,
                      sickbay=sickbay, medic=medic, advance_clock=advance_clock)
    name = document.campaign.character(patient_id).name
    push_changes(document, tr(_CTX, "Surgery on {0}").format(name), changes)
    return changes


def record_dying_roll(document: CampaignDocument, patient_id: str,
                      roll: MedicalRoll) -> Outcome:
    changes = record_dying_roll_changes(document.campaign, patient_id, roll)
    name = document.campaign.character(patient_id).name
    push_changes(document, tr(_CTX, "Dying roll for {0}").format(name), changes)
    return changes


def record_intensive_care(document: CampaignDocument, patient_id: str,
                          roll: MedicalRoll | None,
                          dying_roll: MedicalRoll | None) -> Outcome:
    changes = intensive_care(document.campaign, patient_id, roll, dying_roll)
    name = document.campaign.character(patient_id).name
    push_changes(document, tr(_CTX, "Intensive care for {0}").format(name), changes)
    return changes


# --- the infirmary ---------------------------------------------------------------------


def set_infirmary(document: CampaignDocument, infirmary: Infirmary, text: str) -> None:
    """Replace the campaign's infirmary as one undoable step."""
    before = document.campaign.infirmary.model_copy(deep=True)
    after = Infirmary.model_validate(infirmary.model_dump())
    push_patch(document, Patch(text, (SetInfirmary(before, after),)))
