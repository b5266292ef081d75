"""The player display: a second top-level window for a TV, projector or second monitor.

It shows a :class:`~.filtering.Scene` and nothing else: the idle screen (the campaign, the
in-game day and time) while no fight runs, else the round, whose turn it is and who is
next, the turn order and, if the referee wants, the last attacks. Everything is big enough
to read across a room, in the display's own theme.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QContextMenuEvent,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListView,
    QMenu,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mneme_desktop.settings import DisplayTheme
from mneme_desktop.ui.i18n import tr
from mneme_desktop.ui.models.roles import VALUE_ROLE
from mneme_desktop.ui.player_display.display_theme import display_colors
from mneme_desktop.ui.player_display.filtering import Scene, TurnMark
from mneme_desktop.ui.player_display.model import DisplayFeed, PlayerTurnModel
from mneme_desktop.ui.player_display.row_delegate import PlayerRowDelegate

__all__ = ["PlayerDisplayWindow"]

_CTX = "PlayerDisplay"


class _ElidedLabel(QLabel):
    """One line that ends in "…" when it does not fit, instead of holding the window at the
    width of its text: a long name in "Now:" or "Next:" made the display wider than a
    1366-pixel screen, and the two lines ran into each other."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().horizontalAdvance("Mmmm"), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        del event
        area = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                              area.width())
        painter = QPainter(self)
        self.style().drawItemText(painter, area, int(self.alignment().value), self.palette(),
                                  self.isEnabled(), shown, self.foregroundRole())


