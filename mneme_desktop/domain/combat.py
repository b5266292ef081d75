"""Combat at the table: the rules core combined into turns, attacks, ticks and their log.

Nothing here changes the campaign directly. Every operation reads the campaign and returns
an :class:`EncounterPatch`: a short list of small, exact, reversible edits (a field of one
combatant, one character sheet, a few log entries). The UI pushes a patch as one undo step,
so undo restores exactly what was there, and a turn in a 200-combatant fight costs what the
handful of things it touches cost, never a copy of the campaign.

Decisions the chapters leave open are written on the function that makes them, so a referee
can see which rule produced a number.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from pydantic import BaseModel

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.attack_terms import (
    aim_cap_text,
    aim_weapon,
    attack_refusal,
    label_aim,
    label_target_cover,
    target_cover,
)
from mneme_desktop.domain.campaign import Campaign
from mneme_desktop.domain.character import (
    MAX_AMOUNT,
    Character,
    Characteristic,
    Condition,
    ConditionKind,
    DamageRecord,
    RangeClass,
    Weapon,
)
from mneme_desktop.domain.encounter import (
    Combatant,
    Encounter,
    EncounterLogEntry,
    ExtendedTask,
    Side,
)
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.medic_check import medic_modifier
from mneme_desktop.domain.roll_terms import (
    InitiativeResult,
    Modifier,
    ambush_result,
    initiative_result,
    roll_initiative_result,
    survival_terms,
    tactics_terms,
    terms_text,
    wound_modifier,
    wound_terms,
)
from mneme_desktop.rules.actions import (
    FIRST_AID_ROUNDS,
    ROUND_SECONDS,
    ActionDef,
    ActionKind,
    ActionOption,
    BodyArea,
    DefenseKind,
    ExtendedAction,
    HitLocation,
    Load,
    MovementMode,
    Stance,
    action_by_key,
    add_aim,
    defend_modifier,
    movement_metres,
    movement_spaces,
    spend,
    stance_change_cost,
    tactics_initiative_bonus,
)
from mneme_desktop.rules.checks import (
    DEFAULT_DIFFICULTY,
    RECKLESS_ROLL_BONUS,
    UNSKILLED,
    CheckResult,
    CoverLevel,
    DifficultyBreakdown,
    DifficultyTerm,
    TermKind,
    attack_difficulty,
    check_from_dice,
    costly_success,
    effect_distribution,
    net_advantage,
    reckless_effect,
    roll_check,
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
    scaled_armor,
)
from mneme_desktop.rules.dice import DiceExpression, Scale
from mneme_desktop.rules.healing import first_aid_healing
from mneme_desktop.rules.wounds import (
    BLEED_INTERVAL_ROUNDS,
    DYING_DIFFICULTY,
    MASSIVE_DAMAGE_DIFFICULTY,
    SurvivalRoll,
    TargetedEffect,
    WoundState,
    WoundThresholds,
    bleeding_damage_between,
    bleeds,
    is_massive_damage,
    next_bleed_round,
    roll_massive_damage,
    targeted_damage_effect,
    wound_effects,
    wound_state,
    wound_thresholds,
)

__all__ = [
    "AppendLog",
    "AttackMode",
    "AttackOdds",
    "AttackOutcome",
    "AttackRequest",
    "AttackSpec",
    "AttackTarget",
    "CombatError",
    "CombatantStatus",
    "Defence",
    "EncounterPatch",
    "Harm",
    "InsertCombatant",
    "Modifier",
    "MoveCombatant",
    "PatchBuilder",
    "PlanOutcome",
    "RemoveCombatant",
    "ReplaceCharacter",
    "ReturnFire",
    "SetCombatantField",
    "SetEncounterField",
    "SetGameTime",
    "TargetHit",
    "abort_task_patch",
    "add_adversaries_patch",
    "add_characters_patch",
    "add_condition_patch",
    "aim_patch",
    "ambush_patch",
    "armor_of",
    "attack_check_from_dice",
    "attack_odds",
    "attack_patch",
    "bleeding_ticks",
    "build_attack",
    "can_act",
    "combatant_status",
    "damage_from_values",
    "delay_patch",
    "dying_roll_due",
    "dying_roll_patch",
    "end_encounter_patch",
    "end_round_patch",
    "first_aid_modifier",
    "format_log_entry",
    "initiative_from_text",
    "initiative_patch",
    "initiative_ties",
    "log_as_text",
    "loose_ends",
    "massive_damage_patch",
    "move_in_ties_patch",
    "move_patch",
    "movement_options",
    "next_turn_patch",
    "note_patch",
    "parse_dice_values",
    "parse_roll_groups",
    "previous_turn_patch",
    "remove_combatants_patch",
    "remove_condition_patch",
    "resolve_attack",
    "roll_attack",
    "roll_initiative_patch",
    "set_cover_patch",
    "set_damage_patch",
    "set_out_of_fight_patch",
    "set_side_patch",
    "stance_patch",
    "start_patch",
    "start_task_patch",
    "tactics_modifier",
    "tactics_patch",
    "take_action_patch",
    "work_task_patch",
]


class CombatError(ValueError):
    """Something the referee asked for that the rules or the state refuse; says why."""


# ===================================================================== reversible edits


class _Locator:
    """Finds encounters, combatants and character sheets by id during one apply or revert.

    Lookups are indexed once per patch, so a patch touching every combatant stays linear.
    """

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self._combatants: dict[str, dict[str, Combatant]] = {}

    def encounter(self, encounter_id: str) -> Encounter:
        return self.campaign.encounter(encounter_id)

    def combatant(self, encounter_id: str, combatant_id: str) -> Combatant:
        table = self._combatants.get(encounter_id)
        if table is None:
            table = {c.id: c for c in self.encounter(encounter_id).combatants}
            self._combatants[encounter_id] = table
        try:
            return table[combatant_id]
        except KeyError:
            raise KeyError(f"no combatant {combatant_id!r} in this encounter") from None

    def invalidate(self) -> None:
        self._combatants.clear()

    def put_character(self, character: Character) -> None:
        """Put ``character`` where the sheet with its id lives (campaign or instance)."""
        characters = self.campaign.characters
        for index, old in enumerate(characters):
            if old.id == character.id:
                characters[index] = character
                return
        for encounter in self.campaign.encounters:
            for combatant in encounter.combatants:
                if combatant.instance is not None and combatant.instance.id == character.id:
                    combatant.instance = character
                    return
        raise KeyError(f"no character {character.id!r} in this campaign")


def _fresh(value: object) -> object:
    """A private copy of model values, so nothing stored in an edit is ever shared live."""
    return value.model_copy(deep=True) if isinstance(value, BaseModel) else value


@dataclass(frozen=True)
class SetEncounterField:
    encounter_id: str
    name: str
    before: object
    after: object

    def apply(self, loc: _Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.after))

    def revert(self, loc: _Locator) -> None:
        setattr(loc.encounter(self.encounter_id), self.name, _fresh(self.before))


@dataclass(frozen=True)
class SetCombatantField:
    encounter_id: str
    combatant_id: str
    name: str
    before: object
    after: object

    def apply(self, loc: _Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.after))

    def revert(self, loc: _Locator) -> None:
        combatant = loc.combatant(self.encounter_id, self.combatant_id)
        setattr(combatant, self.name, _fresh(self.before))


@dataclass(frozen=True)
class ReplaceCharacter:
    """One character sheet before and after (both private copies)."""

    before: Character
    after: Character

    def __post_init__(self) -> None:
        if self.before.id != self.after.id:
            raise ValueError("a character edit must keep the character's id")

    @property
    def character_id(self) -> str:
        return self.after.id

    def apply(self, loc: _Locator) -> None:
        loc.put_character(self.after.model_copy(deep=True))

    def revert(self, loc: _Locator) -> None:
        loc.put_character(self.before.model_copy(deep=True))


@dataclass(frozen=True)
class InsertCombatant:
    encounter_id: str
    index: int
    combatant: Combatant

    def apply(self, loc: _Locator) -> None:
        loc.encounter(self.encounter_id).combatants.insert(
            self.index, self.combatant.model_copy(deep=True)
        )
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        position = next(i for i, c in enumerate(combatants) if c.id == self.combatant.id)
        del combatants[position]
        loc.invalidate()


@dataclass(frozen=True)
class RemoveCombatant:
    encounter_id: str
    index: int
    combatant: Combatant

    def apply(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        position = next(i for i, c in enumerate(combatants) if c.id == self.combatant.id)
        del combatants[position]
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        loc.encounter(self.encounter_id).combatants.insert(
            self.index, self.combatant.model_copy(deep=True)
        )
        loc.invalidate()


@dataclass(frozen=True)
class MoveCombatant:
    """Move a combatant within the list; ties in initiative keep list order, so this is
    how a referee breaks a tie."""

    encounter_id: str
    from_index: int
    to_index: int

    def apply(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.to_index, combatants.pop(self.from_index))
        loc.invalidate()

    def revert(self, loc: _Locator) -> None:
        combatants = loc.encounter(self.encounter_id).combatants
        combatants.insert(self.from_index, combatants.pop(self.to_index))
        loc.invalidate()


@dataclass(frozen=True)
class AppendLog:
    encounter_id: str
    entries: tuple[EncounterLogEntry, ...]

    def apply(self, loc: _Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        log.extend(entry.model_copy(deep=True) for entry in self.entries)

    def revert(self, loc: _Locator) -> None:
        log = loc.encounter(self.encounter_id).log
        count = len(self.entries)
        tail = [entry.id for entry in log[len(log) - count :]]
        if tail != [entry.id for entry in self.entries]:
            raise RuntimeError("the encounter log changed under an undo step")
        del log[len(log) - count :]


@dataclass(frozen=True)
class SetGameTime:
    before: GameTime
    after: GameTime

    def apply(self, loc: _Locator) -> None:
        loc.campaign.game_time = self.after

    def revert(self, loc: _Locator) -> None:
        loc.campaign.game_time = self.before


Edit = (
    SetEncounterField
    | SetCombatantField
    | ReplaceCharacter
    | InsertCombatant
    | RemoveCombatant
    | MoveCombatant
    | AppendLog
    | SetGameTime
)


@dataclass(frozen=True)
class EncounterPatch:
    """One referee step as exact, reversible edits; ``apply`` then ``revert`` is a no-op."""

    encounter_id: str
    text: str
    edits: tuple[Edit, ...]
    merge_key: str | None = None
    """Patches with the same key in a row merge into one undo step (dragging an HP bar)."""

    def apply(self, campaign: Campaign) -> None:
        loc = _Locator(campaign)
        for edit in self.edits:
            edit.apply(loc)

    def revert(self, campaign: Campaign) -> None:
        loc = _Locator(campaign)
        for edit in reversed(self.edits):
            edit.revert(loc)

    @property
    def empty(self) -> bool:
        return not self.edits

    @property
    def character_ids(self) -> frozenset[str]:
        return frozenset(e.character_id for e in self.edits if isinstance(e, ReplaceCharacter))

    @property
    def combatant_ids(self) -> frozenset[str]:
        return frozenset(e.combatant_id for e in self.edits if isinstance(e, SetCombatantField))

    @property
    def structural(self) -> bool:
        """Combatants were added, removed or reordered (not just changed)."""
        kinds = (InsertCombatant, RemoveCombatant, MoveCombatant)
        return any(isinstance(e, kinds) for e in self.edits)

    @property
    def time_changed(self) -> bool:
        return any(isinstance(e, SetGameTime) for e in self.edits)

    @property
    def log_entries(self) -> tuple[EncounterLogEntry, ...]:
        return tuple(x for e in self.edits if isinstance(e, AppendLog) for x in e.entries)

    def then(self, later: EncounterPatch) -> EncounterPatch:
        """One patch doing this, then ``later``, as one step: each field goes from this
        patch's before to ``later``'s after, and only ``later``'s log lines are kept (one
        gesture, one line with the final value). Refused (ValueError) for patches that add,
        remove or move combatants or change the time, which do not fold this way."""
        merged: dict[tuple[object, ...], Edit] = {}
        for edit in (*self.edits, *later.edits):
            key: tuple[object, ...]
            if isinstance(edit, ReplaceCharacter):
                key = ("character", edit.character_id)
                earlier = merged.get(key)
                if isinstance(earlier, ReplaceCharacter):
                    edit = ReplaceCharacter(earlier.before, edit.after)
            elif isinstance(edit, SetCombatantField):
                key = ("combatant", edit.encounter_id, edit.combatant_id, edit.name)
                earlier = merged.get(key)
                if isinstance(earlier, SetCombatantField):
                    edit = replace(edit, before=earlier.before)
            elif isinstance(edit, SetEncounterField):
                key = ("encounter", edit.encounter_id, edit.name)
                earlier = merged.get(key)
                if isinstance(earlier, SetEncounterField):
                    edit = replace(edit, before=earlier.before)
            elif isinstance(edit, AppendLog):
                key = ("log",)
            else:
                raise ValueError("only field, sheet and log edits fold into one step")
            merged[key] = edit
        log = merged.pop(("log",), None)
        if log is not None and later.log_entries:
            merged[("log",)] = AppendLog(later.encounter_id, later.log_entries)
        return EncounterPatch(later.encounter_id, later.text, tuple(merged.values()),
                              later.merge_key)


class PatchBuilder:
    """Collects the edits of one step, reading through what the step already changed.

    Character sheets are edited on working copies (one per character) that become a
    single :class:`ReplaceCharacter` each; field edits that change nothing are dropped.
    """

    def __init__(self, campaign: Campaign, encounter: Encounter) -> None:
        self.campaign = campaign
        self.encounter = encounter
        self._encounter_fields: dict[str, object] = {}
        self._combatant_fields: dict[tuple[str, str], object] = {}
        self._characters: dict[str, tuple[Character, Character]] = {}
        self._structural: list[Edit] = []
        self._log: list[EncounterLogEntry] = []
        self._time: GameTime | None = None
        self._order: list[tuple[str, object]] = []

    # --- reading through pending changes --------------------------------------------

    @property
    def round(self) -> int:
        value = self.get_encounter("round")
        assert isinstance(value, int)
        return value

    @property
    def turn_index(self) -> int:
        value = self.get_encounter("turn_index")
        assert isinstance(value, int)
        return value

    @property
    def now(self) -> GameTime:
        return self._time if self._time is not None else self.campaign.game_time

    def get_encounter(self, name: str) -> object:
        if name in self._encounter_fields:
            return self._encounter_fields[name]
        return getattr(self.encounter, name)

    def get(self, combatant: Combatant, name: str) -> object:
        key = (combatant.id, name)
        if key in self._combatant_fields:
            return self._combatant_fields[key]
        return getattr(combatant, name)

    def get_int(self, combatant: Combatant, name: str) -> int:
        value = self.get(combatant, name)
        assert isinstance(value, int)
        return value

    def character(self, combatant: Combatant) -> Character:
        """The combatant's sheet as this step has left it so far (read only)."""
        original = self.campaign.combatant_character(combatant)
        pending = self._characters.get(original.id)
        return original if pending is None else pending[1]

    def edit_character(self, combatant: Combatant) -> Character:
        """A working copy of the combatant's sheet that this step may change."""
        original = self.campaign.combatant_character(combatant)
        pending = self._characters.get(original.id)
        if pending is None:
            pending = (original, original.model_copy(deep=True))
            self._characters[original.id] = pending
            self._order.append(("character", original.id))
        return pending[1]

    # --- writing ----------------------------------------------------------------------

    def set_encounter(self, name: str, value: object) -> None:
        if name not in self._encounter_fields:
            self._order.append(("encounter", name))
        self._encounter_fields[name] = value

    def set(self, combatant: Combatant, name: str, value: object) -> None:
        key = (combatant.id, name)
        if key not in self._combatant_fields:
            self._order.append(("combatant", key))
        self._combatant_fields[key] = value

    def set_time(self, value: GameTime) -> None:
        self._time = value

    def structural(self, edit: Edit) -> None:
        self._structural.append(edit)

    def log(self, **values: object) -> EncounterLogEntry:
        """Add a log entry stamped with this step's round and game time."""
        values.setdefault("round", self.round)
        values.setdefault("at", self.now)
        entry = EncounterLogEntry.model_validate(values)
        self._log.append(entry)
        return entry

    @property
    def logged(self) -> tuple[EncounterLogEntry, ...]:
        return tuple(self._log)

    def build(self, text: str, merge_key: str | None = None) -> EncounterPatch:
        encounter_id = self.encounter.id
        edits: list[Edit] = list(self._structural)
        combatants = {c.id: c for c in self.encounter.combatants}
        for kind, key in self._order:
            if kind == "encounter":
                assert isinstance(key, str)
                before = getattr(self.encounter, key)
                after = self._encounter_fields[key]
                if before != after:
                    edits.append(SetEncounterField(encounter_id, key, before, after))
            elif kind == "combatant":
                assert isinstance(key, tuple)
                combatant_id, name = key
                before = getattr(combatants[combatant_id], name)
                after = self._combatant_fields[key]
                if before != after:
                    edits.append(
                        SetCombatantField(encounter_id, combatant_id, name, before, after)
                    )
            else:
                assert isinstance(key, str)
                original, changed = self._characters[key]
                validated = Character.model_validate(changed.model_dump())
                if validated != original:
                    # The sheet being replaced leaves the campaign when the patch applies,
                    # so it is kept as it is rather than copied (patches are pushed at once).
                    edits.append(ReplaceCharacter(original, validated))
        if self._time is not None and self._time != self.campaign.game_time:
            edits.append(SetGameTime(self.campaign.game_time, self._time))
        if self._log:
            edits.append(AppendLog(encounter_id, tuple(self._log)))
        return EncounterPatch(encounter_id, text, tuple(edits), merge_key)


