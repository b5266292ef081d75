"""What the players may see of the campaign, worked out in one place.

The player display never reads the campaign itself: it shows a :class:`Scene`, and a scene
is built here from the encounter and the referee's :class:`DisplayOptions`. A value the
options hide (an adversary's HP, a combatant not yet revealed, a note, a secret roll) is
never put into a scene, so no view, role or tooltip can show it by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mneme_desktop.domain import Campaign, Combatant, ConditionKind, Encounter, Side
from mneme_desktop.domain.combat import combatant_status
from mneme_desktop.domain.combat.thing_turns import (
    TurnSlot,
    VehicleTurn,
    current_slot,
    slot_can_act,
    slot_position,
    turn_slots,
    vehicle_turns,
)
from mneme_desktop.domain.encounter import EncounterLogEntry
from mneme_desktop.rules.actions import ActionKind
from mneme_desktop.rules.movement import Stance
from mneme_desktop.rules.wounds import WoundState, wound_effects
from mneme_desktop.settings import PlayerVisibility, Settings
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.encounter_things_model import thing_state_text

__all__ = [
    "DisplayOptions",
    "DisplayRow",
    "Scene",
    "TurnMark",
    "build_scene",
    "running_encounter",
]

_CTX = "PlayerDisplay"

_BANDS = {
    WoundState.UNHURT: tr_noop(_CTX, "Unhurt"),
    WoundState.WOUNDED: tr_noop(_CTX, "Wounded"),
    WoundState.SERIOUSLY_WOUNDED: tr_noop(_CTX, "Seriously Wounded"),
    WoundState.CRITICALLY_WOUNDED: tr_noop(_CTX, "Critically Wounded"),
    WoundState.DYING: tr_noop(_CTX, "Dying"),
    WoundState.DEAD: tr_noop(_CTX, "Dead"),
}
"""The book's band names, as the display writes them beside the band's colour and hatching."""

_VAGUE = {
    WoundState.UNHURT: tr_noop(_CTX, "unhurt"),
    WoundState.WOUNDED: tr_noop(_CTX, "hurt"),
    WoundState.SERIOUSLY_WOUNDED: tr_noop(_CTX, "badly hurt"),
    WoundState.CRITICALLY_WOUNDED: tr_noop(_CTX, "down"),
    WoundState.DYING: tr_noop(_CTX, "down"),
    WoundState.DEAD: tr_noop(_CTX, "down"),
}
"""The vague word: what a player sees across a table without counting wounds. Critically
wounded, dying and dead all read "down", so the word tells no more than a glance."""

_VISIBLE_CONDITIONS = {
    ConditionKind.BLEEDING: tr_noop(_CTX, "Bleeding"),
    ConditionKind.PRONE: tr_noop(_CTX, "Prone"),
    ConditionKind.STUNNED: tr_noop(_CTX, "Stunned"),
    ConditionKind.UNCONSCIOUS: tr_noop(_CTX, "Unconscious"),
}
"""Conditions anyone at the scene can see. Crippled, stabilised, helpless and the referee's
own conditions stay off the display (they tell more than a look would)."""

_ATTACK_PREFIX = "Attack:"
"""How the combat log names an attack (``domain/combat/attack_apply``: "Attack: Rifle")."""


class TurnMark(Enum):
    """Where a row stands in the round, said in words beside the highlight."""

    NONE = "none"
    NOW = "now"
    NEXT = "next"


@dataclass(frozen=True)
class DisplayOptions:
    """The referee's choices for the display: how much of each side's wounds shows, and
    whether the public lines of the log show."""

    players: PlayerVisibility = PlayerVisibility.BAND_AND_HP
    enemies: PlayerVisibility = PlayerVisibility.BAND
    neutral: PlayerVisibility = PlayerVisibility.BAND
    show_log: bool = False
    log_lines: int = 5

    def for_side(self, side: Side) -> PlayerVisibility:
        return {Side.PLAYERS: self.players, Side.ENEMIES: self.enemies,
                Side.NEUTRAL: self.neutral}[side]

    @property
    def any_hp(self) -> bool:
        """Whether any side shows HP numbers (else the HP column is not shown at all)."""
        return PlayerVisibility.BAND_AND_HP in (self.players, self.enemies, self.neutral)

    @classmethod
    def from_settings(cls, settings: Settings) -> DisplayOptions:
        return cls(players=settings.player_display_players,
                   enemies=settings.player_display_enemies,
                   neutral=settings.player_display_neutral,
                   show_log=settings.player_display_log)


@dataclass(frozen=True)
class DisplayRow:
    """One combatant as the players may see them."""

    id: str
    name: str
    side: Side
    mark: TurnMark
    band: WoundState | None
    """The wound band, only where the options show bands (coloured, hatched and named)."""
    wounds: str
    """The band's name, the vague word, or nothing."""
    hp: str
    """HP left of HP ("9 / 17"), only where the options show HP."""
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class Scene:
    """Everything the display shows at one moment: the idle screen when ``fight`` is
    False, else the round, whose turn it is, who is next, the rows and the log lines."""

    campaign: str
    day: str
    clock: str
    fight: bool = False
    round: str = ""
    now: str = ""
    next: str = ""
    rows: tuple[DisplayRow, ...] = ()
    log: tuple[str, ...] = ()
    show_hp: bool = False


