"""The damage track: the one geometry the HP bar, box chart and exporters draw."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mneme_desktop.rules import (
    BOXES_PER_ROW,
    ThresholdBasis,
    WoundState,
    damage_track,
    track_capacity,
    wound_penalty,
    wound_state,
    wound_thresholds,
)


def test_hp_21_bands_and_rule_texts() -> None:
    track = damage_track(8, 21)
    assert (track.hp, track.damage, track.capacity) == (21, 8, 30)
    assert track.state is WoundState.SERIOUSLY_WOUNDED
    assert track.penalty == -2
    assert [(b.state, b.start, b.end) for b in track.bands] == [
        (WoundState.WOUNDED, 1, 6),
        (WoundState.SERIOUSLY_WOUNDED, 7, 13),
        (WoundState.CRITICALLY_WOUNDED, 14, 21),
        (WoundState.DYING, 22, 30),
    ]
    assert [b.label for b in track.bands] == [
        "Wounded",
        "Seriously Wounded",
        "Critically Wounded",
        "Dying",
    ]
    assert [b.rule_text for b in track.bands] == [
        "Wounded: any damage (damage >= 1)",
        "Seriously wounded: damage >= floor(HP/3) = 7",
        "Critically wounded: damage >= floor(2 x HP/3) = 14",
        "Dying: damage > HP = 21",
    ]


def test_rule_text_for_hp_15() -> None:
    track = damage_track(0, 15)
    assert track.bands[1].rule_text == "Seriously wounded: damage >= floor(HP/3) = 5"
    assert track.capacity == 21  # 15 + 5 = 20, rounded up to a whole row
    assert track.state is WoundState.UNHURT
    assert track.penalty == 0


def test_threshold_marks_sit_at_the_left_edge_of_the_first_box() -> None:
    track = damage_track(8, 21)
    assert [(m.value, m.label, m.state) for m in track.marks] == [
        (7, "Seriously Wounded 7", WoundState.SERIOUSLY_WOUNDED),
        (14, "Critically Wounded 14", WoundState.CRITICALLY_WOUNDED),
        (22, "Dying 22", WoundState.DYING),
    ]
    assert [m.position for m in track.marks] == [
        Fraction(6, 30),
        Fraction(13, 30),
        Fraction(21, 30),
    ]
    assert track.hp_position == Fraction(21, 30)


def test_positions_and_spans() -> None:
    track = damage_track(8, 21)
    assert track.fill == Fraction(8, 30)
    assert track.position(0) == 0
    assert track.position(-5) == 0
    assert track.position(99) == 1
    assert track.position(Fraction(15, 2)) == Fraction(1, 4)
    assert track.box_span(1) == (Fraction(0), Fraction(1, 30))
    assert track.box_span(30) == (Fraction(29, 30), Fraction(1))
    assert track.band_span(track.bands[1]) == (Fraction(6, 30), Fraction(13, 30))
    with pytest.raises(ValueError):
        track.box_span(0)
    with pytest.raises(ValueError):
        track.box_span(31)


def test_band_at() -> None:
    track = damage_track(8, 21)
    assert track.band_at(0) is None
    band = track.band_at(13)
    assert band is not None and band.state is WoundState.SERIOUSLY_WOUNDED
    dying = track.band_at(25)
    assert dying is not None and dying.state is WoundState.DYING


def test_box_chart_rows_of_three_crossed_left_to_right_top_to_bottom() -> None:
    track = damage_track(8, 21)
    assert (track.rows, track.columns) == (10, 3)
    assert track.row_labels == ("0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9")
    assert [b.damaged for b in track.boxes[:9]] == [True] * 8 + [False]
    box_8 = track.boxes[7]
    assert (box_8.index, box_8.row, box_8.column) == (8, 2, 1)
    assert box_8.state is WoundState.SERIOUSLY_WOUNDED
    assert not box_8.beyond_hp
    assert track.boxes[21].index == 22 and track.boxes[21].beyond_hp
    assert track.boxes[20].state is WoundState.CRITICALLY_WOUNDED
    assert track.boxes[21].state is WoundState.DYING


def test_tally_groups_every_three() -> None:
    track = damage_track(4, 21)
    assert [(g.step, g.start, g.end, g.penalty) for g in track.tally_groups[:3]] == [
        (1, 1, 3, -1),
        (2, 4, 6, -2),
        (3, 7, 9, -3),
    ]
    assert len(track.tally_groups) == 10


def test_small_hp_track() -> None:
    track = damage_track(2, 3)
    assert track.capacity == 6
    assert [(b.state, b.start, b.end) for b in track.bands] == [
        (WoundState.SERIOUSLY_WOUNDED, 1, 1),
        (WoundState.CRITICALLY_WOUNDED, 2, 3),
        (WoundState.DYING, 4, 6),
    ]
    assert [m.value for m in track.marks] == [1, 2, 4]


def test_capacity_grows_to_hold_the_damage() -> None:
    assert track_capacity(0, 21) == 30
    assert track_capacity(40, 21) == 42
    assert track_capacity(0, 45) == 60
    track = damage_track(40, 21)
    assert track.capacity == 42
    assert sum(b.damaged for b in track.boxes) == 40
    assert track.state is WoundState.DYING


def test_characteristic_thresholds_flow_through() -> None:
    thresholds = wound_thresholds(21, ThresholdBasis.CHARACTERISTIC, (9, 7, 5))
    track = damage_track(8, 21, thresholds)
    assert track.thresholds is thresholds
    assert track.state is WoundState.WOUNDED
    assert [(b.start, b.end) for b in track.bands] == [(1, 8), (9, 17), (18, 21), (22, 30)]
    assert track.bands[1].rule_text == (
        "Seriously wounded: damage >= best physical characteristic = 9"
    )


def test_bad_input_is_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        damage_track(-1, 21)
    with pytest.raises(ValueError, match="HP 20"):
        damage_track(1, 21, wound_thresholds(20))
    with pytest.raises(ValueError):
        damage_track(1, 0)


@given(
    hp=st.integers(1, 90),
    damage=st.integers(0, 150),
    physical=st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20)),
    basis=st.sampled_from(ThresholdBasis),
)
def test_track_invariants(
    hp: int, damage: int, physical: tuple[int, int, int], basis: ThresholdBasis
) -> None:
    thresholds = wound_thresholds(hp, basis, physical)
    track = damage_track(damage, hp, thresholds)
    capacity = track.capacity
    assert capacity % BOXES_PER_ROW == 0
    assert capacity >= max(damage, hp + 3)
    assert len(track.boxes) == capacity
    assert sum(box.damaged for box in track.boxes) == min(damage, capacity)
    assert [box.index for box in track.boxes] == list(range(1, capacity + 1))
    # Bands are contiguous, non-empty and cover 1..capacity.
    assert track.bands[0].start == 1
    assert track.bands[-1].end == capacity
    for band, following in pairwise(track.bands):
        assert band.start <= band.end
        assert following.start == band.end + 1
    # Every box lies in the band of its own state.
    for box in track.boxes:
        home = track.band_at(box.index)
        assert home is not None and home.state is box.state
        assert box.state is wound_state(box.index, hp, thresholds)
        assert box.beyond_hp == (box.index > hp)
        assert (box.row, box.column) == divmod(box.index - 1, BOXES_PER_ROW)
    # Tally groups cover every 3 damage up to capacity.
    covered = [d for g in track.tally_groups for d in range(g.start, g.end + 1)]
    assert covered == list(range(1, capacity + 1))
    assert all(g.end - g.start == 2 and g.penalty == -g.step for g in track.tally_groups)
    # The topmost row with empty boxes is labelled with the current penalty.
    assert track.rows == capacity // BOXES_PER_ROW
    if damage < capacity:
        first_empty = track.boxes[damage]
        assert track.row_labels[first_empty.row] == str(wound_penalty(damage))
    assert track.penalty == wound_penalty(damage)
    assert track.state is wound_state(damage, hp, thresholds)
    assert 0 <= track.fill <= 1
    assert all(0 <= mark.position <= 1 for mark in track.marks)
