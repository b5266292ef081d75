"""The session recap of a scripted fight: every hit and state change of the log, who acted,
who fell, healing and time; referee-only notes out unless asked; Markdown and HTML."""

from __future__ import annotations

import random

import pytest

from mneme_desktop.domain import ConditionKind, GameTime, JournalEntry
from mneme_desktop.domain import combat as fight_steps
from mneme_desktop.domain.session_recap import (
    RecapRequest,
    build_recap,
    duration_text,
    encounters_in_days,
)
from mneme_desktop.export.markdown import escape_markdown, render_markdown
from mneme_desktop.export.session_recap import recap_document
from tests.domain.test_combat import (
    by_name,
    check_with_effect,
    fight,
    make_campaign,
    request,
)

SECRET = "The brute is the chief's brother"


def scripted_fight():
    """Three PCs against two raiders and a brute: hits both ways, a hand-marked condition,
    a combatant out of the fight, a referee note, first aid; and a journal around it."""
    campaign = make_campaign()
    campaign.game_time = GameTime.at(3, 10, 0)
    encounter = fight(campaign, random.Random(5))
    apply = lambda patch: patch.apply(campaign)  # noqa: E731

    def attack(attacker: str, target: str, effect: int, damage: list[int] | None = None):
        spec = fight_steps.build_attack(campaign, encounter,
                                        request(campaign, encounter, attacker, [(target, 1)]))
        outcome = fight_steps.resolve_attack(
            spec, check_with_effect(spec, effect), random.Random(len(encounter.log)),
            typed_damage=[damage] if damage is not None else None)
        apply(fight_steps.attack_patch(campaign, encounter, outcome, spend_action=False))

    attack("Mara Vey", "Brute 1", 2)
    attack("Raider 1", "Ilse Brandt", 1, [7, 2])
    attack("Ilse Brandt", "Raider 1", 4)
    attack("Tomas Okoro", "Raider 2", -1)  # a miss
    raider2 = by_name(campaign, encounter, "Raider 2")
    apply(fight_steps.add_condition_patch(campaign, encounter, raider2.id,
                                          ConditionKind.STUNNED))
    apply(fight_steps.set_out_of_fight_patch(campaign, encounter, raider2.id, True))
    apply(fight_steps.note_patch(campaign, encounter, SECRET))
    encounter.notes = "Ambush prepared on the ridge"
    campaign.notes = "Campaign secret: the convoy is bait"
    campaign.journal += [
        JournalEntry(game_time=GameTime.at(2, 9, 0), title="Before", text="Left the station."),
        JournalEntry(game_time=GameTime.at(3, 18, 0), title="Time passes: 8 hours",
                     text="Ilse Brandt: heals 1 (light care)"),
        JournalEntry(game_time=GameTime.at(9, 9, 0), title="Much later", text="Far away."),
    ]
    return campaign, encounter


def test_the_recap_holds_every_hit_and_state_change_of_the_log():
    campaign, encounter = scripted_fight()
    recap = build_recap(campaign, RecapRequest(3, 3, (encounter.id,)))
    (fought,) = recap.encounters
    hurt = [entry for entry in encounter.log if sum(entry.damage) > 0]
    assert len(hurt) >= 3, [e.action for e in encounter.log]
    changes = [c for entry in encounter.log for c in entry.state_changes]
    assert any("Stunned" in c for c in changes)
    # Every hit with its damage, every state change, in the log's order.
    assert [(e.actor, e.target, e.damage) for e in fought.events if e.damage] == \
        [(e.actor, e.target, tuple(e.damage)) for e in encounter.log if e.damage]
    assert [c for e in fought.events for c in e.state_changes] == changes
    # Who acted: every attacker once per attack, the damage they dealt is the log's.
    fighters = {f.name: f for f in fought.fighters}
    assert fighters["Tomas Okoro"].actions == 1 and fighters["Tomas Okoro"].hits == 0
    for name in ("Mara Vey", "Raider 1", "Ilse Brandt"):
        dealt = sum(sum(e.damage) for e in encounter.log
                    if e.actor == name and e.action.startswith("Damage:"))
        assert fighters[name].damage_dealt == dealt > 0
    assert fighters["Raider 1"].damage_taken == sum(
        sum(e.damage) for e in encounter.log if e.target == "Raider 1")
    assert "Raider 2 is out of the fight" in fought.fell
    assert fought.rounds == 1 and fought.seconds == 6

    markdown = render_markdown(recap_document(recap))
    for change in changes:
        assert escape_markdown(change) in markdown
    for entry in hurt:
        total = f"| {sum(entry.damage)} |" if len(entry.damage) == 1 else \
            f"| {', '.join(map(str, entry.damage))} = {sum(entry.damage)} |"
        assert total in markdown


