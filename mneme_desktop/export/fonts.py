"""The bundled font, and the Qt application that font loading and painting need.

Every printed or exported page is set in the DejaVu Sans shipped in ``resources/fonts``
(licence beside it), never in whatever the system has, so a sheet comes out the same on
Windows, macOS and Linux, and Qt embeds the glyphs it used in the PDF.
"""

from __future__ import annotations

import importlib.resources
import logging
import os
import sys
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

__all__ = [
    "FONT_FAMILY",
    "FONT_FILES",
    "MONO_FAMILY",
    "ensure_gui_application",
    "fonts_folder",
    "load_bundled_fonts",
    "print_font",
]

log = logging.getLogger(__name__)

FONT_FAMILY: Final = "DejaVu Sans"
MONO_FAMILY: Final = "DejaVu Sans Mono"
FONT_FILES: Final = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")
LICENCE_FILE: Final = "LICENSE-DejaVu.txt"

_loaded: dict[str, str] = {}
"""Font file name -> family, for the fonts this process has already registered with Qt."""


def fonts_folder() -> Traversable:
    """``resources/fonts``: inside the installed package, or in a source checkout."""
    try:
        return importlib.resources.files("mneme_desktop.resources") / "fonts"
    except ModuleNotFoundError:
        # An editable install made before resources/ was mapped into the package.
        return Path(__file__).resolve().parents[2] / "resources" / "fonts"


def load_bundled_fonts() -> str:
    """Register the bundled fonts with Qt (once) and return the family to print in.

    Needs a QGuiApplication. If the files are missing (a broken install) the system's
    sans-serif is used and a warning logged: a referee can still print.
    """
    folder = fonts_folder()
    for name in FONT_FILES:
        if name in _loaded:
            continue
        try:
            data = (folder / name).read_bytes()
        except OSError as exc:
            log.warning("Bundled font %s cannot be read (%s); printing with a system font",
                        name, exc)
            continue
        font_id = QFontDatabase.addApplicationFontFromData(data)
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if not families:
            log.warning("Bundled font %s could not be loaded; printing with a system font", name)
            continue
        _loaded[name] = families[0]
    return FONT_FAMILY if _loaded.get(FONT_FILES[0]) == FONT_FAMILY else "sans-serif"


def print_font(family: str, points: float, bold: bool = False) -> QFont:
    """A font for paper: no ligatures, so "fi" in "Rifle" stays two letters that a PDF
    viewer finds when searching and copies as typed."""
    font = QFont(family)
    font.setPointSizeF(points)
    font.setBold(bold)
    font.setKerning(True)
    if hasattr(QFont, "Tag"):  # Qt 6.7+
        font.setFeature(QFont.Tag("liga"), 0)
        font.setFeature(QFont.Tag("clig"), 0)
    return font


def _has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def ensure_gui_application() -> QGuiApplication:
    """The running Qt application, or a new one for batch use.

    Without a display (a server, CI) the offscreen platform is chosen, unless the user
    already picked a platform with QT_QPA_PLATFORM.
    """
    existing = QGuiApplication.instance()
    if isinstance(existing, QGuiApplication):
        return existing
    if not os.environ.get("QT_QPA_PLATFORM") and not _has_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = QGuiApplication([sys.argv[0] if sys.argv else "mneme-desktop"])
    # Kept on the module so the application outlives the function that made it.
    _app_holder.append(app)
    return app


_app_holder: list[QGuiApplication] = []