# ===================================================================== small helpers


def _combatant(encounter: Encounter, combatant_id: str) -> Combatant:
    found = encounter.find_combatant(combatant_id)
    if found is None:
        raise CombatError("that combatant is no longer in this encounter")
    return found


def _name(campaign: Campaign, combatant: Combatant) -> str:
    return campaign.combatant_character(combatant).name


def _state(campaign: Campaign, character: Character) -> WoundState:
    return character.wound_state(campaign.rules_options.threshold_basis)


def _state_note(character: Character, state: WoundState) -> str:
    extra = {
        WoundState.CRITICALLY_WOUNDED: " (unconscious)",
        WoundState.DYING: " (END roll vs 4 each round)",
    }.get(state, "")
    return f"{character.name}: {state.label}{extra}"


def _has_active(character: Character, kind: ConditionKind, now: GameTime) -> bool:
    return any(c.kind is kind and not c.expired(now) for c in character.conditions)


def can_act(
    campaign: Campaign, combatant: Combatant, character: Character | None = None,
    state: WoundState | None = None,
) -> bool:
    """Whether the combatant can take a turn: not out of the fight, dead or unconscious.

    Next turn passes over those who cannot act; the unconscious are the critically wounded
    and dying (Ch.7) and anyone the referee marked Unconscious. ``character`` is the sheet
    to judge by (default: the campaign's) and ``state`` its wound state, if known.
    """
    if combatant.out_of_fight:
        return False
    if character is None:
        character = campaign.combatant_character(combatant)
    if state is None:
        state = _state(campaign, character)
    if state is WoundState.DEAD or not wound_effects(state).conscious:
        return False
    return not character.has_condition(ConditionKind.UNCONSCIOUS)


def parse_dice_values(text: str, count: int | None = None) -> tuple[int, ...]:
    """Dice typed from the table: "4 5", "4,5", "4+5" or "45" (each die 1-6).

    ``count`` is how many dice are expected; a run of digits with no separators is read as
    one die per digit only when that matches ``count``.
    """
    cleaned = text.strip()
    if not cleaned:
        raise ValueError("type the dice rolled, e.g. 4 5")
    parts = [p for p in re.split(r"[\s,;+/]+", cleaned) if p]
    if len(parts) == 1 and count is not None and count > 1 and len(parts[0]) == count:
        parts = list(parts[0])
    values: list[int] = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise ValueError(f"{part!r} is not a die: each die is a whole number 1 to 6")
        values.append(int(part))
    if count is not None and len(values) != count:
        raise ValueError(f"expected {count} dice, got {len(values)}: {cleaned!r}")
    return tuple(values)


def parse_roll_groups(text: str) -> list[list[int]]:
    """Damage-roll totals typed from the table: rolls separated by commas or spaces, one
    group per target separated by semicolons ("7, 9; 5")."""
    groups: list[list[int]] = []
    for chunk in text.split(";"):
        values = [p for p in re.split(r"[\s,]+", chunk.strip()) if p]
        group: list[int] = []
        for value in values:
            if not re.fullmatch(r"-?\d+", value):
                raise ValueError(f"{value!r} is not a damage roll total (a whole number)")
            group.append(int(value))
        groups.append(group)
    if all(not group for group in groups):
        raise ValueError("type the damage roll totals, e.g. 7, 9")
    return groups


def _signed(value: int) -> str:
    return f"{value:+d}"


def _join(items: Iterable[object]) -> str:
    return ", ".join(str(i) for i in items)


# ===================================================================== row status


@dataclass(frozen=True)
class CombatantStatus:
    """What a combatant's row shows, computed from stored inputs only."""

    name: str
    state: WoundState
    damage: int
    hp: int
    thresholds: WoundThresholds
    penalty: int
    conditions: tuple[str, ...]
    can_act: bool
    dying_roll_due: bool


def _condition_text(
    condition: Condition, encounter: Encounter, now: GameTime, round_number: int
) -> str:
    label = condition.label
    same_fight = condition.encounter_id == encounter.id and condition.started_round is not None
    if condition.kind is ConditionKind.BLEEDING:
        if same_fight and condition.started_round is not None:
            start = condition.started_round
            due = next_bleed_round(start, round_number)
            return f"{label} (-1 in {due - round_number} rd)"
        if condition.started_at is not None:
            minute = BLEED_INTERVAL_ROUNDS * ROUND_SECONDS
            elapsed = now.total_seconds - condition.started_at.total_seconds
            left = minute - elapsed % minute if elapsed >= 0 else minute - elapsed
            return f"{label} (-1 in {-(-left // ROUND_SECONDS)} rd)"
        return label
    if condition.expires_at is not None:
        seconds = now.seconds_until(condition.expires_at)
        if seconds <= 0:
            return f"{label} (expired)"
        if seconds >= 3600:
            return f"{label} ({seconds // 3600} h {seconds % 3600 // 60} min left)"
        return f"{label} ({max(1, seconds // ROUND_SECONDS)} rd left)"
    if condition.kind is ConditionKind.DEAD:
        return label
    if same_fight and condition.started_round is not None:
        return f"{label} ({round_number - condition.started_round} rd)"
    return label


