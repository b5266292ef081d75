"""Campaign <-> bytes, with every way a file can be wrong turned into a CampaignLoadError.

Happy path: one ``Campaign.model_validate_json`` over the raw bytes (fast, done in
pydantic-core). Only if that fails does the slow path run, to say exactly why: bad UTF-8,
bad JSON (line and column), another kind of file, an older schema to migrate, a newer
schema to refuse, or fields that do not validate (path and line).
"""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from mneme_desktop.domain.campaign import CAMPAIGN_FORMAT, SCHEMA_VERSION, Campaign
from mneme_desktop.storage.diagnostics import (
    Problem,
    describe_json_error,
    line_of,
    locate,
    summarise,
    validation_problems,
)
from mneme_desktop.storage.errors import (
    CampaignLoadError,
    CampaignSaveError,
    MigrationError,
    NewerSchemaError,
)
from mneme_desktop.storage.migrations import MIGRATIONS, MigrationRegistry, MigrationStepError

__all__ = [
    "CHARACTER_FORMAT",
    "INDENT",
    "MAX_CAMPAIGN_BYTES",
    "DocumentError",
    "campaign_from_json",
    "campaign_to_json",
    "parse_json_document",
]

MAX_CAMPAIGN_BYTES = 256 * 1024 * 1024
"""Largest campaign file opened (256 MiB). A campaign of 10,000 detailed characters is
well under 100 MiB; anything larger is almost surely not a campaign, and reading it would
stall the app."""

INDENT = 2
CHARACTER_FORMAT = "mneme-character"

log = logging.getLogger(__name__)

_REQUIRED_IN_FILE = frozenset({"format", "schema_version"})

_OTHER_FORMATS = {
    CHARACTER_FORMAT: "a single character exported from Mneme Desktop; use Import Character "
    "to add it to a campaign",
    "ce-char-1": "a character from CE CharacterGen; use Import Character to add it to a campaign",
}


@contextmanager
def _bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while a campaign's objects are built.

    Building tens of thousands of models triggers collection passes that scan everything
    already built, over and over; nothing built here is garbage, so pausing them more than
    halves load time. The collector's previous state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def campaign_to_json(campaign: Campaign) -> bytes:
    """The file form of a campaign: UTF-8 JSON, 2-space indent, keys in schema order, newline.

    Deterministic: the same campaign always gives the same bytes, so files diff cleanly and
    unchanged campaigns are recognised by comparing bytes.
    """
    try:
        text = campaign.model_dump_json(indent=INDENT)
        return text.encode("utf-8") + b"\n"
    except (PydanticSerializationError, UnicodeEncodeError, ValueError) as exc:
        raise CampaignSaveError(
            f"The campaign could not be written out: {exc}. Nothing was saved."
        ) from exc


def _name(source: Path | str | None) -> str:
    if source is None:
        return "The data"
    return f"'{Path(source).name}'"


def _fail(
    source: Path | str | None,
    reason: str,
    *,
    line: int | None = None,
    problems: tuple[str, ...] = (),
) -> NoReturn:
    path = Path(source) if source is not None else None
    raise CampaignLoadError(
        f"{_name(source)} cannot be opened as a campaign: {reason}",
        path=path,
        line=line,
        problems=problems,
    )


def _fail_problems(source: Path | str | None, problems: list[Problem], lead: str) -> NoReturn:
    count = len(problems)
    head = f"{lead} ({count} problem{'s' if count != 1 else ''}):\n{summarise(problems)}"
    line = next((p.line for p in problems if p.line is not None), None)
    _fail(source, head, line=line, problems=tuple(str(p) for p in problems))


class DocumentError(ValueError):
    """Bytes that are not a JSON document; ``reason`` completes "cannot be opened: ..."."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def parse_json_document(data: bytes, what: str) -> Any:
    """Bytes -> JSON value; DocumentError for empty files, bad UTF-8, bad JSON, NaN, nesting.

    ``what`` names the expected content in messages ("campaign", "character").
    """
    if not data.strip():
        raise DocumentError(f"the file is empty, so it holds no {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DocumentError(
            f"it is not UTF-8 text (bad byte at line {line}); it may be damaged or "
            f"not a {what} at all",
            line,
        ) from None
    text = text.removeprefix("\ufeff")

    def reject_constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not allowed in a {what} file (numbers must be finite)")

    try:
        return json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        raise DocumentError(
            f"it is not valid JSON: {describe_json_error(exc)}", exc.lineno
        ) from None
    except RecursionError:
        raise DocumentError(f"it is nested too deeply to be a {what} file") from None
    except ValueError as exc:  # NaN / Infinity, or an integer of thousands of digits
        if "integer" in str(exc):
            raise DocumentError("it holds a number thousands of digits long") from None
        raise DocumentError(str(exc)) from None


def campaign_from_json(
    data: bytes | str,
    *,
    source: Path | str | None = None,
    registry: MigrationRegistry = MIGRATIONS,
) -> Campaign:
    """Bytes (or text) of a campaign file -> Campaign; anything else -> CampaignLoadError.

    ``source`` only names the file in messages. Older schemas are migrated in memory.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_CAMPAIGN_BYTES:
        _fail(source, _too_big(len(raw)))
    try:
        return _decode(raw, source, registry)
    except CampaignLoadError:
        raise
    except Exception as exc:  # the contract: a bad file never surfaces as another error
        log.exception("Unexpected error reading campaign %s", source)
        _fail(source, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})")


