"""The grapple dialog (Ch.6 grappling): who grapples whom, the maneuver declared, the
Difficulty term by term and the odds before the roll; then the roll (the app's or the
table's dice), the effects the winner spends their Effect on, and one step that applies
it all and logs it. Opened from the combatant panel."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from mneme_desktop.domain import Campaign, Characteristic, Encounter
from mneme_desktop.domain.combat import CombatError, parse_dice_source
from mneme_desktop.domain.combat.grapple import (
    GrappleDamage,
    GrappleRequest,
    GrappleSpec,
    build_grapple,
    grapple_check,
    grapple_patch,
)
from mneme_desktop.domain.combat.next_roll import next_roll_of, side_tactics
from mneme_desktop.domain.edits import Patch
from mneme_desktop.rules.checks import CheckResult
from mneme_desktop.rules.grappling import (
    THROW_DAMAGE,
    TWIST_DAMAGE,
    GrappleEffect,
    GrappleManeuver,
    GrappleWeapon,
    grapple_effect,
    grapple_effects_cost,
)
from mneme_desktop.ui.dialogs.roll_dialog_parts import (
    CombatRollDialog,
    dice_hint,
    dms_text,
    plain_label,
)
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.views.attack_text import format_percent
from mneme_desktop.ui.widgets.narrow import fit_placeholder
from mneme_desktop.ui.widgets.status_line import StatusLine
from mneme_desktop.ui.widgets.tactics_box import offer_tactics_roll

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

__all__ = ["GrappleDialog"]

_CTX = "GrappleDialog"

_MANEUVERS = {
    GrappleManeuver.NONE: tr_noop(_CTX, "No maneuver declared (+0)"),
    GrappleManeuver.TARGETED_LIMB: tr_noop(_CTX, "Targeted limb (+1)"),
    GrappleManeuver.TARGETED_EXTREMITY: tr_noop(_CTX, "Targeted extremity (+2)"),
    GrappleManeuver.THROW: tr_noop(_CTX, "Throw (+3)"),
    GrappleManeuver.SWEEP: tr_noop(_CTX, "Sweep (+2)"),
}
_WEAPONS = {
    GrappleWeapon.NONE: tr_noop(_CTX, "No weapons factor"),
    GrappleWeapon.TARGET_CLOSE_QUARTERS: tr_noop(_CTX, "Target has a knife or stun gloves (+1)"),
    GrappleWeapon.GRAPPLER_CLOSE_QUARTERS: tr_noop(
        _CTX, "Grappler has a knife or stun gloves (-1)"),
    GrappleWeapon.PISTOL: tr_noop(_CTX, "A pistol in the clinch (+2)"),
    GrappleWeapon.CUMBERSOME: tr_noop(_CTX, "Cumbersome object: shield, rifle, spear "
                                            "(referee's value)"),
}
_EFFECTS = {
    GrappleEffect.TARGET_LIMB: tr_noop(_CTX, "Target a limb"),
    GrappleEffect.TARGET_EXTREMITY: tr_noop(_CTX, "Target an extremity (hand, foot)"),
    GrappleEffect.DAMAGE: tr_noop(_CTX, "Damage 1d3, armor does not count"),
    GrappleEffect.BIND: tr_noop(_CTX, "Bind"),
    GrappleEffect.THROW: tr_noop(_CTX, "Throw: 2d3 damage, lying down"),
    GrappleEffect.SWEEP: tr_noop(_CTX, "Sweep: prone"),
}


class GrappleDialog(CombatRollDialog):
    """One grapple, declared, rolled and applied; the document gets one step."""

    def __init__(self, document: CampaignDocument, encounter_id: str, grappler_id: str,
                 rng: random.Random, parent: QWidget | None = None) -> None:
        super().__init__(document, encounter_id, rng, tr(_CTX, "Grapple"), "grapple_dialog",
                         parent)
        self._spec: GrappleSpec | None = None
        self._check: CheckResult | None = None
        self._at_table = False
        form = QFormLayout(self)
        self.grappler_combo = QComboBox(objectName="grapple_grappler")
        self.target_combo = QComboBox(objectName="grapple_target")
        self.target_combo.setToolTip(tr(_CTX, "The opponent, at Personal range"))
        form.addRow(tr(_CTX, "Grappler"), self.grappler_combo)
        form.addRow(tr(_CTX, "Target"), self.target_combo)
        self.maneuver_combo = QComboBox(objectName="grapple_maneuver")
        for maneuver, text in _MANEUVERS.items():
            self.maneuver_combo.addItem(tr(_CTX, text), maneuver)
        self.maneuver_combo.setToolTip(tr(_CTX, "Declared before the roll: harder, and on a "
                                                "success its effect costs no Effect"))
        form.addRow(tr(_CTX, "Maneuver"), self.maneuver_combo)
        row = QHBoxLayout()
        self.characteristic_combo = QComboBox(objectName="grapple_characteristic")
        for code in (Characteristic.STR, Characteristic.DEX):
            self.characteristic_combo.addItem(tr(_CTX, "Grappler's {0}").format(
                code.value.upper()), code)
        self.characteristic_combo.setToolTip(tr(_CTX, "The grappler's DM: a melee roll, STR "
                                                      "unless the referee says DEX"))
        self.target_characteristic_combo = QComboBox(objectName="grapple_target_characteristic")
        self.target_characteristic_combo.addItem(tr(_CTX, "Target's higher of STR, DEX"), None)
        for code in (Characteristic.STR, Characteristic.DEX):
            self.target_characteristic_combo.addItem(tr(_CTX, "Target's {0}").format(
                code.value.upper()), code)
        self.target_characteristic_combo.setToolTip(tr(_CTX, "Ch.6: the DM from the "
                                                             "adversary's STR or DEX modifies "
                                                             "the Difficulty"))
        row.addWidget(self.characteristic_combo)
        row.addWidget(self.target_characteristic_combo)
        form.addRow(tr(_CTX, "DMs"), row)
        row = QHBoxLayout()
        self.weapon_combo = QComboBox(objectName="grapple_weapon")
        for weapon, text in _WEAPONS.items():
            self.weapon_combo.addItem(tr(_CTX, text), weapon)
        self.weapon_factor_spin = QSpinBox(objectName="grapple_weapon_factor", minimum=-4,
                                           maximum=4)
        self.weapon_factor_spin.setAccessibleName(tr(_CTX, "Weapons factor"))
        self.weapon_factor_spin.setToolTip(tr(_CTX, "The weapons factor added to the "
                                                    "Difficulty; a cumbersome object's is "
                                                    "yours to set"))
        row.addWidget(self.weapon_combo, 1)
        row.addWidget(self.weapon_factor_spin)
        form.addRow(tr(_CTX, "Weapons"), row)
        self.other_dm_spin = QSpinBox(objectName="grapple_other_dm", minimum=-10, maximum=10)
        self.other_dm_spin.setAccessibleName(tr(_CTX, "Other DM"))
        form.addRow(tr(_CTX, "Other DM"), self.other_dm_spin)
        self.next_roll_check = QCheckBox(objectName="grapple_next_roll")
        self.next_roll_check.setChecked(True)
        self.next_roll_check.setToolTip(tr(_CTX, "What waits on the grappler's next roll: "
                                                 "counted when ticked, used up by this roll"))
        form.addRow(self.next_roll_check)
        self.tactics_check = QCheckBox(objectName="grapple_tactics_roll")
        self.tactics_check.setToolTip(tr(_CTX, "Spend one of the grappler's side's Tactics "
                                               "rolls (Ch.6 Tactics) on this roll"))
        form.addRow(self.tactics_check)
        self.spend_check = QCheckBox(tr(_CTX, "Spends the grappler's significant action"),
                                     objectName="grapple_spend")
        self.spend_check.setChecked(True)
        form.addRow(self.spend_check)
        self.terms_label = plain_label("grapple_terms")
        form.addRow(self.terms_label)
        self.odds_label = plain_label("grapple_odds")
        form.addRow(self.odds_label)
        row = QHBoxLayout()
        self.dice_edit = QLineEdit(objectName="grapple_dice")
        self.dice_edit.setPlaceholderText(tr(_CTX, "table dice (empty: roll in the app)"))
        self.dice_edit.setAccessibleName(tr(_CTX, "Grapple dice rolled at the table"))
        self.roll_button = QPushButton(tr(_CTX, "Roll"), objectName="grapple_roll")
        self.roll_button.setToolTip(tr(_CTX, "Make the grappling roll (the table's dice if "
                                             "typed); nothing changes until Apply"))
        row.addWidget(self.dice_edit, 1)
        row.addWidget(self.roll_button)
        form.addRow(tr(_CTX, "Dice"), row)
        self.result_label = plain_label("grapple_result")
        form.addRow(self.result_label)
        self.effect_checks: dict[GrappleEffect, QCheckBox] = {}
        effects = QWidget()
        grid = QFormLayout(effects)
        grid.setContentsMargins(0, 0, 0, 0)
        for effect, text in _EFFECTS.items():
            check = QCheckBox(tr(_CTX, text), objectName=f"grapple_effect_{effect.value}")
            self.effect_checks[effect] = check
            grid.addRow(check)
        form.addRow(tr(_CTX, "Effects"), effects)
        row = QHBoxLayout()
        self.where_edit = QLineEdit(objectName="grapple_where")
        self.where_edit.setPlaceholderText(tr(_CTX, "which limb or extremity (left arm)"))
        self.twist_edit = QLineEdit(objectName="grapple_twist_damage")
        self.twist_edit.setPlaceholderText(tr(_CTX, "{0} (empty: roll)").format(TWIST_DAMAGE))
        self.twist_edit.setAccessibleName(tr(_CTX, "Twisting damage rolled at the table"))
        self.throw_edit = QLineEdit(objectName="grapple_throw_damage")
        self.throw_edit.setPlaceholderText(tr(_CTX, "{0} (empty: roll)").format(THROW_DAMAGE))
        self.throw_edit.setAccessibleName(tr(_CTX, "Throw damage rolled at the table"))
        for edit in (self.where_edit, self.twist_edit, self.throw_edit):
            fit_placeholder(edit)
        row.addWidget(self.where_edit, 2)
        row.addWidget(self.twist_edit, 1)
        row.addWidget(self.throw_edit, 1)
        form.addRow(tr(_CTX, "Where, damage"), row)
        self.cost_label = plain_label("grapple_cost")
        form.addRow(self.cost_label)
        self.message = StatusLine("grapple_message")
        form.addRow(self.message)
        self.apply_button = self._ok_buttons(form, tr(_CTX, "Apply"), "grapple_apply",
                                             self.apply)
        self.roll_button.setAutoDefault(False)
        self._fill(grappler_id)
        for combo in (self.grappler_combo, self.target_combo, self.maneuver_combo,
                      self.characteristic_combo, self.target_characteristic_combo):
            combo.currentIndexChanged.connect(self._declared)
        self.weapon_combo.currentIndexChanged.connect(self._weapon_chosen)
        for spin in (self.weapon_factor_spin, self.other_dm_spin):
            spin.valueChanged.connect(self._declared)
        for box in (self.next_roll_check, self.spend_check, self.tactics_check):
            box.toggled.connect(self._declared)
        self.dice_edit.textEdited.connect(self._forget_roll)
        self.dice_edit.returnPressed.connect(self.roll)
        self.roll_button.clicked.connect(self.roll)
        for check in self.effect_checks.values():
            check.toggled.connect(self._show_cost)
        self._watch()

    # --- filling and declaring -----------------------------------------------------------

    def _fill(self, grappler_id: str) -> None:
        encounter = self._encounter()
        if encounter is None:
            return
        campaign = self._document.campaign
        for combo in (self.grappler_combo, self.target_combo):
            for combatant in encounter.initiative_order():
                combo.addItem(campaign.combatant_character(combatant).name, combatant.id)
        self.grappler_combo.setCurrentIndex(max(0, self.grappler_combo.findData(grappler_id)))
        grappler = encounter.find_combatant(grappler_id)
        # The first opponent on another side is the likely target.
        target = next((c for c in encounter.initiative_order() if grappler is not None and
                       c.side is not grappler.side), None)
        index = self.target_combo.findData(target.id) if target is not None else -1
        if index < 0:
            index = next((i for i in range(self.target_combo.count())
                          if self.target_combo.itemData(i) != grappler_id), 0)
        self.target_combo.setCurrentIndex(index)

    def _weapon_chosen(self, _index: int = 0) -> None:
        weapon = self.weapon_combo.currentData()
        factor = weapon.factor if isinstance(weapon, GrappleWeapon) else None
        # The chapter's factor (the referee may change it); a cumbersome object's is theirs.
        self.weapon_factor_spin.setValue(factor or 0)
        self._declared()
        if factor is None:
            self.message.show_message(tr(_CTX, "Set the cumbersome object's weapons factor"))

    def request(self) -> GrappleRequest | None:
        grappler, target = self.grappler_combo.currentData(), self.target_combo.currentData()
        if grappler is None or target is None:
            return None
        # Qt hands a str-valued enum back as its str.
        theirs = self.target_characteristic_combo.currentData()
        return GrappleRequest(
            grappler_id=str(grappler), target_id=str(target),
            maneuver=self.maneuver_combo.currentData(),
            characteristic=Characteristic(self.characteristic_combo.currentData()),
            target_characteristic=None if theirs is None else Characteristic(theirs),
            weapon=self.weapon_combo.currentData(),
            weapon_factor=self.weapon_factor_spin.value(),
            other_dm=self.other_dm_spin.value(),
            use_next_roll=self.next_roll_check.isChecked(),
            tactics_roll=self.tactics_check.isChecked(),
            spend_action=self.spend_check.isChecked(),
        )

    @property
    def spec(self) -> GrappleSpec | None:
        return self._spec

    @property
    def check(self) -> CheckResult | None:
        return self._check

    def _declared(self, *_args: object) -> None:
        """The roll as declared now: its terms and odds; a roll made for another
        declaration no longer stands."""
        self._forget_roll()
        encounter = self._encounter()
        self._sync_tactics(encounter)
        request = self.request()
        self._spec = None
        problem = ""
        if encounter is None or request is None:
            problem = tr(_CTX, "Choose the grappler and the target")
        else:
            grappler = encounter.find_combatant(request.grappler_id)
            self._show_next_roll(
                self.next_roll_check,
                next_roll_of(encounter, grappler) if grappler is not None else None,
                tr(_CTX, "Nothing waits on the grappler's next roll"))
            try:
                self._spec = build_grapple(self._document.campaign, encounter, request)
            except ValueError as exc:
                problem = str(exc)
        spec = self._spec
        if spec is None:
            self.terms_label.clear()
            self.odds_label.clear()
            self.message.show_message(problem)
            self.roll_button.setEnabled(False)
            return
        self.message.show_message(spec.refusal)
        self.roll_button.setEnabled(not spec.refusal)
        dms = dms_text(spec.modifiers)
        difficulty = " ".join(
            f"{t.value:+d} {t.label}" if i else f"{t.value} {t.label.lower()}"
            for i, t in enumerate(spec.difficulty.terms))
        advantage = spec.net_advantage
        dice = (tr(_CTX, "{0}d6 keep the 2 highest").format(2 + advantage) if advantage > 0
                else tr(_CTX, "{0}d6 keep the 2 lowest").format(2 - advantage) if advantage < 0
                else "2d6")
        self.dice_edit.setPlaceholderText(dice_hint(2 + abs(advantage)))
        self.terms_label.setText(tr(_CTX, "Roll {0} DM {1:+d} ({2}) against Difficulty {3} "
                                          "= {4}").format(
            dice, spec.roll_modifier, dms, spec.difficulty.total, difficulty))
        for effect, check in self.effect_checks.items():
            row = grapple_effect(effect)
            cost = row.effect_cost if row.effect_cost is not None else (
                spec.throw_cost if effect is GrappleEffect.THROW else spec.sweep_cost)
            # Damage and bind are bought with Effect; the rest may be declared instead.
            check.setText(tr(_CTX, "{0} (Effect {1})").format(tr(_CTX, _EFFECTS[effect]), cost)
                          if effect in (GrappleEffect.DAMAGE, GrappleEffect.BIND) else
                          tr(_CTX, "{0} (Effect {1}, or declared +{2})").format(
                              tr(_CTX, _EFFECTS[effect]), cost, row.difficulty))
        self.odds_label.setText(tr(
            _CTX, "Wins {0}; Effect 2+ (damage or bind) {1}; throw needs Effect {2} ({3}), "
                  "sweep Effect {4} ({5}), or declare them").format(
            format_percent(spec.chance), format_percent(spec.chance_of_effect(2)),
            spec.throw_cost, format_percent(spec.chance_of_effect(spec.throw_cost)),
            spec.sweep_cost, format_percent(spec.chance_of_effect(spec.sweep_cost))))

    def _sync_tactics(self, encounter: Encounter | None) -> None:
        """Offer one of the grappler's side's Tactics rolls while there is one."""
        grappler_id = self.grappler_combo.currentData()
        grappler = encounter.find_combatant(grappler_id) if (
            encounter is not None and grappler_id is not None) else None
        pool = side_tactics(encounter, grappler.side) if (
            encounter is not None and grappler is not None) else None
        offer_tactics_roll(self.tactics_check, pool,
                           tr(_CTX, "No Tactics rolls left for the grappler's side"))

    # --- rolling and applying ------------------------------------------------------------

    def _forget_roll(self, *_args: object) -> None:
        self._check = None
        self.result_label.clear()
        self.apply_button.setEnabled(False)
        self._show_cost()

    def roll(self) -> bool:
        """The grappling roll, the table's dice if typed; held until Apply."""
        self._declared()
        spec = self._spec
        if spec is None:
            return False
        try:
            source = parse_dice_source(self.dice_edit.text(), self._rng,
                                       2 + abs(spec.net_advantage))
            self._check = grapple_check(spec, source)
        except ValueError as exc:
            self.message.show_message(str(exc))
            return False
        self._at_table = source.at_table
        check = self._check
        how = tr(_CTX, "Table dice") if self._at_table else tr(_CTX, "Rolled")
        if check.success:
            verdict = tr(_CTX, "{0} wins: spend up to Effect {1} on {2}; advantage on "
                               "{0}'s next roll").format(spec.grappler_name, check.effect,
                                                          spec.target_name)
        else:
            verdict = tr(_CTX, "{0} loses: {1} may spend the Fail Effect {2} on {0}; "
                               "disadvantage on {0}'s next roll").format(
                spec.grappler_name, spec.target_name, -check.effect)
        self.result_label.setText(tr(_CTX, "{0} {1} DM {2:+d} = {3} vs {4}, Effect {5:+d}. "
                                           "{6}").format(
            how, "+".join(map(str, check.dice)), check.modifier, check.total, check.difficulty,
            check.effect, verdict))
        self._tick_declared()
        self.message.show_message("")
        self.apply_button.setEnabled(True)
        self._show_cost()
        return True

    def _tick_declared(self) -> None:
        """A declared throw or sweep happens on a success; it is ticked for the referee."""
        spec, check = self._spec, self._check
        if spec is None or check is None or not check.success:
            return
        declared = {GrappleManeuver.THROW: GrappleEffect.THROW,
                    GrappleManeuver.SWEEP: GrappleEffect.SWEEP,
                    GrappleManeuver.TARGETED_LIMB: GrappleEffect.TARGET_LIMB,
                    GrappleManeuver.TARGETED_EXTREMITY: GrappleEffect.TARGET_EXTREMITY,
                    }.get(spec.maneuver)
        if declared is not None:
            self.effect_checks[declared].setChecked(True)

    def chosen_effects(self) -> frozenset[GrappleEffect]:
        return frozenset(e for e, check in self.effect_checks.items() if check.isChecked())

    def _show_cost(self, *_args: object) -> None:
        """What the ticked effects cost against the Effect there is to spend."""
        spec, check = self._spec, self._check
        chosen = self.chosen_effects()
        if spec is None or check is None:
            self.cost_label.setText(tr(_CTX, "Roll first; then tick what the winner spends "
                                             "the Effect on"))
            return
        campaign = self._document.campaign
        encounter = self._encounter()
        loser_id = spec.target_id if check.success else spec.grappler_id
        loser = encounter.find_combatant(loser_id) if encounter is not None else None
        if loser is None:
            return
        sheet = campaign.combatant_character(loser)
        budget = check.effect if check.success else -check.effect
        try:
            cost = grapple_effects_cost(
                chosen, spec.maneuver if check.success else GrappleManeuver.NONE,
                sheet.hit_points, sheet.characteristic(Characteristic.DEX) or 0)
        except ValueError as exc:
            self.cost_label.setText(str(exc))
            return
        names = ", ".join(grapple_effect(e).name for e in chosen) or tr(_CTX, "nothing")
        self.cost_label.setText(
            tr(_CTX, "{0} costs Effect {1} of {2}").format(names, cost, budget) if cost <= budget
            else tr(_CTX, "{0} costs Effect {1}: more than the {2} there is").format(
                names, cost, budget))

    def _typed(self, edit: QLineEdit) -> int | None:
        text = edit.text().strip()
        if not text:
            return None
        if not text.isdigit():
            raise CombatError(tr(_CTX, "{0!r} is not a damage total: type a whole number, or "
                                       "leave it empty for the app to roll").format(text))
        return int(text)

    def make_patch(self, campaign: Campaign, encounter: Encounter) -> Patch:
        spec, check = self._spec, self._check
        if spec is None or check is None:
            raise CombatError(tr(_CTX, "Roll first"))
        damage = GrappleDamage(self._typed(self.twist_edit), self._typed(self.throw_edit))
        return grapple_patch(campaign, encounter, spec, check, self.chosen_effects(), damage,
                             self._rng, self.where_edit.text())

    def apply(self) -> bool:
        """One step: the grapple's outcome applied and logged; the dialog closes."""
        encounter = self._encounter()
        if encounter is None:
            return False
        try:
            patch = self.make_patch(self._document.campaign, encounter)
        except ValueError as exc:
            self.message.show_message(str(exc))
            return False
        return self._push(patch)
