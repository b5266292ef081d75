"""A tab widget that repaints itself only when its layout can have changed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QTabWidget, QWidget

__all__ = ["SteadyTabs"]

_LAYOUT_REQUEST = QEvent.Type.LayoutRequest

_LayoutKey = tuple[QSize, QSize, QSize, QSize, QSize, bool]


class SteadyTabs(QTabWidget):
    """A QTabWidget that skips a layout request when nothing it lays out by has changed.

    Any text change inside a page (the resolver's odds, its problem line) asks every
    widget up to the tab widget for a new layout; QTabWidget answers each such request
    by placing its tab bar and page stack again and repainting itself whole, which in
    the encounter's Attack tab repainted the tab bar, the frames and the scroll bars at
    every Apply. Its layout depends only on its own size and style (which reach it by
    other events, handled as before) and on the size hints of its tab bar and pages:
    while those are what they were at the last layout, the request would place
    everything where it is and repaint the same pixels, so it is skipped.
    """

    def __init__(self, parent: QWidget | None = None, objectName: str = "") -> None:  # noqa: N803
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self._laid_out: _LayoutKey | None = None
        self.skipped_layouts = 0
        """Layout requests skipped (tests count them)."""

    def _layout_key(self) -> _LayoutKey:
        bar = self.tabBar()
        return (self.size(), bar.sizeHint(), bar.minimumSizeHint(), self.sizeHint(),
                self.minimumSizeHint(), bar.isHidden())

    def event(self, event: QEvent) -> bool:
        if event.type() != _LAYOUT_REQUEST:
            return super().event(event)
        key = self._layout_key()
        if key == self._laid_out:
            self.skipped_layouts += 1
            return True
        handled = super().event(event)
        self._laid_out = self._layout_key()
        return handled
