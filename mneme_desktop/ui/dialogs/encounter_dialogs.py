"""The encounter's small dialogs: roll initiative, a Tactics check, add adversaries from
the library and add campaign characters. They only collect choices; the view runs them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain import Campaign, Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.combat.tactics import TacticsUse, tactics_attempts
from mneme_desktop.domain.next_roll import side_tactics, tactics_text
from mneme_desktop.rules.actions import TACTICS_DIFFICULTIES, tactics_max_effect
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.models.roles import ID_ROLE

if TYPE_CHECKING:
    from mneme_desktop.ui.views.encounter_view import EncounterView

from mneme_desktop.ui.i18n import tr

_CTX = "EncounterDialogs"

__all__ = ["AddAdversariesDialog", "AddCharactersDialog", "InitiativeDialog", "TacticsDialog"]

class InitiativeDialog(QDialog):
    """Roll initiative for everyone: 2d6 + DEX DM + a chosen skill, or an ambush."""

    def __init__(self, skills: list[str], parent: QWidget | None = None,
                 own_skills: list[tuple[str, str]] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Roll initiative"))
        form = QFormLayout(self)
        self.skill_combo = QComboBox(objectName="initiative_skill")
        self.skill_combo.setEditable(True)
        self.skill_combo.addItem("")
        self.skill_combo.addItems(skills)
        self.skill_combo.setToolTip(tr(_CTX, "Each combatant without a skill of their own adds "
                                             "their level in this skill (Recon, Tactics, a "
                                             "weapon skill); no skill adds nothing"))
        form.addRow(tr(_CTX, "Skill for the rest"), self.skill_combo)
        # Who rolls with their own skill (chosen in the combatant panel).
        self.own_skills_label = QLabel(objectName="initiative_own_skills")
        self.own_skills_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        self.own_skills_label.setWordWrap(True)
        self.own_skills_label.setText(
            tr(_CTX, "Own skills: {0}").format("; ".join(
                f"{name}: {skill}" for name, skill in own_skills)) if own_skills else
            tr(_CTX, "Nobody has an initiative skill of their own (set one in the "
                    "combatant panel)"))
        form.addRow(self.own_skills_label)
        self.only_missing_check = QCheckBox(tr(_CTX, "Only those without initiative"),
                                            objectName="only_missing")
        form.addRow(self.only_missing_check)
        self.ambush_combo = QComboBox(objectName="ambush")
        self.ambush_combo.addItem(tr(_CTX, "No ambush: everyone rolls"), None)
        for side in Side:
            self.ambush_combo.addItem(tr(_CTX, "{0} are prepared (12 + DEX DM)").format(
                    side.label), side)
        self.ambush_combo.setToolTip(tr(_CTX, "In an ambush the prepared side counts an "
                                              "automatic 12"))
        form.addRow(tr(_CTX, "Ambush"), self.ambush_combo)
        buttons = ok_cancel_buttons(self, tr(_CTX, "Roll"))
        form.addRow(buttons)
        self.buttons = buttons

    @property
    def skill(self) -> str | None:
        return self.skill_combo.currentText().strip() or None


class TacticsDialog(QDialog):
    """A Tactics check at a declared risk; its Effect goes to the leader's unit."""

    def __init__(self, view: EncounterView) -> None:
        super().__init__(view)
        self.setWindowTitle(tr(_CTX, "Tactics check"))
        self._view = view
        form = QFormLayout(self)
        self.leader_combo = QComboBox(objectName="tactics_leader")
        form.addRow(tr(_CTX, "Leader"), self.leader_combo)
        self.difficulty_combo = QComboBox(objectName="tactics_difficulty")
        for difficulty in TACTICS_DIFFICULTIES:
            self.difficulty_combo.addItem(
                tr(_CTX, "{0} (Effect at most ±{1})").format(
                        difficulty, tactics_max_effect(difficulty)), difficulty)
        self.difficulty_combo.setCurrentIndex(1)
        form.addRow(tr(_CTX, "Declared risk"), self.difficulty_combo)
        self.use_combo = QComboBox(objectName="tactics_use")
        for use, text in ((TacticsUse.INITIATIVE, tr(_CTX, "Initiative of the unit (Ch.6 "
                                                         "initiative)")),
                          (TacticsUse.POOL, tr(_CTX, "Advantage rolls for the side (Ch.6 "
                                                   "Tactics skill)")),
                          (TacticsUse.BOTH, tr(_CTX, "Both, from this one check"))):
            self.use_combo.addItem(text, use)
        self.use_combo.setToolTip(tr(_CTX, "The capped Effect goes to the initiative of the "
                                           "unit in communication, or becomes that many "
                                           "advantage (failed: disadvantage) rolls the side "
                                           "spends on its rolls"))
        form.addRow(tr(_CTX, "Effect buys"), self.use_combo)
        self.attempts_label = QLabel(objectName="tactics_attempts")
        self.attempts_label.setTextFormat(Qt.TextFormat.PlainText)  # names, never markup
        self.attempts_label.setWordWrap(True)
        form.addRow(self.attempts_label)
        self.changed_check = QCheckBox(tr(_CTX, "The battle has changed a lot (referee)"),
                                       objectName="tactics_battle_changed")
        self.changed_check.setToolTip(tr(_CTX, "Ch.6: past skill + 1 attempts, a new Tactics "
                                               "check only if the battle changed a lot"))
        form.addRow(self.changed_check)
        self.dm_spin = QSpinBox(objectName="tactics_dm", minimum=-15, maximum=15)
        self.dm_spin.setToolTip(tr(_CTX, "Tactics level (unskilled -3) + INT DM + wound penalty"))
        form.addRow(tr(_CTX, "DM"), self.dm_spin)
        self.dice_edit = QLineEdit(objectName="tactics_dice")
        self.dice_edit.setPlaceholderText(tr(_CTX, "empty: roll in the app; or the table's dice, "
                                                   "4 5"))
        form.addRow(tr(_CTX, "Dice"), self.dice_edit)
        self.unit_list = QListWidget(objectName="tactics_unit")
        self.unit_list.setToolTip(tr(_CTX, "Everyone in direct communication with the leader"))
        form.addRow(tr(_CTX, "Unit"), self.unit_list)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons
        self.leader_combo.currentIndexChanged.connect(self._leader_changed)
        self.use_combo.currentIndexChanged.connect(self._use_changed)
        self._use_changed()

    @property
    def use(self) -> TacticsUse:
        value = self.use_combo.currentData()
        return value if isinstance(value, TacticsUse) else TacticsUse.INITIATIVE

    def _use_changed(self, _index: int = 0) -> None:
        """The unit matters to initiative; attempts and the pool to advantage rolls."""
        self.unit_list.setEnabled(self.use is not TacticsUse.POOL)
        pool = self.use is not TacticsUse.INITIATIVE
        self.attempts_label.setVisible(pool)
        self.changed_check.setVisible(pool)

    def fill(self, campaign: Campaign, encounter: Encounter, leader_id: str | None) -> None:
        self.leader_combo.blockSignals(True)
        self.leader_combo.clear()
        for combatant in encounter.initiative_order():
            self.leader_combo.addItem(campaign.combatant_character(combatant).name,
                                      combatant.id)
        self.leader_combo.setCurrentIndex(max(0, self.leader_combo.findData(leader_id)))
        self.leader_combo.blockSignals(False)
        self._campaign, self._encounter = campaign, encounter
        self._leader_changed()

    def _leader_changed(self) -> None:
        leader_id = self.leader_combo.currentData()
        self.unit_list.clear()
        leader = self._encounter.find_combatant(leader_id) if leader_id else None
        if leader is None:
            return
        self.dm_spin.setValue(fight.tactics_modifier(
            self._campaign.combatant_character(leader)))
        made, allowed = tactics_attempts(self._campaign, leader)
        pool = side_tactics(self._encounter, leader.side)
        text = tr(_CTX, "{0} has made {1} of {2} attempts for advantage rolls (Tactics "
                        "skill + 1)").format(self._campaign.combatant_character(leader).name,
                                             made, allowed)
        if pool is not None:
            text += tr(_CTX, "; the {0}' rolls are not used up: {1}").format(
                leader.side.label, tactics_text(pool))
        self.attempts_label.setText(text)
        for combatant in self._encounter.initiative_order():
            item = QListWidgetItem(self._campaign.combatant_character(combatant).name)
            item.setData(ID_ROLE, combatant.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if combatant.side is leader.side
                               else Qt.CheckState.Unchecked)
            self.unit_list.addItem(item)

    def unit_ids(self) -> list[str]:
        return [str(self.unit_list.item(i).data(ID_ROLE)) for i in range(self.unit_list.count())
                if self.unit_list.item(i).checkState() == Qt.CheckState.Checked]

    def dice_source(self, rng: random.Random) -> fight.DiceSource:
        """The dice box read once: empty rolls in the app with ``rng``, else the two dice
        typed (a ``ValueError`` says what is wrong with them)."""
        return fight.parse_dice_source(self.dice_edit.text(), rng)


