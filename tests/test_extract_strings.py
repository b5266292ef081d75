"""packaging/extract_strings.py: the UI's ``tr(_CTX, "...")`` texts in a Qt Linguist file."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "packaging" / "extract_strings.py"


def load_script() -> ModuleType:
    """The script as a module, by path (packaging/ is deliberately not a package)."""
    spec = importlib.util.spec_from_file_location("packaging_extract_strings", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script()


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(ts).getroot()
    found: dict[tuple[str, str], ET.Element] = {}
    for context in root.iter("context"):
        name = context.findtext("name")
        assert name
        for message in context.iter("message"):
            source = message.findtext("source")
            assert source is not None
            assert (name, source) not in found, f"{name}: {source!r} listed twice"
            found[(name, source)] = message
    return found


def test_the_ui_texts_are_extracted(script, tmp_path, capsys):
    out = tmp_path / "translations" / "mneme_de.ts"
    assert script.main(["--out", str(out), "--language", "de"]) == 0
    root = ET.parse(out).getroot()
    assert root.tag == "TS"
    assert root.get("version") == "2.1" and root.get("language") == "de"
    assert out.read_text(encoding="utf-8").startswith('<?xml version="1.0" encoding="utf-8"?>\n'
                                                      "<!DOCTYPE TS>\n")
    found = messages(out)
    assert len(found) >= 500, len(found)
    for key in [
        ("EncounterView", "Turn order"),               # tr(_CTX, "...")
        ("TurnOrderModel", "Conditions"),              # a header marked with tr_noop
        ("TurnOrderModel", "Tied on {0} with {1}: acts {2} of {3}."),
        ("HealingPlanner", "Plans compared: A = {0}, B = {1}"),
        ("HealingMedical", "First aid heals the Effect (at least 1), stops bleeding and "
                           "stabilises a dying character for END hours. {0} rounds (3 "
                           "minutes); Difficulty 10 on oneself. A failure does nothing."),
        ("MainWindow", "Mneme campaigns (*.mneme);;All files (*)"),
        ("MainActions", "Undo"),                       # tr_noop with a literal context
        ("CombatantPanelForm", "Actions this round"),
    ]:
        assert key in found, key
    message = found[("EncounterView", "Turn order")]
    location = message.find("location")
    assert location is not None
    assert location.get("filename", "").endswith("mneme_desktop/ui/views/encounter_view.py")
    assert int(location.get("line", "0")) > 0
    translation = message.find("translation")
    assert translation is not None and translation.get("type") == "unfinished"
    # A text marked once and translated in two places is one message in three places.
    assert len(found[("MainWindow", "Mneme campaigns (*.mneme);;All files (*)")]
               .findall("location")) == 3
    contexts = {context for context, _ in found}
    assert {"EncounterView", "HealingView", "HealingModels", "MainWindow"} <= contexts
    captured = capsys.readouterr()
    assert f"{len(found)} messages" in captured.out
    assert "calls not extracted" in captured.err
    assert "main_actions.py" in captured.err  # tr(_CTX, verb): translated from a mark


def test_what_is_and_is_not_extracted(script, tmp_path):
    module = tmp_path / "ui" / "sample_view.py"
    module.parent.mkdir()
    module.write_text(
        'from mneme_desktop.ui.i18n import tr, tr_noop\n'
        '_CTX = "SampleView"\n'
        'HEADERS = (tr_noop(_CTX, "Name"), tr_noop(_CTX, "Age"))\n'
        'TIP = tr_noop(_CTX, "Long "\n'
        '              "text")\n'
        'def show(value, name):\n'
        '    tr(_CTX, "Hello {0}").format(name)\n'
        '    tr(_CTX, "Part one, " + "part two")\n'
        '    tr("OtherContext", "Given context")\n'
        '    tr(_CTX, "Open", "menu")\n'
        '    tr(_CTX, TIP)\n'
        '    tr(_CTX, value)\n'
        '    return tr(_CTX, f"{name}")\n', encoding="utf-8")
    extraction = script.extract(module.parent)
    keys = {(m.context, m.source, m.comment) for m in extraction.messages.values()}
    assert keys == {
        ("SampleView", "Name", None), ("SampleView", "Age", None),
        ("SampleView", "Long text", None), ("SampleView", "Hello {0}", None),
        ("SampleView", "Part one, part two", None), ("OtherContext", "Given context", None),
        ("SampleView", "Open", "menu"),
    }
    assert [u.location.line for u in extraction.unresolved] == [12, 13]
    out = tmp_path / "out.ts"
    script.write_ts(extraction, out, "en")
    found = messages(out)
    assert found[("SampleView", "Open")].findtext("comment") == "menu"
    assert found[("SampleView", "Long text")].find("location").get("line") == "4"  # type: ignore[union-attr]
    assert len(found[("SampleView", "Long text")].findall("location")) == 2


def test_a_translation_of_the_extracted_file_reaches_the_ui(script, qapp, tmp_path):
    """Round trip: translate one extracted message, compile it with lrelease, install it:
    the UI's tr() with the module's context finds it."""
    lrelease = shutil.which("pyside6-lrelease") or str(Path(sys.executable).with_name(
        "pyside6-lrelease"))
    if not Path(lrelease).exists() and shutil.which(lrelease) is None:
        pytest.skip("pyside6-lrelease is not installed")
    from PySide6.QtCore import QCoreApplication, QTranslator

    from mneme_desktop.ui.i18n import tr

    ts = tmp_path / "mneme_de.ts"
    script.main(["--out", str(ts), "--language", "de"])
    tree = ET.parse(ts)
    for context in tree.getroot().iter("context"):
        if context.findtext("name") != "EncounterView":
            continue
        for message in context.iter("message"):
            if message.findtext("source") == "Turn order":
                translation = message.find("translation")
                assert translation is not None
                translation.attrib.clear()
                translation.text = "Zugreihenfolge"
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    qm = tmp_path / "mneme_de.qm"
    subprocess.run([lrelease, str(ts), "-qm", str(qm)], check=True, capture_output=True)
    translator = QTranslator()
    assert translator.load(str(qm))
    assert QCoreApplication.installTranslator(translator)
    try:
        assert tr("EncounterView", "Turn order") == "Zugreihenfolge"
        assert tr("EncounterView", "Round {0}") == "Round {0}"
    finally:
        QCoreApplication.removeTranslator(translator)
