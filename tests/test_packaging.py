"""Fast checks of the packaging (issue #8): no PyInstaller run, no bundle built.

The spec is executed against stand-ins for PyInstaller's build classes, so what it would hand
PyInstaller (resources, excludes, icon, version, the macOS document type) is checked on every
OS in well under a second. .ci/build_packages.sh builds and runs the real bundle.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, get_args

import pytest

import mneme_desktop

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
SPEC = PACKAGING / "mneme-desktop.spec"


def load(name: str) -> ModuleType:
    """A packaging script as a module, by path (packaging/ is deliberately not a package)."""
    spec = importlib.util.spec_from_file_location(f"packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def appmeta() -> ModuleType:
    return load("appmeta")


# --- the version comes from the package ----------------------------------------------------

def test_version_is_read_from_the_package(appmeta: ModuleType) -> None:
    assert appmeta.read_version() == mneme_desktop.__version__


def test_pyproject_declares_the_package_version() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == mneme_desktop.__version__


def test_read_version_parses_without_importing(appmeta: ModuleType, tmp_path: Path) -> None:
    package = tmp_path / "mneme_desktop"
    package.mkdir()
    (package / "__init__.py").write_text('import nothing_here\n__version__ = "2.3.4rc1"\n')
    assert appmeta.read_version(tmp_path) == "2.3.4rc1"
    (package / "__init__.py").write_text("VERSION = 1\n")
    with pytest.raises(ValueError, match="__version__"):
        appmeta.read_version(tmp_path)


@pytest.mark.parametrize(("version", "numbers", "debian"), [
    ("0.1.0", (0, 1, 0, 0), "0.1.0"),
    ("1.2", (1, 2, 0, 0), "1.2"),
    ("2.0.1rc1", (2, 0, 1, 0), "2.0.1~rc1"),
    ("1.0a2", (1, 0, 0, 0), "1.0~a2"),
    ("1.0.0.dev3", (1, 0, 0, 0), "1.0.0~dev3"),
    ("1.4.2.post1", (1, 4, 2, 0), "1.4.2+post1"),
    ("1.2.3.4", (1, 2, 3, 4), "1.2.3.4"),
])
def test_version_forms(appmeta: ModuleType, version: str, numbers: tuple[int, ...],
                       debian: str) -> None:
    assert appmeta.numeric_version(version) == numbers
    assert appmeta.debian_version(version) == debian


def test_numeric_version_refuses_garbage(appmeta: ModuleType) -> None:
    with pytest.raises(ValueError, match="not a version"):
        appmeta.numeric_version("latest")


def test_windows_version_file_carries_the_package_version(appmeta: ModuleType) -> None:
    text = appmeta.windows_version_info("3.1.4")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    call = ast.parse(body, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    assert call.func.id == "VSVersionInfo"
    assert "filevers=(3, 1, 4, 0)" in text and "prodvers=(3, 1, 4, 0)" in text
    assert "StringStruct('ProductVersion', '3.1.4')" in text
    assert "StringStruct('OriginalFilename', 'mneme-desktop.exe')" in text


def test_metainfo_lists_a_release_for_this_version(appmeta: ModuleType) -> None:
    root = ET.parse(LINUX / f"{appmeta.BUNDLE_ID}.metainfo.xml").getroot()
    releases = [r.get("version") for r in root.iter("release")]
    assert releases[0] == mneme_desktop.__version__


# --- the spec ------------------------------------------------------------------------------

def test_spec_compiles() -> None:
    compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec")


def run_spec(platform: str, monkeypatch: pytest.MonkeyPatch,
             tmp_path: Path) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    made: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def target(kind: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> Any:
            made.append((kind, args, kwargs))
            if kind == "Analysis":  # PyInstaller's TOC form: (name in bundle, source, kind)
                datas = [(f"{dest}/{Path(src).name}", src, "DATA")
                         for src, dest in kwargs["datas"]]
                return SimpleNamespace(binaries=[], datas=datas, pure=[], scripts=[])
            return SimpleNamespace(kwargs=kwargs)
        return make

    monkeypatch.setenv("MNEME_PACKAGING_BUILD_DIR", str(tmp_path / "build"))
    monkeypatch.setattr(sys, "platform", platform)
    namespace = {"SPECPATH": str(PACKAGING), "__file__": str(SPEC), "__name__": "__main__",
                 **{kind: target(kind) for kind in
                    ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}}
    exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"), namespace)
    return made


def only(made: list[tuple[str, tuple[Any, ...], dict[str, Any]]], kind: str) -> dict[str, Any]:
    found = [kwargs for k, _, kwargs in made if k == kind]
    assert len(found) == 1, f"{kind}: {len(found)} made"
    return found[0]


def test_spec_bundles_resources_where_importlib_resources_looks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made = run_spec("linux", monkeypatch, tmp_path)
    analysis = only(made, "Analysis")
    assert "mneme_desktop.resources" in analysis["hiddenimports"]
    assert analysis["runtime_hooks"] == [str(PACKAGING / "runtime_hook.py")]
    datas = {Path(src).name: dest for src, dest in analysis["datas"]}
    assert datas["sample_campaign.mneme"] == "mneme_desktop/resources"
    for font in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"):
        assert datas[font] == "mneme_desktop/resources/fonts"
    assert datas["mneme-desktop-256.png"] == "mneme_desktop/resources/icons"
    assert "__init__.py" not in datas  # the package itself is a module, not data
    staged = Path(analysis["pathex"][0])
    assert (staged / "mneme_desktop" / "resources" / "__init__.py").is_file()
    assert not list(staged.rglob("__pycache__"))


def test_spec_makes_a_windowed_onedir_bundle(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    made = run_spec("linux", monkeypatch, tmp_path)
    exe = only(made, "EXE")
    assert exe["name"] == "mneme-desktop"
    assert exe["console"] is False
    assert exe["exclude_binaries"] is True  # onedir: libraries beside, not inside, the exe
    assert exe["strip"] is True
    assert only(made, "COLLECT")["name"] == "mneme-desktop"
    assert not [k for k, _, _ in made if k == "BUNDLE"]
    excludes = only(made, "Analysis")["excludes"]
    assert "tkinter" in excludes and "PySide6.QtQuick" in excludes
    for needed in ("socket", "asyncio", "email", "typing_extensions", "PySide6.QtPrintSupport"):
        assert needed not in excludes


def test_spec_on_windows_adds_version_resource_icon_and_console_twin(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made = run_spec("win32", monkeypatch, tmp_path)
    exes = [kwargs for kind, _, kwargs in made if kind == "EXE"]
    assert [(e["name"], e["console"]) for e in exes] == [
        ("mneme-desktop", False), ("mneme-desktop-cli", True)]
    for exe in exes:
        assert exe["icon"].endswith("mneme-desktop.ico") and Path(exe["icon"]).is_file()
        version_file = Path(exe["version"])
        assert f"'ProductVersion', '{mneme_desktop.__version__}'" in version_file.read_text()
    datas = {Path(src).name for src, _ in only(made, "Analysis")["datas"]}
    assert "mneme-desktop.ico" in datas and "mneme-desktop.icns" not in datas


def test_spec_on_macos_declares_the_mneme_document_type(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    made = run_spec("darwin", monkeypatch, tmp_path)
    assert only(made, "EXE")["argv_emulation"] is True
    bundle = only(made, "BUNDLE")
    assert bundle["name"] == "Mneme Desktop.app"
    assert bundle["icon"].endswith(".icns") and Path(bundle["icon"]).is_file()
    plist = bundle["info_plist"]
    assert plist["CFBundleShortVersionString"] == mneme_desktop.__version__
    (document,) = plist["CFBundleDocumentTypes"]
    assert document["CFBundleTypeExtensions"] == ["mneme"]
    (exported,) = plist["UTExportedTypeDeclarations"]
    assert exported["UTTypeIdentifier"] in document["LSItemContentTypes"]
    assert exported["UTTypeTagSpecification"]["public.filename-extension"] == ["mneme"]
    assert "public.json" in exported["UTTypeConformsTo"]


# --- what the bundle keeps -----------------------------------------------------------------

@pytest.mark.parametrize(("dest", "kept"), [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", True),
    ("PySide6/Qt/plugins/platforms/libqeglfs.so", False),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
    ("PySide6/Qt/plugins/printsupport/libcupsprintersupport.so", True),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", True),
    ("PySide6/Qt/plugins/imageformats/libqpdf.so", False),
    ("PySide6/Qt/plugins/imageformats/libqtiff.so", False),
    ("PySide6/Qt/plugins/sqldrivers/libqsqlite.so", False),
    ("PySide6/Qt/plugins/qmltooling/libqmldbg_tcp.so", False),
    ("PySide6/Qt/translations/qtbase_de.qm", False),
    ("PySide6\\plugins\\platforms\\qwindows.dll", True),
    ("PySide6\\plugins\\styles\\qmodernwindowsstyle.dll", True),
    ("PySide6\\translations\\qtbase_fr.qm", False),
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", True),
    ("PySide6/Qt/lib/libQt6Core.so.6", True),
    ("PySide6/QtWidgets.abi3.so", True),
    ("libpython3.11.so.1.0", True),
    ("PySide6\\opengl32sw.dll", False),
    ("PySide6\\d3dcompiler_47.dll", False),
    ("PySide6\\Qt6Widgets.dll", True),
])
def test_qt_plugins_and_translations_kept_or_dropped(appmeta: ModuleType, dest: str,
                                                     kept: bool) -> None:
    assert appmeta.qt_file_kept(dest) is kept


def test_every_portrait_image_type_has_its_plugin(appmeta: ModuleType) -> None:
    from mneme_desktop.domain.character import Portrait

    media_types = get_args(Portrait.model_fields["media_type"].annotation)
    assert media_types, "Portrait.media_type is no longer a Literal"
    for media_type in media_types:
        assert media_type in appmeta.IMAGE_PLUGINS, f"no image plugin known for {media_type}"
        plugin = appmeta.IMAGE_PLUGINS[media_type]
        assert plugin is None or plugin in appmeta.KEPT_QT_PLUGINS["imageformats"]


@pytest.mark.parametrize(("dest", "system"), [
    ("libstdc++.so.6", True), ("libz.so.1", True), ("libfontconfig.so.1", True),
    ("libcups.so.2", True), ("libzstd.so.1", True),
    ("libxcb-cursor.so.0", False), ("libxkbcommon.so.0", False), ("libffi.so.8", False),
    ("PySide6/Qt/lib/libQt6Core.so.6", False), ("libpython3.11.so.1.0", False),
    ("libicudata.so.73", False),
])
def test_system_libraries(appmeta: ModuleType, dest: str, system: bool) -> None:
    assert appmeta.is_system_library(dest) is system


# --- build.py ------------------------------------------------------------------------------

def test_build_help_works_without_pyinstaller_or_qt() -> None:
    result = subprocess.run([sys.executable, str(PACKAGING / "build.py"), "--help"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "--installer" in result.stdout and "--clean" in result.stdout
    probe = subprocess.run(
        [sys.executable, "-c",
         "import importlib.util, sys\n"
         f"spec = importlib.util.spec_from_file_location('b', {str(PACKAGING / 'build.py')!r})\n"
         "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
         "print(sorted(m for m in sys.modules if m.startswith(('PyInstaller', 'PySide6'))))"],
        capture_output=True, text=True, timeout=60, check=False)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "[]"


def test_build_refuses_a_missing_bundle_clearly(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    build = load("build")
    monkeypatch.setattr(build.appmeta, "DIST_DIR", tmp_path / "dist")
    assert build.main(["--installer", "--skip-bundle"]) == 1
    assert "does not exist; build it first" in capsys.readouterr().err


def test_both_bundles_store_their_modules_uncompressed(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """The app and the bare window it is timed against are frozen the same way; inflating
    every imported module was ~20 ms of the app's start."""
    build = load("build")
    monkeypatch.setattr(build.appmeta, "DIST_DIR", tmp_path / "dist")
    monkeypatch.setattr(build.importlib.util, "find_spec", lambda name: object())
    seen: list[tuple[str, str | None]] = []

    def fake_run(command: list[str], **kwargs: Any) -> SimpleNamespace:
        env = kwargs.get("env") or {}
        seen.append((command[-1], env.get("PYINSTALLER_ZLIB_COMPRESSION_LEVEL")))
        return SimpleNamespace(returncode=0)

    monkeypatch.setattr(build.subprocess, "run", fake_run)
    for make in (build.build_bundle, build.build_bare_window):
        with pytest.raises(build.BuildError, match="is missing"):
            make(clean=False) if make is build.build_bundle else make()
    assert [level for _, level in seen] == ["0", "0"]
    assert seen[0][0].endswith("mneme-desktop.spec") and seen[1][0].endswith("bare_window.py")


