"""The command line as installers and referees use it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mneme_desktop.storage import build_sample_campaign, load_campaign, save_campaign

FIXTURES = Path(__file__).parent / "storage" / "fixtures" / "ce-char-1"


def run_app(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(home),
               XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"))
    return subprocess.run([sys.executable, "-m", "mneme_desktop", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    return path


def test_smoke_test_opens_the_campaign_and_exits_zero(tmp_path, campaign):
    result = run_app("--smoke-test", str(campaign), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr


def test_smoke_test_without_a_campaign_opens_the_sample(tmp_path):
    home = tmp_path / "home"
    result = run_app("--smoke-test", home=home)
    assert result.returncode == 0, result.stderr
    assert list(home.rglob("Sample Campaign.mneme"))


def test_smoke_test_fails_on_a_corrupt_campaign(tmp_path):
    bad = tmp_path / "bad.mneme"
    bad.write_text("{", encoding="utf-8")
    result = run_app("--smoke-test", str(bad), home=tmp_path / "home")
    assert result.returncode != 0
    assert bad.read_text(encoding="utf-8") == "{"


def test_screenshot_writes_a_png(tmp_path, campaign):
    out = tmp_path / "shot.png"
    result = run_app("--screenshot", str(out), "--view", "sheet", str(campaign),
                     home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_import_command_adds_a_ce_chargen_character(tmp_path, campaign):
    before = len(load_campaign(campaign).characters)
    result = run_app("import", str(FIXTURES / "ce_char_2.json"), "--into", str(campaign),
                     home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert len(load_campaign(campaign).characters) == before + 1


def test_import_command_refuses_an_unknown_format_clearly(tmp_path, campaign):
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}', encoding="utf-8")
    original = campaign.read_bytes()
    result = run_app("import", str(junk), "--into", str(campaign), home=tmp_path / "home")
    assert result.returncode == 2
    assert "junk.json" in result.stderr and "Traceback" not in result.stderr
    assert campaign.read_bytes() == original