def test_referee_notes_are_left_out_unless_asked():
    campaign, encounter = scripted_fight()
    plain = render_markdown(recap_document(build_recap(
        campaign, RecapRequest(3, 3, (encounter.id,)))))
    for secret in (SECRET, "Ambush prepared", "convoy is bait"):
        assert escape_markdown(secret) not in plain
    asked = render_markdown(recap_document(build_recap(
        campaign, RecapRequest(3, 3, (encounter.id,), include_referee_notes=True))))
    for secret in (SECRET, "Ambush prepared", "convoy is bait"):
        assert escape_markdown(secret) in asked


def test_the_journal_of_the_days_chosen_gives_healing_and_time():
    campaign, encounter = scripted_fight()
    recap = build_recap(campaign, RecapRequest(2, 3, (encounter.id,)))
    assert [line.title for line in recap.journal] == ["Before", "Time passes: 8 hours"]
    assert recap.healing == ("Day 3, 18:00: Ilse Brandt: heals 1 (light care)",)
    assert recap.time_passages == ("Day 3, 18:00: Time passes: 8 hours",)
    assert recap.start == GameTime.at(2, 9, 0) and recap.end == GameTime.at(3, 18, 0)
    assert duration_text(recap.seconds) == "1 day 9 hours"
    assert encounters_in_days(campaign, 3, 3) == [encounter]
    assert encounters_in_days(campaign, 4, 8) == []


def test_the_html_holds_the_same_recap(qapp):
    from mneme_desktop.export.html import html_bytes

    campaign, encounter = scripted_fight()
    page = html_bytes(recap_document(build_recap(
        campaign, RecapRequest(3, 3, (encounter.id,))))).decode("utf-8")
    assert "Hits and wounds" in page and "Raider 2 is out of the fight" in page
    assert "brother" not in page


def test_markdown_escapes_campaign_text():
    assert escape_markdown("*Bold* | pipe # 1. list") == r"\*Bold\* \| pipe \# 1. list"
    assert escape_markdown("- not a list") == r"\- not a list"


def test_a_day_range_backwards_is_refused():
    with pytest.raises(ValueError, match="not a range"):
        RecapRequest(5, 2)


def test_the_sample_skirmish_says_who_hurt_whom():
    """QA: the sample's failed Defend carried Ilse's own wounds on her line, so the recap
    said she dealt 12 damage to the gunner and he took it."""
    from mneme_desktop.storage import build_sample_campaign

    campaign = build_sample_campaign()
    well = next(e for e in campaign.encounters if e.name == "Skirmish at the Salt Well")
    recap = build_recap(campaign, RecapRequest(9, 9, (well.id,)))
    fighters = {f.name: f for f in recap.encounters[0].fighters}
    assert (fighters["Ilse Brandt"].damage_dealt, fighters["Ilse Brandt"].damage_taken) == (0, 12)
    gunner = fighters.get("Raider Gunner 1")
    assert gunner is None or gunner.damage_taken == 0
    assert fighters["Mara Vey"].damage_dealt == 11
