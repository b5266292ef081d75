"""Encounters: who is fighting, in what order, what each has spent this round, and the log.

Player characters and NPCs take part by reference to the campaign's characters (damage
they take stays on their sheet); adversaries are embedded instances made from templates.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from mneme_desktop.domain.adversary import AdversaryTemplate
from mneme_desktop.domain.character import Amount, Character, SignedAmount, new_id
from mneme_desktop.domain.gametime import GameTime
from mneme_desktop.domain.lookup import IdIndex
from mneme_desktop.domain.things import Thing
from mneme_desktop.rules.actions import (
    MINOR_ACTIONS_PER_ROUND,
    ActionKind,
    ExtendedAction,
    Stance,
)
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.movement import GridScale

__all__ = [
    "Combatant",
    "Encounter",
    "EncounterLogEntry",
    "EncounterThing",
    "ExtendedTask",
    "LastShot",
    "NextRollKind",
    "NextRollTerm",
    "Side",
    "SideTactics",
]

_MODEL = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True)


class Side(StrEnum):
    PLAYERS = "players"
    ENEMIES = "enemies"
    NEUTRAL = "neutral"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class ExtendedTask(BaseModel):
    """A full action spread over several rounds (first aid, hacking a lock), with its progress."""

    model_config = _MODEL

    description: str = Field(min_length=1, max_length=500)
    total_rounds: Amount = Field(ge=1)
    remaining_rounds: Amount
    rounds_taken: Amount = 0
    target_id: str | None = Field(default=None, description="Combatant the task is done to")
    first_aid: bool = Field(
        default=False, description="First aid: completing it heals and stops bleeding"
    )

    @model_validator(mode="after")
    def _remaining_within_total(self) -> ExtendedTask:
        if self.remaining_rounds > self.total_rounds:
            raise ValueError(
                f"remaining rounds ({self.remaining_rounds}) cannot exceed "
                f"total rounds ({self.total_rounds})"
            )
        return self

    def to_rules(self) -> ExtendedAction:
        return ExtendedAction(self.total_rounds, self.remaining_rounds, self.rounds_taken)

    @classmethod
    def from_rules(cls, description: str, action: ExtendedAction) -> ExtendedTask:
        return cls(
            description=description,
            total_rounds=action.total_rounds,
            remaining_rounds=action.remaining_rounds,
            rounds_taken=action.rounds_taken,
        )


class NextRollKind(StrEnum):
    """What waits on a combatant's next roll."""

    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"
    DM = "dm"


class NextRollTerm(BaseModel):
    """Something the fight left on a combatant's next roll: the advantage or disadvantage
    of a grapple (Ch.6: "on the next round"), a supporter's Success Effect as a DM (Ch.6
    supporting actions). Used up by that roll."""

    model_config = _MODEL

    kind: NextRollKind
    value: SignedAmount = Field(default=1, description="The DM, or how many (dis)advantages")
    source: str = Field(default="", max_length=500, description="Who or what gave it")
    granted_round: Amount = 0
    last_round: Amount | None = Field(
        default=None, description="The last round it can be used in; None: until used"
    )


class SideTactics(BaseModel):
    """The advantage (or disadvantage) rolls a side's Tactics check granted (Ch.6 Tactics
    skill: the capped Effect), and how many are left to spend on the side's rolls."""

    model_config = _MODEL

    side: Side
    leader_id: str | None = None
    leader: str = Field(default="", max_length=200)
    difficulty: Amount = 8
    kind: NextRollKind = NextRollKind.ADVANTAGE
    granted: Amount = 0
    left: Amount = 0

    @model_validator(mode="after")
    def _left_within_granted(self) -> SideTactics:
        if self.kind is NextRollKind.DM:
            raise ValueError("a Tactics pool holds advantage or disadvantage rolls, not a DM")
        if self.left > self.granted:
            raise ValueError(f"{self.left} Tactics rolls left of {self.granted} granted")
        return self


class LastShot(BaseModel):
    """A combatant's last attack on one target, with the aim it used: what a ballistic
    correction (Ch.6, "keep their Aim bonus from the last round and increase it by 1")
    keeps when the shooter saw where the shots went."""

    model_config = _MODEL

    target_id: str = Field(min_length=1, max_length=64)
    aim: Amount = 0
    round: Amount = 0


