"""The domain layer: pydantic models of characters, adversaries, encounters and campaigns.

Models hold what the referee entered; every derived number is asked of the rules core.
No Qt and no file I/O here (see :mod:`mneme_desktop.storage`).
"""

from __future__ import annotations

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.campaign import (
    CAMPAIGN_FORMAT,
    SCHEMA_VERSION,
    Campaign,
    CampaignIntegrityError,
    IntegrityProblem,
    JournalEntry,
    RulesOptions,
)
from mneme_desktop.domain.character import (
    CHARACTERISTIC_CODES,
    MAX_CHARACTERISTIC,
    MAX_PORTRAIT_BYTES,
    MAX_SKILL_LEVEL,
    Armor,
    Character,
    Characteristic,
    CharacteristicDamage,
    Characteristics,
    CharacterKind,
    Condition,
    ConditionKind,
    CoverItem,
    DamageRecord,
    Portrait,
    RangeClass,
    Recovery,
    Skill,
    Weapon,
    canonical_damage,
    new_id,
)
from mneme_desktop.domain.encounter import (
    Combatant,
    Encounter,
    EncounterLogEntry,
    EncounterThing,
    ExtendedTask,
    Side,
)
from mneme_desktop.domain.gametime import SECONDS_PER_DAY, GameTime
from mneme_desktop.domain.things import CrewPosition, Thing, ThingKind, ThingTemplate

__all__ = [
    "CAMPAIGN_FORMAT",
    "CHARACTERISTIC_CODES",
    "MAX_CHARACTERISTIC",
    "MAX_PORTRAIT_BYTES",
    "MAX_SKILL_LEVEL",
    "SCHEMA_VERSION",
    "SECONDS_PER_DAY",
    "AdversaryTemplate",
    "Armor",
    "Campaign",
    "CampaignIntegrityError",
    "Character",
    "CharacterKind",
    "Characteristic",
    "CharacteristicDamage",
    "Characteristics",
    "Combatant",
    "Condition",
    "ConditionKind",
    "CoverItem",
    "CrewPosition",
    "DamageRecord",
    "Encounter",
    "EncounterLogEntry",
    "EncounterThing",
    "ExtendedTask",
    "GameTime",
    "IntegrityProblem",
    "JournalEntry",
    "Portrait",
    "RangeClass",
    "Recovery",
    "RulesOptions",
    "Side",
    "Skill",
    "Thing",
    "ThingKind",
    "ThingTemplate",
    "Weapon",
    "canonical_damage",
    "new_id",
]
