"""A check for anything: any character, any skill or characteristic, any Difficulty.

The quick check the referee calls up from every page. Its DM is put together the way every
other check of the app puts it together (:mod:`mneme_desktop.domain.roll_terms`): the skill's
level or unskilled -3 (Ch.3), a characteristic's ChM, the referee's other DM and the wound
penalty (Ch.7, -1 to all rolls per 3 damage, from :func:`roll_terms.wound_terms`). The
odds are the rules core's exact :func:`~mneme_desktop.rules.checks.success_chance`, and the
roll is resolved by :func:`~mneme_desktop.rules.checks.check_from` from one
:class:`~mneme_desktop.rules.dice.DiceSource` (typed at the table or rolled by the app).

A check may be made *against* an opponent (Ch.6 Deliberate Stealth and Scan/Search): the
Difficulty is then :func:`~mneme_desktop.rules.checks.opposed_stealth_difficulty`, 8 + the
opponent's Recon or Stealth (unskilled -3) + their ChM + their conditions, counted the way the
app counts them on the opponent's own rolls (the wound penalty of :mod:`roll_terms`).

A resolved check (or a bare dice expression, "3d6-2", "D 2d6") becomes one :class:`Patch`:
a line in the shown encounter's log, or an entry in the campaign journal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.character import Character, Characteristic
from mneme_desktop.domain.edits import (
    AddJournalEntry,
    AppendLog,
    Edit,
    Patch,
    SetCombatantField,
    SetEncounterField,
)
from mneme_desktop.domain.encounter import Encounter, EncounterLogEntry, NextRollKind
from mneme_desktop.domain.next_roll import (
    NextRoll,
    next_roll_of,
    side_tactics,
    tactics_after_spending,
    tactics_text,
)
from mneme_desktop.domain.roll_terms import (
    Modifier,
    skill_term,
    terms_text,
    wound_modifier,
    wound_terms,
)
from mneme_desktop.rules.actions import ROUND_SECONDS
from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    RECON,
    STEALTH,
    CheckResult,
    DifficultyBreakdown,
    DifficultyTerm,
    SuperiorityBalance,
    check_from,
    difficulty_label,
    net_advantage,
    opposed_stealth_difficulty,
    opposing_skill,
    success_chance,
)
from mneme_desktop.rules.dice import DiceExpression, DiceRoll, DiceSource, parse_dice

__all__ = [
    "MAX_ADVANTAGE",
    "MAX_DURATION",
    "MAX_OTHER_DM",
    "OPPOSING_CHARACTERISTICS",
    "OPPOSING_SKILLS",
    "CandidateKind",
    "CheckCandidate",
    "CheckOdds",
    "CheckOutcome",
    "CheckRequest",
    "Duration",
    "ExpressionOutcome",
    "QuickCheckError",
    "TimeUnit",
    "chance_text",
    "check_candidates",
    "check_odds",
    "check_terms",
    "combatant_sheet_id",
    "next_roll_waiting",
    "opposing_characteristic",
    "opposition",
    "resolve_check",
    "roll_expression",
    "side_tactics",
    "tactics_text",
]

MAX_ADVANTAGE = 10
"""Most advantages (or disadvantages) one check counts: 12 dice kept two."""
MAX_OTHER_DM = 20
"""Largest DM the referee adds by hand (equipment, conditions, aid), either way."""
MAX_DURATION = 9999
"""Largest amount of rounds, minutes or hours a check is said to take."""


OPPOSING_SKILLS = (RECON, STEALTH)
"""The skills an opponent opposes with (Ch.6): Recon against Deliberate Stealth, Stealth
against Scan/Search."""
OPPOSING_CHARACTERISTICS = {RECON: Characteristic.INT, STEALTH: Characteristic.DEX}
"""Whose ChM the opposing skill adds. Ch.6 says only "Adversary ChM"; the project's reading is
INT for Recon (noticing) and DEX for Stealth (moving unseen). The referee can change it."""


class QuickCheckError(ValueError):
    """A check that cannot be made as asked (no such character, no PSI, dice out of range)."""


class TimeUnit(Enum):
    """The units a check's time taken is given in."""

    ROUNDS = "rounds"
    MINUTES = "minutes"
    HOURS = "hours"

    @property
    def seconds(self) -> int:
        return {TimeUnit.ROUNDS: ROUND_SECONDS, TimeUnit.MINUTES: 60, TimeUnit.HOURS: 3600}[self]


