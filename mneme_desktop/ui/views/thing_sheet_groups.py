"""The groups of the thing sheet: what the thing is, its HP, armor and protection with their
scales, its damage track, its crew and weapons. None of them pushes an edit itself: each
asks the :class:`ThingEditor` (the sheet), the one commit path and message line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.domain import Thing, ThingKind
from mneme_desktop.domain.character import MAX_AMOUNT
from mneme_desktop.domain.things import MAX_PROTECTION
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.dice import Scale
from mneme_desktop.rules.thing_damage import SCALE_IMMUNITY_RULE, scale_notation
from mneme_desktop.rules.track import DamageTrack
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.models.thing_models import ThingListModel
from mneme_desktop.ui.views.sheet_parts import SPACING, label_buddies, small_label
from mneme_desktop.ui.widgets.bounded_spin import BoundedSpinBox
from mneme_desktop.ui.widgets.box_chart import ChartStyleCombo, DamageBoxChart
from mneme_desktop.ui.widgets.delegates import SheetItemDelegate
from mneme_desktop.ui.widgets.hp_bar import HpThresholdBar

_CTX = "ThingSheet"

__all__ = ["DurabilityGroup", "ThingEditor", "ThingListGroup", "ThingTrackGroup",
           "WhatGroup", "scale_combo", "thing_chart_hint"]

_SCALE_NAMES = {
    Scale.NONE: tr_noop(_CTX, "personal (×1)"),
    Scale.DEKA: tr_noop(_CTX, "Deka (×10)"),
    Scale.HEKA: tr_noop(_CTX, "Heka (×100)"),
    Scale.KILO: tr_noop(_CTX, "Kilo (×1,000)"),
}


class ThingEditor(Protocol):
    """The sheet as its groups see it."""

    @property
    def updating(self) -> bool: ...

    def thing(self) -> Thing | None: ...

    def commit(self, text: str, change: Callable[[Thing], object],
               merge_key: str | None = None) -> bool: ...

    def set_damage(self, damage: int, merge_key: str | None) -> None: ...

    def show_message(self, text: str) -> None: ...

    def clear_range_refusal(self) -> None: ...


def scale_combo(object_name: str) -> QComboBox:
    """A scale picker: personal, Deka, Heka, Kilo, each with its multiplier."""
    combo = QComboBox()
    combo.setObjectName(object_name)
    for scale, name in _SCALE_NAMES.items():
        combo.addItem(tr(_CTX, name), scale)
    return combo


def _spin(editor: ThingEditor, what: str, name: str, maximum: int) -> BoundedSpinBox:
    spin = BoundedSpinBox(what)
    spin.setObjectName(name)
    spin.setAccessibleName(what)  # its label's buddy is the row it sits in
    spin.setRange(0, maximum)
    spin.setKeyboardTracking(False)
    spin.refused.connect(editor.show_message)
    spin.input_accepted.connect(editor.clear_range_refusal)
    return spin


def _set_spin(spin: QSpinBox, value: int) -> None:
    if spin.value() != value:
        spin.setValue(value)


def _set_combo(combo: QComboBox, value: object) -> None:
    index = combo.findData(value)
    if index >= 0 and combo.currentIndex() != index:
        combo.setCurrentIndex(index)


class WhatGroup(QGroupBox):
    """The thing's name and kind."""

    def __init__(self, editor: ThingEditor) -> None:
        super().__init__(tr(_CTX, "Vehicle or object"))
        self.setObjectName("thingWhatGroup")
        self._editor = editor
        form = self.form = QFormLayout(self)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("thingName")
        self.name_edit.setMaxLength(200)
        form.addRow(tr(_CTX, "&Name:"), self.name_edit)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("thingKind")
        for kind in ThingKind:
            self.kind_combo.addItem(tr(_CTX, kind.label), kind.value)
        form.addRow(tr(_CTX, "&Kind:"), self.kind_combo)
        label_buddies(form)

    def connect_edits(self) -> None:
        self.name_edit.editingFinished.connect(self._on_name)
        self.kind_combo.currentIndexChanged.connect(self._on_kind)

    def show_thing(self, thing: Thing) -> None:
        if self.name_edit.text() != thing.name and not self.name_edit.hasFocus():
            self.name_edit.setText(thing.name)
        _set_combo(self.kind_combo, thing.kind.value)

    def _on_name(self) -> None:
        thing = self._editor.thing()
        name = self.name_edit.text().strip()
        if self._editor.updating or thing is None or name == thing.name:
            return
        if not name:
            self._editor.show_message(tr(_CTX, "A vehicle or object needs a name."))
            self.name_edit.setText(thing.name)
            return
        self._editor.commit(tr(_CTX, "Rename {0} to {1}").format(thing.name, name),
                            lambda t: setattr(t, "name", name))

    def _on_kind(self, _index: int) -> None:
        thing = self._editor.thing()
        kind = ThingKind(self.kind_combo.currentData())
        if self._editor.updating or thing is None or kind is thing.kind:
            return
        self._editor.commit(tr(_CTX, "Make {0} a {1}").format(thing.name, tr(_CTX, kind.label)),
                            lambda t: setattr(t, "kind", kind))


