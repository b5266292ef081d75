"""Type for paper: the type roles in points, the print greys, and fonts, metrics and line
wrapping measured on the target device itself, so nothing is scaled after measuring."""

from __future__ import annotations

import functools
import re
from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPaintDevice, QTextLayout, QTextOption

from mneme_desktop.export.document import Align
from mneme_desktop.export.fonts import print_font


class Role(Enum):
    """Type roles, in points; body text never below 7 pt so a photocopy stays legible."""

    TITLE = (17.0, True)
    SUBTITLE = (9.0, False)
    ASIDE = (8.5, False)
    HEADING = (9.5, True)
    BODY = (8.5, False)
    LABEL = (8.5, True)
    SMALL = (7.5, False)
    SMALL_LABEL = (7.5, True)
    TABLE = (8.0, False)
    TABLE_HEADER = (7.5, True)
    CARD_TABLE = (7.5, False)
    CARD_HEADER = (7.0, True)
    CARD_TITLE = (11.0, True)
    CARD_HEADING = (8.0, True)
    TRACK = (7.5, False)
    TRACK_CELL = (7.0, False)
    FOOTER = (7.0, False)

    def __init__(self, size: float, bold: bool) -> None:
        # Plain attributes, not properties over ``value``: layout and painting read them
        # tens of thousands of times per batch, and Enum's ``value`` is a slow descriptor.
        self.size = size
        self.bold = bold
        self.font_key = (size, bold)
        """What fonts, metrics and measured widths are cached under."""


BLACK = 0
RULE_GREY = 110
LIGHT_RULE_GREY = 170
HEADER_FILL = 228


class Typesetter:
    """Fonts and metrics on the target device, and line wrapping with them."""

    def __init__(self, device: QPaintDevice, family: str) -> None:
        self.device = device
        self.family = family
        self.scale = device.logicalDpiY() / 72.0
        self._fonts: dict[tuple[float, bool], QFont] = {}
        self._metrics: dict[tuple[float, bool], QFontMetricsF] = {}
        self._advances: dict[tuple[str, tuple[float, bool]], float] = {}
        self._longest: dict[tuple[str, tuple[float, bool]], float] = {}
        self._widest: dict[tuple[str, tuple[float, bool]], float] = {}
        self._wraps: dict[tuple[str, tuple[float, bool], float], list[str]] = {}

    def pt(self, points: float) -> float:
        return points * self.scale

    def font(self, role: Role) -> QFont:
        font = self._fonts.get(role.font_key)
        return font if font is not None else self.font_of(role.size, role.bold)

    def font_of(self, size: float, bold: bool = False) -> QFont:
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            font = print_font(self.family, size, bold)
            self._fonts[key] = font
        return font

    def metrics(self, role: Role) -> QFontMetricsF:
        key = role.font_key
        metrics = self._metrics.get(key)
        if metrics is None:
            metrics = QFontMetricsF(self.font(role), self.device)
            self._metrics[key] = metrics
        return metrics

    def line_height(self, role: Role) -> float:
        return self.metrics(role).lineSpacing() * 1.06

    def advance(self, text: str, role: Role) -> float:
        """The width of ``text``; each distinct string is measured once per font (a batch
        of sheets repeats the same labels, headers and values many times)."""
        key = (text, role.font_key)
        width = self._advances.get(key)
        if width is None:
            width = self.metrics(role).horizontalAdvance(text)
            self._advances[key] = width
        return width

    def longest_word(self, text: str, role: Role) -> float:
        """The widest run between break points (a no-break space joins words)."""
        key = (text, role.font_key)
        width = self._longest.get(key)
        if width is None:
            width = max((self.advance(word, role) for word in _BREAKS.split(text)),
                        default=0.0)
            self._longest[key] = width
        return width

    def widest_line(self, text: str, role: Role) -> float:
        key = (text, role.font_key)
        width = self._widest.get(key)
        if width is None:
            width = max((self.advance(line, role) for line in text.split("\n")), default=0.0)
            self._widest[key] = width
        return width

    def wrap(self, text: str, role: Role, width: float) -> list[str]:
        """Lines of ``text`` no wider than ``width``: at spaces where possible, inside a
        word only when the word alone is too wide. Newlines always break."""
        key = (text, role.font_key, round(width, 2))
        cached = self._wraps.get(key)
        if cached is not None:
            return cached
        # Keep clear of the edge: at screen resolution drawn text may round up a pixel.
        width = max(1.0, width - self.pt(0.75))
        lines: list[str] = []
        for paragraph in text.split("\n"):
            paragraph = paragraph.rstrip()
            if not paragraph or self.advance(paragraph, role) <= width * (1 + 1e-9):
                lines.append(paragraph)
                continue
            layout = QTextLayout(paragraph, self.font(role), self.device)
            option = QTextOption()
            option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
            layout.setTextOption(option)
            layout.beginLayout()
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLineWidth(width)
            layout.endLayout()
            for index in range(layout.lineCount()):
                line = layout.lineAt(index)
                start = line.textStart()
                lines.append(paragraph[start : start + line.textLength()].strip())
        self._wraps[key] = lines
        return lines


_BREAKS = re.compile(r"[ \t\n]+")
"""Where a column may break a line: at ordinary spaces only, so "17–117" stays whole."""

_ALIGN_FLAGS = {
    Align.LEFT: Qt.AlignmentFlag.AlignLeft,
    Align.CENTER: Qt.AlignmentFlag.AlignHCenter,
    Align.RIGHT: Qt.AlignmentFlag.AlignRight,
}


@functools.cache
def text_flags(align: Align) -> int:
    """The drawText flags for one line of text set with ``align``.

    Cached: Python enum ``|`` is slow and layout plus painting ask for these flags for
    every line of every page (about 27,000 times for 100 sheets), always the same three."""
    return int(_ALIGN_FLAGS[align] | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextSingleLine)
