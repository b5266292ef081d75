"""The player display (issue 19): a second window for a TV, projector or second monitor
that shows the players the fight as the referee allows, and never more.

``filtering`` decides what the players may see (one :class:`~.filtering.Scene`);
``model`` holds it for the views (the filtered turn order, the public log) and follows the
document's ``changed`` notice; ``window`` shows it, in ``display_theme``'s colours with
``row_delegate``'s chips; ``panel`` is the referee's set-up and ``screens`` puts the window
on the chosen screen; ``controller`` holds them together for the main window.
"""

from __future__ import annotations

from mneme_desktop.ui.player_display.controller import PlayerDisplay, save_display_screenshot

__all__ = ["PlayerDisplay", "save_display_screenshot"]
