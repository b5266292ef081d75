"""How long printing takes: one character sheet, and a batch of 100 sheets.

Run: ``QT_QPA_PLATFORM=offscreen python3 benchmarks/bench_export.py``. Not a test: the
figures depend on the machine. Each figure is the best of several runs (so disk and
scheduler noise do not count), for building the document model, laying it out and
painting the PDF into memory; HTML and JSON are timed on the same batch. The PDF figures
are also given as ratios to a baseline measured in the same run: the same characters' data
as plain text printed to PDF by QTextDocument (the goal for 100 sheets is at most 2.5x).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

from mneme_desktop.domain import Campaign, Character, CharacterKind
from mneme_desktop.export.build import build_document
from mneme_desktop.export.document import ExportOptions, ExportTarget
from mneme_desktop.export.fonts import ensure_gui_application
from mneme_desktop.export.html import html_bytes
from mneme_desktop.export.json_export import export_json
from mneme_desktop.export.pdf import pdf_bytes
from mneme_desktop.settings import PageSize
from mneme_desktop.storage.sample import build_sample_campaign


def _best(runs: int, job: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - start)
    return best


def _batch_campaign(sheets: int) -> Campaign:
    """The sample's player characters repeated to ``sheets`` characters (new ids)."""
    campaign = build_sample_campaign()
    players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    for number in range(sheets - len(players)):
        source = players[number % len(players)]
        copy = source.model_copy(deep=True, update={"name": f"{source.name} {number + 2}"})
        campaign.add_character(copy)
    return campaign


def plain_text_pdf(characters: list[Character]) -> None:
    """The baseline: the same characters' data as plain text, one page each."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, QMarginsF()))
    text = QTextDocument()
    text.setPlainText("\f".join(c.model_dump_json(indent=1) for c in characters))
    text.print_(writer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    ensure_gui_application()
    options = ExportOptions(page_size=PageSize.A4, show_damage=True)

    campaign = build_sample_campaign()
    mara = campaign.characters[0]
    one = ExportTarget.character(mara.id)
    pdf_bytes(build_document(campaign, one, options), options.page_size)  # warm-up: fonts

    def sheet_pdf() -> None:
        pdf_bytes(build_document(campaign, one, options), options.page_size)

    model_time = _best(args.runs, lambda: build_document(campaign, one, options))
    sheet_time = _best(args.runs, sheet_pdf)
    sheet_base = _best(args.runs, lambda: plain_text_pdf([mara]))

    batch = _batch_campaign(args.batch)
    everyone = ExportTarget.player_characters()

    def batch_pdf() -> int:
        _data, result = pdf_bytes(build_document(batch, everyone, options), options.page_size)
        return result.page_count

    pages = batch_pdf()
    batch_runs = max(1, args.runs // 2)
    batch_time = _best(batch_runs, batch_pdf)
    batch_base = _best(batch_runs, lambda: plain_text_pdf(list(batch.characters)))
    html_time = _best(batch_runs,
                      lambda: html_bytes(build_document(batch, everyone, options)))
    json_time = _best(batch_runs, lambda: export_json(batch, everyone))
    pack = ExportTarget.referee_pack(campaign.encounters[0].id)
    pack_time = _best(args.runs,
                      lambda: pdf_bytes(build_document(campaign, pack, options), PageSize.A4))

    print(f"document model, one sheet:        {model_time * 1000:8.1f} ms")
    print(f"PDF, one sheet (model+layout+paint): {sheet_time * 1000:6.1f} ms "
          f"({sheet_time / sheet_base:.2f}x the plain-text PDF, {sheet_base * 1000:.1f} ms)")
    print(f"PDF, {args.batch} sheets in one file ({pages} pages): {batch_time:6.2f} s "
          f"({batch_time / args.batch * 1000:.1f} ms per sheet; "
          f"{batch_time / batch_base:.2f}x the plain-text PDF, {batch_base:.2f} s)")
    print(f"HTML, {args.batch} sheets:                {html_time:6.2f} s")
    print(f"JSON, {args.batch} characters:            {json_time * 1000:6.1f} ms")
    print(f"PDF, referee pack (roster + cards): {pack_time * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
