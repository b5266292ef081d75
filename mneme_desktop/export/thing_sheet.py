"""A vehicle's, craft's, structure's or cover object's printable sheet, and the cards of the
things in an encounter's referee pack.

The sheet says every number with its scale ("20 DHP = 200 HP"); the HP bar and the box
chart are the thing's track under a thing's names
(:func:`mneme_desktop.rules.track_names.thing_display_track`), drawn by the same painters
as a character's, blank for pencil or with current damage, in the box chart layout the
settings choose.
"""

from __future__ import annotations

from mneme_desktop.domain import Campaign, Encounter, Thing
from mneme_desktop.export.character_sheet import split_paragraphs
from mneme_desktop.export.document import (
    Align,
    Block,
    Card,
    CardSheet,
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
from mneme_desktop.rules.box_chart import ChartStyle, megatraveller_columns
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.thing_damage import SCALE_IMMUNITY_RULE, scale_notation
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.rules.track_names import thing_display_track

__all__ = ["thing_cards", "thing_facts", "thing_sheet", "thing_track"]


def thing_track(thing: Thing, show_damage: bool) -> DamageTrack:
    """The track printed: current damage, or none for a blank form."""
    return thing_display_track(thing.damage if show_damage else 0, thing.hp, thing.hp_scale)


def _description(thing: Thing, track: DamageTrack, show_damage: bool, chart: str) -> str:
    marks = ", ".join(f"{track.label_of(mark.state)} from {mark.value}" for mark in track.marks)
    if show_damage:
        return (f"Damage {track.damage} of {track.hp} {track.unit} ({thing.damage} plain "
                f"points): {track.label_of(track.state)}. {marks}.{chart}")
    return f"Blank damage track for {thing.hp_label}. {marks}.{chart}"


def _track_block(thing: Thing, track: DamageTrack, kind: TrackKind, show_damage: bool,
                 chart: ChartStyle = ChartStyle.ROWS_OF_THREE) -> TrackBlock:
    note = ""
    if kind is TrackKind.BOX_CHART and chart is ChartStyle.MEGATRAVELLER:
        columns, short = megatraveller_columns(track.hp)
        crossed = f", the bottom {short} of the last crossed off" if short else ""
        note = f" MegaTraveller record: {columns} six-box columns{crossed}."
    return TrackBlock(track, kind, show_damage, _description(thing, track, show_damage, note),
                      chart)


def _chart_note(chart: ChartStyle) -> str:
    """How to use the printed box chart of a thing (no wound penalty: rows hold points)."""
    if chart is ChartStyle.MEGATRAVELLER:
        return ("Box chart (MegaTraveller record): cross off one box per point of damage, left "
                "to right, top down; the grey-crossed boxes of the last column are beyond HP. "
                "Each row is labelled with the points it holds; bold lines mark where each "
                "state begins, and the rows below the record are past HP (destroyed).")
    return ("Box chart: cross off one box per point of damage, left to right, top down; each "
            "row is labelled with the points it holds; bold lines mark where each state "
            "begins, past HP the thing is destroyed.")


def thing_facts(thing: Thing) -> tuple[tuple[str, str], ...]:
    """Kind, HP, armor, protection and scale, each number with its scale."""
    facts = [("Kind", thing.kind.label), ("HP", thing.hp_label), ("Armor", thing.armor_label)]
    if thing.protection:
        facts.append(("Protection", f"+{thing.protection} Difficulty as cover; absorbs up to "
                                    f"{thing.protection} fail effect"))
    if thing.scale is not Scale.NONE:
        facts.append(("Scale", f"{thing.scale.label}: ignores damage of a lesser scale "
                               f"({SCALE_IMMUNITY_RULE})"))
    return tuple(facts)


def _thresholds_text(thing: Thing, track: DamageTrack) -> Text:
    unit = thing.hp_scale
    lines = []
    for band in track.bands:
        start = scale_notation(band.start, unit, "HP").split(" = ")[0]
        rule = band.rule_text.split(": ", 1)[-1]
        lines.append(f"{band.label}: from {start} damage ({rule})")
    if unit is not Scale.NONE:
        lines.append(f"Damage is counted in {unit.prefix}HP: one box is "
                     f"{unit.multiplier:,} points; any damage crosses a box.")
    return Text("Damage states", tuple(lines), small=True)


def _crew_table(campaign: Campaign, thing: Thing) -> Table:
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (position.role, character.name if character is not None else "")
        for position, character in campaign.crew_of(thing)
    )
    return Table("Crew positions", (Column("Position", stretch=1), Column("Aboard", stretch=2)),
                 rows, empty="No crew positions", blank_rows=1)


