"""Before Qt starts: a missing X11 library is named with its Debian package, and a headless
run without a display goes offscreen by itself."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mneme_desktop import platform_check
from mneme_desktop.platform_check import (
    check_platform,
    missing_libraries,
    missing_libraries_message,
)

LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f7b)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
"""


def test_not_found_lines_are_read_once_each() -> None:
    assert missing_libraries(LDD) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_the_message_names_the_debian_packages_not_xcb_cursor() -> None:
    text = missing_libraries_message(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in text
    assert "libxcb-cursor0" not in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_missing_library_stops_the_start_with_its_name(monkeypatch) -> None:
    monkeypatch.setattr(platform_check, "unloadable",
                        lambda names: ["libxcb-keysyms.so.1"])
    problem = check_platform({"DISPLAY": ":0"}, headless=False)
    assert problem is not None and "libxcb-keysyms1" in problem


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_headless_run_without_a_display_goes_offscreen() -> None:
    environ: dict[str, str] = {}
    assert check_platform(environ, headless=True) is None
    assert environ["QT_QPA_PLATFORM"] == "offscreen"
    window: dict[str, str] = {}
    check_platform(window, headless=False)
    assert "QT_QPA_PLATFORM" not in window  # a window run is not silently made invisible


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_smoke_test_without_display_or_platform_runs(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    home = tmp_path / "home"
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "c"), XDG_DATA_HOME=str(home / "d"),
               XDG_STATE_HOME=str(home / "s"), XDG_CACHE_HOME=str(home / "k"))
    result = subprocess.run([sys.executable, "-m", "mneme_desktop", "--smoke-test"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
