"""Schema migrations: one function per version step, all registered here.

A step receives the parsed JSON of a campaign at schema ``n`` and returns it at schema
``n + 1`` (plain dicts and lists, before any validation). The registry sets
``schema_version`` after each step, so a step only has to reshape the data. Every past
schema version keeps a fixture file in ``tests/storage/fixtures/schema_vN.mneme`` that
must keep opening.

To change the schema: bump :data:`mneme_desktop.domain.campaign.SCHEMA_VERSION`, add
``@MIGRATIONS.register(N)`` below for the step from N to N + 1, and add the fixture for N.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mneme_desktop.domain.campaign import SCHEMA_VERSION

__all__ = [
    "MIGRATIONS",
    "Migration",
    "MigrationRegistry",
    "MigrationStepError",
]

Migration = Callable[[dict[str, Any]], dict[str, Any]]


class MigrationStepError(Exception):
    """A step is missing or failed; the storage layer turns it into a CampaignLoadError."""


class MigrationRegistry:
    """Steps keyed by the version they upgrade from."""

    def __init__(self) -> None:
        self._steps: dict[int, Migration] = {}

    def register(self, from_version: int) -> Callable[[Migration], Migration]:
        """Decorator: ``@MIGRATIONS.register(1)`` marks the step from schema 1 to 2."""

        def decorate(step: Migration) -> Migration:
            self.add(from_version, step)
            return step

        return decorate

    def add(self, from_version: int, step: Migration) -> None:
        if from_version < 0:
            raise ValueError(f"schema versions start at 0, not {from_version}")
        if from_version in self._steps:
            raise ValueError(f"a migration from schema {from_version} is already registered")
        self._steps[from_version] = step

    def remove(self, from_version: int) -> None:
        self._steps.pop(from_version, None)

    @contextmanager
    def temporarily(self, from_version: int, step: Migration) -> Iterator[None]:
        """Register a step for the duration of a ``with`` block (tests inject steps this way)."""
        self.add(from_version, step)
        try:
            yield
        finally:
            self.remove(from_version)

    @property
    def versions(self) -> tuple[int, ...]:
        """The versions that have a step out of them, in order."""
        return tuple(sorted(self._steps))

    def can_migrate(self, from_version: int, to_version: int = SCHEMA_VERSION) -> bool:
        return all(v in self._steps for v in range(from_version, to_version))

    def migrate(
        self, data: dict[str, Any], from_version: int, to_version: int = SCHEMA_VERSION
    ) -> dict[str, Any]:
        """Run every step from ``from_version`` up to ``to_version``, in order."""
        if from_version > to_version:
            raise MigrationStepError(
                f"cannot migrate down from schema {from_version} to {to_version}"
            )
        missing = [v for v in range(from_version, to_version) if v not in self._steps]
        if missing:
            raise MigrationStepError(
                f"there is no upgrade from schema {missing[0]} to {missing[0] + 1}"
            )
        for version in range(from_version, to_version):
            try:
                result = self._steps[version](data)
            except Exception as exc:  # a step is arbitrary code over arbitrary old data
                raise MigrationStepError(
                    f"upgrading from schema {version} to {version + 1} failed: {exc}"
                ) from exc
            if not isinstance(result, dict):
                raise MigrationStepError(
                    f"the upgrade from schema {version} to {version + 1} returned "
                    f"{type(result).__name__}, not a campaign"
                )
            result["schema_version"] = version + 1
            data = result
        return data


MIGRATIONS = MigrationRegistry()
"""The registry load_campaign uses."""


@MIGRATIONS.register(1)
def _schema_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 adds the complete sheet (species, age, careers, credits, equipment), and
    things: the campaign's vehicles and objects, their template library, the things in each
    encounter and the cover object a combatant is behind; and whether a combatant is
    revealed to the players (all were).

    Every new part has a default, so a schema 1 campaign means the same with them written
    out explicitly: empty, as the referee left them.
    """
    for character in _characters_of(data):
        character.setdefault("equipment", [])
        character.setdefault("species", "")
        character.setdefault("age", None)
        character.setdefault("careers", [])
        character.setdefault("credits", 0)
    # Things (vehicles, craft, structures, cover objects): none yet in a schema 1 campaign.
    data.setdefault("things", [])
    data.setdefault("thing_library", [])
    for encounter in data.get("encounters") or []:
        if isinstance(encounter, dict):
            encounter.setdefault("things", [])
            for combatant in encounter.get("combatants") or []:
                if isinstance(combatant, dict):
                    combatant.setdefault("cover_thing_id", None)
                    combatant.setdefault("revealed", True)  # shown on the player display
    return data


def _characters_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every character sheet of a campaign document: the roster and encounter instances."""
    found: list[dict[str, Any]] = []
    for character in data.get("characters") or []:
        if isinstance(character, dict):
            found.append(character)
    for encounter in data.get("encounters") or []:
        if not isinstance(encounter, dict):
            continue
        for combatant in encounter.get("combatants") or []:
            if isinstance(combatant, dict) and isinstance(combatant.get("instance"), dict):
                found.append(combatant["instance"])
    return found
