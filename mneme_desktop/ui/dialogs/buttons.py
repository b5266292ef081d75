"""The OK / Cancel row every form dialog ends with."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox


def ok_cancel_buttons(dialog: QDialog, ok_text: str | None = None) -> QDialogButtonBox:
    """OK and Cancel wired to ``dialog``'s accept and reject; ``ok_text`` renames OK."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    if ok_text is not None:
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons
