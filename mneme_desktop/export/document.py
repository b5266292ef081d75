"""The printable document model, built once from the domain objects.

Printing, PDF and HTML all render this one model (:mod:`.pdf`, :mod:`.html`), so a sheet
says the same thing on paper, on screen and in a browser. It is plain Python (no Qt): every
number in it comes from the domain models and the rules core, and the damage tracks are
the :class:`~mneme_desktop.rules.track.DamageTrack` objects the on-screen widgets draw.

A document is a sequence of parts, each starting on a new page: a :class:`Sheet` (a
heading and blocks that flow down the page and onto more pages if needed) or a
:class:`CardSheet` (cards in a grid, several per page).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Final, NamedTuple

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    CharacterKind,
    Combatant,
    Encounter,
    Side,
    Weapon,
)
from mneme_desktop.domain.character import CHARACTERISTIC_CODES
from mneme_desktop.export.errors import ExportError
from mneme_desktop.rules.actions import MINOR_ACTIONS_PER_ROUND, aim_cap
from mneme_desktop.rules.checks import UNSKILLED, CoverLevel, characteristic_modifier
from mneme_desktop.rules.damage import scaled_armor
from mneme_desktop.rules.dice import DiceExpression, Scale
from mneme_desktop.rules.track import DamageTrack, ThresholdMark, damage_track
from mneme_desktop.rules.wounds import ThresholdBasis, wound_effects
from mneme_desktop.settings import PageSize, Settings

__all__ = [
    "COMMON_ARMOR",
    "Align",
    "ArmorReference",
    "Block",
    "Card",
    "CardSheet",
    "Cell",
    "Column",
    "Columns",
    "ExportDocument",
    "ExportOptions",
    "ExportTarget",
    "Fields",
    "Heading",
    "Part",
    "Sheet",
    "Table",
    "TargetKind",
    "Text",
    "TrackBlock",
    "TrackKind",
    "adversary_cards",
    "build_document",
    "character_sheet",
    "clean_text",
    "damage_after_armor",
    "encounter_roster",
    "find_any_character",
    "iter_strings",
    "sanitised",
]


# --- common armor --------------------------------------------------------------------------


class ArmorReference(NamedTuple):
    """A named armor value to show weapon damage against."""

    name: str
    rating: int
    scale: Scale = Scale.NONE

    @property
    def label(self) -> str:
        return f"{self.name} {self.scale.prefix}{self.rating}"


COMMON_ARMOR: Final[tuple[ArmorReference, ...]] = (
    # The armor values of the wider Mneme CE rules, as listed in the rules README
    # (/work/shared/rules/README.md, "Facts from the rest of the Mneme CE rules"):
    # Jack 3, Mesh 5, Cloth 9, Vacc Suit 6, Combat Armor 11, Battle Dress 18.
    # Ordered by rating so the columns read from light to heavy.
    ArmorReference("Jack", 3),
    ArmorReference("Mesh", 5),
    ArmorReference("Vacc Suit", 6),
    ArmorReference("Cloth", 9),
    ArmorReference("Combat Armor", 11),
    ArmorReference("Battle Dress", 18),
)
"""Armor a character sheet shows every weapon's damage against."""

ARMOR_NOTE: Final = (
    "vs armor: one damage roll less the armor rating, never below 0 (Ch.7); "
    "0 means only a hit with Effect 6+ does damage (at least 1)."
)

CARD_ARMOR_NOTE: Final = (
    "vs armor: one damage roll against the armor worn by the other side, never below 0; "
    "0 means only a hit with Effect 6+ does damage (at least 1)."
)


