"""The sample campaign shipped with the app and opened on first run.

It is built by :func:`build_sample_campaign` (deterministic: fixed ids, no clock, no
randomness) and written to ``resources/sample_campaign.mneme``; a test checks the shipped
file equals a fresh build. Regenerate after a schema change with::

    python3 -m mneme_desktop.storage.sample resources/sample_campaign.mneme

Its adversaries use the chapters' own examples: the broadsword (3d3-2), the automatic
rifle (3d6-2, rate of attack 4), the flak jacket (armor 4) and the shield (protection 2).
Its thing library holds the chapter's objects: a shield and a stack of cinder blocks of
protection 2, and a D-plated walker (20 DHP, DAR 2) that ignores personal-scale damage.
"""

from __future__ import annotations

import importlib.resources
import sys
import uuid
from fractions import Fraction
from pathlib import Path

from mneme_desktop.domain import (
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Condition,
    ConditionKind,
    CoverItem,
    DamageRecord,
    Encounter,
    EncounterLogEntry,
    EncounterThing,
    GameTime,
    JournalEntry,
    RangeClass,
    Recovery,
    Side,
    Skill,
    Thing,
    ThingKind,
    ThingTemplate,
    Weapon,
)
from mneme_desktop.domain.character import Career
from mneme_desktop.domain.things import CrewPosition
from mneme_desktop.rules.actions import ActionKind, BodyArea, Load, Stance, initiative_modifier
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.healing import Activity
from mneme_desktop.storage.atomic import atomic_write
from mneme_desktop.storage.campaign_file import content_hash, save_campaign
from mneme_desktop.storage.known_files import KnownContents

__all__ = [
    "SAMPLE_FILE_NAME",
    "build_sample_campaign",
    "install_sample_campaign",
    "main",
    "sample_campaign_path",
]

SAMPLE_FILE_NAME = "sample_campaign.mneme"
_NAMESPACE = uuid.UUID("6f1c0a52-3d0e-4a57-9a43-5d1b8f0c2e71")


def _id(key: str) -> str:
    """A fixed id per sample object, so the shipped file is reproducible byte for byte."""
    return uuid.uuid5(_NAMESPACE, key).hex


def _skills(*entries: tuple[str, int]) -> list[Skill]:
    skills = []
    for label, level in entries:
        name, specialty = Skill.split_label(label)
        skills.append(Skill(name=name, specialty=specialty, level=level))
    return skills


# --- the chapters' example equipment --------------------------------------------------------


def _broadsword() -> Weapon:
    return Weapon(
        name="Broadsword",
        damage="3d3-2",
        # Ch.7: a Success Effect of 1 gives two broadsword damage rolls, so no limit of 1.
        rate_of_attack=3,
        range_class=RangeClass.MELEE,
        ready_actions=1,
        skill="Melee Combat (Slashing)",
    )


def _automatic_rifle() -> Weapon:
    return Weapon(
        name="Automatic Rifle",
        damage="3d6-2",
        rate_of_attack=4,
        range_class=RangeClass.LONG,
        ready_actions=1,
        reload_actions=1,
        skill="Gun Combat (Slug Rifle)",
    )


def _autopistol() -> Weapon:
    return Weapon(
        name="Autopistol",
        damage="3d6-3",
        rate_of_attack=2,
        range_class=RangeClass.SHORT,
        ready_actions=1,
        reload_actions=1,
        skill="Gun Combat (Slug Pistol)",
    )


def _flak_jacket() -> Armor:
    return Armor(name="Flak Jacket", rating=4)


def _shield(damage: int = 0) -> CoverItem:
    return CoverItem(
        name="Shield",
        protection=2,
        hp=12,
        damage=damage,
        notes="Absorbs up to 2 points of fail effect; takes those damage rolls itself.",
    )


# --- player characters and NPCs ------------------------------------------------------------


