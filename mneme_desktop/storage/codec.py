"""Campaign <-> bytes, with every way a file can be wrong turned into a CampaignLoadError.

Happy path: one validation of the raw bytes in pydantic-core (fast), then a check that no
key was given twice (the parser would keep the last silently). When values are wrong the
fast path's errors are reported directly; otherwise the slow path says exactly why: bad
UTF-8, bad JSON (line and column), another kind of file, an older schema to migrate, a
newer schema to refuse.

Refusing is bounded: each list stops at its first bad item (a file of ten million bad
items has one error, not ten million), only the problems shown are located, in one walk
over the text, and a large file too dense to be a campaign is refused before parsing.
"""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import CoreConfig, SchemaValidator

from mneme_desktop.domain.campaign import CAMPAIGN_FORMAT, SCHEMA_VERSION, Campaign
from mneme_desktop.storage.diagnostics import (
    Problem,
    describe_json_error,
    duplicate_key,
    line_of,
    locate,
    locate_all,
    summarise,
    validation_problems,
)
from mneme_desktop.storage.errors import (
    CampaignLoadError,
    CampaignSaveError,
    MigrationError,
    NewerSchemaError,
)
from mneme_desktop.storage.layout import campaign_to_json
from mneme_desktop.storage.migrations import MIGRATIONS, MigrationRegistry, MigrationStepError

__all__ = [
    "CHARACTER_FORMAT",
    "MAX_CAMPAIGN_BYTES",
    "DocumentError",
    "campaign_from_json",
    "campaign_to_json",
    "fail_fast_schema",
    "fail_fast_validator",
    "parse_json_document",
    "use_fail_fast_validator",
]

MAX_CAMPAIGN_BYTES = 256 * 1024 * 1024
"""Largest campaign file opened (256 MiB). A campaign of 10,000 detailed characters is
well under 100 MiB; anything larger is almost surely not a campaign, and reading it would
stall the app."""

CHARACTER_FORMAT = "mneme-character"

log = logging.getLogger(__name__)

_REQUIRED_IN_FILE = frozenset({"format", "schema_version"})

_OTHER_FORMATS = {
    CHARACTER_FORMAT: "a single character exported from Mneme Desktop; use Import Character "
    "to add it to a campaign",
    "ce-char-1": "a character from CE CharacterGen; use Import Character to add it to a campaign",
}


ModelT = TypeVar("ModelT", bound=BaseModel)


_fail_fast_validators: dict[type[BaseModel], SchemaValidator] = {}


def fail_fast_validator(model: type[BaseModel]) -> SchemaValidator:
    """``model``'s validator, but each list stops at its first bad item.

    The model's own validator reports every bad item: a 20 MB list of ten million zeros
    gave ten million errors and 14 GB of memory before a message could be shown. A message
    shows a handful, so the rest need not exist. Valid files validate exactly as before.
    Built on first use, or made from a kept schema (:mod:`.schema_cache`).
    """
    validator = _fail_fast_validators.get(model)
    if validator is None:
        validator = use_fail_fast_validator(model, SchemaValidator(*fail_fast_schema(model)))
    return validator


def use_fail_fast_validator(model: type[BaseModel],
                            validator: SchemaValidator) -> SchemaValidator:
    """Make ``validator`` (built from :func:`fail_fast_schema`) ``model``'s fail-fast
    validator, unless it has one already; the one it has."""
    return _fail_fast_validators.setdefault(model, validator)


def fail_fast_schema(model: type[BaseModel]) -> tuple[Any, CoreConfig]:
    """The core schema and config :func:`fail_fast_validator` builds ``model``'s validator
    from: the model's own, with every list fail-fast and without the JSON-schema metadata
    (validation does not read it)."""
    if not model.__pydantic_complete__:  # domain models defer building until first use
        model.model_rebuild()
    schema = _fail_fast_copy(model.__pydantic_core_schema__)
    config = CoreConfig(title=model.__name__)
    if model.model_config.get("extra") == "forbid":
        config["extra_fields_behavior"] = "forbid"
    return schema, config


def _fail_fast_copy(node: Any) -> Any:
    """``node`` with its dicts and lists copied (the model's own schema stays as it is),
    every list-like schema in it marked fail-fast and the ``metadata`` of pydantic's JSON
    schema left out; other values are shared, not copied."""
    if isinstance(node, dict):
        copied = {key: _fail_fast_copy(value) for key, value in node.items()
                  if key != "metadata"}
        if copied.get("type") in ("list", "tuple", "set", "frozenset"):
            copied["fail_fast"] = True
        return copied
    if isinstance(node, list):
        return [_fail_fast_copy(item) for item in node]
    return node


def validate_document(model: type[ModelT], document: Any) -> ModelT:
    """``model.model_validate`` with the fail-fast validator (bounded errors)."""
    result = fail_fast_validator(model).validate_python(document)
    assert isinstance(result, model)
    return result


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


