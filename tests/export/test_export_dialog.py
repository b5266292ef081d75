"""The main window's print and export entry points, driven without blocking dialogs."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewWidget
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMainWindow, QWidget

from mneme_desktop.domain import Campaign, CharacterKind
from mneme_desktop.export import ExportFormat, ExportTarget
from mneme_desktop.settings import PageSize, Settings
from mneme_desktop.ui.dialogs import export_dialog
from mneme_desktop.ui.dialogs.export_dialog import (
    ExportDialog,
    export_with_dialog,
    make_print_preview,
    print_with_preview,
    report_to_user,
    resolve_choice,
)
from mneme_desktop.ui.document import CampaignDocument
from tests.export.helpers import pdf_info, pdf_text, squash


class _Reports:
    def __init__(self) -> None:
        self.calls: list[tuple[bool, str]] = []

    def __call__(self, parent: QWidget | None, ok: bool, message: str) -> None:
        self.calls.append((ok, message))


def _accept(dialog: QDialog) -> int:
    """The referee presses Export… without changing anything."""
    return int(QDialog.DialogCode.Accepted)


def _export(*args: object, **kwargs: object) -> Path | None:
    return export_with_dialog(*args, run=_accept, **kwargs)  # type: ignore[arg-type]


def _press_export(qtbot: object, dialog: QDialog) -> int:
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons is not None
    button = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert button.text() == "Export…"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    return dialog.result()


@pytest.fixture
def document(campaign: Campaign, tmp_path: Path) -> CampaignDocument:
    return CampaignDocument(campaign, tmp_path / "campaign.mneme")


# --- export --------------------------------------------------------------------------------


def test_export_writes_the_chosen_file(document: CampaignDocument, tmp_path: Path) -> None:
    reports = _Reports()
    asked: list[Path] = []
    target = tmp_path / "sheets.pdf"

    def choose(parent: QWidget | None, suggested: Path) -> tuple[Path, ExportFormat]:
        asked.append(suggested)
        return target, ExportFormat.PDF

    written = _export(None, document, Settings(page_size=PageSize.LETTER),
                                 ExportTarget.player_characters(), choose=choose,
                                 report=reports)
    assert written == target
    assert asked == [tmp_path / "The-Ashfall-Marches-characters.pdf"]
    assert pdf_info(target)["Page size"].startswith("612 x 792")
    assert reports.calls == [(True, f"Exported to {target}")]


def test_current_damage_setting_reaches_the_sheet(document: CampaignDocument,
                                                  tmp_path: Path) -> None:
    ilse = next(c for c in document.campaign.characters if c.name == "Ilse Brandt")
    target = tmp_path / "ilse.pdf"
    _export(None, document, Settings(print_current_damage=True),
                       ExportTarget.character(ilse.id),
                       choose=lambda parent, suggested: (target, ExportFormat.PDF),
                       report=_Reports())
    assert "Crippled(leftarm)" in squash(pdf_text(target))


def test_the_dialog_offers_paper_and_damage_for_this_export_only(
        qtbot: object, document: CampaignDocument, tmp_path: Path) -> None:
    settings = Settings(page_size=PageSize.A4, print_current_damage=False)
    ilse = next(c for c in document.campaign.characters if c.name == "Ilse Brandt")
    target = tmp_path / "ilse.pdf"
    seen: dict[str, object] = {}

    def run(dialog: QDialog) -> int:
        assert isinstance(dialog, ExportDialog)
        dialog.show()
        qtbot.waitExposed(dialog)  # type: ignore[attr-defined]
        seen["defaults"] = (dialog.page_combo.currentText(), dialog.blank_radio.isChecked())
        dialog.page_combo.setCurrentIndex(dialog.page_combo.findText("Letter"))
        qtbot.mouseClick(dialog.damage_radio, Qt.MouseButton.LeftButton)  # type: ignore
        return _press_export(qtbot, dialog)

    def choose(parent: QWidget | None, suggested: Path) -> tuple[Path, ExportFormat]:
        seen["suggested"] = suggested
        return target, ExportFormat.PDF

    assert export_with_dialog(None, document, settings, ExportTarget.character(ilse.id),
                              run=run, choose=choose, report=_Reports()) == target
    assert seen["defaults"] == ("A4", True)
    assert seen["suggested"] == tmp_path / "The-Ashfall-Marches-Ilse-Brandt.pdf"
    assert pdf_info(target)["Page size"].startswith("612 x 792")  # Letter, as chosen
    assert "Crippled(leftarm)" in squash(pdf_text(target))  # current damage, as chosen
    assert settings.page_size is PageSize.A4 and not settings.print_current_damage


def test_json_has_no_paper_to_choose(qtbot: object, document: CampaignDocument,
                                     tmp_path: Path) -> None:
    suggested: list[Path] = []

    def run(dialog: QDialog) -> int:
        assert isinstance(dialog, ExportDialog)
        dialog.show()
        qtbot.waitExposed(dialog)  # type: ignore[attr-defined]
        assert dialog.page_combo.isEnabled() and dialog.damage_radio.isEnabled()
        dialog.format_combo.setCurrentIndex(dialog.format_combo.findText("JSON data"))
        assert not dialog.page_combo.isEnabled() and not dialog.damage_radio.isEnabled()
        return _press_export(qtbot, dialog)

    export_with_dialog(None, document, Settings(), ExportTarget.player_characters(), run=run,
                       choose=lambda parent, path: suggested.append(path),  # type: ignore
                       report=_Reports())
    assert [path.suffix for path in suggested] == [".json"]


def test_cancelling_the_dialog_asks_for_no_file(document: CampaignDocument) -> None:
    asked: list[Path] = []
    assert export_with_dialog(None, document, Settings(), ExportTarget.player_characters(),
                              run=lambda dialog: int(QDialog.DialogCode.Rejected),
                              choose=lambda parent, path: asked.append(path),  # type: ignore
                              report=_Reports()) is None
    assert asked == []


def test_cancel_does_nothing(document: CampaignDocument) -> None:
    reports = _Reports()
    assert _export(None, document, Settings(), ExportTarget.player_characters(),
                              choose=lambda parent, suggested: None, report=reports) is None
    assert reports.calls == []


def test_missing_folder_is_reported_not_raised(document: CampaignDocument,
                                               tmp_path: Path) -> None:
    reports = _Reports()
    target = tmp_path / "unplugged" / "sheets.html"
    result = _export(None, document, Settings(), ExportTarget.player_characters(),
                                choose=lambda parent, suggested: (target, ExportFormat.HTML),
                                report=reports)
    assert result is None
    assert len(reports.calls) == 1 and not reports.calls[0][0]
    assert "does not exist" in reports.calls[0][1]


def test_full_disk_is_reported_and_leaves_nothing(document: CampaignDocument, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    folder = tmp_path / "exports"
    folder.mkdir()
    reports = _Reports()
    result = _export(
        None, document, Settings(), ExportTarget.player_characters(),
        choose=lambda parent, suggested: (folder / "sheets.pdf", ExportFormat.PDF),
        report=reports,
    )
    assert result is None
    assert reports.calls[0][0] is False and "disk is full" in reports.calls[0][1]
    assert list(folder.iterdir()) == []


def test_unexpected_failure_is_a_message(document: CampaignDocument, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> Path:
        raise RuntimeError("printer driver exploded")

    monkeypatch.setattr(export_dialog, "write_export", broken)
    reports = _Reports()
    _export(None, document, Settings(), ExportTarget.player_characters(),
                       choose=lambda parent, suggested: (tmp_path / "x.pdf", ExportFormat.PDF),
                       report=reports)
    assert reports.calls[0][0] is False
    assert "unexpectedly" in reports.calls[0][1] and "Nothing was written" in reports.calls[0][1]


def test_nothing_to_export_is_reported(document: CampaignDocument) -> None:
    reports = _Reports()
    asked: list[Path] = []
    _export(None, document, Settings(), ExportTarget.character("gone"),
                       choose=lambda parent, suggested: asked.append(suggested),  # type: ignore
                       report=reports)
    assert asked == []
    assert reports.calls[0][0] is False and "no longer" in reports.calls[0][1]


def test_typed_suffix_wins_over_the_chosen_type() -> None:
    pdf_filter = ExportFormat.PDF.file_filter
    assert resolve_choice(Path("/x/sheet.html"), pdf_filter) == (Path("/x/sheet.html"),
                                                                  ExportFormat.HTML)
    assert resolve_choice(Path("/x/sheet"), ExportFormat.JSON.file_filter) == (
        Path("/x/sheet.json"), ExportFormat.JSON)
    assert resolve_choice(Path("/x/v1.2"), pdf_filter) == (Path("/x/v1.2.pdf"), ExportFormat.PDF)


def test_success_goes_to_the_status_bar(qtbot: object) -> None:
    window = QMainWindow()
    report_to_user(window, True, "Exported to /tmp/x.pdf")
    assert window.statusBar().currentMessage() == "Exported to /tmp/x.pdf"
    window.deleteLater()


# --- printing ------------------------------------------------------------------------------


def test_preview_paints_the_document(document: CampaignDocument, tmp_path: Path) -> None:
    dialog = make_print_preview(None, document, Settings(page_size=PageSize.LETTER),
                                ExportTarget.player_characters())
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    dialog.paintRequested.emit(printer)
    assert pdf_info(tmp_path / "printed.pdf")["Pages"] == "4"
    dialog.deleteLater()


def test_print_with_preview_runs_the_dialog(document: CampaignDocument) -> None:
    seen: dict[str, int] = {}

    def run(dialog: QDialog) -> int:
        preview = dialog.findChild(QPrintPreviewWidget)
        assert preview is not None
        preview.updatePreview()
        seen["pages"] = preview.pageCount()
        return int(QDialog.DialogCode.Accepted)

    reports = _Reports()
    assert print_with_preview(None, document, Settings(), ExportTarget.player_characters(),
                              run=run, report=reports)
    assert seen["pages"] == 4
    assert reports.calls == []


def test_print_with_nothing_to_print_says_so(document: CampaignDocument) -> None:
    campaign = document.campaign
    campaign.encounters = []
    campaign.characters = [c for c in campaign.characters if c.kind is not CharacterKind.PLAYER]
    reports = _Reports()
    ran: list[QDialog] = []
    assert not print_with_preview(None, document, Settings(), ExportTarget.player_characters(),
                                  run=lambda dialog: ran.append(dialog) or 0, report=reports)
    assert ran == []
    assert reports.calls[0][0] is False and "no player characters" in reports.calls[0][1]


def test_cancelled_preview_returns_false(document: CampaignDocument) -> None:
    assert not print_with_preview(None, document, Settings(), ExportTarget.player_characters(),
                                  run=lambda dialog: int(QDialog.DialogCode.Rejected),
                                  report=_Reports())
