"""Things in the file (#18): a schema 1 campaign opens with no things, the schema step writes
the new lists out, the current fixture keeps a crewed vehicle and a combatant's cover, and
the sample campaign ships the chapter's examples as thing templates."""

from __future__ import annotations

import json

from mneme_desktop.domain import ThingKind
from mneme_desktop.rules.dice import Scale
from mneme_desktop.storage import MIGRATIONS, campaign_to_json, load_campaign
from mneme_desktop.storage.sample import build_sample_campaign
from tests.storage.conftest import FIXTURES


def test_a_schema_1_campaign_opens_with_no_things() -> None:
    campaign = load_campaign(FIXTURES / "schema_v1.mneme")
    assert campaign.things == [] and campaign.thing_library == []
    assert all(e.things == [] for e in campaign.encounters)
    assert all(c.cover_thing_id is None for e in campaign.encounters for c in e.combatants)


def test_the_schema_step_writes_the_thing_lists_out() -> None:
    data = json.loads((FIXTURES / "schema_v1.mneme").read_bytes())
    assert "things" not in data and "thing_library" not in data
    migrated = MIGRATIONS.migrate(data, 1)
    assert migrated["things"] == [] and migrated["thing_library"] == []
    for encounter in migrated["encounters"]:
        assert encounter["things"] == []
        assert all(c["cover_thing_id"] is None for c in encounter["combatants"])


def test_the_current_fixture_keeps_a_crewed_vehicle_and_cover() -> None:
    campaign = load_campaign(FIXTURES / "schema_v2.mneme")
    car = campaign.thing("fixture-thing-car")
    assert (car.kind, car.hp, car.hp_scale, car.damage) == (ThingKind.VEHICLE, 8,
                                                             Scale.DEKA, 25)
    assert [(p.role, s.name if s else None) for p, s in campaign.crew_of(car)] == [
        ("Driver", "Ona Reyes (fixture)"), ("Passenger", None)]
    assert car.weapons[0].damage == "D 1d6"
    ford = campaign.encounters[0]
    entry = ford.find_thing_entry("fixture-encounter-car")
    assert entry is not None and campaign.encounter_thing(entry) is car
    assert ford.combatants[1].cover_thing_id == ford.things[0].id
    assert campaign.thing_encounters(car.id) == [ford]


def test_the_sample_ships_the_chapters_examples_as_templates() -> None:
    campaign = build_sample_campaign()
    library = {t.name: t.stats for t in campaign.thing_library}
    assert library["Shield"].protection == 2
    assert library["Cinder Blocks"].protection == 2
    walker = library["D-Plated Walker"]
    assert (walker.hp_label, walker.armor_label, walker.kind) == (
        "20 DHP = 200 HP", "DAR 2 = 20 AR", ThingKind.VEHICLE)
    assert [p.role for p in walker.crew] == ["Pilot", "Gunner"]
    blocks = campaign.encounters[0].things[0]
    assert campaign.encounter_thing(blocks).name == "Cinder Blocks 1"
    assert campaign_to_json(campaign) == campaign_to_json(build_sample_campaign())
