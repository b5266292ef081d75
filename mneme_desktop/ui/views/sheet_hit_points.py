"""The sheet's Hit points group and its Damage track: HP, damage, wound state, penalty and
thresholds, and the HP bar and box chart that set the damage with a click or a drag.

The numbers come from :func:`mneme_desktop.rules.track.damage_track`, the one source the
bar, the chart and the exporters share; one click, key press or whole drag is one undo step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout

from mneme_desktop.domain import Character, ConditionKind
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.track import DamageTrack, damage_track
from mneme_desktop.rules.wounds import ThresholdBasis, wound_effects
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.sheet_models import format_modifier
from mneme_desktop.ui.views.sheet_parts import SPACING, SheetEditor, label_buddies, small_label
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox
from mneme_desktop.ui.widgets.box_chart import ChartStyleCombo, DamageBoxChart
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar
from mneme_desktop.ui.widgets.plain_text import set_rich_text

_CTX = "SheetHitPoints"

__all__ = ["DamageTrackGroup", "HitPointsGroup", "character_track", "chart_hint"]


class HitPointsGroup(QGroupBox):
    """HP and damage, with the wound state, penalty and thresholds they make."""

    def __init__(self, editor: SheetEditor) -> None:
        super().__init__(tr(_CTX, "Hit points and wounds"))
        self._editor = editor
        self.setObjectName("hitPointsGroup")
        form = QFormLayout(self)
        form.setSpacing(SPACING // 2 + 2)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.hp_label = QLabel()
        self.hp_label.setObjectName("hpLabel")
        self.hp_label.setToolTip(tr(_CTX, "HP = STR + DEX + END"))
        form.addRow(tr(_CTX, "HP:"), self.hp_label)
        self.damage_spin = BoundedSpinBox(tr(_CTX, "Damage"))
        self.damage_spin.refused.connect(editor.show_message)
        self.damage_spin.input_accepted.connect(editor.clear_range_refusal)
        self.damage_spin.setObjectName("damageSpin")
        self.damage_spin.setRange(0, 99_999)
        self.damage_spin.setKeyboardTracking(False)
        self.damage_spin.setToolTip(tr(_CTX, "Damage taken and not yet healed"))
        form.addRow(tr(_CTX, "&Damage:"), self.damage_spin)
        self.state_label = QLabel()
        self.state_label.setObjectName("woundStateLabel")
        bold = QFont(self.state_label.font())
        bold.setBold(True)
        self.state_label.setFont(bold)
        form.addRow(tr(_CTX, "Wound state:"), self.state_label)
        self.penalty_label = QLabel()
        self.penalty_label.setObjectName("penaltyLabel")
        self.penalty_label.setToolTip(tr(_CTX, "-1 to all mental and physical rolls for every 3 "
                                               "damage"))
        form.addRow(tr(_CTX, "Wound penalty:"), self.penalty_label)
        self.thresholds_label = QLabel()
        self.thresholds_label.setObjectName("thresholdsLabel")
        self.thresholds_label.setWordWrap(True)
        self.thresholds_label.setSizePolicy(QSizePolicy.Policy.Expanding,
                                            QSizePolicy.Policy.Preferred)
        form.addRow(tr(_CTX, "Thresholds:"), self.thresholds_label)
        self.effects_label = small_label()
        self.effects_label.setObjectName("woundEffectsLabel")
        self.effects_label.setSizePolicy(QSizePolicy.Policy.Expanding,
                                         QSizePolicy.Policy.Preferred)
        form.addRow(self.effects_label)
        label_buddies(form)

    def connect_edits(self) -> None:
        """Make the damage field edit the character (after the sheet connected the document)."""
        self.damage_spin.valueChanged.connect(self._on_damage_spin)

    def show_character(self, character: Character, basis: ThresholdBasis,
                       track: DamageTrack) -> None:
        thresholds = character.wound_thresholds(basis)
        strength, dexterity, endurance = character.characteristics.physical
        set_rich_text(self.hp_label, tr(_CTX, "<b>{}</b> (STR {} + DEX {} + END {})"),
                      character.hit_points, strength, dexterity, endurance)
        if self.damage_spin.value() != character.damage:
            self.damage_spin.setValue(character.damage)
        state = character.wound_state(basis)
        self.state_label.setText(state.label)
        self.state_label.setToolTip(
            tr(_CTX, "The Dead condition is set") if character.has_condition(ConditionKind.DEAD)
            else track.thresholds.rule_for(track.state)
        )
        penalty = track.penalty
        self.penalty_label.setText(
            tr(_CTX, "{0} to all rolls").format(format_modifier(penalty)) if penalty
            else tr(_CTX, "none")
        )
        self.thresholds_label.setText(
            tr(_CTX,
                "Seriously wounded at {0}, critically wounded at {1}, dying above {2}").format(
                        thresholds.seriously, thresholds.critically, thresholds.hp)
        )
        self.thresholds_label.setToolTip(
            "\n".join((thresholds.seriously_rule, thresholds.critically_rule,
                       thresholds.dying_rule))
        )
        self.effects_label.setText(wound_effects(state).care_note)
        self.effects_label.setVisible(bool(wound_effects(state).care_note))

    def _on_damage_spin(self, value: int) -> None:
        if self._editor.updating:
            return
        self._editor.commit(tr(_CTX, "Set damage to {0}").format(
                value), lambda c: setattr(c, "damage", value),
                            "field:damage")


class DamageTrackGroup(QGroupBox):
    """The HP bar and the box chart: damage set by pointer or keys, one step per gesture."""

    def __init__(self, editor: SheetEditor) -> None:
        super().__init__(tr(_CTX, "Damage track"))
        self._editor = editor
        self._drag_serial = 0
        self.setObjectName("damageTrackGroup")
        layout = QVBoxLayout(self)
        layout.setSpacing(SPACING)
        self.hp_bar = HpThresholdBar()
        self.hp_bar.setObjectName("hpBar")
        layout.addWidget(self.hp_bar)
        self.box_chart = DamageBoxChart()
        self.box_chart.setObjectName("boxChart")
        row = QHBoxLayout()
        row.setSpacing(SPACING * 2)
        row.addWidget(self.box_chart, 0, Qt.AlignmentFlag.AlignTop)
        side = QVBoxLayout()
        side.setSpacing(SPACING // 2)
        self.chart_view_combo = ChartStyleCombo(self.box_chart)
        view_row = QFormLayout()
        view_row.addRow(tr(_CTX, "Bo&x chart:"), self.chart_view_combo)
        label_buddies(view_row)
        side.addLayout(view_row)
        self.chart_hint = small_label("")
        self.chart_hint.setObjectName("boxChartHint")
        self.chart_hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        side.addWidget(self.chart_hint)
        side.addStretch(1)
        row.addLayout(side, 1)
        layout.addLayout(row)
        self.chart_view_combo.currentIndexChanged.connect(self._show_chart_hint)
        self._show_chart_hint()

    def _show_chart_hint(self, *_: object) -> None:
        """How to use the chart, in the view shown."""
        self.chart_hint.setText(chart_hint(self.chart_view_combo.chart_style()))

    def connect_edits(self) -> None:
        """Make the bar and the chart edit the character (after the sheet connected the
        document)."""
        self.hp_bar.damage_requested.connect(self._on_damage_requested)
        self.box_chart.damage_requested.connect(self._on_damage_requested)

    def show_character(self, character: Character, track: DamageTrack) -> None:
        for widget in (self.hp_bar, self.box_chart):
            widget.set_subject(character.name)  # screen readers say whose damage it is
            widget.set_track(track)

    def _on_damage_requested(self, value: int, merge: bool) -> None:
        """From the HP bar or box chart: one undo step per click, key press or whole drag."""
        character = self._editor.character()
        if character is None or value == character.damage:
            return
        if not merge:
            self._drag_serial += 1
        # A fresh key per gesture: the drag's later moves merge into its first step and
        # never into the previous gesture.
        key = f"hp-drag:{self._drag_serial}"
        self._editor.commit(tr(_CTX, "Set damage to {0}").format(
                value), lambda c: setattr(c, "damage", value),
                            key)


def chart_hint(style: ChartStyle) -> str:
    """The hint beside a box chart (the character sheet's and a thing's): how to set damage,
    and how the boxes in ``style`` count."""
    how = tr(_CTX, "Click or drag on the bar or the boxes to set the damage taken, or focus "
                   "either and use + and − (Page Up and Page Down move a whole penalty step, "
                   "Home heals all). Each click, key press or drag is one undo step.")
    if style is ChartStyle.MEGATRAVELLER:
        rows = tr(_CTX, "The MegaTraveller record: HP/6 rounded up six-box columns, the boxes "
                        "of the last column that HP does not reach crossed off in grey. Each "
                        "row is labelled with the wound penalty while it fills (-1 to all "
                        "rolls for every 3 damage).")
    else:
        rows = tr(_CTX, "Every 3 damage is one row of boxes and -1 to all rolls.")
    return f"{how}\n\n{rows}"


def character_track(character: Character, basis: ThresholdBasis) -> DamageTrack:
    """The damage track both groups show, asked of the rules core once per refresh."""
    return damage_track(character.damage, character.hit_points,
                        character.wound_thresholds(basis))
