"""The healing projection chart: damage over days against the wound-state bands.

The bands, the HP line and the threshold marks are drawn from the character's
:class:`~mneme_desktop.rules.track.DamageTrack` (the same geometry as the HP bar) and in the
HP bar's colours; nothing here recomputes a threshold. Each plan is one staircase line:
damage stays put during a day and drops at its end, as healing is counted per day.
Plans are told apart by colour and by dash pattern, so the chart reads in greyscale too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAccessible,
    QAccessibleEvent,
    QColor,
    QFont,
    QFontMetricsF,
    QHelpEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from mneme_desktop.domain.healing.plan import Projection
from mneme_desktop.drawing.contrast import AA_GRAPHICS, legible
from mneme_desktop.drawing.track_painter import (
    TrackColors,
    band_initials,
    describe_track,
    paint_band_pattern,
)
from mneme_desktop.rules.track import Band, DamageTrack
from mneme_desktop.rules.wounds import wound_state
from mneme_desktop.ui.i18n import tr

_CTX = "ProjectionChart"

__all__ = ["PLAN_COLORS", "ChartLabel", "ChartSeries", "ProjectionChart", "day_ticks"]

PLAN_COLORS = (QColor(0x15, 0x65, 0xC0), QColor(0x00, 0x79, 0x6B))
"""Plan A blue, plan B teal; plan B is also dashed."""

_TICK_STEPS = (1, 2, 5, 7, 10, 14, 20, 28, 50, 100, 200, 365, 500, 1000)


def day_ticks(last_day: int, max_ticks: int) -> list[int]:
    """Day numbers to label on the axis: 0, a friendly step (a week, a fortnight ...), and
    never more than ``max_ticks`` of them."""
    last_day = max(1, last_day)
    max_ticks = max(2, max_ticks)
    step = next((s for s in _TICK_STEPS if last_day / s <= max_ticks - 1), _TICK_STEPS[-1])
    return list(range(0, last_day + 1, step))


@dataclass(frozen=True)
class ChartSeries:
    """One plan's line: damage at the end of each day, and what to mark on it."""

    label: str
    color: QColor
    start_damage: int
    steps: tuple[tuple[int, int], ...]
    plan_days: int
    healed_day: int | None
    state_changes: tuple[tuple[int, int], ...]
    impossible_days: tuple[int, ...]
    therapy_days: tuple[int, ...]
    dashed: bool = False
    outcome: str = ""

    @classmethod
    def from_projection(cls, projection: Projection, label: str, color: QColor,
                        dashed: bool = False) -> ChartSeries:
        return cls(
            label=label,
            color=color,
            start_damage=projection.start_damage,
            steps=tuple((r.day, r.damage_end) for r in projection.healing),
            plan_days=projection.plan.total_days,
            healed_day=projection.healed_day,
            state_changes=tuple(
                (change.day, projection.damage_on(change.day))
                for change in projection.state_changes
            ),
            impossible_days=projection.impossible_days,
            therapy_days=tuple(t.day for t in projection.therapy),
            dashed=dashed,
            outcome=projection.outcome,
        )

    @property
    def last_day(self) -> int:
        days = [day for day, _ in self.steps] + list(self.therapy_days)
        return max(days, default=0)

    def damage_on(self, day: int) -> int:
        damage = self.start_damage
        for step_day, value in self.steps:
            if step_day > day:
                break
            damage = value
        return damage


@dataclass(frozen=True)
class ChartLabel:
    """One text drawn on the plot and the rectangle it needs, so labels can be laid out
    (and tested) without painting."""

    kind: str
    """"hp", "healed" (one per plan fully healed) or "band" (a zone's name)."""
    text: str
    rect: QRectF
    series: int | None = None
    band: Band | None = None


