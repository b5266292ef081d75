"""Pure QPainter drawing of the damage track: the HP threshold bar, and the colours, pens
and hatching the box chart (:mod:`.box_chart_painter`) shares with it.

The widgets and the PDF exporter call the same functions, so screen and paper always agree.
Every number drawn here (bands, thresholds, tally groups, boxes, row labels) comes from
:func:`mneme_desktop.rules.track.damage_track`; nothing is recomputed.

All sizes derive from the font's height on the target device, so the drawing is crisp at
any device pixel ratio and on any paint device (widget, QImage, QPdfWriter). Bands are told
apart without colour by hatching density, labels and numbered threshold ticks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPaintDevice,
    QPainter,
    QPalette,
    QPen,
    QPolygonF,
)

from mneme_desktop.drawing.contrast import legible
from mneme_desktop.rules.track import BOXES_PER_ROW, Band, DamageTrack, ThresholdMark
from mneme_desktop.rules.wounds import WoundState

__all__ = [
    "BandColors",
    "HpBarLayout",
    "TrackColors",
    "band_initials",
    "bar_unit_center",
    "bar_value_at",
    "click_value",
    "describe_track",
    "hp_bar_layout",
    "hp_bar_size_hint",
    "paint_band_pattern",
    "paint_hp_bar",
    "track_tooltip",
]

_BAND_HUES = {
    WoundState.WOUNDED: QColor(0xCC, 0xB0, 0x00),
    WoundState.SERIOUSLY_WOUNDED: QColor(0xE6, 0x5C, 0x00),
    WoundState.CRITICALLY_WOUNDED: QColor(0xD3, 0x2F, 0x2F),
    WoundState.DYING: QColor(0x7B, 0x1F, 0xA2),
}

# Hatch spacing in font heights: the worse the state, the denser the lines, so the bands
# read in greyscale and for colour-blind referees. Dying is cross-hatched.
_HATCH_SPACING = {
    WoundState.WOUNDED: 0.9,
    WoundState.SERIOUSLY_WOUNDED: 0.5,
    WoundState.CRITICALLY_WOUNDED: 0.3,
    WoundState.DYING: 0.42,
}

_PRINT_GREYS = {
    WoundState.WOUNDED: (246, 175),
    WoundState.SERIOUSLY_WOUNDED: (232, 145),
    WoundState.CRITICALLY_WOUNDED: (216, 115),
    WoundState.DYING: (200, 85),
}


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * t,
        a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t,
        1.0,
    )


class BandColors(NamedTuple):
    """A band's colour on the undamaged stretch (``fill``) and the damaged one, and the
    colour its name is written in on ``fill`` (the projection chart's zone labels)."""

    state: WoundState
    fill: QColor
    damaged: QColor
    label: QColor


@dataclass(frozen=True)
class TrackColors:
    """The colours the track is drawn in: from a palette on screen, greys on paper."""

    window: QColor
    background: QColor
    text: QColor
    label: QColor
    muted: QColor
    frame: QColor
    hatch: QColor
    mark: QColor
    focus: QColor
    bands: tuple[BandColors, ...]

    def fill(self, state: WoundState) -> QColor:
        return self._band(state).fill

    def damaged(self, state: WoundState) -> QColor:
        return self._band(state).damaged

    def band_label(self, state: WoundState) -> QColor:
        """Text on the band's ``fill``: tinted with the band, at least 4.5:1 (WCAG AA)."""
        return self._band(state).label

    def hatch_for(self, state: WoundState) -> QColor:
        """Hatching on an undamaged stretch: the neutral hatch tinted with the band."""
        return _blend(self.hatch, self.damaged(state), 0.5)

    def _band(self, state: WoundState) -> BandColors:
        for band in self.bands:
            if band.state is state:
                return band
        return BandColors(state, QColor(self.background), QColor(self.muted), QColor(self.text))

    @classmethod
    def from_palette(cls, palette: QPalette) -> TrackColors:
        """Palette roles blended with a few band hues, so dark themes stay dark. Colours
        text is written in are pushed toward the palette's text until they reach AA."""
        role = QPalette.ColorRole
        base = palette.color(role.Base)
        text = palette.color(role.Text)
        window = palette.color(role.Window)
        window_text = palette.color(role.WindowText)
        bands = []
        for state, hue in _BAND_HUES.items():
            fill = _blend(base, hue, 0.25)
            label = legible(_blend(text, hue, 0.5), fill, text)
            bands.append(BandColors(state, fill, _blend(base, hue, 0.78), label))
        # Muted text (row labels, keys) sits on Window and on Base: readable on both.
        muted = legible(_blend(window, window_text, 0.55), window, window_text)
        return cls(
            window=QColor(window),
            background=QColor(base),
            text=QColor(text),
            label=QColor(window_text),
            muted=legible(muted, base, text),
            frame=_blend(base, text, 0.55),
            hatch=_blend(base, text, 0.4),
            mark=QColor(text),
            focus=palette.color(role.Highlight),
            bands=tuple(bands),
        )

    @classmethod
    def print_colors(cls) -> TrackColors:
        """Black on white with grey levels: survives a monochrome printer or photocopier."""
        white = QColor(255, 255, 255)
        black = QColor(0, 0, 0)
        bands = tuple(
            BandColors(state, QColor(light, light, light), QColor(dark, dark, dark), black)
            for state, (light, dark) in _PRINT_GREYS.items()
        )
        return cls(
            window=white,
            background=white,
            text=black,
            label=black,
            muted=QColor(96, 96, 96),
            frame=black,
            hatch=QColor(80, 80, 80),
            mark=black,
            focus=black,
            bands=bands,
        )


# ----------------------------------------------------------------------------- text


def band_initials(label: str) -> str:
    """The short form of a band name ("Seriously Wounded" -> "SW") for narrow stretches."""
    return "".join(word[0] for word in label.split() if word).upper()


def _penalty_text(penalty: int) -> str:
    return "no penalty" if penalty == 0 else f"penalty {penalty}"


def describe_track(track: DamageTrack, subject: str = "") -> str:
    """One sentence for screen readers and summaries:
    "Damage 8 of 21 HP: seriously wounded, penalty -2", or with ``subject``
    "Mara Vey: damage 8 of 21 HP: seriously wounded, penalty -2"."""
    damage = "damage" if subject else "Damage"
    text = (
        f"{damage} {track.damage} of {track.hp} {track.unit}: "
        f"{track.label_of(track.state).lower()}"
    )
    if track.penalties:
        text += f", {_penalty_text(track.penalty)}"
    return f"{subject}: {text}" if subject else text


def _thresholds_text(track: DamageTrack) -> str:
    parts = [f"{track.label_of(mark.state)} from {mark.value}" for mark in track.marks]
    return "Thresholds: " + ", ".join(parts) + f" ({track.unit} {track.hp})"


def track_tooltip(track: DamageTrack, value: int) -> str:
    """What a tooltip says about damage point ``value`` (0 = before the first box): the
    band there with the rule behind it, the penalty step it belongs to, the thresholds."""
    lines: list[str] = []
    band = track.band_at(value)
    if band is None:
        lines.append(f"{track.label_of(WoundState.UNHURT)}: no damage")
    else:
        lines.append(f"{band.label}: damage {band.start}–{band.end}")
        lines.append(band.rule_text)
        if band.state is WoundState.DYING:
            lines.append(f"Room past {track.unit} for massive damage; each box is one more "
                         "point.")
    for group in track.tally_groups if track.penalties else ():
        if group.start <= value <= group.end:
            lines.append(
                f"Wound penalty: -1 to all rolls for every 3 damage; "
                f"damage {group.start}–{group.end} completes penalty {group.penalty}"
            )
    lines.append(_thresholds_text(track))
    lines.append(f"Now: {describe_track(track)}")
    return "\n".join(lines)


def click_value(track: DamageTrack, unit: int) -> int:
    """Damage requested by clicking box/unit ``unit``: that many points, except that
    clicking the last damaged one clears it, so the track can be emptied by clicks."""
    if unit == track.damage and unit > 0:
        return unit - 1
    return max(0, min(unit, track.capacity))


# ------------------------------------------------------------------------- helpers


def _metrics(font: QFont, device: QPaintDevice | None) -> QFontMetricsF:
    return QFontMetricsF(font, device) if device is not None else QFontMetricsF(font)


def _line_width(font_height: float) -> float:
    """A thin line that still scales with the font (about 1 px at 96 dpi)."""
    return max(1.0, font_height / 16.0)


def _pen(color: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width, style)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def _hatch(
    painter: QPainter, rect: QRectF, state: WoundState, font_height: float, color: QColor
) -> None:
    """Diagonal hatching for ``state`` clipped to ``rect``; lines are anchored to the
    device origin so neighbouring stretches of one band join up."""
    if rect.width() <= 0 or rect.height() <= 0:
        return
    spacing = max(3.0, _HATCH_SPACING[state] * font_height)
    painter.save()
    painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
    painter.setPen(_pen(color, _line_width(font_height)))
    height = rect.height()
    # The rect's edges read once, not per line: a box chart draws tens of thousands of
    # hatch lines per batch of sheets.
    top, bottom = rect.top(), rect.bottom()
    end = rect.right() + height
    draw_line = painter.drawLine
    directions = (1, -1) if state is WoundState.DYING else (1,)
    for direction in directions:
        first = math.floor((rect.left() - height) / spacing) * spacing
        x = first
        # Rising lines (direction 1) run from the bottom edge up, falling ones down.
        start, stop = (bottom, top) if direction == 1 else (top, bottom)
        while x <= end:
            draw_line(QLineF(x, start, x + height, stop))
            x += spacing
    painter.restore()


def paint_band_pattern(
    painter: QPainter, rect: QRectF, state: WoundState, font_height: float, colors: TrackColors
) -> None:
    """The band's hatching, as on the HP bar, for a stretch that has no room for its name:
    the band still reads without colour."""
    _hatch(painter, rect, state, font_height, colors.hatch_for(state))


def _with_alpha(color: QColor, alpha: float) -> QColor:
    result = QColor(color)
    result.setAlphaF(alpha)
    return result


def _draw_chip(
    painter: QPainter,
    center: QPointF,
    text: str,
    colors: TrackColors,
    metrics: QFontMetricsF,
) -> None:
    """Text on a small opaque plate, so hatching and fills never hide it."""
    pad = metrics.height() * 0.25
    width = metrics.horizontalAdvance(text) + 2 * pad
    height = metrics.height() * 1.05
    plate = QRectF(center.x() - width / 2, center.y() - height / 2, width, height)
    painter.setPen(_pen(colors.frame, _line_width(metrics.height())))
    painter.setBrush(_with_alpha(colors.background, 0.9))
    radius = height * 0.25
    painter.drawRoundedRect(plate, radius, radius)
    painter.setPen(colors.text)
    painter.drawText(plate, int(Qt.AlignmentFlag.AlignCenter), text)


def _chip_width(metrics: QFontMetricsF, text: str) -> float:
    return metrics.horizontalAdvance(text) + metrics.height() * 0.5


# ---------------------------------------------------------------------------- bar


class HpBarLayout(NamedTuple):
    """Where each part of the HP bar goes; ``header``, ``tally`` and ``ticks`` are empty
    in the compact (label-less) form."""

    header: QRectF
    bar: QRectF
    tally: QRectF
    ticks: QRectF


def hp_bar_layout(
    rect: QRectF, font: QFont, *, labels: bool = True, device: QPaintDevice | None = None
) -> HpBarLayout:
    """Split ``rect`` into header line, bar, tally strip and threshold labels. The bar
    always spans the full width of ``rect``, so hit-testing needs no font."""
    if not labels:
        return HpBarLayout(QRectF(), QRectF(rect), QRectF(), QRectF())
    fh = _metrics(font, device).height()
    header_h = fh * 1.1
    gap = fh * 0.45
    tally_h = fh * 0.95
    ticks_h = fh * 1.15
    bar_h = max(fh * 1.1, rect.height() - header_h - gap - tally_h - ticks_h)
    left, width = rect.left(), rect.width()
    top = rect.top()
    header = QRectF(left, top, width, header_h)
    bar = QRectF(left, top + header_h + gap, width, bar_h)
    tally = QRectF(left, bar.bottom(), width, tally_h)
    ticks = QRectF(left, tally.bottom(), width, ticks_h)
    return HpBarLayout(header, bar, tally, ticks)


def hp_bar_size_hint(
    font: QFont, *, labels: bool = True, device: QPaintDevice | None = None
) -> QSizeF:
    """A comfortable size for the bar: about 22 characters wide."""
    fh = _metrics(font, device).height()
    if not labels:
        return QSizeF(fh * 12, fh * 0.9)
    return QSizeF(fh * 22, fh * (1.1 + 0.45 + 1.6 + 0.95 + 1.15))


def _bar_x(rect: QRectF, track: DamageTrack, value: int) -> float:
    return rect.left() + float(track.position(value)) * rect.width()


def bar_unit_center(rect: QRectF, track: DamageTrack, unit: int) -> float:
    """The x at the middle of damage point ``unit`` (1-based) on a bar drawn in ``rect``."""
    start, end = track.box_span(unit)
    return rect.left() + float(start + end) / 2 * rect.width()


def bar_value_at(rect: QRectF, track: DamageTrack, x: float) -> int:
    """The damage point under ``x``: 0 left of the bar, up to ``track.capacity`` right."""
    if rect.width() <= 0 or x < rect.left():
        return 0
    for unit in range(1, track.capacity + 1):
        _start, end = track.box_span(unit)
        if x < rect.left() + float(end) * rect.width():
            return unit
    return track.capacity


def _mark_text(track: DamageTrack, mark: ThresholdMark) -> str:
    if mark.state is WoundState.DYING:
        return f"{track.unit} {track.hp}"
    return f"{band_initials(track.label_of(mark.state))} {mark.value}"


def _band_rect(bar: QRectF, track: DamageTrack, band: Band) -> QRectF:
    start, end = track.band_span(band)
    left = bar.left() + float(start) * bar.width()
    right = bar.left() + float(end) * bar.width()
    return QRectF(left, bar.top(), right - left, bar.height())


def paint_hp_bar(
    painter: QPainter,
    rect: QRectF,
    track: DamageTrack,
    colors: TrackColors,
    font: QFont,
    *,
    labels: bool = True,
    show_damage: bool = True,
) -> None:
    """Draw the HP threshold bar for ``track`` into ``rect`` (logical coordinates).

    With ``labels`` it has the state and penalty on top, band names in the bar, tally
    marks in groups of 3 below it and numbered threshold ticks; without, a thin bar for
    table rows that still shows bands, damage, penalty steps and thresholds.
    ``show_damage=False`` is the blank form for pencil: no damage edge, and the header
    leaves the state and the damage to be written in.
    """
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(font)
    metrics = _metrics(font, painter.device())
    fh = metrics.height()
    thin = _line_width(fh)
    layout = hp_bar_layout(rect, font, labels=labels, device=painter.device())
    bar = layout.bar
    fill_x = _bar_x(bar, track, track.damage)

    painter.fillRect(bar, colors.background)
    for band in track.bands:
        band_rect = _band_rect(bar, track, band)
        damaged = QRectF(band_rect)
        damaged.setRight(min(band_rect.right(), fill_x))
        painter.fillRect(band_rect, colors.fill(band.state))
        if damaged.width() > 0:
            painter.fillRect(damaged, colors.damaged(band.state))
        _hatch(painter, band_rect, band.state, fh, colors.hatch_for(band.state))
        if damaged.width() > 0:
            _hatch(painter, damaged, band.state, fh, _with_alpha(colors.background, 0.55))

    _paint_steps(painter, bar, track, colors, fh, labels)
    _paint_marks(painter, layout, track, colors, fh)

    # The damage edge: a bold line where the damage ends, plus a pointer above the bar.
    if show_damage:
        painter.setPen(_pen(colors.mark, max(2.0, fh / 7)))
        painter.drawLine(QLineF(fill_x, bar.top(), fill_x, bar.bottom()))
    painter.setPen(_pen(colors.frame, thin))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(bar.adjusted(thin / 2, thin / 2, -thin / 2, -thin / 2))

    if labels:
        if show_damage:
            size = fh * 0.4
            pointer = QPolygonF(
                [
                    QPointF(fill_x - size * 0.7, bar.top() - size),
                    QPointF(fill_x + size * 0.7, bar.top() - size),
                    QPointF(fill_x, bar.top()),
                ]
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.mark)
            painter.drawPolygon(pointer)
        _paint_band_labels(painter, bar, track, colors, metrics)
        _paint_tallies(painter, layout.tally, track, colors, fh)
        _paint_tick_labels(painter, layout, track, colors, metrics)
        if show_damage:
            _paint_header(painter, layout.header, track, colors, metrics)
        else:
            _paint_blank_header(painter, layout.header, track, colors)
    painter.restore()


def _paint_steps(
    painter: QPainter,
    bar: QRectF,
    track: DamageTrack,
    colors: TrackColors,
    fh: float,
    labels: bool,
) -> None:
    """Short ticks on the bar's lower edge at each wound-penalty step (every 3 damage)."""
    height = min(bar.height() * 0.25, fh * 0.3) if labels else bar.height() * 0.45
    painter.setPen(_pen(colors.frame, _line_width(fh)))
    for group in track.tally_groups[:-1]:
        x = _bar_x(bar, track, group.end)
        painter.drawLine(QLineF(x, bar.bottom() - height, x, bar.bottom()))


def _paint_marks(
    painter: QPainter, layout: HpBarLayout, track: DamageTrack, colors: TrackColors, fh: float
) -> None:
    """Threshold lines across the bar (and the tally strip); HP's line is the boldest."""
    bottom = layout.tally.bottom() if not layout.tally.isEmpty() else layout.bar.bottom()
    for mark in track.marks:
        x = layout.bar.left() + float(mark.position) * layout.bar.width()
        width = max(2.0, fh / 6) if mark.state is WoundState.DYING else max(1.5, fh / 10)
        painter.setPen(_pen(colors.mark, width))
        painter.drawLine(QLineF(x, layout.bar.top(), x, bottom))


def _paint_band_labels(
    painter: QPainter,
    bar: QRectF,
    track: DamageTrack,
    colors: TrackColors,
    metrics: QFontMetricsF,
) -> None:
    room = metrics.height() * 0.4
    for band in track.bands:
        band_rect = _band_rect(bar, track, band)
        for text in (band.label, band_initials(band.label)):
            if _chip_width(metrics, text) + room <= band_rect.width():
                _draw_chip(painter, band_rect.center(), text, colors, metrics)
                break


def _paint_tallies(
    painter: QPainter, strip: QRectF, track: DamageTrack, colors: TrackColors, fh: float
) -> None:
    """Tally marks in groups of 3, one group per wound-penalty step: a stroke per damage
    point, the group struck through once complete (the penalty has gone up)."""
    pad = strip.height() * 0.15
    top, bottom = strip.top() + pad, strip.bottom() - pad
    strong = _pen(colors.label, max(1.5, fh / 9))
    faint = _pen(colors.muted, _line_width(fh) * 0.75)
    for group in track.tally_groups:
        left = _bar_x(strip, track, group.start - 1)
        right = _bar_x(strip, track, group.end)
        center = (left + right) / 2
        spacing = min((right - left) / BOXES_PER_ROW * 0.55, fh * 0.3)
        xs = []
        for offset, unit in enumerate(range(group.start, group.end + 1)):
            x = center + (offset - (BOXES_PER_ROW - 1) / 2) * spacing
            xs.append(x)
            painter.setPen(strong if unit <= track.damage else faint)
            painter.drawLine(QLineF(x, top, x, bottom))
        if track.damage >= group.end:
            painter.setPen(strong)
            reach = spacing * 0.7
            painter.drawLine(QLineF(xs[0] - reach, bottom, xs[-1] + reach, top))


def _paint_tick_labels(
    painter: QPainter,
    layout: HpBarLayout,
    track: DamageTrack,
    colors: TrackColors,
    metrics: QFontMetricsF,
) -> None:
    """Numbers under the threshold lines, nudged apart when thresholds sit close."""
    area = layout.ticks
    gap = metrics.height() * 0.3
    placed_right = area.left() - gap
    painter.setPen(colors.label)
    for mark in track.marks:
        x = area.left() + float(mark.position) * area.width()
        for text in (_mark_text(track, mark), str(mark.value)):
            width = metrics.horizontalAdvance(text)
            left = min(max(x - width / 2, area.left()), area.right() - width)
            left = max(left, placed_right + gap)
            if left + width <= area.right() and abs(left + width / 2 - x) <= width:
                painter.drawText(
                    QRectF(left, area.top(), width, area.height()),
                    int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop),
                    text,
                )
                placed_right = left + width
                break


