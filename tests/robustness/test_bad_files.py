"""Bad files: hypothesis mutates a real campaign file in every way a file goes bad (bytes
flipped, cut short, fields retyped, numbers out of range, deep nesting, 50 MB strings).

Over 2,000 cases in all. Every one ends in a CampaignLoadError with a message, or in a valid
campaign; never another exception, never a hang (pytest-timeout), and a file that went
through ``load_campaign`` is left exactly as it was (bytes and mtime). Most cases are decoded
in memory with ``campaign_from_json`` (the same code ``load_campaign`` runs after reading);
a sample goes through real files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mneme_desktop.domain import Campaign
from mneme_desktop.storage import (
    CampaignLoadError,
    build_sample_campaign,
    campaign_from_json,
    campaign_to_json,
    load_campaign,
)

pytestmark = pytest.mark.timeout(240)

GOOD = campaign_to_json(build_sample_campaign())
DOCUMENT = json.loads(GOOD)
_FAST = settings(deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

CASES = {"flip": 500, "cut": 300, "retype": 500, "remove or add": 150, "range": 400,
         "text": 100, "deep": 120, "50 MB": 4, "file": 200}
"""Examples per test; "cut" checks two files per example."""


def cases(kind: str) -> settings:
    return settings(_FAST, max_examples=CASES[kind])

Path_ = tuple[str | int, ...]


def _paths(value: Any, prefix: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield prefix, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


ALL_PATHS = [path for path, _ in _paths(DOCUMENT) if path]
NUMBER_PATHS = [path for path, value in _paths(DOCUMENT)
                if isinstance(value, int | float) and not isinstance(value, bool)]
STRING_PATHS = [path for path, value in _paths(DOCUMENT) if isinstance(value, str)]
assert len(ALL_PATHS) > 500 and len(NUMBER_PATHS) > 100 and len(STRING_PATHS) > 100


def _replaced(path: Path_, value: Any) -> dict[str, Any]:
    document = json.loads(GOOD)
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return document


def _encode(document: Any) -> bytes:
    return json.dumps(document, indent=2, allow_nan=True).encode("utf-8")


def check(data: bytes) -> Campaign | None:
    """The contract: a valid campaign or a CampaignLoadError with a message, nothing else."""
    try:
        campaign = campaign_from_json(data)
    except CampaignLoadError as exc:
        message = str(exc)
        assert message.strip(), "a CampaignLoadError without a message"
        assert "Traceback" not in message
        return None
    # Whatever loaded is a campaign the app can hold, save and open again.
    Campaign.model_validate(campaign.model_dump())
    again = campaign_from_json(campaign_to_json(campaign))
    assert again.model_dump() == campaign.model_dump()
    return campaign


# --- bytes ---------------------------------------------------------------------------------


@cases("flip")
@given(st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(0, 255)),
                min_size=1, max_size=8))
def test_flipped_bytes(flips: list[tuple[int, int]]) -> None:
    data = bytearray(GOOD)
    for position, value in flips:
        data[position] = value
    check(bytes(data))


@cases("cut")
@given(st.integers(0, len(GOOD) - 1), st.integers(0, 64))
def test_cut_short_or_cut_out(end: int, hole: int) -> None:
    check(GOOD[:end])
    check(GOOD[:end] + GOOD[end + hole:])


# --- fields --------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)


@cases("retype")
@given(st.sampled_from(ALL_PATHS), JSON_VALUES)
def test_fields_retyped(path: Path_, value: Any) -> None:
    check(_encode(_replaced(path, value)))


@cases("remove or add")
@given(st.sampled_from(ALL_PATHS), st.data())
def test_fields_removed_or_added(path: Path_, data: st.DataObject) -> None:
    document = json.loads(GOOD)
    target = document
    for part in path[:-1]:
        target = target[part]
    if data.draw(st.booleans()):
        del target[path[-1]]
    elif isinstance(target, dict):
        target[data.draw(st.text(min_size=1, max_size=12))] = data.draw(JSON_VALUES)
    else:
        target.append(data.draw(JSON_VALUES))
    check(_encode(document))


OUT_OF_RANGE = st.one_of(
    st.integers(min_value=2**31, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-1),
    st.sampled_from([-1, 10**9 + 1, -(10**9) - 1, 2**63, -(2**63) - 1, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -0.0, 1e308, float("inf"), float("-inf"), float("nan")]),
)


@cases("range")
@given(st.sampled_from(NUMBER_PATHS), OUT_OF_RANGE)
def test_numbers_out_of_range(path: Path_, value: int | float) -> None:
    check(_encode(_replaced(path, value)))


@cases("text")
@given(st.sampled_from(STRING_PATHS),
       st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=400))
def test_strings_replaced_with_any_text(path: Path_, text: str) -> None:
    check(_encode(_replaced(path, text)))


# --- structure -----------------------------------------------------------------------------

_DEEP = "\x00deep\x00"


@cases("deep")
@given(st.sampled_from(ALL_PATHS), st.integers(1, 200_000), st.booleans())
def test_deep_nesting(path: Path_, depth: int, objects: bool) -> None:
    marker = json.dumps(_DEEP).encode()
    data = _encode(_replaced(path, _DEEP))
    nested = (b'{"a": ' * depth + b"0" + b"}" * depth) if objects else (
        b"[" * depth + b"]" * depth)
    check(data.replace(marker, nested, 1))


@cases("50 MB")
@given(st.sampled_from(STRING_PATHS), st.sampled_from(["x", "é", "\u202e", "\n"]))
def test_50_mb_string(path: Path_, letter: str) -> None:
    huge = letter * (50 * 1024 * 1024 // len(letter.encode("utf-8")))
    check(_encode(_replaced(path, huge)))


# --- through real files ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bad-files")


MUTATIONS = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, len(GOOD) - 1), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, len(GOOD) - 1), st.just(0)),
    st.tuples(st.just("retype"), st.integers(0, len(ALL_PATHS) - 1), st.integers(0, 6)),
    st.tuples(st.just("range"), st.integers(0, len(NUMBER_PATHS) - 1), st.integers(0, 3)),
)
_RETYPES: list[Any] = [None, True, "text", [], {}, 1.5, [[[]]]]
_RANGES: list[Any] = [-1, 10**12, -(10**12), 10**400]


def _mutate(kind: str, where: int, what: int) -> bytes:
    if kind == "flip":
        data = bytearray(GOOD)
        data[where] = what
        return bytes(data)
    if kind == "cut":
        return GOOD[:where]
    if kind == "retype":
        return _encode(_replaced(ALL_PATHS[where], _RETYPES[what]))
    return _encode(_replaced(NUMBER_PATHS[where], _RANGES[what]))


@cases("file")
@given(MUTATIONS)
def test_load_campaign_never_touches_the_file(folder: Path,
                                              mutation: tuple[str, int, int]) -> None:
    data = _mutate(*mutation)
    path = folder / "campaign.mneme"
    path.write_bytes(data)
    past = 1_700_000_000_123_456_789
    os.utime(path, ns=(past, past))
    before = path.stat()
    try:
        campaign = load_campaign(path)
    except CampaignLoadError as exc:
        assert str(exc).strip()
        assert exc.path == path
    else:
        Campaign.model_validate(campaign.model_dump())
    after = path.stat()
    assert path.read_bytes() == data
    assert after.st_mtime_ns == before.st_mtime_ns == past
    assert after.st_size == before.st_size
    assert sorted(p.name for p in folder.iterdir()) == ["campaign.mneme"], "load wrote a file"


def test_a_50_mb_string_in_a_file_is_not_touched(folder: Path) -> None:
    sub = folder / "huge"
    sub.mkdir()
    path = sub / "campaign.mneme"
    path.write_bytes(_encode(_replaced(STRING_PATHS[0], "y" * (50 * 1024 * 1024))))
    before = path.stat()
    try:
        load_campaign(path)
    except CampaignLoadError as exc:
        assert str(exc).strip()
    after = path.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    assert [p.name for p in sub.iterdir()] == ["campaign.mneme"]


def test_the_case_count_meets_the_brief() -> None:
    """At least 2,000 mutated files in total (hypothesis runs max_examples unless it runs
    out of distinct inputs, which none of these spaces does)."""
    assert sum(CASES.values()) + CASES["cut"] + 1 >= 2000