def _mara() -> Character:
    return Character(
        id=_id("pc-mara"),
        name="Mara Vey",
        player="Alex",
        kind=CharacterKind.PLAYER,
        species="Human",
        age=30,
        careers=[Career(name="Marine", terms=2, rank="Corporal")],
        credits=1_200,
        characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
        skills=_skills(
            ("Gun Combat (Slug Rifle)", 2),
            ("Tactics", 1),
            ("Athletics", 1),
            ("Recon", 1),
            ("Vehicle (Wheeled)", 1),
            ("Melee Combat (Slashing)", 0),
            ("Medic", 0),
        ),
        weapons=[
            _automatic_rifle(),
            Weapon(name="Combat Knife", damage="2d3", skill="Melee Combat (Slashing)"),
        ],
        armor=[_flak_jacket()],
        load=Load.MEDIUM,
        notes="Eight years with the Kessa Colonial Marines; left after the Hollow Reach "
        "evacuation. Carries her old unit's rifle and will not talk about the patch on it.",
    )


def _tomas() -> Character:
    return Character(
        id=_id("pc-tomas"),
        name="Tomas Okoro",
        player="Bea",
        kind=CharacterKind.PLAYER,
        species="Human",
        age=38,
        careers=[Career(name="Physician", terms=3)],
        credits=3_400,
        characteristics=Characteristics.of(6, 7, 7, 10, 11, 7),
        skills=_skills(
            ("Medic", 2),
            ("Science (Biology)", 1),
            ("Gun Combat (Slug Pistol)", 1),
            ("Persuade", 1),
            ("Computers", 0),
            ("Vehicle (Wheeled)", 0),
        ),
        weapons=[_autopistol()],
        armor=[Armor(name="Jack", rating=3)],
        load=Load.LIGHT,
        notes="Field medic from the Emberfall clinic. Keeps a ready first aid kit on his "
        "belt (first aid: minor action to get it out). Caring for Ilse since the Salt Well.",
    )


def _ilse() -> Character:
    wounded_at = GameTime.at(9, 15, 12)
    return Character(
        id=_id("pc-ilse"),
        name="Ilse Brandt",
        player="Chen",
        kind=CharacterKind.PLAYER,
        species="Human",
        age=27,
        careers=[Career(name="Army", terms=2, rank="Sergeant")],
        credits=600,
        characteristics=Characteristics.of(10, 8, 9, 6, 7, 8),
        skills=_skills(
            ("Melee Combat (Slashing)", 2),
            ("Athletics", 1),
            ("Leadership", 1),
            ("Survival", 1),
            ("Gun Combat (Slug Rifle)", 0),
        ),
        weapons=[_broadsword()],
        armor=[Armor(name="Jack", rating=3)],
        cover_items=[_shield(damage=5)],
        load=Load.MEDIUM,
        damage=11,
        damage_history=[
            DamageRecord(
                amount=10,
                rolled=13,
                source="Raider Gunner 1: Automatic Rifle",
                location=BodyArea.LIMB,
                at=wounded_at,
                round=1,
                encounter_id=_id("encounter-salt-well"),
            ),
            DamageRecord(
                amount=2,
                rolled=5,
                source="Raider Gunner 1: Automatic Rifle",
                at=wounded_at,
                round=1,
                encounter_id=_id("encounter-salt-well"),
            ),
        ],
        conditions=[
            Condition(
                kind=ConditionKind.CRIPPLED,
                detail="left arm",
                started_at=wounded_at,
                started_round=1,
                encounter_id=_id("encounter-salt-well"),
            ),
        ],
        recovery=Recovery(
            activity=Activity.LIGHT,
            care=True,
            progress=Fraction(1, 2),
            since=GameTime.at(9, 18, 0),
            caregiver_id=_id("pc-tomas"),
        ),
        notes="Shield-bearer of the Ashfall Company. Took a rifle burst at the Salt Well "
        "(12 damage; Tomas's first aid healed 1 and stopped the bleeding). The 10-point hit "
        "crippled her left arm. Insists on light duty around camp, so she heals at the light "
        "activity + moderate care rate: half-way to her next point.",
    )


