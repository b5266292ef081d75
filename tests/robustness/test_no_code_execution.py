"""Nothing executes from a file: loading never evaluates code, and the HTML export shows
every piece of user text as text.
"""

from __future__ import annotations

import ast
import builtins
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mneme_desktop.domain import (
    AdversaryTemplate,
    Armor,
    Campaign,
    Character,
    Characteristics,
    CharacterKind,
    Combatant,
    Condition,
    ConditionKind,
    CoverItem,
    Encounter,
    Skill,
    Weapon,
    new_id,
)
from mneme_desktop.export import ExportOptions, ExportTarget, build_document
from mneme_desktop.export.html import render_html
from mneme_desktop.storage import (
    CampaignLoadError,
    build_sample_campaign,
    campaign_from_json,
    campaign_to_json,
    load_campaign,
    save_campaign,
)

PACKAGE = Path(__file__).resolve().parents[2] / "mneme_desktop"
LOADING_LAYERS = ("storage", "domain")
FORBIDDEN_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle",
                     "yaml", "jsonpickle", "code", "codeop"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "execfile", "import_module",
                   "literal_eval", "run_path", "run_module"}


def _sources() -> list[Path]:
    files = [p for layer in LOADING_LAYERS for p in sorted((PACKAGE / layer).rglob("*.py"))]
    assert len(files) >= 10
    return files


