"""Entry point: the command line, the batch commands, and starting the window.

Heavy imports (Qt widgets, pydantic models) happen inside functions so that
``mneme-desktop --help`` and the batch commands stay quick, and so that the first
paint of the window does not wait for modules it does not need.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any

from mneme_desktop import APP_NAME, __version__
from mneme_desktop.context import AppContext
from mneme_desktop.module_scan import ModuleScan
from mneme_desktop.paths import AppPaths

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from mneme_desktop.code_cache import CodeCache

log = logging.getLogger("mneme_desktop")

VIEWS = ("sheet", "encounter", "healing", "player")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mneme-desktop",
        description=f"{APP_NAME}: campaign, character and encounter manager for Mneme CE.",
        epilog="Batch commands: 'mneme-desktop import FILE --into CAMPAIGN [--force]', "
               "'mneme-desktop export CAMPAIGN --format pdf|html|json --out DIR' and "
               "'mneme-desktop check FILE'.",
    )
    parser.add_argument("campaign", nargs="?", type=Path,
                        help="a .mneme campaign to open (default: the last one, or the sample)")
    parser.add_argument("--smoke-test", action="store_true",
                        help="open the window, process events and exit 0 (non-zero on error)")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="render the main window offscreen to a PNG and exit")
    parser.add_argument("--view", choices=VIEWS, default="sheet",
                        help="the view shown for --screenshot (player: the player display "
                        "at 1920x1080)")
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    return parser


def build_import_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mneme-desktop import",
                                     description="Import a character file into a campaign.")
    parser.add_argument("source", type=Path, help="a character JSON file (ours or ce-char-1)")
    parser.add_argument("--into", type=Path, required=True, metavar="CAMPAIGN.mneme")
    parser.add_argument("--force", action="store_true",
                        help="import even though the campaign is open in Mneme Desktop (the "
                        "window will then warn that the file changed before it saves)")
    return parser


def run_import(argv: Sequence[str], paths: AppPaths | None = None) -> int:
    """``mneme-desktop import``: 0 imported (and read back from the file), 2 refused."""
    args = build_import_parser().parse_args(argv)
    from mneme_desktop.storage import (
        CampaignLoadError,
        CampaignSaveError,
        CharacterImportError,
        LockedError,
        import_into_campaign,
    )

    lock_dir = (paths or AppPaths.default()).lock_dir
    try:
        character = import_into_campaign(args.source, args.into, lock_dir=lock_dir,
                                         force=args.force)
    except LockedError as exc:
        print(f"mneme-desktop import: {exc} Close it there first, or add --force.",
              file=sys.stderr)
        return 2
    except (CampaignLoadError, CampaignSaveError, CharacterImportError) as exc:
        print(f"mneme-desktop import: {exc}", file=sys.stderr)
        return 2
    print(f"Imported {character.name} into {args.into}")
    from mneme_desktop.storage.characters import character_report

    unmapped = character_report(character)
    if unmapped:  # what CE CharacterGen had that the sheet has no field for
        print(f"Kept in its notes, with no field on the sheet: {unmapped}")
    return 0


def build_check_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mneme-desktop check",
        description="Test whether a campaign file opens, without opening the window or "
                    "changing the file. Exit status: 0 it opens, 2 it does not.",
    )
    parser.add_argument("campaign", type=Path, metavar="FILE", help="a .mneme campaign file")
    return parser


def run_check(argv: Sequence[str], paths: AppPaths | None = None) -> int:
    """``mneme-desktop check FILE``: the app's own loader, and a report of what is wrong."""
    args = build_check_parser().parse_args(argv)
    from mneme_desktop.storage import CampaignLoadError, CampaignLock, load_campaign_file

    path: Path = args.campaign
    try:
        loaded = load_campaign_file(path)
    except CampaignLoadError as exc:
        print(f"NOT OK: {exc}")
        return 2
    campaign = loaded.campaign
    print(f"OK: '{path.name}' opens: campaign \"{campaign.name}\", "
          f"{len(campaign.characters)} characters, {len(campaign.encounters)} encounters, "
          f"{len(campaign.adversary_library)} adversary templates "
          f"({loaded.size:,} bytes, schema {campaign.schema_version}).")
    holder = CampaignLock(path, (paths or AppPaths.default()).lock_dir).live_holder()
    if holder is not None:
        print(f"Note: it is {holder.describe()}.")
    return 0


