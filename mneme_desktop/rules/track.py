"""The damage track: the single source of truth for drawing damage.

The HP bar widget, the box-chart widget and the PDF/HTML exporters all draw from
:func:`damage_track` and never recompute thresholds, bands, penalties or box positions.

Units: damage values are whole points. Box ``i`` (1-based) is the i-th point of damage and
spans ``position(i - 1)`` to ``position(i)`` along the bar; a band covers damage values
``start`` to ``end`` inclusive and spans ``position(start - 1)`` to ``position(end)``.
The box chart follows the Personal Integrity Record: rows of 3 boxes, one wound-penalty step
per row, crossed off left to right, top to bottom (the boxes here); the record's own layout
of six-box columns is laid out from these boxes by :mod:`mneme_desktop.rules.box_chart`.
A thing's track is the same track under other names (:class:`TrackNames`, :func:`renamed`):
its unit ("DHP") and states ("Seriously Damaged"), without the wound penalty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from mneme_desktop.rules.wounds import (
    WoundState,
    WoundThresholds,
    wound_penalty,
    wound_state,
    wound_thresholds,
)

__all__ = [
    "BOXES_PER_ROW",
    "Band",
    "Box",
    "DamageTrack",
    "TallyGroup",
    "ThresholdMark",
    "TrackNames",
    "damage_range_label",
    "damage_track",
    "renamed",
    "track_capacity",
]

BOXES_PER_ROW = 3
"""Every 3 damage is one wound-penalty step: one tally group, one row of boxes."""


@dataclass(frozen=True)
class Band:
    """A wound state's stretch of the track, damage ``start`` to ``end`` inclusive."""

    state: WoundState
    start: int
    end: int
    label: str
    rule_text: str


@dataclass(frozen=True)
class TallyGroup:
    """Tally marks in groups of 3: completing group ``step`` brings the penalty to
    ``penalty`` (= -step). Covers damage ``start`` to ``end`` inclusive."""

    step: int
    start: int
    end: int
    penalty: int


@dataclass(frozen=True)
class ThresholdMark:
    """A line on the bar where a wound state begins: ``value`` is its first damage value,
    drawn at ``position`` (the left edge of that box)."""

    value: int
    label: str
    state: WoundState
    position: Fraction


@dataclass(frozen=True, slots=True)
class Box:
    """One box of the chart. ``row`` and ``column`` are 0-based; ``index`` is 1-based and
    equals the damage point the box records."""

    index: int
    row: int
    column: int
    state: WoundState
    damaged: bool
    beyond_hp: bool


@dataclass(frozen=True)
class TrackNames:
    """What a track's numbers are called: a character's "HP" and wound states with their
    penalties (the default), or a thing's ("DHP", "Seriously Damaged", no wound penalty:
    a thing rolls nothing). The numbers never change with the names."""

    unit: str = "HP"
    states: tuple[tuple[WoundState, str], ...] = ()
    penalties: bool = True
    """Whether the wound penalty applies (-1 for every 3 damage): rows are labelled with
    it; without, with the damage they hold."""

    def state(self, state: WoundState) -> str:
        """The name of ``state`` on this track."""
        return dict(self.states).get(state, state.label)


@dataclass(frozen=True)
class DamageTrack:
    """Everything needed to draw a character's damage, computed once by :func:`damage_track`."""

    hp: int
    damage: int
    capacity: int
    thresholds: WoundThresholds
    state: WoundState
    penalty: int
    bands: tuple[Band, ...]
    tally_groups: tuple[TallyGroup, ...]
    marks: tuple[ThresholdMark, ...]
    boxes: tuple[Box, ...]
    row_labels: tuple[str, ...]
    names: TrackNames = TrackNames()

    @property
    def unit(self) -> str:
        """What HP and damage are counted in: "HP", or a thing's "DHP"."""
        return self.names.unit

    @property
    def penalties(self) -> bool:
        return self.names.penalties

    def label_of(self, state: WoundState) -> str:
        """The name of ``state`` on this track ("Seriously Wounded" or "Seriously Damaged")."""
        return self.names.state(state)

    @property
    def rows(self) -> int:
        return len(self.row_labels)

    @property
    def columns(self) -> int:
        return BOXES_PER_ROW

    @property
    def fill(self) -> Fraction:
        """How far along the bar the current damage reaches."""
        return self.position(self.damage)

    @property
    def hp_position(self) -> Fraction:
        """Where HP ends and the dying stretch begins."""
        return self.position(self.hp)

    def position(self, damage_value: int | Fraction) -> Fraction:
        """Fraction in [0, 1] along the bar for a damage value, clamped at both ends."""
        at = Fraction(damage_value) / self.capacity
        return min(Fraction(1), max(Fraction(0), at))

    def box_span(self, index: int) -> tuple[Fraction, Fraction]:
        """Start and end of box ``index`` (1-based) along the bar."""
        if not 1 <= index <= self.capacity:
            raise ValueError(f"box {index} is outside 1..{self.capacity}")
        return self.position(index - 1), self.position(index)

    def band_span(self, band: Band) -> tuple[Fraction, Fraction]:
        """Start and end of a band along the bar."""
        return self.position(band.start - 1), self.position(band.end)

    def band_at(self, damage_value: int) -> Band | None:
        """The band containing a damage value; None for 0 (unhurt)."""
        for band in self.bands:
            if band.start <= damage_value <= band.end:
                return band
        return None