@pytest.mark.parametrize("source", _sources(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_loading_code_never_imports_a_code_loader_or_evaluates(source: Path) -> None:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {alias.name.split(".")[0] for alias in node.names}
            assert not names & FORBIDDEN_MODULES, f"{source.name}:{node.lineno} imports {names}"
        elif isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")[0]
            assert module not in FORBIDDEN_MODULES, f"{source.name}:{node.lineno} {module}"
            assert module not in {"importlib", "runpy"}, f"{source.name}:{node.lineno}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            assert name not in FORBIDDEN_CALLS, f"{source.name}:{node.lineno} calls {name}()"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # re.compile is fine; builtins.eval, importlib.import_module and the like are not.
            owner = node.func.value.id if isinstance(node.func.value, ast.Name) else ""
            name = node.func.attr
            assert owner not in {"builtins", *FORBIDDEN_MODULES} - {"code", "codeop"}, \
                f"{source.name}:{node.lineno} calls {owner}.{name}()"
            assert name not in FORBIDDEN_CALLS - {"compile"}, \
                f"{source.name}:{node.lineno} calls {owner}.{name}()"
        elif isinstance(node, ast.Name):
            assert node.id not in {"eval", "exec", "compile"}, f"{source.name}:{node.lineno}"


CODE = [
    "__import__('os').system('touch {sentinel}')",
    "eval(\"open('{sentinel}', 'w')\")",
    "exec('import os; os.remove(\"{sentinel}\")')",
    "{{ self.__init__.__globals__ }} ${{7*7}} #{{7*7}} {{7*7}}",
    "!!python/object/apply:os.system ['touch {sentinel}']",
    "cos\nsystem\n(S'touch {sentinel}'\ntR.",  # a pickle opcode stream
    "<script>alert(1)</script>",
    "'; DROP TABLE characters; --",
    "\u0000\u202e\ufeff",
]


def test_python_code_in_every_text_field_loads_as_plain_text(tmp_path: Path,
                                                            monkeypatch) -> None:
    sentinel = tmp_path / "PWNED"
    texts = [c.format(sentinel=sentinel) for c in CODE]
    character = Character(
        name=texts[0][:200], player=texts[1][:200],
        characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
        skills=[Skill(name=t[:100], specialty=t[:100], level=1) for t in texts],
        weapons=[Weapon(name=t[:200], damage="2d6", notes=t, skill=t[:200]) for t in texts],
        armor=[Armor(name=t[:200], rating=1, notes=t) for t in texts],
        notes="\n".join(texts),
    )
    campaign = build_sample_campaign()
    campaign.name = texts[2][:200]
    campaign.add_character(character)
    path = tmp_path / "code.mneme"
    save_campaign(campaign, path)

    called: list[str] = []
    for name in ("eval", "exec", "compile"):
        real = getattr(builtins, name)

        def spy(*args: object, _name: str = name, _real: object = real, **kwargs: object):
            called.append(_name)
            return _real(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(builtins, name, spy)
    loaded = load_campaign(path)
    monkeypatch.undo()

    assert not called, f"loading called {called}"
    assert not sentinel.exists()
    again = loaded.character(character.id)
    assert again.name == texts[0][:200] and again.player == texts[1][:200]
    assert again.notes == "\n".join(texts)
    assert [s.name for s in again.skills] == [t[:100] for t in texts]
    assert [w.notes for w in again.weapons] == texts
    assert loaded.name == texts[2][:200]
    assert loaded.model_dump() == campaign.model_dump()


@pytest.mark.parametrize("hostile", [
    {"__class__": "os.system"},
    {"__reduce__": ["os.system", ["touch PWNED"]]},
    {"py/object": "os.system"},
    {"$type": "System.Diagnostics.Process"},
])
def test_magic_keys_are_refused_or_ignored_never_obeyed(tmp_path: Path, hostile: dict) -> None:
    document = json.loads(campaign_to_json(build_sample_campaign()))
    document["characters"][0].update(hostile)
    document.update(hostile)
    data = json.dumps(document).encode("utf-8")
    try:
        campaign = campaign_from_json(data)
    except CampaignLoadError as exc:
        assert str(exc)
    else:
        Campaign.model_validate(campaign.model_dump())
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()


# --- the HTML export ------------------------------------------------------------------------


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _hostile(field: str) -> str:
    return f'<script>alert("{field}")</script><img src=x onerror=alert("{field}")>'


USER_FIELDS = ("name", "player", "notes", "skill name", "skill specialty", "weapon name",
               "weapon notes", "weapon skill", "armor name", "armor notes", "cover name",
               "cover notes", "condition detail")


def _hostile_campaign() -> tuple[Campaign, Character, AdversaryTemplate, Encounter]:
    h = _hostile
    character = Character(
        name=h("name"), player=h("player"), notes=h("notes"),
        characteristics=Characteristics.of(7, 7, 7, 7, 7, 7),
        skills=[Skill(name=h("skill name"), specialty=h("skill specialty"), level=2)],
        weapons=[Weapon(name=h("weapon name"), damage="3d6", notes=h("weapon notes"),
                        skill=h("weapon skill"))],
        armor=[Armor(name=h("armor name"), rating=3, notes=h("armor notes"))],
        cover_items=[CoverItem(name=h("cover name"), protection=2, hp=10,
                               notes=h("cover notes"))],
        conditions=[Condition(kind=ConditionKind.OTHER, detail=h("condition detail"))],
        damage=4,
    )
    template = AdversaryTemplate(stats=Character(
        name=h("template name"), kind=CharacterKind.ADVERSARY, notes=h("template notes"),
        characteristics=Characteristics.of(8, 7, 8, 6, 5, 4),
        weapons=[Weapon(name=h("template weapon"), damage="2d6",
                        notes=h("template weapon notes"))],
    ))
    campaign = Campaign(name=h("campaign name"), characters=[character],
                        adversary_library=[template])
    encounter = Encounter(name=h("encounter name"),
                          combatants=[Combatant(character_id=character.id)])
    campaign.encounters.append(encounter)
    return campaign, character, template, encounter


def _assert_inert(page: str, fields: tuple[str, ...]) -> None:
    parsed = _Collector()
    parsed.feed(page)
    parsed.close()
    assert "<script" not in page.lower()
    assert not {"script", "iframe", "object", "embed", "svg"} & set(parsed.tags)
    for name, value in parsed.attributes:
        assert not name.startswith("on"), name
        if name == "src":
            assert value is not None and value.startswith("data:image/png;base64,")
    text = "".join(parsed.text)
    for field in fields:
        assert _hostile(field) in text, f"{field} is not shown as text"


def test_every_user_field_of_a_sheet_is_escaped_in_html() -> None:
    campaign, character, _template, _encounter = _hostile_campaign()
    document = build_document(campaign, ExportTarget.character(character.id),
                              ExportOptions(show_damage=True))
    _assert_inert(render_html(document), ("name", "player", "notes", "skill name",
                                          "weapon name", "weapon notes"))
    page = render_html(document)
    for field in USER_FIELDS:  # whatever else the sheet shows is inert too
        assert f'alert("{field}")</script>' not in page


def test_every_user_field_of_a_referee_pack_is_escaped_in_html() -> None:
    campaign, _character, template, encounter = _hostile_campaign()
    instance = template.stats.model_copy(deep=True, update={"id": new_id(),
                                                            "template_id": template.id})
    encounter.combatants.append(Combatant(instance=instance))
    document = build_document(campaign, ExportTarget.referee_pack(encounter.id),
                              ExportOptions(show_damage=True))
    _assert_inert(render_html(document), ("name",))
    page = render_html(document)
    for field in (*USER_FIELDS, "template name", "template notes", "template weapon",
                  "encounter name", "campaign name"):
        assert f'alert("{field}")</script>' not in page