class DurabilityGroup(QGroupBox):
    """HP and armor as written with their scales (the plain value beside each), protection
    as cover, and the damage taken in plain points with the state it makes."""

    def __init__(self, editor: ThingEditor) -> None:
        super().__init__(tr(_CTX, "Hit points, armor and cover"))
        self.setObjectName("thingDurabilityGroup")
        self._editor = editor
        form = QFormLayout(self)
        self.hp_spin = _spin(editor, tr(_CTX, "HP"), "thingHp", MAX_AMOUNT)
        self.hp_spin.setMinimum(1)
        self.hp_scale = scale_combo("thingHpScale")
        self.hp_label = QLabel()
        self.hp_label.setObjectName("thingHpLabel")
        form.addRow(tr(_CTX, "H&it points:"), self._row(self.hp_spin, self.hp_scale, self.hp_label))
        self.armor_spin = _spin(editor, tr(_CTX, "Armor"), "thingArmor", MAX_AMOUNT)
        self.armor_scale = scale_combo("thingArmorScale")
        self.armor_label = QLabel()
        self.armor_label.setObjectName("thingArmorLabel")
        form.addRow(tr(_CTX, "&Armor:"),
                    self._row(self.armor_spin, self.armor_scale, self.armor_label))
        self.protection_spin = _spin(editor, tr(_CTX, "Protection"), "thingProtection",
                                     MAX_PROTECTION)
        self.protection_spin.setToolTip(tr(
            _CTX, "As cover: the Difficulty it adds, and the fail effect it absorbs (Cover "
                  "Absorption: the damage rolls it absorbs are rolled against it)"))
        self.protection_label = QLabel()
        self.protection_label.setObjectName("thingProtectionLabel")
        form.addRow(tr(_CTX, "&Protection as cover:"),
                    self._row(self.protection_spin, self.protection_label))
        self.damage_spin = _spin(editor, tr(_CTX, "Damage"), "thingDamage", MAX_AMOUNT)
        self.damage_spin.setToolTip(tr(_CTX, "Damage taken, in plain points"))
        self.damage_label = QLabel()
        self.damage_label.setObjectName("thingDamageLabel")
        form.addRow(tr(_CTX, "&Damage:"), self._row(self.damage_spin, self.damage_label))
        self.state_label = QLabel()
        self.state_label.setObjectName("thingStateLabel")
        bold = QFont(self.state_label.font())
        bold.setBold(True)
        self.state_label.setFont(bold)
        form.addRow(tr(_CTX, "State:"), self.state_label)
        self.thresholds_label = QLabel()
        self.thresholds_label.setObjectName("thingThresholdsLabel")
        self.thresholds_label.setWordWrap(True)
        form.addRow(tr(_CTX, "Thresholds:"), self.thresholds_label)
        self.scale_note = small_label()
        self.scale_note.setObjectName("thingScaleNote")
        form.addRow(self.scale_note)
        label_buddies(form)
        # A row's label focuses its number field, not the row holding it.
        for spin in (self.hp_spin, self.armor_spin, self.protection_spin, self.damage_spin):
            holder = spin.parentWidget()
            label = form.labelForField(holder) if holder is not None else None
            if isinstance(label, QLabel):
                label.setBuddy(spin)

    @staticmethod
    def _row(*widgets: QWidget) -> QWidget:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in widgets:
            row.addWidget(widget, 1 if isinstance(widget, QLabel) else 0)
        return holder

    def connect_edits(self) -> None:
        editor = self._editor
        self.hp_spin.valueChanged.connect(lambda v: self._set("hp", v, tr(_CTX, "HP")))
        self.armor_spin.valueChanged.connect(lambda v: self._set("armor", v, tr(_CTX, "armor")))
        self.protection_spin.valueChanged.connect(
            lambda v: self._set("protection", v, tr(_CTX, "protection")))
        self.hp_scale.currentIndexChanged.connect(
            lambda _i: self._set("hp_scale", self.hp_scale.currentData(), tr(_CTX, "HP scale")))
        self.armor_scale.currentIndexChanged.connect(
            lambda _i: self._set("armor_scale", self.armor_scale.currentData(),
                                 tr(_CTX, "armor scale")))
        self.damage_spin.valueChanged.connect(
            lambda v: None if editor.updating else editor.set_damage(v, "field:thing-damage"))

    def _set(self, field: str, value: object, what: str) -> None:
        thing = self._editor.thing()
        if self._editor.updating or thing is None or getattr(thing, field) == value:
            return
        self._editor.commit(tr(_CTX, "Set {0} of {1}").format(what, thing.name),
                            lambda t: setattr(t, field, value), f"field:thing-{field}")

    def show_thing(self, thing: Thing, track: DamageTrack) -> None:
        _set_spin(self.hp_spin, thing.hp)
        _set_combo(self.hp_scale, thing.hp_scale)
        self.hp_label.setText(thing.hp_label)
        _set_spin(self.armor_spin, thing.armor)
        _set_combo(self.armor_scale, thing.armor_scale)
        self.armor_label.setText(thing.armor_label)
        _set_spin(self.protection_spin, thing.protection)
        self.protection_label.setText(
            tr(_CTX, "+{0} Difficulty to hit who is behind it; absorbs up to {0} fail effect "
                     "while it has HP left").format(thing.protection) if thing.protection
            else tr(_CTX, "gives no cover"))
        _set_spin(self.damage_spin, thing.damage)
        scale = thing.hp_scale
        crossed = scale_notation(track.damage, scale, "HP").split(" = ")[0]
        self.damage_label.setText(
            tr(_CTX, "{0} plain points: {1} crossed, {2} plain HP left").format(
                thing.damage, crossed, thing.remaining_hp) if scale is not Scale.NONE
            else tr(_CTX, "{0} HP left").format(thing.remaining_hp))
        self.state_label.setText(tr(_CTX, thing.state.label))
        self.state_label.setToolTip(track.bands[-1].rule_text if thing.destroyed else "")
        limits = track.thresholds
        self.thresholds_label.setText(tr(
            _CTX, "Seriously damaged at {0}, critically damaged at {1}, destroyed past {2}").format(
            scale_notation(limits.seriously, scale, "HP"),
            scale_notation(limits.critically, scale, "HP"),
            scale_notation(limits.hp, scale, "HP")))
        self.thresholds_label.setToolTip("\n".join(band.rule_text for band in track.bands))
        if thing.scale is Scale.NONE:
            self.scale_note.setText(tr(_CTX, "Personal scale: damage of any scale harms it."))
        else:
            self.scale_note.setText(tr(
                _CTX, "{0} scale: it ignores damage of a lesser scale ({1}).").format(
                thing.scale.label, SCALE_IMMUNITY_RULE))