def _keep(campaign: Campaign) -> Campaign:
    """Freeze what a load built (``gc.freeze``), inside :func:`_bulk_allocation`.

    With the collector paused, every object of the campaign is still in the youngest
    generation; once it is enabled again, the first collections walked all of them (about
    60 ms for 1,000 characters, 0.9 s for 10,000) only to find none was garbage. Frozen,
    later collections skip them. Freezing takes no time and keeps nothing alive: an object
    that is no longer used is still released when its last reference goes (campaign
    models hold no reference cycles). Objects that were already waiting for a collection
    are frozen with them; the app's start-up freezes the same way.
    """
    gc.freeze()
    return campaign


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
    shown = tuple(str(p) for p in problems[:_KEPT_PROBLEMS])
    _fail(source, head, line=line, problems=shown)


_KEPT_PROBLEMS = 100
"""Problems kept on the error for callers (the message shows fewer)."""


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
        return json.loads(text, parse_constant=reject_constant, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError:
        raise _duplicate_error(text) from None
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


class _DuplicateKeyError(ValueError):
    """A JSON object with the same key twice (the parser would silently keep the last)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKeyError("duplicate key")
    return result


def _duplicate_error(text: str) -> DocumentError:
    found = duplicate_key(text)
    if found is None:
        return DocumentError("the same key appears twice in one of its objects")
    path, offset = found
    line = line_of(text, offset)
    key = path.rsplit(".", 1)[-1].split("[")[0] if path else path
    return DocumentError(
        f'the key "{key}" appears twice in the same object (at {path}, line {line}); only one '
        "can be kept, so the file is refused rather than guessed at. Remove the one that is "
        "wrong",
        line,
    )


def refuse_duplicate_keys(raw: bytes) -> None:
    """DocumentError if any object in ``raw`` (valid JSON) has a key twice."""
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
    try:
        json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError:
        raise _duplicate_error(text) from None
    except (ValueError, RecursionError):
        pass  # not for this check to judge


def campaign_from_json(
    data: bytes | str,
    *,
    source: Path | str | None = None,
    registry: MigrationRegistry = MIGRATIONS,
    known_free_of_duplicates: Callable[[], bool] | None = None,
) -> Campaign:
    """Bytes (or text) of a campaign file -> Campaign; anything else -> CampaignLoadError.

    ``source`` only names the file in messages. Older schemas are migrated in memory.
    ``known_free_of_duplicates`` answers, once the bytes are validated, whether they are
    known to give no key twice (:mod:`.known_files`); then that check is spared.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_CAMPAIGN_BYTES:
        _fail(source, _too_big(len(raw)))
    try:
        return _decode(raw, source, registry, known_free_of_duplicates)
    except CampaignLoadError:
        raise
    except Exception as exc:  # the contract: a bad file never surfaces as another error
        log.exception("Unexpected error reading campaign %s", source)
        _fail(source, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})")


DENSE_CHECK_BYTES = 4 * 1024 * 1024
MIN_BYTES_PER_VALUE = 6
"""A campaign averages over 10 bytes per JSON value even written without spaces (16 as
saved). Parsing costs ~32 bytes of memory per value, so a large file of two-byte values
(``0,0,0,...``) would need 16 times its size (4 GB for 256 MiB) just to be refused. Files
of at least DENSE_CHECK_BYTES averaging under MIN_BYTES_PER_VALUE are refused unparsed, so
no refusal costs more than ~64 MB (16 times 4 MiB) beyond the file itself."""


MIN_BYTES_PER_OBJECT = 64
MAX_OBJECTS = 1_000_000
"""A saved campaign averages 250 to 350 bytes per JSON object (137 written without spaces);
the 1,000-character campaign of the benchmarks has 54,000. Each object becomes a model of
up to ~2 KB in memory, so a valid file of tiny objects (1.8 million minimal journal entries
in 40 MB) took 3 GB and 24 s to load. Files of at least DENSE_CHECK_BYTES with more objects
than one per MIN_BYTES_PER_OBJECT bytes, or more than MAX_OBJECTS, are refused unparsed:
loading then never needs more than about 2 GB, and ~32 times the file below that."""


_ALL_BUT_MARKS = bytes(byte for byte in range(256) if byte not in b",:{")


def _refuse_dense(raw: bytes, source: Path | str | None) -> None:
    if len(raw) < DENSE_CHECK_BYTES:
        return
    # One pass keeps only the commas, colons and braces (~1/9 of a campaign's bytes);
    # counting each in the whole file took three passes, ~18 ms for 10 MB.
    marks = raw.translate(None, _ALL_BUT_MARKS)
    values = marks.count(b",") + marks.count(b":") + 1  # an upper bound on values
    if len(raw) < MIN_BYTES_PER_VALUE * values:
        _fail(
            source,
            f"it packs about {values / 1e6:.0f} million values into "
            f"{len(raw) / 1024 / 1024:.0f} MiB ({len(raw) / values:.1f} bytes each); a "
            "campaign's values are far larger, so this is not a campaign file",
        )
    objects = marks.count(b"{")  # an upper bound on objects
    if objects > MAX_OBJECTS or len(raw) < MIN_BYTES_PER_OBJECT * objects:
        _fail(
            source,
            f"it holds about {objects:,} records in {len(raw) / 1024 / 1024:.0f} MiB "
            f"({len(raw) / max(objects, 1):.0f} bytes each); a campaign's records are far "
            f"larger and fewer (at most {MAX_OBJECTS:,}), and loading this many would need "
            "gigabytes of memory",
        )


