"""How a side is marked on screen: its colour and a small swatch of it, shared by the
turn order, the attack's targets and the combatant panel."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from mneme_desktop.domain import Side

__all__ = ["SIDE_COLORS", "hidden_side_icon", "side_icon"]


SIDE_COLORS = {
    Side.PLAYERS: QColor(0x2E, 0x7D, 0xD2),
    Side.ENEMIES: QColor(0xC6, 0x28, 0x28),
    Side.NEUTRAL: QColor(0x75, 0x75, 0x75),
}
"""The colour a side is marked with (a swatch beside the name, never the only cue)."""

_SIDE_ICONS: dict[Side, QIcon] = {}
_HIDDEN_ICONS: dict[Side, QIcon] = {}


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


def hidden_side_icon(side: Side) -> QIcon:
    """The swatch of a combatant the players cannot see yet: hollow and struck through
    (a shape, not only a colour, tells it from the filled swatch), made once."""
    icon = _HIDDEN_ICONS.get(side)
    if icon is None:
        pixmap = QPixmap(12, 12)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(SIDE_COLORS[side], 1.5))
        painter.drawRect(QRectF(1, 1, 10, 10))
        painter.drawLine(QPointF(0.5, 11.5), QPointF(11.5, 0.5))
        painter.end()
        icon = QIcon(pixmap)
        _HIDDEN_ICONS[side] = icon
    return icon
