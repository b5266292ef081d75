"""Build ``fixtures/schema_vN.mneme`` for the current schema: a campaign using every part of it.

Run ``python3 -m tests.storage.build_schema_fixture`` ONLY when adding the fixture for a new
schema version (or while the current schema is still unreleased). Once a version has
shipped, its fixture is frozen: it is the proof that every later version still opens it.
"""

from __future__ import annotations

import base64
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from mneme_desktop.domain import (
    SCHEMA_VERSION,
    Armor,
    Campaign,
    Character,
    CharacteristicDamage,
    Characteristics,
    CharacterKind,
    Combatant,
    Condition,
    ConditionKind,
    DamageRecord,
    ExtendedTask,
    GameTime,
    Portrait,
    RangeClass,
    Recovery,
    RulesOptions,
    Side,
    Skill,
    Thing,
    ThingKind,
    Weapon,
)
from mneme_desktop.domain.catalogue import CampaignCatalogue, SkillEntry
from mneme_desktop.domain.character import Career, EquipmentItem
from mneme_desktop.domain.encounter import (
    EncounterThing,
    LastShot,
    NextRollKind,
    NextRollTerm,
    SideTactics,
)
from mneme_desktop.domain.things import CrewPosition
from mneme_desktop.rules.actions import Load, Stance
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.healing import Activity
from mneme_desktop.rules.movement import GridScale
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.storage import build_sample_campaign, save_campaign

_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def build_fixture_campaign() -> Campaign:
    campaign = build_sample_campaign()
    campaign.name = f"Schema {SCHEMA_VERSION} fixture"
    campaign.rules_options = RulesOptions(threshold_basis=ThresholdBasis.CHARACTERISTIC)
    psyker = Character(
        id="fixture-psyker",
        name="Ona Reyes (fixture)",
        player="Fixture",
        kind=CharacterKind.NPC,
        characteristics=Characteristics.of(4, 6, 5, 12, 9, 6, 11),
        characteristic_damage=CharacteristicDamage(intelligence=2, psionic_strength=3),
        skills=[
            Skill(name="Telepathy", level=3),
            Skill(name="Gun Combat", specialty="Energy Pistol", level=1),
        ],
        weapons=[
            Weapon(
                name="Throwing Knife",
                damage="1d3+1",
                thrown=Decimal("0.5"),
                ready_actions=1,
                reload_actions=0,
                range_class=RangeClass.CLOSE,
                skill="Melee Combat (Piercing)",
            )
        ],
        armor=[Armor(name="Cloth", rating=9, worn=False)],
        load=Load.HEAVY,
        damage=14,
        damage_history=[
            DamageRecord(amount=14, rolled=16, source="fall", at=GameTime.at(11, 8, 0))
        ],
        conditions=[
            Condition(kind=ConditionKind.DYING, started_at=GameTime.at(11, 8, 0), started_round=3),
            Condition(
                kind=ConditionKind.STABILISED,
                detail="first aid",
                started_at=GameTime.at(11, 8, 5),
                expires_at=GameTime.at(11, 13, 5),
            ),
            Condition(kind=ConditionKind.UNCONSCIOUS),
        ],
        recovery=Recovery(
            activity=Activity.FULL_REST,
            care=True,
            progress=Fraction(2, 3),
            since=GameTime.at(11, 9, 0),
        ),
        notes='Unicode: Ærø, 東京, emoji 🎲, quotes "x" and a\nnewline.',
        portrait=Portrait.from_bytes(_PNG, "image/png"),
        species="Human",
        age=34,
        careers=[Career(name="Scout", terms=3, rank="Courier"), Career(name="Drifter", terms=1)],
        credits=-1250,
        equipment=[EquipmentItem(name="Rations", count=6, mass=Decimal("0.25"), notes="a week"),
                   EquipmentItem(name="Comm")],
    )
    # The campaign's own catalogue: a new skill, a weapon replacing a built-in one, armor.
    campaign.catalogue = CampaignCatalogue(
        skills=[SkillEntry(name="Xenology", specialties=["Fauna", "Flora"], notes="setting")],
        weapons=[Weapon(name="Broadsword", damage="3d3-1", rate_of_attack=2,
                        skill="Melee Combat (Slashing)", notes="the setting's heavier blade")],
        armor=[Armor(name="Ablat", rating=7, notes="vs energy weapons")],
    )
    campaign.characters.append(psyker)
    ford = campaign.encounters[0]
    ford.round = 2
    ford.turn_index = 1
    ford.started_at = GameTime.at(12, 14, 30)
    ford.movement_scale = GridScale.COARSE
    ford.combatants[0].extended_task = ExtendedTask(
        description="First aid on Tomas", total_rounds=30, remaining_rounds=21, rounds_taken=3
    )
    ford.combatants[0].actions_spent = 2
    ford.combatants[0].delayed = True
    ford.combatants[1].stance = Stance.CROUCHED
    ford.combatants[1].initiative_skill = "Recon"
    ford.combatants[1].last_shot = LastShot(target_id=ford.combatants[0].id, aim=2, round=2)
    ford.combatants[1].next_roll = [
        NextRollTerm(kind=NextRollKind.ADVANTAGE, source="grapple with Raider 1",
                     granted_round=2, last_round=3),
        NextRollTerm(kind=NextRollKind.DM, value=2, source="support from Mara Vey"),
    ]
    ford.combatants[0].tactics_attempts = 1
    ford.tactics = [SideTactics(side=Side.PLAYERS, leader_id=ford.combatants[0].id,
                                leader="Mara Vey", difficulty=10, granted=3, left=2)]
    ford.combatants.append(
        Combatant(
            id="fixture-combatant",
            character_id="fixture-psyker",
            side=Side.NEUTRAL,
            revealed=False,
            notes="no initiative yet",
        )
    )
    # Things: a campaign vehicle with crew and a weapon, in the ford by reference, and a
    # combatant behind the ford's cinder blocks.
    campaign.things.append(Thing(
        id="fixture-thing-car", name="Ground Car (fixture)", kind=ThingKind.VEHICLE, hp=8,
        hp_scale=Scale.DEKA, armor=4, protection=3, damage=25,
        crew=[CrewPosition(role="Driver", character_id="fixture-psyker"),
              CrewPosition(role="Passenger")],
        weapons=[Weapon(name="Pintle Gun", damage="D 1d6", rate_of_attack=3)],
        notes="Unicode: Ærø",
    ))
    ford.things.append(EncounterThing(id="fixture-encounter-car",
                                      thing_id="fixture-thing-car", side=Side.PLAYERS))
    ford.combatants[1].cover_thing_id = ford.things[0].id
    ford.thing_turn = ford.things[0].id  # the car's turn, stored (read only where it fits)
    return Campaign.model_validate(campaign.model_dump())


def main() -> int:
    target = Path(__file__).parent / "fixtures" / f"schema_v{SCHEMA_VERSION}.mneme"
    save_campaign(build_fixture_campaign(), target, backups=0)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
