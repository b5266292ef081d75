"""What the spec, build.py and the tests share: names, the version, and what the bundle keeps.

Stdlib only, so the tests and ``build.py --help`` work without PyInstaller. The folder is
called ``packaging`` but has no ``__init__.py`` on purpose: it must never shadow the PyPI
``packaging`` module that PyInstaller itself imports. Load this file by path.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
from pathlib import Path, PurePosixPath

PACKAGING_DIR = Path(__file__).resolve().parent
ROOT = PACKAGING_DIR.parent
# Scratch space; the tests point it at a temporary folder.
BUILD_DIR = Path(os.environ.get("MNEME_PACKAGING_BUILD_DIR") or PACKAGING_DIR / "build")
DIST_DIR = PACKAGING_DIR / "dist"
ICONS_DIR = ROOT / "resources" / "icons"

APP_NAME = "Mneme Desktop"
APP_ID = "mneme-desktop"  # executable, desktop entry, icon name, Debian package
# Reverse-DNS names that macOS and AppStream want; nobody owns a domain for the project yet.
BUNDLE_ID = "org.mneme.desktop"
CAMPAIGN_UTI = "org.mneme.desktop.campaign"
MIME_TYPE = "application/x-mneme"
FILE_EXTENSION = "mneme"
PUBLISHER = "Mneme Desktop developers"
SUMMARY = "Characters, encounters and recovery for Mneme CE referees"

# Qt plugin folders and the plugins in them that the app loads; everything else Qt's hooks
# collect (QML tooling, SQL drivers, eglfs, the GTK theme that drags in all of GTK...) goes.
KEPT_QT_PLUGINS: dict[str, frozenset[str]] = {
    "platforms": frozenset({"qoffscreen", "qminimal", "qxcb", "qwayland", "qwindows",
                            "qcocoa", "qdirect2d"}),
    "platformthemes": frozenset({"qxdgdesktopportal"}),
    "platforminputcontexts": frozenset({"composeplatforminputcontextplugin",
                                        "ibusplatforminputcontextplugin"}),
    # portraits may be PNG (built into Qt), JPEG, GIF or WebP; SVG and ICO for icons
    "imageformats": frozenset({"qjpeg", "qgif", "qwebp", "qsvg", "qico", "qicns"}),
    "iconengines": frozenset({"qsvgicon"}),
    "printsupport": frozenset({"cupsprintersupport", "windowsprintersupport",
                               "cocoaprintersupport"}),
    "xcbglintegrations": frozenset({"qxcb-egl-integration", "qxcb-glx-integration"}),
    "wayland-shell-integration": frozenset({"xdg-shell"}),
    "wayland-decoration-client": frozenset({"bradient", "adwaita"}),
    "styles": frozenset({"qmodernwindowsstyle", "qwindowsvistastyle", "qmacstyle"}),
}

# Windows DLLs PySide6's hooks add for OpenGL and Direct3D shader compiling; a widgets app
# paints with the raster engine and never loads them (20 MB of software OpenGL alone).
DROPPED_QT_FILES = frozenset({"opengl32sw.dll", "d3dcompiler_47.dll"})

# Python modules the app never imports but the hooks of its dependencies drag in (pydantic's
# hook collects every submodule, including its mypy and hypothesis plugins, which pull in
# mypy and hypothesis themselves). No network: ssl and _hashlib go (hashlib falls back to its
# built-in digests), and with them libssl and libcrypto. Never add ``socket``, ``email``,
# ``importlib.metadata``, ``zipfile``, ``asyncio`` or ``typing_extensions``: pydantic and
# importlib need them at run time (excluding ``socket`` broke pydantic, excluding ``asyncio``
# broke pydantic_core through typing_extensions.deprecated). Rebuild and run the bundle after
# any change.
EXCLUDED_MODULES = (
    # the standard library's tools and tests
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "lib2to3", "pydoc_data",
    "ensurepip", "venv", "test", "unittest", "doctest", "pdb", "curses", "_curses", "readline",
    "xmlrpc", "sqlite3", "_sqlite3", "multiprocessing",
    "distutils", "setuptools", "pkg_resources", "pip", "wheel",
    # no network, no legacy or CJK codecs, no compressed archives
    "ssl", "_ssl", "_hashlib", "_bz2", "_lzma", "_codecs_cn", "_codecs_hk", "_codecs_iso2022",
    "_codecs_jp", "_codecs_kr", "_codecs_tw",
    # development tools reached only through pydantic's plugins
    "mypy", "mypy_extensions", "librt", "ast_serialize", "hypothesis", "_hypothesis_ftz_detector",
    "pytest", "_pytest", "pydantic.mypy", "pydantic.v1._hypothesis_plugin", "rich", "orjson",
    "attr", "attrs", "sortedcontainers", "exceptiongroup", "email_validator", "dotenv",
    "numpy", "IPython",
    # Qt modules the app does not use (Core, Gui, Widgets, PrintSupport, Svg stay)
    "PySide6.QtNetwork", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets",
    "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtDBus", "PySide6.QtSql",
    "PySide6.QtTest", "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtDesigner",
    "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtPdf", "PySide6.QtPdfWidgets",
    "PySide6.QtNetworkAuth", "PySide6.QtStateMachine", "PySide6.QtSvgWidgets",
    "PySide6.QtAsyncio", "PySide6.scripts",
)

# Linux libraries taken from the system instead of the bundle. Every desktop has them, and a
# bundled copy older than the system's breaks things: the GL driver needs the system's
# libstdc++, the bundled fontconfig cannot read a newer fonts.conf, libdbus must match the
# running bus, libcups the running print server. The .deb depends on their packages; the
# xcb-util libraries Qt needs (often missing, e.g. libxcb-cursor0) and libxkbcommon stay.
SYSTEM_LIBRARIES = (
    "libstdc++", "libgcc_s", "libglib-2.0", "libgthread-2.0", "libgobject-2.0", "libgio-2.0",
    "libpcre2-8", "libdbus-1", "libsystemd", "libgcrypt", "libgpg-error", "libzstd", "liblz4",
    "liblzma", "libcap", "libX11", "libX11-xcb", "libXau", "libXdmcp", "libbsd", "libmd",
    "libfontconfig", "libfreetype", "libpng16", "libexpat", "libbrotlicommon", "libbrotlidec",
    "libz", "libbz2", "libcups",
)

# Debian packages of libraries Qt links that a build machine may lack (so dpkg cannot name
# their owner); a .deb built there still depends on them.
DEBIAN_PACKAGE_OF = {
    "libwayland-cursor.so.0": "libwayland-cursor0", "libwayland-client.so.0": "libwayland-client0",
    "libwayland-egl.so.1": "libwayland-egl1", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0", "libxcb.so.1": "libxcb1", "libcups.so.2": "libcups2",
}

# The image plugin each portrait media type needs (PNG is built into QtGui).
IMAGE_PLUGINS = {"image/png": None, "image/jpeg": "qjpeg", "image/gif": "qgif",
                 "image/webp": "qwebp"}

_PLUGIN_FILE = re.compile(r"^(?:lib)?(?P<name>.+?)(?:\.so|\.dll|\.dylib)$")


def read_version(root: Path = ROOT) -> str:
    """``mneme_desktop.__version__``, read without importing the package (and Qt with it)."""
    tree = ast.parse((root / "mneme_desktop" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets):
            value = ast.literal_eval(node.value)
            if isinstance(value, str):
                return value
    raise ValueError("mneme_desktop/__init__.py does not assign __version__")


def numeric_version(version: str) -> tuple[int, int, int, int]:
    """The four numbers a Windows version resource holds: '1.2.3rc1' -> (1, 2, 3, 0)."""
    match = re.match(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?", version)
    if not match:
        raise ValueError(f"not a version: {version!r}")
    a, b, c, d = (int(part) if part else 0 for part in match.groups())
    return a, b, c, d


def debian_version(version: str) -> str:
    """PEP 440 to Debian ordering: pre-releases sort before the release ('1.0rc1' -> '1.0~rc1')."""
    version = re.sub(r"\.?(a|b|rc|dev)(\d*)", r"~\1\2", version)
    return re.sub(r"\.?post(\d*)", r"+post\1", version)


def windows_version_info(version: str) -> str:
    """The version file PyInstaller turns into the Windows VERSIONINFO resource."""
    numbers = numeric_version(version)
    strings = {
        "CompanyName": PUBLISHER,
        "FileDescription": APP_NAME,
        "FileVersion": version,
        "InternalName": APP_ID,
        "LegalCopyright": f"MIT licence, {PUBLISHER}",
        "OriginalFilename": f"{APP_ID}.exe",
        "ProductName": APP_NAME,
        "ProductVersion": version,
    }
    table = ",\n".join(f"          StringStruct({k!r}, {v!r})" for k, v in strings.items())
    return f"""# Generated by packaging/appmeta.py from mneme_desktop.__version__; do not edit.
