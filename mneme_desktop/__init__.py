"""Mneme Desktop: an offline character-and-encounter manager for Mneme CE referees."""

from __future__ import annotations

__version__ = "0.1.0"
APP_NAME = "Mneme Desktop"
APP_ID = "mneme-desktop"
ORG_NAME = "Mneme"
