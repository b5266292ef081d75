"""Campaign load/save speed against plain ``json`` on the same file, honestly.

Run: ``python3 benchmarks/bench_storage.py [--characters N] [--repeat R] [--gc-characters M]``

A generated campaign of 1,000 characters (20 skills, 10 items and 20 log entries each) is
loaded and saved, and each time is compared with plain ``json`` on the same document,
measured in the same run:

* load: ``json.loads`` of the same bytes (or of the same file, read), with the cyclic
  garbage collector paused during the parse exactly as our loader pauses it. Goal: 2x.
* save: the compact C encoder, ``json.dumps(document, separators=(",", ":"),
  ensure_ascii=False)``, encoded to UTF-8, written to a file and fsynced. Goal: 1.5x.

Best of R runs is reported, so a busy machine inflates nothing but the spread. A run's
result is released after its clock stops, so neither side is charged for freeing it.

Last, a campaign of M characters (10,000 by default) is loaded and the first full
collection of the garbage collector after it is timed: what the app pays the first time
the collector runs after opening a large campaign.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mneme_desktop.domain import (
    Armor,
    Campaign,
    Character,
    Characteristics,
    Combatant,
    CoverItem,
    Encounter,
    EncounterLogEntry,
    Side,
    Skill,
    Weapon,
)
from mneme_desktop.storage import (
    KnownContents,
    campaign_from_json,
    campaign_to_json,
    load_campaign,
    load_campaign_file,
    save_campaign,
)

SKILLS = ("Gun Combat", "Melee Combat", "Athletics", "Recon", "Medic", "Tactics", "Stealth",
          "Survival", "Pilot", "Computers")
DICE = ("3d6-2", "3d3-2", "2d6", "1d6+1", "3d6", "D 2d6")


def build_campaign(characters: int) -> Campaign:
    """Characters with 20 skills and 10 items; 20 log entries per character in encounters."""
    people = []
    for n in range(characters):
        people.append(
            Character(
                name=f"Character {n}",
                player=f"Player {n % 7}",
                characteristics=Characteristics.of(7, 8, 9, 10, 8, 7),
                skills=[
                    Skill(name=SKILLS[i % len(SKILLS)], specialty=f"Spec {i}", level=i % 4)
                    for i in range(20)
                ],
                weapons=[
                    Weapon(name=f"Weapon {i}", damage=DICE[(n + i) % len(DICE)],
                           rate_of_attack=1 + i, skill="Gun Combat (Slug Rifle)")
                    for i in range(4)
                ],
                armor=[Armor(name=f"Armor {i}", rating=3 + i) for i in range(3)],
                cover_items=[CoverItem(name=f"Shield {i}", protection=2, hp=12) for i in range(3)],
                damage=n % 9,
                notes="A line of notes about this character. " * 3,
            )
        )
    encounters = []
    per_encounter = 50
    for start in range(0, characters, per_encounter):
        group = people[start : start + per_encounter]
        combatants = [Combatant(character_id=c.id, side=Side.PLAYERS) for c in group]
        log = [
            EncounterLogEntry(
                round=1 + i % 5,
                actor_id=combatant.id,
                actor=person.name,
                action="Attack: Weapon 0",
                dice=[3, 5],
                modifier=2,
                difficulty=8,
                effect=2,
                damage=[4, 2, 5],
                state_changes=["Target: Wounded"],
                text="A burst across the yard.",
            )
            for combatant, person in zip(combatants, group, strict=True)
            for i in range(20)
        ]
        encounters.append(
            Encounter(name=f"Encounter {start // per_encounter}", combatants=combatants, log=log)
        )
    return Campaign(name="Benchmark", characters=people, encounters=encounters)


def best_of(repeat: int, action: Callable[[], object]) -> float:
    """Fastest of ``repeat`` runs; each result is freed after its clock stops."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
        del result
    return min(times)


def gc_paused(action: Callable[[], object]) -> Callable[[], object]:
    """``action`` with the cyclic garbage collector paused, as our loader pauses it."""

    def paused() -> object:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return action()
        finally:
            if was_enabled:
                gc.enable()

    return paused


