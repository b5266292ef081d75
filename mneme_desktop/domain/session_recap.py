"""A session recap: what happened, read off encounter logs and the campaign journal.

The referee picks the in-game days and the encounters; the recap says who acted, every hit
and wound (each log line with damage or a state change, as the log has it), who fell,
what healed and how much time passed. Referee-only notes (the campaign's and encounters'
notes, combatants' notes, "Note" lines of the log) are left out unless asked for.
Pure: the export layer sets it as Markdown, HTML and paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mneme_desktop.domain.campaign import Campaign, JournalEntry
from mneme_desktop.domain.encounter import Encounter, EncounterLogEntry
from mneme_desktop.domain.gametime import SECONDS_PER_DAY, GameTime
from mneme_desktop.rules.actions import ROUND_SECONDS

__all__ = [
    "EncounterRecap",
    "FighterLine",
    "JournalLine",
    "RecapEvent",
    "RecapRequest",
    "SessionRecap",
    "build_recap",
    "duration_text",
    "encounters_in_days",
]

REFEREE = "Referee"
"""The actor of the referee's own log lines (notes, scene changes)."""

_NOTE_ACTION = "Note"
_FELL = re.compile(r"\b(unconscious|dying|dead|out of the fight)\b", re.IGNORECASE)
_HEALED = re.compile(r"\b(heals?|healed|bleeding stopped|stabilised|recover(s|ed)?)\b",
                     re.IGNORECASE)
_DAMAGE_ACTIONS = ("Damage:",)
_SET_DAMAGE = "Damage"
"""The referee's correction of a sheet's damage (the HP bar dragged)."""
_NOT_ACTIONS = frozenset({"Out", "Back"})
"""Lines about a combatant that are not something they did."""


@dataclass(frozen=True)
class RecapRequest:
    """What the recap covers: in-game days ``first_day`` .. ``last_day`` (inclusive) of the
    journal, the encounters chosen, and whether referee-only notes go in."""

    first_day: int
    last_day: int
    encounter_ids: tuple[str, ...] = ()
    include_referee_notes: bool = False

    def __post_init__(self) -> None:
        if self.first_day < 1 or self.last_day < self.first_day:
            raise ValueError(f"days {self.first_day} to {self.last_day} are not a range")

    def covers(self, moment: GameTime | None) -> bool:
        return moment is not None and self.first_day <= moment.day <= self.last_day


@dataclass(frozen=True)
class FighterLine:
    """One name in the fight: what they did and what was done to them."""

    name: str
    actions: int
    hits: int
    damage_dealt: int
    damage_taken: int


@dataclass(frozen=True)
class RecapEvent:
    """A log line with damage or a state change, as the log has it."""

    round: int
    at: GameTime | None
    actor: str
    action: str
    target: str
    damage: tuple[int, ...]
    state_changes: tuple[str, ...]
    text: str

    @property
    def total(self) -> int:
        return sum(self.damage)


@dataclass(frozen=True)
class EncounterRecap:
    name: str
    location: str
    rounds: int
    start: GameTime | None
    end: GameTime | None
    fighters: tuple[FighterLine, ...]
    events: tuple[RecapEvent, ...]
    fell: tuple[str, ...]
    healing: tuple[str, ...]
    referee_notes: tuple[str, ...]

    @property
    def seconds(self) -> int:
        """Rounds fought as time (Ch.6: a round is six seconds)."""
        return self.rounds * ROUND_SECONDS


@dataclass(frozen=True)
class JournalLine:
    at: GameTime
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class SessionRecap:
    campaign: str
    first_day: int
    last_day: int
    start: GameTime | None
    end: GameTime | None
    encounters: tuple[EncounterRecap, ...]
    journal: tuple[JournalLine, ...]
    healing: tuple[str, ...]
    time_passages: tuple[str, ...]
    referee_notes: tuple[str, ...]

    @property
    def seconds(self) -> int:
        if self.start is None or self.end is None:
            return 0
        return self.start.seconds_until(self.end)


def duration_text(seconds: int) -> str:
    """"2 days 3 hours", "18 seconds": the largest units, none that are zero."""
    days, rest = divmod(max(0, seconds), SECONDS_PER_DAY)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{value} {unit}{'s' if value != 1 else ''}"
             for value, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"),
                                 (secs, "second")) if value]
    return " ".join(parts) or "no time"


def encounters_in_days(campaign: Campaign, first_day: int, last_day: int) -> list[Encounter]:
    """The encounters with a log line (or a start) on those days: the recap's default."""
    def moments(encounter: Encounter) -> Iterable[GameTime | None]:
        yield encounter.started_at
        yield from (entry.at for entry in encounter.log)
    return [e for e in campaign.encounters
            if any(m is not None and first_day <= m.day <= last_day for m in moments(e))]


