"""The main window's central area: one page per kind of item, each view built when first
shown (a campaign opens faster when the encounter and healing views wait until asked for).

Qt only at import: the window builds this before its first paint; the views, which need
pydantic and the campaign, are imported when first shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QStackedWidget, QVBoxLayout, QWidget

from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.widgets.plain_text import set_rich_text

if TYPE_CHECKING:
    from mneme_desktop.context import AppContext
    from mneme_desktop.ui.document import CampaignDocument
    from mneme_desktop.ui.views.character_sheet import CharacterSheetView
    from mneme_desktop.ui.views.encounter_view import EncounterView
    from mneme_desktop.ui.views.healing_view import HealingView
    from mneme_desktop.ui.views.thing_sheet import ThingSheetView

from mneme_desktop.ui.i18n import tr, tr_noop

_CTX = "PageStack"


class Page:
    EMPTY = 0
    SHEET = 1
    ENCOUNTER = 2
    HEALING = 3
    THING = 4


_HINTS = {
    Group.PLAYERS: tr_noop(_CTX, "Add a player character with Campaign ▸ Add Player Character "
                                 "(Ctrl+Shift+P), or import one with File ▸ Import Character."),
    Group.NPCS: tr_noop(_CTX, "Add an NPC with Campaign ▸ Add NPC (Ctrl+Shift+N)."),
    Group.LIBRARY: tr_noop(_CTX, "Adversary templates are stat blocks that encounters copy: "
                                 "Campaign ▸ Add Adversary Template (Ctrl+Shift+T)."),
    Group.ENCOUNTERS: tr_noop(_CTX, "Set up a fight with Campaign ▸ Add Encounter (Ctrl+Shift+E)."),
    Group.THINGS: tr_noop(_CTX, "Vehicles, craft, structures and cover objects on the same damage "
                                "track as characters: Campaign ▸ Add Vehicle or Object, or a copy "
                                "of a template from the Object Library."),
    Group.THING_LIBRARY: tr_noop(_CTX, "Object templates (a shield, cinder blocks, a walker): "
                                       "Campaign ▸ Add Object Template."),
}


class PageStack(QStackedWidget):
    """The pages of one document: empty (with a hint), sheet, encounter, healing and the
    thing sheet."""

    select_requested = Signal(str)
    """A page made something the navigator should show (a thing made from a template)."""

    def __init__(self, parent: QWidget | None = None,
                 context: AppContext | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("central_stack")
        self._context = context
        """Where the views remember on-screen choices (the box chart's view)."""
        empty = QWidget()
        layout = QVBoxLayout(empty)
        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)
        self.addWidget(empty)
        for _page in (Page.SHEET, Page.ENCOUNTER, Page.HEALING, Page.THING):
            self.addWidget(QWidget())  # stands in until the view is first shown
        self._document: CampaignDocument | None = None
        self.sheet_view: CharacterSheetView | None = None
        self.encounter_view: EncounterView | None = None
        self.healing_view: HealingView | None = None
        self.thing_view: ThingSheetView | None = None

    def set_document(self, document: CampaignDocument) -> None:
        """Drop the old document's views; each view is built the first time it is shown."""
        for page, view in ((Page.SHEET, self.sheet_view), (Page.ENCOUNTER, self.encounter_view),
                           (Page.HEALING, self.healing_view), (Page.THING, self.thing_view)):
            if view is not None:
                self._set_page(page, QWidget())
        self.sheet_view = self.encounter_view = self.healing_view = None
        self.thing_view = None
        self._document = document

    def _set_page(self, page: int, widget: QWidget) -> None:
        """Put ``widget`` at ``page`` in the stack, in place of what was there."""
        old = self.widget(page)
        self.insertWidget(page, widget)
        if old is not None:
            self.removeWidget(old)
            old.deleteLater()

    def sheet(self) -> CharacterSheetView:
        if self.sheet_view is None:
            from mneme_desktop.ui.views.character_sheet import CharacterSheetView

            assert self._document is not None
            self.sheet_view = CharacterSheetView(self._document)
            self._remember_views(self.sheet_view)
            self._set_page(Page.SHEET, self.sheet_view)
        return self.sheet_view

    def encounter(self) -> EncounterView:
        if self.encounter_view is None:
            from mneme_desktop.ui.views.encounter_view import EncounterView

            assert self._document is not None
            self.encounter_view = EncounterView(self._document)
            self._set_page(Page.ENCOUNTER, self.encounter_view)
        return self.encounter_view

    def healing(self) -> HealingView:
        if self.healing_view is None:
            from mneme_desktop.ui.views.healing_view import HealingView

            assert self._document is not None
            self.healing_view = HealingView(self._document)
            self._set_page(Page.HEALING, self.healing_view)
        return self.healing_view

    def thing(self) -> ThingSheetView:
        if self.thing_view is None:
            from mneme_desktop.ui.views.thing_sheet import ThingSheetView

            assert self._document is not None
            self.thing_view = ThingSheetView(self._document)
            self._remember_views(self.thing_view)
            self.thing_view.select_requested.connect(self.select_requested)
            self._set_page(Page.THING, self.thing_view)
        return self.thing_view

    def _remember_views(self, view: QWidget) -> None:
        """Have the box chart's view switches of a new page start in the view last chosen,
        and remember each switch in the settings."""
        if self._context is None:
            return
        from PySide6.QtWidgets import QComboBox

        from mneme_desktop.ui.widgets.box_chart import ChartStyleCombo

        # By Qt class and name: asked for a Python class, PySide6 would wrap every widget of
        # the page to test it (~2 ms for a sheet's ~340).
        for combo in view.findChildren(QComboBox, ChartStyleCombo.OBJECT_NAME):
            if isinstance(combo, ChartStyleCombo):
                combo.remember(self._context)

    def show_opening(self, name: str) -> None:
        set_rich_text(self.empty_label, tr(_CTX, "<h2>Opening {}…</h2>"), name)
        self.setCurrentIndex(Page.EMPTY)

    def show_empty(self, node: Node | None) -> None:
        """The empty page: for a group heading, how to add to it; else, what to choose."""
        if node is not None and node.is_group:
            set_rich_text(self.empty_label, "<h2>{}</h2><p>{}</p>", node.group.label,
                          tr(_CTX, _HINTS[node.group]))
        else:
            set_rich_text(self.empty_label, tr(_CTX, "<h2>Nothing selected</h2><p>Choose a "
                                                     "character or an encounter in the campaign "
                                                     "navigator.</p>"))
        self.setCurrentIndex(Page.EMPTY)

    def shown_entity_id(self) -> str | None:
        """The navigator item the current page shows (a template for its stat block)."""
        page = self.currentIndex()
        document = self._document
        if document is None:
            return None
        if page == Page.SHEET and self.sheet_view is not None:
            character_id = self.sheet_view.character_id()
            template = document.template_of_stats(character_id) if character_id else None
            return template.id if template is not None else character_id
        if page == Page.ENCOUNTER and self.encounter_view is not None:
            return self.encounter_view.encounter_id()
        if page == Page.THING and self.thing_view is not None:
            return self.thing_view.navigator_id()
        return None
