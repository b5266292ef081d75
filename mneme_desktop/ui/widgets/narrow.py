"""Side panels that fit a 1280-pixel laptop screen."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QStyle, QWidget


def shrink_lists(root: QWidget, characters: int = 6) -> None:
    """Let every combo box under ``root`` shrink to a few characters (the full entries still
    drop down), instead of sizing to its longest entry and pushing the panel past its tab,
    which clipped the right edge of the encounter's side panel at 1280 pixels."""
    for combo in root.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(characters)


def fit_placeholder(edit: QLineEdit) -> None:
    """Keep ``edit`` at least as wide as its placeholder, so the hint that says what an empty
    field means is read whole instead of clipped ("1d3 (empty: r...") when a row of fields
    shares a narrow dialog."""
    style = edit.style()
    frame = style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, edit)
    text = edit.fontMetrics().horizontalAdvance(edit.placeholderText())
    edit.setMinimumWidth(text + 2 * frame + 12)  # QLineEdit's own side margins, with room