def _label(name: str, scale: float = 1.0, *, bold: bool = False,
           align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
           elide: bool = False) -> QLabel:
    label = _ElidedLabel(objectName=name) if elide else QLabel(objectName=name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # names are never markup
    label.setProperty("scale", scale)
    label.setProperty("bold", bold)
    label.setAlignment(align | Qt.AlignmentFlag.AlignVCenter)
    return label


class PlayerDisplayWindow(QWidget):
    """What the players see; the referee sets it up from the Player Display panel."""

    settings_requested = Signal()
    full_screen_toggled = Signal(bool)

    def __init__(self, feed: DisplayFeed, theme: DisplayTheme, text_pt: int) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.setObjectName("player_display")
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)  # closing the app's
        # window ends the app whether this one is open or not
        self.feed = feed
        self._colors = display_colors(theme)
        self._build()
        self._build_actions()
        feed.scene_changed.connect(self.show_scene)
        self.apply_look(theme, text_pt)
        self.show_scene(feed.scene)

    # --- construction ------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.pages = QStackedWidget()
        layout.addWidget(self.pages)

        idle = QWidget(objectName="idle_page")
        idle_layout = QVBoxLayout(idle)
        self._idle_layout = idle_layout
        idle_layout.addStretch(2)
        center = Qt.AlignmentFlag.AlignHCenter
        self.idle_campaign = _label("idle_campaign", 2.0, bold=True, align=center)
        self.idle_campaign.setWordWrap(True)
        self.idle_day = _label("idle_day", 1.6, align=center)
        self.idle_clock = _label("idle_clock", 3.4, bold=True, align=center)
        for widget in (self.idle_campaign, self.idle_day, self.idle_clock):
            idle_layout.addWidget(widget)
        idle_layout.addStretch(3)
        self.pages.addWidget(idle)

        fight = QWidget(objectName="fight_page")
        fight_layout = QVBoxLayout(fight)
        header = QHBoxLayout()
        self.round_label = _label("round_label", 2.0, bold=True)
        self.where_label = _label("where_label", 0.9, align=Qt.AlignmentFlag.AlignRight,
                                  elide=True)
        header.addWidget(self.round_label)
        header.addSpacing(self.round_label.fontMetrics().horizontalAdvance("MM"))
        header.addWidget(self.where_label, 1)
        fight_layout.addLayout(header)
        turn = QHBoxLayout()
        self.now_label = _label("now_label", 1.6, bold=True, elide=True)
        self.next_label = _label("next_label", 1.3, align=Qt.AlignmentFlag.AlignRight,
                                 elide=True)
        self._turn_row = turn
        turn.addWidget(self.now_label)  # each its whole text while it fits (no stretch
        turn.addStretch(1)              # factors: they would share the width 3:2 and cut
        turn.addWidget(self.next_label)  # "Next: Shieldwall Raider 1" on a wide screen)
        fight_layout.addLayout(turn)
        self._turn_gap = QWidget(objectName="turn_gap")  # air between "Now" and the headers
        fight_layout.addWidget(self._turn_gap)

        self.table = QTableView(objectName="player_turn_order")
        self.table.setAccessibleName(tr(_CTX, "Turn order"))
        self.table.setModel(self.feed.turn_model)
        self.delegate = PlayerRowDelegate(self._colors, self.table)
        self.table.setItemDelegate(self.delegate)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setFrameShape(QTableView.Shape.NoFrame)
        self.table.verticalHeader().hide()
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header_view = self.table.horizontalHeader()
        header_view.setHighlightSections(False)
        header_view.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # see _fit_columns
        fight_layout.addWidget(self.table, 1)
        self.table.viewport().installEventFilter(self)
        self._fit_later = QTimer(self)
        self._fit_later.setSingleShot(True)
        self._fit_later.setInterval(0)
        self._fit_later.timeout.connect(self._fit_table)
        model = self.feed.turn_model
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset,
                       model.dataChanged, model.layoutChanged):
            signal.connect(self._fit_later.start)
        self._model_live = True
        model.destroyed.connect(self._model_gone)  # the feed may go before the window

        self.log_title = _label("log_title", 0.9, bold=True)
        self.log_title.setText(tr(_CTX, "Last attacks"))
        self.log_view = QListView(objectName="public_log")
        self.log_view.setAccessibleName(tr(_CTX, "Last attacks"))
        self.log_view.setModel(self.feed.log_model)
        self.log_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.log_view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.log_view.setFrameShape(QListView.Shape.NoFrame)
        self.log_view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log_view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.log_view.setProperty("scale", 0.9)
        fight_layout.addWidget(self.log_title)
        fight_layout.addWidget(self.log_view)
        self.pages.addWidget(fight)

    def _build_actions(self) -> None:
        self.full_screen_action = QAction(tr(_CTX, "&Full Screen"), self)
        self.full_screen_action.setCheckable(True)
        self.full_screen_action.setShortcut(QKeySequence("F11"))
        self.full_screen_action.toggled.connect(self.full_screen_toggled)
        self.settings_action = QAction(tr(_CTX, "Display &Settings…"), self)
        self.settings_action.triggered.connect(lambda _c=False: self.settings_requested.emit())
        self.close_action = QAction(tr(_CTX, "&Close Display"), self)
        self.close_action.triggered.connect(lambda _c=False: self.close())
        self.addActions([self.full_screen_action, self.settings_action, self.close_action])

    # --- look --------------------------------------------------------------------------

    def apply_look(self, theme: DisplayTheme, text_pt: int) -> None:
        """The display's theme and text size, whatever the main window uses."""
        self._colors = colors = display_colors(theme)
        self.setPalette(colors.palette())
        self.setAutoFillBackground(True)
        self.delegate.set_colors(colors)
        base = QFont(self.font())
        base.setPointSizeF(text_pt)
        self.setFont(base)
        for widget in self.findChildren(QWidget):
            scale = widget.property("scale")
            font = QFont(base)
            font.setPointSizeF(text_pt * (float(scale) if scale is not None else 1.0))
            font.setBold(bool(widget.property("bold")))
            widget.setFont(font)
            widget.setPalette(colors.palette())
        muted = colors.palette()
        muted.setColor(muted.ColorRole.WindowText, colors.muted)
        for label in (self.where_label, self.next_label, self.idle_day):
            label.setPalette(muted)
        self._style_header(base, text_pt)
        line = QFontMetricsF(base).height()
        self._turn_gap.setFixedHeight(int(line * 0.4))
        self._turn_row.setSpacing(int(line))  # "Now: ..." never runs into "Next: ..."
        self._idle_layout.setSpacing(int(line * 0.35))
        self._fit_table()
        self.table.viewport().update()

    def _style_header(self, base: QFont, text_pt: int) -> None:
        """Column headings in the muted colour above a rule, with room above and below
        (at 0.6 of the text and no padding they touched the top edge), each lined up with
        its column's text."""
        colors = self._colors
        header = self.table.horizontalHeader()
        header_font = QFont(base)
        header_font.setPointSizeF(text_pt * 0.7)
        header.setFont(header_font)
        heading = QFontMetricsF(header_font).height()
        cell = QFontMetricsF(base).height()
        header.setStyleSheet(
            "QHeaderView::section {{ background: {0}; color: {1}; border: none; "
            "border-bottom: {2}px solid {3}; padding: {4}px {5}px {4}px {5}px; }}".format(
                colors.background.name(), colors.muted.name(), max(2, round(cell / 16)),
                colors.rule.name(), round(heading * 0.3), round(cell * 0.35)))

    def _model_gone(self) -> None:
        self._model_live = False
        self._fit_later.stop()

    def _fit_table(self) -> None:
        if not self._model_live:
            return
        self._fit_columns()
        self._fit_rows()

    def _fit_columns(self) -> None:
        """Each column as wide as its widest cell; the spare width goes to Conditions. On a
        screen too narrow for all of it (1366 wide at the default size), Name, Wounds and
        Conditions give up width in proportion to what they ask beyond four letters, so
        none of them is squeezed to nothing while Turn and HP stay whole."""
        header = self.table.horizontalHeader()
        columns = range(self.feed.turn_model.columnCount())
        wants = [max(self.table.sizeHintForColumn(c), header.sectionSizeHint(c))
                 for c in columns]
        room = self.table.viewport().width()
        if room <= 0:
            return
        short = sum(w for c, w in enumerate(wants) if not self.table.isColumnHidden(c)) - room
        if short <= 0:
            wants[PlayerTurnModel.COL_CONDITIONS] -= short
        else:
            floor = QFontMetricsF(self.table.font()).horizontalAdvance("Mmmm")
            give = (PlayerTurnModel.COL_NAME, PlayerTurnModel.COL_WOUNDS,
                    PlayerTurnModel.COL_CONDITIONS)
            spare = {c: max(0.0, wants[c] - floor) for c in give}
            total = sum(spare.values())
            if total > 0:
                for c in give:
                    wants[c] -= round(min(spare[c], short * spare[c] / total))
        for column, width in zip(columns, wants, strict=True):
            if not self.table.isColumnHidden(column) and header.sectionSize(column) != width:
                header.resizeSection(column, width)

    def _fit_rows(self, *_args: object) -> None:
        """Rows 1.7 lines tall, closer together when that would push the last combatants
        out of sight (1366x768 lost the last row), never under 1.25 lines (the wound chip
        shrinks with the row). A fight too big for the screen even so keeps whose turn it
        is in sight."""
        line = QFontMetricsF(self.table.font()).height()
        rows = self.feed.turn_model.rowCount()
        height = line * 1.7
        room = self.table.viewport().height()
        if rows and room > 0:
            height = max(line * 1.25, min(height, room / rows))
        vertical = self.table.verticalHeader()
        if vertical.defaultSectionSize() != int(height):
            vertical.setDefaultSectionSize(int(height))
        self._show_current()

    def _show_current(self) -> None:
        if not self._model_live:
            return
        model = self.feed.turn_model
        for row in range(model.rowCount()):
            index = model.index(row, PlayerTurnModel.COL_TURN)
            if index.data(VALUE_ROLE) is TurnMark.NOW:
                self.table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
                return

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_table()
        return super().eventFilter(watched, event)

    # --- showing -----------------------------------------------------------------------

    def show_scene(self, scene: Scene) -> None:
        title = tr(_CTX, "Player display — {0}").format(scene.campaign)
        self.setWindowTitle(title)
        self.idle_campaign.setText(scene.campaign)
        self.idle_day.setText(scene.day)
        self.idle_clock.setText(scene.clock)
        self.round_label.setText(scene.round)
        self.where_label.setText(tr(_CTX, "{0} · {1}, {2}").format(scene.campaign, scene.day,
                                                                  scene.clock))
        self.now_label.setText(tr(_CTX, "▶ Now: {0}").format(scene.now) if scene.fight else "")
        self.next_label.setText(tr(_CTX, "Next: {0}").format(scene.next) if scene.fight else "")
        if self.table.isColumnHidden(PlayerTurnModel.COL_HP) == scene.show_hp:
            self.table.setColumnHidden(PlayerTurnModel.COL_HP, not scene.show_hp)
            self._fit_later.start()
        has_log = bool(scene.log) and self.feed.options.show_log
        self.log_title.setVisible(has_log)
        self.log_view.setVisible(has_log)
        if has_log:
            rows = max(1, len(scene.log))
            self.log_view.setFixedHeight(int(self.log_view.fontMetrics().height() * 1.25 * rows
                                             + 8))
        self.pages.setCurrentIndex(1 if scene.fight else 0)
        self._show_current()

    # --- the referee's gestures ------------------------------------------------------

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self)
        menu.addActions([self.full_screen_action, self.settings_action])
        menu.addSeparator()
        menu.addAction(self.close_action)
        menu.exec(event.globalPos())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.isFullScreen():
            self.full_screen_action.setChecked(False)
            return
        super().keyPressEvent(event)