def dying_roll_due(
    campaign: Campaign, encounter: Encounter, combatant: Combatant,
    character: Character | None = None, state: WoundState | None = None,
) -> bool:
    """Dying and not yet rolled for this round (the log is the record of rolls made)."""
    if not encounter.started or encounter.ended or combatant.out_of_fight:
        return False
    if character is None:
        character = campaign.combatant_character(combatant)
    if state is None:
        state = _state(campaign, character)
    if state is not WoundState.DYING:
        return False
    if _has_active(character, ConditionKind.STABILISED, campaign.game_time):
        return False
    return not any(
        entry.round == encounter.round
        and entry.target_id == combatant.id
        and entry.action == "Dying roll"
        for entry in reversed(encounter.log)
    )


def combatant_status(
    campaign: Campaign, encounter: Encounter, combatant: Combatant,
    character: Character | None = None,
) -> CombatantStatus:
    """Name, wound state and the conditions with their timers for a combatant's row."""
    if character is None:
        character = campaign.combatant_character(combatant)
    hp = character.hit_points
    thresholds = wound_thresholds(hp, campaign.rules_options.threshold_basis,
                                  character.characteristics.physical)
    dead = character.has_condition(ConditionKind.DEAD)
    state = WoundState.DEAD if dead else wound_state(character.damage, hp, thresholds)
    now = campaign.game_time
    texts = [_condition_text(c, encounter, now, encounter.round) for c in character.conditions]
    if state is not WoundState.DEAD and not wound_effects(state).conscious:
        texts.insert(0, f"Unconscious ({state.label.lower()})")
    return CombatantStatus(
        name=character.name,
        state=state,
        damage=character.damage,
        hp=hp,
        thresholds=thresholds,
        penalty=wound_modifier(character),
        conditions=tuple(texts),
        can_act=can_act(campaign, combatant, character, state),
        dying_roll_due=dying_roll_due(campaign, encounter, combatant, character, state),
    )


# ===================================================================== building the fight


def add_characters_patch(
    campaign: Campaign, encounter: Encounter, character_ids: Sequence[str], side: Side
) -> EncounterPatch:
    """Bring campaign characters in by reference (their damage stays on their sheets)."""
    present = {c.character_id for c in encounter.combatants}
    builder = PatchBuilder(campaign, encounter)
    index = len(encounter.combatants)
    names = []
    for character_id in character_ids:
        character = campaign.character(character_id)
        if character_id in present:
            raise CombatError(f"{character.name} is already in this encounter")
        present.add(character_id)
        builder.structural(
            InsertCombatant(encounter.id, index, Combatant(character_id=character_id, side=side))
        )
        index += 1
        names.append(character.name)
    if not names:
        raise CombatError("choose at least one character to add")
    builder.log(actor="Referee", action="Join", text=f"{_join(names)} join as {side.label}")
    return builder.build(f"Add {_join(names)}")


def add_adversaries_patch(
    campaign: Campaign,
    encounter: Encounter,
    template: AdversaryTemplate,
    count: int,
    side: Side = Side.ENEMIES,
) -> EncounterPatch:
    """Add ``count`` numbered copies of a library template ("Raider 1".."Raider N"),
    continuing the numbering already used in this encounter."""
    if count < 1:
        raise CombatError(f"add at least one {template.name}, not {count}")
    first = encounter.next_instance_number(template)
    builder = PatchBuilder(campaign, encounter)
    index = len(encounter.combatants)
    names = []
    for offset in range(count):
        instance = template.make_instance(first + offset)
        builder.structural(
            InsertCombatant(encounter.id, index + offset, Combatant(instance=instance, side=side))
        )
        names.append(instance.name)
    shown = names[0] if count == 1 else f"{names[0]}..{names[-1]}"
    builder.log(actor="Referee", action="Join", text=f"{shown} join as {side.label}")
    return builder.build(f"Add {shown}")


def remove_combatants_patch(
    campaign: Campaign, encounter: Encounter, combatant_ids: Sequence[str]
) -> EncounterPatch:
    """Take combatants out; whoever aimed at them loses the aim, and the turn stays with
    whoever had it."""
    doomed = set(combatant_ids)
    if not doomed:
        raise CombatError("choose a combatant to remove")
    builder = PatchBuilder(campaign, encounter)
    order = encounter.initiative_order()
    current = encounter.current_combatant
    for combatant in encounter.combatants:
        if combatant.id not in doomed and combatant.aim_target_id in doomed:
            builder.set(combatant, "aim_target_id", None)
            builder.set(combatant, "aim", 0)
    names = []
    for index in sorted(
        (i for i, c in enumerate(encounter.combatants) if c.id in doomed), reverse=True
    ):
        combatant = encounter.combatants[index]
        names.append(_name(campaign, combatant))
        builder.structural(RemoveCombatant(encounter.id, index, combatant))
    remaining = [c for c in order if c.id not in doomed]
    if current is not None:
        if current.id in doomed:
            before = [c for c in order[: order.index(current)] if c.id not in doomed]
            turn = min(len(before), max(0, len(remaining) - 1))
        else:
            turn = remaining.index(current)
        builder.set_encounter("turn_index", turn)
    elif encounter.turn_index >= len(remaining):
        builder.set_encounter("turn_index", max(0, len(remaining) - 1))
    names.reverse()
    builder.log(actor="Referee", action="Leave", text=f"{_join(names)} removed")
    return builder.build(f"Remove {_join(names)}")


def set_side_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, side: Side
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "side", side)
    return builder.build(f"{_name(campaign, combatant)} fights for the {side.label}")


def set_cover_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, cover: CoverLevel
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "cover", cover)
    name = _name(campaign, combatant)
    builder.log(
        actor_id=combatant.id, actor=name, action="Cover",
        text=f"{name} is in {cover.label} cover ({_signed(int(cover))} Difficulty to hit)",
    )
    return builder.build(f"{name}: {cover.label} cover")


def _sorted_order(combatants: Iterable[Combatant]) -> list[Combatant]:
    """Initiative order as :meth:`Encounter.initiative_order` sorts it."""
    return sorted(combatants, key=lambda c: (c.initiative is None, -(c.initiative or 0)))


def set_out_of_fight_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, out: bool
) -> EncounterPatch:
    """Mark a combatant as having fled or surrendered (or back in); the turn stays with
    whoever had it, or passes to the next in order if they are the one leaving."""
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    current = encounter.current_combatant
    builder.set(combatant, "out_of_fight", out)
    after = _sorted_order(
        c for c in encounter.combatants
        if (not out if c.id == combatant_id else not c.out_of_fight)
    )
    if current is not None and after:
        anchor = current
        if current.id == combatant_id and out:
            before = encounter.initiative_order()
            later = [c for c in before[before.index(current) + 1 :] if c in after]
            anchor = later[0] if later else after[0]
        builder.set_encounter("turn_index", after.index(anchor))
    name = _name(campaign, combatant)
    text = f"{name} is out of the fight" if out else f"{name} is back in the fight"
    builder.log(actor_id=combatant.id, actor=name, action="Out" if out else "Back", text=text)
    return builder.build(text)


def note_patch(campaign: Campaign, encounter: Encounter, text: str) -> EncounterPatch:
    """A referee's free note in the log."""
    if not text.strip():
        raise CombatError("the note is empty")
    builder = PatchBuilder(campaign, encounter)
    builder.log(actor="Referee", action="Note", text=text.strip())
    return builder.build("Add note")


# ===================================================================== initiative


def initiative_from_text(
    character: Character, text: str, skill: str | None = None
) -> tuple[int, tuple[int, ...]]:
    """Initiative typed by the referee: a number is the value itself; two dice ("4 5")
    are the physical 2d6, to which DEX DM, the chosen skill and the wounds are added."""
    cleaned = text.strip()
    if re.fullmatch(r"-?\d+", cleaned):
        return int(cleaned), ()
    try:
        dice = parse_dice_values(cleaned, 2)
    except ValueError:
        raise ValueError(
            f"{text!r} is neither an initiative value (e.g. 11) nor two dice (e.g. 4 5)"
        ) from None
    return initiative_result(character, dice, skill).value, dice


def initiative_patch(
    campaign: Campaign,
    encounter: Encounter,
    combatant_id: str,
    value: int,
    dice: Sequence[int] = (),
) -> EncounterPatch:
    """Set one combatant's initiative by hand (from physical dice or a known value)."""
    combatant = _combatant(encounter, combatant_id)
    if not -MAX_AMOUNT <= value <= MAX_AMOUNT:
        # Refused here: a value the model would reject must never reach the undo stack.
        raise ValueError(
            f"{value} is not a usable initiative: it must lie between {-MAX_AMOUNT:,} "
            f"and {MAX_AMOUNT:,}"
        )
    builder = PatchBuilder(campaign, encounter)
    _keep_turn(builder, encounter, {combatant.id: value})
    builder.set(combatant, "initiative", value)
    builder.set(combatant, "initiative_dice", list(dice))
    name = _name(campaign, combatant)
    shown = f" ({'+'.join(str(d) for d in dice)})" if dice else ""
    builder.log(
        actor_id=combatant.id, actor=name, action="Initiative", dice=list(dice),
        text=f"{name}: initiative {value}{shown} entered",
    )
    return builder.build(f"{name}: initiative {value}")


def _keep_turn(builder: PatchBuilder, encounter: Encounter, values: Mapping[str, int]) -> None:
    """Changing initiatives mid-fight re-sorts the order; the turn stays with its owner."""
    current = encounter.current_combatant
    if current is None:
        return
    active = [c for c in encounter.combatants if not c.out_of_fight]

    def key(c: Combatant) -> tuple[bool, int]:
        value = values.get(c.id, c.initiative)
        return (value is None, -(value or 0))

    order = sorted(active, key=key)  # stable: ties keep list order, as initiative_order
    builder.set_encounter("turn_index", order.index(current))


def roll_initiative_patch(
    campaign: Campaign,
    encounter: Encounter,
    rng: random.Random,
    skill: str | None = None,
    only_missing: bool = False,
) -> EncounterPatch:
    """Everyone rolls 2d6 + DEX DM + their level in ``skill`` (none: no bonus) + wounds."""
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    lines = []
    for combatant in encounter.combatants:
        if combatant.out_of_fight or (only_missing and combatant.initiative is not None):
            continue
        character = campaign.combatant_character(combatant)
        rolled = roll_initiative_result(rng, character, skill)
        values[combatant.id] = rolled.value
        builder.set(combatant, "initiative", rolled.value)
        builder.set(combatant, "initiative_dice", list(rolled.dice))
        lines.append(f"{character.name} {_initiative_text(rolled)}")
    if not values:
        raise CombatError("nobody needs an initiative roll")
    _keep_turn(builder, encounter, values)
    with_skill = f" + {skill}" if skill else ""
    builder.log(actor="Referee", action="Initiative",
                text=f"Initiative 2d6 + DEX DM{with_skill} + wounds: " + "; ".join(lines))
    return builder.build("Roll initiative")


