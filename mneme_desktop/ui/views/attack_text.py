"""What the attack resolver says in words: the exact odds as a percentage and a fraction,
the roll to make, and the outcome before it is applied (plain pieces escaped into HTML)."""

from __future__ import annotations

from fractions import Fraction

from mneme_desktop.domain.combat import (
    AttackMode,
    AttackOdds,
    AttackOutcome,
    AttackSpec,
    TargetHit,
)
from mneme_desktop.domain.combat.attack_apply import MASSIVE_DUE
from mneme_desktop.domain.combat.attack_spec import MELEE_AIM_READING
from mneme_desktop.domain.quick_check import chance_text
from mneme_desktop.rules.damage import MINIMUM_DAMAGE_EFFECT, DamageResult, scale_immune
from mneme_desktop.rules.helpless import HELPLESS_RULE
from mneme_desktop.rules.hit_locations import BodyArea
from mneme_desktop.rules.wounds import (
    TargetedEffect,
    massive_damage_survival_chance,
    targeted_damage_divisor,
    targeted_damage_threshold,
)
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.widgets.plain_text import escaped

_CTX = "AttackText"

__all__ = ["format_percent", "helpless_text", "immunity_text", "location_html", "odds_parts",
           "outcome_html", "roll_text"]

_EFFECTS = {
    TargetedEffect.CRIPPLED: tr_noop(_CTX, "Crippled"),
    TargetedEffect.STUNNED: tr_noop(_CTX, "Stunned"),
    TargetedEffect.BLEEDING: tr_noop(_CTX, "Bleeding"),
}


def format_percent(chance: Fraction) -> str:
    """58.33% (7/12): the exact fraction beside a readable percentage."""
    if chance == 0:
        return tr(_CTX, "0% (cannot succeed)")
    if chance == 1:
        return tr(_CTX, "100% (cannot fail)")
    return f"{float(chance) * 100:.2f}% ({chance.numerator}/{chance.denominator})"


def roll_text(spec: AttackSpec) -> str:
    """The roll to make: the dice (more with advantage or disadvantage), the DM term by
    term, and the Difficulty."""
    terms = ", ".join(f"{t.label} {t.value:+d}" for t in spec.roll_terms)
    advantage = spec.net_advantage
    dice = "2d6"
    if advantage > 0:
        dice = tr(_CTX, "{0}d6 keep the 2 highest").format(2 + advantage)
    elif advantage < 0:
        dice = tr(_CTX, "{0}d6 keep the 2 lowest").format(2 - advantage)
    text = tr(_CTX, "Roll {0} {1:+d} ({2}) against {3}").format(
            dice, spec.roll_modifier, terms, spec.difficulty.total)
    kept_aim = [option for option in spec.options if MELEE_AIM_READING in option]
    return "; ".join([text, *kept_aim])


def helpless_text(spec: AttackSpec | None) -> str:
    """The helpless-target advantage term: who, why, and what it gives the roll ("" when
    no ticked target is helpless)."""
    if spec is None or not spec.helpless:
        return ""
    who = "; ".join(target.text for target in spec.helpless)
    if spec.helpless_advantage:
        return tr(_CTX, "Helpless target: +{0} advantage ({1}): {2}").format(
                spec.helpless_advantage, HELPLESS_RULE, who)
    if spec.mode is AttackMode.DEFEND:
        why = tr(_CTX, "not on a defend action")
    elif all(not target.state.helpless for target in spec.helpless):
        why = tr(_CTX, "they abort to defend")
    else:
        why = tr(_CTX, "one roll for every target, and not every target is helpless")
    return tr(_CTX, "Helpless target, no advantage ({0}): {1}").format(why, who)


def immunity_text(spec: AttackSpec | None) -> str:
    """Targets of a larger scale than the weapon, said before the roll with the rule's name:
    their damage rolls will be ignored ("" when every ticked target can be hurt)."""
    if spec is None or spec.mode is not AttackMode.ATTACK:
        return ""
    ignored = [t for t in spec.targets if scale_immune(t.scale, spec.dice.scale)]
    if not ignored:
        return ""
    names = ", ".join(t.name for t in ignored)
    return tr(_CTX, "Ignored: {0} of the {1} scale ignores {2}-scale damage from {3} ({4})"
              ).format(names, ignored[0].scale.label, spec.dice.scale.label, spec.weapon,
                       tr(_CTX, "Scale Immunity, Ch.7 Damage Scale"))