def _round_up_to_row(value: int) -> int:
    return -(-value // BOXES_PER_ROW) * BOXES_PER_ROW


def track_capacity(damage: int, hp: int) -> int:
    """Display length: HP plus room past HP for massive damage (at least 3, or a third of
    HP rounded up), at least the damage taken, rounded up to whole rows of 3."""
    room = max(BOXES_PER_ROW, -(-hp // 3))
    return _round_up_to_row(max(hp + room, damage))


def damage_range_label(first: int, last: int) -> str:
    """A row's damage points when it is labelled without a penalty: "4–6", or "7"."""
    return str(first) if first == last else f"{first}–{last}"


def _renamed_rule(text: str, old: str, new: str) -> str:
    """A band's rule text under the track's name for its state ("Seriously damaged: ...")."""
    if text.casefold().startswith(old.casefold()):
        return new[:1].upper() + new[1:].lower() + text[len(old):]
    return text


def renamed(track: DamageTrack, names: TrackNames) -> DamageTrack:
    """The same track under other names (a thing's states and unit): the bands, marks,
    row labels and rule texts say them; every number stays as :func:`damage_track` made it."""
    bands = tuple(
        replace(band, label=names.state(band.state),
                rule_text=_renamed_rule(band.rule_text, band.state.label,
                                        names.state(band.state)))
        for band in track.bands
    )
    marks = tuple(replace(mark, label=f"{names.state(mark.state)} {mark.value}")
                  for mark in track.marks)
    rows = track.rows
    row_labels = track.row_labels if names.penalties else tuple(
        damage_range_label(BOXES_PER_ROW * row + 1, BOXES_PER_ROW * (row + 1))
        for row in range(rows)
    )
    return replace(track, bands=bands, marks=marks, row_labels=row_labels, names=names)


def damage_track(damage: int, hp: int, thresholds: WoundThresholds | None = None) -> DamageTrack:
    """Build the damage track for ``damage`` against ``hp`` (thresholds default to HP
    fractions; pass the character's thresholds to honour the campaign's basis)."""
    if damage < 0:
        raise ValueError(f"damage cannot be negative, got {damage}")
    limits = wound_thresholds(hp) if thresholds is None else thresholds
    state = wound_state(damage, hp, limits)
    capacity = track_capacity(damage, hp)

    def at(value: int) -> Fraction:
        return Fraction(value, capacity)

    spans = (
        (WoundState.WOUNDED, 1, limits.seriously - 1),
        (WoundState.SERIOUSLY_WOUNDED, limits.seriously, limits.critically - 1),
        (WoundState.CRITICALLY_WOUNDED, limits.critically, hp),
        (WoundState.DYING, hp + 1, capacity),
    )
    bands = tuple(
        Band(band_state, start, end, band_state.label, limits.rule_for(band_state))
        for band_state, start, end in spans
        if start <= end
    )
    marks = tuple(
        ThresholdMark(band.start, f"{band.label} {band.start}", band.state, at(band.start - 1))
        for band in bands
        if band.state is not WoundState.WOUNDED
    )
    tally_groups = tuple(
        TallyGroup(step, BOXES_PER_ROW * (step - 1) + 1, BOXES_PER_ROW * step, -step)
        for step in range(1, capacity // BOXES_PER_ROW + 1)
    )
    boxes = tuple(
        Box(
            index,
            (index - 1) // BOXES_PER_ROW,
            (index - 1) % BOXES_PER_ROW,
            band.state,
            index <= damage,
            index > hp,
        )
        for band in bands
        for index in range(band.start, band.end + 1)
    )
    row_labels = tuple(
        str(wound_penalty(row * BOXES_PER_ROW)) for row in range(capacity // BOXES_PER_ROW)
    )
    return DamageTrack(
        hp=hp,
        damage=damage,
        capacity=capacity,
        thresholds=limits,
        state=state,
        penalty=wound_penalty(damage),
        bands=bands,
        tally_groups=tally_groups,
        marks=marks,
        boxes=boxes,
        row_labels=row_labels,
    )
