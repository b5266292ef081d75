"""How the encounter and healing screens scale with the size of a campaign.

Run: ``QT_QPA_PLATFORM=offscreen python3 benchmarks/bench_scaling.py [--sizes 20 200 1000
2000] [--patients 20 200 1000] [--repeat R] [--only encounter|healing]``

Measured, each from the referee's action to the screen being up to date (the step, the
models' row diffs and ``processEvents``, as in :mod:`bench_encounter`):

* *new round*: Next turn at the end of a round over N combatants that fight with campaign
  characters (four PCs and N-4 NPCs, all by reference: every row looks its sheet up);
* *apply damage*: a resolved attack applied to two targets (one undo step);
* *healing planner open*: the Healing view built and shown for N injured characters with
  two 365-day plans (as ``run_all.healing`` does for 20), projected and painted.

For each row the fitted order is the slope of log(time) against log(N) (least squares):
about 1 for linear work, 2 for quadratic; fixed costs pull it under 1 at small N, so the
slope between the two largest N is shown too. Medians of R runs (CPU time beside wall time:
wall time includes waiting for a busy CPU).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_encounter import _last_turn_patch
from PySide6.QtWidgets import QApplication

from mneme_desktop.domain import (
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

Sample = tuple[float, float]  # (wall ms, CPU ms)


def _app() -> QApplication:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    return app


def _timed(step: Callable[[], object], settle: Callable[[], object]) -> Sample:
    settle()
    start, cpu = time.perf_counter(), time.process_time()
    step()
    settle()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def _median(samples: list[Sample]) -> Sample:
    return (statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples))


def fitted_order(sizes: list[int], millis: list[float]) -> float:
    """The slope of log(time) against log(N), least squares."""
    xs = [math.log(n) for n in sizes]
    ys = [math.log(max(t, 1e-6)) for t in millis]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


# --- the encounter ---------------------------------------------------------------------


def build_fight(combatants: int) -> tuple[CampaignDocument, Encounter]:
    """A fight of ``combatants`` campaign characters: four PCs against N-4 NPCs."""
    def person(name: str, kind: CharacterKind) -> Character:
        return Character(
            name=name, kind=kind, characteristics=Characteristics.of(8, 9, 8, 7, 8, 6),
            skills=[Skill(name="Gun Combat", specialty="Slug Rifle", level=2)],
            weapons=[Weapon(name="Automatic Rifle", damage="3d6-2", rate_of_attack=4,
                            skill="Gun Combat (Slug Rifle)")],
            armor=[Armor(name="Jack", rating=3)])

    pcs = [person(f"PC {n}", CharacterKind.PLAYER) for n in range(4)]
    npcs = [person(f"NPC {n}", CharacterKind.NPC) for n in range(combatants - 4)]
    campaign = Campaign(name="Scaling", characters=[*pcs, *npcs],
                        encounters=[Encounter(name="The big fight")])
    document = CampaignDocument(campaign)
    encounter = campaign.encounters[0]
    rng = random.Random(1)
    for make in (
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in pcs], Side.PLAYERS),
        lambda c, e: fight.add_characters_patch(c, e, [p.id for p in npcs], Side.ENEMIES),
        lambda c, e: fight.roll_initiative_patch(c, e, rng),
        fight.start_patch,
    ):
        push_patch(document, make(campaign, encounter))
    return document, encounter


def measure_fight(combatants: int, repeat: int) -> tuple[Sample, Sample]:
    from mneme_desktop.ui.views.encounter_view import EncounterView

    app = _app()
    document, encounter = build_fight(combatants)
    view = EncounterView(document, rng=random.Random(7))
    view.resize(1280, 800)
    view.show()
    view.set_encounter(encounter.id)
    app.processEvents()
    view.repaint()
    order = encounter.initiative_order()
    shooter = next(c for c in order if c.side is Side.PLAYERS)
    targets = [c for c in order if c.side is Side.ENEMIES][:2]
    rounds: list[Sample] = []
    for _ in range(repeat):
        view.run(_last_turn_patch)
        rounds.append(_timed(view.next_turn, app.processEvents))
    resolver = view.resolver
    view.tabs.setCurrentIndex(1)
    attacks: list[Sample] = []
    for _ in range(repeat):
        resolver.set_attacker(shooter.id)
        resolver.spend_check.setChecked(False)
        resolver.set_targets([t.id for t in targets])
        if resolver.roll() is None:
            raise SystemExit(resolver.problem_label.message())
        attacks.append(_timed(resolver.apply, app.processEvents))
    view.close()
    view.deleteLater()
    app.processEvents()
    return _median(rounds), _median(attacks)


# --- the healing planner ---------------------------------------------------------------


def planner_opener(patients: int) -> Callable[[], None]:
    """Opening the planner on ``patients`` injured (damage 3 to 22) with two 365-day plans,
    projected and painted; run_all.py times the same step for its 20-patient row."""
    from mneme_desktop.domain.healing.plan import HealingPlan
    from mneme_desktop.rules.healing import Activity
    from mneme_desktop.storage import build_sample_campaign
    from mneme_desktop.ui.views.healing_view import HealingView

    app = _app()
    campaign = build_sample_campaign()
    template = campaign.characters[0]
    injured = []
    for number in range(patients):
        copy = template.model_copy(deep=True, update={"name": f"Patient {number + 1}"})
        copy.id = f"patient-{number}"
        copy.damage = 3 + number % 20
        injured.append(campaign.add_character(copy).id)
    document = CampaignDocument(campaign)
    year = (HealingPlan.single(Activity.FULL_REST, True, 365, "A year of rest"),
            HealingPlan.single(Activity.LIGHT, False, 365, "A year of light work"))

    def open_planner() -> None:
        view = HealingView(document)
        view.resize(1280, 820)
        view.plan_a.model.set_plan(year[0])
        view.plan_b.model.set_plan(year[1])
        view.set_characters(injured)
        view.show()
        app.processEvents()
        view.repaint()
        if view.projection(injured[0]) is None:
            raise RuntimeError("no projection for the first patient")
        view.close()
        view.deleteLater()
        app.processEvents()

    return open_planner


def measure_planner(patients: int, repeat: int) -> Sample:
    open_planner = planner_opener(patients)
    open_planner()  # warm-up
    return _median([_timed(open_planner, _app().processEvents) for _ in range(repeat)])


# --- storage and print -----------------------------------------------------------------


def measure_storage(characters: int, repeat: int) -> tuple[Sample, Sample]:
    """(load, save after an edit) of a campaign of ``characters``, as the app does them."""
    import tempfile

    from bench_storage import build_campaign

    from mneme_desktop.storage import KnownContents, load_campaign_file, save_campaign

    campaign = build_campaign(characters)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scale.mneme"
        known = KnownContents(Path(folder) / "known.json")
        save_campaign(campaign, path, known=known)
        del campaign
        opened = load_campaign_file(path, known=known)
        loads = [_timed(lambda: load_campaign_file(path, known=known), lambda: None)
                 for _ in range(repeat)]
        counter = iter(range(10**9))
        people = opened.campaign.characters

        def save() -> None:
            people[next(counter) % len(people)].notes += "."
            save_campaign(opened.campaign, path, verified=opened.verified, known=known)

        saves = [_timed(save, lambda: None) for _ in range(repeat)]
    return _median(loads), _median(saves)


def measure_sheets(sheets: int, repeat: int) -> Sample:
    """All player characters of a campaign of ``sheets`` of them to one PDF."""
    from bench_export import _batch_campaign

    from mneme_desktop.export.build import build_document
    from mneme_desktop.export.document import ExportOptions, ExportTarget
    from mneme_desktop.export.pdf import pdf_bytes
    from mneme_desktop.settings import PageSize

    _app()
    campaign = _batch_campaign(sheets)
    options = ExportOptions(page_size=PageSize.A4, show_damage=True)
    everyone = ExportTarget.player_characters()
    job = lambda: pdf_bytes(build_document(campaign, everyone, options), options.page_size)  # noqa: E731
    job()  # fonts
    return _median([_timed(job, lambda: None) for _ in range(repeat)])


# --- the table -------------------------------------------------------------------------


def _table(title: str, sizes: list[int], rows: dict[str, list[Sample]]) -> None:
    print(f"\n{title}")
    head = "".join(f"{'N=' + str(n):>18}" for n in sizes)
    print(f"  {'step':<24}{head}   order, all N (wall / CPU)   order, last two N")
    for name, samples in rows.items():
        cells = "".join(f"{w:9.1f} ({c:6.1f})" for w, c in samples)
        wall = fitted_order(sizes, [w for w, _ in samples])
        cpu = fitted_order(sizes, [c for _, c in samples])
        end_wall = fitted_order(sizes[-2:], [w for w, _ in samples[-2:]])
        end_cpu = fitted_order(sizes[-2:], [c for _, c in samples[-2:]])
        print(f"  {name:<24}{cells}   {wall:4.2f} / {cpu:4.2f}"
              f"{'':16}{end_wall:4.2f} / {end_cpu:4.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 200, 1000, 2000])
    parser.add_argument("--patients", type=int, nargs="+", default=[20, 200, 1000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--characters", type=int, nargs="+", default=[10, 100, 1000, 10000])
    parser.add_argument("--sheets", type=int, nargs="+", default=[1, 100, 500])
    parser.add_argument("--only", choices=("encounter", "healing", "storage", "print"))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          "milliseconds, wall (CPU), median of each step")
    if args.only in (None, "storage"):
        loads, saves = [], []
        for n in args.characters:
            load, save = measure_storage(n, max(1, args.repeat // 2) if n >= 10000 else
                                         args.repeat)
            loads.append(load)
            saves.append(save)
            print(f"  {n} characters: load {load[0]:.1f} ms, save {save[0]:.1f} ms",
                  flush=True)
        _table("Campaign file (characters)", args.characters,
               {"load (a file it saved)": loads, "save after an edit": saves})
    if args.only in (None, "print"):
        prints = []
        for n in args.sheets:
            prints.append(measure_sheets(n, 1 if n >= 500 else max(1, args.repeat // 2)))
            print(f"  {n} sheets: PDF {prints[-1][0]:.1f} ms", flush=True)
        _table("Character sheets to one PDF (sheets)", args.sheets, {"PDF": prints})
    if args.only in (None, "encounter"):
        rounds, attacks = [], []
        for n in args.sizes:
            new_round, attack = measure_fight(n, args.repeat)
            rounds.append(new_round)
            attacks.append(attack)
            print(f"  {n} combatants: new round {new_round[0]:.1f} ms, "
                  f"apply damage {attack[0]:.1f} ms", flush=True)
        _table("Encounter (combatants)", args.sizes,
               {"new round": rounds, "apply damage (2 targets)": attacks})
    if args.only in (None, "healing"):
        opens = []
        for n in args.patients:
            opens.append(measure_planner(n, max(1, args.repeat // 2) if n >= 1000 else
                                         args.repeat))
            print(f"  {n} patients: planner open {opens[-1][0]:.1f} ms", flush=True)
        _table("Healing planner (patients, 2 plans x 365 days)", args.patients,
               {"planner open": opens})
    return 0


if __name__ == "__main__":
    sys.exit(main())
