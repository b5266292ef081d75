"""Characters: player characters, NPCs and adversaries, with what they carry and suffer.

Only the referee's inputs are stored (characteristics, skills, damage taken, conditions).
Everything the rules derive from them - ChM, HP, UPP, wound thresholds, wound state and
penalty - is asked of :mod:`mneme_desktop.rules` each time, so a file can never hold a
stale or contradictory number.
"""

from __future__ import annotations

import base64
import binascii
import functools
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Literal
from uuid import uuid4

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.rules.actions import BodyArea, Load
from mneme_desktop.rules.checks import characteristic_modifier, upp
from mneme_desktop.rules.dice import DiceExpression, DiceParseError, Scale, parse_dice
from mneme_desktop.rules.healing import Activity
from mneme_desktop.rules.wounds import (
    ThresholdBasis,
    WoundState,
    WoundThresholds,
    hit_points,
    wound_penalty,
    wound_state,
    wound_thresholds,
)

__all__ = [
    "CHARACTERISTIC_CODES",
    "MAX_CHARACTERISTIC",
    "MAX_PORTRAIT_BYTES",
    "MAX_SKILL_LEVEL",
    "Armor",
    "Career",
    "Character",
    "CharacterKind",
    "Characteristic",
    "CharacteristicDamage",
    "Characteristics",
    "Condition",
    "ConditionKind",
    "CoverItem",
    "DamageRecord",
    "EquipmentItem",
    "Portrait",
    "RangeClass",
    "Recovery",
    "Skill",
    "Weapon",
    "canonical_damage",
    "new_id",
]

MAX_CHARACTERISTIC = 33
"""Largest value a UPP digit can show (Z in pseudo-hex); higher values could not be printed."""

MAX_SKILL_LEVEL = 15

MAX_AMOUNT = 1_000_000_000
"""Bound on every stored count, damage and modifier: far beyond Kilo-scale hit points, and
small enough that a hand-edited file cannot smuggle in a number the app cannot print."""

MAX_PORTRAIT_BYTES = 2 * 1024 * 1024
"""Portraits live inside the campaign file, so they are kept small."""


def new_id() -> str:
    """A fresh identifier: random, so ids never collide when characters move between files."""
    return uuid4().hex


# defer_build (on every domain model): a model's validator is built the first time it is
# used, not when the module is imported; loading the campaign builds them all, nested, in one
# pass (start-up to the campaign shown: about 8 ms less of ~150 ms of import and load).
_MODEL = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)

Amount = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
"""A stored count or damage: 0 .. MAX_AMOUNT."""
SignedAmount = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
"""A stored modifier, roll or effect: -MAX_AMOUNT .. MAX_AMOUNT."""


class Characteristic(StrEnum):
    """The UPP characteristics in UPP order; the value is the key used in files."""

    STR = "str"
    DEX = "dex"
    END = "end"
    INT = "int"
    EDU = "edu"
    SOC = "soc"
    PSI = "psi"

    @classmethod
    def parse(cls, code: str | Characteristic) -> Characteristic:
        """Accept "dex", "DEX" or a :class:`Characteristic`."""
        if isinstance(code, Characteristic):
            return code
        try:
            return cls(code.strip().lower())
        except ValueError:
            known = ", ".join(c.value.upper() for c in cls)
            raise ValueError(f"unknown characteristic {code!r}: expected one of {known}") from None


CHARACTERISTIC_CODES: tuple[Characteristic, ...] = tuple(Characteristic)

_FIELD_FOR_CODE = {
    Characteristic.STR: "strength",
    Characteristic.DEX: "dexterity",
    Characteristic.END: "endurance",
    Characteristic.INT: "intelligence",
    Characteristic.EDU: "education",
    Characteristic.SOC: "social_standing",
    Characteristic.PSI: "psionic_strength",
}