@dataclass(frozen=True)
class Duration:
    """How long the check took, as the referee said it: "3 rounds", "10 minutes"."""

    amount: int
    unit: TimeUnit

    def __post_init__(self) -> None:
        if not 0 < self.amount <= MAX_DURATION:
            raise QuickCheckError(f"a time taken runs from 1 to {MAX_DURATION}, got {self.amount}")

    @property
    def seconds(self) -> int:
        return self.amount * self.unit.seconds

    @property
    def text(self) -> str:
        unit = self.unit.value[:-1] if self.amount == 1 else self.unit.value
        return f"{self.amount} {unit}"


@dataclass(frozen=True)
class CheckRequest:
    """What the referee asked for. ``skill`` None (or blank) is a check on the characteristic
    alone; a skill the character does not hold rolls unskilled (-3).

    ``opponent_id`` makes it a check against that sheet (Ch.6 stealth rules): ``difficulty``
    is then ignored and worked out from the opponent's ``opposing_skill`` (blank: the one
    :func:`~mneme_desktop.rules.checks.opposing_skill` names for ``skill``) and
    ``opposing_characteristic`` (None: :data:`OPPOSING_CHARACTERISTICS`)."""

    sheet_id: str
    skill: str | None = None
    characteristic: Characteristic | None = None
    difficulty: int = DEFAULT_DIFFICULTY
    advantages: int = 0
    disadvantages: int = 0
    other_dm: int = 0
    superiority: SuperiorityBalance = field(default_factory=SuperiorityBalance)
    """The Ch.3 superiority situations of the checker's side and of the other: their sum is
    a DM on the roll."""
    opponent_id: str | None = None
    opposing_skill: str | None = None
    opposing_characteristic: Characteristic | None = None
    fight_id: str | None = None
    """The encounter the check is made in: what waits on the roller's next roll there (a
    grapple's advantage, a supporter's DM) counts when ``use_next_roll``, and is used up."""
    use_next_roll: bool = True
    tactics_roll: bool = False
    """Spend one of the roller's side's Tactics rolls in the fight (Ch.6 Tactics)."""

    def __post_init__(self) -> None:
        for what, count in (("advantages", self.advantages),
                            ("disadvantages", self.disadvantages)):
            if not 0 <= count <= MAX_ADVANTAGE:
                raise QuickCheckError(f"{what} run from 0 to {MAX_ADVANTAGE}, got {count}")
        if abs(self.other_dm) > MAX_OTHER_DM:
            raise QuickCheckError(
                f"the other DM runs from -{MAX_OTHER_DM} to +{MAX_OTHER_DM}, got {self.other_dm}")

    @property
    def advantage(self) -> int:
        """Net advantage (advantages and disadvantages cancel one for one)."""
        return net_advantage(self.advantages, self.disadvantages)

    @property
    def skill_name(self) -> str | None:
        name = (self.skill or "").strip()
        return name or None


@dataclass(frozen=True)
class CheckOdds:
    """The check before the roll: who, the DM term by term, and the exact chance."""

    name: str
    what: str
    terms: tuple[Modifier, ...]
    difficulty: int
    advantage: int
    chance: Fraction
    difficulty_terms: tuple[DifficultyTerm, ...] = ()
    """How the Difficulty was made, term by term (empty: the referee set it)."""
    opponent: str | None = None
    next_roll: NextRoll = field(default_factory=NextRoll)
    """What waited on the roller's next roll, counted in the terms and the advantage."""
    combatant_id: str | None = field(default=None, compare=False)
    """The roller in the fight (``fight_id``), whose next roll this check uses up."""
    tactics: NextRollKind | None = None
    """The side's Tactics roll spent on this check, if any."""

    @property
    def modifier(self) -> int:
        return sum(term.value for term in self.terms)

    @property
    def dice_count(self) -> int:
        """How many dice the table rolls: 2, plus one per net advantage or disadvantage."""
        return 2 + abs(self.advantage)

    @property
    def difficulty_text(self) -> str:
        """"Difficult (10)", "Average +1 (9)"."""
        return f"{difficulty_label(self.difficulty)} ({self.difficulty})"


def chance_text(chance: Fraction) -> str:
    """An exact chance as the table reads it: "13/18 (72.2%)", "1 (100%)", "0 (0%)"."""
    percent = float(chance * 100)
    shown = f"{percent:.1f}".rstrip("0").rstrip(".")
    return f"{chance} ({shown}%)"


