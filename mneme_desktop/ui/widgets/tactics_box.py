"""The "Spend a Tactics roll" box the resolver, the grapple dialog and the quick check share."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from mneme_desktop.domain.encounter import SideTactics
from mneme_desktop.domain.next_roll import tactics_text
from mneme_desktop.ui.i18n import tr

__all__ = ["offer_tactics_roll"]

_CTX = "TacticsBox"


def offer_tactics_roll(check: QCheckBox, pool: SideTactics | None,
                       none_text: str | None = None) -> None:
    """Offer one of the side's Tactics rolls (Ch.6) while the pool has one; with none left the
    box is cleared (a spent pool never blocks the next roll) and either says ``none_text``,
    disabled, or is hidden when there is nothing to say."""
    if pool is None and check.isChecked():
        check.blockSignals(True)
        check.setChecked(False)
        check.blockSignals(False)
    if pool is not None:
        check.setText(tr(_CTX, "Spend a Tactics {0} roll: {1}").format(
            pool.kind.value, tactics_text(pool)))
    elif none_text is not None:
        check.setText(none_text)
    if none_text is None:
        check.setVisible(pool is not None)
    else:
        check.setEnabled(pool is not None)