def _initiative_text(rolled: InitiativeResult) -> str:
    """"9 (4+5, DEX DM +1, Wounds -4)" or, for an ambush, "13 (automatic 12, DEX DM +1)"."""
    dice = "+".join(map(str, rolled.dice)) if rolled.dice else "automatic 12"
    return f"{rolled.value} ({dice}, {terms_text(rolled.terms)})"


def ambush_patch(
    campaign: Campaign,
    encounter: Encounter,
    prepared: Side,
    rng: random.Random,
    skill: str | None = None,
) -> EncounterPatch:
    """An ambush: the prepared side counts an automatic 12 (12 + DEX DM); the others roll
    2d6 + DEX DM (+ skill). Wounds count against both (Ch.7: all rolls)."""
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    lines = []
    for combatant in encounter.combatants:
        if combatant.out_of_fight:
            continue
        character = campaign.combatant_character(combatant)
        if combatant.side is prepared:
            rolled = ambush_result(character)
        else:
            rolled = roll_initiative_result(rng, character, skill)
        value = rolled.value
        lines.append(f"{character.name} {_initiative_text(rolled)}")
        values[combatant.id] = value
        builder.set(combatant, "initiative", value)
        builder.set(combatant, "initiative_dice", list(rolled.dice))
    if not values:
        raise CombatError("there is nobody in the encounter")
    _keep_turn(builder, encounter, values)
    builder.log(actor="Referee", action="Ambush",
                text=f"{prepared.label} are prepared: " + "; ".join(lines))
    return builder.build(f"Ambush by the {prepared.label}")


def tactics_modifier(character: Character) -> int:
    """DM of a Tactics check: Tactics level (unskilled -3) + INT DM + wounds
    (:func:`~mneme_desktop.domain.roll_terms.tactics_terms`)."""
    return sum(term.value for term in tactics_terms(character))


def tactics_patch(
    campaign: Campaign,
    encounter: Encounter,
    leader_id: str,
    declared_difficulty: int,
    check: CheckResult,
    unit_ids: Sequence[str],
) -> EncounterPatch:
    """A Tactics check: its Effect (capped by the declared risk) is added to the initiative
    of everyone in the leader's unit in direct communication."""
    leader = _combatant(encounter, leader_id)
    bonus = tactics_initiative_bonus(check.effect, declared_difficulty)
    builder = PatchBuilder(campaign, encounter)
    values: dict[str, int] = {}
    names = []
    for combatant_id in unit_ids:
        member = _combatant(encounter, combatant_id)
        if member.initiative is None:
            raise CombatError(f"{_name(campaign, member)} has no initiative yet: roll it first")
        values[member.id] = member.initiative + bonus
        builder.set(member, "initiative", member.initiative + bonus)
        names.append(_name(campaign, member))
    if not names:
        raise CombatError("choose the unit that hears the leader")
    _keep_turn(builder, encounter, values)
    name = _name(campaign, leader)
    wounds = wound_terms(campaign.combatant_character(leader))
    wounded = f" (DM {_signed(check.modifier)}, {terms_text(wounds)} in it)" if wounds else ""
    builder.log(
        actor_id=leader.id, actor=name, action="Tactics", action_kind=ActionKind.SIGNIFICANT,
        dice=list(check.dice), modifier=check.modifier, difficulty=check.difficulty,
        effect=check.effect,
        state_changes=[f"{n}: initiative {_signed(bonus)}" for n in names],
        text=f"Tactics at Difficulty {declared_difficulty}{wounded}: Effect "
        f"{_signed(check.effect)}, "
        f"capped to {_signed(bonus)} for {_join(names)}",
    )
    return builder.build(f"{name}: Tactics {_signed(bonus)}")


def initiative_ties(order: Sequence[Combatant]) -> dict[str, tuple[int, int]]:
    """For each combatant tied on initiative: (place in the tie, size of the tie).

    Ties act in the order the combatants were added; the referee may reorder them.
    """
    groups: dict[int, list[str]] = {}
    for combatant in order:
        if combatant.initiative is not None:
            groups.setdefault(combatant.initiative, []).append(combatant.id)
    ties: dict[str, tuple[int, int]] = {}
    for members in groups.values():
        if len(members) > 1:
            for place, member in enumerate(members, start=1):
                ties[member] = (place, len(members))
    return ties


def move_in_ties_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, step: int
) -> EncounterPatch:
    """Move a combatant one place earlier (step -1) or later (+1) among those tied with it."""
    combatant = _combatant(encounter, combatant_id)
    order = encounter.initiative_order()
    tied = [c for c in order if c.initiative == combatant.initiative and c.initiative is not None]
    place = tied.index(combatant) if combatant in tied else -1
    if len(tied) < 2 or not 0 <= place + step < len(tied):
        raise CombatError(
            f"{_name(campaign, combatant)} is not tied with anyone in that direction: "
            "only ties can be reordered (change the initiative instead)"
        )
    other = tied[place + step]
    from_index = encounter.combatants.index(combatant)
    # Inserting at the other's index lands before it when moving up, after it when down.
    to_index = encounter.combatants.index(other)
    builder = PatchBuilder(campaign, encounter)
    builder.structural(MoveCombatant(encounter.id, from_index, to_index))
    current = encounter.current_combatant
    if current is not None:
        moved = list(encounter.combatants)
        moved.insert(to_index, moved.pop(from_index))
        new_order = _sorted_order(c for c in moved if not c.out_of_fight)
        builder.set_encounter("turn_index", new_order.index(current))
    direction = "before" if step < 0 else "after"
    text = f"{_name(campaign, combatant)} acts {direction} {_name(campaign, other)}"
    builder.log(actor="Referee", action="Tie", text=f"Tie on {combatant.initiative}: {text}")
    return builder.build(text)


# ===================================================================== turns and rounds


def _first_able(
    campaign: Campaign, order: Sequence[Combatant], start: int,
    builder: PatchBuilder | None = None,
) -> int | None:
    """The first place from ``start`` whose combatant can act (judged on the sheets as
    ``builder`` has left them, if given)."""
    for index in range(start, len(order)):
        combatant = order[index]
        sheet = builder.character(combatant) if builder is not None else None
        if can_act(campaign, combatant, sheet):
            return index
    return None


def start_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """Round 1 begins with the highest initiative; the clock starts."""
    if encounter.started and not encounter.ended:
        raise CombatError("the encounter is already under way")
    order = encounter.initiative_order()
    if not order:
        raise CombatError("add combatants before starting the encounter")
    missing = [_name(campaign, c) for c in order if c.initiative is None]
    if len(missing) == len(order):
        raise CombatError("roll or enter initiative before starting the encounter")
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("round", 1)
    builder.set_encounter("ended", False)
    builder.set_encounter("started_at", campaign.game_time)
    builder.set_encounter("turn_index", _first_able(campaign, order, 0) or 0)
    for combatant in encounter.combatants:
        builder.set(combatant, "actions_spent", 0)
        builder.set(combatant, "delayed", False)
    text = "Round 1 begins"
    if missing:
        text += f"; without initiative, acting last: {_join(missing)}"
    builder.log(actor="Referee", action="Round", text=text)
    return builder.build("Start encounter")


def _require_running(encounter: Encounter) -> None:
    if not encounter.started:
        raise CombatError("start the encounter first")
    if encounter.ended:
        raise CombatError("the encounter has ended")


def next_turn_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """Pass the turn to the next combatant who can act; past the last, a new round."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    if _advance(builder, rng, auto_dying):
        return builder.build(f"Round {builder.round}")
    current = encounter.initiative_order()[builder.turn_index]
    return builder.build(f"Next turn: {_name(campaign, current)}")


def _advance(builder: PatchBuilder, rng: random.Random, auto_dying: bool) -> bool:
    """Move the turn on; True when that began a new round."""
    order = builder.encounter.initiative_order()
    following = _first_able(builder.campaign, order, builder.turn_index + 1, builder)
    if following is not None:
        builder.set_encounter("turn_index", following)
        return False
    _new_round(builder, rng, auto_dying)
    return True


def previous_turn_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """Back to the previous combatant in this round. Earlier rounds are reached with Undo,
    which also takes back that round's bleeding and dying rolls."""
    _require_running(encounter)
    order = encounter.initiative_order()
    index = min(encounter.turn_index, len(order) - 1) - 1
    while index >= 0 and not can_act(campaign, order[index]):
        index -= 1
    if index < 0:
        raise CombatError(
            "this is the first turn of the round: use Undo (Ctrl+Z) to go back into the "
            "previous round"
        )
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("turn_index", index)
    return builder.build(f"Previous turn: {_name(campaign, order[index])}")


