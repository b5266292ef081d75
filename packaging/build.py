"""Build Mneme Desktop for the OS this runs on, and with ``--installer`` its installer.

    python packaging/build.py               # the PyInstaller bundle in packaging/dist/
    python packaging/build.py --installer   # and: Linux .tar.gz + .deb, Windows setup .exe,
                                            #      macOS .dmg

Needs PyInstaller (``pip install pyinstaller``, or ``pip install -e ".[build]"``). Installers
need: Linux dpkg-deb (Debian/Ubuntu); Windows Inno Setup 6 (ISCC.exe on PATH or in its
default folder); macOS hdiutil (built in). Everything goes to packaging/build and
packaging/dist, which git ignores.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType


def _load_appmeta() -> ModuleType:
    # By path: the folder is not a package (it would shadow PyPI's ``packaging``).
    spec = importlib.util.spec_from_file_location("appmeta",
                                                  Path(__file__).with_name("appmeta.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


appmeta = _load_appmeta()
SPEC_FILE = appmeta.PACKAGING_DIR / "mneme-desktop.spec"
LINUX_DIR = appmeta.PACKAGING_DIR / "linux"
ISS_FILE = appmeta.PACKAGING_DIR / "windows" / "mneme-desktop.iss"
DMG_SCRIPT = appmeta.PACKAGING_DIR / "macos" / "make_dmg.sh"
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
METAINFO_NAME = f"{appmeta.BUNDLE_ID}.metainfo.xml"


class BuildError(Exception):
    """A build step cannot go on; the message says what to install or fix."""


@contextmanager
def step(title: str) -> Iterator[None]:
    print(f"== {title}", flush=True)
    start = time.perf_counter()
    yield
    print(f"   {title}: {time.perf_counter() - start:.1f} s", flush=True)


PYINSTALLER_ENV = {"PYINSTALLER_ZLIB_COMPRESSION_LEVEL": "0"}
"""Modules stored in the bundle's archive without compression: each start otherwise
inflates every module it imports (~20 ms of the app's start, ~1 ms of the bare window's).
The bundle grows ~6 MB; the installers compress it anyway. Both bundles are built so."""


def run(command: Sequence[str | os.PathLike[str]], cwd: Path | None = None,
        env: dict[str, str] | None = None) -> None:
    printable = " ".join(str(part) for part in command)
    print(f"   $ {printable}", flush=True)
    result = subprocess.run([str(part) for part in command], cwd=cwd, check=False,
                            env={**os.environ, **env} if env else None)
    if result.returncode != 0:
        raise BuildError(f"command failed with exit status {result.returncode}: {printable}")


def bundle_path() -> Path:
    """Where PyInstaller leaves the app: a folder, or on macOS the .app bundle."""
    if sys.platform == "darwin":
        return appmeta.DIST_DIR / f"{appmeta.APP_NAME}.app"
    return appmeta.DIST_DIR / appmeta.APP_ID


def build_bundle(*, clean: bool) -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        raise BuildError(f"PyInstaller is not installed for {sys.executable}: "
                         f"run '{sys.executable} -m pip install pyinstaller'")
    command: list[str | os.PathLike[str]] = [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
        "--distpath", appmeta.DIST_DIR, "--workpath", appmeta.BUILD_DIR / "pyinstaller",
        SPEC_FILE]
    if clean:
        command.insert(3, "--clean")
    with step("PyInstaller bundle"):
        run(command, cwd=appmeta.ROOT, env=PYINSTALLER_ENV)
    path = bundle_path()
    if not path.exists():
        raise BuildError(f"PyInstaller finished but {path} is missing")
    print(f"   bundle: {path} ({appmeta.human_size(appmeta.tree_size(path))})")
    return path


BARE_WINDOW = "bare-window"


def build_bare_window() -> Path:
    """The start-up baseline frozen the same way: a bare PySide6 window (bare_window.py)."""
    command: list[str | os.PathLike[str]] = [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--onedir",
        "--name", BARE_WINDOW, "--distpath", appmeta.DIST_DIR,
        "--workpath", appmeta.BUILD_DIR / "pyinstaller-bare",
        "--specpath", appmeta.BUILD_DIR / "pyinstaller-bare",
        appmeta.PACKAGING_DIR / "bare_window.py"]
    with step("PyInstaller bare window (start-up baseline)"):
        run(command, cwd=appmeta.ROOT, env=PYINSTALLER_ENV)
    path = appmeta.DIST_DIR / BARE_WINDOW / BARE_WINDOW
    if not path.exists():
        raise BuildError(f"PyInstaller finished but {path} is missing")
    return path.parent


# --- Linux ---------------------------------------------------------------------------------

def make_tarball(bundle: Path, version: str) -> Path:
    """The bundle as ``mneme-desktop-VERSION/`` in a .tar.gz: unpack anywhere and run."""
    out = appmeta.DIST_DIR / f"{appmeta.artifact_stem(version)}.tar.gz"
    top = f"{appmeta.APP_ID}-{version}"

    def owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with step(f"tarball {out.name}"), tarfile.open(out, "w:gz", compresslevel=6) as archive:
        archive.add(bundle, arcname=top, filter=owned_by_root)
    print(f"   {out} ({appmeta.human_size(out.stat().st_size)})")
    return out


def _elf_files(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def system_libraries(bundle: Path) -> tuple[set[Path], list[str], str | None]:
    """What the bundle links from the system: libraries, ones missing here, the glibc it needs.

    Only direct links count (each ELF file's NEEDED entries), as with dpkg-shlibdeps; ldd
    just says where each of those names resolves on this machine.
    """
    internal = bundle / "_internal"
    search = os.pathsep.join(str(p) for p in (internal, internal / "PySide6" / "Qt" / "lib"))
    env = dict(os.environ, LD_LIBRARY_PATH=search)
    elves = _elf_files(bundle)
    inside = {path.name for path in bundle.rglob("*")}
    needed: set[str] = set()
    where: dict[str, str] = {}
    glibc = (0, 0)
    for elf in elves:
        dump = subprocess.run(["objdump", "-p", str(elf)], capture_output=True, text=True,
                              check=False).stdout
        needed |= set(re.findall(r"^\s*NEEDED\s+(\S+)", dump, re.MULTILINE))
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", dump):
            glibc = max(glibc, (int(major), int(minor)))
        ldd = subprocess.run(["ldd", str(elf)], capture_output=True, text=True, env=env,
                             check=False).stdout
        for name, path in re.findall(r"^\s*(\S+) => (.+?)(?: \(0x[0-9a-f]+\))?$", ldd,
                                     re.MULTILINE):
            where.setdefault(name, path)
    outside = sorted(name for name in needed if name not in inside)
    resolved = {Path(where[name]) for name in outside
                if where.get(name, "not found") != "not found"}
    missing = [name for name in outside if where.get(name, "not found") == "not found"]
    glibc_text = f"{glibc[0]}.{glibc[1]}" if glibc != (0, 0) else None
    return resolved, missing, glibc_text


def debian_depends(bundle: Path) -> str:
    """A Depends line for the libraries the bundle loads from the system (like dpkg-shlibdeps)."""
    libraries, missing, glibc = system_libraries(bundle)
    packages: set[str] = set()
    for name in missing:
        if name.startswith("ld-linux"):
            continue  # the dynamic loader, part of libc6
        if name in appmeta.DEBIAN_PACKAGE_OF:
            packages.add(appmeta.DEBIAN_PACKAGE_OF[name])
        else:
            print(f"   warning: {name} is not on this machine and no package is known for it; "
                  "left out of Depends")
    for library in sorted(libraries):
        candidates = {str(library), str(library.resolve())}
        for path in list(candidates):  # merged /usr: dpkg may know either spelling
            if path.startswith("/usr/lib/"):
                candidates.add(path[len("/usr"):])
            elif path.startswith("/lib/"):
                candidates.add("/usr" + path)
        owner = subprocess.run(["dpkg-query", "-S", *sorted(candidates)], capture_output=True,
                               text=True, check=False)
        names = {line.split(":")[0].strip() for line in owner.stdout.splitlines() if ":" in line}
        if not names:
            print(f"   warning: no package owns {library}; left out of Depends")
        packages |= names
    depends = sorted(packages - {"libc6"})
    depends.insert(0, f"libc6 (>= {glibc})" if glibc else "libc6")
    return ", ".join(depends)


def _copy_file(source: Path, target: Path, mode: int = 0o644) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    target.chmod(mode)


def _normalise_modes(root: Path) -> None:
    """Owner-writable, readable by all; executables stay executable (dpkg keeps these modes)."""
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        if path.is_dir() or mode & 0o111:
            path.chmod(0o755)
        else:
            path.chmod(0o644)


def check_metainfo_version(version: str) -> None:
    text = (LINUX_DIR / METAINFO_NAME).read_text(encoding="utf-8")
    releases = re.findall(r'<release\s+version="([^"]+)"', text)
    if not releases or releases[0] != version:
        raise BuildError(f"packaging/linux/{METAINFO_NAME}: the newest <release> is "
                         f"{releases[0] if releases else 'missing'}, the package is {version}; "
                         "add a <release> entry for this version")


def make_deb(bundle: Path, version: str) -> Path:
    """A .deb: the bundle in /opt, a launcher in /usr/bin, desktop entry, icons, MIME type."""
    if shutil.which("dpkg-deb") is None:
        raise BuildError("dpkg-deb not found: the .deb can only be built on Debian or Ubuntu")
    check_metainfo_version(version)
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()
    deb_version = appmeta.debian_version(version)
    root = appmeta.BUILD_DIR / "deb" / f"{appmeta.APP_ID}_{deb_version}_{arch}"
    out = appmeta.DIST_DIR / f"{appmeta.APP_ID}_{deb_version}_{arch}.deb"
    with step(f"Debian package {out.name}"):
        if root.exists():
            shutil.rmtree(root)
        opt = root / "opt" / appmeta.APP_ID
        shutil.copytree(bundle, opt, symlinks=True)
        (root / "usr" / "bin").mkdir(parents=True)
        (root / "usr" / "bin" / appmeta.APP_ID).symlink_to(
            Path("..", "..", "opt", appmeta.APP_ID, appmeta.APP_ID))
        share = root / "usr" / "share"
        _copy_file(LINUX_DIR / f"{appmeta.APP_ID}.desktop",
                   share / "applications" / f"{appmeta.APP_ID}.desktop")
        _copy_file(LINUX_DIR / f"{appmeta.APP_ID}.xml",
                   share / "mime" / "packages" / f"{appmeta.APP_ID}.xml")
        _copy_file(LINUX_DIR / METAINFO_NAME, share / "metainfo" / METAINFO_NAME)
        _copy_file(LINUX_DIR / "copyright", share / "doc" / appmeta.APP_ID / "copyright")
        for size in HICOLOR_SIZES:
            _copy_file(appmeta.ICONS_DIR / f"{appmeta.APP_ID}-{size}.png",
                       share / "icons" / "hicolor" / f"{size}x{size}" / "apps"
                       / f"{appmeta.APP_ID}.png")
        _copy_file(appmeta.ICONS_DIR / f"{appmeta.APP_ID}.svg",
                   share / "icons" / "hicolor" / "scalable" / "apps" / f"{appmeta.APP_ID}.svg")
        _normalise_modes(root)

        depends = debian_depends(bundle)
        installed_kib = (appmeta.tree_size(root) + 1023) // 1024
        control = root / "DEBIAN" / "control"
        control.parent.mkdir()
        control.write_text(
            f"Package: {appmeta.APP_ID}\n"
            f"Version: {deb_version}\n"
            f"Architecture: {arch}\n"
            f"Maintainer: {appmeta.PUBLISHER} <maintainers@mneme.invalid>\n"
            f"Installed-Size: {installed_kib}\n"
            f"Depends: {depends}\n"
            "Section: games\n"
            "Priority: optional\n"
            f"Description: {appmeta.SUMMARY}\n"
            " Mneme Desktop keeps a whole Mneme CE campaign in one file and works offline:\n"
            " character sheets, encounters (initiative, actions, damage, wounds, bleeding,\n"
            " dying), healing over in-game days, printing and export to PDF, HTML and JSON.\n"
            " .\n"
            " This package ships a self-contained build in /opt/mneme-desktop.\n",
            encoding="utf-8")
        (root / "DEBIAN").chmod(0o755)
        print(f"   Depends: {depends}")
        # xz level 1: 35 MB in ~20 s on two cores; level 6 saves 4 MB and takes ~80 s.
        run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z1", "--build", root, out])
    print(f"   {out} ({appmeta.human_size(out.stat().st_size)})")
    return out


# --- Windows and macOS ---------------------------------------------------------------------

def find_iscc() -> Path:
    found = shutil.which("ISCC") or shutil.which("iscc")
    if found:
        return Path(found)
    for variable in ("ProgramFiles(x86)", "ProgramFiles", "LOCALAPPDATA"):
        base = os.environ.get(variable)
        if not base:
            continue
        for relative in (Path("Inno Setup 6", "ISCC.exe"),
                         Path("Programs", "Inno Setup 6", "ISCC.exe")):
            if (Path(base) / relative).is_file():
                return Path(base) / relative
    raise BuildError("Inno Setup 6 not found: install it (winget install JRSoftware.InnoSetup) "
                     "or put ISCC.exe on PATH")


def make_windows_installer(bundle: Path, version: str) -> Path:
    iscc = find_iscc()
    out = appmeta.DIST_DIR / f"{appmeta.APP_ID}-{version}-windows-x86_64-setup.exe"
    with step(f"Inno Setup installer {out.name}"):
        run([iscc, "/Q", f"/DAppVersion={version}", f"/DSourceDir={bundle}",
             f"/DIconFile={appmeta.ICONS_DIR / (appmeta.APP_ID + '.ico')}",
             f"/DOutputDir={appmeta.DIST_DIR}", ISS_FILE])
    if not out.exists():
        raise BuildError(f"Inno Setup finished but {out} is missing")
    print(f"   {out} ({appmeta.human_size(out.stat().st_size)})")
    return out


def make_dmg(app: Path, version: str) -> Path:
    out = appmeta.DIST_DIR / f"{appmeta.artifact_stem(version)}.dmg"
    with step(f"disk image {out.name}"):
        run(["bash", DMG_SCRIPT, app, out])
    print(f"   {out} ({appmeta.human_size(out.stat().st_size)})")
    return out


def make_installers(bundle: Path, version: str) -> list[Path]:
    if sys.platform == "win32":
        return [make_windows_installer(bundle, version)]
    if sys.platform == "darwin":
        return [make_dmg(bundle, version)]
    return [make_tarball(bundle, version), make_deb(bundle, version)]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python packaging/build.py",
        description="Build the Mneme Desktop bundle (PyInstaller, onedir) for this OS into "
                    "packaging/dist, and optionally its installer.",
        epilog="Installers: Linux .tar.gz and .deb (needs dpkg-deb); Windows Inno Setup "
               ".exe (needs ISCC.exe); macOS .dmg (needs hdiutil).")
    parser.add_argument("--installer", action="store_true",
                        help="also build the installer(s) for this OS")
    parser.add_argument("--clean", action="store_true",
                        help="empty PyInstaller's cache first (after upgrading Qt or Python)")
    parser.add_argument("--bare-window", action="store_true",
                        help="also freeze the bare-window start-up baseline (benchmarks)")
    parser.add_argument("--skip-bundle", action="store_true",
                        help="reuse the bundle already in packaging/dist (with --installer)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    version = appmeta.read_version()
    print(f"== {appmeta.APP_NAME} {version} for {appmeta.platform_tag()}")
    start = time.perf_counter()
    try:
        if args.skip_bundle:
            bundle = bundle_path()
            if not bundle.exists():
                raise BuildError(f"--skip-bundle: {bundle} does not exist; build it first")
        else:
            bundle = build_bundle(clean=args.clean)
        outputs = [bundle]
        if args.installer:
            outputs += make_installers(bundle, version)
        if args.bare_window:
            outputs.append(build_bare_window())
    except BuildError as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        return 1
    print(f"== done in {time.perf_counter() - start:.1f} s")
    for path in outputs:
        print(f"   {appmeta.human_size(appmeta.tree_size(path)):>9}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
