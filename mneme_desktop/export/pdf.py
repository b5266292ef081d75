"""Print and PDF: the document model laid out and painted with QPainter.

One code path for paper and PDF: :func:`render_document` paints onto any
``QPagedPaintDevice`` (a ``QPdfWriter`` for files, a ``QPrinter`` for the print dialog and
its preview). Layout happens in the device's own coordinates (device pixels at its
resolution, sizes given in points and converted), so nothing is scaled after measuring and
a 1200 dpi PDF is laid out exactly as it is painted: :mod:`.typesetting` measures,
:mod:`.block_layout` turns blocks into pieces, :mod:`.pagination` flows them onto pages and
this module paints them.

The damage tracks are painted by :mod:`mneme_desktop.drawing.track_painter` and
:mod:`~mneme_desktop.drawing.box_chart_painter`, the same
functions the on-screen widgets use, in print colours.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, Qt
from PySide6.QtGui import (
    QColor,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.drawing.box_chart_painter import paint_box_chart
from mneme_desktop.drawing.track_painter import TrackColors, paint_hp_bar
from mneme_desktop.export.document import ExportDocument, TrackKind
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.files import write_file_atomically
from mneme_desktop.export.fonts import ensure_gui_application
from mneme_desktop.export.pagination import DocumentLayout, layout_document, record_placements
from mneme_desktop.export.placement import BoxOp, LineOp, RenderResult, TextOp, TrackOp
from mneme_desktop.export.typesetting import BLACK, text_flags
from mneme_desktop.settings import PageSize

__all__ = [
    "MARGIN_MM",
    "PDF_RESOLUTION",
    "configure_device",
    "page_layout",
    "paint_layout",
    "pdf_bytes",
    "render_document",
    "write_pdf",
]

MARGIN_MM = 12.0
"""Page margin: inside the unprintable border of every common office printer."""

PDF_RESOLUTION = 1200
"""Device pixels per inch of the PDF writer: fine enough that no position is rounded."""

_PAGE_SIZES = {PageSize.A4: QPageSize.PageSizeId.A4, PageSize.LETTER: QPageSize.PageSizeId.Letter}


# --- painting ------------------------------------------------------------------------------


def _grey(level: int) -> QColor:
    return QColor(level, level, level)


class _Inks:
    """The greys and pens of one painting run, each built once and reused for every op
    that asks for the same one (QPainter copies what it is given, so sharing is safe)."""

    def __init__(self) -> None:
        self.black = _grey(BLACK)
        self._greys: dict[int, QColor] = {BLACK: self.black}
        self._pens: dict[tuple[int, float, bool], QPen] = {}

    def grey(self, level: int) -> QColor:
        color = self._greys.get(level)
        if color is None:
            color = self._greys[level] = _grey(level)
        return color

    def pen(self, level: int, width: float, flat: bool) -> QPen:
        """A pen of ``level`` grey; ``flat`` ends for rules, Qt's default ends for frames."""
        key = (level, width, flat)
        pen = self._pens.get(key)
        if pen is None:
            pen = QPen(self.grey(level), width)
            if flat:
                pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            self._pens[key] = pen
        return pen


def _start_paper_page(painter: QPainter, black: QColor) -> None:
    """Record the ink colour at the top of every page, whatever the app's theme.

    The print preview records each page as a QPicture and replays it on a widget painter
    whose pen comes from the application palette (near-white in the dark theme). QPainter
    skips a setPen equal to the current pen, so black text painted before any other pen
    was never recorded and came out near-white. Changing the pen first forces black in."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(black)


def paint_layout(painter: QPainter, device: QPagedPaintDevice, layout: DocumentLayout) -> None:
    """Paint laid-out pages with an active painter on ``device``, starting new pages."""
    setter = layout.setter
    colors = TrackColors.print_colors()
    inks = _Inks()
    black = inks.black
    no_brush = Qt.BrushStyle.NoBrush
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    for number, page in enumerate(layout.pages):
        if number > 0 and not device.newPage():
            raise ExportError("The printer or PDF writer refused to start a new page.")
        _start_paper_page(painter, black)
        for op in page.ops:
            if type(op) is TextOp:
                painter.setFont(setter.font(op.role))
                painter.setPen(black)
                painter.drawText(op.rect, text_flags(op.align), op.text)
            elif type(op) is LineOp:
                painter.setPen(inks.pen(op.grey, op.width, True))
                painter.drawLine(op.line)
            elif type(op) is BoxOp:
                if op.fill is not None:
                    painter.fillRect(op.rect, inks.grey(op.fill))
                if op.stroke is not None:
                    painter.setPen(inks.pen(op.stroke, op.width, False))
                    painter.setBrush(no_brush)
                    painter.drawRect(op.rect)
            else:
                assert type(op) is TrackOp
                font = setter.font_of(op.font_size)
                if op.block.kind is TrackKind.BAR:
                    paint_hp_bar(painter, op.rect, op.block.track, colors, font, labels=True,
                                 show_damage=op.block.show_damage)
                else:
                    paint_box_chart(painter, op.rect, op.block.track, colors, font,
                                    show_damage=op.block.show_damage, style=op.block.chart)


def page_layout(page_size: PageSize) -> QPageLayout:
    """Portrait ``page_size`` with the sheet margins."""
    return QPageLayout(
        QPageSize(_PAGE_SIZES[page_size]),
        QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )


def configure_device(device: QPagedPaintDevice, page_size: PageSize) -> None:
    """Set the page size and margins on a PDF writer or printer."""
    if not device.setPageLayout(page_layout(page_size)):
        # A printer whose hardware margins are wider keeps its own; the layout adapts.
        device.setPageSize(QPageSize(_PAGE_SIZES[page_size]))


def render_document(device: QPagedPaintDevice, document: ExportDocument) -> RenderResult:
    """Lay out and paint ``document`` on ``device`` (PDF writer or printer) as it is set up."""
    layout = layout_document(document, device)
    painter = QPainter()
    if not painter.begin(device):
        raise ExportError("Could not start drawing on the printer or PDF file.")
    try:
        paint_layout(painter, device, layout)
    finally:
        painter.end()
    return record_placements(layout)


def pdf_bytes(document: ExportDocument, page_size: PageSize) -> tuple[bytes, RenderResult]:
    """The PDF of ``document``, in memory, with what was placed where."""
    ensure_gui_application()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_RESOLUTION)
    writer.setTitle(document.title)
    writer.setCreator(f"{APP_NAME} {__version__}")
    configure_device(writer, page_size)
    result = render_document(writer, document)
    del writer
    buffer.close()
    return bytes(data.data()), result


def write_pdf(document: ExportDocument, path: Path, page_size: PageSize) -> RenderResult:
    """Write the PDF to ``path`` atomically; ExportError with a readable reason on failure."""
    data, result = pdf_bytes(document, page_size)
    write_file_atomically(path, data)
    return result
