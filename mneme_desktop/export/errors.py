"""The one error the export layer raises; its message is meant to be shown to the referee."""

from __future__ import annotations

from pathlib import Path

__all__ = ["ExportError"]


class ExportError(Exception):
    """An export could not be made or written. ``str(error)`` is complete and readable, and
    nothing half-written was left behind."""

    def __init__(self, message: str, *, path: Path | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message
