"""Pure QPainter drawing of the damage box chart, in either layout of
:mod:`mneme_desktop.rules.box_chart`: rows of three (one row per wound-penalty step) or the
MegaTraveller Personal Integrity Record (six-box columns, the boxes HP does not reach
crossed off from the bottom of the last column).

The widget and the exporters call these functions, so screen and paper agree. Which box
records which point, its band and whether it is past HP come from
:func:`mneme_desktop.rules.track.damage_track` through
:func:`mneme_desktop.rules.box_chart.box_chart`; nothing is recomputed here. Colours,
pens and hatching are the HP bar's (:mod:`.track_painter`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QPaintDevice, QPainter, QPolygonF

from mneme_desktop.drawing.track_painter import (
    TrackColors,
    _hatch,
    _line_width,
    _metrics,
    _pen,
)
from mneme_desktop.rules.box_chart import BoxChart, ChartStyle, box_chart
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.rules.wounds import WoundState

__all__ = [
    "BoxChartLayout",
    "box_at",
    "box_chart_layout",
    "box_chart_size_hint",
    "paint_box_chart",
]

_SECTION_GAP = 0.6
"""The room past HP is set this many box sides below the record on the MegaTraveller chart."""


class BoxChartLayout(NamedTuple):
    """Where the box chart's parts go: one rect per box (by index), the row-label column,
    the annotation column, the box side and the gap between boxes; the boxes crossed off
    before play, the column-label strip and each row's top (both layouts' rows)."""

    boxes: dict[int, QRectF]
    labels: QRectF
    notes: QRectF
    side: float
    gap: float
    crossed: tuple[QRectF, ...] = ()
    header: QRectF = QRectF()
    row_tops: tuple[float, ...] = ()


def _row_notes(track: DamageTrack, chart: BoxChart) -> dict[int, str]:
    """Annotation per row: where each wound state begins. Every band whose colour fills a
    box is named, the first (Wounded, from 1) too, so no band is told by colour alone."""
    rows = {cell.index: cell.row for cell in chart.cells if cell.index is not None}
    starts = [(mark.value, mark.state) for mark in track.marks]
    marked = {state for _value, state in starts}
    starts += [(band.start, band.state) for band in track.bands if band.state not in marked]
    notes: dict[int, str] = {}
    for value, state in sorted(starts, key=lambda start: start[0]):
        row = rows.get(value)
        if row is None:
            continue
        text = f"{track.label_of(state)} from {value}"
        if state is WoundState.DYING:
            text += f" (past {track.unit} {track.hp})"
        notes[row] = f"{notes[row]}; {text}" if row in notes else text
    return notes


class _Metrics(NamedTuple):
    side: float
    gap: float
    label_w: float
    note_w: float
    header_h: float


def _chart_metrics(
    track: DamageTrack, chart: BoxChart, font: QFont, device: QPaintDevice | None
) -> _Metrics:
    """Preferred box side, gap, row-label width, annotation width and column-label height."""
    metrics = _metrics(font, device)
    fh = metrics.height()
    bold = QFont(font)
    bold.setBold(True)
    bold_metrics = _metrics(bold, device)
    side = round(fh * 1.35)
    gap = max(2.0, round(side * 0.2))
    label_w = max((bold_metrics.horizontalAdvance(label) for label in chart.row_labels), default=0)
    label_w += fh * 1.3
    notes = _row_notes(track, chart).values()
    note_w = max((metrics.horizontalAdvance(note) for note in notes), default=0.0)
    note_w = note_w + fh * 0.8 if note_w else 0.0
    header_h = fh * 1.1 if chart.column_labels else 0.0
    return _Metrics(side, gap, label_w, note_w, header_h)


def _section(chart: BoxChart) -> float:
    """Extra height, in box sides, between the record and the room past HP."""
    return _SECTION_GAP if chart.section_row is not None else 0.0


def box_chart_size_hint(
    track: DamageTrack,
    font: QFont,
    device: QPaintDevice | None = None,
    style: ChartStyle = ChartStyle.ROWS_OF_THREE,
) -> QSizeF:
    """The size the box chart wants: boxes about a line and a third high, with the penalty
    labels on the left, the threshold notes on the right and, on the record, the column
    labels above."""
    chart = box_chart(track, style)
    side, gap, label_w, note_w, header_h = _chart_metrics(track, chart, font, device)
    width = label_w + chart.columns * side + (chart.columns - 1) * gap + note_w
    rows = chart.rows
    height = header_h + rows * side + max(0, rows - 1) * gap + _section(chart) * side
    return QSizeF(math.ceil(width) + 2, math.ceil(height) + 2)


def _layout(
    rect: QRectF, track: DamageTrack, chart: BoxChart, font: QFont, device: QPaintDevice | None
) -> BoxChartLayout:
    side, gap, label_w, note_w, header_h = _chart_metrics(track, chart, font, device)
    ratio = gap / side
    fh = _metrics(font, device).height()
    rows = max(1, chart.rows)
    columns = chart.columns
    section = _section(chart)
    fit_h = (rect.height() - header_h) / (rows + (rows - 1) * ratio + section)
    fit_w = (rect.width() - label_w - min(note_w, fh * 4)) / (columns + (columns - 1) * ratio)
    side = max(4.0, min(side, fit_h, fit_w))
    gap = max(1.0, side * ratio)
    # Whole logical pixels keep box edges sharp on screen.
    side, gap = float(math.floor(side)), float(max(1, round(gap)))
    extra = float(round(section * side))
    left = math.floor(rect.left() + label_w)
    header = QRectF(left, math.floor(rect.top()) + 1, columns * (side + gap), header_h)
    top = math.floor(rect.top() + header_h) + 1
    row_tops = tuple(
        top + row * (side + gap)
        + (extra if chart.section_row is not None and row >= chart.section_row else 0.0)
        for row in range(rows)
    )

    def place(row: int, column: int) -> QRectF:
        return QRectF(left + column * (side + gap), row_tops[row], side, side)

    boxes = {cell.index: place(cell.row, cell.column) for cell in chart.boxes
             if cell.index is not None}
    crossed = tuple(place(cell.row, cell.column) for cell in chart.crossed_off)
    grid_right = left + columns * side + (columns - 1) * gap
    grid_height = row_tops[-1] + side - top
    labels = QRectF(rect.left(), top, left - rect.left(), grid_height)
    notes = QRectF(grid_right, top, max(0.0, rect.right() - grid_right), grid_height)
    return BoxChartLayout(boxes, labels, notes, side, gap, crossed, header, row_tops)


def box_chart_layout(
    rect: QRectF,
    track: DamageTrack,
    font: QFont,
    device: QPaintDevice | None = None,
    style: ChartStyle = ChartStyle.ROWS_OF_THREE,
) -> BoxChartLayout:
    """Place the boxes in ``rect``: the preferred size when there is room, shrunk to fit
    when not; the rows and columns come from the chart's geometry in ``style``."""
    return _layout(rect, track, box_chart(track, style), font, device)