def _sef() -> Character:
    return Character(
        id=_id("pc-sef"),
        name="Sef Adeyemi",
        player="Dana",
        kind=CharacterKind.PLAYER,
        species="Human",
        age=24,
        careers=[Career(name="Scout", terms=1)],
        credits=250,
        characteristics=Characteristics.of(6, 10, 7, 9, 7, 5, 8),
        skills=_skills(
            ("Recon", 2),
            ("Stealth", 1),
            ("Survival", 1),
            ("Gun Combat (Archery)", 1),
            ("Pilot (Small Craft)", 1),
            ("Telepathy", 1),
            ("Athletics", 0),
        ),
        weapons=[
            Weapon(
                name="Compound Bow",
                damage="3d6-3",
                range_class=RangeClass.LONG,
                ready_actions=1,
                reload_actions=1,
                skill="Gun Combat (Archery)",
            ),
            Weapon(
                name="Throwing Axe",
                damage="2d3",
                range_class=RangeClass.MELEE,
                thrown="1.5",
                skill="Melee Combat (Slashing)",
                notes="Thrown 1.5: STR x 1.5 metres straight, three times that lobbed.",
            ),
        ],
        armor=[Armor(name="Mesh", rating=5)],
        load=Load.LIGHT,
        notes="Scout and pathfinder, raised on the Marches. A latent telepath (PSI 8): hears "
        "'loud' minds within a few metres and hates crowds.",
    )


def _hollis() -> Character:
    return Character(
        id=_id("npc-hollis"),
        name="Captain Rhea Hollis",
        kind=CharacterKind.NPC,
        characteristics=Characteristics.of(7, 8, 8, 9, 9, 10),
        skills=_skills(
            ("Leadership", 2),
            ("Tactics", 2),
            ("Gun Combat (Slug Pistol)", 1),
            ("Admin", 1),
        ),
        weapons=[_autopistol()],
        armor=[_flak_jacket()],
        notes="Commands the Emberfall Station garrison: twelve tired troopers and one working "
        "truck. Pays in fuel and ammunition, not cash. Wants the ford cleared before the "
        "convoy on day 15.",
    )


def _wren() -> Character:
    return Character(
        id=_id("npc-wren"),
        name="Old Wren",
        kind=CharacterKind.NPC,
        characteristics=Characteristics.of(5, 6, 6, 10, 8, 4),
        skills=_skills(("Broker", 2), ("Streetwise", 2), ("Deception", 1), ("Recon", 0)),
        notes="Scrap trader at the Salt Well market. Sold the raiders their rifles and is now "
        "selling the PCs the raiders' camp location. Knows more than he says.",
    )


# --- adversary library ---------------------------------------------------------------------


def _template(
    key: str,
    name: str,
    characteristics: Characteristics,
    skills: list[Skill],
    *,
    weapons: list[Weapon],
    armor: list[Armor] | None = None,
    cover_items: list[CoverItem] | None = None,
    tags: list[str],
    notes: str,
) -> AdversaryTemplate:
    return AdversaryTemplate(
        id=_id(f"template-{key}"),
        tags=tags,
        stats=Character(
            id=_id(f"template-{key}-stats"),
            name=name,
            kind=CharacterKind.ADVERSARY,
            characteristics=characteristics,
            skills=skills,
            weapons=weapons,
            armor=armor or [],
            cover_items=cover_items or [],
            notes=notes,
        ),
    )


