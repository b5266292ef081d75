"""The action economy of one combatant: three minor-action pips and the chapter's catalog.

The pips are painted by :func:`paint_action_pips`, which the turn-order table's delegate
also calls, so a row and the combatant panel always look the same. The widget never spends
anything itself: choosing an action emits :attr:`ActionPips.action_chosen` and the view
pushes the step (or shows why the rules refuse it).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleEvent,
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QWidget

from mneme_desktop.rules.actions import ACTION_CATALOG, MINOR_ACTIONS_PER_ROUND, ActionKind
from mneme_desktop.ui.i18n import tr

_CTX = "ActionPips"

__all__ = ["ActionPips", "catalog_menu", "paint_action_pips", "pips_text"]

_KIND_ORDER = (ActionKind.FREE, ActionKind.MINOR, ActionKind.SIGNIFICANT, ActionKind.FULL)


def pips_text(spent: int, total: int = MINOR_ACTIONS_PER_ROUND) -> str:
    """"1 of 3 minor actions left" - what the pips say to a screen reader."""
    left = total - spent
    if total == 1:
        return tr(_CTX, "{0} of {1} minor action left").format(left, total)
    return tr(_CTX, "{0} of {1} minor actions left").format(left, total)


def paint_action_pips(
    painter: QPainter,
    rect: QRectF,
    spent: int,
    palette: QPalette,
    *,
    total: int = MINOR_ACTIONS_PER_ROUND,
    enabled: bool = True,
) -> None:
    """Draw ``total`` pips left to right in ``rect``: filled while still available,
    hollow once spent. The first unspent pip is the next one a minor action uses."""
    if rect.width() <= 0 or rect.height() <= 0 or total <= 0:
        return
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
    available = palette.color(group, QPalette.ColorRole.Highlight)
    outline = palette.color(group, QPalette.ColorRole.Text)
    diameter = min(rect.height() * 0.7, rect.width() / (total * 1.5))
    gap = diameter * 0.5
    width = total * diameter + (total - 1) * gap
    left = rect.left() + (rect.width() - width) / 2
    centre_y = rect.center().y()
    line = max(1.0, diameter / 9)
    for index in range(total):
        centre = QPointF(left + index * (diameter + gap) + diameter / 2, centre_y)
        radius = diameter / 2 - line / 2
        if index < total - spent:
            painter.setPen(QPen(outline, line))
            painter.setBrush(available)
        else:
            faded = QColor(outline)
            faded.setAlphaF(0.45)
            painter.setPen(QPen(faded, line, Qt.PenStyle.SolidLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, radius, radius)
    painter.restore()


def catalog_menu(parent: QWidget, spent: int) -> QMenu:
    """The chapter's actions grouped free / minor / significant / full, each with its
    description as tooltip and status tip; those the round cannot afford are marked."""
    menu = QMenu(parent)
    menu.setObjectName("action_catalog_menu")
    menu.setToolTipsVisible(True)
    left = MINOR_ACTIONS_PER_ROUND - spent
    for kind in _KIND_ORDER:
        section = menu.addSection(tr(_CTX, "{0} ({1} minor)").format(kind.label, kind.cost))
        section.setEnabled(False)
        for action in ACTION_CATALOG:
            if action.kind is not kind:
                continue
            short = "" if kind.cost <= left else tr(_CTX, "  (not enough left)")
            entry = menu.addAction(f"{action.name}{short}")
            entry.setData(action.key)
            entry.setToolTip(tr(_CTX, "{0} — {1}. {2}").format(
                    action.name, action.category, action.description))
            entry.setStatusTip(action.description)
    return menu


class ActionPips(QWidget):
    """Three pips for one combatant's minor actions this round; click (or Space) to choose
    an action from the catalog."""

    action_chosen = Signal(str)
    """The key of the catalog action the referee picked (the view spends it or refuses)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._spent = 0
        self._subject = ""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._update_text()

    @property
    def spent(self) -> int:
        return self._spent

    def set_spent(self, spent: int) -> None:
        spent = max(0, min(MINOR_ACTIONS_PER_ROUND, spent))
        if spent != self._spent:
            self._spent = spent
            self._update_text()
            self.update()

    def set_subject(self, name: str) -> None:
        """Whose actions these are, for the screen reader ("Minor actions for Mara Vey")."""
        if name != self._subject:
            self._subject = name
            self._update_text()

    def _update_text(self) -> None:
        """Name and text value for screen readers, announced when they change."""
        text = pips_text(self._spent)
        name = tr(_CTX, "Minor actions for {0}").format(
                self._subject) if self._subject else tr(_CTX, "Minor actions")
        description = tr(_CTX, "{0}: {1}").format(self._subject, text) if self._subject else text
        changed = []
        if name != self.accessibleName():
            self.setAccessibleName(name)
            changed.append(QAccessible.Event.NameChanged)
        if description != self.accessibleDescription():
            self.setAccessibleDescription(description)
            changed.append(QAccessible.Event.DescriptionChanged)
        self.setToolTip(tr(_CTX, "{0} this round. Click or press Space to take an action from "
                                 "the catalog.").format(text))
        if QAccessible.isActive():
            for kind in changed:
                QAccessible.updateAccessibility(QAccessibleEvent(self, kind))

    def sizeHint(self) -> QSize:
        height = self.fontMetrics().height()
        return QSize(int(height * 4.2), int(height * 1.3))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        paint_action_pips(painter, QRectF(self.rect()), self._spent, self.palette(),
                          enabled=self.isEnabled())
        if self.hasFocus():
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 1,
                                Qt.PenStyle.DotLine))
            painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))

    def open_menu(self) -> QMenu:
        """Show the catalog below the pips; returns the menu (tests pick from it)."""
        menu = catalog_menu(self, self._spent)
        menu.triggered.connect(lambda action: self.action_chosen.emit(str(action.data())))
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(self.mapToGlobal(self.rect().bottomLeft()))
        return menu

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.isEnabled():
            self.open_menu()
            event.accept()
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.open_menu()
            event.accept()
            return
        super().keyPressEvent(event)
