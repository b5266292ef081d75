"""Print (with preview) and export from the main window.

The main window calls :func:`print_with_preview` and :func:`export_with_dialog` with the
open :class:`~mneme_desktop.ui.document.CampaignDocument`, the user's settings and an
:class:`~mneme_desktop.export.document.ExportTarget`. Both never show a traceback: a
failure (a full disk, a read-only folder, a printer that refuses) becomes a message box,
and an export is written to a temp file and renamed, so no half-written file is left.

Export first asks how (:class:`ExportDialog`: format, paper, blank or current damage, each
defaulting to the settings and used for this export only), then where: the save dialog
opens in the folder of the last export this session, else the campaign's folder, else the
user's documents (never the app's own hidden folders, where the sample campaign lives).

Dialog-running and file-choosing are injectable (``run``, ``choose``, ``report``) so tests
drive them without blocking on a modal dialog.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QMainWindow,
    QMessageBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.export.build import build_document
from mneme_desktop.export.document import ExportDocument, ExportOptions, ExportTarget
from mneme_desktop.export.errors import ExportError
from mneme_desktop.export.exporter import ExportFormat, default_file_name, write_export
from mneme_desktop.export.pdf import configure_device, render_document
from mneme_desktop.export.placement import RenderResult
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.settings import PageSize, Settings
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.widgets.plain_text import message_box

_CTX = "ExportDialog"

__all__ = [
    "ChooseFile",
    "ExportDialog",
    "ExportTarget",
    "Report",
    "RunDialog",
    "choose_export_file",
    "default_export_folder",
    "document_print_preview",
    "export_with_dialog",
    "make_print_preview",
    "print_with_preview",
    "report_to_user",
    "resolve_choice",
    "run_print_preview",
]

log = logging.getLogger(__name__)

RunDialog = Callable[[QDialog], int]
"""Runs a dialog and returns its result code (default: ``dialog.exec()``)."""
ChooseFile = Callable[[QWidget | None, Path], tuple[Path, ExportFormat] | None]
"""Asks where to export, given a suggested path; None when the user cancels."""
Report = Callable[[QWidget | None, bool, str], None]
"""Tells the user how it went: (parent, succeeded, message)."""


def report_to_user(parent: QWidget | None, ok: bool, message: str) -> None:
    """Success goes to the status bar when there is one; a failure is a warning box."""
    if ok:
        window = parent.window() if parent is not None else None
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(message, 10_000)
        else:
            message_box(QMessageBox.Icon.Information, tr(_CTX, "Export"), message,
                        QMessageBox.StandardButton.Ok, parent).exec()
        return
    message_box(QMessageBox.Icon.Warning, tr(_CTX, "Export failed"), message,
                QMessageBox.StandardButton.Ok, parent).exec()


def _unexpected(exc: Exception) -> str:
    log.exception("Export failed unexpectedly")
    return (tr(_CTX, "The export failed unexpectedly ({0}: {1}). Nothing was written. The "
                     "details are in the log file.").format(type(exc).__name__, exc))


# --- printing ------------------------------------------------------------------------------


class _PreviewPainter:
    """Paints the document whenever the preview (or the real printer) asks for it."""

    def __init__(self, document: ExportDocument) -> None:
        self.document = document
        self.errors: list[str] = []
        self.last: RenderResult | None = None

    def paint(self, printer: QPrinter) -> None:
        try:
            self.last = render_document(printer, self.document)
        except ExportError as exc:
            self.errors.append(str(exc))
        except Exception as exc:  # never let a slot raise into Qt's event loop
            self.errors.append(_unexpected(exc))


def make_print_preview(
    parent: QWidget | None,
    document: CampaignDocument,
    settings: Settings,
    what: ExportTarget,
) -> QPrintPreviewDialog:
    """A print preview dialog for ``what``, its printer set to the page size in settings.

    Raises ExportError if there is nothing to print (e.g. no player characters).
    """
    options = ExportOptions.from_settings(settings)
    model = build_document(document.campaign, what, options)
    return document_print_preview(parent, model, options.page_size)


def document_print_preview(parent: QWidget | None, model: ExportDocument,
                           page_size: PageSize) -> QPrintPreviewDialog:
    """A print preview dialog for a document already built (a session recap)."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    configure_device(printer, page_size)
    printer.setDocName(model.title)
    dialog = QPrintPreviewDialog(printer, parent)
    dialog.setWindowTitle(tr(_CTX, "Print preview: {0}").format(model.title))
    painter = _PreviewPainter(model)
    dialog.paintRequested.connect(painter.paint)
    # Kept on the dialog so the painter and printer live as long as the dialog.
    dialog._mneme_painter = painter  # type: ignore[attr-defined]
    dialog._mneme_printer = printer  # type: ignore[attr-defined]
    return dialog


