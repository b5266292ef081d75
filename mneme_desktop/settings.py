"""Every user setting, declared once with its type, default, limits and description.

Settings live in one JSON file in the config folder (see :mod:`mneme_desktop.paths`);
there are no ad-hoc ``QSettings`` keys anywhere else. An unreadable settings file falls
back to the defaults, and one bad value falls back to its own default, rather than
stopping the app: settings are convenience, the campaign file is what must never be lost.

This module is plain dataclasses and the standard library on purpose: it is read before
the window's first paint, and importing pydantic then would cost more than building the
window does.
"""

from __future__ import annotations

import json
import logging
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from mneme_desktop.atomicfile import replace_file

log = logging.getLogger(__name__)

MAX_RECENT_FILES = 10


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


class PageSize(StrEnum):
    A4 = "A4"
    LETTER = "Letter"


class BoxChartStyle(StrEnum):
    """The box chart on printed sheets: rows of three boxes (one per -1 wound-penalty step)
    or the MegaTraveller Personal Integrity Record (six-box columns). The values are those
    of :class:`mneme_desktop.rules.box_chart.ChartStyle`, which this module cannot import."""

    ROWS_OF_THREE = "rows_of_three"
    MEGATRAVELLER = "megatraveller"


class PlayerVisibility(StrEnum):
    """How much of a side's wounds the player display shows (the referee chooses per side)."""

    BAND_AND_HP = "band_and_hp"
    BAND = "band"
    VAGUE = "vague"
    NOTHING = "nothing"


class DisplayTheme(StrEnum):
    """The player display's own colours, independent of the main window's theme."""

    LIGHT = "light"
    DARK = "dark"
    HIGH_CONTRAST = "high_contrast"


@dataclass(frozen=True)
class Limits:
    """Bounds and help text of one setting; the settings dialog reads them from here."""

    minimum: int | None = None
    maximum: int | None = None
    description: str = ""


def _setting(default: Any, *, minimum: int | None = None, maximum: int | None = None,
             description: str = "") -> Any:
    limits = Limits(minimum, maximum, description)
    if isinstance(default, list):
        return field(default_factory=list, metadata={"limits": limits})
    return field(default=default, metadata={"limits": limits})


class SettingsError(ValueError):
    """A value that a setting cannot hold."""


@dataclass
class Settings:
    """The user's preferences. Campaign rules options live in the campaign, not here.

    Every assignment is checked, so the object never holds an impossible value.
    """

    theme: Theme = _setting(Theme.SYSTEM, description="Colours of the window")
    autosave_interval_s: int = _setting(120, minimum=10, maximum=3600,
                                        description="Seconds between autosaves of unsaved work")
    backup_count: int = _setting(5, minimum=0, maximum=50,
                                 description="Rotating backups kept beside a campaign file")
    page_size: PageSize = _setting(PageSize.A4, description="Paper for printing and PDFs")
    print_current_damage: bool = _setting(
        False, description="Print sheets with current damage, not blank")
    print_box_chart: BoxChartStyle = _setting(
        BoxChartStyle.ROWS_OF_THREE,
        description="Box chart on printed sheets: rows of three, or the MegaTraveller record")
    box_chart_view: BoxChartStyle = _setting(
        BoxChartStyle.ROWS_OF_THREE,
        description="Box chart on screen (the sheets' view switch), remembered between "
                    "sessions; printing follows print_box_chart")
    recent_files: list[str] = _setting([], description="Recently opened campaigns, newest first")
    last_campaign: str | None = _setting(None, description="Campaign reopened at start")
    first_run_done: bool = _setting(False, description="The sample has been offered once")
    window_geometry: str = _setting("", description="Main window geometry (Qt, base64)")
    window_state: str = _setting("", description="Docks and toolbars (Qt, base64)")
    player_display_players: PlayerVisibility = _setting(
        PlayerVisibility.BAND_AND_HP, description="What the player display shows of the "
        "players' side's wounds")
    player_display_enemies: PlayerVisibility = _setting(
        PlayerVisibility.BAND, description="What the player display shows of the enemies' "
        "wounds")
    player_display_neutral: PlayerVisibility = _setting(
        PlayerVisibility.BAND, description="What the player display shows of neutral "
        "combatants' wounds")
    player_display_log: bool = _setting(
        False, description="The player display shows the public lines of the log (attacks "
                           "and their outcomes)")
    player_display_theme: DisplayTheme = _setting(DisplayTheme.DARK,
                                                  description="Colours of the player display")
    player_display_text_pt: int = _setting(26, minimum=14, maximum=96,
                                           description="Text size of the player display "
                                                       "(points)")
    player_display_screen: str = _setting(
        "", description="The screen the player display opens on (its name); empty: the "
                        "last screen")
    player_display_full_screen: bool = _setting(
        True, description="The player display fills its screen")

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, _checked(name, value))

    @staticmethod
    def limits(name: str) -> Limits:
        """The declared bounds and description of setting ``name``."""
        for item in fields(Settings):
            if item.name == name:
                limits = item.metadata["limits"]
                assert isinstance(limits, Limits)
                return limits
        raise KeyError(name)

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(item.name for item in fields(Settings))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.names():
            value = getattr(self, name)
            out[name] = value.value if isinstance(value, StrEnum) else (
                list(value) if isinstance(value, list) else value)
        return out

    @classmethod
    def from_json(cls, data: object) -> Settings:
        """Settings from parsed JSON: unknown keys are ignored, a bad value keeps its default."""
        settings = cls()
        if not isinstance(data, dict):
            raise SettingsError("the settings file does not hold an object")
        for name in cls.names():
            if name not in data:
                continue
            try:
                setattr(settings, name, data[name])
            except SettingsError as exc:
                log.warning("Setting %s ignored: %s", name, exc)
        return settings

    def copy(self) -> Settings:
        """An independent copy (a dialog edits one and the window keeps the original)."""
        return Settings.from_json(self.to_json())

    def add_recent(self, path: Path | str) -> None:
        text = str(Path(path).resolve())
        files = [text, *(f for f in self.recent_files if f != text)]
        self.recent_files = files[:MAX_RECENT_FILES]
        self.last_campaign = text


