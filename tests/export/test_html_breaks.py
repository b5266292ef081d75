"""HTML export: table headers and numbers never break inside a word (issue 21).

``overflow-wrap: anywhere`` on every cell let a browser squeeze a column below its widest
word, so headers read "Dam age", "Ran ge", "Ini t" and thresholds "CW 1 5+". This test
applies the export's own stylesheet to every header and cell (a small cascade: selectors,
specificity, order) and checks the properties that decide where a line may break.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest

from mneme_desktop.domain import Campaign
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.html import render_html
from mneme_desktop.settings import PageSize

# "16", "+1", "3d6-13", "2d3-3", "CW 15+", "AR 4", "SW 8+": every line a short number.
_NUMBER_LINE = re.compile(r"[A-Za-z]{0,3}[ \u00a0]?[+\-\u2212]?\d[0-9A-Za-z+\-\u2212/.]*\+?")


@dataclass
class _Cell:
    tag: str
    classes: set[str]
    text: list[str] = field(default_factory=list)


class _Cells(HTMLParser):
    """Every th and td with its classes and text; the <style> text too."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[_Cell] = []
        self.style = ""
        self._open: _Cell | None = None
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("th", "td"):
            classes = next((value or "" for name, value in attrs if name == "class"), "")
            self._open = _Cell(tag, set(classes.split()))
            self.cells.append(self._open)
        elif tag == "br" and self._open is not None:
            self._open.text.append("\n")
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td"):
            self._open = None
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data
        elif self._open is not None:
            self._open.text.append(data)


def _rules(css: str) -> list[tuple[str, dict[str, str]]]:
    """(selector, declarations) in source order; @-rules are skipped."""
    out: list[tuple[str, dict[str, str]]] = []
    for body in css.split("}"):
        if "{" not in body:
            continue
        selectors, declarations = body.split("{", 1)
        if selectors.strip().startswith("@"):
            continue
        props = {}
        for declaration in declarations.split(";"):
            name, _, value = declaration.partition(":")
            if value:
                props[name.strip()] = value.strip()
        out.extend((selector.strip(), props) for selector in selectors.split(","))
    return out


def _matches(selector: str, cell: _Cell) -> tuple[int, int] | None:
    """Specificity (classes, tags) when the selector's last compound fits ``cell``. Ancestors
    are assumed to match, so a rule for e.g. ``.cards td`` counts too: the check errs strict."""
    last = selector.split()[-1]
    tag, *classes = last.split(".")
    if tag not in ("", "*", cell.tag) or not set(classes) <= cell.classes:
        return None
    return len(classes), int(tag not in ("", "*")) + len(selector.split()) - 1


def _computed(cell: _Cell, rules: list[tuple[str, dict[str, str]]]) -> dict[str, str]:
    winners: dict[str, tuple[tuple[int, int], int, str]] = {}
    for order, (selector, props) in enumerate(rules):
        specificity = _matches(selector, cell)
        if specificity is None:
            continue
        for name, value in props.items():
            if name not in winners or (specificity, order) >= winners[name][:2]:
                winners[name] = (specificity, order, value)
    return {name: value for name, (_s, _o, value) in winners.items()}


def _no_break_inside_words(props: dict[str, str]) -> bool:
    return (props.get("overflow-wrap", "normal") == "normal"
            and props.get("word-wrap", "normal") == "normal"
            and props.get("word-break", "normal") in ("normal", "keep-all")
            and props.get("hyphens", "manual") in ("manual", "none"))


def _cells(campaign: Campaign) -> tuple[list[_Cell], list[tuple[str, dict[str, str]]]]:
    parser = _Cells()
    for target in (ExportTarget.player_characters(),
                   ExportTarget.referee_pack(campaign.encounters[0].id)):
        document = build_document(campaign, target, ExportOptions(show_damage=True))
        parser.feed(render_html(document, PageSize.A4))
    return parser.cells, _rules(parser.style)


@pytest.mark.parametrize("header", ["Damage", "Range", "Init", "Level", "Rating"])
def test_headers_break_only_between_words(campaign: Campaign, header: str) -> None:
    cells, rules = _cells(campaign)
    headers = [cell for cell in cells if cell.tag == "th"]
    assert any("".join(cell.text) == header for cell in headers), header
    for cell in headers:
        assert _no_break_inside_words(_computed(cell, rules)), "".join(cell.text)


def test_numbers_in_cells_never_break(campaign: Campaign) -> None:
    cells, rules = _cells(campaign)
    numbers = [cell for cell in cells if cell.tag == "td" and "".join(cell.text).strip()
               and all(_NUMBER_LINE.fullmatch(line.strip())
                       for line in "".join(cell.text).split("\n"))]
    texts = {"".join(cell.text) for cell in numbers}
    assert "3d6-13" in texts
    assert any("CW\u00a016+" in text for text in texts)
    for cell in numbers:
        props = _computed(cell, rules)
        assert _no_break_inside_words(props), "".join(cell.text)
        assert props.get("white-space") == "nowrap", "".join(cell.text)