def test_metainfo_release_check_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    build = load("build")
    build.check_metainfo_version(mneme_desktop.__version__)
    with pytest.raises(build.BuildError, match="add a <release> entry"):
        build.check_metainfo_version("99.0.0")


def test_installer_name_matches_what_inno_setup_writes(appmeta: ModuleType) -> None:
    iss = (PACKAGING / "windows" / "mneme-desktop.iss").read_text(encoding="utf-8")
    assert "OutputBaseFilename=mneme-desktop-{#AppVersion}-windows-x86_64-setup" in iss
    build_source = (PACKAGING / "build.py").read_text(encoding="utf-8")
    assert '-windows-x86_64-setup.exe"' in build_source


def test_inno_setup_script_installs_associates_and_uninstalls() -> None:
    iss = (PACKAGING / "windows" / "mneme-desktop.iss").read_text(encoding="utf-8")
    for section in ("[Setup]", "[Files]", "[Icons]", "[Registry]", "[Run]"):
        assert section in iss
    assert "#ifndef AppVersion" in iss and "AppVersion={#AppVersion}" in iss
    assert 'Subkey: "Software\\Classes\\.mneme"' in iss
    assert '"{app}\\{#AppExeName}"" ""%1"""' in iss  # opens the double-clicked file
    assert "{autoprograms}\\{#AppName}" in iss  # Start menu entry
    assert "ChangesAssociations=yes" in iss
    assert "uninsdeletekey" in iss and "uninsdeletevalue" in iss
    assert '#define AppExeName "mneme-desktop.exe"' in iss
    app_id = [line for line in iss.splitlines() if line.startswith("AppId=")]
    assert len(app_id) == 1 and app_id[0].startswith("AppId={{")


