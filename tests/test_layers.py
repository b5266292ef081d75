"""The import direction between our own layers, read from the source with ``ast``.

rules <- domain <- storage <- ui / export; ``drawing`` is shared by ui and export and
imports neither; the rules core imports nothing of ours but itself; no two of our modules
import each other, even through others. Every import counts, function-local ones too
(they run sooner or later), except those under ``if TYPE_CHECKING:`` (they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mneme_desktop"
ROOT = "mneme_desktop"

# Which layers each layer may import. A layer is the first name below mneme_desktop: a
# folder (rules, domain, ...) or a top-level module (settings, paths, ...); "mneme_desktop"
# itself is the package root (the app's name and version).
_BASE = {ROOT}
ALLOWED: dict[str, set[str]] = {
    ROOT: set(),
    "atomicfile": set(),
    "code_cache": {"atomicfile"},
    "qt_enums": set(),
    "module_scan": {"atomicfile"},
    "platform_check": _BASE,
    "rules": set(),
    "domain": {"rules"},
    "storage": {"rules", "domain", "atomicfile", *_BASE},
    "paths": _BASE,
    "settings": {"atomicfile", *_BASE},
    "logs": {"paths", *_BASE},
    "context": {"settings", "paths", "logs", "storage", "domain", "rules", *_BASE},
    "drawing": {"rules", "domain", *_BASE},
    "export": {"rules", "domain", "storage", "drawing", "settings", "paths", "atomicfile",
               *_BASE},
    "ui": {"rules", "domain", "storage", "drawing", "export", "settings", "paths", "logs",
           "context", "atomicfile", "platform_check", *_BASE},
    "app": {"rules", "domain", "storage", "drawing", "export", "ui", "settings", "paths",
            "logs", "context", "atomicfile", "platform_check", "code_cache", "qt_enums",
            "module_scan",
            *_BASE},
    "__main__": {"app", *_BASE},
}

KNOWN_VIOLATIONS: set[tuple[str, str]] = set()
"""(importer, imported) module edges that break the table but are owned elsewhere; each
with a comment naming its issue. Empty: every edge obeys the table."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth, outside TYPE_CHECKING blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _import_nodes_of(other)
            continue
        yield from _import_nodes_of(child)


def _import_nodes_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    yield from _import_nodes(node)


@cache
def _imports(name: str) -> frozenset[str]:
    """Our modules that module ``name`` imports (a name imported from a package that is a
    submodule counts as that submodule)."""
    path = _modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names
                         if alias.name.split(".")[0] == ROOT)
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join([*base, node.module] if node.module else base)
        else:
            module = node.module or ""
        if module.split(".")[0] != ROOT:
            continue
        for alias in node.names:
            submodule = f"{module}.{alias.name}"
            found.add(submodule if submodule in _modules() else module)
    return frozenset(found)


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def test_every_module_belongs_to_a_known_layer() -> None:
    unknown = sorted({_layer(name) for name in _modules()} - set(ALLOWED))
    assert unknown == [], f"add these to ALLOWED in tests/test_layers.py: {unknown}"


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for name in _modules():
        layer = _layer(name)
        for imported in sorted(_imports(name)):
            target = _layer(imported)
            if target == layer or target in ALLOWED.get(layer, set()):
                continue
            if (name, imported) not in KNOWN_VIOLATIONS:
                wrong.append(f"{name} -> {imported}")
    assert wrong == []


def test_known_violations_are_still_there() -> None:
    """A fixed edge leaves the list, so the list never hides a new one."""
    stale = sorted(f"{a} -> {b}" for a, b in KNOWN_VIOLATIONS
                   if a not in _modules() or b not in _imports(a))
    assert stale == []


def test_rules_import_only_rules() -> None:
    outside = sorted(f"{name} -> {imported}" for name in _modules() if _layer(name) == "rules"
                     for imported in _imports(name) if _layer(imported) != "rules")
    assert outside == []


def test_drawing_is_shared_by_ui_and_export() -> None:
    users = {_layer(name) for name in _modules()
             for imported in _imports(name) if _layer(imported) == "drawing"}
    assert {"ui", "export"} <= users


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over the module graph: none larger than one."""
    graph = {name: sorted(_imports(name) & _modules().keys()) for name in _modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                cycles.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    assert cycles == []


def test_the_parser_sees_local_imports_and_skips_type_checking() -> None:
    """The walker itself: a function-local import counts, a TYPE_CHECKING one does not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from mneme_desktop.ui import hidden\n"
        "def f():\n    from mneme_desktop.rules import dice\n"
    )
    names = [node.module for node in _import_nodes(ast.parse(source))]
    assert names == ["typing", "mneme_desktop.rules"]
