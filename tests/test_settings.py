"""Settings: declared once, checked on every assignment, a bad file never stops the app."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mneme_desktop.logs import LOG_KEEP, rotate_log
from mneme_desktop.settings import (
    MAX_RECENT_FILES,
    PageSize,
    Settings,
    SettingsError,
    Theme,
    load_settings,
    save_settings,
)


def test_defaults_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings = Settings(theme=Theme.DARK, page_size=PageSize.LETTER, backup_count=0)
    settings.add_recent(tmp_path / "a.mneme")
    save_settings(settings, path)
    again = load_settings(path)
    assert again == settings
    assert json.loads(path.read_text(encoding="utf-8"))["theme"] == "dark"


@pytest.mark.parametrize(("name", "value"), [
    ("autosave_interval_s", 9), ("autosave_interval_s", 3601), ("autosave_interval_s", "60"),
    ("autosave_interval_s", True), ("backup_count", -1), ("backup_count", 51),
    ("theme", "purple"), ("page_size", "A5"), ("print_current_damage", "yes"),
    ("recent_files", ["a", 3]), ("last_campaign", 7), ("window_state", None),
])
def test_impossible_values_are_refused_with_a_reason(name: str, value: object) -> None:
    settings = Settings()
    before = getattr(settings, name)
    with pytest.raises(SettingsError, match=name):
        setattr(settings, name, value)
    assert getattr(settings, name) == before


def test_unknown_settings_cannot_be_set() -> None:
    with pytest.raises(AttributeError):
        Settings().no_such_setting = 1


def test_one_bad_value_in_the_file_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"theme": "dark", "backup_count": 999, "extra": 1,
                                "recent_files": "not a list"}), encoding="utf-8")
    settings = load_settings(path)
    assert settings.theme is Theme.DARK
    assert settings.backup_count == Settings().backup_count
    assert settings.recent_files == []


@pytest.mark.parametrize("text", ["{", "[]", "null", "\udcff", "[" * 100_000])
def test_a_damaged_file_gives_the_defaults(tmp_path: Path, text: str) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert load_settings(path) == Settings()


def test_limits_are_declared_once_and_read_by_the_dialog() -> None:
    limits = Settings.limits("autosave_interval_s")
    assert (limits.minimum, limits.maximum) == (10, 3600)
    assert "autosave" in limits.description.lower()
    with pytest.raises(KeyError):
        Settings.limits("nope")


def test_recent_files_are_newest_first_and_bounded(tmp_path: Path) -> None:
    settings = Settings()
    for number in range(MAX_RECENT_FILES + 3):
        settings.add_recent(tmp_path / f"{number}.mneme")
    settings.add_recent(tmp_path / "5.mneme")
    assert len(settings.recent_files) == MAX_RECENT_FILES
    assert settings.recent_files[0] == str((tmp_path / "5.mneme").resolve())
    assert settings.last_campaign == settings.recent_files[0]


def test_copy_is_independent() -> None:
    settings = Settings()
    copy = settings.copy()
    copy.recent_files.append("x")
    copy.theme = Theme.LIGHT
    assert settings.recent_files == [] and settings.theme is Theme.SYSTEM


def test_settings_import_no_pydantic() -> None:
    import subprocess

    code = "import sys, mneme_desktop.settings; print('pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "False"


def test_the_log_rotates_at_start_when_it_is_big(tmp_path: Path) -> None:
    log = tmp_path / "mneme-desktop.log"
    log.write_text("small", encoding="utf-8")
    rotate_log(log, max_bytes=10)
    assert log.read_text(encoding="utf-8") == "small"
    for generation in range(LOG_KEEP + 2):
        log.write_text(f"generation {generation}", encoding="utf-8")
        rotate_log(log, max_bytes=10)
        assert not log.exists()
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == [f"mneme-desktop.log.{n}" for n in range(1, LOG_KEEP + 1)]
    assert (tmp_path / "mneme-desktop.log.1").read_text(encoding="utf-8") == \
        f"generation {LOG_KEEP + 1}"
