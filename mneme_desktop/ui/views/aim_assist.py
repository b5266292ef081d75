"""The combatant panel's aim beyond the Aim button (Ch.6): a ballistic correction after
seeing where the last shots went (or the tracers), and moving the aim to another target in
the same position and conditions, keeping the share the referee decides.

Kept out of :mod:`~mneme_desktop.ui.views.combatant_panel`; the panel places these rows
under its aim and hands them the combatant on every refresh. A spotter is a condition of the
attack and lives in the resolver's Difficulty ("Spotter calls coordinates").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QGridLayout, QPushButton, QSpinBox, QWidget

from mneme_desktop.domain import Campaign, Combatant, Encounter
from mneme_desktop.domain import combat as fight
from mneme_desktop.rules.aim import tracer_aim_bonus
from mneme_desktop.ui.i18n import tr

if TYPE_CHECKING:
    from mneme_desktop.ui.views.encounter_view import EncounterView

__all__ = ["AimAssist"]

_CTX = "AimAssist"


class AimAssist(QWidget):
    """Two rows: Correct (seen how), and Move aim here keeping +N."""

    def __init__(self, view: EncounterView, target_combo: QComboBox, weapon_combo: QComboBox,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aim_assist")
        self._view = view
        self._target_combo = target_combo
        self._weapon_combo = weapon_combo
        self._combatant_id: str | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.seen_combo = QComboBox(objectName="correction_seen")
        self.seen_combo.addItem(tr(_CTX, "impacts seen: +1"), (False, False))
        self.seen_combo.addItem(tr(_CTX, "tracers: +{0}").format(tracer_aim_bonus(False)),
                                (True, False))
        self.seen_combo.addItem(tr(_CTX, "tracers, full auto: +{0}").format(
            tracer_aim_bonus(True)), (True, True))
        self.seen_combo.setAccessibleName(tr(_CTX, "What the shooter saw"))
        self.seen_combo.setToolTip(tr(_CTX, "How the shooter saw the effects of the last shots: "
                                            "the impacts (+1) or the tracer rounds (+1, +3 on "
                                            "fully automatic fire)"))
        self.correct_button = QPushButton(tr(_CTX, "Correct aim"), objectName="correct_aim")
        self.kept_spin = QSpinBox(objectName="aim_kept", minimum=0, maximum=0)
        self.kept_spin.setPrefix(tr(_CTX, "keep +"))
        self.kept_spin.setAccessibleName(tr(_CTX, "Aim kept on the new target"))
        self.kept_spin.setToolTip(tr(_CTX, "The referee's share of the aim kept on a target in "
                                           "the same position and conditions (Ch.6 changing "
                                           "targets)"))
        self.shift_button = QPushButton(tr(_CTX, "Move aim here"), objectName="move_aim")
        grid.addWidget(self.seen_combo, 0, 0)
        grid.addWidget(self.correct_button, 0, 1)
        grid.addWidget(self.kept_spin, 1, 0)
        grid.addWidget(self.shift_button, 1, 1)
        grid.setColumnStretch(0, 1)
        self.correct_button.clicked.connect(self.correct)
        self.shift_button.clicked.connect(self.shift)
        target_combo.currentIndexChanged.connect(lambda _i: self._show_shift())

    # --- what the panel shows ------------------------------------------------------------

    def show_combatant(self, campaign: Campaign, encounter: Encounter,
                       combatant: Combatant) -> None:
        self._combatant_id = combatant.id
        shot = fight.correctable_shot(encounter, combatant)
        self.correct_button.setEnabled(shot is not None)
        self.seen_combo.setEnabled(shot is not None)
        if shot is None:
            self.correct_button.setToolTip(tr(_CTX, "Ballistic correction (Ch.6): after a shot "
                                                    "at one target this round or the last, "
                                                    "keep its aim and add +1 if the shooter "
                                                    "saw where the shots went. No such shot "
                                                    "yet."))
        else:
            target = encounter.find_combatant(shot.target_id)
            name = campaign.combatant_character(target).name if target else "?"
            self.correct_button.setToolTip(tr(_CTX, "Ballistic correction (Ch.6): keep the aim "
                                                    "+{0} of round {1}'s shot at {2} and add "
                                                    "what was seen; no action spent").format(
                                                        shot.aim, shot.round, name))
        self._show_shift(combatant)

    def _show_shift(self, combatant: Combatant | None = None) -> None:
        if combatant is None:
            encounter = self._view.encounter()
            combatant = encounter.find_combatant(self._combatant_id) if (
                encounter is not None and self._combatant_id) else None
        if combatant is None:
            return
        target_id = self._target_combo.currentData()
        movable = bool(combatant.aim) and combatant.aim_target_id is not None \
            and target_id not in (None, combatant.aim_target_id)
        kept = self.kept_spin.value()
        self.kept_spin.setMaximum(combatant.aim)
        if self.kept_spin.value() != min(kept, combatant.aim):
            self.kept_spin.setValue(min(kept, combatant.aim))
        self.kept_spin.setEnabled(movable)
        self.shift_button.setEnabled(movable)
        self.shift_button.setToolTip(tr(_CTX, "The target chosen above is in the same position "
                                              "and conditions: keep the share of the aim set "
                                              "beside (the referee's), the rest is lost")
                                     if movable else tr(_CTX, "Build up aim on one target, "
                                                              "then choose another above"))

    # --- steps ---------------------------------------------------------------------------

    def correct(self) -> bool:
        combatant_id = self._combatant_id
        if combatant_id is None:
            return False
        tracers, full_auto = self.seen_combo.currentData()
        chosen = self._weapon_combo.currentIndex()
        weapon = chosen if chosen >= 0 else None
        return self._view.run(lambda c, e: fight.correction_patch(
            c, e, combatant_id, tracers=tracers, fully_automatic=full_auto,
            weapon_index=weapon))

    def shift(self) -> bool:
        combatant_id = self._combatant_id
        target_id = self._target_combo.currentData()
        if combatant_id is None or target_id is None:
            return False
        kept = self.kept_spin.value()
        return self._view.run(lambda c, e: fight.shift_aim_patch(c, e, combatant_id,
                                                                 target_id, kept))
