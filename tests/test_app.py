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
    assert "no field on the sheet: background, career history, hero coins" in result.stdout
    added = load_campaign(campaign).characters[-1]
    assert (added.species, added.age, added.credits) == ("Dwarf", 22, 20_500)


def test_import_command_refuses_an_unknown_format_clearly(tmp_path, campaign):
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}', encoding="utf-8")
    original = campaign.read_bytes()
    result = run_app("import", str(junk), "--into", str(campaign), home=tmp_path / "home")
    assert result.returncode == 2
    assert "junk.json" in result.stderr and "Traceback" not in result.stderr
    assert campaign.read_bytes() == original


# --- issue 15: never lose a campaign ------------------------------------------------------


def _cli_env(home: Path) -> dict[str, str]:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(home),
                XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
                XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"))


def test_parallel_imports_never_report_a_success_that_is_not_in_the_file(tmp_path, campaign):
    """Twelve imports of one file at once: before, ten said "Imported" and one was added."""
    before = len(load_campaign(campaign).characters)
    env = _cli_env(tmp_path / "home")
    source = str(FIXTURES / "ce_char_2.json")
    processes = [
        subprocess.Popen([sys.executable, "-m", "mneme_desktop", "import", source,
                          "--into", str(campaign)], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(12)
    ]
    results = [(p.wait(timeout=240), p.stdout.read(), p.stderr.read())  # type: ignore[union-attr]
               for p in processes]
    for process in processes:
        process.stdout.close()  # type: ignore[union-attr]
        process.stderr.close()  # type: ignore[union-attr]
    successes = sum(1 for code, _, _ in results if code == 0)
    assert all("Traceback" not in err for _, _, err in results)
    assert len(load_campaign(campaign).characters) == before + successes
    assert successes == 12, [err for code, _, err in results if code]


def _hold_lock(campaign: Path, home: Path) -> subprocess.Popen[str]:
    """Another process holding the campaign open, as the window does."""
    code = (
        "import sys, time\n"
        "from mneme_desktop.paths import AppPaths\n"
        "from mneme_desktop.storage import CampaignLock\n"
        f"lock = CampaignLock({str(campaign)!r}, AppPaths.default().lock_dir)\n"
        "AppPaths.default().lock_dir.mkdir(parents=True, exist_ok=True)\n"
        "lock.acquire()\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], env=_cli_env(home),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_import_refuses_a_campaign_open_in_the_app_unless_forced(tmp_path, campaign):
    home = tmp_path / "home"
    holder = _hold_lock(campaign, home)
    try:
        original = campaign.read_bytes()
        result = run_app("import", str(FIXTURES / "ce_char_2.json"), "--into", str(campaign),
                         home=home)
        assert result.returncode == 2
        assert f"process {holder.pid}" in result.stderr and "--force" in result.stderr
        assert campaign.read_bytes() == original
        forced = run_app("import", str(FIXTURES / "ce_char_2.json"), "--into", str(campaign),
                         "--force", home=home)
        assert forced.returncode == 0, forced.stderr
        assert len(load_campaign(campaign).characters) == len(
            build_sample_campaign().characters) + 1
    finally:
        holder.communicate("", timeout=30)


def test_smoke_test_says_why_a_bad_file_did_not_open(tmp_path):
    bad = tmp_path / "bad.mneme"
    bad.write_text("{", encoding="utf-8")
    result = run_app("--smoke-test", str(bad), home=tmp_path / "home")
    assert result.returncode == 1
    assert "bad.mneme" in result.stderr and "not valid JSON" in result.stderr


def test_smoke_test_says_who_holds_a_locked_file(tmp_path, campaign):
    home = tmp_path / "home"
    holder = _hold_lock(campaign, home)
    try:
        result = run_app("--smoke-test", str(campaign), home=home)
    finally:
        holder.communicate("", timeout=30)
    assert result.returncode == 1
    assert f"process {holder.pid}" in result.stderr


def test_check_command_reports_a_good_and_a_bad_file(tmp_path, campaign):
    home = tmp_path / "home"
    good = run_app("check", str(campaign), home=home)
    assert good.returncode == 0, good.stderr
    assert good.stdout.startswith("OK:") and "characters" in good.stdout
    bad = tmp_path / "bad.mneme"
    bad.write_text('{"format": "mneme-campaign", "schema_version": 1, "name": ""}',
                   encoding="utf-8")
    result = run_app("check", str(bad), home=home)
    assert result.returncode == 2
    assert "name: must not be empty" in result.stdout and "Traceback" not in result.stderr
    missing = run_app("check", str(tmp_path / "nope.mneme"), home=home)
    assert missing.returncode == 2 and "no such file" in missing.stdout


def test_a_lone_surrogate_in_a_log_message_is_escaped_not_a_traceback(tmp_path, capsys):
    import logging

    from mneme_desktop.logs import setup_logging
    from mneme_desktop.paths import AppPaths

    paths = AppPaths.under(tmp_path / "app").ensure()
    setup_logging(paths)
    logging.getLogger("mneme_desktop.test").warning("name %s", "bad \udc80 text")
    for handler in logging.getLogger("mneme_desktop").handlers:
        handler.flush()
    assert "Traceback" not in capsys.readouterr().err
    assert "bad \\udc80 text" in paths.log_file.read_text(encoding="utf-8")