def running_encounter(campaign: Campaign, preferred: str | None = None) -> Encounter | None:
    """The fight the display follows: ``preferred`` (the one the referee shows) when it
    runs, else the last running one in the campaign's list, else None (the idle screen)."""
    running = [e for e in campaign.encounters if e.started and not e.ended]
    chosen = next((e for e in running if e.id == preferred), None)
    if chosen is not None:
        return chosen
    return running[-1] if running else None


def build_scene(campaign: Campaign, options: DisplayOptions,
                preferred: str | None = None) -> Scene:
    """The display's content now: the running fight under ``options``, or the idle screen."""
    now = campaign.game_time
    day = tr(_CTX, "Day {0}").format(now.day)
    clock = f"{now.hour:02d}:{now.minute:02d}"
    encounter = running_encounter(campaign, preferred)
    if encounter is None:
        return Scene(campaign=campaign.name, day=day, clock=clock)
    # The turns as the referee's turn order has them: a crewed vehicle's just before its
    # crew's (the display showed "Now: <the driver>" on the driver's own row, and skipped
    # that row as "Next"). A vehicle's turn shows when the crew member whose initiative it
    # takes is revealed.
    order = encounter.initiative_order()
    slots = turn_slots(order, vehicle_turns(campaign, encounter, order))
    current = current_slot(campaign, encounter, order)
    hidden = _hidden_names(campaign, encounter)
    following = _next_up(campaign, slots, current)
    rows = tuple(
        _slot_row(campaign, encounter, slot, options,
                  TurnMark.NOW if slot == current else
                  TurnMark.NEXT if slot == following else TurnMark.NONE)
        for slot in slots if slot.combatant.revealed)
    shown = {row.id: row.name for row in rows}
    log = _public_log(campaign, encounter, shown, hidden, options) if options.show_log else ()
    return Scene(
        campaign=campaign.name, day=day, clock=clock, fight=True,
        round=tr(_CTX, "Round {0}").format(encounter.round),
        now=shown.get(current.id, "—") if current is not None else "—",
        next=shown.get(following.id, "—") if following is not None else "—",
        rows=rows, log=log, show_hp=options.any_hp,
    )


def _hidden_names(campaign: Campaign, encounter: Encounter) -> tuple[str, ...]:
    return tuple(campaign.combatant_character(c).name
                 for c in encounter.combatants if not c.revealed)


def _next_up(campaign: Campaign, slots: list[TurnSlot],
             current: TurnSlot | None) -> TurnSlot | None:
    """The next revealed turn that will be taken after the current one, round the order."""
    if current is None or not slots:
        return None
    start = slot_position(slots, current.index,
                          current.vehicle.entry.id if current.vehicle is not None else None)
    for step in range(1, len(slots)):
        candidate = slots[(start + step) % len(slots)]
        if candidate.combatant.revealed and slot_can_act(campaign, candidate):
            return candidate
    return None


def _slot_row(campaign: Campaign, encounter: Encounter, slot: TurnSlot,
              options: DisplayOptions, mark: TurnMark) -> DisplayRow:
    if slot.vehicle is None:
        return _row(campaign, encounter, slot.combatant, options, mark)
    return _vehicle_row(slot.vehicle, options, mark)


