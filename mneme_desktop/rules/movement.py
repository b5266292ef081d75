"""Movement (Ch.6): the movement table by load, stance and grid scale, and stance changes."""

from __future__ import annotations

from enum import Enum
from fractions import Fraction

from mneme_desktop.rules.action_economy import ActionKind

__all__ = [
    "GridScale",
    "Load",
    "MovementMode",
    "Stance",
    "movement_metres",
    "movement_spaces",
    "seriously_wounded_movement",
    "stance_change_cost",
]


class Load(Enum):
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class Stance(Enum):
    STANDING = "standing"
    CROUCHED = "crouched"
    PRONE = "prone"


class MovementMode(Enum):
    """Move is a minor action, Dash a significant action, Run a full action."""

    MOVE = "move"
    DASH = "dash"
    RUN = "run"

    @property
    def action_kind(self) -> ActionKind:
        return _MODE_KINDS[self]


_MODE_KINDS = {
    MovementMode.MOVE: ActionKind.MINOR,
    MovementMode.DASH: ActionKind.SIGNIFICANT,
    MovementMode.RUN: ActionKind.FULL,
}

_FINE_SCALE = Fraction(3, 2)
_COARSE_SCALE = Fraction(9, 2)


class GridScale(Enum):
    """The movement table's two space sizes (Ch.6 "Scale" column): 1.5 m spaces for a fight
    on a person's grid, 4.5 m spaces for a wider map. Chosen per encounter."""

    FINE = "1.5"
    COARSE = "4.5"

    @property
    def metres(self) -> Fraction:
        """The side of one space."""
        return _FINE_SCALE if self is GridScale.FINE else _COARSE_SCALE

# Columns: light, medium/heavy, light crouch, medium/heavy crouch, crawl. None = NA.
_MOVEMENT_TABLE: dict[tuple[Fraction, MovementMode], tuple[int | None, ...]] = {
    (_FINE_SCALE, MovementMode.MOVE): (4, 3, 2, 1, None),
    (_FINE_SCALE, MovementMode.DASH): (10, 7, 5, 3, 2),
    (_FINE_SCALE, MovementMode.RUN): (15, 10, 7, 5, 3),
    (_COARSE_SCALE, MovementMode.MOVE): (1, 1, None, None, None),
    (_COARSE_SCALE, MovementMode.DASH): (3, 2, 2, 1, None),
    (_COARSE_SCALE, MovementMode.RUN): (5, 3, 3, 2, 1),
}


def _grid_scale(scale_m: float | Fraction | str | GridScale) -> Fraction:
    if isinstance(scale_m, GridScale):
        return scale_m.metres
    value = Fraction(str(scale_m)) if isinstance(scale_m, float | str) else Fraction(scale_m)
    if value not in (_FINE_SCALE, _COARSE_SCALE):
        raise ValueError(f"the movement table has 1.5 m and 4.5 m spaces, not {scale_m} m")
    return value


def seriously_wounded_movement(spaces: int) -> int:
    """A Seriously Wounded character moves at 3/4 speed: rounded down, but at least 1 space
    so that any movement the table allows stays possible."""
    if spaces <= 0:
        return 0
    return max(1, spaces * 3 // 4)


def movement_spaces(
    mode: MovementMode,
    load: Load = Load.LIGHT,
    stance: Stance = Stance.STANDING,
    scale_m: float | Fraction | str | GridScale = 1.5,
    seriously_wounded: bool = False,
) -> int | None:
    """Spaces moved by one movement action, from the Ch.6 movement table.

    Prone is the table's Crawl column (load does not change it). ``None`` means the
    movement is not possible (an NA cell). A Seriously Wounded character (Ch.7) cannot
    Dash, and since a Run is faster than a Dash it cannot Run either; a Move is at 3/4.
    """
    row = _MOVEMENT_TABLE[(_grid_scale(scale_m), mode)]
    if stance is Stance.PRONE:
        column = 4
    else:
        column = (0 if load is Load.LIGHT else 1) + (2 if stance is Stance.CROUCHED else 0)
    spaces = row[column]
    if spaces is None or not seriously_wounded:
        return spaces
    if mode is not MovementMode.MOVE:
        return None
    return seriously_wounded_movement(spaces)


def movement_metres(
    mode: MovementMode,
    load: Load = Load.LIGHT,
    stance: Stance = Stance.STANDING,
    scale_m: float | Fraction | str | GridScale = 1.5,
    seriously_wounded: bool = False,
) -> Fraction | None:
    """Distance of :func:`movement_spaces` in metres (spaces x space size; the table's
    spaces are authoritative where the prose rounds, e.g. a loaded Dash is 7 x 1.5 = 10.5 m)."""
    spaces = movement_spaces(mode, load, stance, scale_m, seriously_wounded)
    return None if spaces is None else spaces * _grid_scale(scale_m)


_STANCE_COSTS = {
    (Stance.STANDING, Stance.PRONE): 1,
    (Stance.STANDING, Stance.CROUCHED): 1,
    (Stance.PRONE, Stance.CROUCHED): 2,
    (Stance.CROUCHED, Stance.STANDING): 1,
    # Not in the text: dropping prone from a crouch is taken to be as quick as from standing,
    # and getting up from prone goes through crouching (2 + 1).
    (Stance.CROUCHED, Stance.PRONE): 1,
    (Stance.PRONE, Stance.STANDING): 3,
}


def stance_change_cost(current: Stance, target: Stance) -> int:
    """Minor actions needed to change stance (0 when already there)."""
    if current is target:
        return 0
    return _STANCE_COSTS[(current, target)]