VSVersionInfo(
  ffi=FixedFileInfo(
    filevers={numbers!r},
    prodvers={numbers!r},
    mask=0x3f,
    flags=0x0,
    OS=0x40004,
    fileType=0x1,
    subtype=0x0,
    date=(0, 0)
  ),
  kids=[
    StringFileInfo([
      StringTable(
        '040904B0',
        [
{table}
        ])
    ]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


def qt_file_kept(dest: str) -> bool:
    """Whether a file PySide6's hooks collected belongs in the bundle.

    ``dest`` is its path inside the bundle. Plugins not in :data:`KEPT_QT_PLUGINS`, Qt's own
    translations (the app is English only) and :data:`DROPPED_QT_FILES` go; the rest stays.
    """
    parts = PurePosixPath(dest.replace("\\", "/")).parts
    if parts and parts[-1].lower() in DROPPED_QT_FILES:
        return False
    if "PySide6" not in parts:
        return True
    inside = parts[parts.index("PySide6") + 1:]
    if inside[:1] == ("Qt",):
        inside = inside[1:]
    if inside[:1] == ("translations",):
        return False
    if inside[:1] != ("plugins",) or len(inside) < 3:
        return True
    folder, filename = inside[1], inside[-1]
    match = _PLUGIN_FILE.match(filename)
    if folder not in KEPT_QT_PLUGINS or not match:
        return False
    return match.group("name") in KEPT_QT_PLUGINS[folder]


def is_system_library(dest: str) -> bool:
    """Whether a collected Linux library is one of :data:`SYSTEM_LIBRARIES` (``libz.so.1``...)."""
    name = PurePosixPath(dest.replace("\\", "/")).name
    match = re.match(r"^(?P<stem>.+?)\.so(?:\.[0-9.]+)?$", name)
    return bool(match) and match.group("stem") in SYSTEM_LIBRARIES


def stage_sources(stage: Path, root: Path = ROOT) -> Path:
    """Copy the package laid out as in the wheel: ``resources/`` in ``mneme_desktop/resources``.

    PyInstaller then analyses the copy, so ``importlib.resources.files(...)`` finds
    ``mneme_desktop.resources`` in the bundle just as in an installed wheel, however the
    build machine installed the project (editable or not).
    """
    if stage.exists():
        shutil.rmtree(stage)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")
    shutil.copytree(root / "mneme_desktop", stage / "mneme_desktop", ignore=ignore)
    shutil.copytree(root / "resources", stage / "mneme_desktop" / "resources", ignore=ignore,
                    dirs_exist_ok=True)
    return stage


def resource_datas(stage: Path, platform: str = sys.platform) -> list[tuple[str, str]]:
    """(source, bundle folder) for every non-Python file under the staged resources.

    The .ico is for Windows and the .icns for macOS only; the other OSes leave them out.
    """
    base = stage / "mneme_desktop" / "resources"
    foreign = {".ico", ".icns"} - {{"win32": ".ico", "darwin": ".icns"}.get(platform, "")}
    datas = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and path.suffix not in {".py", ".pyc", *foreign}:
            folder = PurePosixPath("mneme_desktop", "resources",
                                   *path.parent.relative_to(base).parts)
            datas.append((str(path), str(folder)))
    return datas


def tree_size(path: Path) -> int:
    """Bytes on disk of the files under ``path`` (symlinks counted once, as links)."""
    if path.is_file() or path.is_symlink():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() or p.is_symlink())


def human_size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def platform_tag() -> str:
    import platform

    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")
    return f"{system}-{machine}"


def artifact_stem(version: str) -> str:
    return f"{APP_ID}-{version}-{platform_tag()}"
