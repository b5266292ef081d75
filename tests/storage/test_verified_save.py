"""A save validates only what changed since its last check, with the same verdict as a full
check, and loads skip the duplicate-key check only for contents known to be free of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mneme_desktop.domain import Campaign, Character, Characteristics, Combatant, Skill
from mneme_desktop.storage import (
    CampaignLoadError,
    CampaignSaveError,
    KnownContents,
    VerifiedParts,
    campaign_to_json,
    codec,
    load_campaign_file,
    save_campaign,
)
from mneme_desktop.storage.codec import verify_campaign_bytes
from mneme_desktop.storage.known_files import MAX_KNOWN
from tests.storage.strategies import campaigns


def _opened(path: Path, known: KnownContents | None = None):  # type: ignore[no-untyped-def]
    loaded = load_campaign_file(path, known=known)
    return loaded.campaign, loaded.verified


def test_unchanged_save_validates_nothing_and_one_edit_one_record(saved: Path) -> None:
    campaign, verified = _opened(saved)
    save_campaign(campaign, saved, verified=verified)
    assert verified.validated_records == 0
    assert not verified.validated_head and not verified.validated_whole
    campaign.characters[1].damage += 2
    save_campaign(campaign, saved, verified=verified)
    assert verified.validated_records == 1 and not verified.validated_whole
    campaign.notes = "A new note"
    save_campaign(campaign, saved, verified=verified)
    assert verified.validated_head and verified.validated_records == 0
    assert _opened(saved)[0] == campaign


def test_a_record_that_would_not_open_is_refused_and_nothing_written(saved: Path) -> None:
    campaign, verified = _opened(saved)
    before = saved.read_bytes()
    # A list append skips pydantic's checks: an empty skill name would not open again.
    campaign.characters[0].skills.append(Skill.model_construct(name="", specialty=None, level=1))
    with pytest.raises(CampaignSaveError, match=r"characters\[0\]\.skills.*name"):
        save_campaign(campaign, saved, verified=verified)
    assert saved.read_bytes() == before
    campaign.characters[0].skills.pop()
    save_campaign(campaign, saved, verified=verified)  # the known parts were not spoiled
    assert not verified.validated_whole


def test_ties_between_records_are_checked_even_when_each_record_is_fine(saved: Path) -> None:
    campaign, verified = _opened(saved)
    twin = campaign.characters[0].model_copy()
    campaign.characters.append(twin)  # a second record with the same id
    with pytest.raises(CampaignSaveError, match="id"):
        save_campaign(campaign, saved, verified=verified)
    campaign.characters.pop()
    encounter = campaign.encounters[0]
    encounter.combatants.append(Combatant.model_construct(
        **Combatant(character_id=campaign.characters[0].id).__dict__))
    encounter.combatants[-1].__dict__["character_id"] = "nobody"
    with pytest.raises(CampaignSaveError):
        save_campaign(campaign, saved, verified=verified)


def test_a_new_campaign_is_checked_whole_once_then_by_parts(tmp_path: Path) -> None:
    campaign = Campaign(name="Fresh", characters=[
        Character(name=f"C{i}", characteristics=Characteristics.of(7, 7, 7, 7, 7, 7))
        for i in range(3)
    ])
    verified = VerifiedParts()
    path = tmp_path / "fresh.mneme"
    save_campaign(campaign, path, verified=verified)
    assert verified.validated_whole
    campaign.characters[2].name = "Renamed"
    save_campaign(campaign, path, verified=verified)
    assert not verified.validated_whole and verified.validated_records == 1


def test_records_moved_around_are_recognised(saved: Path) -> None:
    campaign, verified = _opened(saved)
    campaign.characters.reverse()
    save_campaign(campaign, saved, verified=verified)
    assert verified.validated_records == 0 and not verified.validated_whole


def test_an_upgraded_file_is_not_trusted_part_by_part(tmp_path: Path) -> None:
    old = Path(__file__).parent / "fixtures" / "schema_v1.mneme"
    path = tmp_path / "old.mneme"
    path.write_bytes(old.read_bytes())
    campaign, verified = _opened(path)
    save_campaign(campaign, path, verified=verified)
    assert verified.validated_whole


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns(), st.data())
def test_same_verdict_as_the_full_check(campaign: Campaign, data: st.DataObject) -> None:
    """Spoil a record or the campaign's own fields behind pydantic's back: the part-by-part
    check refuses exactly when validating the whole file refuses."""
    verified = VerifiedParts()
    verified.check(campaign_to_json(campaign), campaign, "x.mneme")
    spoil = data.draw(st.sampled_from(["nothing", "name", "skill", "damage"]))
    if spoil == "name":
        campaign.__dict__["name"] = ""
    elif spoil == "skill" and campaign.characters:
        campaign.characters[0].skills.append(Skill.model_construct(name="x", specialty=None,
                                                                    level=99))
    elif spoil == "damage" and campaign.characters:
        campaign.characters[-1].__dict__["damage"] = -1
    written = campaign_to_json(campaign)
    try:
        verify_campaign_bytes(written, "x.mneme")
        whole_ok = True
    except CampaignSaveError:
        whole_ok = False
    try:
        verified.check(written, campaign, "x.mneme")
        parts_ok = True
    except CampaignSaveError:
        parts_ok = False
    assert parts_ok == whole_ok


def test_known_contents_skip_only_the_duplicate_check(
    saved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = KnownContents(tmp_path / "cache" / "known.json")
    calls: list[int] = []
    real = codec._check_duplicates
    monkeypatch.setattr(codec, "_check_duplicates",
                        lambda *args: calls.append(1) or real(*args))
    campaign, verified = _opened(saved, known)
    assert calls == [1]  # not known yet: checked, then remembered
    _opened(saved, known)
    assert calls == [1]
    campaign.characters[0].damage += 1
    save_campaign(campaign, saved, verified=verified, known=known)
    _opened(saved, known)  # what this app wrote is known
    assert calls == [1]
    # Another instance reading the same list knows it too.
    _opened(saved, KnownContents(tmp_path / "cache" / "known.json"))
    assert calls == [1]
    # A hand edit makes new content: checked again, and a repeated key is refused.
    text = saved.read_text(encoding="utf-8")
    saved.write_text(text.replace('"name":', '"name":"Twice","name":', 1), encoding="utf-8")
    with pytest.raises(CampaignLoadError, match="appears twice"):
        _opened(saved, known)
    assert calls == [1, 1]


def test_the_list_of_known_contents_is_bounded_and_lenient(tmp_path: Path) -> None:
    path = tmp_path / "known.json"
    known = KnownContents(path)
    for number in range(MAX_KNOWN + 10):
        known.add(f"{number:064x}")
    stored = json.loads(path.read_text())
    assert len(stored) == MAX_KNOWN and stored[0] == f"{MAX_KNOWN + 9:064x}"
    path.write_text("not json at all")
    assert f"{1:064x}" not in KnownContents(path)
    path.write_text(json.dumps(["short", 5, "A" * 64]))
    assert "A" * 64 not in KnownContents(path)  # only lowercase hex hashes count
    unwritable = KnownContents(tmp_path / "missing" / "deeper" / "x" / "known.json")
    (tmp_path / "missing").write_text("a file where a folder should be")
    unwritable.add("0" * 64)  # only speed is lost; nothing raised
    assert "0" * 64 in unwritable


def test_the_installed_sample_is_known_and_a_changed_copy_is_not(tmp_path: Path) -> None:
    from mneme_desktop.storage import install_sample_campaign
    from mneme_desktop.storage.campaign_file import content_hash

    known = KnownContents(tmp_path / "known.json")
    target = install_sample_campaign(tmp_path / "sample.mneme", known)
    assert content_hash(target.read_bytes()) in known
    target.write_bytes(target.read_bytes().replace(b'"notes":"', b'"notes":"x', 1))
    again = KnownContents(tmp_path / "known.json")
    install_sample_campaign(target, again)  # already there: left alone, not vouched for
    assert content_hash(target.read_bytes()) not in again
