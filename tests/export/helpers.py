"""Helpers for the export tests: an extreme character, and poppler (pdftotext & co.)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mneme_desktop.domain import (
    Armor,
    Character,
    Characteristics,
    CoverItem,
    RangeClass,
    Skill,
    Weapon,
)

LONG_NAME = (
    "Lady Ysolde Marguerite Annaliese von Hohenzollern-Sigmaringen-Katzenelnbogen "
    "of the Ninth Orbital Habitat and the Outer Rim Marches"
)


def extreme_character() -> Character:
    """Very long names, 40 skills and 15 weapons: the sheet must flow, never clip."""
    damages = ["3d6-2", "D 2d6", "2d3", "1d6+1", "4d6-3"]
    return Character(
        name=LONG_NAME,
        player="A player whose name is also unreasonably long for any printed sheet",
        characteristics=Characteristics.of(15, 14, 15, 12, 11, 10, 9),
        skills=[
            Skill(name=f"Skillname{i:02d} of Considerable Length",
                  specialty=f"Specialty {i}" if i % 3 else None, level=i % 4)
            for i in range(40)
        ],
        weapons=[
            Weapon(
                name=f"Weapon{i:02d} " + "Extremely Long Weapon Name " * (i % 3),
                damage=damages[i % len(damages)],
                rate_of_attack=1 + i % 4,
                range_class=list(RangeClass)[i % len(RangeClass)],
                aim_modifier=i % 3,
                skill="Gun Combat (Slug Rifle)" if i % 2 else "Unbreakablewordwithoutanyspaces",
                notes="Jams on a natural 2. " * (i % 3),
            )
            for i in range(15)
        ],
        armor=[Armor(name="Battle Dress of the Imperial Marines, Mark IV", rating=18)],
        cover_items=[CoverItem(name="Riot shield", protection=2, hp=12, damage=3)],
        damage=40,
        notes=("A long note about a long life. " * 60 + "\n\n") * 3
        + "Unbreakable" + "x" * 250,
    )


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} (poppler-utils) is not installed: apt-get install -y poppler-utils")
    return path


def pdf_text(path: Path) -> str:
    """The PDF's text as poppler extracts it; pages are separated by form feeds."""
    result = subprocess.run([_need("pdftotext"), str(path), "-"],
                            capture_output=True, text=True, check=True)
    return result.stdout


def squash(text: str) -> str:
    """Text without whitespace: a name wrapped inside a table cell still matches."""
    return "".join(text.split())


def pdf_info(path: Path) -> dict[str, str]:
    result = subprocess.run([_need("pdfinfo"), str(path)], capture_output=True, text=True,
                            check=True)
    info = {}
    for line in result.stdout.splitlines():
        key, _, value = line.partition(":")
        info[key.strip()] = value.strip()
    return info


def pdf_fonts(path: Path) -> list[list[str]]:
    result = subprocess.run([_need("pdffonts"), str(path)], capture_output=True, text=True,
                            check=True)
    return [line.split() for line in result.stdout.splitlines()[2:] if line.strip()]


def pdf_page_png(path: Path, page: int, out: Path, dpi: int = 50) -> Path:
    prefix = out / f"page{page}"
    subprocess.run([_need("pdftoppm"), "-png", "-r", str(dpi), "-f", str(page), "-l", str(page),
                    "-singlefile", str(path), str(prefix)], check=True)
    return prefix.with_suffix(".png")
