"""Every user-visible text of the sheet, the encounter view (its combatant panel and turn
order included), the healing view, the main window and their dialogs goes through Qt's
translator: with a translator that brackets every text installed, no visible label, button,
group title, action, tooltip, header, menu or dock title is left without the brackets (apart
from data: names, numbers, empty texts). And a table cell the view may cut short can always
be read in full in its tooltip."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

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
    QMessageBox,
    QProgressBar,
    QSpinBox,
    QTableView,
    QTabWidget,
    QTreeView,
    QUndoView,
    QWidget,
)

from mneme_desktop.domain import (
    Campaign,
    Character,
    Characteristics,
    Condition,
    ConditionKind,
    GameTime,
    Recovery,
    Side,
    Skill,
)
from mneme_desktop.domain import combat as fight
from mneme_desktop.export.document import ExportOptions
from mneme_desktop.rules.actions import Stance
from mneme_desktop.rules.checks import CoverLevel
from mneme_desktop.rules.healing import Activity
from mneme_desktop.rules.wounds import ThresholdBasis
from mneme_desktop.settings import Settings
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.dialogs.check_dialog import CheckDialog
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
from mneme_desktop.ui.main_window import MainWindow
from mneme_desktop.ui.models.healing_models import (
    ComparisonModel,
    InfirmaryLoadModel,
    PatientListModel,
    ProjectionTableModel,
)
from mneme_desktop.ui.models.navigator_nodes import Group, Node
from mneme_desktop.ui.models.turn_order_model import TurnOrderModel
from mneme_desktop.ui.page_stack import Page, PageStack
from mneme_desktop.ui.views.character_sheet import CharacterSheetView
from mneme_desktop.ui.views.combatant_panel_form import TimingMode
from mneme_desktop.ui.views.encounter_view import EncounterView
from mneme_desktop.ui.views.healing_view import HealingView
from tests.domain.test_combat import make_campaign
from tests.ui.conftest import OpenWindow
from tests.ui.test_encounter_view import open_test_encounter, start_fight

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
    re.compile(r"^Day \d+, \d\d:\d\d(:\d\d)?$"),  # the campaign clock (domain GameTime)
    re.compile(r"^<b>[0-9A-F]{6,7}</b>$"),       # a UPP
    re.compile(r"^[■▶]$"),                       # a swatch, the current-turn mark
)
# Texts the rules, domain and drawing layers write (outside mneme_desktop/ui, so outside
# this change): (object name, what) pairs.
_OTHER_LAYERS = {
    ("woundStateLabel", "text"), ("woundStateLabel", "tooltip"),   # WoundState.label, rules
    ("thresholdsLabel", "tooltip"),                                 # WoundThresholds.rule_for
    ("hpBar", "tooltip"), ("boxChart", "tooltip"),                  # drawing.track_painter
    ("conditionKindCombo", "item"),                                 # ConditionKind.label
    ("side", "item"),                                               # Side.label
    ("combatant_side", "item"),                                     # Side.label
    ("condition_kind", "item"),                                     # ConditionKind.label
    ("combatant_hp", "tooltip"),                                    # drawing.track_painter
    ("advanceRegimeNote", "text"),                  # domain.healing.regimes.plan_regime_note
    ("infirmaryWarning", "text"),                   # domain.healing.infirmary report warning
}
# Widgets whose texts belong to modules outside this change (their own translation work).
_OUT_OF_SCOPE_WIDGETS: tuple[type[QWidget], ...] = ()
_OUT_OF_SCOPE_MODELS: tuple[str, ...] = ()


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
        if isinstance(widget, QDialog | QMainWindow | QDockWidget):
            check(f"{where} title", widget.windowTitle())
        if isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                check(f"{where} tab {i}", widget.tabText(i))
                check(f"{where} tab tooltip {i}", widget.tabToolTip(i))
        if isinstance(widget, QUndoView):
            check(f"{where} empty label", widget.emptyLabel())
        if isinstance(widget, QSpinBox):
            check(f"{where} prefix", widget.prefix().strip())
            check(f"{where} suffix", widget.suffix().strip())
            check(f"{where} special value", widget.specialValueText())
        if isinstance(widget, QProgressBar) and widget.isTextVisible():
            check(f"{where} format", widget.format().replace("%p%", "").strip())
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
    view = open_test_encounter(qtbot)
    campaign = view.document.campaign
    names = campaign_names(campaign) | {f"Raider {n}" for n in (1, 2)}
    problems = untranslated(view, names)
    assert not problems, "\n".join(problems)
    start_fight(view)  # everyone in, initiatives set, round 1: the turn and round texts
    problems = untranslated(view, names)
    assert not problems, "\n".join(problems)


def test_the_resolvers_hit_location_is_translated(qtbot, bracketing):
    """The resolver sits on a tab the walk above does not show: its hit-location row and the
    location line of the result, shown after a hit, go through the translator too."""
    campaign = make_campaign()
    view = EncounterView(CampaignDocument(campaign), rng=random.Random(77))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_encounter(campaign.encounters[0].id)
    start_fight(view)
    view.tabs.setCurrentIndex(1)
    resolver = view.resolver
    resolver.set_targets([c.id for c in view.encounter().combatants
                          if campaign.combatant_character(c).name == "Raider 1"])
    names = campaign_names(campaign) | {f"Raider {n}" for n in (1, 2)}
    problems = [p for p in untranslated(resolver, names) if "location_dice" in p
                or "roll_location" in p]
    assert not problems, "\n".join(problems)
    assert resolver.location_button.text().startswith(OPEN)
    assert resolver.location_edit.placeholderText().startswith(OPEN)
    assert resolver.location_edit.toolTip().startswith(OPEN)
    outcome = next(o for _ in range(50)
                   if (o := resolver.roll()) is not None and o.can_locate)
    assert outcome is not None
    resolver.location_edit.setText("5 6 2")
    assert resolver.roll_location() is not None
    text = resolver.outcome_view.toPlainText()
    assert re.search(OPEN + r"\s*Hit location \(", text), text
    assert OPEN + "Crippled" + CLOSE in text


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


def test_check_dialog_is_translated(qtbot, bracketing):
    """The quick check panel: before a roll, with advantage, after a roll and a refusal."""
    campaign = make_campaign()
    document = CampaignDocument(campaign)
    encounter = campaign.encounters[0]
    push_patch(document, fight.add_adversaries_patch(campaign, encounter,
                                                     campaign.adversary_library[0], 1))
    names = campaign_names(campaign)
    dialog = CheckDialog(document, rng=random.Random(5), sheet_id=campaign.characters[0].id,
                         encounter_id=encounter.id)
    qtbot.addWidget(dialog)
    dialog.show()
    problems = untranslated(dialog, names)
    dialog.skill_combo.setEditText("Tactics")
    dialog.characteristic_combo.setCurrentIndex(4)
    dialog.advantage_spin.setValue(2)
    dialog.duration_spin.setValue(3)
    problems += untranslated(dialog, names)
    assert dialog.roll_check() is not None
    problems += untranslated(dialog, names)
    dialog.dice_edit.setText("9 9")
    assert dialog.roll_check() is None
    dialog.expression_edit.setText("2d6+1")
    assert dialog.roll_expression() is not None
    problems += untranslated(dialog, names)
    dialog.difficulty_spin.setValue(9)  # off the ladder: "Other"
    problems += untranslated(dialog, names)
    assert not problems, "\n".join(problems)


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


# --- the combatant panel, the turn order, the healing view and the main window -----------


def _walk(view: QWidget, names: set[str]) -> list[str]:
    """Untranslated texts under ``view``, and in the horizontal headers of every table
    model under it, shown or not (a hidden column's header is still a text to translate)."""
    problems = untranslated(view, names)
    for table in view.findChildren(QTableView):
        model = table.model()
        if model is None:
            continue
        for column in range(model.columnCount()):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                text = str(model.headerData(column, Qt.Orientation.Horizontal, role) or "")
                if text and OPEN not in text:
                    problems.append(f"{type(model).__name__} header {column}: {text!r}")
    return problems


def test_combatant_panel_and_turn_order_are_translated(qtbot, bracketing):
    view = open_test_encounter(qtbot)
    campaign = view.document.campaign
    start_fight(view)
    encounter = view.encounter()
    assert encounter is not None
    names = campaign_names(campaign) | {f"Raider {n}" for n in (1, 2)}
    for template in campaign.adversary_library:
        names |= {w.name for w in template.stats.weapons}
    first = encounter.combatants[0]
    # Texts that show only in some states: a condition, a stance with cover, an aim, a task.
    view.run(lambda c, e: fight.add_condition_patch(c, e, first.id, ConditionKind.STUNNED,
                                                    "dazed"))
    view.run(lambda c, e: fight.set_cover_patch(c, e, first.id, CoverLevel.PARTIAL))
    view.panel.start_task()
    view.tabs.setCurrentIndex(0)  # the combatant panel's tab
    for combatant in encounter.combatants[:2]:
        view.select_combatant(combatant.id)
        assert view.panel.combatant_id == combatant.id
        problems = _walk(view, names)
        assert not problems, "\n".join(problems)
    # The timing roll's rows show only for a timed start: the Effect typed (-2, the
    # project's reading), then the check to roll, before and after the roll.
    panel = view.panel
    panel.timing_effect_spin.setValue(-2)
    panel.median_unit_combo.setCurrentIndex(1)
    for mode in (TimingMode.EFFECT, TimingMode.ROLL):
        panel.timing_mode_combo.setCurrentIndex(panel.timing_mode_combo.findData(mode))
        problems = _walk(view, names)
        assert not problems, "\n".join(problems)
    assert panel.roll_timing()
    problems = _walk(view, names)
    assert not problems, "\n".join(problems)
    # Every column's header and header tooltip of the turn order, and each cell's tooltip.
    model = view.turn_model
    for column in range(model.columnCount()):
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            assert OPEN in str(model.headerData(column, Qt.Orientation.Horizontal, role))
    row = model.row_of(first.id)
    for column in (TurnOrderModel.COL_TURN, TurnOrderModel.COL_INIT,
                   TurnOrderModel.COL_NAME, TurnOrderModel.COL_ACTIONS,
                   TurnOrderModel.COL_STANCE, TurnOrderModel.COL_TASK):
        tip = str(model.data(model.index(row, column), Qt.ItemDataRole.ToolTipRole))
        assert OPEN in tip, (column, tip)
    # With no one chosen the panel says what to do.
    view.panel.set_combatant(None)
    assert OPEN in view.panel.name_label.text()


def _healing_document() -> CampaignDocument:
    def person(name: str, damage: int, **extra: object) -> Character:
        return Character(name=name, characteristics=Characteristics.of(7, 8, 9, 10, 8, 7),
                         damage=damage, **extra)  # type: ignore[arg-type]

    rest = Recovery(activity=Activity.FULL_REST, care=True)
    return CampaignDocument(Campaign(name="Healing", game_time=GameTime.at(3, 8), characters=[
        person("Ann", 10, recovery=rest),
        person("Bob", 17, characteristic_damage={"int": 2}),
        person("Doc", 0, skills=[Skill(name="Medic", level=2)]),
        person("Evan", 26, recovery=rest),
    ]))


def test_healing_view_is_translated_on_every_tab(qtbot, bracketing):
    document = _healing_document()
    view = HealingView(document, rng=random.Random(11))
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    names = campaign_names(document.campaign) | {"Ann", "Bob", "Doc", "Evan"}
    assert view.tabs.count() == 3
    for tab in range(view.tabs.count()):
        view.tabs.setCurrentIndex(tab)
        problems = _walk(view, names)
        assert not problems, f"tab {tab}:\n" + "\n".join(problems)
    # The medical events, each with its own check line and rule; the infirmary with a
    # medic (its capacity) and over its capacity (the warning).
    view.tabs.setCurrentIndex(1)
    for radio in (view.first_aid_radio, view.surgery_radio, view.intensive_radio):
        radio.setChecked(True)
        problems = _walk(view, names)
        assert not problems, f"{radio.objectName()}:\n" + "\n".join(problems)
    view.tabs.setCurrentIndex(2)
    view.add_medic_button.click()
    view.supervisor_spin.setValue(1)
    problems = _walk(view, names | {view.staff_model.index(0, 0).data()})
    assert not problems, "\n".join(problems)
    assert OPEN in view.capacity_label.text() and OPEN in view.monitoring_label.text()
    # What an advance and a refused one say.
    view.tabs.setCurrentIndex(0)
    view.advance_button.click()
    assert OPEN in view.status_label.text()
    assert OPEN in document.undo_stack.text(document.undo_stack.count() - 1)


def test_main_window_is_translated(qtbot, bracketing, open_window: OpenWindow,
                                   tmp_path: Path):
    campaign = make_campaign()
    window: MainWindow = open_window(campaign, tmp_path / "small.mneme")
    names = campaign_names(campaign) | {"small.mneme"}
    assert OPEN in window.windowTitle()
    assert OPEN in window.navigator_dock.windowTitle()
    assert OPEN in window.history_dock.windowTitle()
    assert OPEN in window.undo_view.emptyLabel()
    problems: list[str] = []
    for menu in window.findChildren(QMenu):
        texts = [menu.title(), *(a.text() for a in menu.actions() if not a.isSeparator())]
        problems += [f"menu {text!r}" for text in texts if text and OPEN not in text]
    for toolbar in (window.toolbar, window.time_toolbar):
        assert OPEN in toolbar.windowTitle() or not toolbar.windowTitle()
        problems += [f"toolbar {a.text()!r}" for a in toolbar.actions()
                     if not a.isSeparator() and a.text() and OPEN not in a.text()]
    assert not problems, "\n".join(problems)
    for page in (Page.SHEET, Page.ENCOUNTER, Page.HEALING):
        window.show_page(page)
        problems = untranslated(window, names | {f"Raider {n}" for n in (1, 2)})
        assert not problems, f"page {page}:\n" + "\n".join(problems)
    # A refusal said in the status bar (and a message box, answered here).
    model = window.navigator_model
    assert model is not None
    window.tree.setCurrentIndex(model.group_index(Group.PLAYERS))
    window.statusBar().clearMessage()
    window.queue_dialog_answer(QMessageBox.StandardButton.Ok)
    window.export_character_dialog()
    assert OPEN in window.statusBar().currentMessage()


# --- a cell cut short can be read in full -----------------------------------------------


_LONG = "left arm, right leg and both eyes after the grenade went off beside the hatch"


def test_turn_order_tooltips_hold_the_whole_text(qapp):
    document = CampaignDocument(make_campaign())
    campaign = document.campaign
    encounter = campaign.encounters[0]
    model = TurnOrderModel(document)
    model.set_encounter(encounter.id)

    def run(make) -> None:  # type: ignore[no-untyped-def]
        push_patch(document, make(campaign, encounter))

    run(lambda c, e: fight.add_characters_patch(c, e, [c.characters[0].id], Side.PLAYERS))
    combatant = encounter.combatants[0]
    run(lambda c, e: fight.initiative_patch(c, e, combatant.id, 9))
    run(lambda c, e: fight.start_patch(c, e))
    run(lambda c, e: fight.add_condition_patch(c, e, combatant.id, ConditionKind.CRIPPLED,
                                               _LONG))
    run(lambda c, e: fight.stance_patch(c, e, combatant.id, Stance.CROUCHED))
    run(lambda c, e: fight.set_cover_patch(c, e, combatant.id, CoverLevel.MOSTLY))
    run(lambda c, e: fight.set_damage_patch(c, e, combatant.id, 12))
    row = model.row_of(combatant.id)
    tip = Qt.ItemDataRole.ToolTipRole
    for column in TurnOrderModel.TEXT_COLUMNS:
        shown = model.data(model.index(row, column))
        if shown:
            assert shown in model.data(model.index(row, column), tip), (column, shown)
    conditions = model.data(model.index(row, TurnOrderModel.COL_CONDITIONS))
    assert _LONG in conditions
    assert model.data(model.index(row, TurnOrderModel.COL_STANCE)).startswith("Crouched, ")
    state = model.data(model.index(row, TurnOrderModel.COL_STATE))
    assert state in model.data(model.index(row, TurnOrderModel.COL_STATE), tip)


def test_healing_tables_tooltips_hold_the_whole_text(qapp):
    document = _healing_document()
    campaign = document.campaign
    long_name = "Annabel " + "Longname-" * 8 + "Smith"
    campaign.characters[0].name = long_name
    campaign.characters.append(Character(
        name="Dora", characteristics=Characteristics.of(7, 8, 9, 10, 8, 7), damage=40,
        conditions=[Condition(kind=ConditionKind.DEAD)]))
    patients = PatientListModel(document)
    tip = Qt.ItemDataRole.ToolTipRole
    for row in range(patients.rowCount()):
        for column in PatientListModel.TEXT_COLUMNS:
            shown = patients.data(patients.index(row, column))
            if shown:
                assert shown in patients.data(patients.index(row, column), tip), (row, column)
    dead = patients.row_of(campaign.characters[-1].id)
    assert patients.data(patients.index(dead, PatientListModel.STATE), tip) == "Dead"
    assert patients.data(patients.index(0, PatientListModel.NAME), tip).startswith(long_name)

    from mneme_desktop.domain.healing.infirmary import infirmary_report
    from mneme_desktop.domain.healing.plan import project_plan
    from mneme_desktop.ui.views.healing_plans import default_plans

    plan_a, plan_b = default_plans()
    pair = (project_plan(campaign.characters[1], plan_a),
            project_plan(campaign.characters[1], plan_b))
    projection = ProjectionTableModel()
    projection.set_projection(pair[0], campaign.game_time)
    comparison = ComparisonModel()
    comparison.set_rows([pair], campaign.game_time)
    load = InfirmaryLoadModel()
    load.set_report(infirmary_report(campaign.infirmary, campaign.characters,
                                     document.threshold_basis))
    for model, columns in ((projection, ProjectionTableModel.TEXT_COLUMNS),
                           (comparison, (ComparisonModel.NAME,)),
                           (load, (InfirmaryLoadModel.NAME, InfirmaryLoadModel.STATE))):
        assert model.rowCount() > 0, type(model).__name__
        for row in range(model.rowCount()):
            for column in columns:
                shown = model.data(model.index(row, column))
                if shown:
                    text = model.data(model.index(row, column), tip)
                    assert shown in text, (type(model).__name__, row, column, shown, text)
