"""The encounter log as text, for export and the log's tooltip.
"""

from __future__ import annotations

from collections.abc import Iterable

from mneme_desktop.domain.combat.common import _signed
from mneme_desktop.domain.encounter import Encounter, EncounterLogEntry


def format_log_entry(entry: EncounterLogEntry) -> str:
    """One log entry as a line of text (for export and the log's tooltip)."""
    parts = [f"Round {entry.round}"]
    if entry.at is not None:
        parts[0] += f" ({entry.at.label})"
    who = entry.actor or "—"
    action = f"{who}: {entry.action}" if entry.action else who
    if entry.target and entry.target != entry.actor:
        action += f" → {entry.target}"
    parts.append(action)
    if entry.dice:
        roll = "+".join(str(d) for d in entry.dice)
        if entry.difficulty is not None:
            roll += f" {_signed(entry.modifier)} vs {entry.difficulty}"
        parts.append(f"dice {roll}")
    if entry.effect is not None:
        parts.append(f"Effect {_signed(entry.effect)}")
    if entry.damage:
        parts.append(f"damage {', '.join(map(str, entry.damage))} (total {sum(entry.damage)})")
    if entry.state_changes:
        parts.append("; ".join(entry.state_changes))
    if entry.text:
        parts.append(entry.text)
    return " · ".join(parts)


def log_as_text(encounter: Encounter, entries: Iterable[EncounterLogEntry] | None = None) -> str:
    """The encounter log as plain text, one entry per line, with a heading."""
    chosen = list(encounter.log if entries is None else entries)
    header = [f"Encounter: {encounter.name}"]
    if encounter.location:
        header.append(f"Location: {encounter.location}")
    header.append(f"{len(chosen)} log entries")
    return "\n".join([*header, "", *(format_log_entry(e) for e in chosen)]) + "\n"