def damage_after_armor(dice: DiceExpression, armor: int, armor_scale: Scale = Scale.NONE) -> str:
    """One damage roll of ``dice`` against ``armor``, as the referee would write it.

    3d6-2 against Jack 3 is "3d6-5" (the dice with the armor taken off the modifier; the
    roll is floored at 0 at the table). Dice that can never get through are "0". When the
    armor cannot be written into the modifier (a Deka weapon against armor 3: each point
    of modifier is worth 10) the floored range is given instead, e.g. "17–117". A target
    whose armor is of a larger scale ignores the weapon: "immune".
    """
    if armor_scale.multiplier > dice.scale.multiplier:
        return "immune"
    plain = scaled_armor(armor, armor_scale)
    multiplier = dice.scale.multiplier
    if dice.maximum - plain <= 0:
        return "0"
    if plain % multiplier == 0:
        return str(dice.with_modifier(-(plain // multiplier)))
    return f"{max(0, dice.minimum - plain)}–{dice.maximum - plain}"


# --- the model -----------------------------------------------------------------------------


class Align(StrEnum):
    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class TrackKind(StrEnum):
    """How a damage track is drawn: the labelled HP bar, or the box chart."""

    BAR = "bar"
    BOX_CHART = "box_chart"


@dataclass(frozen=True)
class TrackBlock:
    """A damage track drawn by the shared track painter (never recomputed here)."""

    track: DamageTrack
    kind: TrackKind
    show_damage: bool
    description: str
    """What the drawing shows, in words: the HTML alt text and the screen-reader text."""


Cell = str | TrackBlock
"""A table cell: text (newlines start new lines) or a drawn damage track."""


@dataclass(frozen=True)
class Column:
    header: str
    align: Align = Align.LEFT
    stretch: float = 0.0
    """Share of the spare width this column takes (0: only what its text needs)."""


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    empty: str = ""
    """Shown in place of the rows when there are none (and no blank rows)."""
    blank_rows: int = 0
    """Empty ruled rows after the data, to fill in with a pencil (left out on paper where
    the page has no room for them)."""
    note: str = ""
    small: bool = False

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.title!r}: a row has {len(row)} cells for "
                    f"{len(self.columns)} columns"
                )


@dataclass(frozen=True)
class Text:
    """A titled run of paragraphs, optionally followed by ruled lines to write on (on
    paper, as many of them as the page has room for)."""

    title: str
    paragraphs: tuple[str, ...]
    blank_lines: int = 0
    small: bool = False


@dataclass(frozen=True)
class Fields:
    """Short "label value" pairs set one after another, wrapping as needed."""

    title: str
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Columns:
    """Blocks side by side; ``weights`` share out the width. Each block of ``extra`` goes
    under whichever column is shorter at that point, so the columns end about level."""

    parts: tuple[tuple[Block, ...], ...]
    weights: tuple[float, ...]
    extra: tuple[Block, ...] = ()

    def __post_init__(self) -> None:
        if len(self.parts) != len(self.weights) or not self.parts:
            raise ValueError("columns need one weight per part, and at least one part")


Block = Table | Text | Fields | TrackBlock | Columns


@dataclass(frozen=True)
class Heading:
    title: str
    subtitle: str = ""
    aside: tuple[str, ...] = ()
    """Short lines set on the right of the heading (campaign name, game time)."""


@dataclass(frozen=True)
class Sheet:
    """Blocks flowing down pages under a heading; starts on a new page."""

    heading: Heading
    blocks: tuple[Block, ...]
    footer: str


@dataclass(frozen=True)
class Card:
    title: str
    subtitle: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class CardSheet:
    """Cards in a grid, ``per_page`` to a page (4 or 6); a card too long for its cell
    continues in the next one."""

    heading: Heading
    cards: tuple[Card, ...]
    footer: str
    per_page: int = 6

    def __post_init__(self) -> None:
        if self.per_page not in (4, 6):
            raise ValueError(f"cards are printed 4 or 6 to a page, not {self.per_page}")


Part = Sheet | CardSheet


@dataclass(frozen=True)
class ExportDocument:
    title: str
    parts: tuple[Part, ...]


# --- what to export ------------------------------------------------------------------------


class TargetKind(StrEnum):
    CHARACTER = "character"
    PLAYER_CHARACTERS = "player_characters"
    REFEREE_PACK = "referee_pack"


@dataclass(frozen=True)
class ExportTarget:
    """What the referee asked to print or export."""

    kind: TargetKind
    character_id: str | None = None
    encounter_id: str | None = None

    def __post_init__(self) -> None:
        if self.kind is TargetKind.CHARACTER and not self.character_id:
            raise ValueError("a character export needs the character's id")
        if self.kind is TargetKind.REFEREE_PACK and not self.encounter_id:
            raise ValueError("a referee pack needs the encounter's id")

    @classmethod
    def character(cls, character_id: str) -> ExportTarget:
        return cls(TargetKind.CHARACTER, character_id=character_id)

    @classmethod
    def player_characters(cls) -> ExportTarget:
        return cls(TargetKind.PLAYER_CHARACTERS)

    @classmethod
    def referee_pack(cls, encounter_id: str) -> ExportTarget:
        return cls(TargetKind.REFEREE_PACK, encounter_id=encounter_id)


@dataclass(frozen=True)
class ExportOptions:
    page_size: PageSize = PageSize.A4
    show_damage: bool = False
    """Print current damage and conditions, or a blank track for pencil."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ExportOptions:
        return cls(page_size=settings.page_size, show_damage=settings.print_current_damage)


# --- building ------------------------------------------------------------------------------

_KIND_LABELS = {
    CharacterKind.PLAYER: "Player character",
    CharacterKind.NPC: "Non-player character",
    CharacterKind.ADVERSARY: "Adversary",
}


def _signed(value: int) -> str:
    """"+1", "0", "−2" (a true minus sign reads better on paper than a hyphen)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def find_any_character(campaign: Campaign, character_id: str) -> Character | None:
    """A campaign character, an adversary template's stat block, or an encounter instance."""
    found = campaign.find_character(character_id)
    if found is not None:
        return found
    for template in campaign.adversary_library:
        if template.stats.id == character_id:
            return template.stats
    return next((c for c in campaign.all_characters() if c.id == character_id), None)


def _track(character: Character, basis: ThresholdBasis, show_damage: bool) -> DamageTrack:
    thresholds = character.wound_thresholds(basis)
    damage = character.damage if show_damage else 0
    return damage_track(damage, character.hit_points, thresholds)


def _track_description(track: DamageTrack, show_damage: bool) -> str:
    marks = ", ".join(f"{mark.state.label} from {mark.value}" for mark in track.marks)
    if show_damage:
        return (
            f"Damage {track.damage} of {track.hp} HP: {track.state.label}, "
            f"wound penalty {_signed(track.penalty)}. {marks}."
        )
    return f"Blank damage track for {track.hp} HP. {marks}."


def _track_block(track: DamageTrack, kind: TrackKind, show_damage: bool) -> TrackBlock:
    return TrackBlock(track, kind, show_damage, _track_description(track, show_damage))


def _characteristics_table(character: Character, show_damage: bool) -> Table:
    columns: list[Column] = [Column("")]
    values: list[Cell] = ["Value"]
    modifiers: list[Cell] = ["ChM"]
    for code in CHARACTERISTIC_CODES:
        full = character.characteristic(code, current=False)
        if full is None:
            continue
        current = character.characteristic(code) if show_damage else full
        assert current is not None
        columns.append(Column(code.value.upper(), Align.CENTER, stretch=1))
        values.append(str(current) if current == full else f"{current} of {full}")
        modifiers.append(_signed(characteristic_modifier(current)))
    return Table("Characteristics", tuple(columns), (tuple(values), tuple(modifiers)))


def _skills_table(character: Character, show_damage: bool, *, title: str = "Skills") -> Table:
    skills = [(skill.label, str(skill.level)) for skill in character.skills]
    half = (len(skills) + 1) // 2
    left, right = skills[:half], skills[half:]
    rows: list[tuple[Cell, ...]] = []
    for index, (label, level) in enumerate(left):
        other = right[index] if index < len(right) else ("", "")
        rows.append((label, level, other[0], other[1]))
    columns = (
        Column("Skill", stretch=1),
        Column("Level", Align.CENTER),
        Column("Skill", stretch=1),
        Column("Level", Align.CENTER),
    )
    return Table(
        title,
        columns,
        tuple(rows),
        empty=f"No skills (unskilled rolls are {_signed(UNSKILLED)})",
        blank_rows=0 if show_damage else 2,
    )


def _weapon_skill(character: Character, weapon: Weapon) -> str:
    if not weapon.skill:
        return ""
    level = character.skill_level(weapon.skill)
    if level is None:
        return f"{weapon.skill}: unskilled {_signed(UNSKILLED)}"
    return f"{weapon.skill}-{level}"


def _weapon_actions(weapon: Weapon) -> str:
    parts = [f"ready {weapon.ready_actions}"]
    if weapon.reload_actions:
        parts.append(f"reload {weapon.reload_actions}")
    return ", ".join(parts) + " minor"


def _weapon_range(weapon: Weapon) -> str:
    text = weapon.range_class.label
    if weapon.thrown is not None:
        text += f"\nthrown ×{weapon.thrown.normalize():f}"
    return text


def _weapon_aim(weapon: Weapon) -> str:
    step = max(1, weapon.aim_modifier)
    return f"+{step} per aim\nmax +{aim_cap(weapon.aim_modifier)}"


def _weapons_table(
    character: Character,
    armor: Sequence[ArmorReference],
    *,
    show_damage: bool,
    compact: bool = False,
) -> Table:
    """Weapon stat lines with damage against ``armor``; ``compact`` (for cards) leaves out
    the aim column, skill and readying, keeping aim only where the weapon has a modifier."""
    columns = [
        Column("Weapon", stretch=3),
        Column("Damage", Align.CENTER),
        Column("RoA", Align.CENTER),
        Column("Range", Align.CENTER),
        *(() if compact else (Column("Aim", Align.CENTER),)),
        *(Column(f"vs {item.name}\u00a0{item.scale.prefix}{item.rating}", Align.CENTER)
          for item in armor),
    ]
    rows: list[tuple[Cell, ...]] = []
    for weapon in character.weapons:
        name_lines = [weapon.name]
        if compact:
            if weapon.aim_modifier:
                name_lines.append(f"aim +{weapon.aim_modifier} per action")
        else:
            skill = _weapon_skill(character, weapon)
            name_lines.append(f"{skill}; {_weapon_actions(weapon)}" if skill
                              else _weapon_actions(weapon))
        dice = weapon.damage_dice
        rows.append(
            (
                "\n".join(name_lines),
                weapon.damage,
                str(weapon.rate_of_attack),
                _weapon_range(weapon),
                *(() if compact else (_weapon_aim(weapon),)),
                *(damage_after_armor(dice, item.rating, item.scale) for item in armor),
            )
        )
    return Table(
        "Weapons",
        tuple(columns),
        tuple(rows),
        empty="No weapons",
        blank_rows=0 if show_damage or compact else 1,
        note="" if compact else ARMOR_NOTE,
        small=compact,
    )


def _armor_rating(rating: int, scale: Scale) -> str:
    text = f"{scale.prefix}AR {rating}"
    if scale is not Scale.NONE:
        text += f" (= {scaled_armor(rating, scale)} AR)"
    return text


def _armor_table(character: Character) -> Table:
    rows = tuple(
        (item.name, _armor_rating(item.rating, item.scale), "worn" if item.worn else "carried")
        for item in character.armor
    )
    columns = (Column("Armor", stretch=1), Column("Rating", Align.CENTER), Column("", Align.CENTER))
    return Table("Armor", columns, rows, empty="No armor")


def _cover_table(character: Character, show_damage: bool) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for item in character.cover_items:
        hp = str(item.hp) if item.hp else "—"
        taken = f"{item.damage} ({item.remaining_hp} left)" if show_damage and item.hp else ""
        rows.append((item.name, f"+{item.protection}", hp, taken))
    columns = (
        Column("Cover / shield", stretch=1),
        Column("Protection", Align.CENTER),
        Column("HP", Align.CENTER),
        Column("Damage", Align.CENTER),
    )
    return Table("Cover items", columns, tuple(rows), empty="No cover items or shields")


def _item_notes(title: str, items: Iterable[tuple[str, str]]) -> Text | None:
    paragraphs = tuple(f"{name.strip()}: {notes.strip()}" for name, notes in items
                       if notes.strip())
    return Text(title, paragraphs, small=True) if paragraphs else None


def _paragraphs(text: str) -> tuple[str, ...]:
    """Paragraphs of free text, blank lines dropped (line breaks inside are kept)."""
    parts = [part.strip() for part in text.replace("\r\n", "\n").split("\n\n")]
    return tuple(part for part in parts if part)


def _conditions_text(character: Character, show_damage: bool) -> Text:
    if not show_damage:
        return Text("Conditions", (), blank_lines=3)
    lines = []
    for condition in character.conditions:
        line = condition.label
        if condition.started_at is not None:
            line += f", since {condition.started_at.label}"
        if condition.expires_at is not None:
            line += f", until {condition.expires_at.label}"
        lines.append(line)
    return Text("Conditions", tuple(lines) or ("None",), blank_lines=1)


BOX_CHART_NOTE: Final = (
    "Box chart: cross off one box per point of damage, left to right, top down. Each row is a "
    "wound-penalty step; bold lines mark where each wound state begins."
)


def _basis_text(basis: ThresholdBasis) -> str:
    if basis is ThresholdBasis.CHARACTERISTIC:
        return "Thresholds from the best physical characteristic (campaign rules option)."
    return "Thresholds from HP fractions: 1/3 and 2/3 of HP, rounded down."


def _hit_point_fields(track: DamageTrack) -> Fields:
    items = [("HP", str(track.hp))]
    items += [(mark.state.label, f"{mark.value}+") for mark in track.marks]
    return Fields("Hit points", tuple(items))


def _penalty_steps(track: DamageTrack) -> Text:
    steps = " · ".join(f"{group.end}+: {_signed(group.penalty)}" for group in track.tally_groups)
    return Text(
        "Wound penalty",
        (f"−1 to all mental and physical rolls for every 3 damage. Damage {steps}",),
        small=True,
    )


def _state_effects(track: DamageTrack) -> Text:
    lines = []
    for band in track.bands:
        note = wound_effects(band.state).care_note
        span = f"{band.start}–{band.end}" if band.start != band.end else str(band.start)
        lines.append(f"{band.label} {span}" + (f": {note}" if note else ""))
    return Text("Wound states", tuple(lines), small=True)


def _heading(character: Character, campaign: Campaign, show_damage: bool) -> Heading:
    subtitle = _KIND_LABELS[character.kind]
    if character.player:
        subtitle += f" · played by {character.player}"
    aside = [campaign.name]
    if show_damage:
        aside.append(f"as of {campaign.game_time.label}")
    return Heading(character.name, subtitle, tuple(aside))


def character_sheet(character: Character, campaign: Campaign, options: ExportOptions) -> Sheet:
    """A full character sheet: one page for an ordinary character, flowing on if needed."""
    show = options.show_damage
    basis = campaign.rules_options.threshold_basis
    track = _track(character, basis, show)
    identity = Fields(
        "",
        (
            ("UPP", character.upp),
            ("Load", character.load.value.capitalize()),
            ("Wound penalty now", _signed(track.penalty)) if show else ("Wound penalty", ""),
        ),
    )
    left: list[Block] = [
        _characteristics_table(character, show),
        identity,
        _skills_table(character, show),
        _armor_table(character),
        _cover_table(character, show),
        _conditions_text(character, show),
    ]
    right: list[Block] = [
        _hit_point_fields(track),
        _track_block(track, TrackKind.BAR, show),
        Text("", (BOX_CHART_NOTE,), small=True),
        _track_block(track, TrackKind.BOX_CHART, show),
        Text("", (_basis_text(basis),), small=True),
    ]
    blocks: list[Block] = [
        Columns((tuple(left), tuple(right)), (0.58, 0.42),
                extra=(_penalty_steps(track), _state_effects(track))),
        _weapons_table(character, COMMON_ARMOR, show_damage=show),
    ]
    for extra in (
        _item_notes("Weapon notes", ((w.name, w.notes) for w in character.weapons)),
        _item_notes(
            "Armor and cover notes",
            [*((a.name, a.notes) for a in character.armor),
             *((c.name, c.notes) for c in character.cover_items)],
        ),
    ):
        if extra is not None:
            blocks.append(extra)
    # Ruled lines only where the page has room for them: never a page of lines alone.
    blocks.append(Text("Notes", _paragraphs(character.notes), blank_lines=6))
    return Sheet(_heading(character, campaign, show), tuple(blocks),
                 footer=f"{character.name} · {campaign.name}")


# --- referee pack --------------------------------------------------------------------------


def _opposing_armor(campaign: Campaign, encounter: Encounter, side: Side) -> list[ArmorReference]:
    """Distinct worn armor of everyone not on ``side``: what that side's weapons must beat."""
    seen: dict[tuple[str, int, Scale], ArmorReference] = {}
    for combatant in encounter.combatants:
        if combatant.side is side:
            continue
        for item in campaign.combatant_character(combatant).worn_armor:
            key = (item.name, item.rating, item.scale)
            seen.setdefault(key, ArmorReference(item.name, item.rating, item.scale))
    found = sorted(seen.values(), key=lambda a: (scaled_armor(a.rating, a.scale), a.name))
    return found[:4] if found else list(COMMON_ARMOR[:3])


def _stats_key(character: Character) -> str:
    """Stat block without what differs between instances (id, name, damage, conditions)."""
    data = character.model_dump(
        mode="json",
        exclude={"id", "name", "damage", "damage_history", "conditions", "recovery", "notes",
                 "template_id", "characteristic_damage"},
    )
    return repr(data)


@dataclass
class _CardGroup:
    stats: Character
    title: str
    kind: str
    members: list[str]
    side: Side
    tags: tuple[str, ...]


def _card_groups(campaign: Campaign, encounter: Encounter) -> list[_CardGroup]:
    """One card per distinct stat block among the non-player combatants."""
    groups: dict[str, _CardGroup] = {}
    for combatant in encounter.combatants:
        character = campaign.combatant_character(combatant)
        if character.kind is CharacterKind.PLAYER:
            continue
        template: AdversaryTemplate | None = None
        if character.template_id is not None:
            template = campaign.find_template(character.template_id)
        if template is not None and _stats_key(template.stats) == _stats_key(character):
            key = f"template:{template.id}:{combatant.side.value}"
            title, tags, stats = template.name, tuple(template.tags), template.stats
        else:
            key = f"character:{character.id}"
            title, tags, stats = character.name, (), character
        group = groups.get(key)
        if group is None:
            group = _CardGroup(stats, title, _KIND_LABELS[character.kind], [], combatant.side,
                               tags)
            groups[key] = group
        group.members.append(character.name)
    return list(groups.values())


def _card(group: _CardGroup, campaign: Campaign, encounter: Encounter) -> Card:
    stats = group.stats
    basis = campaign.rules_options.threshold_basis
    track = _track(stats, basis, False)
    count = len(group.members)
    members = ", ".join(group.members)
    subtitle = f"{group.kind} · {group.side.label}"
    if count > 1:
        subtitle += f" · ×{count}: {members}"
    elif members != group.title:
        subtitle += f" · {members}"
    if group.tags:
        subtitle += f" · {', '.join(group.tags)}"
    thresholds = " · ".join(_mark_short(mark) for mark in track.marks)
    fields: list[tuple[str, str]] = [("UPP", stats.upp), ("HP", f"{track.hp} ({thresholds})")]
    worn = stats.worn_armor
    fields.append(("Armor", ", ".join(f"{a.name} {_armor_rating(a.rating, a.scale)}"
                                      for a in worn) if worn else "none"))
    for item in stats.cover_items:
        hp = f", {item.hp} HP" if item.hp else ""
        fields.append(("Cover", f"{item.name} +{item.protection}{hp}"))
    characteristics = _characteristics_table(stats, False)
    blocks: list[Block] = [
        Fields("", tuple(fields)),
        Table("", characteristics.columns, characteristics.rows, small=True),
    ]
    skills = ", ".join(str(skill) for skill in stats.skills)
    blocks.append(Fields("", (("Skills", skills or f"none (unskilled {_signed(UNSKILLED)})"),)))
    armor = _opposing_armor(campaign, encounter, group.side)
    if stats.weapons:
        weapons = _weapons_table(stats, armor, show_damage=True, compact=True)
        blocks.append(Table("", weapons.columns, weapons.rows, small=True))
    weapon_notes = _item_notes("", ((w.name, w.notes) for w in stats.weapons))
    if weapon_notes is not None:
        blocks.append(weapon_notes)
    notes = _paragraphs(stats.notes)
    if notes:
        blocks.append(Text("", notes, small=True))
    return Card(group.title, subtitle, tuple(blocks))


def band_initials(label: str) -> str:
    """"Seriously Wounded" -> "SW" (the same short form the HP bar uses)."""
    return "".join(word[0] for word in label.split() if word).upper()


def _mark_short(mark: ThresholdMark) -> str:
    """"SW 8+": where a wound state begins, kept on one line (no-break space)."""
    return f"{band_initials(mark.state.label)}\u00a0{mark.value}+"


def adversary_cards(campaign: Campaign, encounter: Encounter, options: ExportOptions) -> CardSheet:
    """A card per distinct adversary or NPC stat block in the encounter, six to a page."""
    groups = _card_groups(campaign, encounter)
    cards = tuple(_card(group, campaign, encounter) for group in groups)
    subtitle = "\n".join(filter(None, (encounter.location, CARD_ARMOR_NOTE)))
    heading = Heading(f"Adversary cards: {encounter.name}", subtitle, (campaign.name,))
    return CardSheet(heading, cards, footer=f"{encounter.name} · {campaign.name}")


def _setup_notes(campaign: Campaign, encounter: Encounter, combatant: Combatant) -> list[str]:
    notes = []
    if combatant.stance.value != "standing":
        notes.append(combatant.stance.value)
    if combatant.cover is not CoverLevel.NONE:
        notes.append(f"{combatant.cover.label} cover (+{int(combatant.cover)})")
    if combatant.aim:
        target = encounter.find_combatant(combatant.aim_target_id or "")
        on = f" on {campaign.combatant_character(target).name}" if target is not None else ""
        notes.append(f"aim +{combatant.aim}{on}")
    if combatant.extended_task is not None:
        task = combatant.extended_task
        notes.append(f"{task.description}: {task.remaining_rounds} of {task.total_rounds} "
                     "rounds left")
    if combatant.notes.strip():
        notes.append(combatant.notes.strip())
    return notes


def _roster_rows(
    campaign: Campaign, encounter: Encounter, options: ExportOptions
) -> list[tuple[Cell, ...]]:
    basis = campaign.rules_options.threshold_basis
    ordered = encounter.initiative_order()
    out = [c for c in encounter.combatants if c.out_of_fight]
    rows: list[tuple[Cell, ...]] = []
    for position, combatant in enumerate([*ordered, *out], start=1):
        character = campaign.combatant_character(combatant)
        track = _track(character, basis, options.show_damage)
        who = [character.name, combatant.side.label]
        if combatant.out_of_fight:
            who.append("out of the fight")
        marks = "\n".join(_mark_short(mark) for mark in track.marks[:2])
        hp = f"{track.hp}\n{marks}"
        armor = "\n".join(f"{a.name}\u00a0{a.scale.prefix}{a.rating}"
                          for a in character.worn_armor) or "—"
        notes = _setup_notes(campaign, encounter, combatant)
        if options.show_damage:
            notes += [condition.label for condition in character.conditions]
        initiative = "" if combatant.initiative is None else str(combatant.initiative)
        rows.append(
            (
                str(position) if not combatant.out_of_fight else "–",
                initiative,
                "\n".join(who),
                hp,
                armor,
                _track_block(track, TrackKind.BAR, options.show_damage),
                " ".join("□" * MINOR_ACTIONS_PER_ROUND),
                "\n".join(notes),
            )
        )
    return rows


def encounter_roster(campaign: Campaign, encounter: Encounter, options: ExportOptions) -> Sheet:
    """Initiative order with HP, thresholds and a damage tally track per combatant."""
    if encounter.ended:
        state = f"ended in round {encounter.round}"
    elif encounter.started:
        state = f"round {encounter.round}"
    else:
        state = "not started"
    heading = Heading(
        f"Encounter roster: {encounter.name}",
        encounter.location,
        (campaign.name, f"Encounter {state}"),
    )
    columns = (
        Column("#", Align.CENTER),
        Column("Init", Align.CENTER),
        Column("Combatant", stretch=1.2),
        Column("HP", Align.CENTER),
        Column("Armor", Align.CENTER),
        Column("Damage: tally 1 stroke per point; thresholds marked", stretch=2.6),
        Column("Actions", Align.CENTER),
        Column("Conditions and notes", stretch=1.2),
    )
    rows = _roster_rows(campaign, encounter, options)
    blocks: list[Block] = []
    notes = _paragraphs(encounter.notes)
    if notes:
        blocks.append(Text("Set-up", notes, small=True))
    blocks.append(
        Table(
            "Initiative order",
            columns,
            tuple(rows),
            empty="No combatants yet",
            blank_rows=6,
            note=f"Actions: {MINOR_ACTIONS_PER_ROUND} minor actions a round; tick each as it "
            "is spent (a significant action is 2, a full action 3). HP column: SW = seriously "
            "wounded, CW = critically wounded, from that damage on; past HP is dying.",
        )
    )
    rounds = " ".join(f"□{number}" for number in range(1, 21))
    blocks.append(Text("Rounds", (f"Cross off each round as it ends: {rounds}",)))
    return Sheet(heading, tuple(blocks), footer=f"{encounter.name} · {campaign.name}")


# --- whole documents -----------------------------------------------------------------------


def _player_characters(campaign: Campaign) -> list[Character]:
    return [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]


def build_document(
    campaign: Campaign, target: ExportTarget, options: ExportOptions
) -> ExportDocument:
    """The printable document for ``target``, its text made safe to print (:func:`sanitised`);
    ExportError when there is nothing to print."""
    return sanitised(_build_document(campaign, target, options))


def _build_document(
    campaign: Campaign, target: ExportTarget, options: ExportOptions
) -> ExportDocument:
    if target.kind is TargetKind.CHARACTER:
        assert target.character_id is not None
        character = find_any_character(campaign, target.character_id)
        if character is None:
            raise ExportError(f"The character to export is no longer in '{campaign.name}'.")
        return ExportDocument(f"{character.name} · {campaign.name}",
                              (character_sheet(character, campaign, options),))
    if target.kind is TargetKind.PLAYER_CHARACTERS:
        players = _player_characters(campaign)
        if not players:
            raise ExportError(f"'{campaign.name}' has no player characters to export.")
        sheets = tuple(character_sheet(c, campaign, options) for c in players)
        return ExportDocument(f"Player characters · {campaign.name}", sheets)
    assert target.encounter_id is not None
    encounter = campaign.find_encounter(target.encounter_id)
    if encounter is None:
        raise ExportError(f"The encounter to export is no longer in '{campaign.name}'.")
    parts: list[Part] = [encounter_roster(campaign, encounter, options)]
    cards = adversary_cards(campaign, encounter, options)
    if cards.cards:
        parts.append(cards)
    return ExportDocument(f"Referee pack: {encounter.name} · {campaign.name}", tuple(parts))


# --- safe text ---------------------------------------------------------------------------

_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls but tab and newline, DEL, C1 controls
    "\u202a-\u202e\u2066-\u2069]"  # bidi embeddings, overrides and isolates
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """User text made safe to print: control characters (NUL included) are dropped, so are
    the bidi embedding, override and isolate characters (U+202A-U+202E, U+2066-U+2069),
    which would reorder the text around a name (an override in a name could make a sheet
    say something else), and a lone surrogate, which no file encoding can hold, becomes
    U+FFFD. Carriage returns become line breaks; right-to-left letters are kept."""
    if text.isprintable():
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _SURROGATE.sub("\ufffd", _UNPRINTABLE.sub("", text))


_MODEL_TYPES = (TrackBlock, Column, Table, Text, Fields, Columns, Heading, Sheet, Card,
                CardSheet, ExportDocument)


def _cleaned(value: object) -> object:
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, tuple):
        return tuple(_cleaned(item) for item in value)
    if isinstance(value, _MODEL_TYPES):
        changes: dict[str, Any] = {f.name: _cleaned(getattr(value, f.name))
                                   for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value  # numbers, damage tracks: not text


def sanitised(document: ExportDocument) -> ExportDocument:
    """``document`` with :func:`clean_text` applied to every string in it, so every
    renderer (print, PDF, HTML) gets the same printable text."""
    cleaned = _cleaned(document)
    assert isinstance(cleaned, ExportDocument)
    return cleaned


# --- walking the model ---------------------------------------------------------------------


def _block_strings(block: Block) -> Iterator[str]:
    if isinstance(block, Table):
        yield block.title
        yield from (column.header for column in block.columns)
        for row in block.rows:
            for cell in row:
                yield cell.description if isinstance(cell, TrackBlock) else cell
        yield block.empty
        yield block.note
    elif isinstance(block, Text):
        yield block.title
        yield from block.paragraphs
    elif isinstance(block, Fields):
        yield block.title
        for label, value in block.items:
            yield label
            yield value
    elif isinstance(block, TrackBlock):
        yield block.description
    else:
        for part in block.parts:
            for inner in part:
                yield from _block_strings(inner)


def iter_strings(document: ExportDocument) -> Iterator[str]:
    """Every piece of text in the document (what a renderer must show, and escape)."""
    yield document.title
    for part in document.parts:
        yield part.heading.title
        yield part.heading.subtitle
        yield from part.heading.aside
        yield part.footer
        if isinstance(part, Sheet):
            for block in part.blocks:
                yield from _block_strings(block)
        else:
            for card in part.cards:
                yield card.title
                yield card.subtitle
                for block in card.blocks:
                    yield from _block_strings(block)
