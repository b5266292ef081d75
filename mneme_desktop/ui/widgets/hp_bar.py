"""The HP threshold bar: damage against HP with the wound bands, tally marks and thresholds.

The widget never changes its own damage: clicks, drags and keys emit
``damage_requested(value, merge)`` and the hosting view pushes an undoable command, then
calls :meth:`set_track` with the new track. That keeps undo/redo and validation in one place.
Drawing and hit-testing live in :mod:`mneme_desktop.drawing.track_painter`, shared with the
PDF exporter.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleEvent,
    QFocusEvent,
    QFontMetricsF,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from mneme_desktop.drawing.track_painter import (
    TrackColors,
    bar_unit_center,
    bar_value_at,
    click_value,
    describe_track,
    hp_bar_layout,
    hp_bar_size_hint,
    paint_hp_bar,
    track_tooltip,
)
from mneme_desktop.rules.track import BOXES_PER_ROW, DamageTrack
from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "HpBar"

__all__ = ["DamageTrackWidget", "HpThresholdBar"]

_STEP = BOXES_PER_ROW
_KEY_STEPS = {
    Qt.Key.Key_Plus: 1,
    Qt.Key.Key_Equal: 1,
    Qt.Key.Key_Right: 1,
    Qt.Key.Key_Up: 1,
    Qt.Key.Key_Minus: -1,
    Qt.Key.Key_Left: -1,
    Qt.Key.Key_Down: -1,
    Qt.Key.Key_PageUp: _STEP,
    Qt.Key.Key_PageDown: -_STEP,
}


class DamageTrackWidget(QWidget):
    """What the HP bar and the box chart share: the track, keyboard and mouse input turned
    into damage requests, tooltips and the screen-reader name and description."""

    damage_requested = Signal(int, bool)

    KIND = tr_noop(_CTX, "Damage track")
    """What the widget is, the start of its accessible name ("HP threshold bar")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._track: DamageTrack | None = None
        self._subject = ""
        self.setAccessibleName(tr(_CTX, self.KIND))
        self._drag_unit: int | None = None
        self._drag_emitted = False
        self._last_requested: int | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_Hover, True)

    # ------------------------------------------------------------------ public API

    def set_track(self, track: DamageTrack) -> None:
        """Show ``track``; the host calls this after acting on a damage request."""
        rows_changed = self._track is None or self._track.rows != track.rows
        self._track = track
        self._describe()
        if rows_changed:
            self.updateGeometry()
        self.update()

    def set_subject(self, name: str) -> None:
        """Whose damage this is: a screen reader then says "HP threshold bar for Mara Vey"
        and "Mara Vey: damage 11 of 25 HP: seriously wounded, penalty -3"."""
        if name == self._subject:
            return
        self._subject = name
        self.setAccessibleName(tr(_CTX, "{0} for {1}").format(
                tr(_CTX, self.KIND), name) if name else tr(_CTX, self.KIND))
        if QAccessible.isActive():
            QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.NameChanged))
        self._describe()

    def subject(self) -> str:
        return self._subject

    def _describe(self) -> None:
        """The text value a screen reader reads, kept in step with the track."""
        if self._track is None:
            return
        description = describe_track(self._track, self._subject)
        if description == self.accessibleDescription():
            return
        self.setAccessibleDescription(description)
        self.setToolTip(description)
        if QAccessible.isActive():
            QAccessible.updateAccessibility(
                QAccessibleEvent(self, QAccessible.Event.DescriptionChanged)
            )

    def track(self) -> DamageTrack | None:
        return self._track

    def content_rect(self) -> QRectF:
        """The area the track is drawn in, inside a margin for the focus frame."""
        margin = self._margin()
        return QRectF(self.rect()).adjusted(margin, margin, -margin, -margin)

    def _margin(self) -> float:
        return max(3.0, round(QFontMetricsF(self.font()).height() * 0.3))

    def tooltip_at(self, pos: QPointF) -> str:
        """Tooltip text for a point: the band there, its rule and the thresholds."""
        if self._track is None:
            return ""
        value = self._unit_at(pos)
        return track_tooltip(self._track, 0 if value is None else value)

    # ------------------------------------------------------------- for subclasses

    def _unit_at(self, pos: QPointF) -> int | None:
        """The damage point under ``pos`` (0 = before the first), or None for nothing."""
        raise NotImplementedError

    def _paint_track(self, painter: QPainter, rect: QRectF, colors: TrackColors) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------- painting

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colors = TrackColors.from_palette(self.palette())
        rect = self.content_rect()
        if self._track is None:
            painter.setPen(colors.frame)
            painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
        else:
            self._paint_track(painter, rect, colors)
        if self.hasFocus():
            # Drawn by hand: some styles (Fusion) only show focus after keyboard navigation,
            # but a referee clicking the bar and then pressing +/- needs to see it too.
            width = max(1.0, QFontMetricsF(self.font()).height() / 12)
            pen = QPen(colors.focus, width, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            inset = width / 2
            painter.drawRect(QRectF(self.rect()).adjusted(inset, inset, -inset, -inset))
        painter.end()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()

    # ---------------------------------------------------------------------- input

    def _request(self, value: int, merge: bool) -> None:
        self._last_requested = value
        self.damage_requested.emit(value, merge)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._track is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        unit = self._unit_at(event.position())
        self._drag_emitted = False
        self._drag_unit = unit
        self._last_requested = self._track.damage
        if unit is not None:
            value = click_value(self._track, unit)
            if value != self._track.damage:
                self._drag_emitted = True
                self._request(value, False)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._track is None or not event.buttons() & Qt.MouseButton.LeftButton:
            super().mouseMoveEvent(event)
            return
        unit = self._unit_at(event.position())
        if unit is None or unit == self._drag_unit:
            return
        self._drag_unit = unit
        value = max(0, min(unit, self._track.capacity))
        if value == self._last_requested:
            return
        # The first change of a drag starts an undo step; later ones merge into it.
        merge = self._drag_emitted
        self._drag_emitted = True
        self._request(value, merge)
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag_unit = None
        self._drag_emitted = False
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        track = self._track
        if track is None:
            super().keyPressEvent(event)
            return
        key = Qt.Key(event.key())
        if key == Qt.Key.Key_Home:
            value = 0
        elif key in _KEY_STEPS:
            value = track.damage + _KEY_STEPS[key]
        else:
            super().keyPressEvent(event)
            return
        value = max(0, min(value, track.capacity))
        if value != track.damage:
            # Holding a key down merges the repeats into one undo step.
            self._request(value, event.isAutoRepeat())
        event.accept()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(QPointF(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)


class HpThresholdBar(DamageTrackWidget):
    """Damage against HP as a bar: wounded, seriously wounded, critically wounded and dying
    bands (hatched denser as they worsen), tally marks in groups of 3 per penalty step,
    numbered threshold ticks, and the state and penalty written on top."""

    KIND = tr_noop(_CTX, "HP threshold bar")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._compact = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_compact(self, compact: bool) -> None:
        """The thin form for table rows: bands, damage and thresholds, no text."""
        if compact == self._compact:
            return
        self._compact = compact
        self.updateGeometry()
        self.update()

    def is_compact(self) -> bool:
        return self._compact

    def point_for_unit(self, unit: int) -> QPointF:
        """Where to click to land on damage point ``unit`` (the middle of the bar there)."""
        if self._track is None:
            raise ValueError("the bar has no damage track yet")
        rect = self.content_rect()
        bar = hp_bar_layout(rect, self.font(), labels=not self._compact, device=self).bar
        return QPointF(bar_unit_center(bar, self._track, unit), bar.center().y())

    def sizeHint(self) -> QSize:
        hint = hp_bar_size_hint(self.font(), labels=not self._compact, device=self)
        margins = 2 * self._margin()
        return QSize(round(hint.width() + margins), round(hint.height() + margins))

    def minimumSizeHint(self) -> QSize:
        hint = self.sizeHint()
        return QSize(hint.width() // 3, hint.height())

    def _unit_at(self, pos: QPointF) -> int | None:
        if self._track is None:
            return None
        return bar_value_at(self.content_rect(), self._track, pos.x())

    def _paint_track(self, painter: QPainter, rect: QRectF, colors: TrackColors) -> None:
        if self._track is not None:
            paint_hp_bar(painter, rect, self._track, colors, self.font(), labels=not self._compact)