def compact_json(document: object) -> bytes:
    """The C encoder's fast path: no indent, compact separators, UTF-8 as is."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write_and_fsync(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


@dataclass(frozen=True)
class Comparison:
    what: str
    ours_name: str
    ours: float
    baseline_name: str
    baseline: float
    goal: float | None

    @property
    def ratio(self) -> float:
        return self.ours / self.baseline


def compare(campaign: Campaign, repeat: int) -> tuple[bytes, list[Comparison]]:
    data = campaign_to_json(campaign)
    document = json.loads(data)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.mneme"
        plain = Path(folder) / "plain.json"
        known = KnownContents(Path(folder) / "known-contents.json")  # as the app keeps it
        save_campaign(campaign, path, known=known)
        plain.write_bytes(data)  # the very same bytes, for the load baseline
        opened = load_campaign_file(path, known=known)
        last_hash = [opened.content_hash]
        edits = iter(range(10**6))

        def our_save() -> None:
            """As the app saves after an edit: one sheet changed since the last save,
            checked against the hash the file was opened with."""
            opened.campaign.characters[next(edits) % len(campaign.characters)].notes += "."
            last_hash[0] = save_campaign(opened.campaign, path, expected_hash=last_hash[0],
                                         verified=opened.verified, known=known)

        def plain_save() -> None:
            write_and_fsync(plain, compact_json(document))

        loads_paused = gc_paused(lambda: json.loads(data))
        file_loads_paused = gc_paused(lambda: json.loads(plain.read_bytes()))
        rows = [
            Comparison("load in memory", "campaign_from_json(bytes)",
                       best_of(repeat, lambda: campaign_from_json(data)),
                       "json.loads(same bytes), gc paused", best_of(repeat, loads_paused), None),
            Comparison("load from file", "load_campaign_file(path, known), a file it saved",
                       best_of(repeat, lambda: load_campaign_file(path, known=known)),
                       "read same file + json.loads, gc paused",
                       best_of(repeat, file_loads_paused), 2),
            Comparison("load, new file", "load_campaign(same bytes), keys counted",
                       best_of(repeat, lambda: load_campaign(plain)),
                       "read same file + json.loads, gc paused",
                       best_of(repeat, file_loads_paused), None),
            Comparison("save in memory", "campaign_to_json(campaign)",
                       best_of(repeat, lambda: campaign_to_json(campaign)),
                       'json.dumps(separators=(",", ":"), ensure_ascii=False).encode()',
                       best_of(repeat, lambda: compact_json(document)), None),
            Comparison("save to file", "save_campaign after an edit, as the app, 5 backups",
                       best_of(repeat, our_save),
                       "compact json.dumps + encode + write + fsync",
                       best_of(repeat, plain_save), 1.5),
            Comparison("save, whole", "save_campaign, whole file validated",
                       best_of(repeat, lambda: save_campaign(campaign, path)),
                       "compact json.dumps + encode + write + fsync",
                       best_of(repeat, plain_save), None),
        ]
    return data, rows


def first_collection_after_load(characters: int) -> tuple[float, float, int]:
    """(load seconds, first full gc.collect() seconds after it, objects frozen by it)."""
    campaign = build_campaign(characters)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.mneme"
        save_campaign(campaign, path, backups=0)
        del campaign
        gc.collect()
        frozen_before = gc.get_freeze_count()
        started = time.perf_counter()
        loaded = load_campaign(path)
        load_seconds = time.perf_counter() - started
        started = time.perf_counter()
        gc.collect()
        collect_seconds = time.perf_counter() - started
        frozen = gc.get_freeze_count() - frozen_before
        del loaded
    return load_seconds, collect_seconds, frozen


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--gc-characters", type=int, default=10_000,
                        help="campaign size for the garbage-collector figure (0: skip it)")
    args = parser.parse_args(argv)

    campaign = build_campaign(args.characters)
    data, rows = compare(campaign, args.repeat)
    size = len(data) / 1024 / 1024
    print(f"Campaign: {args.characters} characters, 20 skills, 10 items and 20 log entries "
          f"each; file {size:.1f} MiB; best of {args.repeat}")
    print(f"{'measure':<16} {'ours':>10} {'baseline':>10} {'ratio':>7}  {'goal':<6} verdict")
    print("-" * 60)
    for row in rows:
        goal = "-" if row.goal is None else f"<= {row.goal:g}x"
        verdict = "-" if row.goal is None else ("ok" if row.ratio <= row.goal else "OVER")
        print(f"{row.what:<16} {_ms(row.ours):>10} {_ms(row.baseline):>10} "
              f"{row.ratio:>6.2f}x  {goal:<6} {verdict}")
        print(f"{'':<16} ours: {row.ours_name}; baseline: {row.baseline_name}")
    if args.gc_characters > 0:
        del campaign
        load, collect, frozen = first_collection_after_load(args.gc_characters)
        print("-" * 60)
        print(f"load_campaign of {args.gc_characters:,} characters: {_ms(load)}; first full "
              f"gc.collect() after it: {_ms(collect)} ({frozen:,} objects frozen by the load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
