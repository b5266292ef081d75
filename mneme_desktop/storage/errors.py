"""Errors the storage layer raises; every message is meant to be shown to the referee as is."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "CampaignLoadError",
    "CampaignSaveError",
    "CharacterImportError",
    "FileChangedError",
    "MigrationError",
    "NewerSchemaError",
    "ReadOnlyFileError",
    "StorageError",
]


class StorageError(Exception):
    """Base of every storage error; ``str(error)`` is a complete, readable message."""

    def __init__(self, message: str, *, path: Path | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message


class CampaignLoadError(StorageError):
    """A file could not be opened as a campaign. The file itself was not touched.

    ``problems`` lists each problem found (at most a handful), ``line`` is the line of the
    first one when it could be located.
    """

    def __init__(
        self,
        message: str,
        *,
        path: Path | None = None,
        line: int | None = None,
        problems: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, path=path)
        self.line = line
        self.problems = problems


class NewerSchemaError(CampaignLoadError):
    """The file was written by a newer Mneme Desktop; it is refused, never rewritten."""

    def __init__(self, message: str, *, path: Path | None, file_version: int, supported: int):
        super().__init__(message, path=path)
        self.file_version = file_version
        self.supported = supported


class MigrationError(CampaignLoadError):
    """An older file could not be brought up to the current schema."""


class CampaignSaveError(StorageError):
    """Saving failed; the previous version of the file is intact and no temp file is left."""


class FileChangedError(CampaignSaveError):
    """The file on disk changed since it was opened (another program, a sync client...).

    Saving was refused so those changes are not overwritten; save again with
    ``expected_hash=None`` to overwrite them anyway, or save under another name.
    """

    def __init__(self, message: str, *, path: Path, expected: str, actual: str) -> None:
        super().__init__(message, path=path)
        self.expected = expected
        self.actual = actual


class ReadOnlyFileError(CampaignSaveError):
    """The campaign file is marked read-only; it was not replaced.

    Someone marked it so on purpose (or copied it from a read-only medium): the window asks
    before overwriting it (``save_campaign(..., overwrite_read_only=True)``) or saves a copy.
    """


class CharacterImportError(StorageError):
    """A character file could not be read; says which format was expected or what was wrong."""
