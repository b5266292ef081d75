"""Character models: validation with clear messages, and derived values from the rules core."""

from __future__ import annotations

import base64
from decimal import Decimal
from fractions import Fraction

import pytest
from pydantic import ValidationError

from mneme_desktop.domain import (
    MAX_CHARACTERISTIC,
    Armor,
    Character,
    CharacteristicDamage,
    Characteristics,
    Condition,
    ConditionKind,
    CoverItem,
    Portrait,
    Recovery,
    Skill,
    Weapon,
    canonical_damage,
)
from mneme_desktop.rules.checks import characteristic_modifier, pseudo_hex, upp
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.wounds import (
    ThresholdBasis,
    WoundState,
    hit_points,
    wound_penalty,
    wound_thresholds,
)


def _character(**changes: object) -> Character:
    data: dict[str, object] = {
        "name": "Mara Vey",
        "characteristics": Characteristics.of(8, 9, 8, 7, 8, 6),
    }
    data.update(changes)
    return Character.model_validate(data)


def _message(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())


def test_characteristic_below_zero_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        Characteristics.model_validate(
            {"str": -1, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7}
        )
    assert "str: Input should be greater than or equal to 0" in _message(caught.value)
    character = _character()
    with pytest.raises(ValidationError):
        character.characteristics.dexterity = -3


def test_characteristic_upper_bound_is_what_a_upp_can_print() -> None:
    assert pseudo_hex(MAX_CHARACTERISTIC)
    with pytest.raises(ValueError):
        pseudo_hex(MAX_CHARACTERISTIC + 1)
    with pytest.raises(ValidationError):
        Characteristics.of(MAX_CHARACTERISTIC + 1, 7, 7, 7, 7, 7)


def test_a_character_needs_hit_points() -> None:
    with pytest.raises(ValidationError, match=r"STR \+ DEX \+ END must be at least 1"):
        Characteristics.of(0, 0, 0, 7, 7, 7)
    assert Characteristics.of(0, 0, 1, 0, 0, 0).physical == (0, 0, 1)


def test_negative_rate_of_attack_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=-1)
    assert "rate_of_attack: Input should be greater than or equal to 1" in _message(caught.value)
    with pytest.raises(ValidationError):
        Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=0)


def test_dice_that_do_not_parse_are_refused_with_the_parsers_reason() -> None:
    with pytest.raises(ValidationError) as caught:
        Weapon(name="Blaster", damage="3x6")
    message = _message(caught.value)
    assert "damage: Value error, not a dice expression:" in message
    assert "position 2" in message and "'3x6'" in message
    weapon = Weapon(name="Broadsword", damage="3d3-2")
    with pytest.raises(ValidationError, match="empty dice expression"):
        weapon.damage = "  "


def test_damage_is_stored_in_canonical_form() -> None:
    weapon = Weapon(name="Broadsword", damage=" 3D3 − 2 ")
    assert weapon.damage == "3d3-2"
    assert Weapon(name="Cannon", damage="D  2d6").damage == "D 2d6"
    assert Weapon(name="Gun", damage="h 1d6").damage == "H 1d6"
    assert Weapon(name="Cannon", damage="D 2d6").scale is Scale.DEKA
    assert Weapon(name="Knife", damage="d6").damage_dice.count == 1
    assert canonical_damage("H 2d6 - 2") == "H 2d6-2"


def test_thrown_value_is_a_decimal() -> None:
    axe = Weapon(name="Axe", damage="2d3", thrown="1.5")  # type: ignore[arg-type]
    assert axe.thrown == Decimal("1.5")
    assert axe.model_dump(mode="json")["thrown"] == "1.5"
    with pytest.raises(ValidationError):
        Weapon(name="Axe", damage="2d3", thrown="-1")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Weapon(name="Axe", damage="2d3", thrown="NaN")  # type: ignore[arg-type]


def test_other_bounds() -> None:
    with pytest.raises(ValidationError):
        Skill(name="Medic", level=16)
    with pytest.raises(ValidationError):
        Skill(name="", level=1)
    with pytest.raises(ValidationError):
        Armor(name="Flak Jacket", rating=-4)
    with pytest.raises(ValidationError):
        CoverItem(name="Shield", protection=-2)
    with pytest.raises(ValidationError):
        _character(damage=-1)
    with pytest.raises(ValidationError):
        _character(name="")
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        _character(hit_points=30)


def test_derived_values_come_from_the_rules_core() -> None:
    mara = _character(damage=7)
    assert mara.hit_points == hit_points(8, 9, 8) == 25
    assert mara.upp == upp([8, 9, 8, 7, 8, 6]) == "898786"
    assert mara.characteristic_modifier("dex") == characteristic_modifier(9) == 1
    assert mara.characteristic_modifier("STR") == 0
    assert mara.wound_penalty == wound_penalty(7) == -2
    assert mara.wound_thresholds() == wound_thresholds(25)
    assert mara.wound_state() is WoundState.WOUNDED
    by_characteristic = mara.wound_state(ThresholdBasis.CHARACTERISTIC)
    assert by_characteristic is WoundState.WOUNDED  # best physical 9: seriously at 9
    mara.damage = 9
    assert mara.wound_state() is WoundState.SERIOUSLY_WOUNDED
    assert mara.wound_state(ThresholdBasis.CHARACTERISTIC) is WoundState.SERIOUSLY_WOUNDED
    mara.damage = 25
    assert mara.wound_state() is WoundState.CRITICALLY_WOUNDED  # damage == HP
    mara.damage = 26
    assert mara.wound_state() is WoundState.DYING