def check_terms(character: Character, skill: str | None = None,
                characteristic: Characteristic | None = None,
                other_dm: int = 0,
                superiority: SuperiorityBalance | None = None) -> tuple[Modifier, ...]:
    """The DM of a check, term by term: skill (unskilled -3), characteristic DM, the
    referee's other DM, the superiority situations' sum (Ch.3) and the wounds (the same
    terms as a Tactics check's)."""
    terms: list[Modifier] = []
    name = (skill or "").strip()
    if name:
        terms.append(skill_term(character, name))
    if characteristic is not None:
        try:
            value = character.characteristic_modifier(characteristic)
        except ValueError as error:
            raise QuickCheckError(str(error)) from None
        terms.append(Modifier(f"{characteristic.value.upper()} DM", value,
                              "Ch.3 characteristic modifier"))
    if other_dm:
        terms.append(Modifier("Other DM", other_dm, "the referee's DM"))
    if superiority is not None and superiority.modifier:
        terms.append(Modifier("Superiority", superiority.modifier,
                              f"Ch.3 superiority: {superiority.describe()}"))
    terms.extend(wound_terms(character))
    return tuple(terms)


def _sheet(campaign: Campaign, sheet_id: str) -> Character:
    sheet = campaign.find_sheet(sheet_id)
    if sheet is None:
        raise QuickCheckError("that character is no longer in the campaign")
    return sheet


def _what(request: CheckRequest) -> str:
    skill = request.skill_name
    code = request.characteristic.value.upper() if request.characteristic else None
    if skill and code:
        return f"{skill} ({code})"
    return skill or code or "2d6"


def opposing_characteristic(skill: str) -> Characteristic | None:
    """The characteristic :data:`OPPOSING_CHARACTERISTICS` pairs with an opposing skill."""
    name = (skill or "").split("(", 1)[0].strip().casefold()
    return next((code for held, code in OPPOSING_CHARACTERISTICS.items()
                 if held.casefold() == name), None)


def opposition(opponent: Character, skill: str,
               characteristic: Characteristic | None = None) -> DifficultyBreakdown:
    """The Difficulty of a check against ``opponent`` (Ch.6 Deliberate Stealth, Scan/Search):
    8 + their ``skill`` (unskilled -3) + their ChM + their wounds (Ch.7, as on their own
    rolls)."""
    name = skill.strip()
    if not name:
        raise QuickCheckError("against an opponent, choose their opposing skill "
                              f"({RECON} or {STEALTH})")
    code = characteristic if characteristic is not None else opposing_characteristic(name)
    if code is None:
        raise QuickCheckError(f"choose whose characteristic modifier {opponent.name}'s "
                              f"{name} adds")
    try:
        chm = opponent.characteristic_modifier(code)
    except ValueError as error:
        raise QuickCheckError(f"{opponent.name}: {error}") from None
    return opposed_stealth_difficulty(name, opponent.skill_level(name), code.value.upper(), chm,
                                      wound_modifier(opponent), opponent.name, "wounds")


def check_odds(campaign: Campaign, request: CheckRequest) -> CheckOdds:
    """The check as it stands before the roll, with its exact chance of success."""
    character = _sheet(campaign, request.sheet_id)
    terms = check_terms(character, request.skill_name, request.characteristic,
                        request.other_dm, request.superiority)
    waiting, combatant_id = next_roll_waiting(campaign, request.sheet_id, request.fight_id)
    if not request.use_next_roll:
        waiting = NextRoll()
    terms = (*terms, *waiting.modifiers)
    modifier = sum(term.value for term in terms)
    difficulty = request.difficulty
    difficulty_terms: tuple[DifficultyTerm, ...] = ()
    opponent_name: str | None = None
    if request.opponent_id is not None:
        opponent = _sheet(campaign, request.opponent_id)
        skill = (request.opposing_skill or "").strip() or opposing_skill(request.skill_name)
        breakdown = opposition(opponent, skill or "", request.opposing_characteristic)
        difficulty, difficulty_terms = breakdown.total, breakdown.terms
        opponent_name = opponent.name
    tactics = _tactics_roll(campaign, request, combatant_id)
    advantage = net_advantage(
        request.advantages + waiting.advantages + (tactics is NextRollKind.ADVANTAGE),
        request.disadvantages + waiting.disadvantages + (tactics is NextRollKind.DISADVANTAGE))
    return CheckOdds(character.name, _what(request), terms, difficulty, advantage,
                     success_chance(modifier, difficulty, advantage),
                     difficulty_terms, opponent_name, waiting, combatant_id, tactics)


