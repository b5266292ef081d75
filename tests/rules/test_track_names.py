"""A thing's track: the same numbers as a character's, under a thing's names."""

from __future__ import annotations

from mneme_desktop.rules.box_chart import ChartStyle, box_chart
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.thing_damage import thing_track
from mneme_desktop.rules.track_names import thing_display_track, thing_names
from mneme_desktop.rules.wounds import WoundState


def test_the_walker_counts_in_dhp_under_a_things_names() -> None:
    track = thing_display_track(75, 20, Scale.DEKA)  # 75 plain points on 20 DHP
    plain = thing_track(75, 20, Scale.DEKA)
    assert (track.damage, track.hp, track.capacity) == (plain.damage, plain.hp, plain.capacity)
    assert [b.start for b in track.bands] == [b.start for b in plain.bands]
    assert track.damage == 8 and track.unit == "DHP"
    assert track.label_of(track.state) == "Seriously Damaged"
    assert [b.label for b in track.bands] == ["Damaged", "Seriously Damaged",
                                              "Critically Damaged", "Destroyed"]
    assert track.bands[1].rule_text == "Seriously damaged: damage >= floor(HP/3) = 6"
    assert [m.label for m in track.marks] == ["Seriously Damaged 6", "Critically Damaged 13",
                                              "Destroyed 21"]
    assert not track.penalties


def test_a_things_rows_hold_points_not_penalties() -> None:
    track = thing_display_track(0, 12, Scale.NONE)
    assert track.row_labels[:3] == ("1–3", "4–6", "7–9")
    record = box_chart(track, ChartStyle.MEGATRAVELLER)  # two columns for 12 HP
    assert record.row_labels[:6] == ("1–2", "3–4", "5–6", "7–8", "9–10", "11–12")


def test_names_default_to_the_wound_states() -> None:
    names = thing_names(Scale.HEKA)
    assert names.unit == "HHP" and names.state(WoundState.DYING) == "Destroyed"
    assert thing_track(0, 5).label_of(WoundState.DYING) == "Dying"
