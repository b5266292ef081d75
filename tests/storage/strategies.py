"""Hypothesis strategies for valid campaigns (every model, every optional part)."""

from __future__ import annotations

import base64
from decimal import Decimal
from fractions import Fraction

from hypothesis import strategies as st

from mneme_desktop.domain import (
    MAX_CHARACTERISTIC,
    MAX_SKILL_LEVEL,
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    CharacteristicDamage,
    Characteristics,
    CharacterKind,
    Combatant,
    Condition,
    ConditionKind,
    CoverItem,
    DamageRecord,
    Encounter,
    EncounterLogEntry,
    ExtendedTask,
    GameTime,
    JournalEntry,
    Portrait,
    RangeClass,
    Recovery,
    RulesOptions,
    Side,
    Skill,
    Weapon,
)
from mneme_desktop.rules.actions import ActionKind, BodyArea, Load, Stance
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.dice import DiceExpression, Scale
from mneme_desktop.rules.healing import Activity
from mneme_desktop.rules.wounds import ThresholdBasis

# Any text a referee could type: every code point except lone surrogates (which no UTF-8
# file can hold and no keyboard produces).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
NAMES = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30)
SMALL = st.integers(min_value=0, max_value=50)

game_times = st.builds(
    GameTime, day=st.integers(1, 100_000), second=st.integers(0, 86_399)
)

dice_texts = st.one_of(
    st.sampled_from(["3d3-2", "3d6-2", "2d6+1", "1d6", "D 3d3", "H 2d6-2", "K 5d6-4", "4"]),
    st.builds(
        lambda count, sides, modifier, scale: str(DiceExpression(count, sides, modifier, scale)),
        st.integers(1, 20),
        st.integers(2, 20),
        st.integers(-20, 20),
        st.sampled_from(list(Scale)),
    ),
)

characteristics = st.builds(
    Characteristics.of,
    st.integers(1, MAX_CHARACTERISTIC),
    st.integers(0, MAX_CHARACTERISTIC),
    st.integers(0, MAX_CHARACTERISTIC),
    st.integers(0, MAX_CHARACTERISTIC),
    st.integers(0, MAX_CHARACTERISTIC),
    st.integers(0, MAX_CHARACTERISTIC),
    st.none() | st.integers(0, MAX_CHARACTERISTIC),
)

characteristic_damage = st.builds(
    CharacteristicDamage,
    strength=SMALL,
    dexterity=SMALL,
    endurance=SMALL,
    intelligence=SMALL,
    education=SMALL,
    social_standing=SMALL,
    psionic_strength=SMALL,
)

skills = st.builds(
    Skill,
    name=NAMES,
    specialty=st.none() | NAMES,
    level=st.integers(0, MAX_SKILL_LEVEL),
)

weapons = st.builds(
    Weapon,
    name=NAMES,
    damage=dice_texts,
    rate_of_attack=st.integers(1, 10),
    range_class=st.sampled_from(list(RangeClass)),
    aim_modifier=st.integers(0, 3),
    thrown=st.none() | st.sampled_from([Decimal(v) for v in ("0.5", "1.5", "2", "0.25")]),
    ready_actions=st.integers(0, 3),
    reload_actions=st.integers(0, 3),
    skill=TEXT,
    notes=TEXT,
)

armors = st.builds(
    Armor, name=NAMES, rating=SMALL, scale=st.sampled_from(list(Scale)), worn=st.booleans(),
    notes=TEXT,
)

cover_items = st.builds(
    CoverItem, name=NAMES, protection=st.integers(0, 4), hp=SMALL, damage=SMALL, notes=TEXT
)

damage_records = st.builds(
    DamageRecord,
    amount=SMALL,
    rolled=st.none() | st.integers(-10, 60),
    source=TEXT,
    location=st.none() | st.sampled_from(list(BodyArea)),
    at=st.none() | game_times,
    round=st.none() | SMALL,
    encounter_id=st.none() | NAMES,
)

conditions = st.builds(
    Condition,
    kind=st.sampled_from(list(ConditionKind)),
    detail=TEXT,
    started_at=st.none() | game_times,
    started_round=st.none() | SMALL,
    encounter_id=st.none() | NAMES,
    expires_at=st.none() | game_times,
)

recoveries = st.builds(
    Recovery,
    activity=st.sampled_from(list(Activity)),
    care=st.booleans(),
    progress=st.builds(Fraction, st.integers(0, 6), st.just(7)),
    since=st.none() | game_times,
    caregiver_id=st.none() | NAMES,
)

portraits = st.builds(
    lambda raw, kind: Portrait(media_type=kind, data=base64.b64encode(raw).decode("ascii")),
    st.binary(max_size=64),
    st.sampled_from(["image/png", "image/jpeg", "image/gif", "image/webp"]),
)


