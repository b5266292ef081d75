"""A character's portrait: which files are taken as one, and how the sheet shows it.

A portrait is kept inside the campaign file, so a file is refused (with the reason) when it
is too large or not one of the image types every Qt build reads.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel

from mneme_desktop.domain import MAX_PORTRAIT_BYTES, Portrait
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.sheet_models import describe_error

_CTX = "SheetPortrait"

__all__ = ["PORTRAIT_SIZE", "PortraitError", "read_portrait", "show_portrait",
           "sniff_image_type"]

PORTRAIT_SIZE = 128
"""The side of the square the portrait is scaled into on the sheet."""


class PortraitError(ValueError):
    """A file not taken as a portrait; the message says why, for the referee."""


def sniff_image_type(raw: bytes) -> str | None:
    """The media type of image bytes from their signature, or None if not one we keep."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if raw.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if raw.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    return None


def read_portrait(path: Path) -> Portrait:
    """The image at ``path`` as a portrait; :class:`PortraitError` for non-images and
    files too large to keep in the campaign."""
    try:
        size = path.stat().st_size
        if size > MAX_PORTRAIT_BYTES:
            raise PortraitError(
                tr(_CTX, "{0} is {1:.1f} MiB; a portrait can be at most {2} MiB because it is "
                         "kept inside the campaign file. Choose a smaller image.").format(
                             path.name, size / (1024 * 1024), MAX_PORTRAIT_BYTES // (1024 * 1024))
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise PortraitError(tr(_CTX, "Could not read {0}: {1}").format(
                path.name, exc.strerror or exc)) from exc
    media_type = sniff_image_type(raw)
    if media_type is None or QImage.fromData(raw).isNull():
        raise PortraitError(tr(_CTX, "{0} is not a PNG, JPEG, GIF or WebP image.").format(
                path.name))
    try:
        return Portrait.from_bytes(raw, media_type)
    except (ValidationError, ValueError) as exc:
        raise PortraitError(tr(_CTX, "{0}: {1}").format(path.name, describe_error(exc))) from exc


def show_portrait(label: QLabel, portrait: Portrait | None) -> None:
    """The portrait scaled into ``label``, or a word saying there is none to show."""
    if portrait is None:
        label.setPixmap(QPixmap())
        label.setText(tr(_CTX, "No portrait"))
        return
    pixmap = QPixmap()
    if not pixmap.loadFromData(portrait.image_bytes):
        label.setPixmap(QPixmap())
        label.setText(tr(_CTX, "Portrait cannot\nbe shown"))
        return
    label.setPixmap(pixmap.scaled(
        PORTRAIT_SIZE, PORTRAIT_SIZE, Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    ))