def end_round_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """Everyone has acted (or passes): the referee declares the round over."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    _new_round(builder, rng, auto_dying)
    return builder.build(f"End round {encounter.round}")


def delay_patch(
    campaign: Campaign, encounter: Encounter, rng: random.Random, auto_dying: bool = True
) -> EncounterPatch:
    """The current combatant holds their turn: marked delayed, the turn passes on. They act
    later this round by taking actions from their row (which clears the mark); an unused
    delay is lost when the round ends."""
    _require_running(encounter)
    current = encounter.current_combatant
    if current is None:
        raise CombatError("nobody has the turn")
    name = _name(campaign, current)
    builder = PatchBuilder(campaign, encounter)
    builder.set(current, "delayed", True)
    entry = builder.log(actor_id=current.id, actor=name, action="Delay",
                        text=f"{name} delays; act later this round from their row")
    if _advance(builder, rng, auto_dying):
        entry.text = f"{name} delays at the end of the round: the delay is lost"
    return builder.build(f"{name} delays")


def loose_ends(campaign: Campaign, encounter: Encounter) -> tuple[str, ...]:
    """Who leaves the fight dying, bleeding, stabilised or mid-task: what the referee is
    asked to confirm before "End fight", and what the log keeps of it."""
    lines: list[str] = []
    now = campaign.game_time
    for combatant in encounter.combatants:
        character = campaign.combatant_character(combatant)
        if _has_active(character, ConditionKind.DEAD, now):
            continue
        notes: list[str] = []
        if _state(campaign, character) is WoundState.DYING:
            stable = _has_active(character, ConditionKind.STABILISED, now)
            notes.append("dying, stabilised" if stable else "dying")
        elif _has_active(character, ConditionKind.STABILISED, now):
            notes.append("stabilised")
        if _has_active(character, ConditionKind.BLEEDING, now):
            notes.append("bleeding")
        task = combatant.extended_task
        if task is not None:
            notes.append(f"mid-task ({task.description})")
        if notes:
            lines.append(f"{character.name}: {', '.join(notes)}")
    return tuple(lines)


def end_encounter_patch(campaign: Campaign, encounter: Encounter) -> EncounterPatch:
    """End the fight; whoever is left dying, bleeding, stabilised or mid-task is logged."""
    _require_running(encounter)
    builder = PatchBuilder(campaign, encounter)
    builder.set_encounter("ended", True)
    text = f"Encounter ends in round {encounter.round}"
    ends = loose_ends(campaign, encounter)
    if ends:
        text += ". Left open: " + "; ".join(ends)
    builder.log(actor="Referee", action="End", text=text)
    return builder.build("End encounter")


def bleeding_ticks(
    condition: Condition, encounter: Encounter, from_round: int, to_round: int,
    from_time: GameTime, to_time: GameTime,
) -> int:
    """Points bled between two moments: 1 a minute, the first a minute after the wound.

    A wound taken in this encounter counts in rounds (10 rounds a minute, from its round);
    one from elsewhere counts in game time from when it started.
    """
    if condition.kind is not ConditionKind.BLEEDING:
        return 0
    if condition.encounter_id == encounter.id and condition.started_round is not None:
        return bleeding_damage_between(condition.started_round, from_round, to_round)
    if condition.started_at is None:
        return 0
    start = condition.started_at.total_seconds
    minute = BLEED_INTERVAL_ROUNDS * ROUND_SECONDS

    def ticks(moment: GameTime) -> int:
        return max(0, (moment.total_seconds - start) // minute)

    return ticks(to_time) - ticks(from_time)


def _new_round(builder: PatchBuilder, rng: random.Random, auto_dying: bool) -> None:
    """A new round: actions back, the clock moves six seconds, bleeding and dying tick."""
    campaign, encounter = builder.campaign, builder.encounter
    old_round, old_time = builder.round, builder.now
    new_round = old_round + 1
    new_time = old_time.advance(rounds=1)
    builder.set_encounter("round", new_round)
    builder.set_time(new_time)
    for combatant in encounter.combatants:
        if builder.get(combatant, "actions_spent"):
            builder.set(combatant, "actions_spent", 0)
        if builder.get(combatant, "delayed"):
            builder.set(combatant, "delayed", False)
    builder.log(actor="Referee", action="Round", text=f"Round {new_round} begins")
    order = encounter.initiative_order()
    for combatant in order:
        character = builder.character(combatant)
        bleeding = sorted(
            character.conditions_of(ConditionKind.BLEEDING),
            key=lambda c: (c.started_round or 0, c.started_at or GameTime()),
        )
        if bleeding and _state(campaign, character) is not WoundState.DEAD:
            points = bleeding_ticks(bleeding[0], encounter, old_round, new_round,
                                    old_time, new_time)
            if points:
                _bleed(builder, combatant, points, new_round, new_time)
        if auto_dying:
            character = builder.character(combatant)
            if (
                character.damage > character.hit_points
                and _state(campaign, character) is WoundState.DYING
                and not _has_active(character, ConditionKind.STABILISED, new_time)
            ):
                _dying_outcome(builder, combatant, _roll_survival(
                    character, DYING_DIFFICULTY, rng=rng), "rolled")
    builder.set_encounter("turn_index", _first_able(campaign, order, 0, builder) or 0)


def _bleed(
    builder: PatchBuilder, combatant: Combatant, points: int, round_number: int, now: GameTime
) -> None:
    before = _state(builder.campaign, builder.character(combatant))
    character = builder.edit_character(combatant)
    character.damage += points
    character.damage_history.append(
        DamageRecord(amount=points, source="Bleeding", at=now, round=round_number,
                     encounter_id=builder.encounter.id)
    )
    after = _state(builder.campaign, character)
    changes = [_state_note(character, after)] if after is not before else []
    builder.log(
        actor="Bleeding", target_id=combatant.id, target=character.name, action="Bleeding",
        damage=[1] * points, state_changes=changes,
        text=f"{character.name} bleeds: {points} damage (1 a minute until first aid)",
    )


def _dying_outcome(
    builder: PatchBuilder, combatant: Combatant, roll: SurvivalRoll, how: str
) -> None:
    character = builder.character(combatant)
    check = roll.check
    changes = []
    if not roll.survived:
        edited = builder.edit_character(combatant)
        edited.conditions.append(
            Condition(kind=ConditionKind.DEAD, detail="failed dying roll",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        changes.append(f"{character.name}: Dead")
    verdict = "survives the round" if roll.survived else "dies"
    builder.log(
        actor=character.name, actor_id=combatant.id, target_id=combatant.id,
        target=character.name, action="Dying roll", dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=changes,
        text=f"Dying roll ({how}): DM {_signed(check.modifier)} "
        f"({terms_text(survival_terms(character))}) vs "
        f"{DYING_DIFFICULTY}: {check.total}, {character.name} {verdict}",
    )


def _roll_survival(
    character: Character, difficulty: int, rng: random.Random | None = None,
    dice: Sequence[int] | None = None,
) -> SurvivalRoll:
    """A dying (vs 4) or massive-damage (vs 8) roll: END DM with the wounds of
    :func:`~mneme_desktop.domain.roll_terms.survival_terms`, rolled or from the table."""
    modifier = sum(term.value for term in survival_terms(character))
    if dice is not None:
        return SurvivalRoll(check_from_dice(dice, modifier, difficulty))
    if rng is None:
        raise ValueError("a survival roll needs a random generator or the dice rolled")
    return SurvivalRoll(roll_check(rng, modifier, difficulty))


def dying_roll_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str,
    rng: random.Random | None = None, dice: Sequence[int] | None = None,
) -> EncounterPatch:
    """This round's dying roll (END vs 4 with wound penalties), rolled or from the table."""
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    if _state(campaign, character) is not WoundState.DYING:
        raise CombatError(f"{character.name} is not dying")
    if dice is None and rng is None:
        raise ValueError("a dying roll needs a random generator or the dice rolled")
    roll = _roll_survival(character, DYING_DIFFICULTY, rng, dice)
    how = "dice at the table" if dice is not None else "rolled"
    builder = PatchBuilder(campaign, encounter)
    _dying_outcome(builder, combatant, roll, how)
    return builder.build(f"{character.name}: dying roll")


def _massive_outcome(
    builder: PatchBuilder, combatant: Combatant, roll: SurvivalRoll, how: str
) -> list[str]:
    character = builder.edit_character(combatant)
    if roll.survived:
        character.conditions.append(
            Condition(kind=ConditionKind.CRIPPLED, detail="massive damage",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        result = [f"{character.name}: survives massive damage, Crippled"]
    else:
        character.conditions.append(
            Condition(kind=ConditionKind.DEAD, detail="massive damage",
                      started_at=builder.now, started_round=builder.round,
                      encounter_id=builder.encounter.id)
        )
        result = [f"{character.name}: Dead (massive damage)"]
    check = roll.check
    builder.log(
        actor=character.name, actor_id=combatant.id, target_id=combatant.id,
        target=character.name, action="Massive damage roll", dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=result,
        text=f"Massive damage roll ({how}): DM {_signed(check.modifier)} "
        f"({terms_text(survival_terms(character))}) vs {MASSIVE_DAMAGE_DIFFICULTY}: "
        f"{check.total}",
    )
    return result


def massive_damage_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str,
    rng: random.Random | None = None, dice: Sequence[int] | None = None,
) -> EncounterPatch:
    """A massive-damage roll (END vs 8 with wound penalties) asked for by the referee."""
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    if dice is None and rng is None:
        raise ValueError("a massive-damage roll needs a random generator or the dice rolled")
    roll = _roll_survival(character, MASSIVE_DAMAGE_DIFFICULTY, rng, dice)
    how = "dice at the table" if dice is not None else "rolled"
    builder = PatchBuilder(campaign, encounter)
    _massive_outcome(builder, combatant, roll, how)
    return builder.build(f"{character.name}: massive damage roll")


# ===================================================================== conditions


def add_condition_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, kind: ConditionKind,
    detail: str = "",
) -> EncounterPatch:
    """The referee marks a condition (stunned, unconscious, crippled ...) from this round."""
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    character.conditions.append(
        Condition(kind=kind, detail=detail.strip(), started_at=campaign.game_time,
                  started_round=encounter.round, encounter_id=encounter.id)
    )
    label = character.conditions[-1].label
    builder.log(actor="Referee", target_id=combatant.id, target=character.name,
                action="Condition", state_changes=[f"{character.name}: {label}"],
                text=f"{character.name} is {label.lower()}")
    return builder.build(f"{character.name}: {label}")


def remove_condition_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, index: int
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    if not 0 <= index < len(character.conditions):
        raise CombatError("that condition is no longer there")
    removed = character.conditions.pop(index)
    builder.log(actor="Referee", target_id=combatant.id, target=character.name,
                action="Condition", state_changes=[f"{character.name}: no longer {removed.label}"],
                text=f"{character.name}: {removed.label} ends")
    return builder.build(f"{character.name}: {removed.label} ends")


def set_damage_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, damage: int,
    gesture: str | None = None, start: int | None = None,
) -> EncounterPatch:
    """The referee sets the damage directly (dragging the HP bar); logged as a correction.

    Every step of one ``gesture`` (a press and its drag) carries the same merge key and the
    damage the gesture started from, so the merged step logs one line: start to final."""
    if damage < 0:
        raise CombatError("damage cannot be negative")
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    character = builder.edit_character(combatant)
    old = character.damage if start is None else start
    character.damage = damage
    name = character.name
    key = f"damage:{combatant_id}:{gesture}" if gesture is not None else None
    builder.log(actor="Referee", target_id=combatant.id, target=name, action="Damage",
                text=f"{name}: damage set from {old} to {damage}")
    return builder.build(f"{name}: damage {damage}", merge_key=key)


# ===================================================================== action economy


class PlanOutcome(Enum):
    """Plan/Wait: advantage if the prediction came true, disadvantage if not."""

    NONE = "none"
    CORRECT = "correct"
    WRONG = "wrong"


def _options_text(options: Iterable[ActionOption]) -> str:
    return "; ".join(f"{o.label}: {o.roll_effect}" for o in options)


def _spend(
    builder: PatchBuilder, combatant: Combatant, kind: ActionKind, what: str
) -> int:
    spent = builder.get_int(combatant, "actions_spent")
    try:
        after = spend(spent, kind)
    except ValueError as exc:
        name = builder.character(combatant).name
        raise CombatError(f"{name} cannot {what}: {exc}") from None
    builder.set(combatant, "actions_spent", after)
    builder.set(combatant, "delayed", False)
    return after


def _kind_for_cost(cost: int) -> ActionKind:
    return {0: ActionKind.FREE, 1: ActionKind.MINOR, 2: ActionKind.SIGNIFICANT,
            3: ActionKind.FULL}[cost]


def take_action_patch(
    campaign: Campaign,
    encounter: Encounter,
    combatant_id: str,
    action_key: str,
    options: Sequence[ActionOption] = (),
    note: str = "",
) -> EncounterPatch:
    """Spend the minor actions an action from the chapter's catalog costs; overspending is
    refused with the reason. Options (reckless, coordinating, plan/wait) are recorded with
    their effect on the roll."""
    action: ActionDef = action_by_key(action_key)
    combatant = _combatant(encounter, combatant_id)
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, action.kind, f"take {action.name}")
    name = _name(campaign, combatant)
    text = f"{name}: {action.name} ({action.kind.label}, {action.kind.cost} minor)"
    if options:
        text += f". Options: {_options_text(options)}"
    if note.strip():
        text += f". {note.strip()}"
    builder.log(actor_id=combatant.id, actor=name, action=action.name,
                action_kind=action.kind, text=text)
    return builder.build(f"{name}: {action.name}")


