"""Aim beyond the Aim action (Ch.6): a ballistic correction after seeing where the shots
went (with tracer rounds, the stream of fire), and the referee's share of the aim kept when
the shooter moves it to another target in the same position and conditions.

A spotter calling out coordinates is a condition of the attack itself (the resolver's
"Spotter" term, :data:`~mneme_desktop.rules.aim.SPOTTER_CONDITION`), not aim kept here.
"""

from __future__ import annotations

from mneme_desktop.domain.attack_terms import aim_cap_text, aim_weapon
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.combat.attack_spec import AttackSpec
from mneme_desktop.domain.combat.common import CombatError, _combatant, _name
from mneme_desktop.domain.combat.edits import EncounterPatch, PatchBuilder
from mneme_desktop.domain.encounter import Combatant, Encounter, LastShot
from mneme_desktop.rules.aim import aim_after_target_change, corrected_aim
from mneme_desktop.rules.checks import TermKind

__all__ = [
    "correctable_shot",
    "correction_patch",
    "last_shot",
    "shift_aim_patch",
]


def last_shot(spec: AttackSpec, round_number: int) -> LastShot | None:
    """What a ballistic correction may keep of this attack: its one target (a combatant,
    not a thing) and the aim it used; None for an attack on several targets, which has no
    one target to keep aiming at, and for a melee attack, which is not a shot."""
    if spec.keeps_aim or len(spec.targets) != 1 or spec.targets[0].thing_id is not None:
        return None
    aim = -sum(term.value for term in spec.difficulty.terms if term.kind is TermKind.AIM)
    return LastShot(target_id=spec.targets[0].combatant_id, aim=max(0, aim), round=round_number)


def correctable_shot(encounter: Encounter, combatant: Combatant) -> LastShot | None:
    """The shot a correction can build on now: made this round or the last ("keep their Aim
    bonus from the last round"), at a target still in the fight."""
    shot = combatant.last_shot
    if shot is None or shot.round < encounter.round - 1:
        return None
    target = encounter.find_combatant(shot.target_id)
    if target is None or target.out_of_fight:
        return None
    return shot


def correction_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, *, tracers: bool = False,
    fully_automatic: bool = False, weapon_index: int | None = None,
) -> EncounterPatch:
    """Ch.6 Ballistic Correction: the shooter saw the effects of last round's shots, so
    keeps that aim on the same target and adds +1 (with tracer rounds +1, or +3 on fully
    automatic fire; :func:`~mneme_desktop.rules.aim.corrected_aim`), within the cap of the
    weapon chosen for the next attack. Aim built on that target since is kept too. It costs
    no action: it comes of continuing to shoot."""
    combatant = _combatant(encounter, combatant_id)
    name = _name(campaign, combatant)
    shot = correctable_shot(encounter, combatant)
    if shot is None:
        raise CombatError(f"{name} has no shot at one target this round or the last to "
                          "correct from")
    try:
        weapon = aim_weapon(campaign.combatant_character(combatant), weapon_index)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    since = combatant.aim if combatant.aim_target_id == shot.target_id else 0
    base = shot.aim + since
    modifier = weapon.aim_modifier if weapon is not None else 0
    new = corrected_aim(base, modifier, tracers, fully_automatic)
    target = _combatant(encounter, shot.target_id)
    target_name = _name(campaign, target)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "aim", new)
    builder.set(combatant, "aim_target_id", target.id)
    builder.set(combatant, "last_shot", None)
    seen = ("the tracer stream (fully automatic)" if tracers and fully_automatic
            else "the tracers" if tracers else "where the shots went")
    lost = ""
    if combatant.aim and combatant.aim_target_id not in (None, target.id):
        lost = f"; aim of +{combatant.aim} on another target given up"
    builder.log(actor_id=combatant.id, actor=name, action="Ballistic correction",
                target_id=target.id, target=target_name,
                text=f"{name} sees {seen}: aim +{base} kept on {target_name}, now +{new} "
                f"(Ch.6 ballistic correction, {aim_cap_text(weapon)}){lost}")
    return builder.build(f"{name}: ballistic correction, aim +{new}")


def shift_aim_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, target_id: str, kept: int,
) -> EncounterPatch:
    """Ch.6 Changing Targets: the new target is in the same position and conditions as the
    old, and the referee decides how much of the aim is preserved (``kept``, 0 to all of
    it; :func:`~mneme_desktop.rules.aim.aim_after_target_change`). A target elsewhere loses
    the aim, as the Aim action already does."""
    combatant = _combatant(encounter, combatant_id)
    name = _name(campaign, combatant)
    target = _combatant(encounter, target_id)
    if target.id == combatant.id:
        raise CombatError("a combatant cannot aim at themselves")
    if not combatant.aim or combatant.aim_target_id is None:
        raise CombatError(f"{name} has no aim to move")
    if target.id == combatant.aim_target_id:
        raise CombatError(f"{name} already aims at {_name(campaign, target)}")
    if not 0 <= kept <= combatant.aim:
        raise CombatError(f"the share kept runs from 0 to the aim, +{combatant.aim}")
    new = aim_after_target_change(combatant.aim, True, kept)
    old = encounter.find_combatant(combatant.aim_target_id)
    old_name = _name(campaign, old) if old is not None else "the old target"
    target_name = _name(campaign, target)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "aim", new)
    builder.set(combatant, "aim_target_id", target.id if new else None)
    builder.log(actor_id=combatant.id, actor=name, action="Aim moved",
                target_id=target.id, target=target_name,
                text=f"{name} moves the aim from {old_name} to {target_name} in the same "
                f"position and conditions: +{new} of +{combatant.aim} kept (the referee's "
                "share, Ch.6 changing targets)")
    return builder.build(f"{name}: aim moved to {target_name}, +{new}")