def print_with_preview(
    parent: QWidget | None,
    document: CampaignDocument,
    settings: Settings,
    what: ExportTarget,
    *,
    run: RunDialog | None = None,
    report: Report | None = None,
) -> bool:
    """Show the print preview; True when the user printed. Failures are reported."""
    tell = report or report_to_user
    try:
        dialog = make_print_preview(parent, document, settings, what)
    except ExportError as exc:
        tell(parent, False, str(exc))
        return False
    return run_print_preview(parent, dialog, run=run, report=tell)


def run_print_preview(parent: QWidget | None, dialog: QPrintPreviewDialog, *,
                      run: RunDialog | None = None, report: Report | None = None) -> bool:
    """Show a preview made by :func:`make_print_preview` or :func:`document_print_preview`;
    True when the user printed. Failures are reported."""
    tell = report or report_to_user
    try:
        result = (run or QDialog.exec)(dialog)
    finally:
        painter: _PreviewPainter = dialog._mneme_painter  # type: ignore[attr-defined]
        dialog.deleteLater()
    if painter.errors:
        tell(parent, False, painter.errors[-1])
        return False
    return result == QDialog.DialogCode.Accepted


# --- exporting -----------------------------------------------------------------------------


def _is_hidden_folder(folder: Path, app_folders: tuple[Path, ...]) -> bool:
    """The app's own folders (the sample campaign's copy lives in one) and dot-folders are
    no place to look for an export later."""
    resolved = folder.resolve()
    if any(resolved.is_relative_to(app.resolve()) for app in app_folders):
        return True
    home = Path.home().resolve()
    inside = resolved.relative_to(home).parts if resolved.is_relative_to(home) else ()
    return any(part.startswith(".") for part in inside)


def default_export_folder(document: CampaignDocument, last_folder: Path | None = None,
                          app_folders: tuple[Path, ...] = ()) -> Path:
    """Where the save dialog opens: the last export's folder this session, the campaign's
    folder, or the user's documents."""
    if last_folder is not None and last_folder.is_dir():
        return last_folder
    if document.path is not None and not _is_hidden_folder(document.path.parent, app_folders):
        return document.path.parent
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents else Path.home()


