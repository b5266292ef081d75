"""Undoable healing edits: the clock, healing plans, regimes, medical events, the infirmary.

The domain (:mod:`mneme_desktop.domain.healing`) works out what happens as a list of
reversible changes; this module puts the whole list on the undo stack as one
:class:`~mneme_desktop.ui.commands.CampaignChangeCommand` and tells the document which
signals to emit, so one Undo takes back the clock, the damage and the journal entry together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mneme_desktop.domain import Campaign, Character, Recovery
from mneme_desktop.domain.gametime import SECONDS_PER_DAY
from mneme_desktop.domain.healing.changes import (
    CampaignChange,
    CharacterChange,
    ClockChange,
    JournalChange,
    apply_changes,
    revert_changes,
)
from mneme_desktop.domain.healing.infirmary import Infirmary
from mneme_desktop.domain.healing.medical import MedicalRoll, first_aid, intensive_care, surgery
from mneme_desktop.domain.healing.plan import HealingPlan
from mneme_desktop.domain.healing.time_stops import StoppedAdvance, advance_until_roll
from mneme_desktop.domain.healing.time_stops import record_dying_roll as record_dying_roll_changes
from mneme_desktop.rules.healing import Activity
from mneme_desktop.ui.commands import CampaignChangeCommand, edit_character
from mneme_desktop.ui.document import CampaignDocument

__all__ = [
    "advance_clock",
    "advance_under_plan",
    "campaign_infirmary",
    "push_changes",
    "record_dying_roll",
    "record_first_aid",
    "record_intensive_care",
    "record_surgery",
    "set_infirmary",
    "set_regime",
    "supports_stored_infirmary",
]


def _notify(changes: Sequence[CampaignChange]) -> Callable[[CampaignDocument], None]:
    clock_moved = any(
        isinstance(c, ClockChange) and c.before != c.after for c in changes
    )
    character_ids = list(
        dict.fromkeys(c.character_id for c in changes if isinstance(c, CharacterChange))
    )
    journal = any(isinstance(c, JournalChange) for c in changes)

    def notify(document: CampaignDocument) -> None:
        for character_id in character_ids:
            document.character_changed.emit(character_id)
        if clock_moved:
            document.time_changed.emit()
        # The journal signal belongs to the document's owner; emit it where it exists.
        journal_changed = getattr(document, "journal_changed", None)
        if journal and journal_changed is not None:
            journal_changed.emit()

    return notify


def push_changes(document: CampaignDocument, text: str,
                 changes: Sequence[CampaignChange]) -> None:
    """Put ``changes`` on the undo stack as one step named ``text``."""
    frozen = tuple(changes)

    def apply(campaign: Campaign) -> None:
        apply_changes(campaign, frozen)

    def revert(campaign: Campaign) -> None:
        revert_changes(campaign, frozen)

    document.push(CampaignChangeCommand(document, text, apply, revert, _notify(frozen)))


def advance_clock(document: CampaignDocument, seconds: int,
                  text: str = "") -> StoppedAdvance:
    """Move the campaign clock forward: bleeding, conditions and healing follow it. It
    stops where a roll the rules require falls due (``due``); one undo step, none when it
    could not move at all."""
    result = advance_until_roll(document.campaign, seconds)
    if result.changes:
        push_changes(document, text or "Advance the clock", result.changes)
    return result


def advance_under_plan(document: CampaignDocument, character_ids: Sequence[str],
                       plan: HealingPlan, days: int) -> StoppedAdvance:
    """``days`` days pass with ``character_ids`` following ``plan`` (everyone else follows
    their own regime, and every patient keeps theirs afterwards); one undo step. Stops
    where a roll the rules require falls due."""
    if days < 1:
        raise ValueError("advance at least one day")
    if not character_ids:
        raise ValueError("choose the characters who follow the plan")
    names = ", ".join(document.campaign.character(cid).name for cid in character_ids)
    if len(names) > 200:
        names = f"{len(character_ids)} characters"
    title = f"{plan.name}: {days} day{'s' if days != 1 else ''} for {names}"
    result = advance_until_roll(
        document.campaign,
        days * SECONDS_PER_DAY,
        {cid: plan for cid in character_ids},
        title=title,
    )
    if result.changes:
        push_changes(document,
                     f"Advance {days} day{'s' if days != 1 else ''} under {plan.name}",
                     result.changes)
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
        text = f"{character.name}: no healing regime"
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
        text = f"{character.name}: {activity.label}{' + care' if care else ''}"

    def change(edited: Character) -> None:
        edited.recovery = new

    edit_character(document, character, text, change)


def record_first_aid(document: CampaignDocument, patient_id: str, roll: MedicalRoll, *,
                     on_self: bool, medic: str, advance_clock: bool) -> list[CampaignChange]:
    changes = first_aid(document.campaign, patient_id, roll, on_self=on_self, medic=medic,
                        advance_clock=advance_clock)
    name = document.campaign.character(patient_id).name
    push_changes(document, f"First aid on {name}", changes)
    return changes


def record_surgery(document: CampaignDocument, patient_id: str, roll: MedicalRoll, *,
                   medic_skill: int | None, sickbay: bool, medic: str,
                   advance_clock: bool) -> list[CampaignChange]:
    changes = surgery(document.campaign, patient_id, roll, medic_skill=medic_skill,
                      sickbay=sickbay, medic=medic, advance_clock=advance_clock)
    name = document.campaign.character(patient_id).name
    push_changes(document, f"Surgery on {name}", changes)
    return changes


def record_dying_roll(document: CampaignDocument, patient_id: str,
                      roll: MedicalRoll) -> list[CampaignChange]:
    changes = record_dying_roll_changes(document.campaign, patient_id, roll)
    name = document.campaign.character(patient_id).name
    push_changes(document, f"Dying roll for {name}", changes)
    return changes


def record_intensive_care(document: CampaignDocument, patient_id: str,
                          roll: MedicalRoll | None,
                          dying_roll: MedicalRoll | None) -> list[CampaignChange]:
    changes = intensive_care(document.campaign, patient_id, roll, dying_roll)
    name = document.campaign.character(patient_id).name
    push_changes(document, f"Intensive care for {name}", changes)
    return changes


# --- the infirmary ---------------------------------------------------------------------


def supports_stored_infirmary() -> bool:
    """Whether the campaign model keeps an infirmary (``Campaign.infirmary``) in its file."""
    return "infirmary" in Campaign.model_fields


def campaign_infirmary(campaign: Campaign) -> Infirmary | None:
    """The campaign's stored infirmary, or None while the campaign model has none."""
    if not supports_stored_infirmary():
        return None
    stored = getattr(campaign, "infirmary", None)
    return stored if isinstance(stored, Infirmary) else None


def set_infirmary(document: CampaignDocument, infirmary: Infirmary, text: str) -> None:
    """Replace the stored infirmary as one undoable step (needs ``Campaign.infirmary``)."""
    if not supports_stored_infirmary():
        raise RuntimeError("this campaign model does not store an infirmary")
    before = campaign_infirmary(document.campaign)
    before = before.model_copy(deep=True) if before is not None else Infirmary()
    after = Infirmary.model_validate(infirmary.model_dump())

    def apply(campaign: Campaign) -> None:
        setattr(campaign, "infirmary", after.model_copy(deep=True))  # noqa: B010

    def revert(campaign: Campaign) -> None:
        setattr(campaign, "infirmary", before.model_copy(deep=True))  # noqa: B010

    def notify(doc: CampaignDocument) -> None:
        # Views also refresh on the undo stack's index, for documents without this signal.
        changed = getattr(doc, "infirmary_changed", None)
        if changed is not None:
            changed.emit()

    document.push(CampaignChangeCommand(document, text, apply, revert, notify))
