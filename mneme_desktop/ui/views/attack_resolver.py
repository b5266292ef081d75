"""The attack resolver: attacker, weapon and targets; the Difficulty term by term; the exact
odds before rolling; the roll in the app or from the table's dice; and one undoable Apply.

Every number comes from :mod:`mneme_desktop.domain.combat`, which combines the rules core;
this widget only collects the referee's choices and shows what the rules make of them.
Its widgets are laid out by :mod:`~mneme_desktop.ui.views.attack_form`; what it says in words
comes from :mod:`~mneme_desktop.ui.views.attack_text`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QLineEdit, QWidget

from mneme_desktop.domain import (
    Character,
    Characteristic,
    Combatant,
    Encounter,
    RangeClass,
    Side,
    Thing,
    Weapon,
)
from mneme_desktop.domain.combat import (
    AttackMode,
    AttackOutcome,
    AttackSpec,
    DiceSource,
    armor_of,
    attack_check,
    attack_odds,
    attack_patch,
    build_attack,
    can_act,
    locate_hits,
    location_sources,
    parse_dice_source,
    parse_roll_groups,
    resolve_attack,
)
from mneme_desktop.domain.combat.attack_spec import AttackRequest
from mneme_desktop.domain.combat.attack_things import attack_weapons, crew_weapons
from mneme_desktop.domain.combat.next_roll import next_roll_of, side_tactics
from mneme_desktop.domain.edits import ChangeSummary
from mneme_desktop.rules.checks import DEFAULT_DIFFICULTY, CheckResult, CoverLevel
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.models.attack_models import AttackTargetsModel
from mneme_desktop.ui.views.attack_form import AttackForm
from mneme_desktop.ui.views.attack_text import (
    helpless_text,
    immunity_text,
    odds_parts,
    outcome_html,
    roll_text,
)
from mneme_desktop.ui.widgets.narrow import shrink_lists
from mneme_desktop.ui.widgets.plain_text import set_rich_text

if TYPE_CHECKING:
    from mneme_desktop.ui.document import CampaignDocument

from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.widgets.tactics_box import offer_tactics_roll

_CTX = "AttackResolver"

__all__ = ["AttackResolver"]

_CoverChoice = tuple[str, int | str]
"""("level", a CoverLevel), ("item", the index of one of the attacker's cover items) or
("thing", an encounter thing's id: a cover object that takes the absorbed rolls)."""


def _clear(edit: QLineEdit) -> None:
    """Empty ``edit``. One already empty, with no typing of the referee's to undo, is left
    as it is: clearing it would only repaint it (four fields at every Apply)."""
    if edit.text() or edit.isUndoAvailable() or edit.isRedoAvailable():
        edit.clear()


class AttackResolver(AttackForm):
    """Builds, rolls and applies one attack (or defend) action."""

    applied = Signal(str)
    """An attack was applied (the undo text)."""
    weapon_chosen = Signal(str)
    """The weapon chosen for a combatant's next attack changed (their combatant id)."""
    message = Signal(str)
    """Something to tell the referee (a refusal or a problem with typed dice)."""

    def __init__(self, document: CampaignDocument, rng: random.Random,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._rng = rng
        self._encounter_id: str | None = None
        self._spec: AttackSpec | None = None
        self._check: CheckResult | None = None
        self._typed: tuple[list[list[int]] | None, list[int] | None] = (None, None)
        self._outcome: AttackOutcome | None = None
        self._location_dice: list[tuple[int, ...]] = []
        """The dice of the random hit locations rolled for this roll, one per target hit,
        put back on the outcome when it is resolved again (a share changed)."""
        self._shown_html: str | None = None
        """What the outcome pane shows now (set again only when it changes)."""
        self._updating = False
        self._dirty = False
        self._attackers: list[tuple[str, str]] = []
        self._weapons: list[str] = []
        self._covers: list[tuple[str, _CoverChoice]] = []
        self._candidates: dict[str, tuple[object, Side, tuple[str, str, Side, str]]] = {}
        self._next_weapons: dict[str, int] = {}
        self._form_attacker: str | None = None
        self._turn_of: str | None = None
        """Whose turn it was at the last refresh: a form following the turn moves with it."""
        """Whose situation the form was last filled from (None: nobody yet)."""
        self._pristine = True
        """No choice made since the form was filled: it may be filled afresh."""
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self._fresh)
        self._build()
        self._connect()
        shrink_lists(self)
        document.changed.connect(self._document_changed)

    # --- connections -------------------------------------------------------------------

    def _connect(self) -> None:
        """Each widget to what it recomputes or does (the form itself knows no steps)."""
        for combo in (self.mode_combo, self.characteristic_combo, self.cover_combo,
                      self.concealment_combo, self.location_combo, self.plan_combo,
                      self.doubled_combo, self.defence_cover_combo):
            combo.currentIndexChanged.connect(self._inputs_changed)
        for spin in (self.extra_dm_spin, self.base_spin, self.range_spin, self.superiority_spin,
                     self.advantage_spin, self.disadvantage_spin, self.coordinating_spin,
                     self.defence_conditions_spin, self.return_rate_spin):
            spin.valueChanged.connect(self._inputs_changed)
        for check in (self.close_quarters_check, self.spotter_check, self.reckless_check,
                      self.costly_check, self.spend_check, self.abort_check, self.next_roll_check,
                      self.tactics_check):
            check.toggled.connect(self._inputs_changed)
        for combo in (self.mode_combo, self.characteristic_combo, self.cover_combo,
                      self.concealment_combo, self.location_combo, self.plan_combo,
                      self.doubled_combo, self.defence_cover_combo, self.return_fire_combo):
            combo.currentIndexChanged.connect(self._touched)
        for spin in (self.extra_dm_spin, self.base_spin, self.range_spin, self.superiority_spin,
                     self.advantage_spin, self.disadvantage_spin, self.coordinating_spin,
                     self.defence_conditions_spin, self.return_rate_spin):
            spin.valueChanged.connect(self._touched)
        for check in (self.close_quarters_check, self.spotter_check, self.reckless_check,
                      self.costly_check, self.spend_check, self.abort_check, self.next_roll_check,
                      self.tactics_check):
            check.toggled.connect(self._touched)
        self.targets_model.dataChanged.connect(self._touched)
        for edit in (self.dice_edit, self.damage_edit, self.return_fire_edit,
                     self.location_edit):
            edit.textEdited.connect(self._touched)
        self.attacker_combo.currentIndexChanged.connect(self._attacker_changed)
        self.weapon_combo.currentIndexChanged.connect(self._weapon_changed)

        self.return_fire_combo.currentIndexChanged.connect(self._inputs_changed)
        self.targets_model.dataChanged.connect(self._targets_changed)
        self.roll_button.clicked.connect(self.roll)
        self.use_dice_button.clicked.connect(self.use_table_dice)
        self.dice_edit.returnPressed.connect(self.use_table_dice)
        self.location_button.clicked.connect(self.roll_location)
        self.location_edit.returnPressed.connect(self.roll_location)
        self.apply_button.clicked.connect(self.apply)
        self.discard_button.clicked.connect(self.discard)
        for keys, slot in (("Ctrl+Return", self.roll), ("Ctrl+Shift+Return", self.apply),
                           ("Ctrl+L", self.roll_location)):
            shortcut = QShortcut(QKeySequence(keys), self, slot)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._show_outcome()

    # --- public -------------------------------------------------------------------------

    @property
    def spec(self) -> AttackSpec | None:
        return self._spec

    @property
    def outcome(self) -> AttackOutcome | None:
        return self._outcome

    def set_encounter(self, encounter_id: str | None) -> None:
        self._encounter_id = encounter_id
        self._attackers, self._weapons, self._covers = [], [], []
        self._form_attacker = None
        self._turn_of = None
        self.discard()
        self._refresh_lists()

    def set_attacker(self, combatant_id: str | None) -> None:
        """Make ``combatant_id`` the attacker. A new attacker (or an untouched form) starts
        from their situation: their weapon, their cover, their aim target."""
        self._fresh()
        index = self.attacker_combo.findData(combatant_id)
        if index >= 0:
            same = index == self.attacker_combo.currentIndex()
            self.attacker_combo.setCurrentIndex(index)  # a change fills the form afresh
            if same and (self._pristine or self._form_attacker != combatant_id):
                self._reset_form()

    def set_targets(self, combatant_ids: list[str]) -> None:
        self._fresh()
        self.targets_model.set_checked_ids(combatant_ids)
        self._split_rate()

    def suggest_target(self, combatant_id: str | None) -> bool:
        """Tick the row the referee has selected, if it is someone this attacker would
        attack: not themselves, not on their side, and conscious. True if ticked."""
        self._fresh()
        encounter = self._encounter()
        attacker_id = self.attacker_combo.currentData()
        if encounter is None or combatant_id is None or attacker_id is None:
            return False
        attacker = encounter.find_combatant(attacker_id)
        target = encounter.find_combatant(combatant_id)
        if attacker is None or target is None or not self._opponent(attacker, target):
            return False
        self._updating = True
        try:
            self.targets_model.set_checked_ids([combatant_id])
        finally:
            self._updating = False
        self._split_rate()
        return True

    def set_weapon(self, index: int) -> None:
        self.weapon_combo.setCurrentIndex(index)

    def next_weapon(self, combatant_id: str) -> int:
        """The weapon (index on their sheet) chosen for this combatant's next attack: the
        one they aim with and the one the resolver starts with (default the first)."""
        return self._next_weapons.get(combatant_id, 0)

    def set_next_weapon(self, combatant_id: str, index: int) -> None:
        if self._next_weapons.get(combatant_id, 0) == index:
            return
        self._next_weapons[combatant_id] = index
        shown = self.attacker_combo.currentData() == combatant_id
        if shown and index < self.weapon_combo.count() and \
                self.weapon_combo.currentIndex() != index:
            self.weapon_combo.setCurrentIndex(index)
        self.weapon_chosen.emit(combatant_id)

    def _refused(self, spec: AttackSpec | None) -> bool:
        """Tell the referee why this attack cannot be rolled (True), before any die."""
        if spec is None:
            self.message.emit(self.problem_label.message() or tr(_CTX,
                    "The attack is not complete"))
            return True
        if spec.refusal:
            self._problem(spec.refusal)
            self.message.emit(spec.refusal)
            return True
        return False

    def roll(self) -> AttackOutcome | None:
        """Roll the attack in the app (every die is logged on Apply); an attack the
        attacker cannot afford is refused before rolling."""
        self._fresh()
        spec = self._spec
        if self._refused(spec):
            return None
        assert spec is not None
        self._check = attack_check(spec, DiceSource.app(self._rng))
        self._typed = (None, None)
        self._location_dice = []
        return self._resolve()

    def use_table_dice(self) -> AttackOutcome | None:
        """Resolve with the dice typed from the table (and any typed damage rolls)."""
        self._fresh()
        spec = self._spec
        if self._refused(spec):
            return None
        assert spec is not None
        try:
            source = parse_dice_source(self.dice_edit.text(), None, 2 + abs(spec.net_advantage))
            check = attack_check(spec, source)
            damage_text = self.damage_edit.text().strip()
            fire_text = self.return_fire_edit.text().strip()
            typed_damage = parse_roll_groups(damage_text) if damage_text else None
            typed_fire = parse_roll_groups(fire_text)[0] if fire_text else None
        except ValueError as exc:
            self._problem(str(exc))
            return None
        self._check = check
        self._typed = (typed_damage, typed_fire)
        self._location_dice = []
        outcome = self._resolve()
        if outcome is not None and outcome.can_locate and self.location_edit.text().strip():
            return self.roll_location()  # the table rolled the location with the attack
        return outcome

    def roll_location(self) -> AttackOutcome | None:
        """Roll the random hit location of each target the attack hit (2d6 on the Ch.6
        table, 1d6 for primary or secondary feet and hands): in the app, or from the dice
        typed in the location box. It adds no Difficulty: the roll stands as it was, and
        Apply puts the location's targeted-damage effect on the sheet."""
        self._fresh()
        outcome = self._outcome
        if outcome is None:
            problem = tr(_CTX, "Roll the attack first: a random hit location is rolled after "
                               "a hit")
            self._problem(problem)
            self.message.emit(problem)
            return None
        try:
            located = locate_hits(outcome, location_sources(self.location_edit.text(),
                                                            self._rng))
        except ValueError as exc:
            self._problem(str(exc))
            self.message.emit(str(exc))
            return None
        self._location_dice = [hit.random_location.table_dice for hit in located.hits
                               if hit.random_location is not None]
        self._problem("")
        self._outcome = located
        self._show_outcome()
        return located

    def apply(self) -> bool:
        """Apply the rolled result to every sheet it touches as one undoable step."""
        outcome = self._outcome
        encounter = self._encounter()
        if outcome is None or encounter is None:
            self.message.emit(tr(_CTX, "Roll the attack first (or type the table's dice)"))
            return False
        try:
            patch = attack_patch(self._document.campaign, encounter, outcome,
                                 self.spend_check.isChecked())
        except ValueError as exc:
            self._problem(str(exc))
            self.message.emit(str(exc))
            return False
        self.discard()
        push_patch(self._document, patch)
        # The next attack starts from the fight as it now is: catching up with the step
        # resets the form once (a form with no attacker always is), never twice.
        self._form_attacker = None
        self._fresh()
        if self._form_attacker is None:
            self._reset_form()
        self.applied.emit(patch.text)
        return True

    def discard(self) -> None:
        self._check = None
        self._outcome = None
        self._typed = (None, None)
        self._location_dice = []
        for edit in (self.dice_edit, self.damage_edit, self.return_fire_edit,
                     self.location_edit):
            _clear(edit)
        self._show_outcome()

    # --- reading the encounter ------------------------------------------------------------

    def _encounter(self) -> Encounter | None:
        return self._document.encounter(self._encounter_id)

    def _document_changed(self, summary: ChangeSummary) -> None:
        if self._encounter_id in summary.encounter_ids or summary.character_ids:
            self._changed()

    def _changed(self) -> None:
        """The fight changed: catch up once the step is all in (if on screen), or when next
        shown or used."""
        self._dirty = True
        if self.isVisible():
            self._refresh_timer.start()

    def _fresh(self) -> None:
        self._refresh_timer.stop()
        if self._dirty:
            self._refresh_lists()

    def showEvent(self, event: QShowEvent) -> None:
        self._fresh()
        super().showEvent(event)

    def _refresh_lists(self) -> None:
        """Refill what the fight's changes touched, keeping the referee's choices."""
        self._dirty = False
        encounter = self._encounter()
        attackers: list[tuple[str, str]] = []
        if encounter is not None:
            campaign = self._document.campaign
            attackers = [(campaign.combatant_character(c).name, c.id)
                         for c in encounter.initiative_order()]
        if attackers != self._attackers:
            self._attackers = attackers
            self._updating = True
            try:
                chosen = self.attacker_combo.currentData()
                self.attacker_combo.clear()
                for name, combatant_id in attackers:
                    self.attacker_combo.addItem(name, combatant_id)
                self.attacker_combo.setCurrentIndex(
                    max(0, self.attacker_combo.findData(chosen)))
            finally:
                self._updating = False
        self._follow_the_turn(encounter)
        weapons_changed = self._sync_attacker()
        if self.attacker_combo.currentData() != self._form_attacker or (
                self._pristine and self._check is None):
            self._reset_form()  # an untouched form follows the fight (an aim just taken)
        elif weapons_changed:
            self._weapon_changed()
        else:
            self._inputs_changed()

    def _follow_the_turn(self, encounter: Encounter | None) -> None:
        """When the turn passes, a form showing the last turn's attacker (nothing rolled yet)
        moves to whose turn it is now: the next attacker never inherits the last one's form.
        An attacker the referee chose out of turn stays."""
        current = encounter.current_combatant if encounter is not None else None
        now = current.id if current is not None else None
        if now == self._turn_of:
            return
        following = self.attacker_combo.currentData() in (self._turn_of, None)
        self._turn_of = now
        index = self.attacker_combo.findData(now) if now is not None else -1
        if following and index >= 0 and self._check is None:
            self._updating = True
            try:
                self.attacker_combo.setCurrentIndex(index)
            finally:
                self._updating = False

    def _attacker_changed(self) -> None:
        if self._updating:
            return
        self._sync_attacker()
        self._reset_form()

    def _touched(self) -> None:
        """The referee made a choice: the form is theirs until the next attack."""
        if not self._updating:
            self._pristine = False

    def _opponent(self, attacker: Combatant, target: Combatant) -> bool:
        """Someone to pre-tick as a target: another side's combatant who can still act."""
        return target.id != attacker.id and target.side is not attacker.side and \
            can_act(self._document.campaign, target)

    def _reset_form(self) -> None:
        """Fill the form from the attacker's situation, not from the last attack: their
        next weapon, their own cover, no targets but the one they are aiming at, the
        targets' cover from their rows, and every other term back at its default."""
        encounter = self._encounter()
        attacker_id = self.attacker_combo.currentData()
        attacker = encounter.find_combatant(attacker_id) if (
            encounter is not None and attacker_id is not None) else None
        self._form_attacker = attacker_id
        self.discard()
        self._updating = True
        try:
            self.mode_combo.setCurrentIndex(0)
            self.base_spin.setValue(DEFAULT_DIFFICULTY)
            for combo in (self.cover_combo, self.concealment_combo, self.location_combo,
                          self.plan_combo, self.doubled_combo):
                combo.setCurrentIndex(0)
            for spin in (self.extra_dm_spin, self.range_spin, self.superiority_spin,
                         self.advantage_spin, self.disadvantage_spin, self.coordinating_spin,
                         self.defence_conditions_spin):
                spin.setValue(0)
            self.superiority_picker.clear()
            for check in (self.close_quarters_check, self.spotter_check, self.reckless_check,
                          self.costly_check, self.abort_check):
                check.setChecked(False)
            self.spend_check.setChecked(True)
            self.next_roll_check.setChecked(True)
            self.tactics_check.setChecked(False)
            self.defence_cover_combo.setCurrentIndex(self._default_defence_cover(attacker))
            ticked: list[str] = []
            if attacker is not None:
                weapon = self.next_weapon(attacker.id)
                if 0 <= weapon < self.weapon_combo.count():
                    self.weapon_combo.setCurrentIndex(weapon)
                if attacker.aim and attacker.aim_target_id in self.targets_model.candidate_ids():
                    ticked = [str(attacker.aim_target_id)]
            self.targets_model.set_checked_ids(ticked)
            self._default_characteristic()
        finally:
            self._updating = False
        self._pristine = True
        self._split_rate()

    def _default_defence_cover(self, attacker: Combatant | None) -> int:
        """The attacker's own cover: a shield at hand if they have no cover level set (the
        cover a referee means), else the level on their row."""
        if attacker is not None and attacker.cover_thing_id is not None:
            wanted = ("thing", attacker.cover_thing_id)
            behind = [i for i, (_, data) in enumerate(self._covers) if data == wanted]
            if behind:
                return behind[0]
        items = [i for i, (_, data) in enumerate(self._covers) if data[0] == "item"]
        if attacker is not None and attacker.cover is CoverLevel.NONE and items:
            return items[0]
        cover = attacker.cover if attacker is not None else CoverLevel.NONE
        return max(0, self.defence_cover_combo.findData(("level", cover)))

    def _default_characteristic(self) -> None:
        weapon = self._weapon()
        if weapon is not None:
            code = Characteristic.STR if weapon.range_class is RangeClass.MELEE \
                else Characteristic.DEX
            self.characteristic_combo.setCurrentIndex(self.characteristic_combo.findData(code))

    def _sync_attacker(self) -> bool:
        """Weapons, cover and possible targets of the chosen attacker; True when the
        weapons on offer changed."""
        encounter = self._encounter()
        attacker_id = self.attacker_combo.currentData()
        campaign = self._document.campaign
        attacker = encounter.find_combatant(attacker_id) if (
            encounter is not None and attacker_id is not None) else None
        weapons: list[str] = []
        covers: list[tuple[str, _CoverChoice]] = []
        candidates = []
        if encounter is not None and attacker is not None:
            sheet = campaign.combatant_character(attacker)
            weapons = [tr(_CTX, "{0} {1}, rate {2}").format(
                    w.name, w.damage, w.rate_of_attack) for w in sheet.weapons]
            weapons += [tr(_CTX, "{0}: {1} {2}, rate {3}").format(
                    vehicle.name, w.name, w.damage, w.rate_of_attack)
                        for vehicle, w in crew_weapons(campaign, encounter, sheet.id)]
            covers = [(tr(_CTX, "No cover"), ("level", CoverLevel.NONE))]
            covers += [(tr(_CTX, "{0} cover ({1})").format(
                    level.label.capitalize(), int(level)), ("level", level))
                       for level in (CoverLevel.PARTIAL, CoverLevel.MOSTLY, CoverLevel.FULL)]
            for number, item in enumerate(sheet.cover_items):
                left = tr(_CTX, ", {0} HP left").format(item.remaining_hp) if item.hp else ""
                covers.append((tr(_CTX, "{0} (protection {1}{2})").format(
                        item.name, item.protection, left),
                               ("item", number)))
            for place in encounter.things:
                cover = campaign.encounter_thing(place)
                if cover.protection:
                    covers.append((tr(_CTX, "{0} (protection {1}, {2} HP left)").format(
                            cover.name, cover.protection, cover.remaining_hp),
                                   ("thing", place.id)))
            known = self._candidates
            fresh: dict[str, tuple[object, Side, tuple[str, str, Side, str]]] = {}
            for combatant in encounter.initiative_order():
                target = campaign.combatant_character(combatant)
                entry = known.get(combatant.id)
                if entry is None or entry[0] is not target or entry[1] is not combatant.side:
                    armor, scale = armor_of(target)
                    entry = (target, combatant.side,
                             (combatant.id, target.name, combatant.side,
                              tr(_CTX, "{0}AR {1}").format(
                                      scale.prefix, armor) if armor else tr(_CTX, "none")))
                fresh[combatant.id] = entry
                if combatant.id != attacker.id:
                    candidates.append(entry[2])
            self._candidates = fresh
            for place in encounter.things:
                if not place.out_of_fight:
                    thing = campaign.encounter_thing(place)
                    candidates.append((place.id, thing.name, place.side,
                                       thing.armor_label if thing.armor else tr(_CTX, "none")))
        self._updating = True
        try:
            weapons_changed = weapons != self._weapons
            if weapons_changed:
                self._weapons = weapons
                self.weapon_combo.clear()
                self.weapon_combo.addItems(weapons)
            if weapons_changed and attacker is not None:
                index = self.next_weapon(attacker.id)
                if 0 <= index < len(weapons):
                    self.weapon_combo.setCurrentIndex(index)
            if covers != self._covers:
                same_attacker = attacker_id == self._form_attacker
                chosen = self.defence_cover_combo.currentData()
                self._covers = covers
                self.defence_cover_combo.clear()
                for text, data in covers:
                    self.defence_cover_combo.addItem(text, data)
                # Compared in Python: Qt's findData cannot match a tuple holding a text.
                index = next((i for i, (_, data) in enumerate(covers) if data == chosen),
                             -1) if same_attacker and chosen is not None else -1
                if index < 0:
                    index = self._default_defence_cover(attacker)
                self.defence_cover_combo.setCurrentIndex(index)
            self.targets_model.set_candidates(candidates)
        finally:
            self._updating = False
        return weapons_changed

    def _weapon_changed(self) -> None:
        if self._updating:
            return
        attacker_id = self.attacker_combo.currentData()
        index = self.weapon_combo.currentIndex()
        if attacker_id is not None and index >= 0 and self.next_weapon(attacker_id) != index:
            self._next_weapons[attacker_id] = index
            self.weapon_chosen.emit(attacker_id)
        self._updating = True
        try:
            self._default_characteristic()
        finally:
            self._updating = False
        self._split_rate()

    def _weapon(self) -> Weapon | None:
        encounter = self._encounter()
        attacker_id = self.attacker_combo.currentData()
        if encounter is None or attacker_id is None:
            return None
        attacker = encounter.find_combatant(attacker_id)
        if attacker is None:
            return None
        campaign = self._document.campaign
        weapons = attack_weapons(campaign, encounter, campaign.combatant_character(attacker))
        index = self.weapon_combo.currentIndex()
        return weapons[index] if 0 <= index < len(weapons) else None

    def _targets_changed(self, top_left: QModelIndex, _bottom_right: QModelIndex,
                         roles: Sequence[int] = ()) -> None:
        if self._updating:
            return
        if Qt.ItemDataRole.CheckStateRole in roles or top_left.column() == \
                AttackTargetsModel.COL_TARGET:
            self._split_rate()
        else:
            self._inputs_changed()

    def _split_rate(self) -> None:
        """Spread the weapon's rate of attack over the ticked targets (the first ones get
        the remainder), fill in who strikes back, then recompute."""
        weapon = self._weapon()
        chosen = [cid for cid, _ in self.targets_model.checked()]
        self._updating = True
        try:
            if weapon is not None and chosen:
                rate = weapon.rate_of_attack
                base, extra = divmod(rate, len(chosen))
                shares = {cid: max(1, base + (1 if n < extra else 0))
                          for n, cid in enumerate(chosen)}
                self.targets_model.set_shares(shares)
            self._fill_return_fire(chosen)
        finally:
            self._updating = False
        self._inputs_changed()

    def _fill_return_fire(self, chosen: list[str]) -> None:
        encounter = self._encounter()
        previous = self.return_fire_combo.currentData()
        self.return_fire_combo.clear()
        total_rate = 0
        if encounter is not None:
            campaign = self._document.campaign
            for cid in chosen:
                combatant = encounter.find_combatant(cid)
                place = encounter.find_thing_entry(cid)
                if combatant is not None:
                    sheet: Character | Thing = campaign.combatant_character(combatant)
                elif place is not None:
                    sheet = campaign.encounter_thing(place)
                else:
                    continue
                for number, weapon in enumerate(sheet.weapons):
                    self.return_fire_combo.addItem(
                        f"{sheet.name}: {weapon.name} {weapon.damage}", (cid, number))
                    if number == 0:
                        total_rate += weapon.rate_of_attack
        self.return_fire_combo.addItem(tr(_CTX, "Nobody can strike back"), None)
        index = self.return_fire_combo.findData(previous)
        self.return_fire_combo.setCurrentIndex(index if index >= 0 and previous is not None
                                               else 0)
        self.return_rate_spin.setValue(max(1, total_rate))

    # --- the spec and the odds -------------------------------------------------------------

    def _sync_tactics_check(self, encounter: Encounter | None) -> None:
        """Offer one of the attacker's side's Tactics rolls (Ch.6) while there is one; with
        none left the box is cleared, so a spent pool never blocks the next roll."""
        attacker_id = self.attacker_combo.currentData()
        attacker = encounter.find_combatant(attacker_id) if (
            encounter is not None and attacker_id is not None) else None
        pool = side_tactics(encounter, attacker.side) if (
            encounter is not None and attacker is not None) else None
        offer_tactics_roll(self.tactics_check, pool,
                           tr(_CTX, "No Tactics rolls left for the attacker's side"))

    def _show_next_roll(self, encounter: Encounter | None, request: AttackRequest | None
                        ) -> None:
        """Offer what waits on the attacker's next roll (Ch.6: a grapple's advantage, a
        supporter's Effect): ticked, it counts and this roll uses it up."""
        attacker = encounter.find_combatant(request.attacker_id) if (
            encounter is not None and request is not None) else None
        waiting = next_roll_of(encounter, attacker) if (
            encounter is not None and attacker is not None) else None
        check = self.next_roll_check
        if not waiting:
            check.setText(tr(_CTX, "Nothing waits on the attacker's next roll"))
            check.setEnabled(False)
            return
        check.setText(tr(_CTX, "Next roll: {0}").format(waiting.text))
        check.setEnabled(True)

    def _inputs_changed(self) -> None:
        if self._updating:
            return
        defend = self.mode_combo.currentData() is AttackMode.DEFEND
        self.doubled_combo.setEnabled(defend)
        self.costly_check.setEnabled(not defend)
        encounter = self._encounter()
        self._sync_tactics_check(encounter)
        request = self._request()
        spec = None
        problem = ""
        if encounter is None or request is None:
            problem = tr(_CTX, "Choose an encounter with combatants")
        else:
            try:
                spec = build_attack(self._document.campaign, encounter, request)
            except ValueError as exc:
                problem = str(exc)
        self._spec = spec
        self.terms_model.set_breakdown(spec.difficulty if spec is not None else None)
        self.helpless_label.setText(helpless_text(spec))
        self.immunity_label.setText(immunity_text(spec))
        self.abort_check.setEnabled(
            (spec is not None and any(t.state.can_abort for t in spec.helpless))
            or self.abort_check.isChecked())
        self._show_next_roll(encounter, request)
        if spec is not None and spec.refusal:
            problem = spec.refusal
        rollable = spec is not None and not spec.refusal
        self.roll_button.setEnabled(rollable)
        self.use_dice_button.setEnabled(rollable)
        self.roll_button.setToolTip(tr("AttackForm", self._ROLL_TIP) if rollable else
                                    tr(_CTX, "Cannot roll: {0}").format(problem))
        self.use_dice_button.setToolTip(tr("AttackForm", self._DICE_TIP) if rollable else
                                        tr(_CTX, "Cannot roll: {0}").format(problem))
        self._problem(problem)
        if spec is None:
            self.odds_label.setText("")
            self.dm_label.setText("")
            self._outcome = None
            self._show_outcome()
            return
        self.dm_label.setText(roll_text(spec))
        parts = odds_parts(spec, attack_odds(spec))
        set_rich_text(self.odds_label, "<b>{}</b>" + " · {}" * (len(parts) - 1), *parts)
        check = self._check
        if check is not None and check.modifier == spec.roll_modifier and \
                check.difficulty == spec.difficulty.total and \
                check.advantage == spec.net_advantage:
            self._resolve()
        else:
            self._check = None
            self._outcome = None
            self._location_dice = []
            self._show_outcome()

    # --- resolving ---------------------------------------------------------------------------

    def _resolve(self) -> AttackOutcome | None:
        spec, check = self._spec, self._check
        if spec is None or check is None:
            return None
        typed_damage, typed_fire = self._typed
        try:
            outcome = resolve_attack(spec, check, self._rng, typed_damage, typed_fire)
        except ValueError as exc:
            self._problem(str(exc))
            self._outcome = None
            self._show_outcome()
            return None
        if self._location_dice:  # the locations already rolled stay where they fell
            try:
                outcome = locate_hits(outcome, [DiceSource.table(dice)
                                                for dice in self._location_dice])
            except ValueError:  # other targets hit now: roll the locations again
                self._location_dice = []
        self._problem("")
        self._outcome = outcome
        self._show_outcome()
        return outcome

    def _problem(self, text: str) -> None:
        self.problem_label.show_message(text)

    def _show_outcome(self) -> None:
        outcome = self._outcome
        self.apply_button.setEnabled(outcome is not None)
        self.location_button.setEnabled(outcome is not None and outcome.can_locate)
        self.discard_button.setEnabled(outcome is not None)
        html = tr(_CTX, "<p><i>Roll in the app, or type the dice rolled at the table.</i></p>") \
            if outcome is None else outcome_html(outcome)
        if html != self._shown_html:  # laying the text out again is the dear part
            self._shown_html = html
            self.outcome_view.setHtml(html)

