"""Preferences: the user's settings and this campaign's rules options."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.settings import BoxChartStyle, PageSize, Settings, Theme
from mneme_desktop.ui.dialogs.buttons import ok_cancel_buttons
from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "SettingsDialog"

_CHART_LABELS = {
    BoxChartStyle.ROWS_OF_THREE: tr_noop(_CTX, "Rows of three (one row per -1 wound penalty)"),
    BoxChartStyle.MEGATRAVELLER: tr_noop(_CTX, "MegaTraveller record (six-box columns)"),
}

_BASIS_LABELS = {
    ThresholdBasis.HP_FRACTIONS: tr_noop(_CTX, "HP fractions: seriously at ⌊HP/3⌋, critically at "
                                               "⌊2·HP/3⌋"),
    ThresholdBasis.CHARACTERISTIC: tr_noop(_CTX, "Characteristic: seriously at best physical "
                                                 "characteristic, critically at twice it"),
}


class SettingsDialog(QDialog):
    """Edits a copy; the caller applies :meth:`result_settings` and :meth:`threshold_basis`."""

    def __init__(self, settings: Settings, basis: ThresholdBasis,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr(_CTX, "Settings"))
        self.setObjectName("settings_dialog")
        self._settings = settings.copy()

        rules_box = QGroupBox(tr(_CTX, "Rules options (saved in this campaign)"))
        rules_form = QFormLayout(rules_box)
        self.basis_combo = QComboBox()
        self.basis_combo.setObjectName("basis_combo")
        for option, label in _BASIS_LABELS.items():
            self.basis_combo.addItem(tr(_CTX, label), option)
        self.basis_combo.setCurrentIndex(self.basis_combo.findData(basis))
        rules_form.addRow(tr(_CTX, "Wound thresholds:"), self.basis_combo)
        note = QLabel(tr(_CTX, "The chapters disagree here; HP fractions are the default because "
                               "they also drive care levels and bleeding."))
        note.setWordWrap(True)
        rules_form.addRow(note)

        app_box = QGroupBox(tr(_CTX, "Application"))
        form = QFormLayout(app_box)
        self.theme_combo = QComboBox()
        self.theme_combo.setObjectName("theme_combo")
        for theme in Theme:
            self.theme_combo.addItem(tr(_CTX, theme.value.capitalize()), theme)
        self.theme_combo.setCurrentIndex(self.theme_combo.findData(settings.theme))
        form.addRow(tr(_CTX, "Theme:"), self.theme_combo)

        self.autosave_spin = QSpinBox()
        self.autosave_spin.setObjectName("autosave_spin")
        self._bound(self.autosave_spin, "autosave_interval_s")
        self.autosave_spin.setSuffix(tr(_CTX, " s"))
        self.autosave_spin.setValue(settings.autosave_interval_s)
        self.autosave_spin.setToolTip(tr(_CTX, Settings.limits("autosave_interval_s").description))
        form.addRow(tr(_CTX, "Autosave every:"), self.autosave_spin)

        self.backups_spin = QSpinBox()
        self.backups_spin.setObjectName("backups_spin")
        self._bound(self.backups_spin, "backup_count")
        self.backups_spin.setValue(settings.backup_count)
        self.backups_spin.setToolTip(tr(_CTX, Settings.limits("backup_count").description))
        form.addRow(tr(_CTX, "Backups kept:"), self.backups_spin)

        print_box = QGroupBox(tr(_CTX, "Printing"))
        print_form = QFormLayout(print_box)
        self.page_combo = QComboBox()
        self.page_combo.setObjectName("page_combo")
        for size in PageSize:
            self.page_combo.addItem(tr(_CTX, size.value), size)
        self.page_combo.setCurrentIndex(self.page_combo.findData(settings.page_size))
        print_form.addRow(tr(_CTX, "Page size:"), self.page_combo)
        self.damage_check = QCheckBox(tr(_CTX, "Print current damage on sheets (otherwise blank "
                                               "boxes for pencil)"))
        self.damage_check.setObjectName("damage_check")
        self.damage_check.setChecked(settings.print_current_damage)
        print_form.addRow(self.damage_check)
        self.box_chart_combo = QComboBox()
        self.box_chart_combo.setObjectName("box_chart_combo")
        for style, label in _CHART_LABELS.items():
            self.box_chart_combo.addItem(tr(_CTX, label), style)
        self.box_chart_combo.setCurrentIndex(
            self.box_chart_combo.findData(settings.print_box_chart))
        self.box_chart_combo.setToolTip(tr(_CTX, Settings.limits("print_box_chart").description))
        print_form.addRow(tr(_CTX, "Box chart on sheets:"), self.box_chart_combo)

        buttons = ok_cancel_buttons(self)
        self.buttons = buttons

        layout = QVBoxLayout(self)
        layout.addWidget(rules_box)
        layout.addWidget(app_box)
        layout.addWidget(print_box)
        layout.addWidget(buttons)

    @staticmethod
    def _bound(spin: QSpinBox, name: str) -> None:
        """Limits come from the Settings declaration, so the dialog cannot offer a bad value."""
        limits = Settings.limits(name)
        if limits.minimum is not None:
            spin.setMinimum(limits.minimum)
        if limits.maximum is not None:
            spin.setMaximum(limits.maximum)

    def result_settings(self) -> Settings:
        settings = self._settings
        settings.theme = self.theme_combo.currentData()
        settings.autosave_interval_s = self.autosave_spin.value()
        settings.backup_count = self.backups_spin.value()
        settings.page_size = self.page_combo.currentData()
        settings.print_current_damage = self.damage_check.isChecked()
        settings.print_box_chart = self.box_chart_combo.currentData()
        return settings

    def threshold_basis(self) -> ThresholdBasis:
        value = self.basis_combo.currentData()
        assert isinstance(value, ThresholdBasis)
        return value