class AddAdversariesDialog(QDialog):
    """N numbered copies of a library template ("Raider 1".."Raider N")."""

    def __init__(self, campaign: Campaign, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Add adversaries"))
        form = QFormLayout(self)
        self.template_combo = QComboBox(objectName="template")
        for template in campaign.adversary_library:
            self.template_combo.addItem(template.name, template.id)
        form.addRow(tr(_CTX, "Template"), self.template_combo)
        self.count_spin = QSpinBox(objectName="count", minimum=1, maximum=500, value=1)
        form.addRow(tr(_CTX, "How many"), self.count_spin)
        self.side_combo = QComboBox(objectName="side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
        self.side_combo.setCurrentIndex(self.side_combo.findData(Side.ENEMIES))
        form.addRow(tr(_CTX, "Side"), self.side_combo)
        self.hidden_check = QCheckBox(tr(_CTX, "Add hidden from the players"),
                                      objectName="add_hidden")
        self.hidden_check.setToolTip(tr(_CTX, "They join the turn order but stay off the "
                                              "player display until you reveal them"))
        form.addRow(self.hidden_check)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons


class AddCharactersDialog(QDialog):
    """Campaign characters (player characters and NPCs) not yet in the fight."""

    def __init__(self, campaign: Campaign, encounter: Encounter,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Add characters"))
        form = QFormLayout(self)
        present = {c.character_id for c in encounter.combatants}
        self.character_list = QListWidget(objectName="characters")
        for character in campaign.characters:
            if character.id in present:
                continue
            item = QListWidgetItem(f"{character.name} ({character.kind.value})")
            item.setData(ID_ROLE, character.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.character_list.addItem(item)
        form.addRow(self.character_list)
        self.side_combo = QComboBox(objectName="side")
        for side in Side:
            self.side_combo.addItem(side.label, side)
        form.addRow(tr(_CTX, "Side"), self.side_combo)
        buttons = ok_cancel_buttons(self)
        form.addRow(buttons)
        self.buttons = buttons

    def chosen_ids(self) -> list[str]:
        items = (self.character_list.item(i) for i in range(self.character_list.count()))
        return [str(item.data(ID_ROLE)) for item in items
                if item.checkState() == Qt.CheckState.Checked]