def _library() -> list[AdversaryTemplate]:
    return [
        _template(
            "raider",
            "Raider",
            Characteristics.of(8, 7, 8, 6, 5, 4),
            _skills(("Melee Combat (Slashing)", 1), ("Athletics", 0)),
            weapons=[_broadsword()],
            armor=[_flak_jacket()],
            tags=["raiders", "melee"],
            notes="Ashfall raider: broadsword (3d3-2) and a flak jacket (armor 4). Against a "
            "flak jacket, a broadsword rolls 3d3-6.",
        ),
        _template(
            "gunner",
            "Raider Gunner",
            Characteristics.of(7, 8, 7, 6, 6, 4),
            _skills(("Gun Combat (Slug Rifle)", 1), ("Recon", 0)),
            weapons=[_automatic_rifle()],
            armor=[_flak_jacket()],
            tags=["raiders", "ranged"],
            notes="Automatic rifle, 3d6-2 at rate of attack 4: a success effect of 2 is three "
            "damage rolls.",
        ),
        _template(
            "shieldwall",
            "Shieldwall Raider",
            Characteristics.of(9, 6, 9, 5, 5, 4),
            _skills(("Melee Combat (Slashing)", 1), ("Athletics", 1)),
            weapons=[_broadsword()],
            armor=[_flak_jacket()],
            cover_items=[_shield()],
            tags=["raiders", "melee", "shield"],
            notes="Shield with protection 2: of a fail effect of 3, the shield takes two "
            "damage rolls and the raider one.",
        ),
        _template(
            "chief",
            "Raider Chief",
            Characteristics.of(9, 8, 9, 8, 6, 7),
            _skills(
                ("Melee Combat (Slashing)", 2),
                ("Tactics", 2),
                ("Leadership", 1),
                ("Gun Combat (Slug Pistol)", 1),
            ),
            weapons=[_broadsword(), _autopistol()],
            armor=[_flak_jacket()],
            tags=["raiders", "leader"],
            notes="Uses Tactics at the start of a fight: the effect adds to the initiative of "
            "every raider in earshot.",
        ),
        _template(
            "hound",
            "Ash Hound",
            Characteristics.of(5, 11, 7, 2, 0, 0),
            _skills(("Melee Combat (Natural)", 1), ("Recon", 2), ("Athletics", 1)),
            weapons=[
                Weapon(
                    name="Bite",
                    damage="1d6+1",
                    ready_actions=0,
                    skill="Melee Combat (Natural)",
                )
            ],
            tags=["beasts"],
            notes="Lean grey scavengers that hunt in threes along the ash flats. Flee when "
            "seriously wounded.",
        ),
        _template(
            "walker",
            "Salvage Walker",
            Characteristics.of(15, 5, 15, 4, 0, 0),
            _skills(("Gun Combat (Heavy Weapons)", 1), ("Recon", 1)),
            weapons=[
                Weapon(
                    name="Salvaged Autocannon",
                    damage="D 2d6",
                    rate_of_attack=2,
                    range_class=RangeClass.VERY_LONG,
                    aim_modifier=2,
                    ready_actions=2,
                    reload_actions=3,
                    skill="Gun Combat (Heavy Weapons)",
                )
            ],
            armor=[Armor(name="Hull Plating", rating=2, scale=Scale.DEKA)],
            tags=["machines", "deka scale"],
            notes="A scrapyard combat walker. Deka scale: the autocannon's D 2d6 is (2d6) x 10 "
            "and its DAR 2 plating is 20 AR; personal weapons of a lesser scale cannot hurt it.",
        ),
    ]


# --- things ------------------------------------------------------------------------------


def _thing_template(key: str, thing: Thing, tags: list[str]) -> ThingTemplate:
    thing.id = _id(f"thing-template-{key}-stats")
    return ThingTemplate(id=_id(f"thing-template-{key}"), stats=thing, tags=tags)


def _thing_library() -> list[ThingTemplate]:
    """The chapter's examples: the shield and the cinder blocks of the cover example, and
    a vehicle of the Deka scale."""
    return [
        _thing_template("shield", Thing(
            name="Shield", kind=ThingKind.COVER, hp=12, protection=2,
            notes="Ch.7 shield example: protection 2. Of a fail effect of 3 with 3d6 attacks, "
            "the shield takes two damage rolls of 3d6 and the character behind it one.",
        ), ["cover", "carried"]),
        _thing_template("cinder-blocks", Thing(
            name="Cinder Blocks", kind=ThingKind.COVER, hp=30, armor=4, protection=2,
            notes="A waist-high stack of cinder blocks: takes the damage rolls it absorbs "
            "(armor 4 off each) until it is rubble.",
        ), ["cover", "terrain"]),
        _thing_template("walker", Thing(
            name="D-Plated Walker", kind=ThingKind.VEHICLE, hp=20, hp_scale=Scale.DEKA,
            armor=2, armor_scale=Scale.DEKA, protection=4,
            crew=[CrewPosition(role="Pilot"), CrewPosition(role="Gunner")],
            weapons=[Weapon(
                name="Walker Autocannon", damage="D 2d6", rate_of_attack=2,
                range_class=RangeClass.VERY_LONG, aim_modifier=2, ready_actions=2,
                reload_actions=3, skill="Gun Combat (Heavy Weapons)",
            )],
            notes="20 DHP = 200 HP behind DAR 2 = 20 AR plating. Scale immunity: personal "
            "weapons of a lesser scale cannot hurt it; its crew can shelter behind it "
            "(protection 4).",
        ), ["vehicle", "deka scale"]),
    ]


