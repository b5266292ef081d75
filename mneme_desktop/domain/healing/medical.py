"""Medical events: first aid, surgery and intensive care, as changes to the campaign (Ch.7).

Each event takes a :class:`MedicalRoll` (rolled by the app or entered from the table),
moves the clock by the time the task takes when asked, and returns the changes with a
journal entry, so one event is one undo step.
"""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import (
    Character,
    Characteristic,
    Condition,
    ConditionKind,
    DamageRecord,
)
from mneme_desktop.domain.edits import Edit, ReplaceSheet
from mneme_desktop.domain.healing.changes import Notice, Outcome
from mneme_desktop.domain.healing.clock import _Advance, _advance, _journal
from mneme_desktop.domain.roll_terms import survival_terms
from mneme_desktop.rules.actions import FIRST_AID_ROUNDS, ROUND_SECONDS
from mneme_desktop.rules.checks import UNSKILLED, CheckResult, check_from
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.rules.healing import (
    INTENSIVE_CARE_DIFFICULTY,
    INTENSIVE_CARE_HEALING,
    SURGERY_DIFFICULTY,
    care_level,
    first_aid_difficulty,
    first_aid_healing,
    first_aid_stabilisation_hours,
    intensive_care_needs_roll,
    surgery_outcome,
)
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, WoundState

__all__ = [
    "FIRST_AID_SECONDS",
    "MedicalRoll",
    "dying_modifier",
    "dying_roll",
    "first_aid",
    "intensive_care",
    "intensive_care_rolls",
    "surgery",
]

FIRST_AID_SECONDS = FIRST_AID_ROUNDS * ROUND_SECONDS
"""First aid takes 3 minutes (30 rounds)."""


@dataclass(frozen=True)
class MedicalRoll:
    """A check for a medical event, rolled by the app or entered from the table."""

    total: int
    difficulty: int
    text: str

    @property
    def effect(self) -> int:
        return self.total - self.difficulty

    @property
    def success(self) -> bool:
        return self.effect >= 0

    @classmethod
    def from_check(cls, check: CheckResult) -> MedicalRoll:
        dice = "+".join(str(d) for d in check.kept)
        shown = f"{dice} {check.modifier:+d}" if check.modifier else dice
        return cls(
            check.total,
            check.difficulty,
            f"rolled {shown} = {check.total} vs {check.difficulty} (Effect {check.effect:+d})",
        )

    @classmethod
    def from_source(cls, source: DiceSource, modifier: int, difficulty: int) -> MedicalRoll:
        """The event's 2d6 check from either dice source (typed dice or an app roll)."""
        check = check_from(source, modifier, difficulty)
        if not source.at_table:
            return cls.from_check(check)
        dice = "+".join(str(d) for d in check.kept)
        shown = f"{dice} {modifier:+d}" if modifier else dice
        return cls(check.total, difficulty, f"dice at the table {shown} = {check.total} vs "
                   f"{difficulty} (Effect {check.effect:+d})")

    @classmethod
    def entered(cls, dice: int, modifier: int, difficulty: int) -> MedicalRoll:
        """A 2d6 result rolled at the table (2-12) plus the DMs."""
        if not 2 <= dice <= 12:
            raise ValueError(f"a 2d6 roll is 2 to 12, not {dice}")
        total = dice + modifier
        shown = f"{dice} {modifier:+d}" if modifier else str(dice)
        return cls(
            total,
            difficulty,
            f"entered 2d6 {shown} = {total} vs {difficulty} (Effect {total - difficulty:+d})",
        )


def dying_modifier(patient: Character) -> int:
    """A dying roll's DM: END DM and wounds, from
    :func:`~mneme_desktop.domain.roll_terms.survival_terms` as in the encounter."""
    return sum(term.value for term in survival_terms(patient))


def dying_roll(patient: Character, source: DiceSource) -> MedicalRoll:
    """A dying roll (END vs 4 with wound penalties) from either dice source."""
    return MedicalRoll.from_source(source, dying_modifier(patient), DYING_DIFFICULTY)


