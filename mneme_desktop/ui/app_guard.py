"""One application-wide guard: no number changes unless the referee meant it, and no user
text is read as markup.

Qt lets the mouse wheel step any spin box, combo box or slider the pointer passes over, and
a wheel over one even gives it focus first. Scrolling a sheet past END changed END. The
guard makes every such widget take the wheel only when it already has focus (clicked or
tabbed into); otherwise the wheel goes on to the page or table under it, which scrolls. It
also hands Undo and Redo pressed in a number field to the campaign's undo stack instead of
the field's private text undo. And every QLabel is made plain text unless registered rich
(:func:`.plain_unless_rich`).

Qt polishes every widget through the application's style before the widget is laid out or
shown, so the guard is a proxy style (:class:`GuardStyle`, around whichever style the theme
chose) that settles each widget as it is polished and puts the guard's event filter on the
value fields (and their line edits) only. An application event filter did the same, but it
was a Python call for every event Qt delivers to anything (~1 ms of each table step), and
its first event for an object of a class PySide6 does not wrap (Qt's animation timer, made
by the main window's first relayout) made PySide6 build ~100 enum classes (~11 ms of the
start).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QProxyStyle,
    QScrollBar,
    QStyle,
    QWidget,
)

from mneme_desktop.ui.widgets.plain_text import plain_unless_rich

GUARD_NAME = "mnemeAppGuard"

_VALUE_WIDGETS = (QAbstractSpinBox, QComboBox, QAbstractSlider)
_HISTORY_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)
_EXTRA_REDO = ("Ctrl+Shift+Z", "Ctrl+Y")


def value_widget(obj: QObject) -> QWidget | None:
    """The spin box, combo box or slider ``obj`` is, or is the line edit of, if any.

    Scroll bars are sliders whose job is the wheel: they are not fields."""
    if isinstance(obj, QScrollBar):
        return None
    if isinstance(obj, _VALUE_WIDGETS):
        return obj
    if isinstance(obj, QLineEdit):
        parent = obj.parentWidget()
        if isinstance(parent, _VALUE_WIDGETS):
            return parent
    return None


def _is_history_key(event: QKeyEvent) -> bool:
    if any(event.matches(key) for key in _HISTORY_KEYS):
        return True
    combination = QKeySequence(event.keyCombination())
    return any(
        combination.matches(QKeySequence(text)) == QKeySequence.SequenceMatch.ExactMatch
        for text in _EXTRA_REDO
    )


class AppGuard(QObject):
    """The value fields' event filter; see the module docstring."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(GUARD_NAME)

    def watch(self, widget: QWidget) -> None:
        """A widget being polished: settled, and filtered if it is a value field or the
        line edit of one (installing twice keeps one filter)."""
        self.settle(widget)
        if value_widget(widget) is not None:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel:
            widget = value_widget(watched)
            if widget is not None and not widget.hasFocus() and isinstance(event, QWheelEvent):
                _scroll_page_instead(widget, event)
                return True
        elif (kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
              and isinstance(value_widget(watched), QAbstractSpinBox)
              and _is_history_key(event)):
            # Not overridden: the window's Undo/Redo shortcut fires, not the field's own.
            event.ignore()
            return True
        return super().eventFilter(watched, event)

    @staticmethod
    def settle(watched: QObject) -> None:
        """Labels plain unless registered rich; value fields not focused by the wheel."""
        if isinstance(watched, QLabel):
            plain_unless_rich(watched)
        elif value_widget(watched) is watched:
            # A wheel over a field must not focus it (Qt's WheelFocus would, then step it).
            policy = watched.focusPolicy()
            if policy == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


class GuardStyle(QProxyStyle):
    """``base`` (the theme's style) with every widget it polishes handed to ``guard``."""

    def __init__(self, base: QStyle, guard: AppGuard) -> None:
        super().__init__(base)
        self.guard = guard

    def polish(self, target: Any) -> Any:  # QStyle.polish: a widget, the app or a palette
        result = super().polish(target)
        if isinstance(target, QWidget):
            self.guard.watch(target)
        return result


def _scroll_page_instead(field: QWidget, event: QWheelEvent) -> None:
    """Give the wheel to the nearest scrolling ancestor of ``field`` (the page, a table).

    Forwarded explicitly rather than left to Qt's propagation, which carries only wheel
    events from the window system: the page scrolls the same for a test's event."""
    event.accept()
    area = field.parentWidget()
    while area is not None and not isinstance(area, QAbstractScrollArea):
        area = area.parentWidget()
    if area is None:
        return
    viewport = area.viewport()
    origin = QPoint(0, 0)
    point = QPointF(viewport.mapFromGlobal(event.globalPosition().toPoint())) \
        if event.globalPosition() != QPointF() else QPointF(origin)
    forwarded = QWheelEvent(point, event.globalPosition(), event.pixelDelta(),
                            event.angleDelta(), event.buttons(), event.modifiers(),
                            event.phase(), event.inverted(), event.source())
    QCoreApplication.sendEvent(viewport, forwarded)


def install_app_guard(app: QCoreApplication | None = None) -> AppGuard:
    """Put the guard in place once (later calls return the same guard): the application's
    style wrapped in :class:`GuardStyle`, which settles every widget polished so far and
    from now on."""
    application = app if app is not None else QApplication.instance()
    if not isinstance(application, QApplication):
        raise RuntimeError("the input guard needs a QApplication")
    existing = application.findChild(AppGuard, GUARD_NAME)
    guard = existing if isinstance(existing, AppGuard) else AppGuard(application)
    style = application.style()
    if not isinstance(style, GuardStyle):
        # The proxy takes the style over (its parent), so the application does not delete
        # it; setting the proxy polishes every widget again, through it.
        application.setStyle(GuardStyle(style, guard))
    return guard


def set_app_style(app: QApplication, style: QStyle) -> None:
    """Make ``style`` the application's, kept behind the guard when it is in place."""
    guard = app.findChild(AppGuard, GUARD_NAME)
    app.setStyle(GuardStyle(style, guard) if isinstance(guard, AppGuard) else style)