def thing_chart_hint(style: ChartStyle) -> str:
    """How a thing's bar and chart set damage, and how its boxes count (no wound penalty:
    a thing rolls nothing, its rows hold points)."""
    how = tr(_CTX, "Click or drag on the bar or the boxes to set the damage taken, or focus "
                   "either and use + and − (Page Up and Page Down move three boxes, Home "
                   "repairs all). Each click, key press or drag is one undo step.")
    if style is ChartStyle.MEGATRAVELLER:
        rows = tr(_CTX, "The MegaTraveller record: HP/6 rounded up six-box columns, the boxes "
                        "of the last column that HP does not reach crossed off in grey; each "
                        "row is labelled with the points it holds.")
    else:
        rows = tr(_CTX, "Each row of three boxes is labelled with the points it holds.")
    return f"{how}\n\n{rows}"


class ThingTrackGroup(QGroupBox):
    """The HP bar and the box chart of the thing, in its scale units: one click, key or
    drag is one undo step."""

    def __init__(self, editor: ThingEditor) -> None:
        super().__init__(tr(_CTX, "Damage track"))
        self.setObjectName("thingTrackGroup")
        self._editor = editor
        self._serial = 0
        layout = QVBoxLayout(self)
        layout.setSpacing(SPACING)
        self.hp_bar = HpThresholdBar()
        self.hp_bar.setObjectName("thingHpBar")
        layout.addWidget(self.hp_bar)
        row = QHBoxLayout()
        row.setSpacing(SPACING * 2)
        self.box_chart = DamageBoxChart()
        self.box_chart.setObjectName("thingBoxChart")
        row.addWidget(self.box_chart, 0, Qt.AlignmentFlag.AlignTop)
        side = QVBoxLayout()
        form = QFormLayout()
        self.view_combo = ChartStyleCombo(self.box_chart)
        form.addRow(tr(_CTX, "Bo&x chart:"), self.view_combo)
        label_buddies(form)
        side.addLayout(form)
        self.hint = small_label()
        self.hint.setObjectName("thingBoxChartHint")
        side.addWidget(self.hint)
        side.addStretch(1)
        row.addLayout(side, 1)
        layout.addLayout(row)
        self.view_combo.currentIndexChanged.connect(self._show_hint)
        self._unit = 1

    def connect_edits(self) -> None:
        self.hp_bar.damage_requested.connect(self._on_request)
        self.box_chart.damage_requested.connect(self._on_request)

    def show_thing(self, thing: Thing, track: DamageTrack) -> None:
        self._unit = thing.hp_scale.multiplier
        for widget in (self.hp_bar, self.box_chart):
            widget.set_subject(thing.name)
            widget.set_track(track)
        self._show_hint()

    def _show_hint(self, *_: object) -> None:
        text = thing_chart_hint(self.view_combo.chart_style())
        if self._unit > 1:
            text += "\n\n" + tr(_CTX, "Each box is {0:,} plain points of damage.").format(
                self._unit)
        self.hint.setText(text)

    def _on_request(self, units: int, merge: bool) -> None:
        thing = self._editor.thing()
        if thing is None or units == thing.track.damage:
            return
        if not merge:
            self._serial += 1
        self._editor.set_damage(units * thing.hp_scale.multiplier, f"thing-drag:{self._serial}")