@pytest.mark.parametrize("script", [ROOT / ".ci" / "build_packages.sh",
                                    PACKAGING / "macos" / "make_dmg.sh"])
def test_shell_scripts_parse(script: Path) -> None:
    result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr


def test_measure_startup_rejects_a_command_without_label() -> None:
    measure = load("measure_startup")
    assert measure.parse_command("frozen=dist/app --flag") == ("frozen", ["dist/app", "--flag"])
    with pytest.raises(Exception, match="LABEL=COMMAND"):
        measure.parse_command("dist/app")


# --- Linux desktop integration -------------------------------------------------------------

def test_desktop_entry(appmeta: ModuleType) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(LINUX / "mneme-desktop.desktop", encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Name"] == appmeta.APP_NAME
    assert entry["Exec"] == f"{appmeta.APP_ID} %f"  # a double-clicked file arrives as argv[1]
    assert entry["Icon"] == appmeta.APP_ID
    assert appmeta.MIME_TYPE in entry["MimeType"].split(";")
    assert entry["Categories"].endswith(";") and "Game" in entry["Categories"].split(";")
    assert entry["Terminal"] == "false"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-utils not installed")
def test_desktop_entry_passes_desktop_file_validate() -> None:
    result = subprocess.run(["desktop-file-validate", str(LINUX / "mneme-desktop.desktop")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_metainfo(appmeta: ModuleType) -> None:
    root = ET.parse(LINUX / f"{appmeta.BUNDLE_ID}.metainfo.xml").getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == appmeta.BUNDLE_ID
    assert root.findtext("launchable") == f"{appmeta.APP_ID}.desktop"
    assert root.findtext("provides/mediatype") == appmeta.MIME_TYPE
    assert root.findtext("provides/binary") == appmeta.APP_ID
    assert root.findtext("project_license") == "MIT"


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_passes_appstreamcli(appmeta: ModuleType) -> None:
    result = subprocess.run(["appstreamcli", "validate", "--no-net",
                             str(LINUX / f"{appmeta.BUNDLE_ID}.metainfo.xml")],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mime_type_claims_mneme_files(appmeta: ModuleType) -> None:
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(LINUX / "mneme-desktop.xml").getroot()
    (mime,) = root.findall("m:mime-type", ns)
    assert mime.get("type") == appmeta.MIME_TYPE
    assert [g.get("pattern") for g in mime.findall("m:glob", ns)] == ["*.mneme"]
    assert mime.find("m:sub-class-of", ns).get("type") == "application/json"  # type: ignore[union-attr]


# --- icons ---------------------------------------------------------------------------------

def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_icons_exist_in_every_size(appmeta: ModuleType) -> None:
    build = load("build")
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        assert png_size(appmeta.ICONS_DIR / f"mneme-desktop-{size}.png") == (size, size)
    assert set(build.HICOLOR_SIZES) <= {16, 22, 24, 32, 48, 64, 128, 256, 512}
    svg = ET.parse(appmeta.ICONS_DIR / "mneme-desktop.svg").getroot()
    assert svg.tag.endswith("svg")


def test_ico_and_icns_hold_every_size(appmeta: ModuleType) -> None:
    ico = (appmeta.ICONS_DIR / "mneme-desktop.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1)
    sizes = sorted((ico[6 + 16 * i] or 256) for i in range(count))
    assert sizes == [16, 24, 32, 48, 64, 128, 256]
    for i in range(count):
        length, offset = struct.unpack("<II", ico[6 + 16 * i + 8: 6 + 16 * i + 16])
        assert offset + length <= len(ico)
    icns = (appmeta.ICONS_DIR / "mneme-desktop.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    kinds, position = [], 8
    while position < len(icns):
        kinds.append(icns[position:position + 4].decode())
        position += struct.unpack(">I", icns[position + 4:position + 8])[0]
    assert position == len(icns)
    assert {"ic07", "ic08", "ic09", "ic10"} <= set(kinds)


def test_committed_icons_are_what_make_icons_draws(qapp: Any, appmeta: ModuleType) -> None:
    from PySide6.QtGui import QImage

    make_icons = load("make_icons")
    for size in (16, 64):
        fresh = make_icons.render(size).convertToFormat(QImage.Format.Format_ARGB32)
        committed = QImage(str(appmeta.ICONS_DIR / f"mneme-desktop-{size}.png"))
        committed = committed.convertToFormat(QImage.Format.Format_ARGB32)
        assert committed.size() == fresh.size()
        difference = sum(
            abs(((fresh.pixel(x, y) >> shift) & 0xFF) - ((committed.pixel(x, y) >> shift) & 0xFF))
            for x in range(size) for y in range(size) for shift in (0, 8, 16, 24))
        assert difference / (size * size * 4) < 2.0, "run packaging/make_icons.py again"