class ExportDialog(QDialog):
    """How to export: format, and for a printable format its paper and damage shown."""

    def __init__(self, options: ExportOptions, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Export {0}").format(title))
        self.format_combo = QComboBox()
        for fmt in ExportFormat:
            self.format_combo.addItem(tr(_CTX, fmt.label), fmt.value)
        self.page_combo = QComboBox()
        for size in PageSize:
            self.page_combo.addItem(tr(_CTX, size.value), size.value)
        self.page_combo.setCurrentIndex(list(PageSize).index(options.page_size))
        self.blank_radio = QRadioButton(tr(_CTX, "Blank track, for pencil"))
        self.damage_radio = QRadioButton(tr(_CTX, "Current damage and conditions"))
        self._damage_group = QButtonGroup(self)
        for button in (self.blank_radio, self.damage_radio):
            self._damage_group.addButton(button)
        (self.damage_radio if options.show_damage else self.blank_radio).setChecked(True)
        damage = QWidget()
        damage_layout = QVBoxLayout(damage)
        damage_layout.setContentsMargins(0, 0, 0, 0)
        damage_layout.addWidget(self.blank_radio)
        damage_layout.addWidget(self.damage_radio)
        self.chart_combo = QComboBox()
        self.chart_combo.setObjectName("export_box_chart_combo")
        self.chart_combo.addItem(tr(_CTX, "Rows of three"), ChartStyle.ROWS_OF_THREE)
        self.chart_combo.addItem(tr(_CTX, "MegaTraveller record"), ChartStyle.MEGATRAVELLER)
        self.chart_combo.setCurrentIndex(self.chart_combo.findData(options.box_chart))
        form = QFormLayout()
        form.addRow(tr(_CTX, "Format"), self.format_combo)
        form.addRow(tr(_CTX, "Paper"), self.page_combo)
        form.addRow(tr(_CTX, "Damage"), damage)
        form.addRow(tr(_CTX, "Box chart"), self.chart_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(ok_cancel_buttons(self, tr(_CTX, "Export…")))
        self.format_combo.currentIndexChanged.connect(self._format_changed)
        self._format_changed()

    def _format_changed(self, *_: object) -> None:
        """JSON is data, not paper: its paper and damage choices would do nothing."""
        printable = self.export_format() is not ExportFormat.JSON
        for widget in (self.page_combo, self.blank_radio, self.damage_radio, self.chart_combo):
            widget.setEnabled(printable)

    def export_format(self) -> ExportFormat:
        return ExportFormat(self.format_combo.currentData())

    def options(self) -> ExportOptions:
        """The choices made, for this export only (the settings are left as they are)."""
        return ExportOptions(page_size=PageSize(self.page_combo.currentData()),
                             show_damage=self.damage_radio.isChecked(),
                             box_chart=ChartStyle(self.chart_combo.currentData()))


def choose_export_file(parent: QWidget | None, suggested: Path) -> tuple[Path, ExportFormat] | None:
    """The save dialog: the format from the file type chosen (or the suffix typed)."""
    formats = list(ExportFormat)
    filters = ";;".join(fmt.file_filter for fmt in formats)
    initial = ExportFormat.from_suffix(suggested) or ExportFormat.PDF
    name, chosen_filter = QFileDialog.getSaveFileName(
        parent, tr(_CTX, "Export"), str(suggested), filters, initial.file_filter
    )
    if not name:
        return None
    return resolve_choice(Path(name), chosen_filter)


def resolve_choice(path: Path, chosen_filter: str) -> tuple[Path, ExportFormat]:
    """A typed suffix wins (".html"); otherwise the chosen type, whose suffix is added."""
    typed = ExportFormat.from_suffix(path)
    if typed is not None:
        return path, typed
    fmt = next((f for f in ExportFormat if f.file_filter == chosen_filter), ExportFormat.PDF)
    return path.with_name(path.name + fmt.suffix), fmt


def export_with_dialog(
    parent: QWidget | None,
    document: CampaignDocument,
    settings: Settings,
    what: ExportTarget,
    *,
    choose: ChooseFile | None = None,
    report: Report | None = None,
    run: RunDialog | None = None,
    last_folder: Path | None = None,
    app_folders: tuple[Path, ...] = (),
) -> Path | None:
    """Ask how (:class:`ExportDialog`) and where, write the export, and say how it went.

    ``last_folder`` is where the last export of this session went (the window keeps it);
    ``app_folders`` are the app's own folders, never suggested. Returns the written path,
    or None when cancelled or failed (the failure was shown).
    """
    tell = report or report_to_user
    campaign = document.campaign
    try:
        default_file_name(campaign, what, ExportFormat.PDF)
    except ExportError as exc:
        tell(parent, False, str(exc))
        return None
    dialog = ExportDialog(ExportOptions.from_settings(settings), campaign.name, parent)
    try:
        if (run or QDialog.exec)(dialog) != QDialog.DialogCode.Accepted:
            return None
        options, chosen = dialog.options(), dialog.export_format()
    finally:
        dialog.deleteLater()
    suggested = default_export_folder(document, last_folder, app_folders) / \
        default_file_name(campaign, what, chosen)
    choice = (choose or choose_export_file)(parent, suggested)
    if choice is None:
        return None
    path, fmt = choice
    try:
        write_export(campaign, what, fmt, path, options)
    except ExportError as exc:
        tell(parent, False, str(exc))
        return None
    except Exception as exc:
        tell(parent, False, _unexpected(exc))
        return None
    tell(parent, True, tr(_CTX, "Exported to {0}").format(path))
    return path