def intensive_care_rolls(
    patient: Character, source: DiceSource, modifier: int, supervisor_level: int | None,
    dying_source: DiceSource | None = None,
) -> tuple[MedicalRoll | None, MedicalRoll | None]:
    """The rolls of one round of intensive care: none when supervised; else the check
    (``modifier`` vs 8) and, if it fails, the dying roll from ``dying_source`` (an app
    source rolls it too by default; typed dice are one roll's, so without a second source
    the dying roll is left to be made)."""
    if not intensive_care_needs_roll(supervisor_level):
        return None, None
    roll = MedicalRoll.from_source(source, modifier, INTENSIVE_CARE_DIFFICULTY)
    if roll.success:
        return roll, None
    if dying_source is None and not source.at_table:
        dying_source = source
    return roll, None if dying_source is None else dying_roll(patient, dying_source)


def _event(
    campaign: Campaign,
    patient_id: str,
    seconds: int,
) -> tuple[_Advance, Character, Character, list[str]]:
    """The clock advanced by the event's duration, and the patient as it then stands."""
    patient = campaign.character(patient_id)
    if patient.has_condition(ConditionKind.DEAD):
        raise ValueError(f"{patient.name} is dead: medical care cannot help")
    advance = _advance(campaign, seconds, None)
    before, current, lines = advance.sheets.pop(
        patient_id, (patient, patient.model_copy(deep=True), [])
    )
    return advance, before, current, list(lines)


def _finish(
    advance: _Advance,
    seconds: int,
    before: Character,
    after: Character,
    lines: list[str],
    title: str,
) -> Outcome:
    changes: list[Edit] = []
    if seconds:
        changes.append(advance.clock)
    others = advance.character_changes()
    changes += others
    patient = ReplaceSheet(before, after, tuple(lines))
    changes.append(patient)
    text = [patient.description] + [c.description for c in others]
    text += [n.text for n in advance.notices]
    changes.append(_journal(advance.clock.after if seconds else advance.clock.before, title,
                            text))
    return Outcome.of(title, changes, advance.notices)


def _heal(character: Character, amount: int, lines: list[str], what: str) -> None:
    before = character.damage
    character.damage = max(0, before - amount)
    lines.append(f"{what} healed {before - character.damage} (damage {before} → "
                 f"{character.damage})")


def first_aid(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll,
    *,
    on_self: bool = False,
    medic: str = "",
    advance_clock: bool = True,
) -> Outcome:
    """First aid: Difficulty 8 (10 on oneself), 30 rounds; heals the Effect, at least 1;
    stops bleeding; a character still dying is stabilised for END hours.

    With ``advance_clock`` the clock moves the 3 minutes the task takes first (the patient
    bleeds meanwhile). A failed check changes nothing but the time, and is logged.
    """
    wanted = first_aid_difficulty(on_self)
    if roll.difficulty != wanted:
        raise ValueError(
            f"first aid {'on oneself ' if on_self else ''}is Difficulty {wanted}, "
            f"not {roll.difficulty}"
        )
    seconds = FIRST_AID_SECONDS if advance_clock else 0
    advance, before, after, lines = _event(campaign, patient_id, seconds)
    at = advance.clock.after
    by = f" by {medic}" if medic and not on_self else ""
    lines.append(f"first aid{' on oneself' if on_self else by}: {roll.text}")
    if roll.success:
        _heal(after, first_aid_healing(roll.effect), lines, "first aid")
        if after.has_condition(ConditionKind.BLEEDING):
            after.conditions = [
                c for c in after.conditions if c.kind is not ConditionKind.BLEEDING
            ]
            lines.append("bleeding stopped")
        basis = campaign.rules_options.threshold_basis
        if after.wound_state(basis) is WoundState.DYING:
            hours = first_aid_stabilisation_hours(after.characteristic(Characteristic.END) or 0)
            until = at.advance(hours=hours)
            after.conditions = [
                c for c in after.conditions if c.kind is not ConditionKind.STABILISED
            ] + [
                Condition(
                    kind=ConditionKind.STABILISED,
                    detail="first aid",
                    started_at=at,
                    expires_at=until,
                )
            ]
            lines.append(
                f"stabilised for {hours} hours (END), until {until.label}: no dying rolls, "
                "needs medical treatment"
            )
    else:
        lines.append("first aid failed: no effect")
    return _finish(advance, seconds, before, after, lines, f"First aid: {before.name}")


