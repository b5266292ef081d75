"""The open campaign's life on disk: open, save, autosave, lock and recovery.

One session per window. It owns the :class:`CampaignDocument`, the campaign file's lock
and the autosave store, and decides every question about the file (recover an autosave?
overwrite a file changed outside? save over a read-only one?). The questions go to the
referee through the ``ask`` and ``tell`` callables it is given, so the session runs the
same under a test with scripted answers as under the window with message boxes.

Imported once the window has painted: it needs pydantic, storage and the document.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from mneme_desktop import APP_NAME
from mneme_desktop.context import AppContext
from mneme_desktop.domain import Campaign
from mneme_desktop.storage import (
    AutosaveStore,
    CampaignLoadError,
    CampaignLock,
    CampaignSaveError,
    FileChangedError,
    LoadedCampaign,
    LockedError,
    ReadOnlyFileError,
    load_campaign_file,
    save_campaign,
)
from mneme_desktop.storage.recovery import changes_between
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr

_CTX = "Session"

log = logging.getLogger(__name__)

Button = QMessageBox.StandardButton
SAMPLE_NAME = "Sample Campaign.mneme"


class Ask(Protocol):
    """``ask(title, text, buttons, default)``: the referee's answer to a question.

    ``labels`` renames buttons whose standard text would mislead ("Reload", not "Reset").
    """

    def __call__(self, title: str, text: str, buttons: Button, default: Button, *,
                 labels: Mapping[Button, str] | None = None) -> Button: ...


ChooseSavePath = Callable[[Path], Path | None]
"""``choose(suggested)``: where to save a copy, or None if the referee cancelled."""


class Tell(Protocol):
    """Show the referee a message; ``error=False`` for information, not a failure."""

    def __call__(self, title: str, text: str, *, error: bool = True) -> None: ...


class CampaignSession(QObject):
    """The campaign open in one window, its file, its lock and its autosave."""

    document_replaced = Signal()
    """A different document is open; the old one is deleted once the window let go of it."""
    status = Signal(str, int)
    """A short note for the status bar (text, milliseconds)."""
    about_to_write = Signal()
    """Views commit edits they hold back (notes typed a moment ago) before a save."""

    def __init__(self, context: AppContext, ask: Ask, tell: Tell,
                 choose_save_path: ChooseSavePath, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._ask = ask
        self._tell = tell
        self._choose_save_path = choose_save_path
        self._document: CampaignDocument | None = None
        self._autosaves: AutosaveStore | None = None
        self._lock: CampaignLock | None = None
        self._read_only_allowed: set[Path] = set()

    @property
    def document(self) -> CampaignDocument | None:
        return self._document

    @property
    def autosaves(self) -> AutosaveStore:
        if self._autosaves is None:
            self._autosaves = AutosaveStore(self.context.paths.autosave_dir)
        return self._autosaves

    def _show(self, document: CampaignDocument) -> None:
        old, self._document = self._document, document
        document.setParent(self)
        self.document_replaced.emit()
        if old is not None:
            old.deleteLater()

    def _show_new(self, campaign: Campaign) -> None:
        """Show content that is not in any file yet: it counts as unsaved."""
        document = CampaignDocument(campaign)
        self._show(document)
        document.mark_unsaved()

    # --- opening -----------------------------------------------------------------------

    def open_initial(self, path: Path | None) -> bool:
        """What the app opens at start: the named file, the last one, or the sample."""
        self.context.schema_cache.prepare(Campaign)  # the kept schema, before any load
        if path is not None:
            return self.open_path(path)
        if self._offer_untitled_recovery():
            return True
        last = self.context.settings.last_campaign
        if last and Path(last).is_file() and self.open_path(Path(last)):
            return True
        return self.open_sample()

    def open_sample(self) -> bool:
        """Open a private copy of the sample, so the installed one is never written to."""
        from mneme_desktop.storage import install_sample_campaign  # rarely needed: lazy

        target = self.context.paths.data_dir / SAMPLE_NAME
        try:
            install_sample_campaign(target, self.context.known_contents)
        except OSError as exc:
            self._tell(tr(_CTX, "Sample campaign"), tr(_CTX,
                    "Could not copy the sample campaign: {0}").format(exc))
            self._show_new(Campaign(name=tr(_CTX, "New Campaign")))
            return True
        self.context.settings.first_run_done = True
        return self.open_path(target)

    def _offer_untitled_recovery(self) -> bool:
        untitled = [e for e in self.autosaves.entries() if e.untitled_id is not None]
        if not untitled:
            return False
        entry = untitled[0]
        answer = self._ask(tr(_CTX, "Recover unsaved campaign"),
                           tr(_CTX, "An unsaved campaign, “{0}”, was autosaved ({1}) before {2} "
                                    "last closed.\n\nRecover it?").format(
                                            entry.campaign_name, entry.label, APP_NAME),
                           Button.Yes | Button.No, Button.Yes)
        if answer != Button.Yes:
            self.autosaves.discard(entry)
            return False
        try:
            campaign = self.autosaves.load(entry)
        except CampaignLoadError as exc:
            self._tell(tr(_CTX, "Recover"), str(exc))
            return False
        self.autosaves.discard(entry)
        self._show_new(campaign)
        return True

    def open_path(self, path: Path) -> bool:
        """Open ``path`` (loading it sweeps temp files killed saves left), offering an
        autosave of unsaved work on it; True if it is now the open campaign."""
        path = Path(path)
        document = self._document
        if document is not None and document.path is not None and \
                path.resolve() == document.path.resolve():
            return True
        lock = CampaignLock(path, self.context.paths.lock_dir)
        holder = lock.live_holder()
        if holder is not None:
            answer = self._ask(tr(_CTX, "Campaign already open"),
                               tr(_CTX, "“{0}” is already open: {1}.\n\nOpening it twice can lose "
                                        "the changes made in one of them. Open it anyway?").format(
                                   path.name, holder.describe()),
                               Button.Open | Button.Cancel, Button.Cancel)
            if answer != Button.Open:
                return False
        try:
            loaded = load_campaign_file(path, known=self.context.known_contents)
        except CampaignLoadError as exc:
            self._tell(tr(_CTX, "Cannot open campaign"), str(exc))
            return False
        try:
            lock.acquire(force=True)
        except (LockedError, OSError) as exc:
            log.warning("Could not lock %s: %s", path, exc)
        campaign = loaded.campaign
        recovered = False
        entry = self.autosaves.recoverable(path)
        if entry is not None:
            summary = self.autosaves.recovery_summary(entry, path)
            answer = self._ask(tr(_CTX, "Recover unsaved changes"),
                               tr(_CTX, "There are unsaved changes to “{0}” autosaved "
                                        "{1}.\n\n{2}\n\nRecover them? (No keeps the file as it is "
                                        "and deletes the autosave.)").format(
                                                path.name, entry.label, summary),
                               Button.Yes | Button.No, Button.Yes)
            if answer == Button.Yes:
                try:
                    campaign = self.autosaves.load(entry)
                    recovered = True
                except CampaignLoadError as exc:
                    self._tell(tr(_CTX, "Recover"), tr(_CTX,
                            "The autosave is damaged and was not used: {0}").format(exc))
            else:
                self.autosaves.discard(entry)
        self.release_lock()
        self._lock = lock
        known_hash = loaded.content_hash
        if recovered and entry is not None and entry.base_hash is not None:
            # The recovered work was made on the file as it was then: if something has
            # changed the file since, saving must ask rather than silently replace it.
            known_hash = entry.base_hash
        opened = CampaignDocument(campaign, path, known_hash, verified=loaded.verified)
        self._show(opened)
        if recovered:
            opened.mark_unsaved()
        self.context.settings.add_recent(path)
        self.context.save_settings()
        self.status.emit(tr(_CTX, "Opened {0}").format(path), 5000)
        return True

    def new_campaign(self) -> bool:
        """An empty campaign in place of the open one, unless the referee cancels."""
        if not self.maybe_save():
            return False
        self.release_lock()
        self._show_new(Campaign(name=tr(_CTX, "New Campaign")))
        return True

    # --- saving ------------------------------------------------------------------------

    def save(self) -> bool:
        document = self._document
        if document is None:
            return False
        if document.path is None:
            return self.save_as()
        return self.save_to(document.path, expected_hash=document.file_hash,
                            overwrite_read_only=document.path in self._read_only_allowed)

    def save_as(self) -> bool:
        """Save under a name the referee chooses; a name without ``.mneme`` gets it."""
        document = self._document
        if document is None:
            return False
        start = document.path or Path.home() / f"{document.campaign.name}.mneme"
        path = self._choose_save_path(start)
        if path is None:
            return False
        if path.suffix.lower() != ".mneme":
            path = path.with_name(path.name + ".mneme")
        return self.save_to(path, expected_hash=None)

    def save_to(self, path: Path, *, expected_hash: str | None,
                overwrite_read_only: bool = False) -> bool:
        """Write the campaign to ``path``; a file changed since it was read (its hash is
        not ``expected_hash``) or a read-only one is asked about, never silently replaced."""
        document = self._document
        if document is None:
            return False
        self.about_to_write.emit()
        try:
            new_hash = save_campaign(document.campaign, path,
                                     backups=self.context.settings.backup_count,
                                     expected_hash=expected_hash,
                                     overwrite_read_only=overwrite_read_only,
                                     verified=document.verified,
                                     known=self.context.known_contents)
        except FileChangedError as exc:
            return self._changed_on_disk(document, path, exc, overwrite_read_only)
        except ReadOnlyFileError:
            answer = self._ask(tr(_CTX, "File is read-only"),
                               tr(_CTX, "“{0}” is read-only. Save anyway?\n\nYes overwrites the "
                                        "read-only file; Save saves a copy under another name; "
                                        "Cancel does not save.").format(path.name),
                               Button.Yes | Button.Save | Button.Cancel, Button.Cancel)
            if answer == Button.Save:
                return self.save_as()
            if answer != Button.Yes:
                return False
            self._read_only_allowed.add(path)  # asked once per file and session
            return self.save_to(path, expected_hash=expected_hash, overwrite_read_only=True)
        except CampaignSaveError as exc:
            self._tell(tr(_CTX, "Could not save"), str(exc))
            return False
        old_path = document.path
        if old_path is None:
            self.autosaves.discard(untitled_id=document.campaign.id)
        else:
            self.autosaves.discard(source=old_path)
        self.autosaves.discard(source=path)
        if old_path is None or old_path.resolve() != path.resolve():
            self._lock_file(path)
        document.mark_saved(path, new_hash)
        self.context.settings.add_recent(path)
        self.context.save_settings()
        self.status.emit(tr(_CTX, "Saved {0}").format(path), 5000)
        return True

    def _changed_on_disk(self, document: CampaignDocument, path: Path, exc: FileChangedError,
                         overwrite_read_only: bool) -> bool:
        """Overwrite, reload or cancel, told what the outside version changed, so the
        referee can choose which work to keep; Reload drops the unsaved changes."""
        buttons = Button.Save | Button.Cancel
        outside: LoadedCampaign | None = None
        try:
            outside = load_campaign_file(path, known=self.context.known_contents)
        except CampaignLoadError as load_error:
            summary = tr(_CTX,
                "The file on disk cannot be read, so it cannot be reloaded: {0}").format(load_error)
        else:
            buttons |= Button.Reset
            summary = (tr(_CTX, "The file on disk, compared with your version, has: {0}.\n\nReload "
                                "opens the file as it is on disk; your unsaved changes are "
                                "dropped.").format(
                                        changes_between(document.campaign, outside.campaign)))
        answer = self._ask(tr(_CTX, "File changed on disk"),
                           tr(_CTX, "{0}\n\n{1}\n\nOverwrite replaces the file with your "
                                    "version.").format(exc, summary),
                           buttons, Button.Cancel,
                           labels={Button.Save: tr(_CTX, "Overwrite"),
                                   Button.Reset: tr(_CTX, "Reload")})
        if answer == Button.Save:
            return self.save_to(path, expected_hash=None,
                                overwrite_read_only=overwrite_read_only)
        if answer == Button.Reset and outside is not None:
            self.autosaves.discard(source=path)
            self._show(CampaignDocument(outside.campaign, path, outside.content_hash,
                                        verified=outside.verified))
            self.status.emit(tr(_CTX, "Reloaded {0} from disk").format(path), 5000)
        return False

    def autosave_now(self) -> bool:
        """Write unsaved work to the autosave folder (never over the campaign file)."""
        self.about_to_write.emit()
        document = self._document
        if document is None or not document.modified:
            return False
        try:
            if document.path is not None:
                self.autosaves.write(document.campaign, source=document.path,
                                     base_hash=document.file_hash)
            else:
                self.autosaves.write(document.campaign, untitled_id=document.campaign.id)
        except CampaignSaveError as exc:
            self.status.emit(tr(_CTX, "Autosave failed: {0}").format(exc), 10_000)
            log.warning("Autosave failed: %s", exc)
            return False
        self.status.emit(tr(_CTX, "Autosaved"), 3000)
        return True

    def maybe_save(self) -> bool:
        """Ask before unsaved changes would be lost; False means the referee cancelled."""
        self.about_to_write.emit()
        document = self._document
        if document is None or not document.modified:
            return True
        answer = self._ask(tr(_CTX, "Unsaved changes"),
                           tr(_CTX,
                               "“{0}” has unsaved changes.\n\nSave them before closing?").format(
                                       document.campaign.name),
                           Button.Save | Button.Discard | Button.Cancel, Button.Save)
        if answer == Button.Save:
            return self.save()
        if answer == Button.Discard:
            self._discard_autosave()
            return True
        return False

    def _discard_autosave(self) -> None:
        document = self._document
        if document is None:
            return
        if document.path is not None:
            self.autosaves.discard(source=document.path)
        else:
            self.autosaves.discard(untitled_id=document.campaign.id)

    def keep_in_autosave(self) -> None:
        """For a close that must not ask: unsaved work goes to the autosave, not the file."""
        self.autosave_now()
        if self._document is not None:
            self._document.forget_unsaved()

    # --- the lock ----------------------------------------------------------------------

    def _lock_file(self, path: Path) -> None:
        self.release_lock()
        self._lock = CampaignLock(path, self.context.paths.lock_dir)
        try:
            self._lock.acquire(force=True)
        except (LockedError, OSError) as exc:
            log.warning("Could not lock %s: %s", path, exc)

    def release_lock(self) -> None:
        """Let another window open the file without a warning (on close, or another file)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
