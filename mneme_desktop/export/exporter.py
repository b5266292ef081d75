"""One entry point for every export format, shared by the GUI dialog and the command line.

File names: ``<campaign>-characters.<ext>`` for all player characters in one file,
``<campaign>-<character>.<ext>`` for one character (``<campaign>-<thing>.<ext>`` for a
vehicle or object), and ``<campaign>-referee-<encounter>.<ext>``
for a referee pack (roster and adversary cards). Names keep letters of any script and drop
only what some OS forbids (see :func:`~mneme_desktop.export.files.safe_file_stem`).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from mneme_desktop.domain import Campaign
from mneme_desktop.export.build import build_document
from mneme_desktop.export.document import ExportOptions, ExportTarget, TargetKind
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.files import safe_file_stem, write_file_atomically

__all__ = ["ExportFormat", "default_file_name", "export_bytes", "write_export"]


class ExportFormat(StrEnum):
    PDF = "pdf"
    HTML = "html"
    JSON = "json"

    @property
    def suffix(self) -> str:
        return f".{self.value}"

    @property
    def label(self) -> str:
        return {"pdf": "PDF document", "html": "Web page (HTML)", "json": "JSON data"}[self.value]

    @property
    def file_filter(self) -> str:
        """A QFileDialog name filter: "PDF document (*.pdf)"."""
        return f"{self.label} (*{self.suffix})"

    @classmethod
    def from_suffix(cls, path: Path) -> ExportFormat | None:
        suffix = path.suffix.lower().lstrip(".")
        if suffix == "htm":
            return cls.HTML
        return next((fmt for fmt in cls if fmt.value == suffix), None)


def export_bytes(
    campaign: Campaign, target: ExportTarget, fmt: ExportFormat, options: ExportOptions
) -> bytes:
    """The exported file's bytes. PDF and HTML need a Qt application (made if missing)."""
    if fmt is ExportFormat.JSON:
        from mneme_desktop.export.json_export import export_json

        return export_json(campaign, target)
    document = build_document(campaign, target, options)
    if fmt is ExportFormat.HTML:
        from mneme_desktop.export.html import html_bytes

        return html_bytes(document, options.page_size)
    from mneme_desktop.export.pdf import pdf_bytes

    data, _result = pdf_bytes(document, options.page_size)
    return data


def write_export(
    campaign: Campaign,
    target: ExportTarget,
    fmt: ExportFormat,
    path: Path,
    options: ExportOptions,
) -> Path:
    """Make the export and write it to ``path`` atomically; raises ExportError."""
    data = export_bytes(campaign, target, fmt, options)
    write_file_atomically(path, data)
    return path


def default_file_name(campaign: Campaign, target: ExportTarget, fmt: ExportFormat) -> str:
    """The file name an export of ``target`` gets unless the referee picks another."""
    stem = safe_file_stem(campaign.name, fallback="campaign")
    if target.kind is TargetKind.PLAYER_CHARACTERS:
        return f"{stem}-characters{fmt.suffix}"
    if target.kind is TargetKind.CHARACTER:
        assert target.character_id is not None
        character = campaign.find_sheet(target.character_id)
        if character is None:
            raise ExportError(f"The character to export is no longer in '{campaign.name}'.")
        return f"{stem}-{safe_file_stem(character.name, fallback='character')}{fmt.suffix}"
    if target.kind is TargetKind.THING:
        assert target.thing_id is not None
        thing = campaign.find_thing(target.thing_id)
        if thing is None:
            raise ExportError(f"The vehicle or object to export is no longer in "
                              f"'{campaign.name}'.")
        return f"{stem}-{safe_file_stem(thing.name, fallback='object')}{fmt.suffix}"
    assert target.encounter_id is not None
    encounter = campaign.find_encounter(target.encounter_id)
    if encounter is None:
        raise ExportError(f"The encounter to export is no longer in '{campaign.name}'.")
    return f"{stem}-referee-{safe_file_stem(encounter.name, fallback='encounter')}{fmt.suffix}"