class Combatant(BaseModel):
    """One participant: either a campaign character (by id) or an embedded adversary instance."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    character_id: str | None = None
    instance: Character | None = None
    side: Side = Side.ENEMIES
    initiative: SignedAmount | None = None
    initiative_dice: list[SignedAmount] = Field(
        default_factory=list, description="Dice shown when rolled"
    )
    initiative_skill: str | None = Field(
        default=None, max_length=200,
        description="The skill this combatant applies to initiative (Recon, Tactics, a "
        "weapon skill); None: the one chosen when rolling",
    )
    delayed: bool = False
    actions_spent: int = Field(default=0, ge=0, le=MINOR_ACTIONS_PER_ROUND)
    aim: Amount = Field(default=0, description="Aim bonus built up for the next attack")
    aim_target_id: str | None = None
    last_shot: LastShot | None = Field(
        default=None, description="The last attack on one target and its aim, for a "
        "ballistic correction; None: none to correct")
    stance: Stance = Stance.STANDING
    cover: CoverLevel = CoverLevel.NONE
    cover_thing_id: str | None = Field(
        default=None,
        description="The encounter thing (shield, cinder blocks) this combatant is behind: "
        "it absorbs fail effect up to its protection and takes those damage rolls",
    )
    extended_task: ExtendedTask | None = None
    out_of_fight: bool = Field(default=False, description="Fled, surrendered or removed")
    notes: str = ""
    next_roll: list[NextRollTerm] = Field(
        default_factory=list, description="What waits on this combatant's next roll"
    )
    tactics_attempts: Amount = Field(
        default=0, description="Tactics checks made for advantage rolls this fight (Ch.6: "
        "tries while attempts < Tactics skill + 1)"
    )
    revealed: bool = Field(
        default=True,
        description="Shown on the player display; False for an adversary the players "
        "have not met yet",
    )

    @model_validator(mode="after")
    def _one_source(self) -> Combatant:
        if (self.character_id is None) == (self.instance is None):
            raise ValueError(
                "a combatant needs exactly one of character_id (a campaign character) "
                "or instance (an adversary made from a template)"
            )
        return self

    @property
    def actions_left(self) -> int:
        return MINOR_ACTIONS_PER_ROUND - self.actions_spent


class EncounterThing(BaseModel):
    """A thing taking part in an encounter: a campaign thing by reference (damage stays on
    it) or an embedded instance of a thing template ("Shield 2"). A combatant behind it
    names it in :attr:`Combatant.cover_thing_id`; a crewed vehicle acts on its crew's
    initiative (:func:`mneme_desktop.domain.combat.things.thing_initiative`)."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    thing_id: str | None = None
    instance: Thing | None = None
    side: Side = Side.NEUTRAL
    out_of_fight: bool = Field(default=False, description="Left the fight or wrecked away")
    notes: str = ""

    @model_validator(mode="after")
    def _one_source(self) -> EncounterThing:
        if (self.thing_id is None) == (self.instance is None):
            raise ValueError(
                "an encounter thing needs exactly one of thing_id (a campaign thing) "
                "or instance (a thing made from a template)"
            )
        return self


class EncounterLogEntry(BaseModel):
    """One resolved action, kept structured so the log can be filtered, replayed and exported."""

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    round: Amount = 0
    at: GameTime | None = None
    actor_id: str | None = None
    actor: str = ""
    action: str = ""
    action_kind: ActionKind | None = None
    target_id: str | None = None
    target: str = ""
    dice: list[SignedAmount] = Field(default_factory=list)
    modifier: SignedAmount = 0
    difficulty: SignedAmount | None = None
    effect: SignedAmount | None = None
    damage: list[SignedAmount] = Field(
        default_factory=list, description="Damage of each damage roll"
    )
    state_changes: list[str] = Field(default_factory=list)
    text: str = ""


