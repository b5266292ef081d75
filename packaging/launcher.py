"""The script PyInstaller freezes: the bundle's executable runs ``mneme_desktop.app.main``.

PyInstaller's PySide6 hook imports PySide6 before this script runs, so PySide6's check of
every module imported after it (does its source mention PySide6?) would see the app's
modules through ``inspect``'s slow path. A scan without the kept table answers bundled
modules from the archive from the first import on; ``main`` puts the kept one in its place.
"""

from __future__ import annotations

import sys

from mneme_desktop.module_scan import ModuleScan

if __name__ == "__main__":
    ModuleScan(None).install()
    from mneme_desktop.app import main

    sys.exit(main())