_ENUMS: dict[str, type[StrEnum]] = {"Theme": Theme, "PageSize": PageSize,
                                    "PlayerVisibility": PlayerVisibility,
                                    "DisplayTheme": DisplayTheme,
                                    "BoxChartStyle": BoxChartStyle}


def _checked(name: str, value: Any) -> Any:
    """``value`` converted to setting ``name``'s declared type, or SettingsError saying why."""
    kind = _TYPES.get(name)
    if kind is None:
        raise AttributeError(f"there is no setting {name!r}")
    if kind in _ENUMS:
        enum = _ENUMS[kind]
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(member.value for member in enum)
            raise SettingsError(f"{name} must be one of {allowed}, not {value!r}") from None
    if kind == "bool":
        if not isinstance(value, bool):
            raise SettingsError(f"{name} must be true or false, not {value!r}")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{name} must be a whole number, not {value!r}")
        limits = Settings.limits(name)
        if limits.minimum is not None and value < limits.minimum:
            raise SettingsError(f"{name} must be at least {limits.minimum}, not {value}")
        if limits.maximum is not None and value > limits.maximum:
            raise SettingsError(f"{name} must be at most {limits.maximum}, not {value}")
        return value
    if kind == "str" or (kind == "str | None" and value is not None):
        if not isinstance(value, str):
            raise SettingsError(f"{name} must be text, not {value!r}")
        return value
    if kind == "str | None":
        return None
    if kind == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingsError(f"{name} must be a list of paths")
        return list(value[:MAX_RECENT_FILES])
    raise TypeError(f"setting {name} has a type the settings cannot check: {kind}")


# The annotations are strings (``from __future__ import annotations``): the declared types.
_TYPES: dict[str, str] = {item.name: str(item.type) for item in fields(Settings)}
for _item in fields(Settings):  # every declared default passes its own check
    _factory: Any = _item.default_factory
    _checked(_item.name, _factory() if _item.default is MISSING else _item.default)


def load_settings(path: Path) -> Settings:
    """Read settings; a missing or damaged file gives the defaults (and is logged)."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("Cannot read settings %s: %s", path, exc)
        return Settings()
    try:
        return Settings.from_json(json.loads(raw))
    except (ValueError, RecursionError) as exc:
        log.warning("Settings file %s is invalid, using defaults: %s", path, exc)
        return Settings()


def save_settings(settings: Settings, path: Path) -> None:
    """Write settings atomically (temp file and rename) so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings.to_json(), indent=2, sort_keys=True) + "\n"
    # Private when new, as the settings file has always been created.
    replace_file(path, text.encode("utf-8"), new_file_mode=0o600)