def test_dead_condition_overrides_damage() -> None:
    body = _character(conditions=[Condition(kind=ConditionKind.DEAD)])
    assert body.wound_state() is WoundState.DEAD


def test_characteristic_damage_lowers_the_current_value() -> None:
    psion = _character(
        characteristics=Characteristics.of(6, 10, 7, 9, 7, 5, 8),
        characteristic_damage=CharacteristicDamage(intelligence=4, psionic_strength=9),
    )
    assert psion.upp == "6A79758"  # the UPP shows the characteristics themselves
    assert psion.characteristic("int") == 5
    assert psion.characteristic("int", current=False) == 9
    assert psion.characteristic_modifier("int") == characteristic_modifier(5) == -1
    assert psion.characteristic("psi") == 0
    assert psion.characteristic_damage.is_damaged
    plain = _character()
    assert plain.characteristic("psi") is None
    with pytest.raises(ValueError, match="has no PSI"):
        plain.characteristic_modifier("psi")
    with pytest.raises(ValueError, match="unknown characteristic 'luck'"):
        plain.characteristic("luck")


def test_characteristics_are_stored_under_their_upp_codes() -> None:
    data = _character().model_dump(mode="json")
    assert data["characteristics"] == {
        "str": 8, "dex": 9, "end": 8, "int": 7, "edu": 8, "soc": 6, "psi": None
    }
    assert data["characteristic_damage"]["str"] == 0


def test_skill_levels() -> None:
    character = _character(
        skills=[
            Skill(name="Gun Combat", specialty="Slug Rifle", level=2),
            Skill(name="Gun Combat", specialty="Slug Pistol", level=1),
            Skill(name="Medic", level=0),
            Skill(name="Melee Combat", level=1),
        ]
    )
    assert character.skill_level("Gun Combat (Slug Rifle)") == 2
    assert character.skill_level("gun combat", "slug pistol") == 1
    assert character.skill_level("Gun Combat") == 2  # best held
    assert character.skill_level("Gun Combat (Energy Rifle)") is None
    assert character.skill_level("Medic") == 0  # skill-0 is not unskilled
    assert character.skill_level("Tactics") is None
    assert character.skill_level("Melee Combat (Slashing)") == 1  # held without specialty
    assert str(character.skills[0]) == "Gun Combat (Slug Rifle)-2"
    assert Skill.split_label("Pilot (Small Craft)") == ("Pilot", "Small Craft")
    assert Skill.split_label("Medic") == ("Medic", None)


def test_recovery_progress_stays_below_a_point() -> None:
    assert Recovery(progress=Fraction(1, 2)).progress == Fraction(1, 2)
    with pytest.raises(ValidationError, match="below 1"):
        Recovery(progress=Fraction(1))
    with pytest.raises(ValidationError):
        Recovery(progress=Fraction(-1, 3))
    assert Recovery.model_validate_json('{"progress": "1/3"}').progress == Fraction(1, 3)


def test_portrait() -> None:
    picture = Portrait.from_bytes(b"\x89PNG fake", "image/png")
    assert picture.image_bytes == b"\x89PNG fake"
    with pytest.raises(ValidationError, match="not valid base64"):
        Portrait(media_type="image/png", data="***")
    with pytest.raises(ValidationError, match="at most 2048 KiB"):
        Portrait.from_bytes(b"x" * (2 * 1024 * 1024 + 1), "image/png")
    with pytest.raises(ValidationError):
        Portrait(media_type="application/pdf", data=base64.b64encode(b"x").decode())  # type: ignore[arg-type]


def test_conditions() -> None:
    from mneme_desktop.domain import GameTime

    crippled = Condition(kind=ConditionKind.CRIPPLED, detail="left arm")
    assert crippled.label == "Crippled (left arm)"
    stable = Condition(kind=ConditionKind.STABILISED, expires_at=GameTime.at(3, 12))
    assert not stable.expired(GameTime.at(3, 11)) and stable.expired(GameTime.at(3, 12))
    character = _character(conditions=[crippled, stable])
    assert character.has_condition(ConditionKind.CRIPPLED)
    assert character.conditions_of(ConditionKind.STABILISED) == [stable]
    assert not character.has_condition(ConditionKind.BLEEDING)


def test_worn_armor() -> None:
    character = _character(
        armor=[Armor(name="Flak Jacket", rating=4), Armor(name="Cloth", rating=9, worn=False)]
    )
    assert [a.name for a in character.worn_armor] == ["Flak Jacket"]
    assert CoverItem(name="Shield", protection=2, hp=12, damage=5).remaining_hp == 7
