"""The Mneme CE rules core: pure, deterministic, no Qt and no I/O.

Every public name of the topic modules is re-exported here so that callers write
``from mneme_desktop.rules import wound_state``.
"""

from __future__ import annotations

from mneme_desktop.rules import actions, checks, damage, dice, healing, track, wounds
from mneme_desktop.rules.actions import *  # noqa: F403
from mneme_desktop.rules.checks import *  # noqa: F403
from mneme_desktop.rules.damage import *  # noqa: F403
from mneme_desktop.rules.dice import *  # noqa: F403
from mneme_desktop.rules.healing import *  # noqa: F403
from mneme_desktop.rules.track import *  # noqa: F403
from mneme_desktop.rules.wounds import *  # noqa: F403

__all__ = [
    *dice.__all__,
    *checks.__all__,
    *actions.__all__,
    *damage.__all__,
    *wounds.__all__,
    *healing.__all__,
    *track.__all__,
]
