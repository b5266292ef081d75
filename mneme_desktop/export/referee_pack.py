"""The referee pack of an encounter: the roster sheet and one card per group of identical
adversaries."""

from __future__ import annotations

from dataclasses import dataclass

from mneme_desktop.domain import (
    AdversaryTemplate,
    Campaign,
    Character,
    CharacterKind,
    Combatant,
    Encounter,
    Side,
)
from mneme_desktop.domain.combat.status import combatant_status
from mneme_desktop.export.armor_reference import CARD_ARMOR_NOTE, COMMON_ARMOR, ArmorReference
from mneme_desktop.export.character_sheet import (
    KIND_LABELS,
    armor_rating,
    character_track,
    characteristics_table,
    item_notes,
    signed,
    split_paragraphs,
    track_block,
    weapons_table,
)
from mneme_desktop.export.document import (
    Align,
    Block,
    Card,
    CardSheet,
    Cell,
    Column,
    ExportOptions,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
    TrackKind,
)
from mneme_desktop.rules.actions import MINOR_ACTIONS_PER_ROUND
from mneme_desktop.rules.checks import UNSKILLED, CoverLevel
from mneme_desktop.rules.damage import scaled_armor
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.track import ThresholdMark

__all__ = [
    "adversary_cards",
    "encounter_roster",
]


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
            group = _CardGroup(stats, title, KIND_LABELS[character.kind], [], combatant.side,
                               tags)
            groups[key] = group
        group.members.append(character.name)
    return list(groups.values())


def _card(group: _CardGroup, campaign: Campaign, encounter: Encounter) -> Card:
    stats = group.stats
    basis = campaign.rules_options.threshold_basis
    track = character_track(stats, basis, False)
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
    fields.append(("Armor", ", ".join(f"{a.name} {armor_rating(a.rating, a.scale)}"
                                      for a in worn) if worn else "none"))
    for item in stats.cover_items:
        hp = f", {item.hp} HP" if item.hp else ""
        fields.append(("Cover", f"{item.name} +{item.protection}{hp}"))
    characteristics = characteristics_table(stats, False)
    blocks: list[Block] = [
        Fields("", tuple(fields)),
        Table("", characteristics.columns, characteristics.rows, small=True),
    ]
    skills = ", ".join(str(skill) for skill in stats.skills)
    blocks.append(Fields("", (("Skills", skills or f"none (unskilled {signed(UNSKILLED)})"),)))
    armor = _opposing_armor(campaign, encounter, group.side)
    if stats.weapons:
        weapons = weapons_table(stats, armor, show_damage=True, compact=True)
        blocks.append(Table("", weapons.columns, weapons.rows, small=True))
    weapon_notes = item_notes("", ((w.name, w.notes) for w in stats.weapons))
    if weapon_notes is not None:
        blocks.append(weapon_notes)
    notes = split_paragraphs(stats.notes)
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
        track = character_track(character, basis, options.show_damage)
        who = [character.name, combatant.side.label]
        if combatant.out_of_fight:
            who.append("out of the fight")
        marks = "\n".join(_mark_short(mark) for mark in track.marks[:2])
        hp = f"{track.hp}\n{marks}"
        armor = "\n".join(f"{a.name}\u00a0{a.scale.prefix}{a.rating}"
                          for a in character.worn_armor) or "—"
        notes = _setup_notes(campaign, encounter, combatant)
        if options.show_damage:  # as the turn order shows them: dying, unconscious, timers
            notes += list(combatant_status(campaign, encounter, combatant, character).conditions)
        initiative = "" if combatant.initiative is None else str(combatant.initiative)
        rows.append(
            (
                str(position) if not combatant.out_of_fight else "–",
                initiative,
                "\n".join(who),
                hp,
                armor,
                track_block(track, TrackKind.BAR, options.show_damage),
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
    notes = split_paragraphs(encounter.notes)
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
