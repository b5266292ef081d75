"""The script PyInstaller freezes: the bundle's executable runs ``mneme_desktop.app.main``."""

from __future__ import annotations

import sys

from mneme_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