def _ranges(days: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive day numbers grouped as (first, last)."""
    groups: list[tuple[int, int]] = []
    for day in sorted(days):
        if groups and day == groups[-1][1] + 1:
            groups[-1] = (groups[-1][0], day)
        else:
            groups.append((day, day))
    return groups


class ProjectionChart(QWidget):
    """Custom-painted chart of one character's projected damage under one or two plans."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._track: DamageTrack | None = None
        self._series: tuple[ChartSeries, ...] = ()
        self._title = ""
        self._empty_text = tr(_CTX, "Choose an injured character to see the projection.")
        self.setObjectName("projectionChart")
        self.setAccessibleName(tr(_CTX, "Healing projection chart"))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)

    # ------------------------------------------------------------------ public API

    @property
    def track(self) -> DamageTrack | None:
        return self._track

    @property
    def series(self) -> tuple[ChartSeries, ...]:
        return self._series

    @property
    def title(self) -> str:
        return self._title

    def set_chart(self, track: DamageTrack | None, series: Sequence[ChartSeries],
                  title: str = "") -> None:
        """Show ``series`` against ``track`` (None: nothing to show)."""
        self._track = track
        self._series = tuple(series) if track is not None else ()
        self._title = title
        self._describe()
        self.update()

    def set_empty_text(self, text: str) -> None:
        self._empty_text = text
        self._describe()
        self.update()

    def _describe(self) -> None:
        """What a screen reader reads instead of the picture: whose chart it is, and each
        plan's outcome; announced when it changes."""
        outcomes = " ".join(f"{s.label}: {s.outcome}" for s in self._series)
        if self._track is None:
            text = self._empty_text
        elif self._title:
            text = tr(_CTX, "{0}. {1}").format(self._title, outcomes).strip()
        else:
            text = outcomes or describe_track(self._track)
        if text != self.accessibleDescription():
            self.setAccessibleDescription(text)
            if QAccessible.isActive():
                QAccessible.updateAccessibility(
                    QAccessibleEvent(self, QAccessible.Event.DescriptionChanged))

    @property
    def last_day(self) -> int:
        return max([1] + [s.last_day for s in self._series])

    def sizeHint(self) -> QSize:
        return QSize(640, 300)

    def minimumSizeHint(self) -> QSize:
        return QSize(320, 180)

    # ---------------------------------------------------------------------- geometry

    def _font_height(self) -> float:
        return QFontMetricsF(self.font()).height()

    def plot_rect(self) -> QRectF:
        """The area inside the axes."""
        metrics = QFontMetricsF(self.font())
        line = metrics.height()
        left = metrics.horizontalAdvance("9999") + line * 1.6
        top = line * 2.6
        right = line * 1.2
        bottom = line * 2.8
        return QRectF(left, top, max(10.0, self.width() - left - right),
                      max(10.0, self.height() - top - bottom))

    def x_for_day(self, day: float) -> float:
        plot = self.plot_rect()
        return plot.left() + plot.width() * day / self.last_day

    def y_for_damage(self, damage: int | Fraction) -> float:
        """Height of a damage value: the track's position, 0 at the bottom."""
        plot = self.plot_rect()
        if self._track is None:
            return plot.bottom()
        return plot.bottom() - plot.height() * float(self._track.position(damage))

    def y_for_position(self, position: Fraction) -> float:
        """Height of a fraction along the track (a band edge, a threshold mark)."""
        plot = self.plot_rect()
        return plot.bottom() - plot.height() * float(position)

    def day_at(self, x: float) -> int:
        plot = self.plot_rect()
        day = round((x - plot.left()) / plot.width() * self.last_day)
        return max(0, min(self.last_day, day))

    # ----------------------------------------------------------------------- tooltip

    def tooltip_text(self, day: int) -> str:
        track = self._track
        if track is None:
            return ""
        lines = [tr(_CTX, "Day {0}").format(day)]
        for series in self._series:
            damage = series.damage_on(day)
            state = wound_state(damage, track.hp, track.thresholds)
            lines.append(tr(_CTX, "{0}: damage {1} ({2})").format(
                    series.label, damage, state.label))
        return "\n".join(lines)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            if self._track is not None and self.plot_rect().contains(QPointF(event.pos())):
                QToolTip.showText(event.globalPos(),
                                  self.tooltip_text(self.day_at(event.pos().x())), self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    # ------------------------------------------------------------------------ colours

    def _colors(self) -> TrackColors:
        return TrackColors.from_palette(self.palette())

    def line_color(self, series: ChartSeries) -> QColor:
        """The plan's colour, lightened on a dark plot just enough to stand out (3:1)."""
        colors = self._colors()
        return legible(series.color, colors.background, colors.text, AA_GRAPHICS)

    def label_color(self, series: ChartSeries) -> QColor:
        """Text in the plan's colour ("healed day 12"), readable on the plot (4.5:1)."""
        colors = self._colors()
        return legible(series.color, colors.background, colors.text)

    # ----------------------------------------------------------------------- painting

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colors = self._colors()
        painter.fillRect(self.rect(), colors.window)
        track = self._track
        if track is None:
            painter.setPen(colors.muted)
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter,
                             self._empty_text)
            painter.end()
            return
        plot = self.plot_rect()
        painter.fillRect(plot, colors.background)
        self._paint_bands(painter, track, plot, colors)
        self._paint_axes(painter, track, plot, colors)
        for index, series in enumerate(self._series):
            self._paint_series(painter, series, index, plot, colors)
        self._paint_labels(painter, colors)
        self._paint_legend(painter, plot, colors)
        painter.setPen(QPen(colors.frame, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(plot)
        painter.end()

    def _paint_bands(self, painter: QPainter, track: DamageTrack, plot: QRectF,
                     colors: TrackColors) -> None:
        metrics = QFontMetricsF(self.font())
        for band in track.bands:
            rect = self.band_rect(band)
            painter.fillRect(rect, colors.fill(band.state))
            if self.band_text(band) is None:
                # Too thin for its name: the HP bar's hatching tells the band instead.
                paint_band_pattern(painter, rect, band.state, metrics.height(), colors)

    def band_rect(self, band: Band) -> QRectF:
        """Where ``band`` is filled on the plot."""
        plot = self.plot_rect()
        if self._track is None:
            return QRectF()
        low, high = self._track.band_span(band)
        top, bottom = self.y_for_position(high), self.y_for_position(low)
        return QRectF(plot.left(), top, plot.width(), bottom - top)

    def band_text(self, band: Band) -> str | None:
        """The zone label written in ``band`` ("Seriously Wounded 8–15", or "SW 8–15"),
        or None when the band is too thin for a line of text (it is hatched instead)."""
        track = self._track
        metrics = QFontMetricsF(self.font())
        rect = self.band_rect(band)
        if track is None or rect.height() < metrics.height() * 0.9:
            return None
        span = f"{band.start}+" if band.end >= track.capacity else f"{band.start}–{band.end}"
        text = f"{band.label} {span}"
        if metrics.horizontalAdvance(text) > rect.width() * 0.5:
            text = f"{band_initials(band.label)} {span}"
        return text

    def _paint_axes(self, painter: QPainter, track: DamageTrack, plot: QRectF,
                    colors: TrackColors) -> None:
        """Damage on the left as the HP bar fills (damage d reaches the top of box d),
        with the track's threshold lines; days along the bottom."""
        metrics = QFontMetricsF(self.font())
        line = metrics.height()
        gap = line * 0.3
        for mark in track.marks:
            y = self.y_for_position(mark.position)
            painter.setPen(QPen(colors.frame, 1.0, Qt.PenStyle.DotLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        hp_y = self.y_for_position(track.hp_position)
        painter.setPen(QPen(colors.mark, 1.5))
        painter.drawLine(QPointF(plot.left(), hp_y), QPointF(plot.right(), hp_y))
        step = next(
            (s for s in (1, 2, 3, 5, 10, 15, 20, 30, 50, 100, 200, 500, 1000)
             if plot.height() * s / track.capacity >= line * 1.4),
            track.capacity,
        )
        painter.setPen(colors.label)
        for value in range(0, track.capacity + 1, step):
            y = self.y_for_damage(value)
            painter.setPen(QPen(colors.frame, 1.0))
            painter.drawLine(QPointF(plot.left() - gap, y), QPointF(plot.left(), y))
            painter.setPen(colors.label)
            painter.drawText(QRectF(0, y - line / 2, plot.left() - gap * 2, line),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             str(value))
        painter.save()
        painter.translate(line * 0.1, plot.center().y())
        painter.rotate(-90)
        painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), line),
                         Qt.AlignmentFlag.AlignCenter, tr(_CTX, "damage"))
        painter.restore()
        # Days.
        max_ticks = int(plot.width() // (metrics.horizontalAdvance("000") * 2.2))
        for day in day_ticks(self.last_day, max_ticks):
            x = self.x_for_day(day)
            painter.setPen(QPen(colors.frame, 1.0))
            painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + gap))
            painter.setPen(colors.label)
            painter.drawText(QRectF(x - line * 2, plot.bottom() + gap, line * 4, line),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                             str(day))
        painter.drawText(
            QRectF(plot.left(), plot.bottom() + gap + line, plot.width(), line),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, tr(_CTX, "days from now"))

    def _pen(self, series: ChartSeries, width: float) -> QPen:
        pen = QPen(self.line_color(series), width)
        if series.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        return pen

    def _paint_series(self, painter: QPainter, series: ChartSeries, index: int,
                      plot: QRectF, colors: TrackColors) -> None:
        line = self._font_height()
        width = max(2.0, line / 7)
        # Days an immobile character is asked to move: nothing heals.
        painter.save()
        bad = QColor(0xC6, 0x28, 0x28)
        for first, last in _ranges(series.impossible_days):
            left, right = self.x_for_day(first - 1), self.x_for_day(last)
            y = plot.top() + index * line * 0.35
            painter.fillRect(QRectF(left, y, max(1.0, right - left), line * 0.3), bad)
        # Therapy after full healing.
        for first, last in _ranges(series.therapy_days):
            left, right = self.x_for_day(first - 1), self.x_for_day(last)
            y = plot.bottom() - line * (0.45 + index * 0.5)
            therapy = QColor(series.color)
            therapy.setAlpha(110)
            painter.fillRect(QRectF(left, y, max(1.0, right - left), line * 0.4), therapy)
        painter.restore()
        # The staircase.
        path = QPainterPath(QPointF(self.x_for_day(0), self.y_for_damage(series.start_damage)))
        previous = series.start_damage
        for day, damage in series.steps:
            x = self.x_for_day(day)
            path.lineTo(QPointF(x, self.y_for_damage(previous)))
            path.lineTo(QPointF(x, self.y_for_damage(damage)))
            previous = damage
        painter.setPen(self._pen(series, width))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        # State changes.
        ink = self.line_color(series)
        painter.setBrush(ink)
        painter.setPen(QPen(colors.background, 1.0))
        radius = line * 0.22
        for day, damage in series.state_changes:
            painter.drawEllipse(QPointF(self.x_for_day(day), self.y_for_damage(damage)),
                                radius, radius)
        # End of the plan's own days, and the day fully healed.
        painter.setPen(QPen(ink, 1.0, Qt.PenStyle.DotLine))
        if 0 < series.plan_days < self.last_day:
            x = self.x_for_day(series.plan_days)
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        if series.healed_day:
            x = self.x_for_day(series.healed_day)
            painter.setPen(QPen(ink, 1.0, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))

    # ------------------------------------------------------------------------ labels

    def label_layout(self) -> list[ChartLabel]:
        """The labels on the plot, placed so that no two overlap.

        Placed in order of importance: the HP line's "HP n" (above its line, else below),
        then each plan's "healed day n" (beside its line, on the first row down that is
        free), then the zone names (full, else initials); a label with no free place is
        left out rather than drawn over another. Zones too thin for a name are hatched.
        """
        track = self._track
        if track is None:
            return []
        plot = self.plot_rect()
        metrics = QFontMetricsF(self.font())
        line = metrics.height()
        gap = line * 0.3
        placed: list[ChartLabel] = []

        def free(rect: QRectF) -> bool:
            return plot.contains(rect) and not any(
                rect.intersects(other.rect) for other in placed)

        def width_of(text: str) -> float:
            return metrics.horizontalAdvance(text) + line * 0.4

        hp_text = tr(_CTX, "HP {0}").format(track.hp)
        hp_y = self.y_for_position(track.hp_position)
        hp_width = width_of(hp_text)
        hp_left = plot.right() - gap - hp_width
        for top in (hp_y - line * 1.05, hp_y + line * 0.05):
            rect = QRectF(hp_left, top, hp_width, line)
            if free(rect):
                placed.append(ChartLabel("hp", hp_text, rect))
                break
        for index, series in enumerate(self._series):
            if not series.healed_day:
                continue
            text = tr(_CTX, "{0}: healed day {1}").format(series.label, series.healed_day)
            width = width_of(text)
            x = self.x_for_day(series.healed_day)
            lefts = (x + line * 0.2, x - width - line * 0.2)
            top = plot.top() + line * (0.8 + 1.1 * index)
            found = None
            while found is None and top + line <= plot.bottom():
                found = next((QRectF(left, top, width, line) for left in lefts
                              if free(QRectF(left, top, width, line))), None)
                top += line * 1.1
            if found is not None:
                placed.append(ChartLabel("healed", text, found, series=index))
        for band in track.bands:
            name = self.band_text(band)
            if name is None:
                continue
            centre = self.band_rect(band).center().y()
            span = name.split(" ")[-1]
            for candidate in dict.fromkeys((name, f"{band_initials(band.label)} {span}")):
                rect = QRectF(plot.left() + gap, centre - line / 2, width_of(candidate), line)
                if free(rect):
                    placed.append(ChartLabel("band", candidate, rect, band=band))
                    break
        return placed

    def _paint_labels(self, painter: QPainter, colors: TrackColors) -> None:
        gap = self._font_height() * 0.2
        for label in self.label_layout():
            if label.kind == "hp":
                painter.setPen(colors.mark)
            elif label.kind == "healed" and label.series is not None:
                painter.setPen(self.label_color(self._series[label.series]))
            elif label.band is not None:
                painter.setPen(colors.band_label(label.band.state))
            painter.drawText(label.rect.adjusted(gap, 0, 0, 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             label.text)

    def _paint_legend(self, painter: QPainter, plot: QRectF, colors: TrackColors) -> None:
        metrics = QFontMetricsF(self.font())
        line = metrics.height()
        y = line * 0.4
        x = plot.left()
        if self._title:
            bold = QFont(self.font())
            bold.setBold(True)
            painter.setFont(bold)
            painter.setPen(colors.label)
            width = QFontMetricsF(bold).horizontalAdvance(self._title)
            painter.drawText(QRectF(x, y, width + 2, line), Qt.AlignmentFlag.AlignVCenter,
                             self._title)
            painter.setFont(self.font())
            x += width + line
        for series in self._series:
            sample = line * 1.6
            painter.setPen(self._pen(series, max(2.0, line / 7)))
            painter.drawLine(QPointF(x, y + line / 2), QPointF(x + sample, y + line / 2))
            x += sample + line * 0.3
            painter.setPen(colors.label)
            width = metrics.horizontalAdvance(series.label)
            painter.drawText(QRectF(x, y, width + 2, line), Qt.AlignmentFlag.AlignVCenter,
                             series.label)
            x += width + line
        # Key for the markers, as much of it as fits.
        keys = [tr(_CTX, "● state changes"), tr(_CTX, "▬ therapy"), tr(_CTX,
                "red bar: immobile, no healing")]
        while keys and metrics.horizontalAdvance("   ".join(keys)) > plot.right() - x:
            keys.pop()
        if keys:
            painter.setPen(colors.muted)
            painter.drawText(QRectF(x, y, plot.right() - x, line),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             "   ".join(keys))