def _weapons_table(thing: Thing) -> Table:
    columns = (
        Column("Weapon", stretch=2),
        Column("Damage", Align.CENTER),
        Column("RoA", Align.CENTER),
        Column("Range", Align.CENTER),
        Column("Skill", stretch=1),
    )
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (weapon.name, weapon.damage, str(weapon.rate_of_attack), weapon.range_class.label,
         weapon.skill or "")
        for weapon in thing.weapons
    )
    return Table("Weapons", columns, rows, empty="No weapons")


def _heading(thing: Thing, campaign: Campaign, show_damage: bool) -> Heading:
    subtitle = thing.kind.label
    template = campaign.find_thing_template(thing.template_id or "")
    if template is not None:
        subtitle += f" · from template {template.name}"
    aside = [campaign.name]
    if show_damage:
        aside.append(f"as of {campaign.game_time.label}")
    return Heading(thing.name, subtitle, tuple(aside))


def thing_sheet(thing: Thing, campaign: Campaign, options: ExportOptions) -> Sheet:
    """A thing's sheet: its numbers with their scales, the HP bar and box chart, crew and
    weapons for a vehicle or craft, notes, and the encounters it takes part in."""
    show = options.show_damage
    track = thing_track(thing, show)
    left: list[Block] = [Fields("", thing_facts(thing))]
    if thing.kind.crewed or thing.crew:
        left.append(_crew_table(campaign, thing))
    if thing.kind.crewed or thing.weapons:
        left.append(_weapons_table(thing))
    encounters = campaign.thing_encounters(thing.id)
    if encounters:
        left.append(Text("Encounters", (", ".join(e.name for e in encounters),), small=True))
    state = ("Now", track.label_of(track.state)) if show else ("State", "")
    right: list[Block] = [
        Fields("Hit points", (("HP", thing.hp_label), state)),
        _track_block(thing, track, TrackKind.BAR, show),
        Text("", (_chart_note(options.box_chart),), small=True),
        _track_block(thing, track, TrackKind.BOX_CHART, show, options.box_chart),
    ]
    blocks: list[Block] = [
        Columns((tuple(left), tuple(right)), (0.5, 0.5), extra=(_thresholds_text(thing, track),)),
        Text("Notes", split_paragraphs(thing.notes), blank_lines=0 if show else 4),
    ]
    return Sheet(_heading(thing, campaign, show), tuple(blocks),
                 footer=f"{thing.name} · {campaign.name}")


def thing_cards(campaign: Campaign, encounter: Encounter, options: ExportOptions) -> CardSheet:
    """One card per vehicle or object in the encounter: its numbers, who it covers or
    carries, and its HP bar to tally damage on."""
    cards: list[Card] = []
    for entry in encounter.things:
        thing = campaign.encounter_thing(entry)
        track = thing_track(thing, options.show_damage)
        facts = list(thing_facts(thing))
        facts.append(("Side", entry.side.label))
        behind = [campaign.combatant_character(c).name for c in encounter.combatants
                  if c.cover_thing_id == entry.id]
        if behind:
            facts.append(("Cover for", ", ".join(behind)))
        crew = [f"{p.role}: {c.name}" for p, c in campaign.crew_of(thing) if c is not None]
        if crew:
            facts.append(("Crew", "; ".join(crew)))
        blocks: list[Block] = [Fields("", tuple(facts)),
                               _track_block(thing, track, TrackKind.BAR, options.show_damage)]
        if thing.weapons:
            blocks.append(_weapons_table(thing))
        notes = split_paragraphs(thing.notes)
        if notes:
            blocks.append(Text("Notes", notes, small=True))
        subtitle = thing.kind.label + (" · out of the fight" if entry.out_of_fight else "")
        cards.append(Card(thing.name, subtitle, tuple(blocks)))
    return CardSheet(Heading(f"Vehicles and objects: {encounter.name}", encounter.location,
                             (campaign.name,)), tuple(cards),
                     footer=f"{encounter.name} · {campaign.name}", per_page=4)