class Encounter(BaseModel):
    """A fight (or any timed scene): combatants, initiative, round, whose turn, and the log.

    ``round`` is 0 while the encounter is being set up; ``turn_index`` points into
    :meth:`initiative_order`.
    """

    model_config = _MODEL

    id: str = Field(default_factory=new_id, min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    location: str = ""
    notes: str = ""
    round: Amount = 0
    turn_index: Amount = 0
    thing_turn: str | None = Field(
        default=None, max_length=64,
        description="The crewed vehicle (encounter thing id) whose turn it is, just before "
        "the combatant at turn_index (its crew's); None: that combatant's turn",
    )
    combatants: list[Combatant] = Field(default_factory=list)
    things: list[EncounterThing] = Field(
        default_factory=list, description="Vehicles, craft, structures and cover objects here"
    )
    log: list[EncounterLogEntry] = Field(default_factory=list)
    started_at: GameTime | None = None
    ended: bool = False
    movement_scale: GridScale = Field(
        default=GridScale.FINE, description="The movement table's spaces in this encounter "
        "(Ch.6: 1.5 m or 4.5 m)")
    tactics: list[SideTactics] = Field(
        default_factory=list, description="Each side's Tactics rolls left (Ch.6 Tactics skill)"
    )

    _combatant_index: IdIndex[Combatant] = PrivateAttr(default_factory=IdIndex)
    """Combatants by id, checked against the list on each lookup (O(1), never stale)."""

    # --- lookups -----------------------------------------------------------------------

    def find_combatant(self, combatant_id: str) -> Combatant | None:
        return self._index().find(self.combatants, combatant_id)

    def combatant_position(self, combatant_id: str) -> int | None:
        """Where the combatant is in :attr:`combatants`, or None."""
        return self._index().position(self.combatants, combatant_id)

    def _index(self) -> IdIndex[Combatant]:
        # Read past pydantic's __getattr__ for private attributes (40 times slower).
        private = self.__pydantic_private__
        assert private is not None
        index: IdIndex[Combatant] = private["_combatant_index"]
        return index

    def find_thing_entry(self, entry_id: str) -> EncounterThing | None:
        """The encounter thing with ``entry_id`` (few per encounter: a plain scan)."""
        return next((t for t in self.things if t.id == entry_id), None)

    def combatant(self, combatant_id: str) -> Combatant:
        found = self.find_combatant(combatant_id)
        if found is None:
            raise KeyError(f"no combatant {combatant_id!r} in encounter {self.name!r}")
        return found

    # --- building ----------------------------------------------------------------------

    def add_character(self, character: Character, side: Side = Side.PLAYERS) -> Combatant:
        """Bring a campaign character in by reference."""
        combatant = Combatant(character_id=character.id, side=side)
        self.combatants.append(combatant)
        return combatant

    def next_instance_number(self, template: AdversaryTemplate) -> int:
        """The number after the highest "Raider N" already here (removed ones count too)."""
        pattern = re.compile(rf"^{re.escape(template.name)} (\d+)$")
        highest = 0
        for combatant in self.combatants:
            if combatant.instance is None:
                continue
            match = pattern.match(combatant.instance.name)
            if match:
                highest = max(highest, int(match.group(1)))
        return highest + 1

    def add_from_template(
        self, template: AdversaryTemplate, count: int = 1, side: Side = Side.ENEMIES
    ) -> list[Combatant]:
        """Add ``count`` numbered instances ("Raider 1".."Raider N"), continuing the numbering."""
        if count < 1:
            raise ValueError(f"add at least one adversary, not {count}")
        first = self.next_instance_number(template)
        added = [
            Combatant(instance=template.make_instance(first + offset), side=side)
            for offset in range(count)
        ]
        self.combatants.extend(added)
        return added

    def remove_combatant(self, combatant_id: str) -> Combatant:
        """Take a combatant out; anyone aiming at them loses the aim target."""
        combatant = self.combatant(combatant_id)
        order = self.initiative_order()
        current = self.current_combatant
        self.combatants = [c for c in self.combatants if c is not combatant]
        for other in self.combatants:
            if other.aim_target_id == combatant_id:
                other.aim_target_id = None
                other.aim = 0
        if current is not None:
            index = next((i for i, c in enumerate(order) if c is combatant), None)
            if index is not None and index < self.turn_index:
                self.turn_index -= 1
            self._clamp_turn()
        return combatant

    # --- initiative and turns ----------------------------------------------------------

    def initiative_order(self) -> list[Combatant]:
        """Combatants still fighting, highest initiative first (Ch.6: "descending order").

        Ties keep the order they were added in; combatants without initiative act last.
        """
        active = [c for c in self.combatants if not c.out_of_fight]
        return sorted(
            active,
            key=lambda c: (c.initiative is None, -(c.initiative or 0)),
        )

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def current_combatant(self) -> Combatant | None:
        """Whose turn it is, or None before the start, after the end, or with nobody left."""
        if not self.started or self.ended:
            return None
        order = self.initiative_order()
        if not order:
            return None
        return order[min(self.turn_index, len(order) - 1)]

    def start(self, at: GameTime | None = None) -> None:
        """Round 1 begins with the highest initiative."""
        self.round = 1
        self.turn_index = 0
        self.thing_turn = None
        self.ended = False
        self.started_at = at
        for combatant in self.combatants:
            combatant.actions_spent = 0
            combatant.delayed = False

    def next_turn(self) -> bool:
        """Move to the next combatant; returns True when that begins a new round.

        A new round gives everyone back their three minor actions; aim is kept, as it
        builds up over rounds.
        """
        if not self.started:
            raise ValueError("the encounter has not started")
        if self.ended:
            raise ValueError("the encounter has ended")
        count = len(self.initiative_order())
        self.thing_turn = None  # vehicles' turns are passed by combat.next_turn_patch
        if self.turn_index + 1 < count:
            self.turn_index += 1
            return False
        self.round += 1
        self.turn_index = 0
        for combatant in self.combatants:
            combatant.actions_spent = 0
            combatant.delayed = False
        return True

    def end(self) -> None:
        self.ended = True

    def _clamp_turn(self) -> None:
        count = len(self.initiative_order())
        if self.turn_index >= count:
            self.turn_index = max(0, count - 1)

    # --- log ---------------------------------------------------------------------------

    def add_log(self, entry: EncounterLogEntry) -> EncounterLogEntry:
        """Append an entry; its round is this encounter's current round unless set."""
        if entry.round == 0 and self.round:
            entry.round = self.round
        self.log.append(entry)
        return entry