def odds_parts(spec: AttackSpec, odds: AttackOdds) -> list[str]:
    """The odds line's pieces; the first is shown in bold."""
    parts = [tr(_CTX, "Chance of success {0}").format(format_percent(odds.chance))]
    if spec.mode is AttackMode.ATTACK:
        parts.append(tr(_CTX, "expected damage {0:.2f} if it hits, {1:.2f} overall").format(
                float(odds.expected_damage_if_hit), float(odds.expected_damage)))
    if spec.return_fire is not None:
        parts.append(tr(_CTX, "expected damage taken {0:.2f}").format(float(odds.expected_harm)))
    if spec.mode is AttackMode.ATTACK and len(spec.targets) > 1:
        parts.append(tr(_CTX, SPLIT_FIRE_NOTE))
    return parts


def _rolls_html(result: DamageResult) -> str:
    parts = []
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        text = f"{raw}→{after}" if raw != after else str(raw)
        parts.append(text if kept else f"<s>{text}</s>")
    return ", ".join(parts)


def location_html(outcome: AttackOutcome, hit: TargetHit) -> str:
    """Where a hit landed (the random location with its dice, or the targeted one) and the
    targeted-damage effect Apply will put on the sheet; "" when it landed nowhere named."""
    where = outcome.where(hit)
    if where is None:
        return ""
    location, name = where
    rolled = hit.random_location
    if rolled is not None:
        head = escaped(tr(_CTX, "<p>Hit location ({}): <b>{}</b>"), rolled.dice_text, name)
    else:
        head = escaped(tr(_CTX, "<p>Targeted: <b>{}</b>"), name)
    effect = outcome.location_effect(hit)
    if location.body_area is BodyArea.BODY:
        return head + tr(_CTX, ": no targeted effect</p>")
    rule = threshold_text(location.body_area, hit.target.hp)
    if effect is not None:
        return head + escaped(tr(_CTX, ": <b>{}</b> ({} damage, at least {})</p>"),
                              tr(_CTX, _EFFECTS[effect]), hit.total, rule)
    return head + escaped(tr(_CTX, ": {} damage, below {}: no effect</p>"), hit.total, rule)


def threshold_text(body_area: BodyArea, hp: int) -> str:
    """"7 (21 HP / 3, rounded down)": a targeted threshold with the reading it rests on."""
    threshold = targeted_damage_threshold(body_area, hp)
    divisor = targeted_damage_divisor(body_area)
    return tr(_CTX, "{0} ({1} HP / {2}, rounded down, at least 1)").format(threshold, hp,
                                                                           divisor)


MINIMUM_DAMAGE_NOTE = tr_noop(_CTX, "Effect {0:+d}: every roll does at least 1 damage "
                                    "whatever the armor (Ch.7: 'A hit with Effect 6+ "
                                    "always inflicts at least one point of damage')")
FAIL_MINIMUM_NOTE = tr_noop(_CTX, "Fail effect {0} left after mitigation: every roll does at "
                                  "least 1 damage whatever the armor (the project's reading: "
                                  "the Ch.7 minimum counts the Fail Effect's hits too, measured "
                                  "after conditions, cover and skill)")
SPLIT_FIRE_NOTE = tr_noop(_CTX, "Split fire: each target takes 1 + Effect damage rolls and keeps "
                                "the best of its share of the rate of attack (the project's "
                                "reading of Ch.7 'Success Effect determines the Number of "
                                "Attacks the Adversary takes'), so the total kept never "
                                "passes the rate declared")