def _vehicle_row(vehicle: VehicleTurn, options: DisplayOptions, mark: TurnMark) -> DisplayRow:
    """A crewed vehicle's turn: its name and, as its side's setting allows, its state in a
    thing's words ("Damaged") and its HP in its own scale. Its crew is not named (one of
    them may not be revealed)."""
    thing = vehicle.thing
    track = thing.track
    seen = options.for_side(vehicle.entry.side)
    band: WoundState | None = None
    wounds = ""
    hp = ""
    state = WoundState.DEAD if thing.destroyed else track.state
    if seen in (PlayerVisibility.BAND, PlayerVisibility.BAND_AND_HP):
        band = state
        wounds = thing_state_text(thing.state)
    elif seen is PlayerVisibility.VAGUE:
        wounds = tr(_CTX, _VAGUE[state])
    if seen is PlayerVisibility.BAND_AND_HP:
        hp = tr(_CTX, "{0} / {1}").format(max(0, track.hp - track.damage), track.hp)
    return DisplayRow(id=vehicle.entry.id, name=thing.name, side=vehicle.entry.side,
                      mark=mark, band=band, wounds=wounds, hp=hp, conditions=())


def _row(campaign: Campaign, encounter: Encounter, combatant: Combatant,
         options: DisplayOptions, mark: TurnMark) -> DisplayRow:
    character = campaign.combatant_character(combatant)
    status = combatant_status(campaign, encounter, combatant, character)
    seen = options.for_side(combatant.side)
    state = status.state
    band: WoundState | None = None
    wounds = ""
    hp = ""
    if seen in (PlayerVisibility.BAND, PlayerVisibility.BAND_AND_HP):
        band = state
        wounds = tr(_CTX, _BANDS[state])
    elif seen is PlayerVisibility.VAGUE:
        wounds = tr(_CTX, _VAGUE[state])
    if seen is PlayerVisibility.BAND_AND_HP:
        hp = tr(_CTX, "{0} / {1}").format(max(0, status.hp - status.damage), status.hp)
    conditions: list[str] = []
    for condition in character.conditions:
        label = _VISIBLE_CONDITIONS.get(condition.kind)
        if label is not None and not condition.expired(campaign.game_time):
            conditions.append(tr(_CTX, label))
    if combatant.stance is Stance.PRONE:
        conditions.append(tr(_CTX, _VISIBLE_CONDITIONS[ConditionKind.PRONE]))
    knocked_out = state is not WoundState.DEAD and not wound_effects(state).conscious
    if knocked_out and seen is not PlayerVisibility.NOTHING:
        conditions.append(tr(_CTX, _VISIBLE_CONDITIONS[ConditionKind.UNCONSCIOUS]))
    return DisplayRow(id=combatant.id, name=character.name, side=combatant.side, mark=mark,
                      band=band, wounds=wounds, hp=hp,
                      conditions=tuple(dict.fromkeys(conditions)))


def _public_log(campaign: Campaign, encounter: Encounter, shown: dict[str, str],
                hidden: tuple[str, ...], options: DisplayOptions) -> tuple[str, ...]:
    """The last attacks and whether they hit. Only attacks are public: the referee's notes,
    checks and rolls (secret rolls among them), damage dice and everything else in the log
    stay off the display; a line that names a combatant not yet revealed is left out."""
    lines: list[str] = []
    for entry in reversed(encounter.log):
        line = _attack_line(entry, shown)
        if line is None or any(name and name in line for name in hidden):
            continue
        lines.append(line)
        if len(lines) == options.log_lines:
            break
    lines.reverse()
    return tuple(lines)


def _attack_line(entry: EncounterLogEntry, shown: dict[str, str]) -> str | None:
    if entry.action_kind is not ActionKind.SIGNIFICANT or entry.effect is None:
        return None
    if not entry.action.startswith(_ATTACK_PREFIX):
        return None
    if entry.actor_id is None or entry.actor_id not in shown:
        return None
    if entry.target_id is not None and entry.target_id not in shown:
        return None
    weapon = entry.action[len(_ATTACK_PREFIX):].strip()
    target = shown[entry.target_id] if entry.target_id is not None else entry.target
    text = tr(_CTX, "{0} attacks {1} with {2}: hit") if entry.effect >= 0 else \
        tr(_CTX, "{0} attacks {1} with {2}: miss")
    return text.format(shown[entry.actor_id], target, weapon)
