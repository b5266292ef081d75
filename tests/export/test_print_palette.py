"""Printing and its preview are black on white paper whatever the app's theme (issue 21)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, qGray
from PySide6.QtPrintSupport import QPrintPreviewWidget
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from mneme_desktop.domain import Campaign
from mneme_desktop.export import ExportTarget
from mneme_desktop.settings import PageSize, Settings, Theme
from mneme_desktop.ui.dialogs.export_dialog import make_print_preview
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.theme import apply_theme


@pytest.fixture
def dark_theme(qapp: QApplication) -> Iterator[QApplication]:
    """The dark theme for one test; the app's palette and style are put back after."""
    palette, style = qapp.palette(), qapp.style().name()
    apply_theme(qapp, Theme.DARK)
    yield qapp
    qapp.setStyle(style)
    qapp.setPalette(palette)


def _page_rect(image: QImage) -> QRect:
    """The preview's page: the bounding box of pure white pixels (the view around is grey)."""
    left, top, right, bottom = image.width(), image.height(), -1, -1
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            if image.pixel(x, y) & 0xFFFFFF == 0xFFFFFF:
                left, top = min(left, x), min(top, y)
                right, bottom = max(right, x), max(bottom, y)
    assert right > left and bottom > top, "no white page in the preview"
    return QRect(left, top, right - left + 1, bottom - top + 1)


def _darkest(image: QImage, area: QRect) -> int:
    return min(qGray(image.pixel(x, y))
               for y in range(area.top(), area.bottom() + 1)
               for x in range(area.left(), area.right() + 1))


def test_preview_header_is_dark_on_white_in_the_dark_theme(
    dark_theme: QApplication, qtbot: QtBot, campaign: Campaign, tmp_path: Path
) -> None:
    """The sheet's title band (name, "Player character", campaign) was painted in the
    palette's near-white text colour in the preview; it must be black ink on white paper."""
    document = CampaignDocument(campaign, tmp_path / "campaign.mneme")
    dialog = make_print_preview(None, document, Settings(page_size=PageSize.A4),
                                ExportTarget.player_characters())
    qtbot.addWidget(dialog)
    dialog.resize(700, 1000)
    dialog.show()
    qtbot.waitExposed(dialog)
    preview = dialog.findChild(QPrintPreviewWidget)
    assert preview is not None
    preview.setZoomMode(QPrintPreviewWidget.ZoomMode.FitInView)
    preview.updatePreview()
    qtbot.wait(50)
    image = preview.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    page = _page_rect(image)
    # A4 is 297 mm tall with 12 mm margins; the 17 pt title sits in the next ~7 mm, above
    # the rule under the heading. Look only at that band, inside the left and right margins.
    mm = page.height() / 297
    band = QRect(page.left() + round(12 * mm), page.top() + round(12.5 * mm),
                 page.width() - round(24 * mm), round(6 * mm))
    assert qGray(image.pixel(page.left() + 3, page.top() + 3)) == 255, "the page is not white"
    assert _darkest(image, band) < 80, "the header is not dark ink on the page"