def aim_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, target_id: str,
    weapon_index: int | None = None,
) -> EncounterPatch:
    """One Aim minor action at ``target_id`` with the weapon chosen for the next attack
    (``weapon_index``, default the first): +1, or that weapon's Aim modifier, up to six aim
    actions' worth; kept across rounds, lost on changing target."""
    combatant = _combatant(encounter, combatant_id)
    target = _combatant(encounter, target_id)
    if target.id == combatant.id:
        raise CombatError("a combatant cannot aim at themselves")
    try:
        weapon = aim_weapon(campaign.combatant_character(combatant), weapon_index)
    except ValueError as exc:
        raise CombatError(str(exc)) from None
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, ActionKind.MINOR, "aim")
    changed = combatant.aim_target_id not in (None, target.id)
    current = 0 if changed else combatant.aim
    new = add_aim(current, weapon.aim_modifier if weapon is not None else 0)
    builder.set(combatant, "aim", new)
    builder.set(combatant, "aim_target_id", target.id)
    name, target_name = _name(campaign, combatant), _name(campaign, target)
    lost = f" (aim of +{combatant.aim} on the old target lost)" if changed and combatant.aim else ""
    capped = " (at the cap)" if new == current else ""
    builder.log(actor_id=combatant.id, actor=name, action="Aim", action_kind=ActionKind.MINOR,
                target_id=target.id, target=target_name,
                text=f"{name} aims at {target_name}: +{new} ({aim_cap_text(weapon)})"
                f"{capped}{lost}")
    return builder.build(f"{name}: aim +{new}")


def stance_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, stance: Stance
) -> EncounterPatch:
    """Change stance for its cost in minor actions (prone to crouched is 2)."""
    combatant = _combatant(encounter, combatant_id)
    cost = stance_change_cost(combatant.stance, stance)
    if cost == 0:
        raise CombatError(f"already {stance.value}")
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, _kind_for_cost(cost), f"go {stance.value} ({cost} minor actions)")
    builder.set(combatant, "stance", stance)
    name = _name(campaign, combatant)
    builder.log(actor_id=combatant.id, actor=name, action="Changing Stance",
                action_kind=_kind_for_cost(cost),
                text=f"{name}: {combatant.stance.value} to {stance.value} ({cost} minor)")
    return builder.build(f"{name}: {stance.value}")


def movement_options(
    campaign: Campaign, combatant: Combatant, scale_m: float = 1.5
) -> list[tuple[MovementMode, int | None, Fraction | None]]:
    """Spaces and metres of Move, Dash and Run for this combatant's load, stance and wounds
    (the Ch.6 movement table; None where the table says NA or wounds forbid it)."""
    character = campaign.combatant_character(combatant)
    seriously = _state(campaign, character) is WoundState.SERIOUSLY_WOUNDED
    return list(_movement(character.load, combatant.stance, scale_m, seriously))


@functools.lru_cache(maxsize=64)
def _movement(
    load: Load, stance: Stance, scale_m: float, seriously: bool
) -> tuple[tuple[MovementMode, int | None, Fraction | None], ...]:
    return tuple(
        (
            mode,
            movement_spaces(mode, load, stance, scale_m, seriously),
            movement_metres(mode, load, stance, scale_m, seriously),
        )
        for mode in MovementMode
    )


def move_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, mode: MovementMode,
    scale_m: float = 1.5,
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    character = campaign.combatant_character(combatant)
    options = {m: (s, metres) for m, s, metres in movement_options(campaign, combatant, scale_m)}
    spaces, metres = options[mode]
    name = character.name
    if spaces is None or metres is None:
        raise CombatError(
            f"{name} cannot {mode.value} ({character.load.value} load, "
            f"{combatant.stance.value}, {_state(campaign, character).label.lower()})"
        )
    builder = PatchBuilder(campaign, encounter)
    _spend(builder, combatant, mode.action_kind, mode.value)
    builder.log(actor_id=combatant.id, actor=name, action=mode.value.capitalize(),
                action_kind=mode.action_kind,
                text=f"{name}: {mode.value} {spaces} spaces ({float(metres):g} m), "
                f"{character.load.value} load, {combatant.stance.value}")
    return builder.build(f"{name}: {mode.value}")


# ===================================================================== extended actions


def first_aid_modifier(character: Character) -> int:
    """DM of a first-aid check: the medic's DM the Healing view uses too (Medic level,
    unskilled -3, + EDU DM + wound penalty); the referee can change it."""
    return medic_modifier(character).total


def start_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, description: str,
    rounds: int = FIRST_AID_ROUNDS, target_id: str | None = None, first_aid: bool = False,
) -> EncounterPatch:
    """Begin an extended action (first aid: 30 rounds) that fills the combatant's rounds."""
    combatant = _combatant(encounter, combatant_id)
    if combatant.extended_task is not None:
        raise CombatError(
            f"{_name(campaign, combatant)} is already busy with "
            f"{combatant.extended_task.description}: finish or abort it first"
        )
    if target_id is not None:
        _combatant(encounter, target_id)
    if first_aid and target_id is None:
        raise CombatError("first aid needs a patient")
    task = ExtendedTask.from_rules(description, ExtendedAction.start(rounds))
    task = task.model_copy(update={"target_id": target_id, "first_aid": first_aid})
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "extended_task", task)
    name = _name(campaign, combatant)
    builder.log(actor_id=combatant.id, actor=name, action="Extended action",
                action_kind=ActionKind.FULL, target_id=target_id,
                target=_name(campaign, _combatant(encounter, target_id)) if target_id else "",
                text=f"{name} starts {description} ({rounds} rounds)")
    return builder.build(f"{name}: start {description}")


def work_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str, check: CheckResult
) -> EncounterPatch:
    """One round on the extended action (a full action): it counts one round, the Success
    Effect shortens what is left, a Fail Effect loses progress. Completed first aid heals
    its Effect (at least 1), stops bleeding and stabilises a dying patient for END hours."""
    combatant = _combatant(encounter, combatant_id)
    task = combatant.extended_task
    if task is None:
        raise CombatError(f"{_name(campaign, combatant)} has no extended action under way")
    builder = PatchBuilder(campaign, encounter)
    name = _name(campaign, combatant)
    _spend(builder, combatant, ActionKind.FULL, f"work on {task.description}")
    progress = task.to_rules().advance(check.effect)
    changes: list[str] = []
    if progress.done:
        builder.set(combatant, "extended_task", None)
        changes.append(f"{name}: {task.description} complete")
        if task.first_aid and task.target_id is not None:
            changes += _complete_first_aid(builder, _combatant(encounter, task.target_id), check)
    else:
        builder.set(combatant, "extended_task", task.model_copy(update={
            "remaining_rounds": progress.remaining_rounds,
            "rounds_taken": progress.rounds_taken,
        }))
    builder.log(
        actor_id=combatant.id, actor=name, action=task.description,
        action_kind=ActionKind.FULL, target_id=task.target_id, dice=list(check.dice),
        modifier=check.modifier, difficulty=check.difficulty, effect=check.effect,
        state_changes=changes,
        text=f"{task.description}: Effect {_signed(check.effect)}, "
        f"{progress.remaining_rounds} of {task.total_rounds} rounds left",
    )
    return builder.build(f"{name}: {task.description}")


def _complete_first_aid(
    builder: PatchBuilder, patient: Combatant, check: CheckResult
) -> list[str]:
    character = builder.edit_character(patient)
    healed = min(character.damage, first_aid_healing(max(0, check.effect)))
    changes = []
    before = _state(builder.campaign, character)
    character.damage -= healed
    if healed:
        changes.append(f"{character.name}: first aid heals {healed}")
    if character.has_condition(ConditionKind.BLEEDING):
        character.conditions = [
            c for c in character.conditions if c.kind is not ConditionKind.BLEEDING
        ]
        changes.append(f"{character.name}: bleeding stopped")
    if _state(builder.campaign, character) is WoundState.DYING or before is WoundState.DYING:
        endurance = character.characteristic(Characteristic.END) or 0
        if _state(builder.campaign, character) is WoundState.DYING:
            character.conditions.append(Condition(
                kind=ConditionKind.STABILISED, detail="first aid", started_at=builder.now,
                started_round=builder.round, encounter_id=builder.encounter.id,
                expires_at=builder.now.advance(hours=endurance),
            ))
            changes.append(f"{character.name}: stabilised for {endurance} hours")
    after = _state(builder.campaign, character)
    if after is not before:
        changes.append(_state_note(character, after))
    return changes


def abort_task_patch(
    campaign: Campaign, encounter: Encounter, combatant_id: str
) -> EncounterPatch:
    combatant = _combatant(encounter, combatant_id)
    task = combatant.extended_task
    if task is None:
        raise CombatError(f"{_name(campaign, combatant)} has no extended action to abort")
    builder = PatchBuilder(campaign, encounter)
    builder.set(combatant, "extended_task", None)
    name = _name(campaign, combatant)
    builder.log(actor_id=combatant.id, actor=name, action="Abort",
                text=f"{name} aborts {task.description} "
                f"({task.remaining_rounds} of {task.total_rounds} rounds were left)")
    return builder.build(f"{name}: abort {task.description}")


# ===================================================================== attacks


class AttackMode(Enum):
    ATTACK = "attack"
    DEFEND = "defend"


def armor_of(character: Character) -> tuple[int, Scale]:
    """Worn armor in plain AR (the ratings of every worn piece add up) and the largest
    scale among them, which is the scale the wearer counts as for scale immunity."""
    total = 0
    scale = Scale.NONE
    for armor in character.worn_armor:
        total += scaled_armor(armor.rating, armor.scale)
        if armor.scale.multiplier > scale.multiplier:
            scale = armor.scale
    return total, scale


@dataclass(frozen=True)
class AttackTarget:
    combatant_id: str
    name: str
    hp: int
    damage: int
    endurance: int
    armor: int
    scale: Scale
    rate_share: int
    """Damage rolls kept against this target (its part of the declared rate of attack)."""


@dataclass(frozen=True)
class Defence:
    """The attacker's mitigating factors against a Fail Effect, in Ch.7 order."""

    conditions: int = 0
    cover: int = 0
    cover_name: str = ""
    cover_item: int | None = None
    """Index of the attacker's cover item (shield) that takes the absorbed rolls."""
    skill: int = 0
    doubled: DefenseKind | None = None

    @property
    def effective(self) -> tuple[int, int, int]:
        """(conditions, cover, skill) after a Defend action doubles one; cover and
        concealment never exceed 4 that way."""
        conditions, cover, skill = self.conditions, self.cover, self.skill
        if self.doubled is DefenseKind.CONCEALMENT:
            conditions = max(conditions, defend_modifier(conditions, DefenseKind.CONCEALMENT))
        elif self.doubled is DefenseKind.COVER:
            cover = max(cover, defend_modifier(cover, DefenseKind.COVER))
        elif self.doubled is DefenseKind.SKILL:
            skill = defend_modifier(skill, DefenseKind.SKILL)
        return conditions, cover, skill


@dataclass(frozen=True)
class ReturnFire:
    """What hits the attacker on a Fail Effect: the opponents' weapon and their total rate
    of attack (None: unlimited)."""

    source: str
    dice: DiceExpression
    rate_of_attack: int | None


