"""The storage layer: ``.mneme`` campaign files, backups, autosave, locks, migrations and
character import/export. The file format is described in ``docs/file-format.md``.

Nothing here imports Qt; every failure a referee can meet is a :class:`StorageError`
subclass whose message can be shown as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mneme_desktop.storage.atomic import atomic_write, backup_path, backup_paths
from mneme_desktop.storage.autosave import AutosaveEntry, AutosaveStore
from mneme_desktop.storage.campaign_file import (
    DEFAULT_BACKUPS,
    LoadedCampaign,
    content_hash,
    file_hash,
    load_campaign,
    load_campaign_file,
    save_campaign,
)
from mneme_desktop.storage.codec import (
    CHARACTER_FORMAT,
    MAX_CAMPAIGN_BYTES,
    campaign_from_json,
    campaign_to_json,
)
from mneme_desktop.storage.errors import (
    CampaignLoadError,
    CampaignSaveError,
    CharacterImportError,
    FileChangedError,
    MigrationError,
    NewerSchemaError,
    ReadOnlyFileError,
    StorageError,
)
from mneme_desktop.storage.known_files import KnownContents
from mneme_desktop.storage.lock import CampaignLock, LockedError, LockHolder
from mneme_desktop.storage.migrations import MIGRATIONS, MigrationRegistry
from mneme_desktop.storage.verified import VerifiedParts

if TYPE_CHECKING:
    from mneme_desktop.storage.characters import (
        CE_FORMAT,
        MAX_CHARACTER_BYTES,
        character_from_document,
        character_to_json,
        export_character,
        import_character,
        import_into_campaign,
    )
    from mneme_desktop.storage.sample import (
        build_sample_campaign,
        install_sample_campaign,
        sample_campaign_path,
    )

# Character import/export and the sample are needed by few paths; importing them lazily
# keeps them out of the app's start-up (see docs/performance.md).
_FROM_CHARACTERS = frozenset({
    "CE_FORMAT", "MAX_CHARACTER_BYTES", "character_from_document", "character_to_json",
    "export_character", "import_character", "import_into_campaign",
})
_FROM_SAMPLE = frozenset({"build_sample_campaign", "install_sample_campaign",
                          "sample_campaign_path"})


def __getattr__(name: str) -> Any:
    if name in _FROM_CHARACTERS:
        from mneme_desktop.storage import characters as module
    elif name in _FROM_SAMPLE:
        from mneme_desktop.storage import sample as module  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "CE_FORMAT",
    "CHARACTER_FORMAT",
    "DEFAULT_BACKUPS",
    "MAX_CAMPAIGN_BYTES",
    "MAX_CHARACTER_BYTES",
    "MIGRATIONS",
    "AutosaveEntry",
    "AutosaveStore",
    "CampaignLoadError",
    "CampaignLock",
    "CampaignSaveError",
    "CharacterImportError",
    "FileChangedError",
    "KnownContents",
    "LoadedCampaign",
    "LockHolder",
    "LockedError",
    "MigrationError",
    "MigrationRegistry",
    "NewerSchemaError",
    "ReadOnlyFileError",
    "StorageError",
    "VerifiedParts",
    "atomic_write",
    "backup_path",
    "backup_paths",
    "build_sample_campaign",
    "campaign_from_json",
    "campaign_to_json",
    "character_from_document",
    "character_to_json",
    "content_hash",
    "export_character",
    "file_hash",
    "import_character",
    "import_into_campaign",
    "install_sample_campaign",
    "load_campaign",
    "load_campaign_file",
    "sample_campaign_path",
    "save_campaign",
]
