"""Collect the UI's translatable texts into a Qt Linguist ``.ts`` file.

``pyside6-lupdate`` finds ``self.tr("...")`` and ``QCoreApplication.translate("Ctx", "...")``
but not the app's convention, ``tr(_CTX, "...")``: the context is a module constant, so this
reads each module under ``mneme_desktop/ui`` as Python (``ast``), resolves its module-level
string constants (``_CTX = "EncounterView"``) and collects every ``tr(...)`` and
``tr_noop(...)`` call whose context and text are literal strings (or constants, or literal
strings joined with ``+``). A third argument, the disambiguation, becomes the message's
``<comment>``.

Calls whose text is not a literal (``tr(_CTX, value)``: a constant marked with ``tr_noop``
elsewhere, translated where shown) cannot be extracted and need not be: they are counted
and listed on stderr, so a text that was meant to be literal can be told from one that is
translated from a mark.

    python packaging/extract_strings.py --out resources/translations/mneme_de.ts --language de
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_ROOT = ROOT / "mneme_desktop" / "ui"
TRANSLATE_CALLS = frozenset({"tr", "tr_noop"})


@dataclass(frozen=True)
class Location:
    path: Path
    line: int


@dataclass
class Message:
    context: str
    source: str
    comment: str | None
    locations: list[Location] = field(default_factory=list)


@dataclass
class Unresolved:
    location: Location
    call: str


@dataclass
class Extraction:
    messages: dict[tuple[str, str, str | None], Message] = field(default_factory=dict)
    unresolved: list[Unresolved] = field(default_factory=list)

    def add(self, context: str, source: str, comment: str | None, where: Location) -> None:
        key = (context, source, comment)
        message = self.messages.get(key)
        if message is None:
            message = self.messages[key] = Message(context, source, comment)
        if where not in message.locations:
            message.locations.append(where)

    def contexts(self) -> dict[str, list[Message]]:
        grouped: dict[str, list[Message]] = {}
        for message in self.messages.values():
            grouped.setdefault(message.context, []).append(message)
        return dict(sorted(grouped.items()))


def module_constants(tree: ast.Module) -> dict[str, str]:
    """The module's top-level ``NAME = "text"`` constants (``_CTX`` among them)."""
    constants: dict[str, str] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        if value is None:
            continue
        text = literal_text(value, constants)
        if text is None:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                constants[target.id] = text
    return constants


def literal_text(node: ast.expr, constants: dict[str, str]) -> str | None:
    """The string ``node`` stands for, if it is known without running the code: a literal,
    a module string constant (``FILTER = tr_noop(_CTX, "...")`` included), or such strings
    joined with ``+``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and _call_name(node) == "tr_noop":
        text = _argument(node, 1, "text")
        return literal_text(text, constants) if text is not None else None
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = literal_text(node.left, constants)
        right = literal_text(node.right, constants)
        if left is not None and right is not None:
            return left + right
    return None


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == "i18n":
        return func.attr
    return None


def _argument(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def extract_module(path: Path, extraction: Extraction) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    constants = module_constants(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name not in TRANSLATE_CALLS:
            continue
        where = Location(path, node.lineno)
        context_node = _argument(node, 0, "context")
        text_node = _argument(node, 1, "text")
        if context_node is None or text_node is None:
            continue  # not the helpers' signature (a method of the same name)
        context = literal_text(context_node, constants)
        source = literal_text(text_node, constants)
        comment_node = _argument(node, 2, "disambiguation") if name == "tr" else None
        comment = literal_text(comment_node, constants) if comment_node is not None else None
        if context is None or source is None or (comment_node is not None and comment is None
                                                 and not _is_none(comment_node)):
            extraction.unresolved.append(Unresolved(where, ast.unparse(node)))
            continue
        extraction.add(context, source, comment, where)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def extract(root: Path = UI_ROOT) -> Extraction:
    """Every translatable text of the modules under ``root``."""
    extraction = Extraction()
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        extract_module(path, extraction)
    return extraction


def ts_document(extraction: Extraction, out: Path, language: str) -> ET.ElementTree:
    """The Qt Linguist TS 2.1 document; locations are relative to ``out``'s folder, as
    Linguist looks for them."""
    ts = ET.Element("TS", {"version": "2.1", "language": language, "sourcelanguage": "en"})
    folder = out.resolve().parent
    for name, messages in extraction.contexts().items():
        context = ET.SubElement(ts, "context")
        ET.SubElement(context, "name").text = name
        for message in messages:
            element = ET.SubElement(context, "message")
            for where in message.locations:
                relative = Path(os.path.relpath(where.path.resolve(), folder)).as_posix()
                ET.SubElement(element, "location",
                              {"filename": relative, "line": str(where.line)})
            ET.SubElement(element, "source").text = message.source
            if message.comment:
                ET.SubElement(element, "comment").text = message.comment
            ET.SubElement(element, "translation", {"type": "unfinished"})
    tree = ET.ElementTree(ts)
    ET.indent(tree, space="    ")
    return tree


def write_ts(extraction: Extraction, out: Path, language: str) -> None:
    tree = ts_document(extraction, out, language)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as stream:
        stream.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(stream, encoding="unicode", xml_declaration=False)
        stream.write("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the .ts file to write")
    parser.add_argument("--language", default="en", help="the TS file's language (en, de, ...)")
    parser.add_argument("--root", type=Path, default=UI_ROOT,
                        help="the folder of modules to read (default: mneme_desktop/ui)")
    args = parser.parse_args(argv)
    extraction = extract(args.root)
    write_ts(extraction, args.out, args.language)
    contexts = len(extraction.contexts())
    print(f"{len(extraction.messages)} messages in {contexts} contexts written to {args.out}")
    if extraction.unresolved:
        print(f"{len(extraction.unresolved)} calls not extracted (context or text is not a "
              "literal; a text marked with tr_noop elsewhere is extracted there):",
              file=sys.stderr)
        for item in extraction.unresolved:
            try:
                shown = item.location.path.resolve().relative_to(ROOT)
            except ValueError:
                shown = item.location.path
            print(f"  {shown.as_posix()}:{item.location.line}: {item.call}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
