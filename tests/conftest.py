"""Shared fixtures: every test runs offscreen and with its own app folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def app_paths(tmp_path: Path):
    from mneme_desktop.paths import AppPaths

    return AppPaths.under(tmp_path / "appdirs").ensure()