def box_at(
    rect: QRectF,
    track: DamageTrack,
    point: QPointF,
    font: QFont | None = None,
    device: QPaintDevice | None = None,
    style: ChartStyle = ChartStyle.ROWS_OF_THREE,
) -> int | None:
    """The index of the box under ``point`` (gaps count as the nearer box), or None; a box
    crossed off before play is no box. Pass the font the chart was drawn with (the default
    is the application font)."""
    layout = box_chart_layout(rect, track, QFont() if font is None else font, device, style)
    half = layout.gap / 2
    for index, box_rect in layout.boxes.items():
        if box_rect.adjusted(-half, -half, half, half).contains(point):
            return index
    return None


def _cross(painter: QPainter, rect: QRectF, inset: float) -> None:
    cross = rect.adjusted(inset, inset, -inset, -inset)
    painter.drawLine(QLineF(cross.topLeft(), cross.bottomRight()))
    painter.drawLine(QLineF(cross.topRight(), cross.bottomLeft()))


def paint_box_chart(
    painter: QPainter,
    rect: QRectF,
    track: DamageTrack,
    colors: TrackColors,
    font: QFont,
    *,
    show_damage: bool = True,
    style: ChartStyle = ChartStyle.ROWS_OF_THREE,
) -> None:
    """Draw the damage as a box chart: each row labelled with its wound penalty, damaged
    boxes crossed with an X, boxes past HP hatched as the dying zone, and a bold line
    where each wound state begins. On the MegaTraveller record the columns are labelled
    with the points they complete and the boxes HP does not reach are crossed off in
    grey. ``show_damage=False`` gives a blank form for paper."""
    chart = box_chart(track, style)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(font)
    device = painter.device()
    metrics = _metrics(font, device)
    fh = metrics.height()
    thin = _line_width(fh)
    layout = _layout(rect, track, chart, font, device)
    side = layout.side

    frame_pen = _pen(colors.frame, thin)  # one pen for every box's frame
    no_brush = Qt.BrushStyle.NoBrush
    for cell in chart.boxes:
        assert cell.index is not None and cell.state is not None
        box_rect = layout.boxes[cell.index]
        painter.fillRect(box_rect, colors.fill(cell.state))
        if cell.beyond_hp:
            _hatch(painter, box_rect, cell.state, fh * 0.8, colors.hatch)
        painter.setPen(frame_pen)
        painter.setBrush(no_brush)
        painter.drawRect(box_rect.adjusted(thin / 2, thin / 2, -thin / 2, -thin / 2))
        if show_damage and cell.damaged:
            pen = _pen(colors.text, max(1.5, side / 9))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            _cross(painter, box_rect, side * 0.18)
    _paint_crossed_off(painter, layout, colors, thin)
    _paint_column_labels(painter, layout, chart, colors, metrics.height())

    _paint_chart_thresholds(painter, layout, track, chart, colors, fh)
    _paint_row_labels(painter, layout, track, chart, colors, font, show_damage)

    painter.setFont(font)
    painter.setPen(colors.label)
    pad = fh * 0.5
    for row, text in _row_notes(track, chart).items():
        top = layout.row_tops[row]
        area = QRectF(layout.notes.left() + pad, top, layout.notes.width() - pad, side)
        if area.width() <= fh:
            continue
        shown = text
        if metrics.horizontalAdvance(shown) > area.width():
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(
            area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown
        )
    painter.restore()


