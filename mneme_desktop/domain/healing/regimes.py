"""Whose healing regime an advance under a plan changes, said before the referee advances.

A plan is followed for the days advanced and each patient's own regime is kept (see
:func:`mneme_desktop.domain.healing.clock.advance_character`); only a patient without a
regime is put on the plan's regime of the last day, so that progress is not lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import ConditionKind
from mneme_desktop.domain.healing.plan import HealingPlan

__all__ = ["plan_regime_note"]


def _regime(activity_label: str, care: bool) -> str:
    return activity_label + (" + care" if care else "")


def plan_regime_note(campaign: Campaign, character_ids: Sequence[str], plan: HealingPlan,
                     days: int) -> str:
    """One sentence naming whose regime is kept and whose is set by advancing ``days``."""
    kept: list[str] = []
    set_: list[str] = []
    for character_id in character_ids:
        character = campaign.find_character(character_id)
        if character is None or character.has_condition(ConditionKind.DEAD):
            continue
        recovery = character.recovery
        if recovery is None:
            set_.append(character.name)
        else:
            kept.append(f"{character.name} ({_regime(recovery.activity.label, recovery.care)})")
    parts: list[str] = []
    if kept:
        parts.append("Own regimes kept after the plan: " + ", ".join(kept) + ".")
    if set_ and days >= 1:
        last = plan.regime(days)
        parts.append(", ".join(set_) + (" has" if len(set_) == 1 else " have")
                     + " no regime: put on " + _regime(last.activity.label, last.care)
                     + " (the plan's last day).")
    return " ".join(parts)
