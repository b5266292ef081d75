"""Before Qt starts: can it show a window here, and if not, why (in words a referee can act on).

Qt's xcb platform plugin, when a library it links is missing, prints "xcb-cursor0 is
needed" whichever library it is, then aborts the process. We load the libraries it links
first and name the Debian packages that are missing. A smoke test or screenshot
with no display at all runs offscreen instead of failing.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, MutableMapping

# Sonames the xcb plugin links that a desktop may lack, and the Debian package of each.
DEBIAN_PACKAGES: dict[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` could not find, in the order it listed them."""
    seen: list[str] = []
    for name in _NOT_FOUND.findall(ldd_output):
        if name not in seen:
            seen.append(name)
    return seen


def missing_libraries_message(missing: list[str]) -> str:
    packages = sorted({DEBIAN_PACKAGES.get(name, name) for name in missing})
    return (
        "Mneme Desktop cannot open a window: Qt's X11 plugin needs "
        f"{', '.join(missing)}, which this system does not have.\n"
        f"On Debian or Ubuntu install them with:\n  sudo apt-get install {' '.join(packages)}"
    )


def unloadable(sonames: list[str]) -> list[str]:
    """The sonames the dynamic loader cannot load here (what ``ldd`` would call not found).

    Loaded in-process rather than asking ``ldd``: no subprocess at every start, and the
    libraries stay loaded for Qt, which needs them next anyway."""
    import ctypes

    missing = []
    for name in sonames:
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


def _wants_xcb(environ: Mapping[str, str]) -> bool:
    platform = environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    # Qt picks xcb on X11 and on Wayland sessions without its Wayland plugin asked for.
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def check_platform(environ: MutableMapping[str, str], *, headless: bool) -> str | None:
    """Prepare ``environ`` for Qt; return why no window can open, or None when it can.

    A headless run (smoke test, screenshot) with no display is switched to offscreen."""
    if not sys.platform.startswith("linux"):
        return None
    has_display = bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    if headless and not has_display and not environ.get("QT_QPA_PLATFORM"):
        environ["QT_QPA_PLATFORM"] = "offscreen"
        return None
    if not _wants_xcb(environ):
        return None
    missing = unloadable(list(DEBIAN_PACKAGES))
    return missing_libraries_message(missing) if missing else None


def check_platform_or_explain(headless: bool) -> bool:
    """True when Qt may start; otherwise the reason is on stderr (and the log)."""
    problem = check_platform(os.environ, headless=headless)
    if problem is None:
        return True
    print(problem, file=sys.stderr)
    return False