def _paint_crossed_off(
    painter: QPainter, layout: BoxChartLayout, colors: TrackColors, thin: float
) -> None:
    """The boxes HP does not reach, crossed off before play: a grey frame and a grey X on
    the window colour, so they never read as damage (black X on a band colour)."""
    pen = _pen(colors.muted, max(thin, layout.side / 14))
    for box_rect in layout.crossed:
        painter.fillRect(box_rect, colors.window)
        painter.setPen(_pen(colors.muted, thin))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(box_rect.adjusted(thin / 2, thin / 2, -thin / 2, -thin / 2))
        painter.setPen(pen)
        _cross(painter, box_rect, layout.side * 0.12)


def _paint_column_labels(
    painter: QPainter, layout: BoxChartLayout, chart: BoxChart, colors: TrackColors, fh: float
) -> None:
    """The record's column heads: the points each column completes (6, 12, 18...)."""
    if not chart.column_labels:
        return
    painter.setPen(colors.muted)
    step = layout.side + layout.gap
    for column, text in enumerate(chart.column_labels):
        area = QRectF(layout.header.left() + column * step - layout.gap / 2,
                      layout.header.top(), step, layout.header.height())
        painter.drawText(
            area, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom), text
        )


def _paint_row_labels(
    painter: QPainter,
    layout: BoxChartLayout,
    track: DamageTrack,
    chart: BoxChart,
    colors: TrackColors,
    font: QFont,
    show_damage: bool,
) -> None:
    """Each row's wound penalty on the left; the row the next point of damage falls in
    (whose penalty applies now) is bold and marked with a pointer."""
    current_row = None
    if show_damage:
        for cell in chart.boxes:
            if cell.index == track.damage + 1:
                current_row = cell.row
    bold = QFont(font)
    bold.setBold(True)
    metrics = _metrics(font, painter.device())
    pad = metrics.height() * 0.4
    for row, label in enumerate(chart.row_labels):
        top = layout.row_tops[row]
        area = QRectF(layout.labels.left(), top, layout.labels.width() - pad, layout.side)
        is_current = row == current_row
        painter.setFont(bold if is_current else font)
        painter.setPen(colors.label if is_current else colors.muted)
        painter.drawText(
            area,
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            label,
        )
        if is_current:
            size = metrics.height() * 0.3
            x = layout.labels.left() + size * 0.3
            y = area.center().y()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colors.label)
            painter.drawPolygon(
                QPolygonF([QPointF(x, y - size), QPointF(x + size * 1.3, y), QPointF(x, y + size)])
            )
    painter.setFont(font)


def _row_right(layout: BoxChartLayout, chart: BoxChart, row: int) -> float:
    """The right edge of the last box in ``row`` (crossed-off ones included)."""
    last = max((cell.column for cell in chart.cells if cell.row == row), default=0)
    return layout.labels.right() + last * (layout.side + layout.gap) + layout.side


def _paint_chart_thresholds(
    painter: QPainter,
    layout: BoxChartLayout,
    track: DamageTrack,
    chart: BoxChart,
    colors: TrackColors,
    fh: float,
) -> None:
    """A bold stepped line in the gaps between the last box before each threshold and
    the first box of the new wound state, in reading order (left to right, top down)."""
    cells = {cell.index: cell for cell in chart.boxes}
    half = layout.gap / 2
    grid_left = layout.labels.right()
    for mark in track.marks:
        first = cells.get(mark.value)
        if first is None or first.index is None:
            continue
        rect = layout.boxes[first.index]
        width = max(2.0, fh / 6) if mark.state is WoundState.DYING else max(1.5, fh / 9)
        pen = _pen(colors.mark, width)
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        painter.setPen(pen)
        x = rect.left() - half
        top = rect.top() - half
        bottom = rect.bottom() + half
        if first.row > 0:
            right = max(_row_right(layout, chart, first.row - 1),
                        _row_right(layout, chart, first.row))
            painter.drawLine(QLineF(x, top, right + half, top))
        if first.column > 0:
            painter.drawLine(QLineF(x, top, x, bottom))
            if first.row < chart.rows - 1:
                painter.drawLine(QLineF(grid_left - half, bottom, x, bottom))
