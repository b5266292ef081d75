"""What a thing's damage track calls its numbers (Ch.7: "Characters, Objects, Vehicles, and
Infrastructure have Hit Points"): the same track as a character's, counted in the thing's
scale ("DHP"), its states named as a thing's (damaged, seriously damaged, critically
damaged, destroyed past HP), and no wound penalty (a thing rolls nothing).
"""

from __future__ import annotations

from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.thing_damage import ThingState, thing_track
from mneme_desktop.rules.track import DamageTrack, TrackNames, renamed
from mneme_desktop.rules.wounds import WoundState

__all__ = ["thing_display_track", "thing_names"]


def thing_names(scale: Scale) -> TrackNames:
    """A thing's names for the track: "DHP", "Seriously Damaged", no penalties."""
    states = tuple((state, ThingState.from_wound_state(state).label) for state in WoundState)
    return TrackNames(unit=f"{scale.prefix}HP", states=states, penalties=False)


def thing_display_track(damage: int, hp: int, scale: Scale) -> DamageTrack:
    """The track a thing's bar, box chart and printed sheet draw: :func:`thing_track`
    (plain ``damage`` against ``hp`` written in ``scale``) under a thing's names."""
    return renamed(thing_track(damage, hp, scale), thing_names(scale))
