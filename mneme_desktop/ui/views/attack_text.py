"""What the attack resolver says in words: the exact odds as a percentage and a fraction,
the roll to make, and the outcome before it is applied (plain pieces escaped into HTML)."""

from __future__ import annotations

from fractions import Fraction

from mneme_desktop.domain.combat import AttackMode, AttackOdds, AttackOutcome, AttackSpec
from mneme_desktop.domain.combat.attack_apply import MASSIVE_DUE
from mneme_desktop.rules.damage import DamageResult
from mneme_desktop.ui.widgets.plain_text import escaped

__all__ = ["format_percent", "odds_parts", "outcome_html", "roll_text"]


def format_percent(chance: Fraction) -> str:
    """58.33% (7/12): the exact fraction beside a readable percentage."""
    if chance == 0:
        return "0% (cannot succeed)"
    if chance == 1:
        return "100% (cannot fail)"
    return f"{float(chance) * 100:.2f}% ({chance.numerator}/{chance.denominator})"


def roll_text(spec: AttackSpec) -> str:
    """The roll to make: the dice (more with advantage or disadvantage), the DM term by
    term, and the Difficulty."""
    terms = ", ".join(f"{t.label} {t.value:+d}" for t in spec.roll_terms)
    advantage = spec.net_advantage
    dice = "2d6"
    if advantage > 0:
        dice = f"{2 + advantage}d6 keep the 2 highest"
    elif advantage < 0:
        dice = f"{2 - advantage}d6 keep the 2 lowest"
    return (f"Roll {dice} {spec.roll_modifier:+d} ({terms}) against "
            f"{spec.difficulty.total}")


def odds_parts(spec: AttackSpec, odds: AttackOdds) -> list[str]:
    """The odds line's pieces; the first is shown in bold."""
    parts = [f"Chance of success {format_percent(odds.chance)}"]
    if spec.mode is AttackMode.ATTACK:
        parts.append(f"expected damage {float(odds.expected_damage_if_hit):.2f} if it hits, "
                     f"{float(odds.expected_damage):.2f} overall")
    if spec.return_fire is not None:
        parts.append(f"expected damage taken {float(odds.expected_harm):.2f}")
    return parts


def _rolls_html(result: DamageResult) -> str:
    parts = []
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        text = f"{raw}→{after}" if raw != after else str(raw)
        parts.append(text if kept else f"<s>{text}</s>")
    return ", ".join(parts)


def outcome_html(outcome: AttackOutcome) -> str:
    """The result before it is applied: the roll, each target's damage rolls, the harm."""
    spec, check = outcome.spec, outcome.check
    dice = "+".join(map(str, check.dice))
    kept = "" if len(check.dice) == 2 else f" (kept {'+'.join(map(str, check.kept))})"
    lines = [f"<p><b>{dice}{kept} {check.modifier:+d} = {check.total}</b> against "
             f"{check.difficulty}: <b>Effect {check.effect:+d}</b></p>"]
    for note in outcome.notes:
        lines.append(escaped("<p>{}</p>", note))
    if spec.mode is AttackMode.DEFEND:
        lines.append("<p>Defended: no damage.</p>" if check.effect >= 0 and outcome.harm is None
                     else "")
    elif not outcome.hit:
        lines.append("<p>Miss.</p>")
    for hit in outcome.hits:
        if hit.immune:
            lines.append(escaped("<p>{}: immune to {}-scale damage.</p>", hit.target.name,
                                 spec.dice.scale.label))
            continue
        assert hit.result is not None
        armor = f" against armor {hit.target.armor}" if hit.target.armor else ""
        lines.append(escaped("<p><b>{}</b>: {} roll(s) of {}{},", hit.target.name, hit.rolled,
                             spec.dice, armor)
                     + f" best {hit.kept} kept: {_rolls_html(hit.result)} = "
                     f"<b>{hit.total} damage</b></p>")
        if hit.massive is not None:
            verdict = "survives (crippled)" if hit.massive.survived else "dies"
            lines.append(f"<p>Massive damage roll {hit.massive.check.total}: {verdict}</p>")
        elif hit.massive_due:
            lines.append(escaped("<p><b>{}</b></p>", MASSIVE_DUE.format(name=hit.target.name)))
    harm = outcome.harm
    if harm is not None:
        m = harm.mitigation
        lines.append(f"<p><b>Fail effect {harm.fail_effect}</b>: conditions -{m.by_conditions},"
                     f" cover -{m.by_cover}, skill -{m.by_skill} → {m.remaining} left</p>")
        if harm.cover is not None:
            lines.append(escaped("<p>{} takes ", spec.defence.cover_name or "Cover")
                         + f"{_rolls_html(harm.cover)} = {sum(harm.cover.rolls)}</p>")
        if harm.attacker is not None:
            lines.append(escaped("<p><b>{}</b> takes ", spec.attacker_name)
                         + f"{_rolls_html(harm.attacker)} = <b>{harm.total} damage</b></p>")
            if harm.massive_due:
                lines.append(escaped("<p><b>{}</b></p>",
                                     MASSIVE_DUE.format(name=spec.attacker_name)))
        elif spec.return_fire is None and m.remaining:
            lines.append("<p>Nobody can strike back.</p>")
        elif m.remaining == 0:
            lines.append("<p>Ordinary failure.</p>")
    return "".join(lines)