def characters(
    kind: st.SearchStrategy[CharacterKind] | None = None,
) -> st.SearchStrategy[Character]:
    return st.builds(
        Character,
        name=NAMES,
        player=TEXT,
        kind=kind if kind is not None else st.sampled_from(list(CharacterKind)),
        characteristics=characteristics,
        characteristic_damage=characteristic_damage,
        skills=st.lists(skills, max_size=4),
        weapons=st.lists(weapons, max_size=3),
        armor=st.lists(armors, max_size=2),
        cover_items=st.lists(cover_items, max_size=2),
        load=st.sampled_from(list(Load)),
        damage=SMALL,
        damage_history=st.lists(damage_records, max_size=3),
        conditions=st.lists(conditions, max_size=3),
        recovery=st.none() | recoveries,
        notes=TEXT,
        portrait=st.none() | portraits,
        template_id=st.none() | NAMES,
    )


templates = st.builds(
    AdversaryTemplate,
    stats=characters(st.just(CharacterKind.ADVERSARY)),
    tags=st.lists(NAMES, max_size=3),
)

log_entries = st.builds(
    EncounterLogEntry,
    round=SMALL,
    at=st.none() | game_times,
    actor_id=st.none() | NAMES,
    actor=TEXT,
    action=TEXT,
    action_kind=st.none() | st.sampled_from(list(ActionKind)),
    target_id=st.none() | NAMES,
    target=TEXT,
    dice=st.lists(st.integers(1, 6), max_size=4),
    modifier=st.integers(-10, 10),
    difficulty=st.none() | st.integers(2, 20),
    effect=st.none() | st.integers(-12, 12),
    damage=st.lists(SMALL, max_size=4),
    state_changes=st.lists(TEXT, max_size=3),
    text=TEXT,
)

extended_tasks = st.integers(1, 40).flatmap(
    lambda total: st.builds(
        ExtendedTask,
        description=NAMES,
        total_rounds=st.just(total),
        remaining_rounds=st.integers(0, total),
        rounds_taken=SMALL,
    )
)


@st.composite
def encounters(draw: st.DrawFn, character_ids: list[str]) -> Encounter:
    """An encounter whose combatants reference only ``character_ids`` (or embed instances)."""
    count = draw(st.integers(0, 4))
    combatants = []
    for _ in range(count):
        by_reference = bool(character_ids) and draw(st.booleans())
        source: dict[str, object] = (
            {"character_id": draw(st.sampled_from(character_ids))}
            if by_reference
            else {"instance": draw(characters(st.just(CharacterKind.ADVERSARY)))}
        )
        combatants.append(
            Combatant(
                side=draw(st.sampled_from(list(Side))),
                initiative=draw(st.none() | st.integers(-5, 30)),
                initiative_dice=draw(st.lists(st.integers(1, 6), max_size=3)),
                delayed=draw(st.booleans()),
                actions_spent=draw(st.integers(0, 3)),
                aim=draw(st.integers(0, 12)),
                stance=draw(st.sampled_from(list(Stance))),
                cover=draw(st.sampled_from(list(CoverLevel))),
                extended_task=draw(st.none() | extended_tasks),
                out_of_fight=draw(st.booleans()),
                notes=draw(TEXT),
                **source,  # type: ignore[arg-type]
            )
        )
    if combatants and draw(st.booleans()):
        aimer = draw(st.sampled_from(combatants))
        aimer.aim_target_id = draw(st.sampled_from(combatants)).id
    return Encounter(
        name=draw(NAMES),
        location=draw(TEXT),
        notes=draw(TEXT),
        round=draw(SMALL),
        turn_index=draw(st.integers(0, 5)),
        combatants=combatants,
        log=draw(st.lists(log_entries, max_size=3)),
        started_at=draw(st.none() | game_times),
        ended=draw(st.booleans()),
    )


@st.composite
def campaigns(draw: st.DrawFn) -> Campaign:
    people = draw(st.lists(characters(), max_size=4))
    ids = [c.id for c in people]
    return Campaign(
        name=draw(NAMES),
        game_time=draw(game_times),
        rules_options=RulesOptions(threshold_basis=draw(st.sampled_from(list(ThresholdBasis)))),
        characters=people,
        adversary_library=draw(st.lists(templates, max_size=2)),
        encounters=draw(st.lists(encounters(ids), max_size=2)),
        journal=draw(
            st.lists(st.builds(JournalEntry, game_time=game_times, title=TEXT, text=TEXT),
                     max_size=3)
        ),
        notes=draw(TEXT),
    )
