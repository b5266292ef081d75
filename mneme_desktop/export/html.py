"""Self-contained HTML: the document model as one file that opens and prints in any browser.

Everything is inline (CSS in a ``<style>``, damage tracks as PNG ``data:`` images painted
by the same track painter as the screen and the PDF), so the file can be mailed or put on
a tablet. Every string that came from the campaign goes through :func:`html.escape` after
:func:`~mneme_desktop.export.document.clean_text` (no NUL, no bidi override that could
reorder the page around a name), and a Content-Security-Policy forbids scripts outright as a
second line of defence.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QImage, QPainter

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.drawing.box_chart_painter import box_chart_size_hint, paint_box_chart
from mneme_desktop.drawing.track_painter import (
    TrackColors,
    hp_bar_size_hint,
    paint_hp_bar,
)
from mneme_desktop.export.document import (
    Align,
    Block,
    CardSheet,
    Cell,
    Columns,
    ExportDocument,
    Fields,
    Heading,
    Sheet,
    Table,
    Text,
    TrackBlock,
    TrackKind,
)
from mneme_desktop.export.files import write_file_atomically
from mneme_desktop.export.fonts import (
    FONT_FAMILY,
    ensure_gui_application,
    load_bundled_fonts,
    print_font,
)
from mneme_desktop.export.safe_text import clean_text
from mneme_desktop.settings import PageSize

__all__ = ["html_bytes", "render_html", "track_png", "write_html"]

IMAGE_SCALE = 2
"""Track images are drawn at twice their CSS size, so they stay sharp when printed."""

_CSS_DPI = 96
_BAR_POINTS = 7.5
_ROSTER_BAR_POINTS = 7.0

_PAGE_CSS = {PageSize.A4: "A4", PageSize.LETTER: "letter"}

_STYLE = """
@page { size: %(page)s; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "%(family)s", "Segoe UI", "Helvetica Neue", Arial, sans-serif;
       font-size: 10pt; color: #000; background: #fff; margin: 0 auto; max-width: 190mm;
       padding: 8mm 4mm; line-height: 1.25; }
section.part { break-after: page; page-break-after: always; margin-bottom: 12mm; }
section.part:last-of-type { break-after: auto; page-break-after: auto; }
header.heading { display: flex; justify-content: space-between; align-items: flex-start;
                 gap: 1em; border-bottom: 1.5pt solid #000; padding-bottom: 3pt;
                 margin-bottom: 6pt; }
header.heading h1 { font-size: 18pt; margin: 0; overflow-wrap: anywhere; }
.subtitle { margin: 1pt 0 0; font-size: 9.5pt; white-space: pre-line; }
.aside { text-align: right; font-size: 9pt; white-space: nowrap; }
h2 { font-size: 10pt; margin: 8pt 0 3pt; padding-bottom: 1pt; border-bottom: 0.6pt solid #777;
     break-after: avoid; page-break-after: avoid; }
.block { margin-top: 4pt; }
.columns { display: flex; gap: 14pt; align-items: flex-start; }
.column { min-width: 0; }
table { border-collapse: collapse; width: 100%%; font-size: 9pt; }
th, td { border: 0.5pt solid #999; padding: 1.5pt 3pt; vertical-align: top;
         overflow-wrap: anywhere; }
