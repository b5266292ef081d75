"""The Ch.6 action economy: three minor actions a round, what each kind of action costs,
the options of a significant action, coordinating and supporting."""

from __future__ import annotations

from enum import Enum

__all__ = [
    "COORDINATING_DIFFICULTY_MAX",
    "COORDINATING_DIFFICULTY_MIN",
    "MINOR_ACTIONS_PER_ROUND",
    "ROUND_SECONDS",
    "ActionEconomyError",
    "ActionKind",
    "ActionOption",
    "action_cost",
    "can_spend",
    "coordinating_difficulty",
    "spend",
    "supporting_dm",
]

ROUND_SECONDS = 6
MINOR_ACTIONS_PER_ROUND = 3


class ActionKind(Enum):
    """Actions are priced in minor actions; a character has three per round."""

    FREE = "free"
    MINOR = "minor"
    SIGNIFICANT = "significant"
    FULL = "full"

    @property
    def cost(self) -> int:
        return _ACTION_COSTS[self]

    @property
    def label(self) -> str:
        return f"{self.value.capitalize()} Action"


_ACTION_COSTS = {
    ActionKind.FREE: 0,
    ActionKind.MINOR: 1,
    ActionKind.SIGNIFICANT: 2,
    ActionKind.FULL: 3,
}


def action_cost(kind: ActionKind) -> int:
    """Minor actions an action of this kind uses: free 0, minor 1, significant 2, full 3."""
    return kind.cost


class ActionEconomyError(ValueError):
    """A character tried to spend more minor actions than the round has left."""


def _check_spent(spent: int) -> None:
    if not 0 <= spent <= MINOR_ACTIONS_PER_ROUND:
        raise ActionEconomyError(
            f"minor actions spent must be 0..{MINOR_ACTIONS_PER_ROUND}, got {spent}"
        )


def can_spend(spent: int, kind: ActionKind) -> bool:
    """Whether a character who has used ``spent`` minor actions can still take this action."""
    _check_spent(spent)
    return spent + kind.cost <= MINOR_ACTIONS_PER_ROUND


def spend(spent: int, kind: ActionKind) -> int:
    """Minor actions used after taking this action; refuses to overspend the round."""
    if not can_spend(spent, kind):
        left = MINOR_ACTIONS_PER_ROUND - spent
        raise ActionEconomyError(
            f"a {kind.label} costs {kind.cost} minor actions but only {left} "
            f"of {MINOR_ACTIONS_PER_ROUND} are left this round"
        )
    return spent + kind.cost

class ActionOption(Enum):
    """Options that modify a significant action; they can be combined."""

    RECKLESS = "reckless"
    COORDINATING = "coordinating"
    PLAN_WAIT = "plan_wait"

    @property
    def label(self) -> str:
        return _OPTION_TEXT[self][0]

    @property
    def description(self) -> str:
        return _OPTION_TEXT[self][1]

    @property
    def roll_effect(self) -> str:
        """What the option does to the roll, in one line for the resolver."""
        return _OPTION_TEXT[self][2]


_OPTION_TEXT = {
    ActionOption.RECKLESS: (
        "Reckless Action",
        "Gain a +2 DM, but even if success and after resolving success, apply a -3 to Effect. "
        "If the Effect would have been negative resolve the negative outcome.",
        "+2 DM to the roll; -3 to the Effect afterwards",
    ),
    ActionOption.COORDINATING: (
        "Coordinating Action",
        "This action is considered to have resolved simultaneously with another character. "
        "Gain Superiority Modifier to the Roll or a special effect the Coordination intended.",
        "+1 to +4 Difficulty; gain Superiority, Advantage, or offset Disadvantage",
    ),
    ActionOption.PLAN_WAIT: (
        "Plan/Wait",
        "Predict Adversary Action, gain Advantage if plan is sound and prediction is correct or "
        "Disadvantage if prediction is wrong.",
        "Advantage if the prediction is correct, Disadvantage if it is wrong",
    ),
}

COORDINATING_DIFFICULTY_MIN = 1
COORDINATING_DIFFICULTY_MAX = 4


def coordinating_difficulty(value: int) -> int:
    """The referee's 1-4 Difficulty for coordinating (also the Plan/Wait shortcut range)."""
    if not COORDINATING_DIFFICULTY_MIN <= value <= COORDINATING_DIFFICULTY_MAX:
        raise ValueError(
            f"coordination adds {COORDINATING_DIFFICULTY_MIN} to "
            f"{COORDINATING_DIFFICULTY_MAX} Difficulty, got {value}"
        )
    return value


def supporting_dm(effect: int) -> int:
    """A Supporting Action's roll gives its Success Effect to the ally as a DM (0 on failure)."""
    return max(0, effect)
