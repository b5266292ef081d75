"""The session recap: choose the in-game days and the encounters, read the recap, then save
it as Markdown or HTML, copy it, or print it (with a preview).

The recap is :mod:`mneme_desktop.domain.session_recap`'s, set as a document by
:mod:`mneme_desktop.export.session_recap` and rendered by the export package: what the
preview shows is what is saved and printed. Referee-only notes stay out unless ticked.
File choosing and dialog running are injectable so tests drive them without a modal loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain.gametime import MAX_DAY
from mneme_desktop.domain.session_recap import RecapRequest, build_recap, encounters_in_days
from mneme_desktop.export.document import ExportDocument
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.files import safe_file_stem, write_file_atomically
from mneme_desktop.export.markdown import render_markdown
from mneme_desktop.export.session_recap import recap_document
from mneme_desktop.settings import Settings
from mneme_desktop.ui.dialogs.export_dialog import (
    Report,
    RunDialog,
    default_export_folder,
    document_print_preview,
    report_to_user,
    run_print_preview,
)
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import ItemRole
from mneme_desktop.ui.widgets.status_line import StatusLine

_CTX = "RecapDialog"

__all__ = ["ChooseRecapFile", "RecapDialog"]

ChooseRecapFile = Callable[[QWidget | None, Path, str], Path | None]
"""Asks where to save, given a suggested path and a file-type filter; None: cancelled."""

RECENT_DAYS = 7
"""The recap opens on the last week of the campaign's days."""


def _choose_file(parent: QWidget | None, suggested: Path, file_filter: str) -> Path | None:
    name, _ = QFileDialog.getSaveFileName(parent, tr(_CTX, "Save session recap"),
                                          str(suggested), file_filter)
    return Path(name) if name else None


