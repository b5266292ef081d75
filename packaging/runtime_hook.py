"""A PyInstaller runtime hook of the bundle: it runs before PyInstaller's own (theirs for
PySide6 imports QtCore to register its ``qt.conf``), so the enum classes QtCore makes then
are built by the fast builder too (:mod:`mneme_desktop.qt_enums`), as from source, where
``main()`` installs it before PySide6 is first imported."""

from mneme_desktop.qt_enums import install

install()
