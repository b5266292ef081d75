"""Crash at any moment: a process running the app's save path in a loop is killed with SIGKILL
200 times at random moments. After every kill the campaign opens, as exactly the old or the
new version, and every backup beside it opens too.

The saver calls ``save_campaign(..., backups=N)`` exactly as ``CampaignSession.save_to``
does. A helper imports the app once and forks a fresh saver per kill (a fork, not an
interpreter start, per kill), so 200 kills take seconds.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mneme_desktop.domain import Campaign, Character, Characteristics, Skill
from mneme_desktop.settings import Settings
from mneme_desktop.storage import (
    backup_paths,
    build_sample_campaign,
    campaign_to_json,
    load_campaign,
    save_campaign,
)

KILLS = 200
REPO = Path(__file__).resolve().parents[2]
BACKUPS = Settings().backup_count

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL"
)

_HELPER = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from mneme_desktop.storage import campaign_from_json, save_campaign

    target, backups = Path(sys.argv[1]), int(sys.argv[2])
    versions = [campaign_from_json(Path(p).read_bytes()) for p in sys.argv[3:5]]
    print("ready", flush=True)
    for line in sys.stdin:
        command, _, first = line.partition(" ")
        if command != "fork":
            break
        pid = os.fork()
        if pid == 0:
            try:
                n = int(first)
                while True:
                    save_campaign(versions[n % 2], target, backups=backups)
                    n += 1
            finally:
                os._exit(0)
        print(pid, flush=True)
        sys.stdin.readline()  # "reap", once the test has killed the saver
        os.waitpid(pid, 0)
        print("reaped", flush=True)
    """
)


def _version(note: str) -> Campaign:
    """The sample plus 300 militia: about 0.8 MiB, so one save spans many writes."""
    campaign = build_sample_campaign()
    militia = [
        Character(
            id=f"militia-{n}",
            name=f"Militia {n}",
            characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
            skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=1)] * 5,
            notes=note * 20,
        )
        for n in range(300)
    ]
    return campaign.model_copy(update={"characters": [*campaign.characters, *militia]})


def _wait_for_a_completed_save(target: Path, inode: int) -> None:
    """Let the saver finish at least one save (os.replace gives the file a new inode)."""
    deadline = time.monotonic() + 30
    while target.stat().st_ino == inode and time.monotonic() < deadline:
        time.sleep(0.001)


@pytest.mark.slow
def test_200_sigkills_during_save_leave_a_loadable_file_and_loadable_backups(
    tmp_path: Path,
) -> None:
    assert BACKUPS >= 1, "the default settings keep backups; this test checks them"
    old, new = _version("old version. "), _version("NEW VERSION! ")
    old_bytes, new_bytes = campaign_to_json(old), campaign_to_json(new)
    assert old_bytes != new_bytes
    (tmp_path / "old.json").write_bytes(old_bytes)
    (tmp_path / "new.json").write_bytes(new_bytes)
    folder = tmp_path / "campaigns"
    folder.mkdir()
    target = folder / "war.mneme"
    started = time.perf_counter()
    save_campaign(old, target, backups=BACKUPS)
    # Kill moments spread over a few saves' time, measured here, so every phase of a save
    # (temp write, fsync, backup rotation, rename) is hit on a fast or a slow machine.
    one_save = max(0.01, time.perf_counter() - started)

    script = tmp_path / "saver.py"
    script.write_text(_HELPER, encoding="utf-8")
    helper = subprocess.Popen(
        [sys.executable, str(script), str(target), str(BACKUPS), str(tmp_path / "old.json"),
         str(tmp_path / "new.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert helper.stdin is not None and helper.stdout is not None
    rng = random.Random(20261209)
    temps_seen = 0
    versions_seen: set[bool] = set()
    most_backups = 0
    try:
        assert helper.stdout.readline().strip() == "ready"
        for kill in range(KILLS):
            inode = target.stat().st_ino
            # The saver starts with the version the file does not hold, so any save it
            # completes changes the file.
            helper.stdin.write(f"fork {0 if target.read_bytes() == new_bytes else 1}\n")
            helper.stdin.flush()
            saver = int(helper.stdout.readline())
            if kill % 10 == 9:
                _wait_for_a_completed_save(target, inode)
            time.sleep(rng.uniform(0.0, 2 * one_save))
            os.kill(saver, signal.SIGKILL)
            helper.stdin.write("reap\n")
            helper.stdin.flush()
            assert helper.stdout.readline().strip() == "reaped"

            data = target.read_bytes()
            assert data in (old_bytes, new_bytes), f"kill {kill}: the file is neither version"
            versions_seen.add(data == new_bytes)
            # Counted before opening: opening the campaign cleans what killed saves left.
            temps_seen += sum(1 for p in folder.iterdir() if p.name.endswith(".tmp"))
            assert load_campaign(target).name == old.name
            assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")], (
                f"kill {kill}: opening left a dead saver's temp file")
            backups = backup_paths(target)
            assert len(backups) <= BACKUPS
            most_backups = max(most_backups, len(backups))
            for backup in backups:
                assert backup.read_bytes() in (old_bytes, new_bytes), f"kill {kill}: {backup}"
                assert load_campaign(backup).name == old.name
    finally:
        helper.stdin.close()
        helper.wait(timeout=30)
    # The kills really landed mid-save (half-written temp files were seen), both versions
    # were on disk at some point, and the backups filled up: the dangerous windows were hit.
    assert temps_seen > 0, "no kill landed mid-save"
    assert versions_seen == {True, False}, f"only saw new={versions_seen}"
    assert most_backups == BACKUPS