def _ford_things(library: list[ThingTemplate]) -> list[EncounterThing]:
    blocks = library[1].make_instance(1)
    blocks.id = _id("thing-ford-cinder-blocks-1")
    return [EncounterThing(id=_id("encounter-thing-ford-cinder-blocks-1"), instance=blocks,
                           notes="The ruined tollhouse wall by the ford.")]


# --- encounters ----------------------------------------------------------------------------


def _instance(template: AdversaryTemplate, number: int, key: str) -> Character:
    instance = template.make_instance(number)
    instance.id = _id(f"instance-{key}")
    return instance


def _initiative(character: Character, dice: tuple[int, int], skill: str | None) -> int:
    level = character.skill_level(skill) if skill else None
    return sum(dice) + initiative_modifier(character.characteristic("dex") or 0, level)


def _combatant(
    key: str,
    character: Character,
    dice: tuple[int, int],
    skill: str | None,
    *,
    embedded: bool,
    side: Side,
    **extra: object,
) -> Combatant:
    data: dict[str, object] = {
        "id": _id(f"combatant-{key}"),
        "side": side,
        "initiative": _initiative(character, dice, skill),
        "initiative_dice": list(dice),
    }
    data["instance" if embedded else "character_id"] = character if embedded else character.id
    data.update(extra)
    return Combatant.model_validate(data)


def _ford(pcs: dict[str, Character], library: dict[str, AdversaryTemplate]) -> Encounter:
    raider1 = _instance(library["raider"], 1, "ford-raider-1")
    raider2 = _instance(library["raider"], 2, "ford-raider-2")
    gunner = _instance(library["gunner"], 1, "ford-gunner-1")
    wall = _instance(library["shieldwall"], 1, "ford-shieldwall-1")
    chief = _instance(library["chief"], 1, "ford-chief-1")
    chief_id = _id("combatant-ford-chief")
    enemies = Side.ENEMIES
    return Encounter(
        id=_id("encounter-ford"),
        name="Ambush at Cinder Ford",
        location="Cinder Ford, east bank of the Ashwater",
        notes="The raiders hold the ford with the shieldwall in the shallows and the gunner "
        "in the ruined tollhouse (partial cover). Sef is already in position on the ridge, "
        "covering the chief. Initiative is rolled; start the encounter when the players "
        "commit. Ilse sits this one out, recovering at Emberfall.",
        combatants=[
            _combatant("ford-mara", pcs["mara"], (5, 4), "Tactics", embedded=False,
                       side=Side.PLAYERS),
            _combatant("ford-tomas", pcs["tomas"], (3, 4), None, embedded=False,
                       side=Side.PLAYERS),
            _combatant(
                "ford-sef", pcs["sef"], (6, 5), "Recon", embedded=False, side=Side.PLAYERS,
                stance=Stance.PRONE, cover=CoverLevel.PARTIAL, aim=2, aim_target_id=chief_id,
            ),
            _combatant("ford-raider-1", raider1, (4, 2), None, embedded=True, side=enemies),
            _combatant("ford-raider-2", raider2, (2, 2), None, embedded=True, side=enemies),
            _combatant(
                "ford-gunner", gunner, (5, 3), None, embedded=True, side=enemies,
                cover=CoverLevel.PARTIAL,
            ),
            _combatant("ford-shieldwall", wall, (3, 3), None, embedded=True, side=enemies),
            _combatant("ford-chief", chief, (4, 4), "Tactics", embedded=True, side=enemies),
        ],
    )


