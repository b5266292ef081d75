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
    Weapon,
)
from mneme_desktop.rules.actions import Load, Stance
from mneme_desktop.rules.healing import Activity
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
    )
    campaign.characters.append(psyker)
    ford = campaign.encounters[0]
    ford.round = 2
    ford.turn_index = 1
    ford.started_at = GameTime.at(12, 14, 30)
    ford.combatants[0].extended_task = ExtendedTask(
        description="First aid on Tomas", total_rounds=30, remaining_rounds=21, rounds_taken=3
    )
    ford.combatants[0].actions_spent = 2
    ford.combatants[0].delayed = True
    ford.combatants[1].stance = Stance.CROUCHED
    ford.combatants.append(
        Combatant(
            id="fixture-combatant",
            character_id="fixture-psyker",
            side=Side.NEUTRAL,
            notes="no initiative yet",
        )
    )
    return Campaign.model_validate(campaign.model_dump())


def main() -> int:
    target = Path(__file__).parent / "fixtures" / f"schema_v{SCHEMA_VERSION}.mneme"
    save_campaign(build_fixture_campaign(), target, backups=0)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
