"""A character's printable sheet: characteristics, skills, weapons, armor, conditions and
the damage track, blank or with current damage."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Final

from mneme_desktop.domain import Campaign, Character, CharacterKind, Weapon
from mneme_desktop.domain.character import CHARACTERISTIC_CODES
from mneme_desktop.export.armor_reference import (
    ARMOR_NOTE,
    COMMON_ARMOR,
    ArmorReference,
    damage_after_armor,
)
from mneme_desktop.export.document import (
    Align,
    Block,
    Cell,
    Column,
    Columns,
    ExportOptions,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
    TrackBlock,
    TrackKind,
)
from mneme_desktop.rules.actions import aim_cap
from mneme_desktop.rules.box_chart import ChartStyle, megatraveller_columns
from mneme_desktop.rules.checks import UNSKILLED, characteristic_modifier
from mneme_desktop.rules.damage import scaled_armor
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import ThresholdBasis, wound_effects

__all__ = [
    "character_sheet",
]

KIND_LABELS = {
    CharacterKind.PLAYER: "Player character",
    CharacterKind.NPC: "Non-player character",
    CharacterKind.ADVERSARY: "Adversary",
}


def signed(value: int) -> str:
    """"+1", "0", "−2" (a true minus sign reads better on paper than a hyphen)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def character_track(character: Character, basis: ThresholdBasis, show_damage: bool) -> DamageTrack:
    thresholds = character.wound_thresholds(basis)
    damage = character.damage if show_damage else 0
    return damage_track(damage, character.hit_points, thresholds)


def _track_description(track: DamageTrack, show_damage: bool, layout: str = "") -> str:
    marks = ", ".join(f"{mark.state.label} from {mark.value}" for mark in track.marks)
    if show_damage:
        return (
            f"Damage {track.damage} of {track.hp} HP: {track.state.label}, "
            f"wound penalty {signed(track.penalty)}. {marks}.{layout}"
        )
    return f"Blank damage track for {track.hp} HP. {marks}.{layout}"


def _layout_note(track: DamageTrack, chart: ChartStyle) -> str:
    """What the MegaTraveller record looks like, for those who cannot see the drawing."""
    if chart is not ChartStyle.MEGATRAVELLER:
        return ""
    columns, short = megatraveller_columns(track.hp)
    crossed = f", the bottom {short} of the last crossed off" if short else ""
    return f" MegaTraveller record: {columns} six-box columns{crossed}."


def track_block(track: DamageTrack, kind: TrackKind, show_damage: bool,
                chart: ChartStyle = ChartStyle.ROWS_OF_THREE) -> TrackBlock:
    """A drawn track; ``chart`` is the box chart's layout (the setting, on sheets)."""
    note = _layout_note(track, chart) if kind is TrackKind.BOX_CHART else ""
    return TrackBlock(track, kind, show_damage, _track_description(track, show_damage, note),
                      chart)


def characteristics_table(character: Character, show_damage: bool) -> Table:
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
        modifiers.append(signed(characteristic_modifier(current)))
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
        empty=f"No skills (unskilled rolls are {signed(UNSKILLED)})",
        blank_rows=0 if show_damage else 2,
    )


def _weapon_skill(character: Character, weapon: Weapon) -> str:
    if not weapon.skill:
        return ""
    level = character.skill_level(weapon.skill)
    if level is None:
        return f"{weapon.skill}: unskilled {signed(UNSKILLED)}"
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


