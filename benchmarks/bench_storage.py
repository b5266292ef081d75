"""Campaign load/save speed against plain ``json`` on the same file.

Run: ``python3 benchmarks/bench_storage.py [--characters N] [--repeat R]``

A generated campaign of 1,000 characters (20 skills, 10 items and 20 log entries each) is
loaded and saved, and each time is compared with ``json.loads`` / ``json.dumps`` of the
same document measured in the same run. The goal is within 3x of plain json. Best of R
runs is reported, so a busy machine inflates nothing but the spread.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
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
    campaign_from_json,
    campaign_to_json,
    load_campaign,
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
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    campaign = build_campaign(args.characters)
    data = campaign_to_json(campaign)
    document = json.loads(data)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.mneme"
        plain = Path(folder) / "plain.json"
        save_campaign(campaign, path)

        def plain_save() -> None:
            plain.write_text(json.dumps(document, indent=2, ensure_ascii=False), "utf-8")

        def loads_without_gc() -> object:
            gc.disable()
            try:
                return json.loads(data)
            finally:
                gc.enable()

        rows = [
            ("json.loads(bytes)", best_of(args.repeat, lambda: json.loads(data))),
            ("json.loads(bytes), gc paused", best_of(args.repeat, loads_without_gc)),
            ("campaign_from_json(bytes)", best_of(args.repeat, lambda: campaign_from_json(data))),
            ("json.loads(file read)", best_of(args.repeat, lambda: json.loads(path.read_bytes()))),
            ("load_campaign(path)", best_of(args.repeat, lambda: load_campaign(path))),
            ("json.dumps(indent=2)", best_of(
                args.repeat, lambda: json.dumps(document, indent=2, ensure_ascii=False))),
            ("campaign_to_json(campaign)",
             best_of(args.repeat, lambda: campaign_to_json(campaign))),
            ("json.dumps + write", best_of(args.repeat, plain_save)),
            ("save_campaign(path)", best_of(args.repeat, lambda: save_campaign(campaign, path))),
        ]
    times = dict(rows)
    size = len(data) / 1024 / 1024
    print(f"Campaign: {args.characters} characters, 20 skills, 10 items and 20 log entries "
          f"each; file {size:.1f} MiB; best of {args.repeat}")
    print(f"{'operation':<30} {'seconds':>9}")
    print("-" * 40)
    for name, seconds in rows:
        print(f"{name:<30} {seconds:>9.4f}")
    print("-" * 40)
    ratios = [
        ("load in memory / json.loads", times["campaign_from_json(bytes)"] / times[
            "json.loads(bytes)"]),
        ("load from file / json.loads", times["load_campaign(path)"] / times[
            "json.loads(file read)"]),
        ("load in memory / json, no gc", times["campaign_from_json(bytes)"] / times[
            "json.loads(bytes), gc paused"]),
        ("save in memory / json.dumps", times["campaign_to_json(campaign)"] / times[
            "json.dumps(indent=2)"]),
        ("save to file / json.dumps", times["save_campaign(path)"] / times[
            "json.dumps + write"]),
    ]
    for name, ratio in ratios:
        verdict = "ok" if ratio <= 3 else "OVER 3x"
        print(f"{name:<30} {ratio:>8.2f}x  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