class _ByCode(BaseModel):
    """Characteristic blocks stored under their UPP codes ("str", "dex", ...) in files."""

    model_config = ConfigDict(
        defer_build=True,
        extra="forbid",
        validate_assignment=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def value_of(self, code: str | Characteristic) -> int | None:
        value: int | None = getattr(self, _FIELD_FOR_CODE[Characteristic.parse(code)])
        return value


class Characteristics(_ByCode):
    """STR DEX END INT EDU SOC, and PSI for psionic characters only (None otherwise).

    Strict whole numbers: lax validation read ``"str": true`` as STR 1 and ``"7"`` as 7.
    """

    strength: int = Field(alias="str", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    dexterity: int = Field(alias="dex", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    endurance: int = Field(alias="end", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    intelligence: int = Field(alias="int", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    education: int = Field(alias="edu", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    social_standing: int = Field(alias="soc", ge=0, le=MAX_CHARACTERISTIC, strict=True)
    psionic_strength: int | None = Field(default=None, alias="psi", ge=0, le=MAX_CHARACTERISTIC,
                                         strict=True)

    @model_validator(mode="after")
    def _has_hit_points(self) -> Characteristics:
        if hit_points(self.strength, self.dexterity, self.endurance) < 1:
            raise ValueError("STR + DEX + END must be at least 1: a character needs hit points")
        return self

    @property
    def physical(self) -> tuple[int, int, int]:
        """(STR, DEX, END), the characteristics HP and the characteristic basis read."""
        return (self.strength, self.dexterity, self.endurance)

    def values(self) -> tuple[int, ...]:
        """Values in UPP order, PSI included only for psionic characters."""
        base = (
            self.strength,
            self.dexterity,
            self.endurance,
            self.intelligence,
            self.education,
            self.social_standing,
        )
        return base if self.psionic_strength is None else (*base, self.psionic_strength)

    @classmethod
    def of(
        cls,
        strength: int,
        dexterity: int,
        endurance: int,
        intelligence: int,
        education: int,
        social_standing: int,
        psionic_strength: int | None = None,
    ) -> Characteristics:
        """Positional shorthand in UPP order: ``Characteristics.of(7, 8, 9, 10, 8, 7)``."""
        return cls(
            strength=strength,
            dexterity=dexterity,
            endurance=endurance,
            intelligence=intelligence,
            education=education,
            social_standing=social_standing,
            psionic_strength=psionic_strength,
        )


class CharacteristicDamage(_ByCode):
    """Points of damage to each characteristic (drained INT, EDU, PSI ...), all 0 when whole."""

    strength: Amount = Field(default=0, alias="str")
    dexterity: Amount = Field(default=0, alias="dex")
    endurance: Amount = Field(default=0, alias="end")
    intelligence: Amount = Field(default=0, alias="int")
    education: Amount = Field(default=0, alias="edu")
    social_standing: Amount = Field(default=0, alias="soc")
    psionic_strength: Amount = Field(default=0, alias="psi")

    @property
    def is_damaged(self) -> bool:
        return any(getattr(self, name) for name in _FIELD_FOR_CODE.values())


class CharacterKind(StrEnum):
    PLAYER = "player"
    NPC = "npc"
    ADVERSARY = "adversary"


class Skill(BaseModel):
    """A skill at a level; ``Gun Combat (Slug Rifle)-2`` is name, specialty and level."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=100)
    specialty: str | None = Field(default=None, max_length=100)
    level: int = Field(default=0, ge=0, le=MAX_SKILL_LEVEL, strict=True)

    @property
    def label(self) -> str:
        """"Gun Combat (Slug Rifle)" - the skill as the book writes it, without level."""
        return f"{self.name} ({self.specialty})" if self.specialty else self.name

    def __str__(self) -> str:
        return f"{self.label}-{self.level}"

    @staticmethod
    def split_label(text: str) -> tuple[str, str | None]:
        """Split "Gun Combat (Slug Rifle)" into ("Gun Combat", "Slug Rifle")."""
        text = text.strip()
        if text.endswith(")") and "(" in text:
            name, _, rest = text.partition("(")
            specialty = rest[:-1].strip()
            return name.strip(), (specialty or None)
        return text, None


class RangeClass(StrEnum):
    """The range a weapon is made for, shortest first."""

    MELEE = "melee"
    CLOSE = "close"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    VERY_LONG = "very_long"
    DISTANT = "distant"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


@functools.lru_cache(maxsize=4096)
def canonical_damage(text: str) -> str:
    """A damage expression as the rules core writes it ("3D3 - 2" -> "3d3-2").

    Raises ValueError with the parser's explanation; cached because a campaign repeats
    the same few expressions thousands of times.
    """
    try:
        return str(parse_dice(text))
    except DiceParseError as exc:
        raise ValueError(f"not a dice expression: {exc}") from None


class Weapon(BaseModel):
    """A weapon as its stat line: damage dice (with scale), rate of attack, range, aim."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=200)
    damage: str = Field(description="Dice expression with optional scale: 3d6-2, D 3d3")
    rate_of_attack: int = Field(default=1, ge=1, le=1000)
    range_class: RangeClass = RangeClass.MELEE
    aim_modifier: int = Field(
        default=0, ge=0, le=1000, description="0: each aim action gives +1"
    )
    thrown: Decimal | None = Field(default=None, gt=0, le=100, decimal_places=2)
    ready_actions: int = Field(default=1, ge=0, le=1000, description="Minor actions to ready")
    reload_actions: int = Field(default=0, ge=0, le=1000, description="Minor actions to reload")
    skill: str = Field(default="", max_length=200, description="e.g. Gun Combat (Slug Rifle)")
    notes: str = ""

    @field_validator("damage", mode="after")
    @classmethod
    def _parse_damage(cls, value: str) -> str:
        return canonical_damage(value)

    @property
    def damage_dice(self) -> DiceExpression:
        return parse_dice(self.damage)

    @property
    def scale(self) -> Scale:
        return self.damage_dice.scale


class Armor(BaseModel):
    """Worn protection: its armor rating reduces every damage roll (Ch.7)."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=200)
    rating: Amount
    scale: Scale = Scale.NONE
    worn: bool = True
    notes: str = ""


class CoverItem(BaseModel):
    """Cover or a shield: its protection absorbs fail effect and it takes that damage itself."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=200)
    protection: Amount = Field(description="The Difficulty it adds (shield: 2)")
    hp: Amount = 0
    damage: Amount = 0
    notes: str = ""

    @property
    def remaining_hp(self) -> int:
        return max(0, self.hp - self.damage)


class DamageRecord(BaseModel):
    """One damage roll that hit: Bleeding and targeted effects are judged per roll."""

    model_config = _MODEL

    amount: Amount = Field(description="Damage taken after armor")
    rolled: SignedAmount | None = Field(default=None, description="The roll before armor")
    source: str = ""
    location: BodyArea | None = None
    at: GameTime | None = None
    round: Amount | None = None
    encounter_id: str | None = None


class ConditionKind(StrEnum):
    BLEEDING = "bleeding"
    STUNNED = "stunned"
    CRIPPLED = "crippled"
    UNCONSCIOUS = "unconscious"
    DYING = "dying"
    STABILISED = "stabilised"
    DEAD = "dead"
    PRONE = "prone"
    HELPLESS = "helpless"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Condition(BaseModel):
    """A condition with the moment it started, so bleeding and stabilisation can be timed."""

    model_config = _MODEL

    kind: ConditionKind
    detail: str = Field(default="", description='e.g. "left arm"')
    started_at: GameTime | None = None
    started_round: Amount | None = None
    encounter_id: str | None = None
    expires_at: GameTime | None = None

    @property
    def label(self) -> str:
        return f"{self.kind.label} ({self.detail})" if self.detail else self.kind.label

    def expired(self, now: GameTime) -> bool:
        return self.expires_at is not None and now >= self.expires_at


def _fraction(value: object) -> object:
    """Read "1/3" as a Fraction; "1/0" is a bad value, not a ZeroDivisionError."""
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"must be a fraction like 1/3, not {value[:20]!r}") from None
    return value


class Recovery(BaseModel):
    """The healing regime a wounded character is on, and progress toward the next point.

    Progress is the fraction of a point already earned: it carries over from day to day as
    the healing rules say, so it must be kept between sessions.
    """

    model_config = _MODEL

    activity: Activity = Activity.FULL_REST
    care: bool = Field(default=False, description="Receiving the care level the wound needs")
    progress: Annotated[Fraction, BeforeValidator(_fraction)] = Fraction(0)
    since: GameTime | None = None
    caregiver_id: str | None = None

    @field_validator("progress", mode="after")
    @classmethod
    def _progress_below_one(cls, value: Fraction) -> Fraction:
        if not 0 <= value < 1:
            raise ValueError("healing progress must be at least 0 and below 1 (a whole point)")
        return value


class Portrait(BaseModel):
    """A small image kept inside the campaign file so it travels with it."""

    model_config = _MODEL

    media_type: Literal["image/png", "image/jpeg", "image/gif", "image/webp"]
    data: str = Field(description="Base64 of the image bytes")

    @field_validator("data", mode="after")
    @classmethod
    def _valid_base64(cls, value: str) -> str:
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("portrait data is not valid base64") from None
        if len(raw) > MAX_PORTRAIT_BYTES:
            raise ValueError(
                f"portrait is {len(raw) // 1024} KiB; at most {MAX_PORTRAIT_BYTES // 1024} KiB"
            )
        return value

    @classmethod
    def from_bytes(cls, raw: bytes, media_type: str) -> Portrait:
        return cls.model_validate(
            {"media_type": media_type, "data": base64.b64encode(raw).decode("ascii")}
        )

    @property
    def image_bytes(self) -> bytes:
        return base64.b64decode(self.data)


class Career(BaseModel):
    """A career and the terms served in it (character generation's record)."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=100)
    terms: int = Field(default=0, ge=0, le=99, strict=True)
    rank: str = Field(default="", max_length=100, description='e.g. "Lieutenant" or "O2"')


class EquipmentItem(BaseModel):
    """Something carried that is not a weapon, armor or cover: a comm, a medkit, rations."""

    model_config = _MODEL

    name: str = Field(min_length=1, max_length=200)
    count: int = Field(default=1, ge=0, le=MAX_AMOUNT, strict=True)
    mass: Decimal | None = Field(default=None, ge=0, le=1_000_000, decimal_places=3,
                                 description="kg per item")
    notes: str = ""


class Character(BaseModel):
    """A player character, NPC, or adversary (an instance made from a template)."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    player: str = Field(default="", max_length=200)
    kind: CharacterKind = CharacterKind.PLAYER
    characteristics: Characteristics
    characteristic_damage: CharacteristicDamage = Field(default_factory=CharacteristicDamage)
    skills: list[Skill] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    armor: list[Armor] = Field(default_factory=list)
    cover_items: list[CoverItem] = Field(default_factory=list)
    equipment: list[EquipmentItem] = Field(default_factory=list)
    species: str = Field(default="", max_length=100)
    age: int | None = Field(default=None, ge=0, le=100_000, strict=True)
    careers: list[Career] = Field(default_factory=list)
    credits: int = Field(default=0, ge=-MAX_AMOUNT, le=MAX_AMOUNT, strict=True)
    load: Load = Load.LIGHT
    damage: Amount = Field(default=0, description="Damage taken and not yet healed")
    damage_history: list[DamageRecord] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    recovery: Recovery | None = None
    notes: str = ""
    portrait: Portrait | None = None
    template_id: str | None = Field(
        default=None, description="The adversary template this instance was made from"
    )

    # --- characteristics (derived by the rules core) ---------------------------------

    def characteristic(self, code: str | Characteristic, *, current: bool = True) -> int | None:
        """A characteristic's value, less its damage unless ``current`` is False.

        None for PSI on a character without psionics.
        """
        value = self.characteristics.value_of(code)
        if value is None or not current:
            return value
        return max(0, value - (self.characteristic_damage.value_of(code) or 0))

    def characteristic_modifier(self, code: str | Characteristic) -> int:
        """ChM of the current value; raises ValueError for PSI on a non-psionic."""
        value = self.characteristic(code)
        if value is None:
            raise ValueError(f"{self.name} has no {Characteristic.parse(code).value.upper()}")
        return characteristic_modifier(value)

    @property
    def upp(self) -> str:
        """The characteristics line in pseudo-hex, e.g. 789A87 (PSI appended if psionic)."""
        return upp(self.characteristics.values())

    # --- hit points and wounds ---------------------------------------------------------

    @property
    def hit_points(self) -> int:
        return hit_points(*self.characteristics.physical)

    def wound_thresholds(
        self, basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS
    ) -> WoundThresholds:
        return wound_thresholds(self.hit_points, basis, self.characteristics.physical)

    def wound_state(self, basis: ThresholdBasis = ThresholdBasis.HP_FRACTIONS) -> WoundState:
        """State from damage; a character with the Dead condition is Dead whatever the damage."""
        if self.has_condition(ConditionKind.DEAD):
            return WoundState.DEAD
        hp = self.hit_points
        return wound_state(self.damage, hp, self.wound_thresholds(basis))

    @property
    def wound_penalty(self) -> int:
        return wound_penalty(self.damage)

    # --- skills ------------------------------------------------------------------------

    def skill_level(self, name: str, specialty: str | None = None) -> int | None:
        """The level to roll with, or None when unskilled (the rules' UNSKILLED applies).

        Names compare case-insensitively and may carry the specialty in brackets
        ("Gun Combat (Slug Rifle)"). With a specialty, the matching specialty counts, or a
        skill held without specialty; without one, the best level held in that skill.
        """
        if specialty is None:
            name, specialty = Skill.split_label(name)
        wanted = name.strip().casefold()
        wanted_spec = specialty.strip().casefold() if specialty else None
        best: int | None = None
        for skill in self.skills:
            if skill.name.strip().casefold() != wanted:
                continue
            held_spec = skill.specialty.strip().casefold() if skill.specialty else None
            if wanted_spec is not None and held_spec not in (None, wanted_spec):
                continue
            if best is None or skill.level > best:
                best = skill.level
        return best

    # --- conditions --------------------------------------------------------------------

    def has_condition(self, kind: ConditionKind) -> bool:
        return any(condition.kind is kind for condition in self.conditions)

    def conditions_of(self, kind: ConditionKind) -> list[Condition]:
        return [condition for condition in self.conditions if condition.kind is kind]

    @property
    def worn_armor(self) -> list[Armor]:
        return [item for item in self.armor if item.worn]