def _salt_well(pcs: dict[str, Character], library: dict[str, AdversaryTemplate]) -> Encounter:
    raider = _instance(library["raider"], 1, "well-raider-1")
    raider.damage = 11
    raider.damage_history = [
        DamageRecord(amount=4, rolled=8, source="Mara Vey: Automatic Rifle", round=1),
        DamageRecord(amount=2, rolled=6, source="Mara Vey: Automatic Rifle", round=1),
        DamageRecord(amount=5, rolled=9, source="Mara Vey: Automatic Rifle", round=1),
    ]
    gunner = _instance(library["gunner"], 1, "well-gunner-1")
    start = GameTime.at(9, 15, 10)
    ids = {key: _id(f"combatant-well-{key}") for key in ("mara", "ilse", "tomas", "r1", "g1")}
    entries = [
        EncounterLogEntry(
            id=_id("log-well-1"),
            round=1,
            at=start,
            actor_id=ids["mara"],
            actor="Mara Vey",
            action="Attack: Automatic Rifle",
            action_kind=ActionKind.SIGNIFICANT,
            target_id=ids["r1"],
            target="Raider 1",
            dice=[5, 6],
            modifier=3,
            difficulty=11,
            effect=3,
            damage=[4, 2, 5, 0],
            state_changes=["Raider 1: Seriously Wounded"],
            text="Three-round bursts across the well: four damage rolls of 3d6-2 against the "
            "raider's flak jacket (3d6-6).",
        ),
        EncounterLogEntry(
            id=_id("log-well-2"),
            round=1,
            at=start.advance(seconds=2),
            actor_id=ids["ilse"],
            actor="Ilse Brandt",
            action="Defend: shield against Raider Gunner 1",
            action_kind=ActionKind.SIGNIFICANT,
            target_id=ids["g1"],
            target="Raider Gunner 1",
            dice=[2, 3],
            modifier=2,
            difficulty=11,
            effect=-4,
            text="Defend with the shield against the gunner's burst: defence fails.",
        ),
        # The harm of a failed defence is the attacker's line, as the resolver writes it
        # (one line with the damage on the defender's would count it as dealt by her).
        EncounterLogEntry(
            id=_id("log-well-2-fire"),
            round=1,
            at=start.advance(seconds=2),
            actor="Raider Gunner 1: Automatic Rifle",
            action="Return fire",
            target_id=ids["ilse"],
            target="Ilse Brandt",
            effect=-4,
            damage=[10, 2],
            state_changes=[
                "Shield: takes 2 damage rolls (5 damage)",
                "Ilse Brandt: Seriously Wounded",
                "Ilse Brandt: Bleeding",
                "Ilse Brandt: Crippled (left arm)",
            ],
            text="Fail effect 4; the shield absorbs 2, two automatic rifle rolls get through "
            "(3d6-2 against Jack 3). The 10-point hit to the left arm is over 1/3 of her HP.",
        ),
        EncounterLogEntry(
            id=_id("log-well-3"),
            round=2,
            at=start.advance(rounds=1),
            actor_id=ids["tomas"],
            actor="Tomas Okoro",
            action="First Aid on Ilse Brandt",
            action_kind=ActionKind.FULL,
            target_id=ids["ilse"],
            target="Ilse Brandt",
            dice=[3, 4],
            modifier=2,
            difficulty=8,
            effect=1,
            damage=[],
            state_changes=["Ilse Brandt: Bleeding stopped", "Ilse Brandt: first aid heals 1"],
            text="Tomas drags her behind the well wall and starts first aid (3 minutes; the "
            "success effect shortens it). Effect 1: one point healed, the bleeding stops.",
        ),
        EncounterLogEntry(
            id=_id("log-well-4"),
            round=3,
            at=start.advance(rounds=2),
            actor="Referee",
            action="Raiders withdraw",
            text="With their swordsman down, the raiders fall back toward Cinder Ford.",
        ),
    ]
    return Encounter(
        id=_id("encounter-salt-well"),
        name="Skirmish at the Salt Well",
        location="Salt Well market, Kessa Marches",
        notes="Where Ilse was hurt. Kept for the log.",
        round=3,
        turn_index=0,
        started_at=start,
        ended=True,
        combatants=[
            _combatant("well-mara", pcs["mara"], (6, 4), "Tactics", embedded=False,
                       side=Side.PLAYERS),
            _combatant("well-ilse", pcs["ilse"], (3, 5), None, embedded=False,
                       side=Side.PLAYERS),
            _combatant("well-tomas", pcs["tomas"], (2, 4), None, embedded=False,
                       side=Side.PLAYERS),
            _combatant("well-r1", raider, (4, 4), None, embedded=True, side=Side.ENEMIES,
                       out_of_fight=True),
            _combatant("well-g1", gunner, (5, 5), None, embedded=True, side=Side.ENEMIES,
                       out_of_fight=True),
        ],
        log=entries,
    )


