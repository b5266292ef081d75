"""Save's check that a campaign opens again, paid only for what changed since the last check.

A save must not write a campaign this version could not open again. Validating all the
bytes (as a load does) was more than half of saving 1,000 characters. But the file's
records validate one by one: a character, an encounter or a journal entry is valid or not
on its own, and what ties them together (unique ids, references that resolve) is
:meth:`Campaign.integrity_problems`. So the records of every file that passed a check are
kept, and a save validates only the records it has not seen, the campaign's own fields if
they changed, then the ties. The file's layout (:mod:`.layout`, one record per line) makes
the records easy to tell apart without parsing.

Anything this path cannot vouch for goes to the full validation, which is also what words
the refusal: the check never says yes where the full one would say no.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from mneme_desktop.domain.campaign import SCHEMA_VERSION, Campaign
from mneme_desktop.storage.codec import fail_fast_validator, verify_campaign_bytes
from mneme_desktop.storage.layout import FileParts, cut, record_lists

__all__ = ["VerifiedParts"]


class _Known:
    """The parts of campaign files already verified."""

    def __init__(self, parts: FileParts) -> None:
        self.head = parts.head
        self.records = parts.records
        self._sets: dict[str, set[bytes]] = {}

    def has_record(self, key: str, index: int, record: bytes) -> bool:
        known = self.records.get(key)
        if known is None:
            return False
        if index < len(known) and known[index] == record:  # the usual case: same place
            return True
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = set(known)
        return record in found


class VerifiedParts:
    """What a campaign's last load or save verified, to check the next save's bytes.

    One per open campaign (the session keeps it beside the file's hash). ``trust(raw)``
    records the bytes of a file that opened (validated in full by the load); ``check``
    verifies a save's bytes, validating only the parts not seen before, and remembers them.
    """

    def __init__(self) -> None:
        self._known: _Known | None = None
        self._trusted: bytes | None = None
        self.validated_records = 0
        """Records validated by the last check (for tests and benchmarks)."""
        self.validated_head = False
        """Whether the last check validated the campaign's own fields."""
        self.validated_whole = False
        """Whether the last check fell back to validating the whole file."""

    def trust(self, raw: bytes) -> None:
        """Remember ``raw``, bytes that were just opened as a campaign.

        Cut into parts only when a save needs them. Bytes of another schema (a file that
        was upgraded on load) are not remembered: their parts were valid before the upgrade,
        which says nothing about this schema.
        """
        self._known = None
        self._trusted = raw

    def check(self, data: bytes, campaign: Campaign, name: str) -> None:
        """Raise CampaignSaveError if ``data`` (``campaign`` written out) would not open.

        Same verdict as validating all of ``data``; validates only its new parts.
        """
        self.validated_records = 0
        self.validated_head = self.validated_whole = False
        known = self._known_parts()
        parts = cut(data)
        if parts is None or known is None or not self._new_parts_valid(parts, known) or (
                campaign.integrity_problems()):
            self.validated_whole = True
            verify_campaign_bytes(data, name)  # the full check, which words the refusal
        self._known = _Known(parts) if parts is not None else None
        self._trusted = None

    def _known_parts(self) -> _Known | None:
        if self._known is None and self._trusted is not None:
            parts = cut(self._trusted)
            self._trusted = None
            if parts is not None and _schema_of(parts.head) == SCHEMA_VERSION:
                self._known = _Known(parts)
        return self._known

    def _new_parts_valid(self, parts: FileParts, known: _Known) -> bool:
        if parts.head != known.head:
            self.validated_head = True
            if not _valid(functools.partial(_head_validator(), parts.head)):
                return False
        models = record_lists()
        if set(parts.records) != set(models):
            return False
        for key, records in parts.records.items():
            validator = fail_fast_validator(models[key]).validate_json
            for index, record in enumerate(records):
                if known.has_record(key, index, record):
                    continue
                self.validated_records += 1
                if not _valid(functools.partial(validator, record)):
                    return False
        return True


def _valid(validate: Callable[[], object]) -> bool:
    try:
        validate()
    except (ValidationError, ValueError):
        return False
    return True


def _schema_of(head: bytes) -> int | None:
    marker = b'"schema_version":'
    at = head.find(marker)
    if at < 0:
        return None
    digits = head[at + len(marker):].split(b",", 1)[0].split(b"}", 1)[0]
    return int(digits) if digits.isdigit() else None


@functools.cache
def _head_validator() -> Callable[[bytes], Any]:
    """Validates the campaign's own fields (all but its lists of records), with their
    types and constraints, refusing unknown keys, as the whole campaign would."""
    lists = record_lists()
    fields: dict[str, Any] = {
        name: (info.annotation, info)
        for name, info in Campaign.model_fields.items() if name not in lists
    }
    head: type[BaseModel] = create_model(  # type: ignore[call-overload]
        "CampaignOwnFields", __config__=ConfigDict(extra="forbid"), **fields
    )
    return fail_fast_validator(head).validate_json