def _decode(raw: bytes, source: Path | str | None, registry: MigrationRegistry,
            known_free_of_duplicates: Callable[[], bool] | None = None) -> Campaign:
    _refuse_dense(raw, source)
    try:
        with _bulk_allocation():
            campaign = fail_fast_validator(Campaign).validate_json(raw)
            assert isinstance(campaign, Campaign)
            # Defaults fill in for construction in code; a file must say what it is.
            if campaign.model_fields_set >= _REQUIRED_IN_FILE:
                if known_free_of_duplicates is None or not known_free_of_duplicates():
                    _check_duplicates(raw, campaign, source)
                return _keep(campaign)
    except ValidationError as exc:
        _report_plain_errors(exc, raw, source)
    with _bulk_allocation():
        return _keep(_slow_path(raw, source, registry))


def _check_duplicates(raw: bytes, campaign: Campaign, source: Path | str | None) -> None:
    """Refuse a key given twice, which the fast parser silently resolves to the last.

    A file this app wrote is byte for byte what the campaign serialises to, and such a
    file cannot hold a duplicate: serialising and comparing costs ~45 ms for 1,000
    characters (the validation is ~105 ms), and contents known from
    :mod:`.known_files` skip even that. Other files (hand-edited, or written by another
    tool) pay for a second parse that counts keys.
    """
    try:
        if campaign_to_json(campaign) == raw:
            return
    except CampaignSaveError:
        pass
    try:
        refuse_duplicate_keys(raw)
    except DocumentError as exc:
        _fail(source, exc.reason, line=exc.line)


_HEADER_FIELDS = frozenset({"format", "schema_version"})
_FOR_THE_SLOW_PATH = frozenset({"finite_number"})  # NaN: the JSON parser explains it better


def _report_plain_errors(exc: ValidationError, raw: bytes, source: Path | str | None) -> None:
    """Refuse straight from the fast path's errors when they are all about values.

    Then the file is JSON and a campaign of this schema, so the slow path (which builds
    the whole document as Python objects, many times the file's size for a hostile file)
    has nothing to add. Returns when the slow path should explain instead.
    """
    errors = exc.errors(include_url=False, include_input=False)
    for error in errors:
        loc = error["loc"]
        if not loc or loc[0] in _HEADER_FIELDS or error["type"] in _FOR_THE_SLOW_PATH \
                or error["type"].startswith("json"):
            return
    text = raw.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        return
    header = locate_all(text, [("format",), ("schema_version",)])
    if any(not text.startswith(f'"{key[0]}"', offset or 0) for key, offset in header.items()):
        return  # a header line is missing: the slow path says what the file is instead
    exc = _full_errors(raw, exc)
    _fail_problems(source, validation_problems(exc, text), "some values are not valid")


FULL_REPORT_BYTES = 128 * 1024
"""Files up to this size are validated again in full when they fail, so the message can
count every problem; larger ones report the first bad item of each list (bounded memory:
a file of this size yields at most ~64,000 errors, ~60 MB)."""


def _full_errors(raw: bytes | None, exc: ValidationError, document: Any = None
                 ) -> ValidationError:
    """Every error of a small file, else the fail-fast errors ``exc`` already holds."""
    if raw is None or len(raw) > FULL_REPORT_BYTES:
        return exc
    try:
        if document is not None:
            Campaign.model_validate(document)
        else:
            Campaign.model_validate_json(raw)
    except ValidationError as full:
        return full
    return exc


def _too_big(size: int, limit: int = MAX_CAMPAIGN_BYTES, what: str = "campaign") -> str:
    return (
        f"it is {size / 1024 / 1024:.0f} MiB, larger than the {limit // 1024 // 1024}"
        f" MiB a {what} file may be"
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
        return validate_document(Campaign, document)
    except ValidationError as exc:
        exc = _full_errors(raw, exc, document)
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
            fail_fast_validator(Campaign).validate_json(data)
    except ValidationError as exc:
        exc = _full_errors(data, exc)
        text = data.decode("utf-8", "replace")
        problems = validation_problems(exc, text)
        raise CampaignSaveError(
            f"'{name}' was not saved because the campaign has problems that would stop it "
            f"from opening again:\n{summarise(problems)}\nThe previous version of the file "
            "is unchanged."
        ) from None
