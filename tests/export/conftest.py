"""Fixtures for the export tests: the sample campaign and an extreme character.

Every test here runs with a QApplication (the ``qapp`` fixture) created first, so code
that makes a QGuiApplication for batch use finds it instead of creating one that would
break the widget tests.
"""

from __future__ import annotations

import pytest

from mneme_desktop.domain import Campaign, Character
from mneme_desktop.storage.sample import build_sample_campaign
from tests.export.helpers import extreme_character


@pytest.fixture(autouse=True)
def _qt_application(qapp: object) -> object:
    return qapp


@pytest.fixture
def campaign() -> Campaign:
    return build_sample_campaign()


@pytest.fixture
def extreme() -> Character:
    return extreme_character()