def _is_note(entry: EncounterLogEntry) -> bool:
    return entry.action == _NOTE_ACTION and entry.actor == REFEREE


def _is_damage(entry: EncounterLogEntry) -> bool:
    return entry.action.startswith(_DAMAGE_ACTIONS)


def _fighters(entries: Sequence[EncounterLogEntry]) -> tuple[FighterLine, ...]:
    """Everyone who acted or was hurt, in order of first appearance. An action is a line a
    combatant made (not the damage lines that follow an attack); a hit is a line of a
    combatant's with damage to someone else; damage taken counts every line that hurt the
    target (return fire and bleeding too)."""
    order: list[str] = []
    actions: dict[str, int] = {}
    hits: dict[str, int] = {}
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}

    def seen(name: str) -> None:
        if name and name not in actions:
            order.append(name)
            actions[name] = hits[name] = dealt[name] = taken[name] = 0

    for entry in entries:
        damage = sum(entry.damage)
        attacker = entry.actor if entry.actor_id is not None else ""
        if attacker and not _is_damage(entry) and entry.action not in _NOT_ACTIONS:
            seen(attacker)
            actions[attacker] += 1
        if damage > 0 and entry.target:
            seen(entry.target)
            taken[entry.target] += damage
            if attacker and attacker != entry.target:
                seen(attacker)
                hits[attacker] += 1
                dealt[attacker] += damage
    return tuple(FighterLine(name, actions[name], hits[name], dealt[name], taken[name])
                 for name in order)


def _event(entry: EncounterLogEntry) -> RecapEvent:
    return RecapEvent(entry.round, entry.at, entry.actor, entry.action, entry.target,
                      tuple(entry.damage), tuple(entry.state_changes), entry.text)


def _encounter_recap(campaign: Campaign, encounter: Encounter,
                     notes: bool) -> EncounterRecap:
    entries = [entry for entry in encounter.log if not _is_note(entry)]
    events = tuple(_event(e) for e in entries
                   if e.damage or e.state_changes or e.action == _SET_DAMAGE)
    fell: list[str] = []
    healing: list[str] = []
    for entry in entries:
        for change in entry.state_changes:
            if _FELL.search(change):
                fell.append(change)
            if _HEALED.search(change):
                healing.append(change)
        if entry.action == "Out" and entry.text:
            fell.append(entry.text)
    referee: list[str] = []
    if notes:
        if encounter.notes.strip():
            referee.append(encounter.notes.strip())
        for combatant in encounter.combatants:
            if combatant.notes.strip():
                name = campaign.combatant_character(combatant).name
                referee.append(f"{name}: {combatant.notes.strip()}")
        referee += [f"Round {e.round}: {e.text}" for e in encounter.log if _is_note(e)]
    times = [e.at for e in encounter.log if e.at is not None]
    start = encounter.started_at or (min(times) if times else None)
    end = max(times) if times else start
    rounds = max((e.round for e in encounter.log), default=encounter.round)
    return EncounterRecap(encounter.name, encounter.location, rounds, start, end,
                          _fighters(entries), events, tuple(fell), tuple(healing),
                          tuple(referee))


def _journal_lines(entries: Iterable[JournalEntry]) -> tuple[JournalLine, ...]:
    ordered = sorted(entries, key=lambda entry: entry.game_time)
    return tuple(JournalLine(entry.game_time, entry.title,
                             tuple(line for line in entry.text.splitlines() if line.strip()))
                 for entry in ordered)


def build_recap(campaign: Campaign, request: RecapRequest) -> SessionRecap:
    """The recap of ``request``'s days and encounters (an id no longer there is skipped)."""
    encounters = [e for e in (campaign.find_encounter(i) for i in request.encounter_ids)
                  if e is not None]
    recaps = tuple(_encounter_recap(campaign, e, request.include_referee_notes)
                   for e in encounters)
    journal = _journal_lines(j for j in campaign.journal if request.covers(j.game_time))
    healing = tuple(f"{line.at.label}: {text}" for line in journal for text in line.lines
                    if _HEALED.search(text))
    passages = tuple(f"{line.at.label}: {line.title}" for line in journal
                     if line.title.startswith("Time passes"))
    moments = [m for r in recaps for m in (r.start, r.end) if m is not None]
    moments += [line.at for line in journal]
    referee = (campaign.notes.strip(),) if request.include_referee_notes and \
        campaign.notes.strip() else ()
    return SessionRecap(campaign.name, request.first_day, request.last_day,
                        min(moments) if moments else None, max(moments) if moments else None,
                        recaps, journal, healing, passages, referee)