def _tactics_roll(campaign: Campaign, request: CheckRequest,
                  combatant_id: str | None) -> NextRollKind | None:
    """The kind of the side's Tactics roll the check spends (refused when none is left)."""
    if not request.tactics_roll:
        return None
    encounter = campaign.find_encounter(request.fight_id) if request.fight_id else None
    if encounter is None or combatant_id is None:
        raise QuickCheckError("a Tactics roll is spent by a combatant, in their fight")
    side = encounter.combatant(combatant_id).side
    pool = side_tactics(encounter, side)
    if pool is None:
        raise QuickCheckError(f"the {side.label} have no Tactics rolls left")
    return pool.kind


def next_roll_waiting(campaign: Campaign, sheet_id: str,
                      fight_id: str | None) -> tuple[NextRoll, str | None]:
    """What waits on the next roll of ``sheet_id`` in the fight ``fight_id``, and the
    combatant it waits on (nothing outside a fight)."""
    encounter = campaign.find_encounter(fight_id) if fight_id else None
    combatant_id = _combatant_of(encounter, sheet_id) if encounter else None
    if encounter is None or combatant_id is None:
        return NextRoll(), combatant_id
    return next_roll_of(encounter, encounter.combatant(combatant_id)), combatant_id


# --- who can roll ------------------------------------------------------------------------


class CandidateKind(Enum):
    CHARACTER = "character"
    COMBATANT = "combatant"
    TEMPLATE = "template"


@dataclass(frozen=True)
class CheckCandidate:
    """A sheet the panel offers: its id (for :meth:`Campaign.find_sheet`), name and where it
    lives."""

    sheet_id: str
    name: str
    kind: CandidateKind


def check_candidates(campaign: Campaign, encounter_id: str | None = None
                     ) -> list[CheckCandidate]:
    """Everyone who can make a check: the campaign's characters, the shown encounter's
    adversaries (instances), then the library's stat blocks."""
    found = [CheckCandidate(c.id, c.name, CandidateKind.CHARACTER) for c in campaign.characters]
    encounter = campaign.find_encounter(encounter_id) if encounter_id else None
    if encounter is not None:
        found += [CheckCandidate(c.instance.id, c.instance.name, CandidateKind.COMBATANT)
                  for c in encounter.combatants if c.instance is not None]
    found += [CheckCandidate(t.stats.id, t.stats.name, CandidateKind.TEMPLATE)
              for t in campaign.adversary_library]
    return found


def combatant_sheet_id(campaign: Campaign, encounter_id: str, combatant_id: str) -> str | None:
    """The sheet a combatant rolls with (its instance or its campaign character)."""
    encounter = campaign.find_encounter(encounter_id)
    combatant = encounter.find_combatant(combatant_id) if encounter is not None else None
    if combatant is None:
        return None
    return combatant.instance.id if combatant.instance is not None else combatant.character_id


def _combatant_of(encounter: Encounter, sheet_id: str) -> str | None:
    for combatant in encounter.combatants:
        held = combatant.instance.id if combatant.instance is not None else combatant.character_id
        if held == sheet_id:
            return combatant.id
    return None


# --- resolving and recording ---------------------------------------------------------------


@dataclass(frozen=True)
class CheckOutcome:
    """A resolved check: the odds it was made at, the result, the line logged and the step."""

    odds: CheckOdds
    result: CheckResult
    line: str
    patch: Patch


@dataclass(frozen=True)
class ExpressionOutcome:
    """A bare dice expression rolled: the expression, the roll, the line logged, the step."""

    expression: DiceExpression
    roll: DiceRoll
    line: str
    patch: Patch


def _record(campaign: Campaign, encounter_id: str | None, title: str, line: str, *,
            actor_id: str | None = None, actor: str = "", action: str = "",
            result: CheckResult | None = None) -> Patch:
    """One step: a line in the encounter's log, or (no encounter) a journal entry."""
    encounter = campaign.find_encounter(encounter_id) if encounter_id else None
    edit: Edit
    if encounter is None:
        edit = AddJournalEntry(JournalEntry(game_time=campaign.game_time, title=title,
                                            text=line))
        return Patch(title, (edit,))
    entry = EncounterLogEntry(
        round=encounter.round, at=campaign.game_time,
        actor_id=_combatant_of(encounter, actor_id) if actor_id else None,
        actor=actor, action=action,
        dice=list(result.dice) if result is not None else [],
        modifier=result.modifier if result is not None else 0,
        difficulty=result.difficulty if result is not None else None,
        effect=result.effect if result is not None else None,
        text=line,
    )
    return Patch(title, (AppendLog(encounter.id, (entry,)),), encounter_id=encounter.id)