class RecapDialog(QDialog):
    """Days, encounters, notes or not; the recap as it will read; save, copy, print."""

    def __init__(self, document: CampaignDocument, settings: Settings, *,
                 choose: ChooseRecapFile | None = None, run: RunDialog | None = None,
                 report: Report | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recap_dialog")
        self.setWindowTitle(tr(_CTX, "Session Recap"))
        self.document = document
        self.settings = settings
        self._choose = choose or _choose_file
        self._run = run
        self._report = report or report_to_user
        self.last_folder: Path | None = None
        today = document.campaign.game_time.day

        self.first_day_spin = QSpinBox()
        self.first_day_spin.setObjectName("recap_first_day")
        self.last_day_spin = QSpinBox()
        self.last_day_spin.setObjectName("recap_last_day")
        for spin in (self.first_day_spin, self.last_day_spin):
            spin.setRange(1, MAX_DAY)
            spin.setPrefix(tr(_CTX, "Day "))
        self.first_day_spin.setAccessibleName(tr(_CTX, "First day"))
        self.last_day_spin.setAccessibleName(tr(_CTX, "Last day"))
        self.first_day_spin.setValue(max(1, today - RECENT_DAYS + 1))
        self.last_day_spin.setValue(today)
        days = QHBoxLayout()
        days.addWidget(self.first_day_spin)
        days.addWidget(self.last_day_spin)
        self.encounter_list = QListWidget()
        self.encounter_list.setObjectName("recap_encounters")
        self.encounter_list.setAccessibleName(tr(_CTX, "Encounters in the recap"))
        self.encounter_list.setMaximumHeight(self.fontMetrics().height() * 7)
        self.notes_check = QCheckBox(tr(_CTX, "Include referee-only &notes"))
        self.notes_check.setObjectName("recap_notes_check")
        self.notes_check.setToolTip(tr(_CTX, "The campaign's and encounters' notes, "
                                             "combatants' notes and the log's referee notes"))
        self.preview = QTextBrowser()
        self.preview.setObjectName("recap_preview")
        self.preview.setOpenLinks(False)
        self.preview.setAccessibleName(tr(_CTX, "The recap as it will read"))
        self.status = StatusLine("recap_status")

        self.markdown_button = QPushButton(tr(_CTX, "Save &Markdown…"))
        self.markdown_button.setObjectName("recap_markdown_button")
        self.html_button = QPushButton(tr(_CTX, "Save &HTML…"))
        self.html_button.setObjectName("recap_html_button")
        self.copy_button = QPushButton(tr(_CTX, "&Copy Markdown"))
        self.copy_button.setObjectName("recap_copy_button")
        self.print_button = QPushButton(tr(_CTX, "&Print…"))
        self.print_button.setObjectName("recap_print_button")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        for button in (self.markdown_button, self.html_button, self.copy_button,
                       self.print_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)

        form = QFormLayout()
        form.addRow(tr(_CTX, "Journal days:"), days)
        form.addRow(tr(_CTX, "Encounters:"), self.encounter_list)
        form.addRow("", self.notes_check)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.resize(820, 640)

        self._fill_encounters()
        self.first_day_spin.valueChanged.connect(self._days_changed)
        self.last_day_spin.valueChanged.connect(self._days_changed)
        self.encounter_list.itemChanged.connect(self.refresh)
        self.notes_check.toggled.connect(self.refresh)
        self.markdown_button.clicked.connect(self.save_markdown)
        self.html_button.clicked.connect(self.save_html)
        self.copy_button.clicked.connect(self.copy_markdown)
        self.print_button.clicked.connect(self.print_recap)
        self.refresh()

    # --- what the recap covers ---------------------------------------------------------------

    def _fill_encounters(self) -> None:
        """Every encounter, ticked when it has a log line (or a start) on the days chosen."""
        campaign = self.document.campaign
        first, last = self._days()
        ticked = {e.id for e in encounters_in_days(campaign, first, last)}
        self.encounter_list.blockSignals(True)
        self.encounter_list.clear()
        for encounter in campaign.encounters:
            item = QListWidgetItem(encounter.name)
            item.setData(ItemRole.ID_ROLE, encounter.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if encounter.id in ticked
                               else Qt.CheckState.Unchecked)
            self.encounter_list.addItem(item)
        self.encounter_list.blockSignals(False)

    def _days(self) -> tuple[int, int]:
        first, last = self.first_day_spin.value(), self.last_day_spin.value()
        return min(first, last), max(first, last)

    def _days_changed(self) -> None:
        self._fill_encounters()
        self.refresh()

    def request(self) -> RecapRequest:
        first, last = self._days()
        chosen = tuple(
            str(item.data(ItemRole.ID_ROLE))
            for item in (self.encounter_list.item(i) for i in range(self.encounter_list.count()))
            if item.checkState() == Qt.CheckState.Checked)
        return RecapRequest(first, last, chosen, self.notes_check.isChecked())

    def recap_document(self) -> ExportDocument:
        return recap_document(build_recap(self.document.campaign, self.request()))

    def markdown(self) -> str:
        return render_markdown(self.recap_document())

    def refresh(self) -> None:
        """Show the recap as it stands."""
        self.preview.setMarkdown(self.markdown())
        self.status.setText("")

    # --- out --------------------------------------------------------------------------------

    def _suggested(self, suffix: str) -> Path:
        campaign = self.document.campaign
        first, last = self._days()
        span = f"day-{first}" if first == last else f"days-{first}-{last}"
        stem = f"{safe_file_stem(campaign.name, fallback='campaign')}-recap-{span}"
        return default_export_folder(self.document, self.last_folder) / f"{stem}{suffix}"

    def _save(self, suffix: str, file_filter: str, data: Callable[[], bytes]) -> Path | None:
        path = self._choose(self, self._suggested(suffix), file_filter)
        if path is None:
            return None
        if not path.suffix:
            path = path.with_name(path.name + suffix)
        try:
            write_file_atomically(path, data())
        except ExportError as exc:
            self._report(self, False, str(exc))
            return None
        self.last_folder = path.parent
        self.status.setText(tr(_CTX, "Saved the recap to {0}").format(path))
        return path

    def save_markdown(self) -> Path | None:
        return self._save(".md", tr(_CTX, "Markdown (*.md);;All files (*)"),
                          lambda: self.markdown().encode("utf-8"))

    def save_html(self) -> Path | None:
        from mneme_desktop.export.html import html_bytes

        return self._save(".html", tr(_CTX, "Web page (*.html);;All files (*)"),
                          lambda: html_bytes(self.recap_document(), self.settings.page_size))

    def copy_markdown(self) -> None:
        QGuiApplication.clipboard().setText(self.markdown())
        self.status.setText(tr(_CTX, "The recap is on the clipboard as Markdown."))

    def print_recap(self) -> bool:
        dialog = document_print_preview(self, self.recap_document(), self.settings.page_size)
        return run_print_preview(self, dialog, run=self._run, report=self._report)
