"""The thing sheet in the window: vehicles and objects in the navigator, their sheet edited
through its widgets, every step undoable, and their print and export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QMessageBox

from mneme_desktop.context import AppContext
from mneme_desktop.domain import Thing, ThingKind
from mneme_desktop.domain import combat as fight
from mneme_desktop.export import ExportOptions, build_document
from mneme_desktop.export.document import CardSheet, ExportTarget, Sheet, iter_strings
from mneme_desktop.export.exporter import ExportFormat, default_file_name, write_export
from mneme_desktop.rules.box_chart import ChartStyle
from mneme_desktop.rules.dice import Scale
from mneme_desktop.storage import build_sample_campaign, save_campaign
from mneme_desktop.ui.commands import push_patch
from mneme_desktop.ui.main_window import MainWindow, Page
from mneme_desktop.ui.models.navigator_model import Group
from mneme_desktop.ui.models.roles import CHOICES_ROLE
from mneme_desktop.ui.views.thing_sheet import ThingSheetView
from tests.export.helpers import pdf_text, squash


@pytest.fixture
def window(qtbot, app_paths, tmp_path: Path):
    path = tmp_path / "campaign.mneme"
    save_campaign(build_sample_campaign(), path, backups=0)
    win = MainWindow(AppContext.create(app_paths))
    assert win.open_initial(path)
    win.resize(1280, 900)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.discard_and_close()
    win.deleteLater()


def select(window: MainWindow, group: Group, name: str) -> ThingSheetView:
    model = window.navigator_model
    assert model is not None
    parent = model.group_index(group)
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        if index.data() == name:
            window.tree.setCurrentIndex(index)
            break
    else:
        raise AssertionError(f"{name} is not in {group.label}")
    assert window.stack.currentIndex() == Page.THING
    view = window.stack.thing_view
    assert view is not None
    return view


def shown(view: ThingSheetView) -> Thing:
    thing = view.thing()
    assert thing is not None
    return thing


def test_the_navigator_lists_the_object_library_and_opens_a_thing_sheet(window) -> None:
    model = window.navigator_model
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    library = model.group_index(Group.THING_LIBRARY)
    assert model.rowCount(library) >= 3
    assert model.data(library).startswith("Object Library")
    view = select(window, Group.THING_LIBRARY, "D-Plated Walker")
    assert view.title_label.text() == "D-Plated Walker"
    assert view.durability.hp_label.text() == "20 DHP = 200 HP"
    assert view.durability.armor_label.text() == "DAR 2 = 20 AR"
    assert "Scale Immunity" in view.durability.scale_note.text()
    assert view.track.hp_bar.track().unit == "DHP"
    assert view.track.box_chart.accessibleDescription() == (
        "D-Plated Walker: damage 0 of 20 DHP: intact")
    assert view.from_template_button.isVisible()
    assert view.crew.isVisible() and view.weapons.isVisible()
    tip = model.data(model.index_of(Group.THING_LIBRARY, view.navigator_id()),
                     Qt.ItemDataRole.ToolTipRole)
    assert "20 DHP = 200 HP" in tip and "DAR 2 = 20 AR" in tip


def test_a_template_makes_a_campaign_thing_in_one_undoable_step(qtbot, window) -> None:
    view = select(window, Group.THING_LIBRARY, "Shield")
    document = window.document
    steps = document.undo_stack.count()
    qtbot.mouseClick(view.from_template_button, Qt.MouseButton.LeftButton)
    things = document.campaign.things
    assert [t.name for t in things] == ["Shield 1"]
    assert document.undo_stack.count() == steps + 1
    # The window shows the new thing, under Vehicles and Objects.
    assert window.selected_node().group is Group.THINGS
    assert shown(view).name == "Shield 1" and not view.from_template_button.isVisible()
    assert shown(view).protection == 2
    document.undo_stack.undo()
    assert document.campaign.things == []
    assert "no longer in the campaign" in view.empty_label.text() or (
        window.selected_node().group is not Group.THINGS)


def test_add_edit_and_damage_a_vehicle_through_the_sheet(qtbot, window) -> None:
    document = window.document
    window.main_actions.add_thing_action.trigger()
    view = window.stack.thing_view
    assert view is not None and window.stack.currentIndex() == Page.THING
    thing = shown(view)
    assert thing.name == "New Vehicle" and thing.kind is ThingKind.VEHICLE
    start = document.undo_stack.count()

    hp = view.durability.hp_spin
    hp.setFocus()
    hp.selectAll()
    qtbot.keyClicks(hp, "20")
    qtbot.keyClick(hp, Qt.Key.Key_Return)
    scale = view.durability.hp_scale
    scale.setFocus()
    qtbot.keyClick(scale, Qt.Key.Key_Down)  # personal -> Deka
    assert shown(view).hp_scale is Scale.DEKA
    assert view.durability.hp_label.text() == "20 DHP = 200 HP"
    armor = view.durability.armor_spin
    armor.setFocus()
    armor.selectAll()
    qtbot.keyClicks(armor, "2")
    qtbot.keyClick(armor, Qt.Key.Key_Return)
    view.durability.armor_scale.setFocus()
    qtbot.keyClick(view.durability.armor_scale, Qt.Key.Key_Down)
    assert view.durability.armor_label.text() == "DAR 2 = 20 AR"
    assert "Seriously damaged at 6 DHP = 60 HP" in view.durability.thresholds_label.text()

    # Box 7 of a Deka thing is 70 plain points: seriously damaged.
    chart = view.track.box_chart
    qtbot.waitUntil(lambda: chart.height() >= chart.sizeHint().height())
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=chart.box_rect(7).center().toPoint())
    assert shown(view).damage == 70
    assert view.durability.state_label.text() == "Seriously Damaged"
    assert "70 plain points: 7 DHP crossed, 130 plain HP left" in (
        view.durability.damage_label.text())
    assert view.track.hp_bar.track().damage == 7

    # The record's view of the same damage: 20 DHP is four columns, four boxes crossed off.
    view.track.view_combo.setFocus()
    qtbot.keyClick(view.track.view_combo, Qt.Key.Key_Down)
    assert chart.chart_style() is ChartStyle.MEGATRAVELLER
    assert len(chart.crossed_off_rects()) == 4

    steps = document.undo_stack.count() - start
    assert steps == 5  # HP, HP scale, armor, armor scale, damage: one step each
    for _ in range(steps):
        document.undo_stack.undo()
    assert shown(view).hp == 10 and shown(view).damage == 0
    assert shown(view).hp_scale is Scale.NONE
    assert view.durability.hp_spin.value() == 10


def test_crew_positions_and_weapons_are_tables_with_undo(qtbot, window) -> None:
    document = window.document
    sheet = next(c for c in document.campaign.characters)
    view = select(window, Group.THING_LIBRARY, "D-Plated Walker")
    QAbstractItemModelTester(view.crew_model,
                             QAbstractItemModelTester.FailureReportingMode.Fatal)
    QAbstractItemModelTester(view.weapons_model,
                             QAbstractItemModelTester.FailureReportingMode.Fatal)
    crew = view.crew
    rows = crew.model.rowCount()
    qtbot.mouseClick(crew.add_button, Qt.MouseButton.LeftButton)
    assert crew.model.rowCount() == rows + 1
    new = crew.model.index(rows, 1)
    assert (sheet.name, sheet.id) in new.data(CHOICES_ROLE)
    assert crew.model.setData(new, sheet.id)
    assert shown(view).crew[-1].character_id == sheet.id
    assert new.data() == sheet.name
    assert not crew.model.setData(crew.model.index(rows, 0), "")  # a position needs a name
    assert "Position" in view.message_line.message()
    crew.view.selectRow(rows)
    qtbot.mouseClick(crew.remove_button, Qt.MouseButton.LeftButton)
    assert crew.model.rowCount() == rows
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert shown(view).crew[-1].character_id is None
    document.undo_stack.undo()
    assert crew.model.rowCount() == rows

    weapons = view.weapons
    damage = weapons.model.index(0, 1)
    assert not weapons.model.setData(damage, "banana")
    assert weapons.model.setData(damage, "D 3d6")
    assert shown(view).weapons[0].damage == "D 3d6"
    document.undo_stack.undo()
    assert shown(view).weapons[0].damage == "D 2d6"


def test_rename_duplicate_and_delete_from_the_navigator(qtbot, window) -> None:
    document = window.document
    model = window.navigator_model
    view = select(window, Group.THING_LIBRARY, "Cinder Blocks")
    index = window.tree.currentIndex()
    assert model.setData(index, "Breeze Blocks")
    assert view.title_label.text() == "Breeze Blocks"
    window.duplicate_selected()
    assert [t.name for t in document.campaign.thing_library].count("Breeze Blocks (copy)") == 1
    assert shown(view).name == "Breeze Blocks (copy)"
    window.queue_dialog_answer(QMessageBox.StandardButton.Yes)
    window.delete_selected()
    assert "Breeze Blocks (copy)" not in [t.name for t in document.campaign.thing_library]
    document.undo_stack.undo()
    assert "Breeze Blocks (copy)" in [t.name for t in document.campaign.thing_library]
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert "Cinder Blocks" in [t.name for t in document.campaign.thing_library]


def test_a_bad_name_is_refused_in_words(qtbot, window) -> None:
    view = select(window, Group.THING_LIBRARY, "Shield")
    steps = window.document.undo_stack.count()
    view.what.name_edit.setFocus()
    view.what.name_edit.selectAll()
    qtbot.keyClick(view.what.name_edit, Qt.Key.Key_Delete)
    qtbot.keyClick(view.what.name_edit, Qt.Key.Key_Return)
    assert view.message_line.message() == "A vehicle or object needs a name."
    assert view.what.name_edit.text() == "Shield"
    assert window.document.undo_stack.count() == steps


def test_notes_are_one_step_per_burst(qtbot, window) -> None:
    view = select(window, Group.THING_LIBRARY, "Shield")
    view.notes_edit.setFocus()
    view.notes_edit.selectAll()
    qtbot.keyClicks(view.notes_edit, "Dented")
    view.commit_notes()
    assert shown(view).notes == "Dented"
    window.document.undo_stack.undo()
    assert shown(view).notes != "Dented"


# ------------------------------------------------------------------------- export


def test_a_thing_prints_and_exports_as_pdf_html_and_json(qtbot, window, tmp_path: Path) -> None:
    view = select(window, Group.THING_LIBRARY, "D-Plated Walker")
    target = window.export_target()
    assert target == ExportTarget.thing(shown(view).id)
    campaign = window.document.campaign
    options = ExportOptions(show_damage=True, box_chart=ChartStyle.MEGATRAVELLER)
    pdf = tmp_path / default_file_name(campaign, target, ExportFormat.PDF)
    assert pdf.name.endswith("-D-Plated-Walker.pdf")
    write_export(campaign, target, ExportFormat.PDF, pdf, options)
    text = squash(pdf_text(pdf))
    assert squash("20 DHP = 200 HP") in text and squash("DAR 2 = 20 AR") in text
    assert squash("Seriously Damaged") in text and "Gunner" in text
    html = tmp_path / "walker.html"
    write_export(campaign, target, ExportFormat.HTML, html, options)
    page = html.read_text(encoding="utf-8")
    assert "20 DHP = 200 HP" in page and "MegaTraveller record: 4 six-box columns" in page
    data = tmp_path / "walker.json"
    write_export(campaign, target, ExportFormat.JSON, data, options)
    dumped = json.loads(data.read_text(encoding="utf-8"))
    assert dumped["contents"] == "thing"
    assert dumped["thing"]["hp"] == 20 and dumped["thing"]["hp_scale"] == "D"


def test_the_referee_pack_carries_the_things_of_the_encounter(window) -> None:
    document = window.document
    campaign = document.campaign
    encounter = campaign.encounters[0]
    shield = next(t for t in campaign.thing_library if t.name == "Shield")
    push_patch(document, fight.add_things_patch(campaign, encounter, shield.id, 2))
    pack = build_document(campaign, ExportTarget.referee_pack(encounter.id),
                          ExportOptions(show_damage=True))
    cards = [part for part in pack.parts if isinstance(part, CardSheet)
             and part.heading.title.startswith("Vehicles and objects")]
    assert len(cards) == 1
    titles = [card.title for card in cards[0].cards]
    assert titles[-2:] == ["Shield 1", "Shield 2"]
    assert len(titles) == len(campaign.encounter(encounter.id).things)
    assert any("absorbs up to 2 fail effect" in s for s in iter_strings(pack))
    thing = campaign.encounter_thing(campaign.encounter(encounter.id).things[0])
    sheet = build_document(campaign, ExportTarget.thing(thing.id), ExportOptions())
    assert isinstance(sheet.parts[0], Sheet)
    assert encounter.name in "\n".join(iter_strings(sheet))


# ------------------------------------------------------------ names, words and fit


def test_the_thing_page_names_every_control_and_fits_a_laptop(qtbot, window) -> None:
    from tests.ui.test_accessibility import unnamed_controls
    from tests.ui.test_laptop_fit import clipped

    view = select(window, Group.THING_LIBRARY, "D-Plated Walker")
    assert unnamed_controls(view) == []
    for size in ((1280, 720), (1366, 768)):
        window.resize(*size)
        qtbot.wait(20)
        assert clipped(window) == []


def test_the_thing_sheet_is_translated(qtbot, qapp) -> None:
    from PySide6.QtCore import QCoreApplication

    from mneme_desktop.ui.document import CampaignDocument
    from tests.ui.test_translation_ready import Bracketing, campaign_names, untranslated

    campaign = build_sample_campaign()
    walker = next(t for t in campaign.thing_library if t.name == "D-Plated Walker")
    translator = Bracketing()
    assert QCoreApplication.installTranslator(translator)
    try:
        sheet = ThingSheetView(CampaignDocument(campaign))
        qtbot.addWidget(sheet)
        sheet.set_entry(walker.id)
        sheet.resize(1100, 900)
        sheet.show()
        qtbot.waitExposed(sheet)
        names = campaign_names(campaign) | {walker.name}
        problems = untranslated(sheet, names)
    finally:
        QCoreApplication.removeTranslator(translator)
    # Written by the rules and drawing layers (the book's notation, the rule texts and the
    # painters' descriptions), as the character sheet's thresholds and tracks are.
    other_layers = ("QLabel(thingHpLabel):", "QLabel(thingArmorLabel):",
                    "QLabel(thingThresholdsLabel) tooltip:", "(thingHpBar) tooltip:",
                    "(thingBoxChart) tooltip:")
    problems = [p for p in problems if not any(layer in p for layer in other_layers)]
    assert not problems, "\n".join(problems)


def test_a_label_mnemonic_focuses_its_number_field(qtbot, window) -> None:
    view = select(window, Group.THING_LIBRARY, "Shield")
    form = view.durability.layout()
    holder = view.durability.armor_spin.parentWidget()
    label = form.labelForField(holder)
    assert label.buddy() is view.durability.armor_spin


def test_notes_typed_a_moment_before_saving_are_saved(qtbot, window) -> None:
    from mneme_desktop.storage import load_campaign

    view = select(window, Group.THING_LIBRARY, "Shield")
    view.notes_edit.setFocus()
    view.notes_edit.selectAll()
    qtbot.keyClicks(view.notes_edit, "Scorched")
    assert window.save()
    saved = load_campaign(window.document.path)
    assert next(t for t in saved.thing_library if t.name == "Shield").stats.notes == "Scorched"


def test_the_json_referee_pack_holds_the_things_and_their_templates(window) -> None:
    from mneme_desktop.export.json_export import export_json

    document = window.document
    campaign = document.campaign
    encounter = campaign.encounters[0]
    walker = next(t for t in campaign.thing_library if t.name == "D-Plated Walker")
    push_patch(document, fight.add_things_patch(campaign, encounter, walker.id))
    data = json.loads(export_json(campaign, ExportTarget.referee_pack(encounter.id)))
    names = [entry["instance"]["name"] for entry in data["encounter"]["things"]
             if entry["instance"] is not None]
    assert "D-Plated Walker 1" in names
    assert "D-Plated Walker" in [t["stats"]["name"] for t in data["thing_templates"]]