def _paint_header(
    painter: QPainter,
    header: QRectF,
    track: DamageTrack,
    colors: TrackColors,
    metrics: QFontMetricsF,
) -> None:
    """The state and penalty on the left, damage against HP on the right."""
    amount = f"{track.damage} / {track.hp} {track.unit}"
    amount_width = metrics.horizontalAdvance(amount)
    state_width = header.width() - amount_width - metrics.height()
    painter.setPen(colors.label)
    bold = QFont(painter.font())
    bold.setBold(True)
    painter.save()
    painter.setFont(bold)
    bold_metrics = QFontMetricsF(bold, painter.device())
    # Shorter forms before eliding, so a narrow bar still shows the penalty.
    label = track.label_of(track.state)
    short = band_initials(label)
    penalty = _penalty_text(track.penalty)
    number = str(track.penalty) if track.penalty else penalty
    forms = [f"{label} · {penalty}", f"{label} · {number}", f"{short} · {penalty}"]
    forms.append(f"{short} · {number}")
    if not track.penalties:  # a thing: no wound penalty to show
        forms = [label, short]
    state = next((t for t in forms if bold_metrics.horizontalAdvance(t) <= state_width), forms[-1])
    if state_width > 0:
        painter.drawText(
            QRectF(header.left(), header.top(), state_width, header.height()),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            bold_metrics.elidedText(state, Qt.TextElideMode.ElideRight, state_width),
        )
    painter.restore()
    painter.drawText(
        header,
        int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
        amount,
    )


def _paint_blank_header(
    painter: QPainter, header: QRectF, track: DamageTrack, colors: TrackColors
) -> None:
    """The blank form's header: a line for the wound state, and one for the damage."""
    state, amount = "State: ______________", f"______ / {track.hp} {track.unit}"
    painter.setPen(colors.label)
    painter.drawText(header, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     state)
    painter.drawText(header, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                     amount)