def _decode(raw: bytes, source: Path | str | None, registry: MigrationRegistry) -> Campaign:
    try:
        with _bulk_allocation():
            campaign = Campaign.model_validate_json(raw)
        # Defaults fill in for construction in code; a file must say what it is.
        if campaign.model_fields_set >= _REQUIRED_IN_FILE:
            return campaign
    except ValidationError:
        pass
    with _bulk_allocation():
        return _slow_path(raw, source, registry)


def _too_big(size: int) -> str:
    return (
        f"it is {size / 1024 / 1024:.0f} MiB, larger than the {MAX_CAMPAIGN_BYTES // 1024 // 1024}"
        " MiB a campaign file may be"
    )


def _slow_path(raw: bytes, source: Path | str | None, registry: MigrationRegistry) -> Campaign:
    try:
        document = parse_json_document(raw, "campaign")
    except DocumentError as exc:
        _fail(source, exc.reason, line=exc.line)
    text = raw.decode("utf-8").removeprefix("\ufeff")
    if not isinstance(document, dict):
        kind = {list: "a list", str: "a text", int: "a number", float: "a number"}.get(
            type(document), "a single value"
        )
        _fail(source, f"it holds {kind}, not a Mneme campaign (which is a JSON object {{...}})")
    file_format = document.get("format")
    if file_format != CAMPAIGN_FORMAT:
        if isinstance(file_format, str) and file_format in _OTHER_FORMATS:
            _fail(source, f"it is {_OTHER_FORMATS[file_format]}")
        if file_format is not None:
            _fail(
                source,
                f"its format is {json.dumps(file_format)[:60]}, not {json.dumps(CAMPAIGN_FORMAT)}",
                line=line_of(text, locate(text, ("format",))),
            )
        if "schema_version" not in document:
            _fail(source, "it is JSON, but not a Mneme campaign (no format or schema_version)")
        _fail(source, 'it has no "format": "mneme-campaign" line, so it is not a Mneme campaign')
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        line = line_of(text, locate(text, ("schema_version",)))
        shown = "missing" if "schema_version" not in document else json.dumps(version)[:40]
        _fail(
            source,
            f"schema_version must be a whole number, but it is {shown}",
            line=line,
        )
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"{_name(source)} was saved by a newer version of Mneme Desktop (campaign schema "
            f"{version}); this version reads schemas up to {SCHEMA_VERSION}. Update Mneme "
            "Desktop to open it. The file has not been changed.",
            path=Path(source) if source is not None else None,
            file_version=version,
            supported=SCHEMA_VERSION,
        )
    migrated_from: int | None = None
    if version < SCHEMA_VERSION:
        try:
            document = registry.migrate(document, version, SCHEMA_VERSION)
        except MigrationStepError as exc:
            raise MigrationError(
                f"{_name(source)} uses campaign schema {version} and cannot be upgraded to "
                f"schema {SCHEMA_VERSION}: {exc}. The file has not been changed.",
                path=Path(source) if source is not None else None,
            ) from exc
        migrated_from = version
    try:
        return Campaign.model_validate(document)
    except ValidationError as exc:
        located_in = None if migrated_from is not None else text
        problems = validation_problems(exc, located_in)
        lead = "some values are not valid"
        if migrated_from is not None:
            lead += f" after upgrading it from schema {migrated_from}"
        _fail_problems(source, problems, lead)
    except RecursionError:
        _fail(source, "it is nested too deeply to be a Mneme campaign")


def verify_campaign_bytes(data: bytes, name: str) -> None:
    """Refuse to write bytes this version could not open again (CampaignSaveError)."""
    try:
        with _bulk_allocation():
            Campaign.model_validate_json(data)
    except ValidationError as exc:
        text = data.decode("utf-8", "replace")
        problems = validation_problems(exc, text)
        raise CampaignSaveError(
            f"'{name}' was not saved because the campaign has problems that would stop it "
            f"from opening again:\n{summarise(problems)}\nThe previous version of the file "
            "is unchanged."
        ) from None
