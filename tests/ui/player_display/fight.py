"""A scripted fight at Cinder Ford for the player display's tests and its screenshot.

``python -m tests.ui.player_display.fight OUT.mneme`` writes the campaign with the fight
running (round 2), for ``mneme-desktop --screenshot docs/screenshots/player_display.png
--view player OUT.mneme``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from mneme_desktop.domain import Campaign, Characteristics, ConditionKind, Encounter
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat import AttackRequest, EncounterPatch
from mneme_desktop.domain.quick_check import roll_expression
from mneme_desktop.rules.dice import DiceSource
from mneme_desktop.storage import build_sample_campaign

RAIDER_HP = 87
"""Raider 1's HP (STR 30 + DEX 29 + END 28): a number nothing else on the display shows."""
RAIDER_DAMAGE = 14
RAIDER_LEFT = RAIDER_HP - RAIDER_DAMAGE  # 73
HIDDEN = "Raider Chief 1"
"""Not revealed: waits in the tollhouse."""
NOTE = "Referee note: the ford is mined"
COMBATANT_NOTE = "Secret: the gunner deserts at half HP"
SECRET_ROLL = "2d6+3"


def campaign_for_fight() -> Campaign:
    """The sample campaign with Raider 1 made big and notes the players must never see."""
    campaign = build_sample_campaign()
    ford = campaign.encounters[0]
    raider = _by_name(campaign, ford, "Raider 1")
    sheet = campaign.combatant_character(raider)
    sheet.characteristics = Characteristics.of(30, 29, 28, *sheet.characteristics.values()[3:6])
    gunner = _by_name(campaign, ford, "Raider Gunner 1")
    gunner.notes = COMBATANT_NOTE
    return campaign


def _by_name(campaign: Campaign, encounter: Encounter, name: str) -> fight.Combatant:
    return next(c for c in encounter.combatants
                if campaign.combatant_character(c).name == name)


Step = Callable[[Campaign, Encounter], EncounterPatch]


def _attack(attacker: str, target: str, effect: int) -> Step:
    def make(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
        request = AttackRequest(
            attacker_id=_by_name(campaign, encounter, attacker).id, weapon_index=0,
            targets=((_by_name(campaign, encounter, target).id, 1),))
        spec = fight.build_attack(campaign, encounter, request)
        wanted = effect + spec.difficulty.total - spec.roll_modifier
        dice = next((a, b) for a in range(1, 7) for b in range(1, 7) if a + b == wanted)
        check = fight.attack_check(spec, DiceSource.table(dice))
        outcome = fight.resolve_attack(spec, check, random.Random(5))
        return fight.attack_patch(campaign, encounter, outcome)
    return make


def _secret_roll(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    return roll_expression(campaign, SECRET_ROLL, random.Random(1), encounter_id=encounter.id,
                           who="Referee").patch


def fight_steps() -> Iterator[tuple[str, Step]]:
    """Each step of the fight, named; every one is one undoable step."""
    rng = random.Random(7)
    yield "hide the chief", lambda c, e: fight.set_revealed_patch(
        c, e, _by_name(c, e, HIDDEN).id, False)
    yield "start", fight.start_patch
    yield "Sef shoots Raider 1", _attack("Sef Adeyemi", "Raider 1", 2)
    yield "Raider 1 takes damage", lambda c, e: fight.set_damage_patch(
        c, e, _by_name(c, e, "Raider 1").id, RAIDER_DAMAGE)
    yield "next", lambda c, e: fight.next_turn_patch(c, e, rng)
    yield "Mara misses the gunner", _attack("Mara Vey", "Raider Gunner 1", -3)
    yield "Raider 2 bleeds", lambda c, e: fight.add_condition_patch(
        c, e, _by_name(c, e, "Raider 2").id, ConditionKind.BLEEDING)
    yield "Raider 2 is badly hurt", lambda c, e: fight.set_damage_patch(
        c, e, _by_name(c, e, "Raider 2").id, 9)
    yield "a note", lambda c, e: fight.note_patch(c, e, NOTE)
    yield "a secret roll", _secret_roll
    yield "next", lambda c, e: fight.next_turn_patch(c, e, rng)
    yield "the hidden chief attacks Mara", _attack(HIDDEN, "Mara Vey", 1)
    yield "Tomas shoots at the chief", _attack("Tomas Okoro", HIDDEN, 0)
    yield "next", lambda c, e: fight.next_turn_patch(c, e, rng)
    yield "next", lambda c, e: fight.next_turn_patch(c, e, rng)


def run_fight(campaign: Campaign) -> None:
    """The whole fight applied straight to ``campaign`` (no undo stack)."""
    for _name, step in fight_steps():
        encounter = campaign.encounters[0]
        step(campaign, encounter).apply(campaign)


def main(argv: list[str] | None = None) -> int:
    from mneme_desktop.storage import save_campaign

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tests.ui.player_display.fight OUT.mneme", file=sys.stderr)
        return 2
    campaign = campaign_for_fight()
    run_fight(campaign)
    save_campaign(campaign, Path(args[0]), backups=0)
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
