"""A theme chosen in Settings while the window is open reaches every hint and subtitle; the
dark theme's radio buttons can be seen."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton

from mneme_desktop.drawing.contrast import contrast_ratio
from mneme_desktop.settings import Theme
from mneme_desktop.ui.theme import DarkIndicatorStyle, apply_theme, dark_palette, light_palette
from mneme_desktop.ui.views.sheet_parts import small_label

_ROLE = QPalette.ColorRole


def test_hints_follow_a_theme_changed_at_run_time(qtbot, qapp: QApplication) -> None:
    """QA: the sheet's hints (``color: palette(placeholder-text)``) stayed in the light
    theme's grey after Settings ▸ Theme ▸ Dark, about 2:1 on the dark window."""
    before_palette, before_style = qapp.palette(), qapp.style().name()
    try:
        apply_theme(qapp, Theme.LIGHT)
        hint = small_label("Click or drag on the bar")
        qtbot.addWidget(hint)
        hint.show()
        qtbot.waitExposed(hint)
        light = light_palette().color(_ROLE.PlaceholderText)
        assert hint.palette().color(_ROLE.WindowText) == light
        apply_theme(qapp, Theme.DARK)
        dark = dark_palette().color(_ROLE.PlaceholderText)
        assert hint.palette().color(_ROLE.WindowText) == dark
    finally:
        qapp.setStyle(before_style)
        qapp.setPalette(before_palette)


def test_an_unticked_dark_radio_button_has_a_visible_ring(qapp: QApplication) -> None:
    """QA: the export dialog's unticked "Current damage and conditions" was a dark disc on
    the dark window (Fusion's ring is the Window colour darkened)."""
    palette = dark_palette()
    window = palette.color(_ROLE.Window)
    image = QImage(24, 24, QImage.Format.Format_ARGB32)
    image.fill(window)
    option = QStyleOptionButton()
    option.rect = QRect(2, 2, 16, 16)
    option.palette = palette
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Off
    painter = QPainter(image)
    DarkIndicatorStyle().drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorRadioButton,
                                       option, painter)
    painter.end()
    edge = max((image.pixelColor(x, y) for x in range(24) for y in range(24)),
               key=lambda c: contrast_ratio(c, window))
    assert contrast_ratio(edge, window) >= 3.0, edge.name()