def weapons_table(
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


def armor_rating(rating: int, scale: Scale) -> str:
    text = f"{scale.prefix}AR {rating}"
    if scale is not Scale.NONE:
        text += f" (= {scaled_armor(rating, scale)} AR)"
    return text


def _armor_table(character: Character) -> Table:
    rows = tuple(
        (item.name, armor_rating(item.rating, item.scale), "worn" if item.worn else "carried")
        for item in character.armor
    )
    columns = (Column("Armor", stretch=1), Column("Rating", Align.CENTER), Column("", Align.CENTER))
    return Table("Armor", columns, rows, empty="No armor")


def _careers_text(character: Character) -> str:
    """"Cleric 2 terms (Rank 1), Scout 1 term" - one line, so an ordinary sheet stays one
    page."""
    parts = []
    for career in character.careers:
        text = f"{career.name} {career.terms} term{'' if career.terms == 1 else 's'}"
        parts.append(f"{text} ({career.rank})" if career.rank else text)
    return ", ".join(parts)


def _mass_text(value: Decimal | None) -> str:
    return "" if value is None else f"{value.normalize():f} kg"


def _equipment_table(character: Character) -> Table:
    """Equipment with count, mass per item and the row's total, and the total carried."""
    rows: list[tuple[Cell, ...]] = []
    total = Decimal(0)
    for item in character.equipment:
        line_mass = None if item.mass is None else item.count * item.mass
        total += line_mass or 0
        rows.append((item.name, str(item.count), _mass_text(item.mass), _mass_text(line_mass),
                     item.notes))
    columns = (Column("Equipment", stretch=2), Column("Count", Align.CENTER),
               Column("Mass", Align.CENTER), Column("Total", Align.CENTER),
               Column("Notes", stretch=2))
    return Table("Equipment", columns, tuple(rows), empty="No equipment",
                 note=f"Total mass carried: {_mass_text(total) or '0 kg'}")


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


def item_notes(title: str, items: Iterable[tuple[str, str]]) -> Text | None:
    paragraphs = tuple(f"{name.strip()}: {notes.strip()}" for name, notes in items
                       if notes.strip())
    return Text(title, paragraphs, small=True) if paragraphs else None


def split_paragraphs(text: str) -> tuple[str, ...]:
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
MEGATRAVELLER_NOTE: Final = (
    "Box chart (MegaTraveller record): cross off one box per point of damage, left to right, "
    "top down; the grey-crossed boxes of the last column are beyond HP. Each row is labelled "
    "with the wound penalty while it fills; bold lines mark where each wound state begins, "
    "and the rows below the record are past HP."
)


def box_chart_note(chart: ChartStyle) -> str:
    """How to use the printed box chart, in the layout printed."""
    return MEGATRAVELLER_NOTE if chart is ChartStyle.MEGATRAVELLER else BOX_CHART_NOTE


def _basis_text(basis: ThresholdBasis) -> str:
    if basis is ThresholdBasis.CHARACTERISTIC:
        return "Thresholds from the best physical characteristic (campaign rules option)."
    return "Thresholds from HP fractions: 1/3 and 2/3 of HP, rounded down."


def _hit_point_fields(track: DamageTrack) -> Fields:
    items = [("HP", str(track.hp))]
    items += [(mark.state.label, f"{mark.value}+") for mark in track.marks]
    return Fields("Hit points", tuple(items))


def _penalty_steps(track: DamageTrack) -> Text:
    steps = " · ".join(f"{group.end}+: {signed(group.penalty)}" for group in track.tally_groups)
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
    subtitle = KIND_LABELS[character.kind]
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
    track = character_track(character, basis, show)
    identity = Fields(
        "",
        (
            ("UPP", character.upp),
            ("Species", character.species or "—"),
            ("Age", "—" if character.age is None else str(character.age)),
            ("Credits", f"{character.credits:,} Cr"),
            *((("Careers", _careers_text(character)),) if character.careers else ()),
            ("Load", character.load.value.capitalize()),
            ("Wound penalty now", signed(track.penalty)) if show else ("Wound penalty", ""),
        ),
    )
    left: list[Block] = [
        characteristics_table(character, show),
        identity,
        _skills_table(character, show),
        _armor_table(character),
        _cover_table(character, show),
        _conditions_text(character, show),
    ]
    right: list[Block] = [
        _hit_point_fields(track),
        track_block(track, TrackKind.BAR, show),
        Text("", (box_chart_note(options.box_chart),), small=True),
        track_block(track, TrackKind.BOX_CHART, show, options.box_chart),
        Text("", (_basis_text(basis),), small=True),
    ]
    blocks: list[Block] = [
        Columns((tuple(left), tuple(right)), (0.58, 0.42),
                extra=(_penalty_steps(track), _state_effects(track))),
        weapons_table(character, COMMON_ARMOR, show_damage=show),
    ]
    if character.equipment:  # only when there is some: an ordinary sheet stays one page
        blocks.append(_equipment_table(character))
    for extra in (
        item_notes("Weapon notes", ((w.name, w.notes) for w in character.weapons)),
        item_notes(
            "Armor and cover notes",
            [*((a.name, a.notes) for a in character.armor),
             *((c.name, c.notes) for c in character.cover_items)],
        ),
    ):
        if extra is not None:
            blocks.append(extra)
    # Ruled lines only where the page has room for them: never a page of lines alone.
    blocks.append(Text("Notes", split_paragraphs(character.notes), blank_lines=6))
    return Sheet(_heading(character, campaign, show), tuple(blocks),
                 footer=f"{character.name} · {campaign.name}")
