"""Box-chart geometry: rows of three, and the MegaTraveller Personal Integrity Record."""

from __future__ import annotations

import pytest

from mneme_desktop.rules.box_chart import (
    BoxChart,
    ChartStyle,
    box_chart,
    megatraveller_columns,
)
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import WoundState


def record(damage: int, hp: int) -> BoxChart:
    return box_chart(damage_track(damage, hp), ChartStyle.MEGATRAVELLER)


def grid(chart: BoxChart, rows: range) -> list[str]:
    """The record's rows as text: a digit per box's damage point mod 10, X crossed off."""
    by_place = {(cell.row, cell.column): cell for cell in chart.cells}
    lines = []
    for row in rows:
        line = ""
        for column in range(chart.columns):
            cell = by_place.get((row, column))
            line += " " if cell is None else ("X" if cell.index is None else str(cell.index % 10))
        lines.append(line.rstrip())
    return lines


def test_integrity_46_is_eight_columns_with_the_last_two_boxes_crossed_off() -> None:
    """The record's example: Giovanni, Integrity 46, uses eight columns and crosses off
    two boxes of the last (48) column, from the bottom."""
    assert megatraveller_columns(46) == (8, 2)
    chart = record(0, 46)
    assert chart.column_labels == ("6", "12", "18", "24", "30", "36", "42", "48")
    assert [(cell.row, cell.column) for cell in chart.crossed_off] == [(4, 7), (5, 7)]
    assert grid(chart, range(6)) == [
        "12345678",
        "90123456",
        "78901234",
        "56789012",
        "3456789X",
        "0123456X",
    ]
    hp_boxes = [cell for cell in chart.boxes if not cell.beyond_hp]
    assert len(hp_boxes) == 46
    assert hp_boxes[-1].index == 46 and (hp_boxes[-1].row, hp_boxes[-1].column) == (5, 6)


def test_integrity_50_is_nine_columns_with_the_bottom_four_crossed_off() -> None:
    """The record's second example: Integrity 50 uses two boxes of the 54 column and
    crosses off the bottom four."""
    assert megatraveller_columns(50) == (9, 4)
    chart = record(0, 50)
    assert chart.column_labels[-1] == "54"
    assert [(cell.row, cell.column) for cell in chart.crossed_off] == [
        (2, 8), (3, 8), (4, 8), (5, 8)
    ]
    assert grid(chart, range(6)) == [
        "123456789",
        "012345678",
        "90123456X",
        "78901234X",
        "56789012X",
        "34567890X",
    ]
    assert chart.cell(50).beyond_hp is False and chart.cell(51).beyond_hp is True


def test_boxes_are_crossed_left_to_right_then_top_to_bottom() -> None:
    chart = record(10, 46)
    damaged = [(cell.row, cell.column) for cell in chart.boxes if cell.damaged]
    assert damaged == [(0, c) for c in range(8)] + [(1, 0), (1, 1)]
    assert all(not cell.damaged for cell in chart.crossed_off)


def test_rows_are_labelled_with_the_wound_penalty_while_they_fill() -> None:
    """A row of 8 spans damage 1-8: penalty 0 before the first box, -2 before the eighth."""
    chart = record(0, 46)
    assert chart.row_labels[:6] == ("0…-2", "-2…-5", "-5…-7", "-8…-10", "-10…-12", "-13…-15")
    small = record(0, 18)  # three columns: one row is one penalty step, as rows of three
    assert small.row_labels[:6] == ("0", "-1", "-2", "-3", "-4", "-5")


def test_the_room_past_hp_follows_below_the_record() -> None:
    track = damage_track(0, 46)
    chart = box_chart(track, ChartStyle.MEGATRAVELLER)
    assert chart.section_row == 6
    past = [cell for cell in chart.boxes if cell.beyond_hp]
    assert [cell.index for cell in past] == list(range(47, track.capacity + 1))
    assert all(cell.row >= 6 and cell.state is WoundState.DYING for cell in past)
    assert (past[0].row, past[0].column) == (6, 0)
    assert len(chart.boxes) == track.capacity


def test_bands_and_damage_come_from_the_one_track() -> None:
    track = damage_track(20, 46)
    chart = box_chart(track, ChartStyle.MEGATRAVELLER)
    for box in track.boxes:
        cell = chart.cell(box.index)
        assert (cell.state, cell.damaged, cell.beyond_hp) == (
            box.state, box.damaged, box.beyond_hp)


def test_a_small_record_keeps_its_room_past_hp_three_wide() -> None:
    chart = record(0, 2)
    assert megatraveller_columns(2) == (1, 4)
    assert grid(chart, range(6)) == ["1", "2", "X", "X", "X", "X"]
    assert chart.row_labels[2:6] == ("", "", "", "")
    assert chart.columns == 3
    assert [(c.row, c.column) for c in chart.boxes if c.beyond_hp][:3] == [
        (6, 0), (6, 1), (6, 2)
    ]


def test_a_whole_column_crosses_nothing_off() -> None:
    assert megatraveller_columns(48) == (8, 0)
    assert record(0, 48).crossed_off == ()
    assert megatraveller_columns(200) == (34, 4)  # a Deka walker of 20 DHP, in plain HP


def test_rows_of_three_are_the_track_boxes() -> None:
    track = damage_track(8, 21)
    chart = box_chart(track)
    assert chart.style is ChartStyle.ROWS_OF_THREE
    assert (chart.rows, chart.columns) == (track.rows, 3)
    assert chart.row_labels == track.row_labels
    assert [(c.index, c.row, c.column, c.damaged) for c in chart.cells] == [
        (b.index, b.row, b.column, b.damaged) for b in track.boxes
    ]
    assert chart.crossed_off == () and chart.column_labels == ()


def test_no_record_without_hit_points() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        megatraveller_columns(0)
