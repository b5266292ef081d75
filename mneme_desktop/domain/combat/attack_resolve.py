"""Rolling an attack: its exact odds, the roll (in the app or from the table), and
resolution into damage rolls against the targets and harm against the attacker.

Pure: nothing here touches the campaign; :mod:`.attack_apply` writes the outcome.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from mneme_desktop.domain.combat.attack_spec import AttackMode, AttackSpec, AttackTarget
from mneme_desktop.domain.combat.attack_things import ignored_text
from mneme_desktop.domain.combat.common import CombatError
from mneme_desktop.rules.checks import (
    CheckResult,
    check_from,
    costly_success,
    effect_distribution,
    reckless_effect,
    success_chance,
)
from mneme_desktop.rules.damage import (
    DamageResult,
    Mitigation,
    apply_armor,
    damage_rolls,
    expected_damage,
    expected_kept_damage,
    fail_damage_rolls,
    mitigate,
    roll_damage,
    scale_immune,
)
from mneme_desktop.rules.dice import DiceExpression, DiceSource, parse_dice_source
from mneme_desktop.rules.hit_locations import HitLocation, RolledHitLocation, hit_location_from
from mneme_desktop.rules.wounds import (
    SurvivalRoll,
    TargetedEffect,
    is_massive_damage,
    roll_massive_damage,
    targeted_damage_effect,
)


@dataclass(frozen=True)
class AttackOdds:
    """Before rolling: exact chance the roll succeeds and the expected damage."""

    chance: Fraction
    expected_damage: Fraction
    """Expected damage to all targets, over every outcome (costly success included)."""
    expected_damage_if_hit: Fraction
    """Expected damage to all targets given the roll succeeds."""
    expected_harm: Fraction
    """Expected damage to the attacker from Fail Effects."""


@dataclass(frozen=True)
class TargetHit:
    target: AttackTarget
    rolled: int
    kept: int
    result: DamageResult | None
    immune: bool
    massive: SurvivalRoll | None = None
    massive_due: bool = False
    """More than HP from this attack with the dice typed at the table: the massive-damage
    roll is the table's too, made from the target's panel (the app does not roll it)."""
    random_location: RolledHitLocation | None = None
    """Where an attack that aimed at no location struck, rolled after the hit
    (:func:`locate_hits`); None: not rolled (or a targeted attack, whose location is the
    spec's)."""

    @property
    def total(self) -> int:
        return 0 if self.result is None else self.result.total

    @property
    def locatable(self) -> bool:
        """Damage was rolled against this target (not ignored for its scale) and it has a
        body to hit: a vehicle or object has no hit locations."""
        return not self.immune and self.result is not None and self.target.thing_id is None


@dataclass(frozen=True)
class Harm:
    """A Fail Effect turned into damage rolls against the attacker and their cover."""

    fail_effect: int
    mitigation: Mitigation
    cover: DamageResult | None
    attacker: DamageResult | None
    immune: bool = False
    massive: SurvivalRoll | None = None
    massive_due: bool = False
    """As :attr:`TargetHit.massive_due`, for the attacker."""

    @property
    def cover_total(self) -> int:
        return 0 if self.cover is None else sum(self.cover.rolls)

    @property
    def total(self) -> int:
        return 0 if self.attacker is None else self.attacker.total


@dataclass(frozen=True)
class AttackOutcome:
    spec: AttackSpec
    check: CheckResult
    hit: bool
    success_effect: int
    costly: bool
    hits: tuple[TargetHit, ...]
    harm: Harm | None
    notes: tuple[str, ...]

    def where(self, hit: TargetHit) -> tuple[HitLocation, str] | None:
        """Where ``hit`` landed and its name: the targeted location, or the random one
        rolled for it (the 1d6 names the primary or secondary foot or hand); None: nowhere
        in particular."""
        if self.spec.location is not None:
            return self.spec.location, self.spec.location.name
        if hit.random_location is not None:
            return hit.random_location.location, hit.random_location.name
        return None

    def location_effect(self, hit: TargetHit) -> TargetedEffect | None:
        """The Ch.7 targeted-damage effect of ``hit`` where it landed (crippled, stunned,
        bleeding), if its damage reaches the location's threshold."""
        where = self.where(hit)
        if where is None or not hit.total:
            return None
        return targeted_damage_effect(where[0].body_area, hit.total, hit.target.hp)

    @property
    def can_locate(self) -> bool:
        """A random hit location may be rolled: the attack hit someone and aimed at no
        location (a targeted attack paid its Difficulty for its own)."""
        return self.spec.location is None and any(h.locatable for h in self.hits)


def _success_effect(spec: AttackSpec, effect: int) -> tuple[bool, int, int]:
    return _effects(spec.mode, spec.reckless, spec.costly_success, effect)


def _effects(
    mode: AttackMode, reckless: bool, costly: bool, effect: int
) -> tuple[bool, int, int]:
    """(damage dealt?, success effect for damage rolls, fail effect against the attacker)
    for a signed roll Effect, with the reckless -3 and a costly success applied."""
    if mode is AttackMode.DEFEND:
        if effect >= 0:
            if reckless:
                return False, 0, reckless_effect(effect).fail_effect
            return False, 0, 0
        fail = -effect + (3 if reckless else 0)
        return False, 0, fail
    if effect >= 0:
        if reckless:
            outcome = reckless_effect(effect)
            return True, outcome.success_effect, outcome.fail_effect
        return True, effect, 0
    fail = reckless_effect(effect).fail_effect if reckless else -effect
    if costly:
        return True, 0, costly_success(fail)
    return False, 0, fail


def attack_odds(spec: AttackSpec) -> AttackOdds:
    """Exact chance of success and expected damage, from the rules core's distributions.

    Remembered by what the odds depend on (not by who is fighting), so a resolver that is
    refreshed after every step of a fight recomputes them only when the attack changes.
    """
    conditions, cover, skill = spec.defence.effective
    fire = spec.return_fire
    return _odds(
        spec.roll_modifier, spec.difficulty.total, spec.net_advantage, spec.mode,
        spec.reckless, spec.costly_success, spec.dice,
        tuple((t.rate_share, t.armor, scale_immune(t.scale, spec.dice.scale))
              for t in spec.targets),
        None if fire is None else (fire.dice, fire.rate_of_attack,
                                   scale_immune(spec.attacker_scale, fire.dice.scale)),
        (conditions, cover, skill), spec.attacker_armor,
    )


_TargetOdds = tuple[int, int, bool]


_FireOdds = tuple[DiceExpression, int | None, bool] | None


@functools.lru_cache(maxsize=256)
def _odds(
    modifier: int, difficulty: int, advantage: int, mode: AttackMode, reckless: bool,
    costly: bool, dice: DiceExpression, targets: tuple[_TargetOdds, ...], fire: _FireOdds,
    defence: tuple[int, int, int], attacker_armor: int,
) -> AttackOdds:
    chance = success_chance(modifier, difficulty, advantage)
    expected = Fraction(0)
    expected_hit = Fraction(0)
    harm = Fraction(0)

    def per_target(success_effect: int) -> Fraction:
        return sum((expected_damage(dice, success_effect, share, armor)
                    for share, armor, immune in targets if not immune), Fraction(0))

    for effect, probability in effect_distribution(modifier, difficulty, advantage).items():
        hit, success_effect, fail = _effects(mode, reckless, costly, effect)
        if hit:
            damage = per_target(success_effect)
            expected += probability * damage
            if effect >= 0:
                expected_hit += probability * damage
        if fail and fire is not None and not fire[2]:
            harm += probability * _expected_harm(fire[0], fire[1], defence, attacker_armor,
                                                 fail)
    if chance:
        expected_hit /= chance
    return AttackOdds(chance, expected, expected_hit, harm)


def _expected_harm(
    dice: DiceExpression, rate: int | None, defence: tuple[int, int, int], armor: int,
    fail: int,
) -> Fraction:
    remaining = mitigate(fail, *defence).remaining
    if not remaining:
        return Fraction(0)
    rolled, kept = fail_damage_rolls(remaining, rate)
    return expected_kept_damage(dice, rolled, kept, armor, remaining)


def _refuse(spec: AttackSpec) -> None:
    """An attack the attacker cannot afford is refused before any die is rolled."""
    if spec.refusal:
        raise CombatError(spec.refusal)


def attack_check(spec: AttackSpec, source: DiceSource) -> CheckResult:
    """The attack (or defend) roll, rolled in the app or from the dice a player rolled at
    the table (2, or 2 + |net advantage|); refused before any die if it cannot be afforded."""
    _refuse(spec)
    return check_from(source, spec.roll_modifier, spec.difficulty.total, spec.net_advantage)


def damage_from_values(
    values: Sequence[int], keep: int, armor: int = 0, effect: int = 0
) -> DamageResult:
    """Damage rolls rolled at the table: the same keep-the-best and per-roll armor as
    :func:`~mneme_desktop.rules.damage.roll_damage`."""
    raw = tuple(values)
    if not 0 <= keep <= len(raw):
        raise ValueError(f"cannot keep {keep} of {len(raw)} damage rolls")
    best = sorted(range(len(raw)), key=lambda i: (-raw[i], i))[:keep]
    kept = tuple(i in best for i in range(len(raw)))
    after = tuple(apply_armor(value, armor, effect) for value in raw)
    total = sum(value for value, k in zip(after, kept, strict=True) if k)
    return DamageResult(raw, kept, after, total)


def _damage(
    rng: random.Random, dice: DiceExpression, rolled: int, kept: int, armor: int, effect: int,
    typed: Sequence[int] | None, whom: str,
) -> DamageResult:
    if typed is None:
        return roll_damage(rng, dice, rolled, kept, armor, effect)
    if len(typed) != rolled:
        raise ValueError(f"{whom} needs {rolled} damage roll(s) of {dice}, got {len(typed)}")
    for value in typed:
        if not dice.minimum <= value <= dice.maximum:
            raise ValueError(f"{value} is not a roll of {dice} ({dice.minimum} to "
                             f"{dice.maximum})")
    return damage_from_values(typed, kept, armor, effect)


def resolve_attack(
    spec: AttackSpec,
    check: CheckResult,
    rng: random.Random,
    typed_damage: Sequence[Sequence[int]] | None = None,
    typed_return_fire: Sequence[int] | None = None,
) -> AttackOutcome:
    """Resolve a rolled attack.

    Success: 1 + Effect damage rolls against each target, the best of its share of the rate
    of attack kept, armor per roll, at least 1 per roll at Effect 6+, nothing against a
    target of a larger scale. Failure (or the price of a reckless or costly success): the
    Fail Effect is reduced by conditions, then cover (which takes those rolls itself), then
    skill; what remains is damage rolls of the opponents' weapon against the attacker, the
    best up to their rate of attack kept. More than HP from one attack calls for a massive
    damage roll: rolled here with app dice; with damage typed at the table it is the
    table's roll too, left due (``massive_due``) for the target's panel. Typed dice replace
    the app's damage rolls: one group per target, and for return fire the cover's rolls
    first.
    """
    _refuse(spec)
    if check.modifier != spec.roll_modifier or check.difficulty != spec.difficulty.total:
        raise ValueError("this roll was made for a different attack: roll again")
    hit, success_effect, fail = _success_effect(spec, check.effect)
    notes: list[str] = []
    costly = spec.costly_success and check.effect < 0 and hit
    if costly:
        notes.append(f"Costly success: fail effect {-check.effect} becomes {fail}")
    if spec.reckless and check.effect >= 0:
        notes.append(f"Reckless: Effect {check.effect} - 3 = {check.effect - 3}")
    hits: list[TargetHit] = []
    if hit:
        if typed_damage is not None and len(typed_damage) != len(spec.targets):
            raise ValueError(f"type one group of damage rolls per target ({len(spec.targets)}),"
                             " separated by ';'")
        for index, target in enumerate(spec.targets):
            rolled, kept = damage_rolls(success_effect, target.rate_share)
            if scale_immune(target.scale, spec.dice.scale):
                hits.append(TargetHit(target, rolled, kept, None, True))
                notes.append(ignored_text(target.name, target.scale, spec.dice.scale))
                continue
            typed = typed_damage[index] if typed_damage is not None else None
            result = _damage(rng, spec.dice, rolled, kept, target.armor, success_effect,
                             typed, target.name)
            massive = None
            # Massive damage is an END roll: a vehicle or object has none to make.
            due = target.thing_id is None and is_massive_damage(result.total, target.hp)
            if due and typed is None:
                massive = roll_massive_damage(rng, target.endurance,
                                              target.damage + result.total)
            hits.append(TargetHit(target, rolled, kept, result, False, massive,
                                  due and typed is not None))
    harm = _harm(spec, fail, rng, typed_return_fire) if fail else None
    return AttackOutcome(spec, check, hit, success_effect, costly, tuple(hits), harm,
                         tuple(notes))


def locate_hits(
    outcome: AttackOutcome, sources: DiceSource | Sequence[DiceSource]
) -> AttackOutcome:
    """Roll the random hit location (Ch.6, "Use 2d6 in the Targeted Attack Location table to
    determine random Hit Location when necessary") for each target the attack hit: 2d6 on
    the table, and 1d6 for the primary (1-3) or secondary (4-6) foot or hand.

    *Reading:* a random location is determined after the hit, not aimed at: it adds no
    Difficulty (the roll and its odds are those of the plain attack) and it is refused for
    a targeted attack, which chose its location and paid for it. One location per target
    per attack, as a targeted attack's location takes all of the target's damage rolls; the
    targeted-damage threshold is then met by the attack's total damage to that target.

    ``sources``: one app source rolls every target's location in turn; dice typed at the
    table come one source per target hit, in the order of the targets. Rolling again
    replaces the locations.
    """
    if outcome.spec.location is not None:
        raise CombatError(f"a targeted attack hits where it aimed ({outcome.spec.location.name}):"
                          " a random location is only for an attack that aimed at none")
    located = [index for index, hit in enumerate(outcome.hits) if hit.locatable]
    if not located:
        raise CombatError("no target took damage rolls: a hit location is rolled after a hit")
    given = [sources] if isinstance(sources, DiceSource) else list(sources)
    if len(given) == 1 and not given[0].at_table:
        given = given * len(located)
    if len(given) != len(located):
        raise ValueError(f"type one hit location per target hit ({len(located)}), separated "
                         "by ';': 2d6, then 1d6 for feet or hands (e.g. 3 4; 5 6 2)")
    hits = list(outcome.hits)
    for index, source in zip(located, given, strict=True):
        hits[index] = dataclasses.replace(hits[index],
                                          random_location=hit_location_from(source))
    return dataclasses.replace(outcome, hits=tuple(hits))


def location_sources(text: str, rng: random.Random | None) -> list[DiceSource]:
    """The referee's hit-location box read once: empty means the app rolls with ``rng``;
    otherwise one group of dice per target hit, separated by ';' ("3 4" or "34", and "5 6 2"
    or "562" with the 1d6 for feet and hands)."""
    if not text.strip():
        return [parse_dice_source(text, rng)]
    sources = []
    for group in text.split(";"):
        parts = [p for p in re.split(r"[\s,;+/]+", group.strip()) if p]
        one_run = len(parts) == 1 and len(parts[0]) in (2, 3)  # "562": a die per digit
        count = len(parts[0]) if one_run else len(parts)
        sources.append(parse_dice_source(group, None, count))
    return sources


def _harm(
    spec: AttackSpec, fail: int, rng: random.Random, typed: Sequence[int] | None
) -> Harm:
    conditions, cover, skill = spec.defence.effective
    mitigation = mitigate(fail, conditions, cover, skill)
    fire = spec.return_fire
    if fire is None:
        return Harm(fail, mitigation, None, None)
    needed = mitigation.by_cover + mitigation.remaining
    if typed is not None and len(typed) != needed:
        raise ValueError(f"return fire needs {needed} damage roll(s) of {fire.dice} "
                         f"({mitigation.by_cover} against the cover first), got {len(typed)}")
    cover_typed = typed[: mitigation.by_cover] if typed is not None else None
    own_typed = typed[mitigation.by_cover :] if typed is not None else None
    cover_result = None
    if mitigation.by_cover:
        cover_result = _damage(rng, fire.dice, mitigation.by_cover, mitigation.by_cover, 0, 0,
                               cover_typed, spec.defence.cover_name or "the cover")
    if scale_immune(spec.attacker_scale, fire.dice.scale):
        return Harm(fail, mitigation, cover_result, None, immune=True)
    attacker_result = None
    massive = None
    if mitigation.remaining:
        rolled, kept = fail_damage_rolls(mitigation.remaining, fire.rate_of_attack)
        attacker_result = _damage(rng, fire.dice, rolled, kept, spec.attacker_armor,
                                  mitigation.remaining, own_typed, spec.attacker_name)
        if is_massive_damage(attacker_result.total, spec.attacker_hp):
            if own_typed is not None:
                return Harm(fail, mitigation, cover_result, attacker_result, massive_due=True)
            massive = roll_massive_damage(rng, spec.attacker_endurance,
                                          spec.attacker_damage + attacker_result.total)
    return Harm(fail, mitigation, cover_result, attacker_result, massive=massive)
