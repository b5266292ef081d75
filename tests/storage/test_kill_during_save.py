"""A process saving in a loop is killed with SIGKILL at random moments: the campaign file
always loads, as exactly the old or the new version (and so do its backups).

A helper process imports the app once and forks a fresh saver for each kill, so the test
stays fast (each kill costs a fork, not an interpreter start) and the forking process is
single-threaded, whatever pytest or Qt are doing in this one.
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
from mneme_desktop.storage import (
    backup_paths,
    build_sample_campaign,
    campaign_to_json,
    load_campaign,
    save_campaign,
)
from tests.storage.conftest import REPO

KILLS = 120

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL"
)

_HELPER = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from mneme_desktop.storage import campaign_from_json, save_campaign

    target = Path(sys.argv[1])
    versions = [campaign_from_json(Path(p).read_bytes()) for p in sys.argv[2:4]]
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
                    save_campaign(versions[n % 2], target, backups=3)
                    n += 1
            finally:
                os._exit(0)
        print(pid, flush=True)
        sys.stdin.readline()  # the test says "reap" once it has killed the saver
        os.waitpid(pid, 0)
        print("reaped", flush=True)
    """
)


def _big(campaign: Campaign, extra: int, note: str) -> Campaign:
    """A campaign large enough that a save spans several writes (~1 MiB)."""
    people = [
        Character(
            id=f"extra-{n}",
            name=f"Militia {n}",
            characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
            skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=1)] * 5,
            notes=note * 20,
        )
        for n in range(extra)
    ]
    return campaign.model_copy(update={"characters": [*campaign.characters, *people]})


def _wait_for_a_completed_save(target: Path, before: int) -> None:
    """Let a saver finish at least one save (the file is a new inode after os.replace)."""
    deadline = time.monotonic() + 30
    while target.stat().st_ino == before and time.monotonic() < deadline:
        time.sleep(0.001)


def test_sigkill_during_save_never_leaves_a_broken_file(tmp_path: Path) -> None:
    old = _big(build_sample_campaign(), 400, "old version. ")
    new = _big(build_sample_campaign(), 400, "NEW VERSION! ")
    old_bytes, new_bytes = campaign_to_json(old), campaign_to_json(new)
    assert old_bytes != new_bytes
    (tmp_path / "old.json").write_bytes(old_bytes)
    (tmp_path / "new.json").write_bytes(new_bytes)
    folder = tmp_path / "campaigns"
    folder.mkdir()
    target = folder / "war.mneme"
    started = time.perf_counter()
    save_campaign(old, target, backups=3)
    # Kill times are spread over a few saves' worth of time, measured here so that the test
    # hits every phase of a save on a fast or a busy machine alike.
    one_save = max(0.01, time.perf_counter() - started)

    script = tmp_path / "saver.py"
    script.write_text(_HELPER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    helper = subprocess.Popen(
        [sys.executable, str(script), str(target), str(tmp_path / "old.json"),
         str(tmp_path / "new.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )
    assert helper.stdin is not None and helper.stdout is not None
    rng = random.Random(7)
    temps_seen = 0
    versions_seen = set()
    try:
        assert helper.stdout.readline().strip() == "ready"
        for kill in range(KILLS):
            before = target.stat().st_ino
            # Each saver starts with the version the file does not hold, so any save it
            # completes changes the file.
            helper.stdin.write(f"fork {0 if target.read_bytes() == new_bytes else 1}\n")
            helper.stdin.flush()
            saver = int(helper.stdout.readline())
            if kill % 10 == 9:
                _wait_for_a_completed_save(target, before)
            time.sleep(rng.uniform(0.0, 2 * one_save))
            os.kill(saver, signal.SIGKILL)
            helper.stdin.write("reap\n")
            helper.stdin.flush()
            assert helper.stdout.readline().strip() == "reaped"

            data = target.read_bytes()
            assert data in (old_bytes, new_bytes), "the campaign file is neither version"
            versions_seen.add(data == new_bytes)
            assert load_campaign(target).name == old.name
            for backup in backup_paths(target):
                assert backup.read_bytes() in (old_bytes, new_bytes), backup.name
            temps_seen += sum(1 for p in folder.iterdir() if p.name.endswith(".tmp"))
    finally:
        helper.stdin.close()
        helper.wait(timeout=30)
    # The kills really did land mid-save (temp files were caught half-written) and both
    # versions were on disk at some point, so the test exercised the dangerous window.
    assert temps_seen > 0, "no kill landed mid-save"
    assert versions_seen == {True, False}, f"only saw new={versions_seen}"
