"""The combatant panel's "Initiative and next roll" box: the skill this combatant rolls
initiative with, and the steps that act on the rolls to come (a grapple, a supporting
action, what waits on the combatant's next roll).

Kept out of :mod:`~mneme_desktop.ui.views.combatant_panel` so each reads on its own; the
panel places the box and hands it the combatant on every refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QWidget,
)

from mneme_desktop.domain import Campaign, Combatant, Encounter
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat.dash_run import moved_this_round
from mneme_desktop.domain.combat.next_roll import (
    drop_next_roll_patch,
    live_next_roll,
    next_roll_text,
    side_tactics,
    tactics_text,
)
from mneme_desktop.domain.combat.tactics import tactics_attempts
from mneme_desktop.rules.dash_run import moving_target_condition
from mneme_desktop.ui.dialogs.dash_run_dialog import DashRunDialog
from mneme_desktop.ui.dialogs.grapple_dialog import GrappleDialog
from mneme_desktop.ui.dialogs.support_dialog import SupportDialog
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import VALUE_ROLE
from mneme_desktop.ui.views.combatant_panel_form import move_label

if TYPE_CHECKING:
    from mneme_desktop.ui.views.encounter_view import EncounterView

__all__ = ["CombatantRollsBox"]

_CTX = "CombatantRolls"


class CombatantRollsBox(QGroupBox):
    """Initiative skill and the rolls to come, for the combatant the panel shows."""

    def __init__(self, view: EncounterView, parent: QWidget | None = None) -> None:
        super().__init__(tr(_CTX, "Initiative and next roll"), parent)
        self.setObjectName("combatant_rolls")
        self._view = view
        self._combatant_id: str | None = None
        self._choices_key: tuple[object, ...] | None = None
        form = QFormLayout(self)
        self.initiative_skill_combo = QComboBox(objectName="initiative_skill_choice")
        self.initiative_skill_combo.setToolTip(tr(
            _CTX, "The skill this combatant adds to initiative (Ch.6: Recon for the "
                  "conditions, Tactics to predict the adversary, a weapon skill to ready the "
                  "weapon); remembered for every roll of this fight"))
        self.initiative_skill_combo.setAccessibleName(tr(_CTX, "Initiative skill"))
        form.addRow(tr(_CTX, "Initiative"), self.initiative_skill_combo)
        self.next_roll_list = QListWidget(objectName="next_roll")
        self.next_roll_list.setMaximumHeight(48)
        self.next_roll_list.setToolTip(tr(
            _CTX, "What waits on this combatant's next roll (a grapple's advantage or "
                  "disadvantage, a supporter's Effect): the resolver, a grapple and the "
                  "quick check count it and use it up"))
        self.next_roll_list.setAccessibleName(tr(_CTX, "Next roll"))
        form.addRow(tr(_CTX, "Next roll"), self.next_roll_list)
        self.tactics_label = QLabel(objectName="side_tactics")
        self.tactics_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        self.tactics_label.setWordWrap(True)
        self.tactics_label.setToolTip(tr(_CTX, "The side's Tactics rolls (Ch.6: the capped "
                                               "Effect of the leader's Tactics check, T), "
                                               "spent from the resolver, a grapple or a "
                                               "check"))
        form.addRow(tr(_CTX, "Tactics"), self.tactics_label)
        self.moving_label = QLabel(objectName="moving_target")
        self.moving_label.setTextFormat(Qt.TextFormat.PlainText)
        self.moving_label.setToolTip(tr(_CTX, "Ch.6 running: a Move Difficulty condition on "
                                              "attacks against the mover (Dash +1, Run +2, "
                                              "the project's reading), counted by the "
                                              "resolver"))
        self.moving_label.setVisible(False)
        form.addRow(self.moving_label)
        row = QHBoxLayout()
        self.drop_next_roll_button = QPushButton(tr(_CTX, "Take off"),
                                                 objectName="drop_next_roll")
        self.drop_next_roll_button.setToolTip(tr(_CTX, "Strike the selected term off the next "
                                                       "roll (the situation changed)"))
        self.grapple_button = QPushButton(tr(_CTX, "Grapple…"), objectName="grapple")
        self.grapple_button.setToolTip(tr(_CTX, "An opposed Natural Weapons check against an "
                                                "opponent at Personal range (Ch.6 grappling)"))
        self.support_button = QPushButton(tr(_CTX, "Support…"), objectName="support")
        self.support_button.setToolTip(tr(_CTX, "A supporting action (Ch.6): this combatant's "
                                                "Success Effect becomes a DM on an ally's next "
                                                "roll"))
        row.addWidget(self.grapple_button)
        row.addWidget(self.support_button)
        self.athletics_button = QPushButton(tr(_CTX, "Dash/Run check…"),
                                            objectName="dash_run_check")
        self.athletics_button.setToolTip(tr(_CTX, "Athletics for a Dash or Run through "
                                                  "obstacles, bad footing or fire (Ch.6): 8 + "
                                                  "conditions"))
        row.addWidget(self.athletics_button)
        row.addStretch(1)
        row.addWidget(self.drop_next_roll_button)
        form.addRow(row)
        self.grapple_dialog: GrappleDialog | None = None
        self.support_dialog: SupportDialog | None = None
        self.dash_run_dialog: DashRunDialog | None = None
        self.initiative_skill_combo.activated.connect(self._initiative_skill_chosen)
        self.drop_next_roll_button.clicked.connect(self.drop_next_roll)
        self.grapple_button.clicked.connect(self.open_grapple_dialog)
        self.support_button.clicked.connect(self.open_support_dialog)
        self.athletics_button.clicked.connect(self.open_dash_run_dialog)

    # --- showing -----------------------------------------------------------------------

    def show_combatant(self, campaign: Campaign, encounter: Encounter,
                       combatant: Combatant) -> None:
        """Show ``combatant`` as the encounter has them now."""
        self._combatant_id = combatant.id
        self._show_initiative_skill(campaign, combatant)
        self._show_next_roll(encounter, combatant)
        self._show_tactics(campaign, encounter, combatant)
        moved = moved_this_round(encounter, combatant)
        self.moving_label.setVisible(moved is not None)
        if moved is not None:
            self.moving_label.setText(tr(_CTX, "{0} this round: attacks on them {1:+d} "
                                               "Difficulty").format(
                move_label(moved), moving_target_condition(moved)))

    def _show_tactics(self, campaign: Campaign, encounter: Encounter,
                      combatant: Combatant) -> None:
        pool = side_tactics(encounter, combatant.side)
        made, allowed = tactics_attempts(campaign, combatant)
        side = combatant.side.label
        text = (tr(_CTX, "{0}: {1}").format(side, tactics_text(pool)) if pool is not None
                else tr(_CTX, "{0}: no Tactics rolls to spend").format(side))
        if made:
            text += tr(_CTX, "; this combatant's attempts {0} of {1}").format(made, allowed)
        self.tactics_label.setText(text)

    def _show_next_roll(self, encounter: Encounter, combatant: Combatant) -> None:
        """The live terms, each with its place in the stored list (to take it off)."""
        self.next_roll_list.clear()
        live = live_next_roll(encounter, combatant)
        for index, term in enumerate(combatant.next_roll):
            if term not in live:
                continue
            item = QListWidgetItem(next_roll_text(term))
            item.setData(VALUE_ROLE, index)
            self.next_roll_list.addItem(item)
        if not live:
            item = QListWidgetItem(tr(_CTX, "Nothing waits on the next roll"))
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.next_roll_list.addItem(item)
        self.drop_next_roll_button.setEnabled(bool(live))

    def _show_initiative_skill(self, campaign: Campaign, combatant: Combatant) -> None:
        """"Chosen when rolling", then the sheet's skills with their levels and the Ch.6
        examples; refilled only when the choices change."""
        sheet = campaign.combatant_character(combatant)
        choices = fight.initiative_skill_choices(sheet)
        own = combatant.initiative_skill
        if own is not None and own.casefold() not in {c.casefold() for c in choices}:
            choices.append(own)
        key = (combatant.id, tuple((c, sheet.skill_level(c)) for c in choices))
        combo = self.initiative_skill_combo
        combo.blockSignals(True)
        try:
            if key != self._choices_key:
                self._choices_key = key
                combo.clear()
                combo.addItem(tr(_CTX, "Skill chosen when rolling"), None)
                for choice in choices:
                    level = sheet.skill_level(choice)
                    text = (tr(_CTX, "{0}-{1} (+{1})").format(choice, level)
                            if level is not None else
                            tr(_CTX, "{0} (not held, +0)").format(choice))
                    combo.addItem(text, choice)
            index = combo.findData(own) if own is not None else 0
            combo.setCurrentIndex(max(0, index))
        finally:
            combo.blockSignals(False)

    # --- steps -------------------------------------------------------------------------

    def _initiative_skill_chosen(self, _index: int = 0) -> None:
        combatant_id = self._combatant_id
        if combatant_id is None:
            return
        skill = self.initiative_skill_combo.currentData()
        chosen = skill if isinstance(skill, str) else None
        self.set_initiative_skill(combatant_id, chosen)

    def drop_next_roll(self) -> bool:
        """Take the selected term off the combatant's next roll (one step)."""
        item = self.next_roll_list.currentItem()
        index = item.data(VALUE_ROLE) if item is not None else None
        combatant_id = self._combatant_id
        if index is None or combatant_id is None:
            self._view.show_message(tr(_CTX, "Select what to take off the next roll"))
            return False
        return self._view.run(
            lambda c, e: drop_next_roll_patch(c, e, combatant_id, int(index)))

    def open_grapple_dialog(self) -> GrappleDialog | None:
        """The grapple dialog with this combatant as the grappler."""
        encounter_id = self._view.encounter_id()
        if encounter_id is None or self._combatant_id is None:
            return None
        dialog = GrappleDialog(self._view.document, encounter_id, self._combatant_id,
                               self._view.rng, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.grapple_dialog = dialog
        dialog.open()
        return dialog

    def open_support_dialog(self) -> SupportDialog | None:
        """The supporting action dialog with this combatant as the supporter."""
        encounter_id = self._view.encounter_id()
        if encounter_id is None or self._combatant_id is None:
            return None
        dialog = SupportDialog(self._view.document, encounter_id, self._combatant_id,
                               self._view.rng, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.support_dialog = dialog
        dialog.open()
        return dialog

    def open_dash_run_dialog(self) -> DashRunDialog | None:
        """The Athletics check of a Dash or Run for this combatant."""
        encounter_id = self._view.encounter_id()
        if encounter_id is None or self._combatant_id is None:
            return None
        dialog = DashRunDialog(self._view.document, encounter_id, self._combatant_id,
                               self._view.rng, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dash_run_dialog = dialog
        dialog.open()
        return dialog

    def set_initiative_skill(self, combatant_id: str, skill: str | None) -> bool:
        """One step: remember the skill ``combatant_id`` rolls initiative with."""
        return self._view.run(
            lambda c, e: fight.initiative_skill_patch(c, e, combatant_id, skill))