def _signed(value: int) -> str:
    return f"{value:+d}"


def resolve_check(campaign: Campaign, request: CheckRequest, source: DiceSource, *,
                  encounter_id: str | None = None,
                  duration: Duration | None = None) -> CheckOutcome:
    """Roll (or read) the check and build the step that records it: the dice, the DM term by
    term, Effect, success or failure, the chance it had and the time it took."""
    odds = check_odds(campaign, request)
    try:
        result = check_from(source, odds.modifier, odds.difficulty, odds.advantage)
    except ValueError as error:
        raise QuickCheckError(str(error)) from None
    dice = "+".join(map(str, result.dice))
    if len(result.dice) != len(result.kept):
        dice += f" (kept {'+'.join(map(str, result.kept))})"
    terms = terms_text(odds.terms) or "no DM"
    advantage = f", net advantage {_signed(odds.advantage)}" if odds.advantage else ""
    verdict = "success" if result.success else "failure"
    against = ""
    if odds.opponent is not None:
        made = ", ".join(f"{t.label} {t.value:+d}" for t in odds.difficulty_terms[1:])
        against = f" against {odds.opponent} ({odds.difficulty_terms[0].value}, {made})"
    line = (f"{odds.name}: {odds.what} vs {odds.difficulty_text}{against}: {source.how} {dice} "
            f"{_signed(odds.modifier)} ({terms}){advantage} = {result.total}; "
            f"Effect {_signed(result.effect)}, {verdict} (chance was {chance_text(odds.chance)})")
    if odds.next_roll:
        line += f"; next roll: {odds.next_roll.text}"
    if odds.tactics is not None:
        line += f"; a Tactics {odds.tactics.value} roll spent"
    if duration is not None:
        line += f"; took {duration.text}"
    title = f"Check: {odds.name}, {odds.what}"
    if odds.opponent is not None:
        title += f" against {odds.opponent}"
    patch = _record(campaign, encounter_id, title, line, actor_id=request.sheet_id,
                    actor=odds.name, action=f"Check: {odds.what}", result=result)
    fight = campaign.find_encounter(request.fight_id) if request.fight_id else None
    if odds.next_roll and fight is not None and odds.combatant_id is not None:
        # The roll uses up what waited on it, in the same step as its log line.
        before = list(fight.combatant(odds.combatant_id).next_roll)
        used = SetCombatantField(fight.id, odds.combatant_id, "next_roll", before, [])
        patch = Patch(patch.text, (*patch.edits, used), patch.merge_key,
                      patch.encounter_id or fight.id)
    if odds.tactics is not None and fight is not None and odds.combatant_id is not None:
        side = fight.combatant(odds.combatant_id).side
        spent = SetEncounterField(fight.id, "tactics", list(fight.tactics),
                                  tactics_after_spending(fight, side))
        patch = Patch(patch.text, (*patch.edits, spent), patch.merge_key,
                      patch.encounter_id or fight.id)
    return CheckOutcome(odds, result, line, patch)


def roll_expression(campaign: Campaign, text: str, rng: random.Random, *,
                    encounter_id: str | None = None, who: str = "",
                    duration: Duration | None = None) -> ExpressionOutcome:
    """Roll a bare dice expression ("3d6-2", "D 2d6", "H 1d6") in the app and build the step
    that records it. A bad expression raises :class:`QuickCheckError` with the parser's
    words (what is wrong and where)."""
    try:
        expression = parse_dice(text)
    except ValueError as error:
        raise QuickCheckError(str(error)) from None
    roll = expression.roll_detailed(rng)
    dice = "+".join(map(str, roll.dice)) if roll.dice else "no dice"
    shown = dice + (f" {_signed(roll.modifier)}" if roll.modifier else "")
    if roll.multiplier != 1:
        shown = f"({shown}) x{roll.multiplier}"
    line = f"{who + ': ' if who else ''}rolled {expression}: {shown} = {roll.total}"
    if duration is not None:
        line += f"; took {duration.text}"
    title = f"Roll: {expression}"
    patch = _record(campaign, encounter_id, title, line, actor=who,
                    action=f"Roll: {expression}")
    return ExpressionOutcome(expression, roll, line, patch)