class ThingListGroup(QGroupBox):
    """A table of the thing's crew or weapons with Add and Remove under it."""

    def __init__(self, editor: ThingEditor, title: str, name: str, model: ThingListModel,
                 add_text: str, remove_text: str) -> None:
        super().__init__(title)
        self.setObjectName(f"{name}Group")
        self._editor = editor
        self.model = model
        self.view = QTableView()
        self.view.setObjectName(f"{name}View")
        self.view.setModel(model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed
                                  | QAbstractItemView.EditTrigger.SelectedClicked)
        self.view.verticalHeader().setVisible(False)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.view.setFixedHeight(self.view.horizontalHeader().sizeHint().height()
                                 + 5 * self.view.verticalHeader().defaultSectionSize() + 4)
        self.delegate = SheetItemDelegate(self.view)
        self.view.setItemDelegate(self.delegate)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(add_text)
        self.add_button.setObjectName(f"{name}AddButton")
        self.remove_button = QPushButton(remove_text)
        self.remove_button.setObjectName(f"{name}RemoveButton")
        self.remove_button.setEnabled(False)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    def connect_edits(self) -> None:
        self.model.edit_rejected.connect(self._editor.show_message)
        self.delegate.edit_refused.connect(self._editor.show_message)
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        selection = self.view.selectionModel()
        selection.selectionChanged.connect(
            lambda *_: self.remove_button.setEnabled(selection.hasSelection()))
        self.model.modelReset.connect(
            lambda: self.remove_button.setEnabled(selection.hasSelection()))

    def _add(self) -> None:
        row = self.model.add_item()
        if row is None:
            return
        index = self.model.index(row, 0)
        self.view.setFocus()
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.view.edit(index)

    def _remove(self) -> None:
        self.model.remove_rows(index.row() for index in self.view.selectionModel().selectedRows())
