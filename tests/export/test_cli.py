"""``mneme-desktop export``: batch export from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign
from mneme_desktop.export.cli import run_export
from mneme_desktop.storage import save_campaign
from tests.export.helpers import pdf_info, pdf_text, squash


@pytest.fixture
def sample_file(tmp_path: Path, campaign: Campaign) -> Path:
    path = tmp_path / "sample.mneme"
    save_campaign(campaign, path, backups=0)
    return path


def _isolated_env(tmp_path: Path) -> dict[str, str]:
    """No display and no platform chosen: the command must pick offscreen by itself.
    Settings come from an empty config folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["HOME"] = str(tmp_path / "home")
    return env


def test_python_m_export_writes_pdf(tmp_path: Path, sample_file: Path) -> None:
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "mneme_desktop", "export", str(sample_file), "--format", "pdf",
         "--out", str(out)],
        capture_output=True, text=True, env=_isolated_env(tmp_path), timeout=240,
    )
    assert result.returncode == 0, result.stderr
    written = out / "The-Ashfall-Marches-characters.pdf"
    assert result.stdout.splitlines() == [str(written)]
    assert pdf_info(written)["Pages"] == "4"
    assert "SefAdeyemi" in squash(pdf_text(written))


def test_missing_campaign_exits_2_with_a_message(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mneme_desktop", "export", str(tmp_path / "nope.mneme"),
         "--format", "pdf", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, env=_isolated_env(tmp_path), timeout=240,
    )
    assert result.returncode == 2
    assert "nope.mneme" in result.stderr and "no such file" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_characters_and_referee_pack(tmp_path: Path, sample_file: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = run_export([str(sample_file), "--format", "html", "--out", str(out),
                       "--character", "mara vey", "--character", "Raider",
                       "--pack", "referee", "--page-size", "letter", "--blank"])
    assert code == 0
    names = sorted(Path(line).name for line in capsys.readouterr().out.splitlines())
    assert names == [
        "The-Ashfall-Marches-Mara-Vey.html",
        "The-Ashfall-Marches-Raider.html",  # a template's stat block, found by name
        "The-Ashfall-Marches-referee-Ambush-at-Cinder-Ford.html",  # the one not yet fought
    ]
    assert "size: letter" in (out / names[0]).read_text(encoding="utf-8")


def test_pack_for_a_named_encounter_as_json(tmp_path: Path, sample_file: Path) -> None:
    out = tmp_path / "out"
    code = run_export([str(sample_file), "--format", "json", "--out", str(out),
                       "--pack", "referee", "--encounter", "Skirmish at the Salt Well"])
    assert code == 0
    document = json.loads((out / "The-Ashfall-Marches-referee-Skirmish-at-the-Salt-Well.json")
                          .read_text(encoding="utf-8"))
    assert document["encounter"]["name"] == "Skirmish at the Salt Well"


def test_same_name_twice_gets_two_files(tmp_path: Path, campaign: Campaign) -> None:
    twin = campaign.characters[0].model_copy(update={"id": "twin", "notes": "the other one"})
    campaign.characters.append(twin)
    path = tmp_path / "twins.mneme"
    save_campaign(campaign, path, backups=0)
    out = tmp_path / "out"
    assert run_export([str(path), "--format", "json", "--out", str(out),
                       "--character", "Mara Vey"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "The-Ashfall-Marches-Mara-Vey-2.json", "The-Ashfall-Marches-Mara-Vey.json"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--character", "Nobody"], "no character named 'Nobody'"),
        (["--pack", "referee", "--encounter", "Nowhere"], "no encounter named 'Nowhere'"),
        (["--encounter", "Ambush at Cinder Ford"], "only applies to --pack referee"),
        (["--page-size", "A5"], "unknown page size"),
        (["--current-damage", "--blank"], "not allowed with"),
    ],
)
def test_bad_input_exits_2(tmp_path: Path, sample_file: Path, extra: list[str], message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    code = run_export([str(sample_file), "--format", "pdf", "--out", str(tmp_path / "o"),
                       *extra])
    assert code == 2
    assert message in capsys.readouterr().err


def test_bad_format_and_out_is_a_file(tmp_path: Path, sample_file: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert run_export([str(sample_file), "--format", "docx", "--out", str(tmp_path)]) == 2
    assert "invalid choice" in capsys.readouterr().err
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    assert run_export([str(sample_file), "--format", "pdf", "--out", str(blocker)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_not_a_campaign_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "bogus.mneme"
    bogus.write_text("{not json", encoding="utf-8")
    assert run_export([str(bogus), "--format", "pdf", "--out", str(tmp_path / "o")]) == 2
    assert "bogus.mneme" in capsys.readouterr().err


def test_write_failure_exits_1(tmp_path: Path, sample_file: Path,
                               monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "out"
    assert run_export([str(sample_file), "--format", "json", "--out", str(out)]) == 1
    assert "disk is full" in capsys.readouterr().err
    assert list(out.iterdir()) == []


def test_help_returns_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_export(["--help"]) == 0
    assert "--pack" in capsys.readouterr().out


def test_file_names_from_user_text_lose_nul_and_bidi_overrides(tmp_path: Path,
                                                               campaign: Campaign) -> None:
    """A name with U+202E shows "Mara\u202egpj.exe" as "Maraexe.jpg" in a file manager."""
    campaign.name = "Ash\u202efall\x00"
    campaign.characters[0].name = "Mara\u202efdp.exe\u200b"
    path = tmp_path / "bidi.mneme"
    save_campaign(campaign, path, backups=0)
    out = tmp_path / "out"
    assert run_export([str(path), "--format", "json", "--out", str(out),
                       "--character", campaign.characters[0].name]) == 0
    (written,) = out.iterdir()
    assert written.name == "Ash-fall-Mara-fdp.exe.json"
    assert all(ord(c) >= 0x20 and c not in "\u202e\u200b" for c in written.name)


def test_an_unreadable_campaign_is_exit_2_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.mneme"
    os.mkfifo(fifo)
    assert run_export([str(fifo), "--format", "json", "--out", str(tmp_path / "o")]) == 2
    assert "named pipe" in capsys.readouterr().err
