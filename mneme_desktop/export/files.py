"""Writing export files safely, and naming them.

An export is written by :func:`mneme_desktop.atomicfile.replace_file`, the writer campaigns
and settings use too: a full disk or a crash leaves either the old file or the new one,
never half a PDF. Failures become an :class:`ExportError` whose message says
what to do.
"""

from __future__ import annotations

import errno
import re
import unicodedata
from pathlib import Path

from mneme_desktop.atomicfile import replace_file
from mneme_desktop.export.errors import ExportError

__all__ = ["safe_file_stem", "write_file_atomically"]

_REASONS = {
    errno.ENOSPC: "the disk is full. Free some space, or export to another drive.",
    errno.EROFS: "the drive is read-only. Export to another folder.",
    errno.EACCES: "permission denied: the folder is read-only, or another program (a PDF "
    "viewer?) has the file open. Close it or export to another folder.",
    errno.EPERM: "the folder or file is protected. Export to another folder.",
    errno.ENOENT: "the folder does not exist (was a drive unplugged?).",
    errno.ENAMETOOLONG: "the file name is too long. Choose a shorter name.",
    errno.EISDIR: "there is a folder with that name. Choose another name.",
}
if hasattr(errno, "EDQUOT"):
    _REASONS[errno.EDQUOT] = "your disk quota is used up. Free some space, or export elsewhere."


def _reason(exc: OSError) -> str:
    return _REASONS.get(exc.errno or -1) or f"{exc.strerror or exc}."


def write_file_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` or leave it as it was; ExportError on failure."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise ExportError(f"Could not export '{path.name}': {_REASONS[errno.EISDIR]}", path=path)
    if not folder.is_dir():
        raise ExportError(
            f"Could not export '{path.name}': the folder {folder} does not exist.", path=path
        )
    try:
        # 0o666 less the umask, as for any new file (mkstemp would make it private).
        replace_file(path, data, new_file_mode=0o666)
    except OSError as exc:
        raise ExportError(
            f"Could not export '{path.name}' to {folder}: {_reason(exc)} Nothing was written.",
            path=path,
        ) from exc


_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]+')
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)),
             *(f"LPT{n}" for n in range(1, 10))}


def safe_file_stem(text: str, *, fallback: str = "export", limit: int = 60) -> str:
    """A file name part every OS accepts: "Mara Vey" -> "Mara-Vey", "a/b:c" -> "a-b-c".

    Letters of any script are kept; characters Windows forbids, control and invisible
    format characters (NUL, U+202E) and runs of spaces become single dashes; names Windows
    reserves get a trailing underscore.
    """
    cleaned = unicodedata.normalize("NFC", text)
    # Invisible format characters (U+202E turns "evil\u202eFDP.exe" into "evilexe.PDF" on
    # screen), C1 controls and lone surrogates never belong in a file name.
    cleaned = "".join(
        "-" if unicodedata.category(char) in ("Cc", "Cf", "Cs") else char for char in cleaned
    )
    cleaned = _UNSAFE.sub("-", cleaned)
    cleaned = re.sub(r"\s+", "-", cleaned.strip())
    cleaned = re.sub(r"-{2,}", "-", cleaned).strip("-. ")
    cleaned = cleaned[:limit].rstrip("-. ")
    if not cleaned:
        return fallback
    if cleaned.split(".")[0].upper() in _RESERVED:
        cleaned += "_"
    return cleaned
