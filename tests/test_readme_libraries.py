"""The README's list of Debian libraries is the one CI installs (a fresh desktop that follows
the README must be able to load Qt's xcb platform plugin)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Installed by CI for its own checks, not needed to run the app.
_CI_ONLY = {"fonts-dejavu-core", "poppler-utils", "xvfb"}


def _readme_libraries() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"sudo apt-get install ([^\n`]+)", text)
    assert match, "the README names the apt-get command"
    return set(match.group(1).split())


def _ci_libraries() -> set[str]:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    match = re.search(r"apt_packages=\(([^)]*)\)", text)
    assert match, ".ci/run lists its apt packages"
    return set(match.group(1).split()) - _CI_ONLY


def test_readme_lists_every_library_ci_installs_for_qt() -> None:
    assert _readme_libraries() == _ci_libraries()


def test_the_xcb_plugin_libraries_are_listed() -> None:
    # The two whose absence Qt misreports as "xcb-cursor0 is needed".
    assert {"libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0"} <= _readme_libraries()