def outcome_html(outcome: AttackOutcome) -> str:
    """The result before it is applied: the roll, each target's damage rolls, the harm."""
    spec, check = outcome.spec, outcome.check
    dice = "+".join(map(str, check.dice))
    kept = "" if len(check.dice) == 2 else tr(_CTX, " (kept {0})").format(
            '+'.join(map(str, check.kept)))
    lines = [tr(_CTX,
        "<p><b>{0}{1} {2:+d} = {3}</b> against {4}: <b>Effect {5:+d}</b></p>").format(
                dice, kept, check.modifier, check.total, check.difficulty, check.effect)]
    for note in outcome.notes:
        lines.append(escaped("<p>{}</p>", note))
    if spec.mode is AttackMode.DEFEND:
        lines.append(tr(_CTX,
                "<p>Defended: no damage.</p>") if check.effect >= 0 and outcome.harm is None
                     else "")
    elif not outcome.hit:
        lines.append(tr(_CTX, "<p>Miss.</p>"))
    if outcome.hit and outcome.success_effect >= MINIMUM_DAMAGE_EFFECT and any(
            not hit.immune and hit.target.armor for hit in outcome.hits):
        lines.append(escaped("<p>{}</p>", tr(_CTX, MINIMUM_DAMAGE_NOTE).format(
            outcome.success_effect)))
    for hit in outcome.hits:
        if hit.immune:
            lines.append(escaped(tr(_CTX, "<p>{}: immune to {}-scale damage.</p>"), hit.target.name,
                                 spec.dice.scale.label))
            continue
        assert hit.result is not None
        armor = tr(_CTX, " against armor {0}").format(hit.target.armor) if hit.target.armor else ""
        rolls = (tr(_CTX, "<p><b>{}</b>: {} roll of {}{},") if hit.rolled == 1
                 else tr(_CTX, "<p><b>{}</b>: {} rolls of {}{},"))
        lines.append(escaped(rolls, hit.target.name, hit.rolled, spec.dice, armor)
                     + tr(_CTX, " best {0} kept: {1} = <b>{2} damage</b></p>").format(
                             hit.kept, _rolls_html(hit.result), hit.total))
        lines.append(location_html(outcome, hit))
        chance = chance_text(massive_damage_survival_chance(
            hit.target.endurance, hit.target.damage + hit.total))
        if hit.massive is not None:
            verdict = tr(_CTX, "survives (crippled)") if hit.massive.survived else tr(_CTX, "dies")
            lines.append(tr(_CTX, "<p>Massive damage roll {0}: {1} (chance to survive was "
                                  "{2})</p>").format(hit.massive.check.total, verdict, chance))
        elif hit.massive_due:
            lines.append(escaped("<p><b>{}</b></p>", MASSIVE_DUE.format(
                name=hit.target.name, chance=chance)))
    harm = outcome.harm
    if harm is not None:
        m = harm.mitigation
        lines.append(tr(_CTX, "<p><b>Fail effect {0}</b>: conditions -{1}, cover -{2}, skill "
                              "-{3} → {4} left</p>").format(
                                  harm.fail_effect, m.by_conditions, m.by_cover, m.by_skill,
                                  m.remaining))
        if harm.cover is not None:
            lines.append(escaped(tr(_CTX, "<p>{} takes "), spec.defence.cover_name or tr(_CTX,
                    "Cover"))
                         + f"{_rolls_html(harm.cover)} = {sum(harm.cover.rolls)}</p>")
        if harm.attacker is not None and m.remaining >= MINIMUM_DAMAGE_EFFECT \
                and spec.attacker_armor:
            lines.append(escaped("<p>{}</p>", tr(_CTX, FAIL_MINIMUM_NOTE).format(m.remaining)))
        if harm.attacker is not None:
            lines.append(escaped(tr(_CTX, "<p><b>{}</b> takes "), spec.attacker_name)
                         + f"{_rolls_html(harm.attacker)} = <b>{harm.total} damage</b></p>")
            if harm.massive_due:
                chance = chance_text(massive_damage_survival_chance(
                    spec.attacker_endurance, spec.attacker_damage + harm.total))
                lines.append(escaped("<p><b>{}</b></p>", MASSIVE_DUE.format(
                    name=spec.attacker_name, chance=chance)))
        elif spec.return_fire is None and m.remaining:
            lines.append(tr(_CTX, "<p>Nobody can strike back.</p>"))
        elif m.remaining == 0:
            lines.append(tr(_CTX, "<p>Ordinary failure.</p>"))
    return "".join(lines)
