"""Every user-visible text of the sheet, the encounter view and their dialogs goes through
Qt's translator: with a translator that brackets every text installed, no visible label,
button, group title, action, tooltip or header is left without the brackets (apart from
data: names, numbers, empty texts)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QTableView,
    QTreeView,
    QWidget,
)

from mneme_desktop.domain import Campaign
from mneme_desktop.export.document import ExportOptions
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.settings import Settings
from mneme_desktop.ui.dialogs.encounter_dialogs import (
    AddAdversariesDialog,
    AddCharactersDialog,
    InitiativeDialog,
    TacticsDialog,
)
from mneme_desktop.ui.dialogs.error_dialog import error_message
from mneme_desktop.ui.dialogs.export_dialog import ExportDialog
from mneme_desktop.ui.dialogs.settings_dialog import SettingsDialog
from mneme_desktop.ui.document import CampaignDocument
from mneme_desktop.ui.i18n import install_translator, tr
from mneme_desktop.ui.main_actions import MainActions, fill_recent_menu, name_step
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.page_stack import PageStack
from mneme_desktop.ui.views.character_sheet import CharacterSheetView
from mneme_desktop.ui.views.combatant_panel import CombatantPanel
from mneme_desktop.ui.views.encounter_view import EncounterView
from tests.domain.test_combat import make_campaign
from tests.ui.test_encounter_view import start_fight

OPEN, CLOSE = "\u27e6", "\u27e7"


class Bracketing(QTranslator):
    """Translates every text to itself in brackets, so an untranslated text stands out."""

    def translate(self, context: str, source: str, disambiguation: str | None = None,
                  n: int = -1) -> str:
        return OPEN + source + CLOSE

    def isEmpty(self) -> bool:
        return False


# Texts that are data, not words of the interface.
_NUMBERISH = re.compile(r"^[\s\d+\-−–—.,:;/()%·×x]*$")
_CODES = {"STR", "DEX", "END", "INT", "EDU", "SOC", "PSI"}  # characteristic codes (rules)
_DATA_PATTERNS = (
    re.compile(r"^Day \d+, \d\d:\d\d:\d\d$"),   # the campaign clock (domain GameTime.label)
    re.compile(r"^<b>[0-9A-F]{6,7}</b>$"),       # a UPP
)
# Texts the rules, domain and drawing layers write (outside mneme_desktop/ui, so outside
# this change): (object name, what) pairs.
_OTHER_LAYERS = {
    ("woundStateLabel", "text"), ("woundStateLabel", "tooltip"),   # WoundState.label, rules
    ("thresholdsLabel", "tooltip"),                                 # WoundThresholds.rule_for
    ("hpBar", "tooltip"), ("boxChart", "tooltip"),                  # drawing.track_painter
    ("conditionKindCombo", "item"),                                 # ConditionKind.label
    ("side", "item"),                                               # Side.label
}
# Widgets whose texts belong to modules outside this change (their own translation work):
# the combatant panel, and the headers of the turn-order and attack-resolver models.
_OUT_OF_SCOPE_WIDGETS: tuple[type[QWidget], ...] = (CombatantPanel,)
_OUT_OF_SCOPE_MODELS = ("TurnOrderModel", "DifficultyTermsModel", "AttackTargetsModel",
                        "ActionCatalogModel")


def campaign_names(campaign: Campaign) -> set[str]:
    names = {campaign.name}
    names |= {c.name for c in campaign.characters}
    names |= {c.player for c in campaign.characters if c.player}
    names |= {t.name for t in campaign.adversary_library}
    names |= {e.name for e in campaign.encounters}
    for character in campaign.characters:
        names |= {s.name for s in character.skills}
        names |= {w.name for w in character.weapons}
    return names


def is_data(text: str, names: set[str]) -> bool:
    plain = re.sub(r"<[^>]+>", "", text).strip()
    return (not plain or bool(_NUMBERISH.match(plain)) or plain in names or plain in _CODES
            or any(p.match(text.strip()) for p in _DATA_PATTERNS))


@pytest.fixture
def bracketing(qapp) -> Iterator[Bracketing]:
    translator = Bracketing()
    assert QCoreApplication.installTranslator(translator)
    assert tr("Probe", "text") == OPEN + "text" + CLOSE
    yield translator
    QCoreApplication.removeTranslator(translator)
    assert tr("Probe", "text") == "text"


def _out_of_scope(widget: QWidget) -> bool:
    parent: QWidget | None = widget
    while parent is not None:
        if isinstance(parent, _OUT_OF_SCOPE_WIDGETS):
            return True
        parent = parent.parentWidget()
    return False


def untranslated(root: QWidget, names: set[str]) -> list[str]:
    """Every visible text under ``root`` that did not go through the translator."""
    found: list[str] = []

    def check(where: str, text: str) -> None:
        if text and OPEN not in text and not is_data(text, names):
            found.append(f"{where}: {text!r}")

    def other_layer(widget: QWidget, what: str) -> bool:
        return (widget.objectName(), what) in _OTHER_LAYERS

    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if _out_of_scope(widget) or not (widget is root or widget.isVisibleTo(root)):
            continue
        where = f"{type(widget).__name__}({widget.objectName()})"
        if not other_layer(widget, "tooltip"):
            check(f"{where} tooltip", widget.toolTip())
        check(f"{where} accessible name", widget.accessibleName())
        if isinstance(widget, QDialog | QMainWindow):
            check(f"{where} title", widget.windowTitle())
        if isinstance(widget, QLabel) and not other_layer(widget, "text"):
            check(where, widget.text())
        if isinstance(widget, QAbstractButton):
            check(where, widget.text())
        if isinstance(widget, QGroupBox):
            check(f"{where} title", widget.title())
        if isinstance(widget, QLineEdit):
            check(f"{where} placeholder", widget.placeholderText())
        if isinstance(widget, QComboBox) and not widget.isEditable() \
                and not other_layer(widget, "item"):
            for i in range(widget.count()):
                check(f"{where} item {i}", widget.itemText(i))
        for action in widget.actions():
            if not action.isSeparator():
                check(f"{where} action", action.text())
                check(f"{where} action tooltip", action.toolTip())
        if isinstance(widget, QTableView | QTreeView) and widget.model() is not None:
            model = widget.model()
            source = getattr(model, "sourceModel", lambda: None)() or model
            if type(source).__name__ in _OUT_OF_SCOPE_MODELS:
                continue
            for column in range(model.columnCount()):
                check(f"{where} header {column}", str(model.headerData(
                    column, Qt.Orientation.Horizontal) or ""))
                check(f"{where} header tooltip {column}", str(model.headerData(
                    column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) or ""))
    return found


def test_install_translator_without_translations_is_false(qapp):
    assert install_translator(qapp, "de_DE") is False
    assert tr("Probe", "text") == "text"


def test_character_sheet_is_translated(qtbot, bracketing):
    campaign = make_campaign()
    document = CampaignDocument(campaign)
    sheet = CharacterSheetView(document)
    qtbot.addWidget(sheet)
    sheet.set_character(campaign.characters[0].id)
    sheet.resize(1000, 900)
    sheet.show()
    qtbot.waitExposed(sheet)
    problems = untranslated(sheet, campaign_names(campaign))
    assert not problems, "\n".join(problems)


def test_character_sheet_placeholder_is_translated(qtbot, bracketing):
    sheet = CharacterSheetView(CampaignDocument(make_campaign()))
    qtbot.addWidget(sheet)
    sheet.set_character(None)
    sheet.show()
    problems = untranslated(sheet, set())
    assert not problems, "\n".join(problems)


def test_encounter_view_is_translated(qtbot, bracketing):
    campaign = make_campaign()
    document = CampaignDocument(campaign)
    view = EncounterView(document, rng=random.Random(77))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_encounter(campaign.encounters[0].id)
    names = campaign_names(campaign) | {f"Raider {n}" for n in (1, 2)}
    problems = untranslated(view, names)
    assert not problems, "\n".join(problems)
    start_fight(view)  # everyone in, initiatives set, round 1: the turn and round texts
    problems = untranslated(view, names)
    assert not problems, "\n".join(problems)


def test_encounter_dialogs_are_translated(qtbot, bracketing):
    campaign = make_campaign()
    document = CampaignDocument(campaign)
    view = EncounterView(document, rng=random.Random(77))
    qtbot.addWidget(view)
    view.set_encounter(campaign.encounters[0].id)
    encounter = campaign.encounters[0]
    names = campaign_names(campaign)
    tactics = TacticsDialog(view)
    tactics.fill(campaign, encounter, None)
    dialogs: list[QDialog] = [
        InitiativeDialog(["Recon", "Tactics"]),
        tactics,
        AddAdversariesDialog(campaign),
        AddCharactersDialog(campaign, encounter),
        SettingsDialog(Settings(), ThresholdBasis.HP_FRACTIONS),
        ExportDialog(ExportOptions(), "Mara Vey"),
    ]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        problems = untranslated(dialog, names | {"Mara Vey"})
        assert not problems, "\n".join(problems)
    assert OPEN in error_message(ValueError("x"), __import__("pathlib").Path("/tmp/log"))


def test_menus_toolbars_and_empty_pages_are_translated(qtbot, bracketing):
    window = QMainWindow()
    qtbot.addWidget(window)
    actions = MainActions(window)
    recent = actions.build_menus(QDockWidget(window), QDockWidget(window))
    fill_recent_menu(recent, [], lambda _path: None, lambda: None)
    actions.build_toolbars()
    name_step(actions.undo_action, "Undo", "")
    stack = PageStack()
    window.setCentralWidget(stack)
    stack.show_empty(Node(Group.PLAYERS))
    window.show()
    problems = untranslated(window, set())
    for menu in [*window.findChildren(QMenu), recent]:
        check_menu = [menu.title(), *(a.text() for a in menu.actions() if not a.isSeparator())]
        problems += [f"menu {text!r}" for text in check_menu if text and OPEN not in text]
    problems += [f"action {a.text()!r}" for a in actions.by_name().values()
                 if OPEN not in a.text() or (a.toolTip() and OPEN not in a.toolTip())]
    assert not problems, "\n".join(problems)
    stack.show_empty(None)
    problems = untranslated(stack, set())
    assert not problems, "\n".join(problems)
