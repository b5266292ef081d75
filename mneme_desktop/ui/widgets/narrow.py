"""Side panels that fit a 1280-pixel laptop screen."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget


def shrink_lists(root: QWidget, characters: int = 6) -> None:
    """Let every combo box under ``root`` shrink to a few characters (the full entries still
    drop down), instead of sizing to its longest entry and pushing the panel past its tab,
    which clipped the right edge of the encounter's side panel at 1280 pixels."""
    for combo in root.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(characters)
