"""Supporting actions (Ch.6): the supporter rolls their check and sacrifices its Success
Effect, which becomes a DM on the next roll of each ally they support ("The PC who succeeds
adds their success Effect to the Ally PC or PCs roll"). The DM waits on the ally's next roll
(this round or the next, the project's reading) and is used up by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Characteristic
from mneme_desktop.domain.combat.actions import _spend, spend_refusal
from mneme_desktop.domain.combat.common import CombatError, _combatant, _join, _name, _signed
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.combat.next_roll import (
    NextRoll,
    grant_next_roll,
    next_roll_of,
    spend_next_roll,
)
from mneme_desktop.domain.encounter import Encounter, NextRollKind, NextRollTerm
from mneme_desktop.domain.next_roll import DeclaredCheck
from mneme_desktop.domain.quick_check import check_terms
from mneme_desktop.domain.roll_terms import Modifier
from mneme_desktop.rules.actions import ActionKind
from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    CheckResult,
    check_from,
)
from mneme_desktop.rules.dice import DiceSource

__all__ = ["SupportRequest", "SupportSpec", "build_support", "support_patch"]


@dataclass(frozen=True)
class SupportRequest:
    """The supporter's check and whom it supports."""

    supporter_id: str
    ally_ids: tuple[str, ...]
    skill: str | None = None
    characteristic: Characteristic | None = None
    difficulty: int = DEFAULT_DIFFICULTY
    other_dm: int = 0
    use_next_roll: bool = True
    spend_action: bool = True
    """A supporting action is a significant action (Ch.6 action table)."""


@dataclass(frozen=True)
class SupportSpec(DeclaredCheck):
    """The supporting check declared: its DMs, Difficulty and odds, before the roll."""

    supporter_id: str
    supporter_name: str
    ally_ids: tuple[str, ...]
    ally_names: tuple[str, ...]
    what: str
    modifiers: tuple[Modifier, ...]
    difficulty: int
    next_roll: NextRoll
    refusal: str = ""
    spend_action: bool = True

    @property
    def difficulty_total(self) -> int:
        return self.difficulty

    def chance_of_dm(self, at_least: int) -> Fraction:
        """The chance the allies get a DM of ``at_least`` (a Success Effect that big)."""
        return self.chance_of_effect(at_least)


def build_support(campaign: Campaign, encounter: Encounter,
                  request: SupportRequest) -> SupportSpec:
    """The supporter's check as the rules make it: skill (unskilled -3), characteristic,
    other DM, wounds and what waits on their next roll."""
    supporter = _combatant(encounter, request.supporter_id)
    if not request.ally_ids:
        raise CombatError("choose the ally or allies the action supports")
    allies = [_combatant(encounter, ally_id) for ally_id in request.ally_ids]
    if any(ally.id == supporter.id for ally in allies):
        raise CombatError("a supporting action aids someone else")
    sheet = campaign.combatant_character(supporter)
    try:
        terms = check_terms(sheet, request.skill, request.characteristic, request.other_dm)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    waiting = next_roll_of(encounter, supporter) if request.use_next_roll else NextRoll()
    code = request.characteristic.value.upper() if request.characteristic else None
    skill = (request.skill or "").strip()
    what = f"{skill} ({code})" if skill and code else skill or code or "2d6"
    refusal = spend_refusal(sheet.name, supporter.actions_spent, ActionKind.SIGNIFICANT,
                            "support") if request.spend_action else ""
    return SupportSpec(
        supporter_id=supporter.id, supporter_name=sheet.name,
        ally_ids=tuple(a.id for a in allies),
        ally_names=tuple(_name(campaign, a) for a in allies), what=what,
        modifiers=(*terms, *waiting.modifiers), difficulty=request.difficulty,
        next_roll=waiting, refusal=refusal, spend_action=request.spend_action,
    )


def support_patch(campaign: Campaign, encounter: Encounter, spec: SupportSpec,
                  source: DiceSource) -> tuple[EncounterPatch, CheckResult]:
    """Roll the supporting check (the table's dice or the app's) and make it one step: the
    supporter's significant action, their next roll used up, and on a success the Effect as
    a DM waiting on each ally's next roll; the log says it all."""
    if spec.refusal:
        raise CombatError(spec.refusal)
    check = check_from(source, spec.roll_modifier, spec.difficulty, spec.advantage)
    supporter = _combatant(encounter, spec.supporter_id)
    builder = PatchBuilder(campaign, encounter)
    if spec.spend_action:
        _spend(builder, supporter, ActionKind.SIGNIFICANT, "support")
    if spec.next_roll:
        spend_next_roll(builder, supporter)
    name = spec.supporter_name
    allies = _join(spec.ally_names)
    changes: list[str] = []
    if check.success and check.effect > 0:
        for ally_id, ally_name in zip(spec.ally_ids, spec.ally_names, strict=True):
            grant_next_roll(builder, _combatant(encounter, ally_id), NextRollTerm(
                kind=NextRollKind.DM, value=check.effect,
                source=f"support from {name}", granted_round=encounter.round,
                last_round=encounter.round + 1))
            changes.append(f"{ally_name}: DM {_signed(check.effect)} on the next roll")
        outcome = f"DM {_signed(check.effect)} on the next roll of {allies}"
    elif check.success:
        outcome = f"a bare success: no DM for {allies}"
    else:
        outcome = f"no support for {allies}"
    terms = ", ".join(f"{m.label} {_signed(m.value)}" for m in spec.modifiers) or "no DM"
    text = (f"{name} supports {allies} ({spec.what} vs {spec.difficulty}): "
            f"{'+'.join(map(str, check.dice))} {_signed(check.modifier)} ({terms}) = "
            f"{check.total}, Effect {_signed(check.effect)}: {outcome}")
    builder.log(actor_id=supporter.id, actor=name, action="Supporting action",
                action_kind=ActionKind.SIGNIFICANT, dice=list(check.dice),
                modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
                state_changes=changes, text=text)
    return builder.build(f"{name}: support {allies}"), check
