"""The referee's panel for the player display, on the referee's own screen: which screen,
full screen or not, theme, text size, how much of each side's wounds the players see, and
whether the last attacks show. Every choice applies at once and is remembered (the
settings file)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Side
from mneme_desktop.settings import DisplayTheme, PlayerVisibility, Settings
from mneme_desktop.ui.i18n import tr, tr_noop
from mneme_desktop.ui.player_display.screens import chosen_screen, screen_label, screens

__all__ = ["PlayerDisplayPanel"]

_CTX = "PlayerDisplay"

_THEMES = {DisplayTheme.DARK: tr_noop(_CTX, "Dark"), DisplayTheme.LIGHT: tr_noop(_CTX, "Light"),
           DisplayTheme.HIGH_CONTRAST: tr_noop(_CTX, "High contrast")}
_VISIBILITY = {
    PlayerVisibility.BAND_AND_HP: tr_noop(_CTX, "Wound band and HP"),
    PlayerVisibility.BAND: tr_noop(_CTX, "Wound band only"),
    PlayerVisibility.VAGUE: tr_noop(_CTX, "A vague word (hurt, badly hurt, down)"),
    PlayerVisibility.NOTHING: tr_noop(_CTX, "Nothing"),
}
_SIDES = {Side.PLAYERS: ("player_display_players", tr_noop(_CTX, "Players' side:")),
          Side.ENEMIES: ("player_display_enemies", tr_noop(_CTX, "Enemies:")),
          Side.NEUTRAL: ("player_display_neutral", tr_noop(_CTX, "Neutral:"))}


class PlayerDisplayPanel(QDialog):
    """Sets up the player display; it never shows the display's content itself."""

    changed = Signal()
    """A setting changed (already stored in the settings and written)."""
    placement_changed = Signal()
    """The screen or full screen changed: the display moves."""
    show_requested = Signal()
    close_requested = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("player_display_panel")
        self.setWindowTitle(tr(_CTX, "Player Display"))
        self.context = context
        layout = QVBoxLayout(self)
        intro = QLabel(tr(_CTX, "A second window for the players: the round, whose turn it "
                                "is and the turn order. Adversary sheets, notes, secret "
                                "rolls and combatants not yet revealed never show."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.screen_combo = QComboBox(objectName="display_screen")
        self.screen_combo.setToolTip(tr(_CTX, "The screen the players look at"))
        form.addRow(tr(_CTX, "Screen:"), self.screen_combo)
        self.full_screen_check = QCheckBox(tr(_CTX, "Fill the screen"),
                                           objectName="display_full_screen")
        form.addRow("", self.full_screen_check)
        self.theme_combo = QComboBox(objectName="display_theme")
        for theme, text in _THEMES.items():
            self.theme_combo.addItem(tr(_CTX, text), theme)
        form.addRow(tr(_CTX, "Theme:"), self.theme_combo)
        self.text_spin = QSpinBox(objectName="display_text_size")
        limits = Settings.limits("player_display_text_pt")
        self.text_spin.setRange(limits.minimum or 14, limits.maximum or 96)
        self.text_spin.setSuffix(tr(_CTX, " pt"))
        self.text_spin.setToolTip(tr(_CTX, limits.description))
        form.addRow(tr(_CTX, "Text size:"), self.text_spin)
        self.side_combos: dict[Side, QComboBox] = {}
        for side, (name, label) in _SIDES.items():
            combo = QComboBox(objectName=name)
            for visibility, text in _VISIBILITY.items():
                combo.addItem(tr(_CTX, text), visibility)
            combo.setToolTip(tr(_CTX, "What the players see of these combatants' wounds"))
            self.side_combos[side] = combo
            form.addRow(tr(_CTX, label), combo)
        self.log_check = QCheckBox(tr(_CTX, "Show the last attacks (never notes or checks)"),
                                   objectName="display_log")
        form.addRow("", self.log_check)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.show_button = QPushButton(tr(_CTX, "Show Display"), objectName="show_display")
        self.close_display_button = QPushButton(tr(_CTX, "Close Display"),
                                                objectName="close_display")
        row.addWidget(self.show_button)
        row.addWidget(self.close_display_button)
        row.addStretch(1)
        layout.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.load()
        self.screen_combo.activated.connect(self._screen_chosen)
        self.full_screen_check.clicked.connect(self._full_screen_clicked)
        self.theme_combo.activated.connect(
            lambda _i: self._store("player_display_theme", self.theme_combo.currentData()))
        self.text_spin.valueChanged.connect(
            lambda value: self._store("player_display_text_pt", value))
        for side, combo in self.side_combos.items():
            combo.activated.connect(
                lambda _i, s=side, c=combo: self._store(_SIDES[s][0], c.currentData()))
        self.log_check.clicked.connect(lambda on: self._store("player_display_log", on))
        self.show_button.clicked.connect(lambda _c=False: self.show_requested.emit())
        self.close_display_button.clicked.connect(lambda _c=False: self.close_requested.emit())

    def load(self) -> None:
        """Show the stored settings (and today's screens)."""
        settings = self.context.settings
        widgets = (self.screen_combo, self.full_screen_check, self.theme_combo,
                   self.text_spin, self.log_check, *self.side_combos.values())
        for widget in widgets:
            widget.blockSignals(True)
        try:
            self.screen_combo.clear()
            for screen in screens():
                self.screen_combo.addItem(screen_label(screen), screen.name())
            current = chosen_screen(settings.player_display_screen)
            if current is not None:
                self.screen_combo.setCurrentIndex(self.screen_combo.findData(current.name()))
            self.full_screen_check.setChecked(settings.player_display_full_screen)
            self.theme_combo.setCurrentIndex(
                self.theme_combo.findData(settings.player_display_theme))
            self.text_spin.setValue(settings.player_display_text_pt)
            for side, combo in self.side_combos.items():
                combo.setCurrentIndex(combo.findData(getattr(settings, _SIDES[side][0])))
            self.log_check.setChecked(settings.player_display_log)
        finally:
            for widget in widgets:
                widget.blockSignals(False)

    def _screen_chosen(self, _index: int) -> None:
        self._store("player_display_screen", str(self.screen_combo.currentData() or ""),
                    placement=True)

    def _full_screen_clicked(self, on: bool) -> None:
        self._store("player_display_full_screen", on, placement=True)

    def _store(self, name: str, value: object, *, placement: bool = False) -> None:
        setattr(self.context.settings, name, value)
        self.context.save_settings()
        self.changed.emit()
        if placement:
            self.placement_changed.emit()