# --- the campaign --------------------------------------------------------------------------


def build_sample_campaign() -> Campaign:
    """The sample campaign, identical on every call."""
    pcs = {"mara": _mara(), "tomas": _tomas(), "ilse": _ilse(), "sef": _sef()}
    library_list = _library()
    library = {
        key: template
        for key, template in zip(
            ("raider", "gunner", "shieldwall", "chief", "hound", "walker"),
            library_list,
            strict=True,
        )
    }
    things = _thing_library()
    ford = _ford(pcs, library)
    ford.things = _ford_things(things)
    return Campaign(
        id=_id("campaign"),
        name="The Ashfall Marches",
        game_time=GameTime.at(12, 14, 30),
        characters=[*pcs.values(), _hollis(), _wren()],
        adversary_library=library_list,
        encounters=[ford, _salt_well(pcs, library)],
        thing_library=things,
        journal=[
            JournalEntry(
                id=_id("journal-1"),
                game_time=GameTime.at(1, 9, 0),
                title="Arrival at Emberfall Station",
                text="The company reaches Emberfall with the water convoy. Captain Hollis "
                "offers fuel and ammunition for clearing the road to the Salt Well.",
            ),
            JournalEntry(
                id=_id("journal-2"),
                game_time=GameTime.at(9, 15, 30),
                title="The Salt Well",
                text="Raiders hit the market. Mara drops their swordsman; Ilse takes a rifle "
                "burst (seriously wounded, left arm crippled). Tomas stops the bleeding; "
                "she is carried back to Emberfall for care.",
            ),
            JournalEntry(
                id=_id("journal-3"),
                game_time=GameTime.at(12, 14, 0),
                title="Word of the ford",
                text="Old Wren sells the raiders' position: Cinder Ford, five of them, one "
                "with a rifle in the tollhouse. The convoy leaves on day 15.",
            ),
        ],
        notes="A short frontier campaign for four players, used as the Mneme Desktop "
        "sample. Wound thresholds use the HP fractions (the campaign's rules option).",
    )


def sample_campaign_path() -> Path:
    """Where the installed sample campaign is (read-only: copy it before editing)."""
    resource = importlib.resources.files("mneme_desktop.resources") / SAMPLE_FILE_NAME
    return Path(str(resource))


def install_sample_campaign(destination: Path, known: KnownContents | None = None) -> Path:
    """Copy the sample to ``destination`` (a file path) unless it already exists there.

    The installed sample may sit in a read-only program folder, so the app opens a copy.
    The shipped bytes are this app's own writing (a test keeps them a fresh build of
    :func:`build_sample_campaign`), so their hash goes to ``known``: opening the copy
    spares the duplicate-key check, as for any file the app saved.
    """
    if not destination.exists():
        resource = importlib.resources.files("mneme_desktop.resources") / SAMPLE_FILE_NAME
        data = resource.read_bytes()
        destination.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(destination, data)
        if known is not None:
            known.add(content_hash(data))
    return destination


def main(argv: list[str] | None = None) -> int:
    """Write the sample campaign: ``python3 -m mneme_desktop.storage.sample PATH``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python3 -m mneme_desktop.storage.sample PATH", file=sys.stderr)
        return 2
    save_campaign(build_sample_campaign(), Path(args[0]), backups=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
