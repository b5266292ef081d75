"""Dash and Run at the table (Ch.6): the Athletics check when obstacles, bad footing or fire
call for it (:func:`dash_run_check`), and the mover as a harder target in the round they
dashed or ran (:func:`moving_target_term`, counted by the attack resolver)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import Characteristic
from mneme_desktop.domain.combat.actions import spend_refusal
from mneme_desktop.domain.combat.common import CombatError, _combatant, _name, _signed
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.combat.next_roll import spend_next_roll
from mneme_desktop.domain.encounter import Combatant, Encounter
from mneme_desktop.domain.next_roll import DeclaredCheck, NextRoll, next_roll_of
from mneme_desktop.domain.roll_terms import Modifier, skill_term, wound_terms
from mneme_desktop.rules.checks import (
    CheckResult,
    DifficultyBreakdown,
    DifficultyTerm,
    TermKind,
    check_from,
)
from mneme_desktop.rules.dash_run import (
    ATHLETICS,
    dash_run_difficulty,
    moving_target_condition,
)
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.movement import MovementMode

__all__ = [
    "DashRunRequest",
    "DashRunSpec",
    "build_dash_run",
    "dash_run_patch",
    "moved_this_round",
    "moving_target_term",
]

_MOVES = {mode.value.capitalize(): mode for mode in (MovementMode.DASH, MovementMode.RUN)}


def moved_this_round(encounter: Encounter, combatant: Combatant) -> MovementMode | None:
    """The fastest Dash or Run the log records for the combatant this round, if any."""
    if not encounter.started or encounter.ended:
        return None
    found: MovementMode | None = None
    for entry in reversed(encounter.log):
        if entry.round != encounter.round:
            break
        mode = _MOVES.get(entry.action)
        if entry.actor_id == combatant.id and mode is not None and (
                found is None or moving_target_condition(mode) > moving_target_condition(found)):
            found = mode
    return found


def moving_target_term(campaign: Campaign, encounter: Encounter,
                       targets: Sequence[Combatant]) -> DifficultyTerm | None:
    """Attacks on targets who all dashed or ran this round are harder (Ch.6: running "a
    Move Difficulty Adversary Condition which becomes a Defense Modifier"); one roll for
    every target takes the smallest, so a target standing still gets no such term."""
    if not targets:
        return None
    moves = [moved_this_round(encounter, t) for t in targets]
    if any(m is None for m in moves):
        return None
    slowest = min((m for m in moves if m is not None), key=moving_target_condition)
    names = ", ".join(_name(campaign, t) for t in targets)
    return DifficultyTerm(f"Target {'ran' if slowest is MovementMode.RUN else 'dashed'}: "
                          f"{names}", moving_target_condition(slowest),
                          "Ch.6 running: a Move Difficulty condition (Dash +1, Run +2, the "
                          "project's reading)", TermKind.CONDITION)


@dataclass(frozen=True)
class DashRunRequest:
    """An Athletics check for a Dash or a Run."""

    combatant_id: str
    mode: MovementMode = MovementMode.DASH
    conditions: int = 0
    """Obstacles and bad footing: added to 8."""
    threats_dm: int | None = None
    """Under fire: the adversaries' or threats' DM in place of the conditions."""
    characteristic: Characteristic = Characteristic.DEX
    """Ch.6 running: "Roll Athletics + End or Dex"."""
    use_next_roll: bool = True


@dataclass(frozen=True)
class DashRunSpec(DeclaredCheck):
    combatant_id: str
    name: str
    mode: MovementMode
    modifiers: tuple[Modifier, ...]
    difficulty: DifficultyBreakdown
    next_roll: NextRoll
    refusal: str = ""
    """Why the move cannot be made (the minor actions it needs are not left): the combatant
    panel's Dash and Run refuse it in the same words, so the check is not rolled for it."""

    @property
    def difficulty_total(self) -> int:
        return self.difficulty.total


def build_dash_run(campaign: Campaign, encounter: Encounter,
                   request: DashRunRequest) -> DashRunSpec:
    """Athletics (unskilled -3) + the characteristic's DM + wounds + what waits on the
    mover's next roll, against 8 + conditions (or the threats' DM under fire)."""
    combatant = _combatant(encounter, request.combatant_id)
    sheet = campaign.combatant_character(combatant)
    try:
        difficulty = dash_run_difficulty(request.mode, request.conditions, request.threats_dm)
        chm = sheet.characteristic_modifier(request.characteristic)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    waiting = next_roll_of(encounter, combatant) if request.use_next_roll else NextRoll()
    modifiers = (skill_term(sheet, ATHLETICS),
                 Modifier(f"{request.characteristic.value.upper()} DM", chm,
                          "Ch.6 running: Athletics + END or DEX"),
                 *wound_terms(sheet), *waiting.modifiers)
    return DashRunSpec(combatant.id, sheet.name, request.mode, modifiers, difficulty, waiting,
                       _move_refusal(encounter, combatant, sheet.name, request.mode))


def _move_refusal(encounter: Encounter, combatant: Combatant, name: str,
                  mode: MovementMode) -> str:
    """The panel's refusal of the move, unless a move as fast is logged (paid) this round."""
    moved = moved_this_round(encounter, combatant)
    if moved is not None and moving_target_condition(moved) >= moving_target_condition(mode):
        return ""
    return spend_refusal(name, combatant.actions_spent, mode.action_kind, mode.value)


def dash_run_patch(campaign: Campaign, encounter: Encounter, spec: DashRunSpec,
                   source: DiceSource) -> tuple[EncounterPatch, CheckResult]:
    """Roll the Athletics check (the table's dice or the app's) as one logged step; what
    waited on the mover's next roll is used up. A failure is "a sudden stop or fall", the
    referee's to narrate (the check does not move anyone: the panel's Dash and Run do). A
    move the combatant cannot make is refused (``spec.refusal``)."""
    if spec.refusal:
        raise CombatError(spec.refusal)
    check = check_from(source, spec.roll_modifier, spec.difficulty.total, spec.advantage)
    combatant = _combatant(encounter, spec.combatant_id)
    builder = PatchBuilder(campaign, encounter)
    if spec.next_roll:
        spend_next_roll(builder, combatant)
    what = spec.mode.value
    made = " ".join(f"{t.value:+d} {t.label}" for t in spec.difficulty.terms[1:])
    verdict = "keeps going" if check.success else "a sudden stop or fall (the referee says)"
    terms = ", ".join(f"{m.label} {_signed(m.value)}" for m in spec.modifiers)
    used = f"; next roll: {spec.next_roll.text}" if spec.next_roll else ""
    text = (f"{spec.name}: Athletics for a {what}, Difficulty {spec.difficulty.total}"
            f"{' (8 ' + made + ')' if made else ''}: {'+'.join(map(str, check.dice))} "
            f"{_signed(check.modifier)} ({terms}) = {check.total}, Effect "
            f"{_signed(check.effect)}: {verdict}{used}")
    builder.log(actor_id=combatant.id, actor=spec.name, action=f"Athletics: {what}",
                dice=list(check.dice), modifier=check.modifier, difficulty=check.difficulty,
                effect=check.effect, text=text)
    return builder.build(f"{spec.name}: Athletics for a {what}"), check
