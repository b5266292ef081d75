"""Printing and export: one document model, rendered to paper, PDF, HTML; JSON of the models.

- :mod:`.document`: the model (pure Python) and :class:`ExportTarget`; :mod:`.build` builds
  it, from :mod:`.character_sheet` and :mod:`.referee_pack`; :mod:`.safe_text` cleans it.
- :mod:`.pdf`: QPainter layout (:mod:`.typesetting`, :mod:`.block_layout`,
  :mod:`.pagination`) and painting on a PDF writer or printer (Qt).
- :mod:`.html`: self-contained HTML (Qt only to paint the damage-track images).
- :mod:`.json_export`: the domain objects as JSON.
- :mod:`.exporter`: one call per format, and the file names; :mod:`.cli` the batch command.

Only the Qt-free parts are imported here, so ``import mneme_desktop.export`` stays light.
"""

from __future__ import annotations

from mneme_desktop.export.armor_reference import COMMON_ARMOR, ArmorReference, damage_after_armor
from mneme_desktop.export.build import build_document
from mneme_desktop.export.document import ExportDocument, ExportOptions, ExportTarget, TargetKind
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.exporter import (
    ExportFormat,
    default_file_name,
    export_bytes,
    write_export,
)

__all__ = [
    "COMMON_ARMOR",
    "ArmorReference",
    "ExportDocument",
    "ExportError",
    "ExportFormat",
    "ExportOptions",
    "ExportTarget",
    "TargetKind",
    "build_document",
    "damage_after_armor",
    "default_file_name",
    "export_bytes",
    "write_export",
]
