"""A session recap as a printable document: the same model goes to paper, PDF, HTML and
Markdown (:mod:`.markdown`), so every format tells the same story."""

from __future__ import annotations

from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.session_recap import (
    EncounterRecap,
    SessionRecap,
    duration_text,
)
from mneme_desktop.export.document import (
    Align,
    Block,
    Column,
    ExportDocument,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
)
from mneme_desktop.export.safe_text import sanitised

__all__ = ["recap_document", "recap_title"]


def _when(moment: GameTime | None) -> str:
    return moment.label if moment is not None else "—"


def _days(recap: SessionRecap) -> str:
    if recap.first_day == recap.last_day:
        return f"Day {recap.first_day}"
    return f"Days {recap.first_day}–{recap.last_day}"


def recap_title(recap: SessionRecap) -> str:
    return f"Session recap: {_days(recap)} · {recap.campaign}"


def _damage_text(damage: tuple[int, ...]) -> str:
    """"4, 2, 5 = 11" for several damage rolls, "13" for one, nothing for none."""
    if len(damage) > 1:
        return f"{', '.join(map(str, damage))} = {sum(damage)}"
    return str(damage[0]) if damage else ""


def _encounter_blocks(fight: EncounterRecap) -> list[Block]:
    blocks: list[Block] = []
    facts = [("Where", fight.location)] if fight.location else []
    facts += [("From", _when(fight.start)), ("To", _when(fight.end)),
              ("Rounds", f"{fight.rounds} ({duration_text(fight.seconds)} of combat)")]
    blocks.append(Fields(fight.name, tuple(facts)))
    blocks.append(Table(
        "Who acted",
        (Column("Name", stretch=1.0), Column("Actions", Align.RIGHT), Column("Hits", Align.RIGHT),
         Column("Damage dealt", Align.RIGHT), Column("Damage taken", Align.RIGHT)),
        tuple((f.name, str(f.actions), str(f.hits), str(f.damage_dealt), str(f.damage_taken))
              for f in fight.fighters),
        empty="Nobody acted in this encounter's log.",
    ))
    blocks.append(Table(
        "Hits and wounds",
        (Column("Round", Align.RIGHT), Column("Who"), Column("What", stretch=1.0),
         Column("Damage", Align.RIGHT), Column("What changed", stretch=1.0)),
        tuple((str(e.round),
               f"{e.actor} → {e.target}" if e.target and e.target != e.actor else e.actor,
               e.action,
               _damage_text(e.damage),
               "\n".join(e.state_changes) or ("" if e.damage else e.text))
              for e in fight.events),
        empty="No hits and no wounds.",
    ))
    blocks.append(Text("Who fell", fight.fell or ("Nobody fell.",)))
    if fight.healing:
        blocks.append(Text("Healing during the fight", fight.healing))
    if fight.referee_notes:
        blocks.append(Text("Referee notes", fight.referee_notes, small=True))
    return blocks


def recap_document(recap: SessionRecap) -> ExportDocument:
    """The recap as one sheet, its text made safe to print."""
    blocks: list[Block] = [Fields("Time", (
        ("From", _when(recap.start)), ("To", _when(recap.end)),
        ("Time passed", duration_text(recap.seconds)),
    ))]
    if recap.time_passages:
        blocks.append(Text("Time passing", recap.time_passages))
    for fight in recap.encounters:
        blocks += _encounter_blocks(fight)
    blocks.append(Text("Healing and recovery in the journal",
                       recap.healing or ("No healing in the journal on these days.",)))
    if recap.journal:
        blocks += [Text(f"{line.at.label} · {line.title or 'Journal'}", line.lines or ("",))
                   for line in recap.journal]
    else:
        blocks.append(Text("Journal", (f"No journal entries on {_days(recap).lower()}.",)))
    if recap.referee_notes:
        blocks.append(Text("Referee notes: the campaign", recap.referee_notes, small=True))
    heading = Heading("Session recap", _days(recap), (recap.campaign,))
    sheet = Sheet(heading, tuple(blocks), footer=recap_title(recap))
    return sanitised(ExportDocument(recap_title(recap), (sheet,)))