th { background: #e4e4e4; font-size: 8.5pt; text-align: left; }
th, td.c, td.r { overflow-wrap: normal; word-break: keep-all; hyphens: manual; }
td.num { white-space: nowrap; }
.c { text-align: center; }
.r { text-align: right; }
tr { break-inside: avoid; page-break-inside: avoid; }
tr.blank td { height: 15pt; }
td.track { padding: 2pt; }
p { margin: 2pt 0; overflow-wrap: anywhere; }
p.small, .small p, p.note, p.empty { font-size: 8.5pt; }
p.note { margin-top: 2pt; }
.fields { margin: 3pt 0; }
.field { display: inline-block; margin-right: 12pt; }
.blank-value { display: inline-block; width: 42pt; border-bottom: 0.6pt solid #555; }
.ruled { height: 16pt; border-bottom: 0.5pt solid #aaa; }
img.track { display: block; max-width: 100%%; height: auto; margin: 3pt 0; }
.cards { display: grid; grid-template-columns: 1fr 1fr; gap: 9pt; }
article.card { border: 0.8pt solid #000; padding: 6pt; break-inside: avoid;
               page-break-inside: avoid; font-size: 9pt; }
article.card h2.card-title { font-size: 12pt; border-bottom: 0.8pt solid #000; margin: 0 0 3pt; }
footer { margin-top: 8pt; border-top: 0.5pt solid #999; font-size: 8pt; padding-top: 2pt; }
"""


def _e(text: str) -> str:
    """Escape user text for HTML (cleaned of control and bidi override characters first,
    even in a document not built by ``build_document``); line breaks become <br>."""
    return "<br>".join(html.escape(line, quote=True) for line in clean_text(text).split("\n"))


def _attr(text: str) -> str:
    """User text for an attribute value: cleaned and escaped, quotes included."""
    return html.escape(clean_text(text), quote=True)


# --- track images --------------------------------------------------------------------------


def _image(width_px: int, height_px: int, dpi: float) -> QImage:
    image = QImage(max(1, width_px), max(1, height_px), QImage.Format.Format_RGB32)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    return image


def track_png(block: TrackBlock, points: float = _BAR_POINTS) -> tuple[bytes, int, int]:
    """The track drawn by the shared painter as PNG bytes, with its CSS width and height."""
    ensure_gui_application()
    dpi = _CSS_DPI * IMAGE_SCALE
    font = print_font(load_bundled_fonts(), points)
    probe = _image(1, 1, dpi)
    if block.kind is TrackKind.BAR:
        hint = hp_bar_size_hint(font, labels=True, device=probe)
        width, height = hint.width() * 1.3, hint.height()
    else:
        hint = box_chart_size_hint(block.track, font, probe, block.chart)
        width, height = hint.width(), hint.height()
    # Whole CSS pixels: the image is exactly IMAGE_SCALE times its displayed size.
    css_width, css_height = math.ceil(width / IMAGE_SCALE), math.ceil(height / IMAGE_SCALE)
    image = _image(css_width * IMAGE_SCALE, css_height * IMAGE_SCALE, dpi)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    try:
        colors = TrackColors.print_colors()
        rect = QRectF(0, 0, image.width(), image.height())
        if block.kind is TrackKind.BAR:
            paint_hp_bar(painter, rect, block.track, colors, font, labels=True,
                         show_damage=block.show_damage)
        else:
            paint_box_chart(painter, rect, block.track, colors, font,
                            show_damage=block.show_damage, style=block.chart)
    finally:
        painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # stubs say bytes; runtime wants str
    buffer.close()
    return bytes(data.data()), image.width() // IMAGE_SCALE, image.height() // IMAGE_SCALE


def _track_html(block: TrackBlock, points: float = _BAR_POINTS) -> str:
    data, width, height = track_png(block, points)
    encoded = base64.b64encode(data).decode("ascii")
    kind = "bar" if block.kind is TrackKind.BAR else "box-chart"
    return (
        f'<img class="track {kind}" width="{width}" height="{height}" '
        f'alt="{_attr(block.description)}" '
        f'src="data:image/png;base64,{encoded}">'
    )


# --- blocks --------------------------------------------------------------------------------

_ALIGN_CLASS = {Align.LEFT: "", Align.CENTER: ' class="c"', Align.RIGHT: ' class="r"'}


def _cell(cell: Cell, align: Align) -> str:
    if isinstance(cell, TrackBlock):
        return f'<td class="track">{_track_html(cell, _ROSTER_BAR_POINTS)}</td>'
    return f"<td{_cell_class(cell, align)}>{_e(cell)}</td>"


def _cell_class(text: str, align: Align) -> str:
    """Centred and right-aligned cells break only at spaces; short numbers ("3d6-13",
    "CW 15+") not at all, or a narrow column reads "CW 1 5+"."""
    short = all(len(line) <= 10 for line in text.split("\n"))
    if align is Align.LEFT or not short or not any(char.isdigit() for char in text):
        return _ALIGN_CLASS[align]
    return f' class="{align.value[0]} num"'


def _table(table: Table) -> str:
    out = ['<div class="block">']
    if table.title:
        out.append(f"<h2>{_e(table.title)}</h2>")
    if not table.rows and not table.blank_rows:
        out.append(f'<p class="empty">{_e(table.empty or "None")}</p></div>')
        return "".join(out)
    out.append("<table><thead><tr>")
    out.extend(f"<th{_ALIGN_CLASS[c.align]}>{_e(c.header)}</th>" for c in table.columns)
    out.append("</tr></thead><tbody>")
    aligns = [column.align for column in table.columns]
    for row in table.rows:
        cells = "".join(_cell(cell, align) for cell, align in zip(row, aligns, strict=True))
        out.append(f"<tr>{cells}</tr>")
    for _ in range(table.blank_rows):
        out.append('<tr class="blank">' + "<td></td>" * len(aligns) + "</tr>")
    out.append("</tbody></table>")
    if table.note:
        out.append(f'<p class="note">{_e(table.note)}</p>')
    out.append("</div>")
    return "".join(out)


def _text(block: Text) -> str:
    css = "block small" if block.small else "block"
    out = [f'<div class="{css}">']
    if block.title:
        out.append(f"<h2>{_e(block.title)}</h2>")
    out.extend(f"<p>{_e(paragraph)}</p>" for paragraph in block.paragraphs)
    out.extend('<div class="ruled"></div>' for _ in range(block.blank_lines))
    out.append("</div>")
    return "".join(out)


def _fields(block: Fields) -> str:
    out = ['<div class="block">']
    if block.title:
        out.append(f"<h2>{_e(block.title)}</h2>")
    out.append('<p class="fields">')
    for label, value in block.items:
        shown = _e(value) if value else '<span class="blank-value"></span>'
        out.append(f'<span class="field"><b>{_e(label)}</b> {shown}</span>')
    out.append("</p></div>")
    return "".join(out)


def _columns(block: Columns) -> str:
    out = ['<div class="columns">']
    for index, (part, weight) in enumerate(zip(block.parts, block.weights, strict=True)):
        blocks: Iterable[Block] = (*part, *block.extra) if index == 0 else part
        inner = "".join(_block(inner) for inner in blocks)
        out.append(f'<div class="column" style="flex: {weight:.3f} 1 0">{inner}</div>')
    out.append("</div>")
    return "".join(out)


def _block(block: Block) -> str:
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Text):
        return _text(block)
    if isinstance(block, Fields):
        return _fields(block)
    if isinstance(block, TrackBlock):
        return f'<div class="block">{_track_html(block)}</div>'
    return _columns(block)


def _heading(heading: Heading) -> str:
    aside = "<br>".join(_e(line) for line in heading.aside)
    subtitle = f'<p class="subtitle">{_e(heading.subtitle)}</p>' if heading.subtitle else ""
    return (
        f'<header class="heading"><div><h1>{_e(heading.title)}</h1>{subtitle}</div>'
        f'<div class="aside">{aside}</div></header>'
    )


def _part(part: Sheet | CardSheet) -> str:
    out = ['<section class="part">', _heading(part.heading)]
    if isinstance(part, Sheet):
        out.extend(_block(block) for block in part.blocks)
    else:
        out.append('<div class="cards">')
        for card in part.cards:
            out.append('<article class="card">')
            out.append(f'<h2 class="card-title">{_e(card.title)}</h2>')
            out.append(f'<p class="subtitle">{_e(card.subtitle)}</p>')
            out.extend(_block(block) for block in card.blocks)
            out.append("</article>")
        out.append("</div>")
    out.append(f"<footer>{_e(part.footer)}</footer></section>")
    return "".join(out)


def render_html(document: ExportDocument, page_size: PageSize = PageSize.A4) -> str:
    """The whole document as one HTML page (one printed page per part, at least)."""
    style = _STYLE % {"page": _PAGE_CSS[page_size], "family": FONT_FAMILY}
    parts = "\n".join(_part(part) for part in document.parts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "img-src data:; style-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="{html.escape(f"{APP_NAME} {__version__}")}">\n'
        f"<title>{_attr(document.title)}</title>\n"
        f"<style>{style}</style>\n</head>\n"
        f"<body>\n{parts}\n</body>\n</html>\n"
    )


def html_bytes(document: ExportDocument, page_size: PageSize = PageSize.A4) -> bytes:
    return render_html(document, page_size).encode("utf-8")


def write_html(document: ExportDocument, path: Path, page_size: PageSize = PageSize.A4) -> None:
    """Write the HTML to ``path`` atomically; ExportError with a readable reason on failure."""
    write_file_atomically(path, html_bytes(document, page_size))
