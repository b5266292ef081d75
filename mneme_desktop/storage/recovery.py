"""What an autosave would bring back, in a few words for the recovery prompt.

After a crash the campaign file may have changed too (a sync client, a NAS, an import, a
git checkout), so the referee is told what changed on each side since the file was
opened: "characters added: Ana, Bo" in the autosave, "encounter removed: Ambush" in the
file. Items are matched by id, so a renamed character is "changed", not removed and added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mneme_desktop.domain.campaign import Campaign

__all__ = ["Changes", "changes_between", "describe_recovery"]

_LISTS: tuple[tuple[str, str, str], ...] = (
    ("characters", "character", "characters"),
    ("encounters", "encounter", "encounters"),
    ("adversary_library", "adversary template", "adversary templates"),
    ("journal", "journal entry", "journal entries"),
)
_SHOWN_NAMES = 3


class Changes:
    """Differences from one campaign to another, as phrases ("2 characters added: A, B")."""

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = phrases

    def __bool__(self) -> bool:
        return bool(self.phrases)

    def __str__(self) -> str:
        return "; ".join(self.phrases) if self.phrases else "no changes"


def _label(item: Any) -> str:
    stats = getattr(item, "stats", None)  # an adversary template is named by its stat block
    name = getattr(item, "name", None) or getattr(item, "title", None) or \
        getattr(stats, "name", None)
    return str(name) if name else str(getattr(item, "id", "?"))[:8]


def _names(items: Sequence[Any]) -> str:
    shown = ", ".join(_label(item) for item in items[:_SHOWN_NAMES])
    rest = len(items) - _SHOWN_NAMES
    return f"{shown} and {rest} more" if rest > 0 else shown


def _phrase(items: Sequence[Any], one: str, many: str, what: str) -> str:
    noun = one if len(items) == 1 else many
    return f"{len(items)} {noun} {what} ({_names(items)})"


def changes_between(old: Campaign, new: Campaign) -> Changes:
    """What ``new`` adds, removes and changes relative to ``old``."""
    phrases: list[str] = []
    for field, one, many in _LISTS:
        before = {item.id: item for item in getattr(old, field)}
        after = {item.id: item for item in getattr(new, field)}
        added = [item for key, item in after.items() if key not in before]
        removed = [item for key, item in before.items() if key not in after]
        changed = [item for key, item in after.items()
                   if key in before and item != before[key]]
        for items, what in ((added, "added"), (removed, "removed"), (changed, "changed")):
            if items:
                phrases.append(_phrase(items, one, many, what))
    listed = {field for field, _, _ in _LISTS}
    details = [name for name in type(new).model_fields
               if name not in listed and getattr(old, name) != getattr(new, name)]
    if details:
        phrases.append("campaign details changed (" + ", ".join(
            name.replace("_", " ") for name in details[:_SHOWN_NAMES]) + ")")
    return Changes(phrases)


def describe_recovery(
    autosave: Campaign,
    current: Campaign | None,
    base: Campaign | None,
    *,
    current_problem: str | None = None,
) -> str:
    """The recovery prompt's summary: what the autosave holds that the file does not.

    ``base`` is the campaign as the file was when the autosaved session opened it (None if
    unknown); ``current`` is the file now (None if it is gone or cannot be opened, with
    ``current_problem`` saying why).
    """
    if current is None:
        why = current_problem or "the campaign file is missing"
        return (f"The file cannot be used ({why}); the autosave holds "
                f"{len(autosave.characters)} characters and {len(autosave.encounters)} "
                "encounters.")
    if base is None:
        return (f"Compared with the file, the autosave has: {changes_between(current, autosave)}. "
                "(What was in the file when it was opened is not known.)")
    mine = changes_between(base, autosave)
    theirs = changes_between(base, current)
    text = f"Unsaved changes in the autosave: {mine}."
    if theirs:
        text += (f"\nThe file was also changed since it was opened (by another program): "
                 f"{theirs}. Recovering keeps the autosave's version; save a copy first if "
                 "you need the file's changes.")
    return text
