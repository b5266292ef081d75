"""Encounter screen speed with a 200-combatant fight: Next turn and applying damage.

Run: ``QT_QPA_PLATFORM=offscreen python3 benchmarks/bench_encounter.py [--combatants N]
[--repeat R]``

Each step is timed from the referee's action to the screen being up to date:

* *step + events*: the undoable step, the models' row diffs, and the paint of the rows
  that changed (``processEvents`` delivers the queued updates);
* *+ full repaint*: the same followed by a synchronous ``view.repaint()`` of the whole
  screen, the worst case (nothing cached on screen).

Measured: Next turn within a round, Next turn that starts a new round (every combatant's
actions come back, the clock moves, bleeding and dying tick; once with nobody having
acted, once after everyone spent one to three minor actions, so every row's Actions
cell changes), applying a resolved attack
to two targets (one undo step), and a damage drag on the HP bar. The goal is under 16 ms
each. Median and worst of R runs are reported.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import (
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Encounter,
    Side,
    Skill,
    Weapon,
)
from mneme_desktop.domain import combat as fight
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.views.encounter_view import EncounterView

GOAL_MS = 16.0


def build(combatants: int) -> tuple[CampaignDocument, Encounter]:
    pcs = [
        Character(name=f"PC {n}", characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
                  skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=2)],
                  weapons=[Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=4,
                                  skill="Gun Combat (Slug Rifle)")],
                  armor=[Armor(name="Jack", rating=3)])
        for n in range(4)
    ]
    raider = AdversaryTemplate(stats=Character(
        name="Raider", kind=CharacterKind.ADVERSARY,
        characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
        skills=[Skill(name="Melee Combat", specialty="Slashing", level=1)],
        weapons=[Weapon(name="Broadsword", damage="3d3-2",
                        skill="Melee Combat (Slashing)")],
        armor=[Armor(name="Flak Jacket", rating=4)],
    ))
    campaign = Campaign(name="Benchmark", characters=pcs, adversary_library=[raider],
                        encounters=[Encounter(name="The big fight")])
    document = CampaignDocument(campaign)
    encounter = campaign.encounters[0]
    rng = random.Random(1)
    for make in (
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in pcs], Side.PLAYERS),
        lambda c, e: fight.add_adversaries_patch(c, e, raider, combatants - len(pcs)),
        lambda c, e: fight.roll_initiative_patch(c, e, rng),
        fight.start_patch,
    ):
        push_patch(document, make(campaign, encounter))
    return document, encounter


def timed(app: QApplication, view: EncounterView, step: Callable[[], object],
          full_repaint: bool) -> tuple[float, float]:
    """(wall, CPU) milliseconds for ``step`` until the screen is up to date."""
    app.processEvents()
    start, cpu = time.perf_counter(), time.process_time()
    step()
    app.processEvents()
    if full_repaint:
        view.repaint()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def report(name: str, samples: list[tuple[float, float]]) -> None:
    wall = [w for w, _ in samples]
    cpu = [c for _, c in samples]
    median = statistics.median(wall)
    verdict = "ok" if median < GOAL_MS else "OVER"
    print(f"  {name:<44} median {median:6.2f} ms  worst {max(wall):6.2f} ms  "
          f"(CPU median {statistics.median(cpu):6.2f} ms)  {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combatants", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: wall times "
          "include waiting for the CPU, CPU times do not")
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    document, encounter = build(args.combatants)
    view = EncounterView(document, rng=random.Random(7))
    view.resize(1280, 800)
    view.show()
    view.set_encounter(encounter.id)
    app.processEvents()
    view.repaint()
    campaign = document.campaign
    order = encounter.initiative_order()
    shooter = next(c for c in order if c.side is Side.PLAYERS)
    targets = [c for c in order if c.side is Side.ENEMIES][:2]
    resolver = view.resolver
    resolver.spend_check.setChecked(False)
    resolver.set_attacker(shooter.id)
    resolver.set_targets([t.id for t in targets])
    print(f"{len(encounter.combatants)} combatants, goal {GOAL_MS:.0f} ms per step")

    for full in (False, True):
        label = "+ full repaint" if full else "step + events"
        print(f"{label}:")
        within, boundary, acted, attack, drag = [], [], [], [], []
        for _ in range(args.repeat):
            if encounter.turn_index + 1 >= len(order):
                view.next_turn()  # keep the within-round samples within a round
            within.append(timed(app, view, view.next_turn, full))
        for _ in range(max(3, args.repeat // 5)):
            view.run(_last_turn_patch)
            boundary.append(timed(app, view, view.next_turn, full))
        for _ in range(max(3, args.repeat // 5)):
            view.run(_everyone_acted_patch)
            acted.append(timed(app, view, view.next_turn, full))
        view.tabs.setCurrentIndex(1)  # the resolver is on screen when a referee applies
        for _ in range(args.repeat):
            resolver.set_attacker(shooter.id)  # a fresh form for each attack
            resolver.spend_check.setChecked(False)  # the same shooter, many times a round
            resolver.set_targets([t.id for t in targets])
            if resolver.roll() is None:
                raise SystemExit(resolver.problem_label.message())
            attack.append(timed(app, view, resolver.apply, full))
        view.tabs.setCurrentIndex(0)
        view.select_combatant(targets[0].id)
        bar = view.panel.hp_bar
        for n in range(args.repeat):
            damage = campaign.combatant_character(targets[0]).damage
            value = damage + (1 if n % 2 == 0 else -1)
            drag.append(timed(app, view, lambda v=value, b=bar: b.damage_requested.emit(v, True),
                              full))
        report("Next turn (within a round)", within)
        report("Next turn (new round: resets, clock, ticks)", boundary)
        report("Next turn (new round after everyone acted)", acted)
        report("Apply an attack to two targets", attack)
        report("Damage drag on the HP bar", drag)
    return 0


def _last_turn_patch(campaign: Campaign, encounter: Encounter) -> fight.EncounterPatch:
    """Move the turn to the last combatant (set-up for timing a round boundary)."""
    builder = fight.PatchBuilder(campaign, encounter)
    builder.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    return builder.build("Benchmark: last turn")


def _everyone_acted_patch(campaign: Campaign, encounter: Encounter) -> fight.EncounterPatch:
    """The turn at the last combatant, everyone having spent one to three minor actions
    (set-up for timing the round boundary of a fight in full swing)."""
    builder = fight.PatchBuilder(campaign, encounter)
    builder.set_encounter("turn_index", len(encounter.initiative_order()) - 1)
    for number, combatant in enumerate(encounter.combatants):
        builder.set(combatant, "actions_spent", 1 + number % 3)
    return builder.build("Benchmark: last turn, everyone acted")


if __name__ == "__main__":
    sys.exit(main())
