"""HTML export: self-contained, every user string escaped, no live script anywhere."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser

from PySide6.QtGui import QImage

from mneme_desktop.domain import Campaign, Character, Characteristics, CharacterKind, Weapon
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.document import TrackBlock, TrackKind
from mneme_desktop.export.html import render_html, track_png
from mneme_desktop.rules.track import damage_track
from mneme_desktop.settings import PageSize

SCRIPT = "<script>alert(1)</script>"


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend((tag, name, value) for name, value in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(page: str) -> _Collector:
    collector = _Collector()
    collector.feed(page)
    collector.close()
    return collector


def _hostile(campaign: Campaign) -> Character:
    character = Character(
        name=SCRIPT,
        player='"><img src=x onerror=alert(2)>',
        characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
        weapons=[Weapon(name="<iframe src=javascript:alert(3)>", damage="2d6",
                        notes="</td><script>alert(4)</script>")],
        notes="<svg onload=alert(5)> & <b>bold</b>\n\n<style>body{display:none}</style>",
    )
    return campaign.add_character(character)


def test_character_named_script_contains_no_live_script(campaign: Campaign) -> None:
    character = _hostile(campaign)
    document = build_document(campaign, ExportTarget.character(character.id),
                              ExportOptions(show_damage=True))
    page = render_html(document)
    assert "<script" not in page.lower()
    assert "<iframe" not in page.lower()
    assert "<svg" not in page.lower()
    parsed = _parse(page)
    assert not {"script", "iframe", "svg", "object", "embed"} & set(parsed.tags)
    assert parsed.tags.count("style") == 1  # only our own stylesheet
    assert parsed.tags.count("img") == 2  # only the two track images
    for _tag, name, value in parsed.attributes:
        assert not name.startswith("on"), name
        if name == "src":
            assert value is not None and value.startswith("data:image/png;base64,")
    text = "".join(parsed.text)
    assert SCRIPT in text  # shown as text, exactly as typed
    assert "<svg onload=alert(5)> & <b>bold</b>" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_content_security_policy_forbids_scripts(campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), ExportOptions())
    page = render_html(document)
    assert "Content-Security-Policy" in page
    assert "default-src 'none'" in page
    assert "script-src" not in page  # default-src 'none' covers scripts


def test_all_player_characters_in_one_page(campaign: Campaign) -> None:
    document = build_document(campaign, ExportTarget.player_characters(), ExportOptions())
    page = render_html(document, PageSize.LETTER)
    assert "size: letter" in page
    parsed = _parse(page)
    text = " ".join(parsed.text)
    players = [c for c in campaign.characters if c.kind is CharacterKind.PLAYER]
    for character in players:
        assert character.name in text
        assert character.upp in text
        for weapon in character.weapons:
            assert weapon.name in text
    assert parsed.tags.count("section") == len(players)
    assert page.count('class="track bar"') == len(players)
    assert page.count('class="track box-chart"') == len(players)
    alts = [value for tag, name, value in parsed.attributes if tag == "img" and name == "alt"]
    assert len(alts) == 2 * len(players) and all(alts)


def test_referee_pack_has_roster_bars_and_cards(campaign: Campaign) -> None:
    ford = campaign.encounters[0]
    document = build_document(campaign, ExportTarget.referee_pack(ford.id), ExportOptions())
    page = render_html(document)
    # A tally bar per combatant, and one on the card of each vehicle or object in the fight.
    assert page.count('class="track bar"') == len(ford.combatants) + len(ford.things)
    assert page.count('<article class="card">') == 4 + len(ford.things)
    assert "Raider Chief" in page


def test_track_images_are_painted_by_the_shared_painter() -> None:
    track = damage_track(11, 27)
    for kind in TrackKind:
        data, width, height = track_png(TrackBlock(track, kind, True, "Ilse"))
        assert data.startswith(b"\x89PNG")
        image = QImage.fromData(data)
        assert image.width() == 2 * width and image.height() == 2 * height
        dark = sum(1 for y in range(0, image.height(), 3) for x in range(0, image.width(), 3)
                   if image.pixelColor(x, y).lightness() < 100)
        assert dark > 20, kind


def test_embedded_images_decode(campaign: Campaign) -> None:
    mara = campaign.characters[0]
    document = build_document(campaign, ExportTarget.character(mara.id), ExportOptions())
    page = render_html(document)
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 2
    for encoded in images:
        assert not QImage.fromData(base64.b64decode(encoded)).isNull()