@dataclass(frozen=True)
class AttackSpec:
    """Everything an attack roll needs, declared before rolling."""

    attacker_id: str
    attacker_name: str
    attacker_hp: int
    attacker_damage: int
    attacker_endurance: int
    attacker_armor: int
    attacker_scale: Scale
    weapon: str
    dice: DiceExpression
    rate_of_attack: int
    modifiers: tuple[Modifier, ...]
    difficulty: DifficultyBreakdown
    targets: tuple[AttackTarget, ...]
    advantages: int = 0
    disadvantages: int = 0
    location: HitLocation | None = None
    mode: AttackMode = AttackMode.ATTACK
    reckless: bool = False
    costly_success: bool = False
    defence: Defence = field(default_factory=Defence)
    return_fire: ReturnFire | None = None
    options: tuple[str, ...] = ()
    refusal: str = ""
    """Why the attacker cannot make this attack now (no actions left); "" when they can.
    The odds are still shown, but it cannot be rolled."""

    def __post_init__(self) -> None:
        if self.mode is AttackMode.ATTACK:
            if not self.targets:
                raise CombatError("choose at least one target")
            shares = [t.rate_share for t in self.targets]
            if min(shares) < 1:
                raise CombatError("every target needs at least one of the weapon's attacks")
            if sum(shares) > self.rate_of_attack:
                raise CombatError(
                    f"{self.weapon} has a rate of attack of {self.rate_of_attack}: it cannot "
                    f"make {sum(shares)} attacks (split among {len(shares)} targets)"
                )

    @property
    def roll_terms(self) -> tuple[Modifier, ...]:
        """The DMs of the roll, reckless and a doubled-skill defence included."""
        terms = list(self.modifiers)
        if self.reckless:
            terms.append(Modifier("Reckless action", RECKLESS_ROLL_BONUS, "Ch.6 action options"))
        if self.mode is AttackMode.DEFEND and self.defence.doubled is DefenseKind.SKILL:
            terms.append(Modifier("Defend: skill doubled", self.defence.skill, "Ch.6 defend"))
        return tuple(terms)

    @property
    def roll_modifier(self) -> int:
        return sum(term.value for term in self.roll_terms)

    @property
    def net_advantage(self) -> int:
        return net_advantage(self.advantages, self.disadvantages)


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

    @property
    def total(self) -> int:
        return 0 if self.result is None else self.result.total


@dataclass(frozen=True)
class Harm:
    """A Fail Effect turned into damage rolls against the attacker and their cover."""

    fail_effect: int
    mitigation: Mitigation
    cover: DamageResult | None
    attacker: DamageResult | None
    immune: bool = False
    massive: SurvivalRoll | None = None

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


@dataclass(frozen=True)
class AttackRequest:
    """The referee's choices in the attack resolver, before the rules make a spec of them."""

    attacker_id: str
    weapon_index: int
    targets: tuple[tuple[str, int], ...]
    """(combatant id, damage rolls kept against it) for each target."""
    characteristic: Characteristic | None = None
    base_difficulty: int = DEFAULT_DIFFICULTY
    cover: CoverLevel | None = None
    """The targets' cover; None: as set on their rows (the usual case)."""
    concealment: CoverLevel = CoverLevel.NONE
    close_quarters: bool = False
    range_mod: int = 0
    superiority: int = 0
    location: HitLocation | None = None
    advantages: int = 0
    disadvantages: int = 0
    coordinating: int = 0
    plan: PlanOutcome = PlanOutcome.NONE
    extra_dm: int = 0
    mode: AttackMode = AttackMode.ATTACK
    reckless: bool = False
    costly_success: bool = False
    defence_conditions: int = 0
    defence_cover: CoverLevel = CoverLevel.NONE
    defence_cover_item: int | None = None
    doubled: DefenseKind | None = None
    return_fire_from: str | None = None
    return_fire_weapon: int = 0
    return_fire_rate: int | None = None
    spend_action: bool = True
    """The attack spends the attacker's significant action (refused without two minor)."""


def _default_characteristic(weapon: Weapon) -> Characteristic:
    """Melee weapons roll with STR, everything else with DEX (the referee may change it)."""
    return Characteristic.STR if weapon.range_class is RangeClass.MELEE else Characteristic.DEX


def _target(campaign: Campaign, combatant: Combatant, share: int) -> AttackTarget:
    character = campaign.combatant_character(combatant)
    armor, scale = armor_of(character)
    return AttackTarget(
        combatant_id=combatant.id, name=character.name, hp=character.hit_points,
        damage=character.damage,
        endurance=character.characteristic(Characteristic.END) or 0,
        armor=armor, scale=scale, rate_share=share,
    )


def build_attack(campaign: Campaign, encounter: Encounter, request: AttackRequest) -> AttackSpec:
    """Turn the resolver's choices into a spec: DMs from the sheet (skill, characteristic,
    wounds), the Difficulty term by term (the targets' cover from their rows unless the
    referee overrides it), the attacker's aim if it is on a target, the defence against a
    Fail Effect, the return fire, and whether the attacker can afford it."""
    attacker = _combatant(encounter, request.attacker_id)
    sheet = campaign.combatant_character(attacker)
    if not sheet.weapons:
        raise CombatError(f"{sheet.name} has no weapon: add one on the character sheet")
    if not 0 <= request.weapon_index < len(sheet.weapons):
        raise CombatError("choose one of the attacker's weapons")
    weapon = sheet.weapons[request.weapon_index]
    target_combatants = [_combatant(encounter, cid) for cid, _ in request.targets]
    if any(t.id == attacker.id for t in target_combatants):
        raise CombatError(f"{sheet.name} cannot attack themselves")
    modifiers: list[Modifier] = []
    level = sheet.skill_level(weapon.skill) if weapon.skill else None
    if weapon.skill:
        if level is None:
            modifiers.append(Modifier(f"Unskilled ({weapon.skill})", UNSKILLED, "Ch.3 unskilled"))
        else:
            modifiers.append(Modifier(f"{weapon.skill}-{level}", level, "Ch.3 skill modifier"))
    code = request.characteristic or _default_characteristic(weapon)
    modifiers.append(Modifier(f"{code.value.upper()} DM", sheet.characteristic_modifier(code),
                              "Ch.3 characteristic modifier"))
    modifiers.extend(wound_terms(sheet))
    if request.extra_dm:
        modifiers.append(Modifier("Other DMs", request.extra_dm, "Ch.3 equipment and actions"))
    target_ids = {t.id for t in target_combatants}
    aim = attacker.aim if attacker.aim_target_id in target_ids else 0
    other: list[DifficultyTerm] = []
    if request.coordinating:
        other.append(DifficultyTerm("Coordinating action", request.coordinating,
                                    "Ch.6 coordinating action: +1 to +4", TermKind.OTHER))
    row_cover = target_cover([(c, _name(campaign, c)) for c in target_combatants])
    cover = row_cover.level if request.cover is None else request.cover
    difficulty = attack_difficulty(
        base=request.base_difficulty, cover=cover, concealment=request.concealment,
        close_quarters=request.close_quarters, range_mod=request.range_mod,
        superiority=request.superiority, aim=aim,
        targeted=request.location.difficulty_modifier if request.location else 0,
        other=other,
    )
    if request.cover is None:
        difficulty = label_target_cover(difficulty, row_cover)
    difficulty = label_aim(difficulty, weapon)
    advantages, disadvantages = request.advantages, request.disadvantages
    options: list[str] = []
    if request.plan is PlanOutcome.CORRECT:
        advantages += 1
        options.append("Plan/Wait: prediction correct, advantage")
    elif request.plan is PlanOutcome.WRONG:
        disadvantages += 1
        options.append("Plan/Wait: prediction wrong, disadvantage")
    if request.reckless:
        options.append(f"{ActionOption.RECKLESS.label}: {ActionOption.RECKLESS.roll_effect}")
    if request.coordinating:
        options.append(f"{ActionOption.COORDINATING.label}: +{request.coordinating} Difficulty")
    if request.costly_success:
        options.append("Costly success if the roll fails: fail effect x 2 + 3")
    if aim:
        options.append(f"Aim +{aim} on the target")
    elif attacker.aim and attacker.aim_target_id is not None:
        options.append("Aim was on another target: lost on changing target")
    cover_protection = int(request.defence_cover)
    cover_name = f"{request.defence_cover.label} cover" if cover_protection else ""
    if request.defence_cover_item is not None:
        if not 0 <= request.defence_cover_item < len(sheet.cover_items):
            raise CombatError("choose one of the attacker's cover items")
        item = sheet.cover_items[request.defence_cover_item]
        cover_protection, cover_name = item.protection, item.name
    defence = Defence(
        conditions=request.defence_conditions, cover=cover_protection, cover_name=cover_name,
        cover_item=request.defence_cover_item, skill=level or 0,
        doubled=request.doubled if request.mode is AttackMode.DEFEND else None,
    )
    return_fire = None
    if request.return_fire_from is not None:
        opponent = _combatant(encounter, request.return_fire_from)
        their = campaign.combatant_character(opponent)
        if their.weapons:
            index = min(max(0, request.return_fire_weapon), len(their.weapons) - 1)
            their_weapon = their.weapons[index]
            rate = request.return_fire_rate
            return_fire = ReturnFire(f"{their.name}: {their_weapon.name}",
                                     their_weapon.damage_dice, rate)
    armor, scale = armor_of(sheet)
    return AttackSpec(
        attacker_id=attacker.id, attacker_name=sheet.name, attacker_hp=sheet.hit_points,
        attacker_damage=sheet.damage,
        attacker_endurance=sheet.characteristic(Characteristic.END) or 0,
        attacker_armor=armor, attacker_scale=scale,
        weapon=weapon.name, dice=weapon.damage_dice, rate_of_attack=weapon.rate_of_attack,
        modifiers=tuple(modifiers), difficulty=difficulty,
        targets=tuple(_target(campaign, c, share)
                      for c, (_, share) in zip(target_combatants, request.targets, strict=True)),
        advantages=advantages, disadvantages=disadvantages, location=request.location,
        mode=request.mode, reckless=request.reckless,
        costly_success=request.costly_success and request.mode is AttackMode.ATTACK,
        defence=defence, return_fire=return_fire, options=tuple(options),
        refusal=attack_refusal(sheet.name, attacker.actions_spent, request.spend_action,
                               "defend" if request.mode is AttackMode.DEFEND else "attack"),
    )


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


def roll_attack(spec: AttackSpec, rng: random.Random) -> CheckResult:
    """The attack (or defend) roll made in the app; refused if it cannot be afforded."""
    _refuse(spec)
    return roll_check(rng, spec.roll_modifier, spec.difficulty.total, spec.net_advantage)