def _explain_open_failure(path: Path | None, context: AppContext) -> None:
    """Say on stderr why ``--smoke-test``/``--screenshot`` could not open ``path``."""
    if context.errors:
        for error in context.errors:
            print(f"mneme-desktop: {error}", file=sys.stderr)
        return
    if path is not None:
        from mneme_desktop.storage import CampaignLock

        holder = CampaignLock(path, context.paths.lock_dir).live_holder()
        if holder is not None:
            print(f"mneme-desktop: '{path.name}' was not opened: it is {holder.describe()}.",
                  file=sys.stderr)
            return
    print(f"mneme-desktop: {'the campaign' if path is None else repr(path.name)} could not be "
          f"opened; see the log {context.paths.log_file}.", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    install_fast_qt_enums()  # before any command imports PySide6 (the window, export)
    if argv and argv[0] == "import":
        return run_import(argv[1:])
    if argv and argv[0] == "check":
        return run_check(argv[1:])
    if argv and argv[0] == "export":
        from mneme_desktop.export.cli import run_export

        return run_export(argv[1:])
    args = build_parser().parse_args(argv)
    return run_gui(args)


def run_gui(args: argparse.Namespace, paths: AppPaths | None = None) -> int:
    headless = bool(args.smoke_test or args.screenshot)
    from mneme_desktop.platform_check import check_platform_or_explain

    if not check_platform_or_explain(headless):  # Qt would abort with a misleading line
        return 1
    paths = paths or AppPaths.default()
    release_collector = hold_garbage_collector()
    code_cache = start_code_cache(paths)
    module_scan = ModuleScan(paths.cache_dir / "module-scan.bin")
    module_scan.load()
    try:
        return _run_window(args, paths, headless, release_collector, code_cache, module_scan)
    finally:
        release_collector()
        code_cache.save()
        module_scan.save()
        code_cache.uninstall()


def _run_window(args: argparse.Namespace, paths: AppPaths, headless: bool,
                release_collector: Callable[[], None], code_cache: CodeCache,
                module_scan: ModuleScan) -> int:
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # we use none; finding costs
    skip_pydantic_plugin_search()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    quicken_pyside_module_scan(module_scan)

    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    from mneme_desktop.ui.i18n import install_translator  # Qt and the standard library only

    install_translator(app)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("Mneme")
    app.setDesktopFileName("mneme-desktop")
    app.setWindowIcon(app_icon())

    context = AppContext.create(paths, smoke_test=headless)
    from mneme_desktop.ui.main_window import MainWindow

    window = MainWindow(context)
    install_exception_hook(context, app, window)
    if not headless:
        from mneme_desktop.ui import startup_report

        if startup_report.requested():  # the benchmarks' timing marks, then quit
            window.startup_report = startup_report.StartupReport(app, window)
            window.opening_finished.connect(window.startup_report.opened)
        window.opening_finished.connect(release_collector)
        # Written (when this start made something new) once the window is on screen.
        window.opening_finished.connect(
            lambda: QTimer.singleShot(0, lambda: save_caches(context, code_cache, module_scan)))
        window.open_after_first_paint(args.campaign)
        window.show()
        return app.exec()
    opened = window.open_initial(args.campaign)
    release_collector()
    if not opened:
        _explain_open_failure(args.campaign, context)
        return 1
    if args.screenshot:
        return window.save_screenshot(args.screenshot, args.view)
    window.show()
    app.processEvents()
    window.repaint()
    app.processEvents()
    ok = not context.errors and window.isVisible()
    window.discard_and_close()
    return 0 if ok else 1


def install_fast_qt_enums() -> bool:
    """PySide6's enum classes built by the standard library's fast builder
    (:mod:`mneme_desktop.qt_enums`; ~17 ms of a start); idempotent."""
    from mneme_desktop import qt_enums

    return qt_enums.install()


def save_caches(context: AppContext, code_cache: CodeCache, module_scan: ModuleScan) -> None:
    """Write what this start compiled, generated or read and the cache folder lacked."""
    code_cache.save()
    module_scan.save()
    context.schema_cache.save()


def start_code_cache(paths: AppPaths) -> CodeCache:
    """Reuse the code compiled for dataclass methods and annotations at earlier starts
    (:mod:`mneme_desktop.code_cache`); installed before pydantic and the domain import."""
    from mneme_desktop.code_cache import CodeCache

    cache = CodeCache(paths.cache_dir / "code-cache.bin")
    cache.load()
    cache.install()
    return cache


def hold_garbage_collector() -> Callable[[], None]:
    """Keep the cyclic garbage collector off while the app starts; the returned call ends it.

    Start-up builds hundreds of thousands of long-lived objects (Qt wrappers, pydantic
    schemas, the campaign) and next to no garbage, yet the collector walked them about a
    hundred times before the sample was shown (~60 ms of ~850). Ending the hold freezes what
    start-up built (``gc.freeze``), so the collections during play skip it too.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    released = False

    def release() -> None:
        nonlocal released
        if released:
            return
        released = True
        gc.freeze()
        if was_enabled:
            gc.enable()

    return release


def quicken_pyside_module_scan(scan: ModuleScan | None = None) -> bool:
    """Make PySide6's check of each newly imported module cheap; True if it was replaced.

    PySide6 asks of every module imported after it whether its source mentions "PySide6"
    (PYSIDE-2029, for its ``__feature__`` switches), through ``inspect.getsource``, which
    tokenises the file and fills the line cache. The campaign's ~160 modules are imported
    after the window's first paint, and that check was about a quarter of their cost. Same
    question on the file's bytes, answered from ``scan``'s kept table when the file is
    unchanged (:mod:`mneme_desktop.module_scan`); anything unusual goes to PySide6's own
    check.
    """
    return (scan if scan is not None else ModuleScan(None)).install()


PYDANTIC_PLUGIN_LOADER = "pydantic.plugin._loader"


def skip_pydantic_plugin_search() -> bool:
    """Answer pydantic's "which plugins?" without importing ``importlib.metadata``; True if
    the stand-in was put in place.

    With ``PYDANTIC_DISABLE_PLUGINS=__all__`` (we use no pydantic plugin) pydantic's plugin
    loader returns none without looking, but importing the loader imports
    ``importlib.metadata``, and with it email, zipfile, csv, socket and ~40 more modules: ~8
    ms of a start, when the first validator is built. The stand-in answers ``get_plugins()``
    with none while plugins are disabled and hands any other name, or the call when they
    are not, to pydantic's own loader, loaded then.
    """
    if PYDANTIC_PLUGIN_LOADER in sys.modules or \
            os.environ.get("PYDANTIC_DISABLE_PLUGINS") != "__all__":
        return False
    stand_in = ModuleType(PYDANTIC_PLUGIN_LOADER)

    def real_loader() -> ModuleType:
        import importlib.machinery
        import importlib.util

        import pydantic.plugin

        if sys.modules.get(PYDANTIC_PLUGIN_LOADER) is not stand_in:
            return sys.modules[PYDANTIC_PLUGIN_LOADER]
        spec = importlib.machinery.PathFinder.find_spec(PYDANTIC_PLUGIN_LOADER,
                                                        list(pydantic.plugin.__path__))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[PYDANTIC_PLUGIN_LOADER] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules[PYDANTIC_PLUGIN_LOADER] = stand_in
            raise
        return module

    def get_plugins() -> Any:
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") == "__all__":
            return ()
        return real_loader().get_plugins()

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module-level hook
        if name.startswith("__"):  # the import system asks for __path__ and the like
            raise AttributeError(name)
        return getattr(real_loader(), name)

    stand_in.get_plugins = get_plugins  # type: ignore[attr-defined]
    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules[PYDANTIC_PLUGIN_LOADER] = stand_in
    return True


def app_icon() -> QIcon:
    """The app icon from the bundled PNGs, every size, so each platform picks the best."""
    import importlib.resources

    from PySide6.QtGui import QIcon

    icon = QIcon()
    folder = importlib.resources.files("mneme_desktop.resources") / "icons"
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        resource = folder / f"mneme-desktop-{size}.png"
        if resource.is_file():
            icon.addFile(str(resource))
    return icon


def install_exception_hook(context: AppContext, app: QApplication, window: object) -> None:
    """Turn an unhandled exception into a dialog, a log entry and a kept autosave."""

    def hook(exc_type: type[BaseException], exc: BaseException,
             tb: TracebackType | None) -> None:
        from mneme_desktop.ui.document import EditRefusedError

        if isinstance(exc, EditRefusedError):
            # Not a fault: the domain said no and the document kept nothing of the step.
            log.warning("Edit refused: %s", exc)
            tell = getattr(window, "tell", None)
            if callable(tell):
                tell("Change not made", f"That change was not made: {exc}", error=False)
            return
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("Unhandled exception:\n%s", text)
        context.errors.append(text)
        autosave = getattr(window, "autosave_now", None)
        if callable(autosave):
            try:
                autosave()
            except Exception:  # the hook must never raise itself
                log.exception("Autosave after an error failed")
        if context.smoke_test:
            print(text, file=sys.stderr)
            return
        from mneme_desktop.ui.dialogs.error_dialog import show_error_dialog

        show_error_dialog(window, exc, text, context.paths.log_file)

    sys.excepthook = hook
