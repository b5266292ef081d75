"""WCAG contrast arithmetic: the one place it lives, for the screen and for paper.

Painted widgets and the exporters derive readable colours from it instead of hard-coding
them per theme; ``tests/ui/test_contrast.py`` checks both themes against it.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

__all__ = [
    "AA_GRAPHICS",
    "AA_TEXT",
    "contrast_ratio",
    "legible",
    "relative_luminance",
]

AA_TEXT = 4.5
"""WCAG 2 AA minimum contrast for normal-size text."""

AA_GRAPHICS = 3.0
"""WCAG 2 AA minimum contrast for lines and shapes that carry meaning (1.4.11)."""


def _composited(color: QColor, background: QColor) -> QColor:
    """``color`` as it looks over an opaque ``background`` (Qt's placeholder is translucent)."""
    alpha = color.alphaF()
    if alpha >= 1.0:
        return QColor(color)
    return QColor.fromRgbF(
        color.redF() * alpha + background.redF() * (1 - alpha),
        color.greenF() * alpha + background.greenF() * (1 - alpha),
        color.blueF() * alpha + background.blueF() * (1 - alpha),
        1.0,
    )


def relative_luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an opaque colour."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
            + 0.0722 * channel(color.blueF()))


def contrast_ratio(foreground: QColor, background: QColor) -> float:
    """WCAG 2 contrast ratio (1 to 21) of ``foreground`` drawn over ``background``."""
    first = relative_luminance(_composited(foreground, background))
    second = relative_luminance(background)
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def legible(color: QColor, background: QColor, toward: QColor,
            minimum: float = AA_TEXT) -> QColor:
    """``color``, moved just far enough toward ``toward`` (the theme's text colour) to reach
    ``minimum`` contrast on ``background``: keeps a hue where it can, never fails AA."""
    start = _composited(color, background)
    for step in range(0, 21):
        t = step / 20
        candidate = QColor.fromRgbF(
            start.redF() + (toward.redF() - start.redF()) * t,
            start.greenF() + (toward.greenF() - start.greenF()) * t,
            start.blueF() + (toward.blueF() - start.blueF()) * t,
            1.0,
        )
        if contrast_ratio(candidate, background) >= minimum:
            return candidate
    return QColor(toward)
