"""The selected combatant's panel: it shows the combatant as the encounter has them and
turns each button into one step on the undo stack (action economy, aim, stance, movement,
conditions, survival rolls, extended actions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFormLayout, QListView, QListWidgetItem, QVBoxLayout

from mneme_desktop.domain import Campaign, Character, ConditionKind, Encounter, Side
from mneme_desktop.domain import combat as fight
from mneme_desktop.domain.attack_terms import aim_cap_text
from mneme_desktop.domain.combat import CombatError, EncounterPatch, TaskTiming
from mneme_desktop.domain.quick_check import TimeUnit
from mneme_desktop.domain.roll_terms import survival_terms, terms_text
from mneme_desktop.rules.actions import MINOR_ACTIONS_PER_ROUND, ActionOption, Load, MovementMode
from mneme_desktop.rules.checks import DEFAULT_DIFFICULTY, CheckResult, success_chance
from mneme_desktop.rules.healing import first_aid_difficulty
from mneme_desktop.rules.movement import GridScale
from mneme_desktop.rules.track import damage_track
from mneme_desktop.rules.wounds import DYING_DIFFICULTY, MASSIVE_DAMAGE_DIFFICULTY, WoundState
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.roles import ID_ROLE, VALUE_ROLE
from mneme_desktop.ui.views.aim_assist import AimAssist
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.views.combatant_panel_form import (
    CombatantPanelForm,
    TimingMode,
    first_aid_task,
    move_label,
    stance_label,
)
from mneme_desktop.ui.views.combatant_rolls import CombatantRollsBox

if TYPE_CHECKING:
    from mneme_desktop.ui.views.encounter_view import EncounterView

__all__ = ["CombatantPanel"]

_CTX = "CombatantPanel"

_MakePatch = Callable[[Campaign, Encounter], EncounterPatch]

_FIRST_AID_CHECK = "\x00first aid"
"""The timing check's "skill" that is first aid's own check (Medic, EDU, wounds)."""
_UNITS = {TimeUnit.ROUNDS: (tr_noop(_CTX, "{0} round"), tr_noop(_CTX, "{0} rounds")),
          TimeUnit.MINUTES: (tr_noop(_CTX, "{0} minute"), tr_noop(_CTX, "{0} minutes")),
          TimeUnit.HOURS: (tr_noop(_CTX, "{0} hour"), tr_noop(_CTX, "{0} hours"))}

_LOADS = {Load.LIGHT: tr_noop(_CTX, "Light"), Load.MEDIUM: tr_noop(_CTX, "Medium"),
          Load.HEAVY: tr_noop(_CTX, "Heavy")}


class CombatantPanel(CombatantPanelForm):
    """Everything one combatant can do and suffer this round."""

    def __init__(self, view: EncounterView) -> None:
        super().__init__(view)
        self._view = view
        self._combatant_id: str | None = None
        self._others: list[tuple[str, str]] = []
        self._others_own: str | None = None
        self._track_key: tuple[object, ...] | None = None
        self._conditions_key: tuple[object, ...] | None = None
        self._dirty = False
        self._gesture_serial = 0
        self._gesture_start: int | None = None
        # The timing check rolled and not yet used: whose, at which DM and difficulty, its
        # result and whether the table's dice gave it.
        self._held_timing: tuple[str, int, int, CheckResult, bool] | None = None
        self._timing_for: tuple[str, tuple[str, ...]] | None = None
        self._build()
        self._connect()
        # Initiative skill, grapple, support and what waits on the next roll.
        self.rolls_box = CombatantRollsBox(view, self)
        box_layout = self.layout()
        assert isinstance(box_layout, QVBoxLayout)
        box_layout.insertWidget(box_layout.indexOf(self.hp_bar) + 1, self.rolls_box)
        self._body = (*self._body, self.rolls_box)
        # Ballistic correction and the aim moved to a target in the same position.
        self.aim_assist = AimAssist(view, self.aim_target_combo, self.aim_weapon_combo)
        aim_form = self.aim_label.parentWidget().layout()
        assert isinstance(aim_form, QFormLayout)
        aim_row = next(row for row in range(aim_form.rowCount()) if (
            item := aim_form.itemAt(row, QFormLayout.ItemRole.SpanningRole)) is not None
            and item.widget() is self.aim_label)
        aim_form.insertRow(aim_row + 1, self.aim_assist)

    def showEvent(self, event: QShowEvent) -> None:
        if self._dirty:
            self.refresh()
        super().showEvent(event)

    # --- connections -------------------------------------------------------------------

    def _connect(self) -> None:
        """Each widget to the step it takes (the form itself knows no steps)."""
        self.side_combo.activated.connect(self._side_chosen)
        self.out_check.clicked.connect(self._out_toggled)
        self.hidden_check.clicked.connect(self._hidden_toggled)
        self.hp_bar.damage_requested.connect(self._damage_requested)
        self.pips.action_chosen.connect(self.take_action)
        self.take_button.clicked.connect(
            lambda: self.take_action(str(self.action_combo.currentData(ID_ROLE))))
        self.action_combo.currentIndexChanged.connect(self._describe_action)
        self.aim_button.clicked.connect(self.aim)
        self.aim_weapon_combo.activated.connect(self._aim_weapon_chosen)
        self.stance_combo.activated.connect(self._stance_chosen)
        self.movement_scale_combo.activated.connect(self._movement_scale_chosen)
        self.cover_combo.activated.connect(self._cover_chosen)
        for mode, button in self.move_buttons.items():
            button.clicked.connect(lambda _=False, m=mode: self.move_combatant(m))
        self.start_task_button.clicked.connect(self.start_task)
        self.work_roll_button.clicked.connect(lambda: self.work_task(None))
        self.work_dice_button.clicked.connect(lambda: self.work_task(self.work_dice_edit.text()))
        self.work_dice_edit.returnPressed.connect(
            lambda: self.work_task(self.work_dice_edit.text()))
        self.abort_button.clicked.connect(self.abort_task)
        self.timing_mode_combo.currentIndexChanged.connect(self._timing_mode_chosen)
        self.median_spin.valueChanged.connect(self._show_timing)
        self.median_unit_combo.currentIndexChanged.connect(self._show_timing)
        self.timing_effect_spin.valueChanged.connect(self._show_timing)
        self.timing_skill_combo.activated.connect(self._timing_skill_chosen)
        self.timing_dm_spin.valueChanged.connect(self._timing_check_changed)
        self.timing_difficulty_spin.valueChanged.connect(self._timing_check_changed)
        self.timing_dice_edit.textEdited.connect(self._timing_check_changed)
        self.timing_dice_edit.returnPressed.connect(self.roll_timing)
        self.timing_roll_button.clicked.connect(self.roll_timing)
        self.first_aid_check.toggled.connect(self._first_aid_toggled)
        self.patient_combo.activated.connect(lambda _=0: self._first_aid_check_terms())
        self.add_condition_button.clicked.connect(self.add_condition)
        self.remove_condition_button.clicked.connect(self.remove_condition)
        self.dying_button.clicked.connect(lambda: self.survival_roll(dying=True))
        self.massive_button.clicked.connect(lambda: self.survival_roll(dying=False))
        self._describe_action()

    # --- state -------------------------------------------------------------------------

    @property
    def combatant_id(self) -> str | None:
        return self._combatant_id

    def set_combatant(self, combatant_id: str | None) -> None:
        self._combatant_id = combatant_id
        self.refresh()

    def refresh(self) -> None:
        """Show the combatant as the encounter now has it (when next shown, if hidden
        behind the Attack tab)."""
        if not self.isVisible():
            self._dirty = True
            return
        self._dirty = False
        view = self._view
        encounter = view.encounter()
        combatant = encounter.find_combatant(self._combatant_id) if (
            encounter is not None and self._combatant_id) else None
        self.setEnabled(combatant is not None)
        for widget in self._body:
            widget.setVisible(combatant is not None)
        if encounter is None or combatant is None:
            self.name_label.setText(
                tr(_CTX, "Choose a combatant in the turn order") if encounter is not None
                and encounter.combatants else tr(_CTX, "No one in this fight yet"))
            self.conditions_list.clear()
            self._conditions_key = None
            self._track_key = None
            return
        campaign = view.document.campaign
        sheet = campaign.combatant_character(combatant)
        status = fight.combatant_status(campaign, encounter, combatant)
        widgets = (self.side_combo, self.stance_combo, self.cover_combo,
                   self.aim_target_combo, self.patient_combo)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            current = encounter.current_combatant
            if current is not None and current.id == combatant.id:
                self.name_label.setText(tr(_CTX, "{0} — their turn").format(sheet.name))
            elif combatant.delayed:
                self.name_label.setText(tr(_CTX, "{0} — delayed").format(sheet.name))
            else:
                self.name_label.setText(sheet.name)
            self.hp_bar.set_subject(sheet.name)  # screen readers say whose bar and pips
            self.pips.set_subject(sheet.name)
            self.side_combo.setCurrentIndex(self.side_combo.findData(combatant.side))
            self.out_check.setChecked(combatant.out_of_fight)
            self.hidden_check.setChecked(not combatant.revealed)
            track_key = (sheet.damage, status.hp, status.thresholds)
            if track_key != self._track_key:
                self._track_key = track_key
                self.hp_bar.set_track(damage_track(sheet.damage, status.hp,
                                                   status.thresholds))
            self.pips.set_spent(combatant.actions_spent)
            self.rolls_box.show_combatant(campaign, encounter, combatant)
            left = MINOR_ACTIONS_PER_ROUND - combatant.actions_spent
            self.pips_label.setText((tr(_CTX, "{0} minor action left") if left == 1
                                     else tr(_CTX, "{0} minor actions left")).format(left))
            self._fill_others(encounter, campaign, combatant)
            self._show_aim(encounter, campaign, combatant)
            self.aim_assist.show_combatant(campaign, encounter, combatant)
            self.stance_combo.setCurrentIndex(self.stance_combo.findData(combatant.stance))
            self.cover_combo.setCurrentIndex(self.cover_combo.findData(combatant.cover))
            self._show_movement(campaign, combatant)
            self._show_task(campaign, encounter, combatant)
            self._show_conditions(sheet, status)
            dying = status.state is WoundState.DYING
            # Over HP means dying: only then can a massive-damage roll wait (a log scan).
            massive_due = dying and fight.massive_roll_due(encounter, combatant.id)
            self._show_survival_odds(sheet, dying and not massive_due)
            self.dying_button.setEnabled(dying)
            self.dying_button.setText(tr(_CTX, "Dying roll (due)") if status.dying_roll_due
                                      else tr(_CTX, "Dying roll"))
            self.massive_button.setText(tr(_CTX, "Massive damage (due)") if massive_due
                                        else tr(_CTX, "Massive damage"))
        finally:
            for widget in widgets:
                widget.blockSignals(False)


    def _show_survival_odds(self, sheet: Character, dying: bool) -> None:
        """'Dying roll: 2d6 DM -8 vs 4 survives 2.78% (1/36)' on the line under the buttons
        (the massive-damage roll's when one is due or the character is not dying) and in the
        buttons' tooltips: the exact chance before the roll, from the sheet as it is now."""
        terms = survival_terms(sheet)
        modifier = sum(term.value for term in terms)
        breakdown = terms_text(terms)
        dying_odds = format_percent(fight.survival_chance(sheet, dying=True))
        massive_odds = format_percent(fight.survival_chance(sheet, dying=False))
        dm = f"{modifier:+d}"
        dying_text = tr(_CTX, "Dying roll: 2d6 DM {0} vs {1} survives {2}").format(
            dm, DYING_DIFFICULTY, dying_odds)
        massive_text = tr(_CTX, "Massive damage: 2d6 DM {0} vs {1} survives {2}").format(
            dm, MASSIVE_DAMAGE_DIFFICULTY, massive_odds)
        self.survival_odds.show_message(dying_text if dying else massive_text)
        self.dying_button.setToolTip(tr(_CTX, "{0} ({1}); failure is death").format(
            dying_text, breakdown))
        self.massive_button.setToolTip(tr(_CTX, "{0} ({1}): survive crippled, or die").format(
            massive_text, breakdown))

    def _fill_others(self, encounter: Encounter, campaign: Campaign, own: Any) -> None:
        """Aim targets and patients. Both lists hold everyone in the fight and are refilled
        only when the people change; for each combatant their own row is hidden from the
        aim list and marked "(themselves)" as a patient, so a new turn refills nothing."""
        people = [(c.instance.name if c.instance is not None else
                   campaign.combatant_character(c).name, c.id)
                  for c in encounter.combatants if not c.out_of_fight]
        aim, patient = self.aim_target_combo, self.patient_combo
        if people != self._others:
            self._others = people
            for combo in (aim, patient):
                chosen = combo.currentData()
                combo.clear()
                for text, data in people:
                    combo.addItem(text, data)
                combo.setCurrentIndex(max(0, combo.findData(chosen)))
            self._others_own = None
        if own.id != self._others_own:
            names = dict((combatant_id, name) for name, combatant_id in people)
            aim_list = aim.view()
            assert isinstance(aim_list, QListView)
            for combatant_id, is_own in ((self._others_own, False), (own.id, True)):
                row = aim.findData(combatant_id) if combatant_id is not None else -1
                if row < 0:
                    continue
                aim_list.setRowHidden(row, is_own)
                name = names.get(str(combatant_id), "")
                patient.setItemText(row, tr(_CTX, "{0} (themselves)").format(name) if is_own
                                    else name)
            self._others_own = own.id
        if own.aim_target_id:
            index = aim.findData(own.aim_target_id)
        elif aim.currentData() == own.id:
            index = next((i for i in range(aim.count()) if aim.itemData(i) != own.id), -1)
        else:
            index = aim.currentIndex()
        aim.setCurrentIndex(index)

    def _show_aim(self, encounter: Encounter, campaign: Campaign, combatant: Any) -> None:
        """The weapons to aim with (the next attack's, as the resolver has it) and the aim
        built up, with the cap for that weapon."""
        weapons = campaign.combatant_character(combatant).weapons
        combo = self.aim_weapon_combo
        names = [w.name for w in weapons]
        if names != [combo.itemText(i) for i in range(combo.count())]:
            combo.clear()
            combo.addItems(names)
        index = self._view.resolver.next_weapon(combatant.id)
        combo.setCurrentIndex(index if index < len(weapons) else 0)
        weapon = weapons[combo.currentIndex()] if weapons else None
        cap = aim_cap_text(weapon)
        if not combatant.aim or combatant.aim_target_id is None:
            self.aim_label.setText(tr(_CTX, "No aim built up ({0})").format(cap))
            return
        target = encounter.find_combatant(combatant.aim_target_id)
        name = campaign.combatant_character(target).name if target else "?"
        self.aim_label.setText(tr(_CTX, "Aim +{0} on {1} (kept across rounds, {2})").format(
            combatant.aim, name, cap))

    def _aim_weapon_chosen(self, index: int) -> None:
        if self._combatant_id is not None and index >= 0:
            self._view.resolver.set_next_weapon(self._combatant_id, index)

    def _show_movement(self, campaign: Campaign, combatant: Any) -> None:
        sheet = campaign.combatant_character(combatant)
        encounter = self._view.encounter()
        scale = encounter.movement_scale if encounter is not None else GridScale.FINE
        self.movement_scale_combo.setCurrentIndex(self.movement_scale_combo.findData(scale))
        parts = []
        for mode, spaces, metres in fight.movement_options(campaign, combatant, scale):
            button = self.move_buttons[mode]
            kind = mode.action_kind
            label = move_label(mode)
            if spaces is None or metres is None:
                parts.append(tr(_CTX, "{0} —").format(label))
                button.setEnabled(False)
                button.setToolTip(tr(_CTX, "{0}: not possible now").format(label))
            else:
                shown = f"{float(metres):g}"
                parts.append(tr(_CTX, "{0} {1} sp ({2} m)").format(label, spaces, shown))
                button.setEnabled(True)
                button.setToolTip(tr(_CTX, "{0} {1} spaces ({2} m): {3}, {4} minor").format(
                    label, spaces, shown, kind.label, kind.cost))
        self.movement_label.setText(
            " · ".join(parts) + "\n" + tr(
                _CTX, "{0} load, {1} (Ch.6 movement table, {2} m spaces)").format(
                tr(_CTX, _LOADS[sheet.load]) if sheet.load in _LOADS
                else sheet.load.value.capitalize(),
                stance_label(combatant.stance).lower(), scale.value))

    def _show_task(self, campaign: Campaign, encounter: Encounter, combatant: Any) -> None:
        task = combatant.extended_task
        self.task_start.setVisible(task is None)
        self.task_work.setVisible(task is not None)
        self.task_progress.setVisible(task is not None)
        if task is None:
            self.task_label.setText(tr(_CTX, "Nothing under way. First aid takes 30 rounds; "
                                             "each round's roll shortens or lengthens it."))
            self._fill_timing_skills(campaign.combatant_character(combatant), combatant.id)
            self._show_timing()
            return
        target = encounter.find_combatant(task.target_id) if task.target_id else None
        name = campaign.combatant_character(target).name if target else ""
        # "First Aid on Ilse" already names its patient: no "First Aid on Ilse on Ilse".
        on = tr(_CTX, " on {0}").format(name) if name else ""
        if on and task.description.endswith(on):
            on = ""
        self.task_label.setText(tr(_CTX, "{0}{1}: {2} of {3} rounds left ({4} worked)").format(
            task.description, on, task.remaining_rounds, task.total_rounds, task.rounds_taken))
        self.task_progress.setRange(0, task.total_rounds)
        self.task_progress.setValue(task.total_rounds - task.remaining_rounds)
        if task.first_aid:
            sheet = campaign.combatant_character(combatant)
            self.work_dm_spin.setValue(fight.first_aid_modifier(sheet))
            self.work_difficulty_spin.setValue(
                first_aid_difficulty(on_self=task.target_id == combatant.id))

    def _show_conditions(self, sheet: Any, status: fight.CombatantStatus) -> None:
        derived = len(status.conditions) - len(sheet.conditions)
        # A list with nothing to select ("No conditions", what follows from the wound
        # state) is refilled only when its text changes: a refill lays the list out and
        # repaints it, and most combatants show the same "No conditions". A list with
        # a condition of the sheet's own is refilled every time, as before (the refill
        # clears its selection).
        key = (status.conditions, derived, status.dying_roll_due) \
            if len(status.conditions) == derived else None
        if key is not None and key == self._conditions_key and self.conditions_list.count():
            return
        self._conditions_key = key
        self.conditions_list.clear()
        for number, text in enumerate(status.conditions):
            item = QListWidgetItem(text)
            if number < derived:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(tr(_CTX, "Follows from the wound state"))
                item.setData(VALUE_ROLE, None)
            else:
                item.setData(VALUE_ROLE, number - derived)
            self.conditions_list.addItem(item)
        if status.dying_roll_due:
            item = QListWidgetItem(tr(_CTX, "Dying roll due this round"))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.conditions_list.addItem(item)
        if not status.conditions and not status.dying_roll_due:
            item = QListWidgetItem(tr(_CTX, "No conditions"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.conditions_list.addItem(item)

    # --- the timing roll ---------------------------------------------------------------

    def _timing_mode(self) -> TimingMode:
        mode = self.timing_mode_combo.currentData()
        return mode if isinstance(mode, TimingMode) else TimingMode.TYPED

    def _fill_timing_skills(self, sheet: Character, combatant_id: str) -> None:
        """The checks the timing roll can be made with: first aid's own (Medic, EDU), then
        the combatant's skills; refilled, and the DM worked out again, only for another
        combatant or other skills, so a DM the referee changed stays as typed."""
        skills = tuple(tr(_CTX, "{0}-{1}").format(skill.label, skill.level)
                       for skill in sheet.skills)
        key = (combatant_id, skills)
        if key == self._timing_for:
            return
        same_person = self._timing_for is not None and self._timing_for[0] == combatant_id
        self._timing_for = key
        if not same_person:
            self._held_timing = None
        combo = self.timing_skill_combo
        chosen = combo.currentData()
        combo.clear()
        combo.addItem(tr(_CTX, "First aid (Medic, EDU)"), _FIRST_AID_CHECK)
        for text, skill in zip(skills, sheet.skills, strict=True):
            combo.addItem(text, skill.label)
        combo.setCurrentIndex(max(0, combo.findData(chosen)))
        self._timing_skill_chosen()

    def _timing_skill_chosen(self, _index: int = 0) -> None:
        """The DM of the chosen check (wounds included) and its Difficulty: first aid's
        own (8 on another, 10 on oneself), or Average (8) for a skill."""
        encounter = self._view.encounter()
        combatant = encounter.find_combatant(self._combatant_id) if (
            encounter is not None and self._combatant_id) else None
        if combatant is None:
            return
        sheet = self._view.document.campaign.combatant_character(combatant)
        skill = self.timing_skill_combo.currentData()
        if skill == _FIRST_AID_CHECK:
            self.timing_dm_spin.setValue(fight.first_aid_modifier(sheet))
            self.timing_difficulty_spin.setValue(first_aid_difficulty(
                on_self=self.patient_combo.currentData() == combatant.id))
        elif isinstance(skill, str):
            self.timing_dm_spin.setValue(fight.task_skill_modifier(sheet, skill))
            self.timing_difficulty_spin.setValue(DEFAULT_DIFFICULTY)
        self._show_timing()

    def _first_aid_check_terms(self) -> None:
        if self.timing_skill_combo.currentData() == _FIRST_AID_CHECK:
            self._timing_skill_chosen()

    def _first_aid_toggled(self, checked: bool) -> None:
        """First aid's check is the task's check the app knows: ticking first aid makes it
        the timing check."""
        if checked:
            self.timing_skill_combo.setCurrentIndex(
                max(0, self.timing_skill_combo.findData(_FIRST_AID_CHECK)))
            self._timing_skill_chosen()

    def _timing_mode_chosen(self, _index: int = 0) -> None:
        self.show_timing_rows(self._timing_mode())
        self._show_timing()

    def _timing_check_changed(self, *_args: object) -> None:
        """Another DM, Difficulty or dice: the check held no longer stands."""
        self._held_timing = None
        self._show_timing()

    def _median(self) -> tuple[int, TimeUnit]:
        unit = self.median_unit_combo.currentData()
        return self.median_spin.value(), unit if isinstance(unit, TimeUnit) else TimeUnit.ROUNDS

    def task_timing(self) -> TaskTiming | None:
        """The timing the Start button would use: None for rounds typed, or a roll not yet
        made."""
        mode = self._timing_mode()
        median, unit = self._median()
        if mode is TimingMode.EFFECT:
            return TaskTiming(median, unit, self.timing_effect_spin.value())
        held = self._held_timing
        if mode is TimingMode.ROLL and held is not None and held[0] == self._combatant_id:
            check, at_table = held[3], held[4]
            return TaskTiming(median, unit, check.effect, check,
                              "dice at the table" if at_table else "rolled")
        return None

    def _median_text(self, timing: TaskTiming) -> str:
        one, many = _UNITS[timing.unit]
        text = tr(_CTX, one if timing.median == 1 else many).format(timing.median)
        if timing.unit is not TimeUnit.ROUNDS:
            text = tr(_CTX, "{0} ({1} rounds)").format(text, timing.median_rounds)
        return text

    def _show_timing(self, *_args: object) -> None:
        """The share of the median and the length that follows, before anything starts; a
        check still to roll shows its chance."""
        mode = self._timing_mode()
        timing = self.task_timing()
        self.start_task_button.setEnabled(mode is not TimingMode.ROLL or timing is not None)
        if mode is TimingMode.TYPED:
            self.timing_label.clear()
            return
        if timing is None:
            dm, difficulty = self.timing_dm_spin.value(), self.timing_difficulty_spin.value()
            self.timing_label.setText(tr(
                _CTX, "Timing check 2d6 DM {0:+d} vs {1} succeeds {2}. Roll timing to see "
                      "the length, then Start.").format(
                dm, difficulty, format_percent(success_chance(dm, difficulty))))
            return
        check = timing.check
        if check is None:
            found = tr(_CTX, "Effect {0:+d}").format(timing.effect)
        else:
            how = tr(_CTX, "Table dice") if timing.how == "dice at the table" \
                else tr(_CTX, "Rolled")
            found = tr(_CTX, "{0} {1} DM {2:+d} vs {3} = {4}, Effect {5:+d}").format(
                how, "+".join(map(str, check.kept)), check.modifier, check.difficulty,
                check.total, timing.effect)
        text = tr(_CTX, "{0}: {1} of {2} = {3} rounds").format(
            found, timing.percent, self._median_text(timing), timing.rounds)
        if timing.modifier.interpolated:
            text += (tr(_CTX, " (past +2 the time stays at 25%)") if timing.effect > 2 else
                     tr(_CTX, " (the project's reading for -2, between -1's 150% and -3's "
                              "200%)") if timing.effect == -2 else
                     tr(_CTX, " (the project's reading: 25% more a point past -3)"))
        self.timing_label.setText(text)

    def roll_timing(self) -> bool:
        """Make the timing check (app roll, or the table's dice typed) and hold its result
        for Start; nothing changes in the encounter until then."""
        combatant_id = self._id()
        try:
            source = fight.parse_dice_source(self.timing_dice_edit.text(), self._view.rng)
            median, unit = self._median()
            dm, difficulty = self.timing_dm_spin.value(), self.timing_difficulty_spin.value()
            timing = fight.roll_task_timing(median, unit, source, dm, difficulty)
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        assert timing.check is not None
        self._held_timing = (combatant_id, dm, difficulty, timing.check, source.at_table)
        self._view.show_message("")
        self._show_timing()
        return True

    # --- steps -------------------------------------------------------------------------

    def _run(self, make: _MakePatch) -> bool:
        return self._view.run(make)

    def _current_damage(self, combatant_id: str) -> int | None:
        encounter = self._view.encounter()
        combatant = encounter.find_combatant(combatant_id) if encounter is not None else None
        if combatant is None:
            return None
        return self._view.document.campaign.combatant_character(combatant).damage

    def _id(self) -> str:
        if self._combatant_id is None:
            raise CombatError(tr(_CTX, "select a combatant first"))
        return self._combatant_id

    def _describe_action(self) -> None:
        tooltip = self.action_combo.currentData(Qt.ItemDataRole.ToolTipRole)
        self.action_description.setText(str(tooltip or ""))

    def take_action(self, key: str) -> bool:
        """Take an action from the catalog; some open the tool that resolves them."""
        combatant_id = self._combatant_id
        if combatant_id is None:
            self._view.show_message(tr(_CTX, "Select a combatant first"))
            return False
        if key == "aim":
            return self.aim()
        moves = {"minor_movement": MovementMode.MOVE, "dash": MovementMode.DASH,
                 "run": MovementMode.RUN}
        if key in moves:
            return self.move_combatant(moves[key])
        if key in ("attack", "defend"):
            self._view.show_attack(attacker_id=combatant_id, defend=key == "defend")
            return True
        if key == "changing_stance":
            self.stance_combo.setFocus()
            self.stance_combo.showPopup()
            return True
        options = [option for check, option in (
            (self.reckless_check, ActionOption.RECKLESS),
            (self.coordinating_check, ActionOption.COORDINATING),
            (self.plan_check, ActionOption.PLAN_WAIT)) if check.isChecked()]
        note = self.note_edit.text()
        done = self._run(lambda c, e: fight.take_action_patch(c, e, combatant_id, key, options,
                                                              note))
        if done:
            self.note_edit.clear()
            for check in (self.reckless_check, self.coordinating_check, self.plan_check):
                check.setChecked(False)
        return done

    def aim(self) -> bool:
        target_id = self.aim_target_combo.currentData()
        encounter = self._view.encounter()
        if target_id is None or encounter is None:
            self._view.show_message(tr(_CTX, "Choose what to aim at"))
            return False
        combatant_id = self._id()
        chosen = self.aim_weapon_combo.currentIndex()  # the next attack's weapon
        weapon = chosen if chosen >= 0 else None
        return self._run(lambda c, e: fight.aim_patch(c, e, combatant_id, target_id, weapon))

    def _movement_scale_chosen(self) -> None:
        """The encounter's movement scale, one step; a refusal puts the combo back."""
        scale = self.movement_scale_combo.currentData()
        encounter = self._view.encounter()
        if encounter is not None and scale is encounter.movement_scale:
            return
        if not isinstance(scale, GridScale) or not self._run(
                lambda c, e: fight.movement_scale_patch(c, e, scale)):
            self.refresh()

    def move_combatant(self, mode: MovementMode) -> bool:
        """Not ``move``: that is QWidget.move, which Qt and layouts call with a point."""
        combatant_id = self._id()
        return self._run(lambda c, e: fight.move_patch(c, e, combatant_id, mode))

    def _side_chosen(self) -> None:
        side = Side(self.side_combo.currentData())
        combatant_id = self._id()
        self._run(lambda c, e: fight.set_side_patch(c, e, combatant_id, side))

    def _out_toggled(self, checked: bool) -> None:
        combatant_id = self._id()
        if not self._run(lambda c, e: fight.set_out_of_fight_patch(c, e, combatant_id,
                                                                    checked)):
            self.refresh()

    def _hidden_toggled(self, hidden: bool) -> None:
        """Keep the combatant off the player display until the players meet them."""
        combatant_id = self._id()
        if not self._run(lambda c, e: fight.set_revealed_patch(c, e, combatant_id,
                                                                not hidden)):
            self.refresh()

    def _damage_requested(self, value: int, merge: bool) -> None:
        """One press-and-drag of the HP bar is one gesture: one undo step, one log line."""
        combatant_id = self._id()
        if not merge or self._gesture_start is None:
            self._gesture_serial += 1
            self._gesture_start = self._current_damage(combatant_id)
        gesture, start = str(self._gesture_serial), self._gesture_start
        self._run(lambda c, e: fight.set_damage_patch(c, e, combatant_id, value, gesture,
                                                      start))

    def _stance_chosen(self) -> None:
        stance = self.stance_combo.currentData()
        combatant_id = self._id()
        if not self._run(lambda c, e: fight.stance_patch(c, e, combatant_id, stance)):
            self.refresh()

    def _cover_chosen(self) -> None:
        cover = self.cover_combo.currentData()
        combatant_id = self._id()
        self._run(lambda c, e: fight.set_cover_patch(c, e, combatant_id, cover))

    def start_task(self) -> bool:
        combatant_id = self._id()
        description = self.task_desc_edit.text().strip() or tr(_CTX, "Extended action")
        patient = self.patient_combo.currentData()
        first_aid = self.first_aid_check.isChecked()
        rounds = self.task_rounds_spin.value()
        encounter = self._view.encounter()
        # The bare name the panel offers ("First Aid") gains its patient ("First Aid on Ilse").
        if first_aid and encounter is not None and patient is not None and \
                description.casefold() == first_aid_task().casefold():
            target = encounter.find_combatant(patient)
            if target is not None:
                name = self._view.document.campaign.combatant_character(target).name
                description = tr(_CTX, "{0} on {1}").format(first_aid_task(), name)
        try:
            timing = self.task_timing()
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        if timing is None and self._timing_mode() is TimingMode.ROLL:
            self._view.show_message(tr(_CTX, "Roll the timing check first"))
            return False
        done = self._run(lambda c, e: fight.start_task_patch(
            c, e, combatant_id, description, rounds, patient, first_aid, timing))
        if done:
            self._held_timing = None
            self.timing_dice_edit.clear()
        return done

    def work_task(self, dice_text: str | None) -> bool:
        combatant_id = self._id()
        modifier = self.work_dm_spin.value()
        difficulty = self.work_difficulty_spin.value()
        rng = self._view.rng if dice_text is None else None  # typed: empty text is refused
        try:
            source = fight.parse_dice_source(dice_text or "", rng)
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        done = self._run(lambda c, e: fight.work_task_patch(c, e, combatant_id, source,
                                                            modifier, difficulty))
        if done:
            self.work_dice_edit.clear()
        return done

    def abort_task(self) -> bool:
        combatant_id = self._id()
        return self._run(lambda c, e: fight.abort_task_patch(c, e, combatant_id))

    def add_condition(self) -> bool:
        combatant_id = self._id()
        kind = ConditionKind(self.condition_combo.currentData())
        detail = self.condition_detail.text()
        done = self._run(lambda c, e: fight.add_condition_patch(c, e, combatant_id, kind,
                                                                detail))
        if done:
            self.condition_detail.clear()
        return done

    def remove_condition(self) -> bool:
        item = self.conditions_list.currentItem()
        index = item.data(VALUE_ROLE) if item is not None else None
        if index is None:
            self._view.show_message(
                tr(_CTX, "Select one of the combatant's own conditions to remove"))
            return False
        combatant_id = self._id()
        return self._run(lambda c, e: fight.remove_condition_patch(c, e, combatant_id,
                                                                   int(index)))

    def survival_roll(self, dying: bool) -> bool:
        combatant_id = self._id()
        try:
            source = fight.parse_dice_source(self.survival_dice_edit.text(), self._view.rng)
        except ValueError as exc:
            self._view.show_message(str(exc))
            return False
        make = fight.dying_roll_patch if dying else fight.massive_damage_patch
        done = self._run(lambda c, e: make(c, e, combatant_id, source))
        if done:
            self.survival_dice_edit.clear()
        return done