def attack_check_from_dice(spec: AttackSpec, dice: Sequence[int]) -> CheckResult:
    """The roll from dice a player rolled at the table (2, or 2 + |net advantage| dice);
    refused if the attack cannot be afforded."""
    _refuse(spec)
    return check_from_dice(dice, spec.roll_modifier, spec.difficulty.total, spec.net_advantage)


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
    damage roll (rolled here). Typed dice replace the app's damage rolls: one group per
    target, and for return fire the cover's rolls first.
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
                notes.append(f"{target.name} ignores {spec.dice.scale.label}-scale damage")
                continue
            typed = typed_damage[index] if typed_damage is not None else None
            result = _damage(rng, spec.dice, rolled, kept, target.armor, success_effect,
                             typed, target.name)
            massive = None
            if is_massive_damage(result.total, target.hp):
                massive = roll_massive_damage(rng, target.endurance,
                                              target.damage + result.total)
            hits.append(TargetHit(target, rolled, kept, result, False, massive))
    harm = _harm(spec, fail, rng, typed_return_fire) if fail else None
    return AttackOutcome(spec, check, hit, success_effect, costly, tuple(hits), harm,
                         tuple(notes))


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
            massive = roll_massive_damage(rng, spec.attacker_endurance,
                                          spec.attacker_damage + attacker_result.total)
    return Harm(fail, mitigation, cover_result, attacker_result, massive=massive)


def _rolls_text(dice: DiceExpression, result: DamageResult, armor: int) -> str:
    against = f" against armor {armor} ({dice.with_modifier(-armor)})" if armor else ""
    parts = []
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        part = f"{raw}→{after}" if armor else str(raw)
        parts.append(part if kept else f"({part} dropped)")
    return f"{len(result.rolls)} × {dice}{against}: {', '.join(parts)}"


def _take_hits(
    builder: PatchBuilder, combatant: Combatant, result: DamageResult, source: str,
    location: HitLocation | None,
) -> list[str]:
    """Put kept damage rolls on a sheet: damage, a record per roll, Bleeding from a single
    roll of 1/3 HP or more, and a targeted location's crippled/stunned/bleeding effect."""
    before = _state(builder.campaign, builder.character(combatant))
    character = builder.edit_character(combatant)
    hp = character.hit_points
    area = location.body_area if location is not None else None
    changes: list[str] = []
    bleeding = character.has_condition(ConditionKind.BLEEDING)
    for raw, after, kept in zip(result.rolls, result.after_armor, result.kept, strict=True):
        if not kept or after <= 0:
            continue
        character.damage += after
        character.damage_history.append(DamageRecord(
            amount=after, rolled=raw, source=source, location=area, at=builder.now,
            round=builder.round, encounter_id=builder.encounter.id,
        ))
        if not bleeding and bleeds(after, hp):
            bleeding = True
            character.conditions.append(Condition(
                kind=ConditionKind.BLEEDING,
                started_at=builder.now, started_round=builder.round,
                encounter_id=builder.encounter.id,
            ))
            changes.append(f"{character.name}: Bleeding")
    if location is not None and area is not BodyArea.BODY and result.total:
        effect = targeted_damage_effect(location.body_area, result.total, hp)
        kinds = {TargetedEffect.CRIPPLED: ConditionKind.CRIPPLED,
                 TargetedEffect.STUNNED: ConditionKind.STUNNED,
                 TargetedEffect.BLEEDING: ConditionKind.BLEEDING}
        if effect is not None and not (effect is TargetedEffect.BLEEDING and bleeding):
            condition = Condition(kind=kinds[effect], detail=location.name,
                                  started_at=builder.now, started_round=builder.round,
                                  encounter_id=builder.encounter.id)
            character.conditions.append(condition)
            changes.append(f"{character.name}: {condition.label}")
    after_state = _state(builder.campaign, character)
    if after_state is not before:
        changes.insert(0, _state_note(character, after_state))
    return changes


def attack_patch(
    campaign: Campaign, encounter: Encounter, outcome: AttackOutcome, spend_action: bool = True
) -> EncounterPatch:
    """Apply a resolved attack to every sheet it touched, as one step: damage and conditions
    on the targets, harm on the attacker and their cover, aim used up, the action spent,
    and the log (the roll, then one entry per sheet hit)."""
    spec = outcome.spec
    attacker = _combatant(encounter, spec.attacker_id)
    builder = PatchBuilder(campaign, encounter)
    verb = "Defend" if spec.mode is AttackMode.DEFEND else "Attack"
    if spend_action:
        _spend(builder, attacker, ActionKind.SIGNIFICANT, verb.lower())
    if spec.mode is AttackMode.ATTACK and (builder.get(attacker, "aim") or attacker.aim_target_id):
        builder.set(attacker, "aim", 0)
        builder.set(attacker, "aim_target_id", None)
    check = outcome.check
    target_names = _join(t.name for t in spec.targets)
    terms = " ".join(f"{_signed(t.value) if i else t.value} {t.label[:1].lower()}{t.label[1:]}"
                     for i, t in enumerate(spec.difficulty.terms))
    dms = ", ".join(f"{m.label} {_signed(m.value)}" for m in spec.roll_terms)
    if spec.mode is AttackMode.DEFEND:
        verdict = "defended: no damage" if check.effect >= 0 else "defence fails"
    elif outcome.hit:
        rolls = 1 + outcome.success_effect
        verdict = f"hit, {rolls} damage roll{'s' if rolls != 1 else ''} per target"
    else:
        verdict = "miss"
    advantage = f", net advantage {_signed(spec.net_advantage)}" if spec.net_advantage else ""
    text = (f"{verb} with {spec.weapon}: Difficulty {spec.difficulty.total} = {terms}; "
            f"DM {_signed(spec.roll_modifier)} ({dms}){advantage}; Effect "
            f"{_signed(check.effect)}: {verdict}")
    extras = [*spec.options, *outcome.notes]
    if extras:
        text += ". " + "; ".join(extras)
    builder.log(
        actor_id=attacker.id, actor=spec.attacker_name, action=f"{verb}: {spec.weapon}",
        action_kind=ActionKind.SIGNIFICANT,
        target_id=spec.targets[0].combatant_id if len(spec.targets) == 1 else None,
        target=target_names, dice=list(check.dice), modifier=check.modifier,
        difficulty=check.difficulty, effect=check.effect, text=text,
    )
    source = f"{spec.attacker_name}: {spec.weapon}"
    for hit in outcome.hits:
        target = _combatant(encounter, hit.target.combatant_id)
        if hit.immune or hit.result is None:
            builder.log(actor_id=attacker.id, actor=spec.attacker_name,
                        action=f"Damage: {spec.weapon}", target_id=target.id,
                        target=hit.target.name,
                        text=f"{hit.target.name} ignores {spec.dice.scale.label}-scale damage")
            continue
        changes = _take_hits(builder, target, hit.result, source, spec.location)
        where = f" to the {spec.location.name}" if spec.location is not None else ""
        builder.log(
            actor_id=attacker.id, actor=spec.attacker_name, action=f"Damage: {spec.weapon}",
            target_id=target.id, target=hit.target.name,
            damage=list(hit.result.kept_damage), state_changes=changes,
            text=f"{_rolls_text(spec.dice, hit.result, hit.target.armor)}; "
            f"{hit.result.total} damage{where}",
        )
        if hit.massive is not None:
            _massive_outcome(builder, target, hit.massive, "rolled")
    if outcome.harm is not None:
        _apply_harm(builder, attacker, spec, outcome.harm)
    return builder.build(f"{spec.attacker_name}: {verb.lower()} {target_names}".strip())


def _apply_harm(builder: PatchBuilder, attacker: Combatant, spec: AttackSpec, harm: Harm) -> None:
    mitigation = harm.mitigation
    steps = [f"fail effect {harm.fail_effect}"]
    for label, amount in (("conditions", mitigation.by_conditions),
                          ("cover", mitigation.by_cover), ("skill", mitigation.by_skill)):
        if amount:
            steps.append(f"-{amount} {label}")
    changes: list[str] = []
    damage: list[int] = []
    fire = spec.return_fire
    if fire is None:
        text = (f"{', '.join(steps)}: {mitigation.remaining} damage roll(s) owed, but no "
                "opponent can strike back")
        if mitigation.ordinary_failure:
            text = f"{', '.join(steps)}: ordinary failure"
        builder.log(actor="Fail effect", target_id=attacker.id, target=spec.attacker_name,
                    action="Fail effect", effect=-harm.fail_effect, text=text)
        return
    parts = [", ".join(steps)]
    if harm.cover is not None:
        cover_total = sum(harm.cover.rolls)
        parts.append(f"{spec.defence.cover_name or 'cover'} takes "
                     f"{_rolls_text(fire.dice, harm.cover, 0)}")
        if spec.defence.cover_item is not None:
            character = builder.edit_character(attacker)
            item = character.cover_items[spec.defence.cover_item]
            if item.hp:
                taken = min(item.remaining_hp, max(0, cover_total))
                item.damage += taken
                state = "destroyed" if item.remaining_hp == 0 else f"{item.remaining_hp} HP left"
                changes.append(f"{item.name}: takes {len(harm.cover.rolls)} damage rolls "
                               f"({taken} damage), {state}")
            else:
                changes.append(f"{item.name}: takes {len(harm.cover.rolls)} damage rolls "
                               f"({cover_total} damage)")
        else:
            changes.append(f"{spec.defence.cover_name or 'Cover'}: takes "
                           f"{len(harm.cover.rolls)} damage rolls ({cover_total} damage)")
    if harm.immune:
        parts.append(f"{spec.attacker_name} ignores {fire.dice.scale.label}-scale damage")
    elif harm.attacker is not None:
        parts.append(f"{spec.attacker_name} takes "
                     f"{_rolls_text(fire.dice, harm.attacker, spec.attacker_armor)}")
        damage = list(harm.attacker.kept_damage)
        changes += _take_hits(builder, attacker, harm.attacker, fire.source, None)
    elif mitigation.ordinary_failure:
        parts.append("ordinary failure")
    builder.log(actor=fire.source, target_id=attacker.id, target=spec.attacker_name,
                action="Return fire", effect=-harm.fail_effect, damage=damage,
                state_changes=changes, text="; ".join(parts))
    if harm.attacker is not None and harm.massive is not None:
        _massive_outcome(builder, attacker, harm.massive, "rolled")


# ===================================================================== log text


def format_log_entry(entry: EncounterLogEntry) -> str:
    """One log entry as a line of text (for export and the log's tooltip)."""
    parts = [f"Round {entry.round}"]
    if entry.at is not None:
        parts[0] += f" ({entry.at.label})"
    who = entry.actor or "—"
    action = f"{who}: {entry.action}" if entry.action else who
    if entry.target and entry.target != entry.actor:
        action += f" → {entry.target}"
    parts.append(action)
    if entry.dice:
        roll = "+".join(str(d) for d in entry.dice)
        if entry.difficulty is not None:
            roll += f" {_signed(entry.modifier)} vs {entry.difficulty}"
        parts.append(f"dice {roll}")
    if entry.effect is not None:
        parts.append(f"Effect {_signed(entry.effect)}")
    if entry.damage:
        parts.append(f"damage {', '.join(map(str, entry.damage))} (total {sum(entry.damage)})")
    if entry.state_changes:
        parts.append("; ".join(entry.state_changes))
    if entry.text:
        parts.append(entry.text)
    return " · ".join(parts)


def log_as_text(encounter: Encounter, entries: Iterable[EncounterLogEntry] | None = None) -> str:
    """The encounter log as plain text, one entry per line, with a heading."""
    chosen = list(encounter.log if entries is None else entries)
    header = [f"Encounter: {encounter.name}"]
    if encounter.location:
        header.append(f"Location: {encounter.location}")
    header.append(f"{len(chosen)} log entries")
    return "\n".join([*header, "", *(format_log_entry(e) for e in chosen)]) + "\n"

