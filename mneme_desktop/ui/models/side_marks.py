"""How a side is marked on screen: its colour and a small swatch of it, shared by the
turn order, the attack's targets and the combatant panel."""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap

from mneme_desktop.domain import Side

__all__ = ["SIDE_COLORS", "side_icon"]


SIDE_COLORS = {
    Side.PLAYERS: QColor(0x2E, 0x7D, 0xD2),
    Side.ENEMIES: QColor(0xC6, 0x28, 0x28),
    Side.NEUTRAL: QColor(0x75, 0x75, 0x75),
}
"""The colour a side is marked with (a swatch beside the name, never the only cue)."""

_SIDE_ICONS: dict[Side, QIcon] = {}


def side_icon(side: Side) -> QIcon:
    """A small swatch in the side's colour, made once (a QColor decoration would be turned
    into a new pixmap on every paint)."""
    icon = _SIDE_ICONS.get(side)
    if icon is None:
        pixmap = QPixmap(12, 12)
        pixmap.fill(SIDE_COLORS[side])
        icon = QIcon(pixmap)
        _SIDE_ICONS[side] = icon
    return icon
