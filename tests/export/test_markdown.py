"""Markdown of the document model: the same text as print and HTML, campaign text escaped."""

from __future__ import annotations

from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import (
    Block,
    Columns,
    ExportDocument,
    Sheet,
    Table,
    iter_strings,
)
from mneme_desktop.export.markdown import escape_markdown, render_markdown
from mneme_desktop.storage import build_sample_campaign


def _empty_texts_of_full_tables(document: ExportDocument) -> list[str]:
    """A table's "empty" text is shown only when it has no rows."""
    found: list[str] = []

    def walk(blocks: tuple[Block, ...]) -> None:
        for block in blocks:
            if isinstance(block, Table) and block.rows:
                found.append(block.empty)
            elif isinstance(block, Columns):
                for part in block.parts:
                    walk(part)
                walk(block.extra)

    for part in document.parts:
        if isinstance(part, Sheet):
            walk(part.blocks)
        else:
            for card in part.cards:
                walk(card.blocks)
    return found


def test_every_export_of_the_sample_is_markdown_with_its_text():
    campaign = build_sample_campaign()
    for target in (ExportTarget.player_characters(),
                   ExportTarget.referee_pack(campaign.encounters[0].id)):
        document = build_document(campaign, target, ExportOptions())
        markdown = render_markdown(document)
        assert markdown.startswith("# ") and markdown.endswith("\n")
        unshown = {document.title} | set(_empty_texts_of_full_tables(document))
        for text in iter_strings(document):
            for line in text.splitlines():
                assert text in unshown or escape_markdown(line) in markdown, line


def test_campaign_text_never_becomes_markup():
    assert escape_markdown("*Bold* | pipe # 1. list") == r"\*Bold\* \| pipe \# 1. list"
    assert escape_markdown("- not a list") == r"\- not a list"
    assert escape_markdown("12. Raider") == r"12\. Raider"
    assert escape_markdown("<script>") == r"\<script\>"
    assert escape_markdown("---") == r"\---" and escape_markdown("===") == r"\==="