def surgery(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll,
    *,
    medic_skill: int | None,
    sickbay: bool,
    medic: str = "",
    advance_clock: bool = True,
) -> Outcome:
    """Surgery: Difficulty 8, 30 minutes, in a hospital or sickbay; heals 2 x Effect.

    On a failure the fail effect less the Medic skill multiplies the time, and a remainder
    above half the patient's END harms them by double the remainder (rules core).
    """
    if not sickbay:
        raise ValueError("surgery requires a hospital or sickbay")
    if roll.difficulty != SURGERY_DIFFICULTY:
        raise ValueError(f"surgery is Difficulty {SURGERY_DIFFICULTY}, not {roll.difficulty}")
    patient = campaign.character(patient_id)
    endurance = patient.characteristic(Characteristic.END) or 0
    outcome = surgery_outcome(
        roll.effect, UNSKILLED if medic_skill is None else medic_skill, endurance
    )
    seconds = outcome.minutes * 60 if advance_clock else 0
    advance, before, after, lines = _event(campaign, patient_id, seconds)
    by = f" by {medic}" if medic else ""
    lines.append(f"surgery{by}: {roll.text}, {outcome.minutes} minutes")
    if roll.success:
        _heal(after, outcome.healed, lines, "surgery")
    else:
        lines.append(
            f"surgery failed: fail effect {outcome.fail_effect} after the Medic skill"
        )
        if outcome.damage:
            damage_before = after.damage
            after.damage += outcome.damage
            after.damage_history.append(
                DamageRecord(
                    amount=outcome.damage,
                    source=f"surgery (fail effect {outcome.fail_effect})",
                    at=advance.clock.after if seconds else advance.clock.before,
                )
            )
            lines.append(
                f"harmed by the surgery: {outcome.damage} (damage {damage_before} → "
                f"{after.damage})"
            )
    return _finish(advance, seconds, before, after, lines, f"Surgery: {before.name}")


def intensive_care(
    campaign: Campaign,
    patient_id: str,
    roll: MedicalRoll | None,
    dying_roll: MedicalRoll | None = None,
) -> Outcome:
    """One round of intensive care for a dying patient.

    ``roll`` None means a Medic 2+ or an AI sickbay supervises: no roll, 2 damage healed.
    Unsupervised, a Difficulty 8 success heals 2; a failure means a dying roll
    (``dying_roll``, END vs 4 with wound penalties), and failing that the patient dies.
    """
    patient = campaign.character(patient_id)
    basis = campaign.rules_options.threshold_basis
    level = care_level(patient.damage, patient.hit_points, patient.wound_thresholds(basis))
    if patient.wound_state(basis) is not WoundState.DYING:
        needed = "no care" if level is None else level.label
        raise ValueError(
            f"{patient.name} is not dying and needs {needed}, not intensive care"
        )
    if roll is not None and roll.difficulty != INTENSIVE_CARE_DIFFICULTY:
        raise ValueError(
            f"intensive care is Difficulty {INTENSIVE_CARE_DIFFICULTY}, not {roll.difficulty}"
        )
    if dying_roll is not None and dying_roll.difficulty != DYING_DIFFICULTY:
        raise ValueError(f"a dying roll is Difficulty {DYING_DIFFICULTY}, not "
                         f"{dying_roll.difficulty}")
    advance, before, after, lines = _event(campaign, patient_id, 0)
    at = advance.clock.before
    if roll is None:
        lines.append("intensive care under supervision: no roll")
        _heal(after, INTENSIVE_CARE_HEALING, lines, "intensive care")
    else:
        lines.append(f"intensive care without supervision: {roll.text}")
        if roll.success:
            _heal(after, INTENSIVE_CARE_HEALING, lines, "intensive care")
        elif dying_roll is None:
            lines.append("failed: a dying roll is required (not recorded)")
            advance.notices.append(
                Notice(f"{patient.name} must make a dying roll (END vs {DYING_DIFFICULTY})",
                       patient.id)
            )
        else:
            lines.append(f"failed: dying roll {dying_roll.text}")
            if dying_roll.success:
                lines.append("survived the dying roll: still dying")
            else:
                after.conditions = [
                    *after.conditions,
                    Condition(kind=ConditionKind.DEAD, detail="dying roll failed",
                              started_at=at),
                ]
                lines.append("failed the dying roll: dead")
    return _finish(advance, 0, before, after, lines, f"Intensive care: {before.name}")
