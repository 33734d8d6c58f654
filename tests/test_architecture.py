"""The code reads in one direction: rules <- bots <- the table's data <- the writers <- live
publishing, background work and alerts <- tasks, API, pages, sockets, config.

Every project module's imports are parsed (not executed): an import cycle, an import of a
project module tucked into a function, or one made by ``importlib`` with a string all hide a
dependency that points the wrong way, so each fails here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "bots", "tables", "config")
FRAMEWORKS = ("django", "celery", "channels", "ninja", "kombu", "redis")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the project module imported
    line: int
    scope: str | None = None  # the function or class whose body holds it, if any

    @property
    def nested(self) -> bool:
        return self.scope is not None

    @property
    def wiring(self) -> bool:
        """An app's ``AppConfig.ready``: Django's one place to import what needs the models
        loaded (receivers, tasks), run once at start-up."""
        return self.source.endswith(".apps") and self.scope == "ready"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> list[Path]:
    files = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    return sorted(path for path in files if "migrations" not in path.parts)


MODULES = {module_name(path): path for path in project_files()}


def is_project(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def resolve(source: str, path: Path, level: int, module: str | None) -> str:
    """The absolute name of a (possibly relative) import in module ``source``."""
    if level == 0:
        return module or ""
    package = source.split(".") if path.name == "__init__.py" else source.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_of(name: str, path: Path) -> Iterator[Import | str]:
    """Each project import of a module (an Import), and every framework it imports (a str)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node, scope in _walk(tree, scope=None):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(name, path, node.level, node.module)
            # ``from package import module`` imports that module, not just the package
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if is_project(target):
                yield Import(name, _known(target), node.lineno, scope)
            else:
                yield target.split(".")[0]


def _known(target: str) -> str:
    """The longest name of a project module that ``target`` starts with."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def _walk(node: ast.AST, scope: str | None) -> Iterator[tuple[ast.AST, str | None]]:
    for child in ast.iter_child_nodes(node):
        yield child, scope
        inner = scope
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inner = child.name  # the innermost body that holds an import names it
        elif isinstance(child, ast.Lambda):
            inner = "<lambda>"
        yield from _walk(child, inner)


def all_imports() -> list[Import]:
    return [
        found
        for name, path in MODULES.items()
        for found in imports_of(name, path)
        if isinstance(found, Import)
    ]


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for found in all_imports():
        if found.target != found.source:
            edges[found.source].add(found.target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
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
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


# Each module's layer (the longest prefix that names it): a module imports only its own layer
# or lower ones. 2: the table's data and reads; 3: the writers; 4: live publishing, background
# work and alerts; 5: tasks, API, pages, sockets, wiring and config.
LAYERS = {
    "rules": 0,
    "bots": 1,
    **dict.fromkeys(
        [
            "tables.models",
            "tables.engine",
            "tables.payloads",
            "tables.selectors",
            "tables.archive",
            "tables.replays",
            "tables.reads",
            "tables.writes",
            "tables.errors",
            "tables.changes",
            "tables.identity",
            "tables.text_input",
            "tables.vacation_days",
            "tables.periodic",
            "tables.csp",
            "tables.glicko2",
            "tables.player_stats",
            "tables.alerts.models",
            "tables.alerts.prefs",
            "tables.alerts.texts",
        ],
        2,
    ),
    "tables.services": 3,
    **dict.fromkeys(["tables.events", "tables.scheduling", "tables.embedded", "tables.alerts"], 4),
    **dict.fromkeys(
        ["tables.alerts.api", "tables.alerts.views", "tables.alerts.urls", "tables.alerts.apps"], 5
    ),
    "tables.alerts.management": 5,
    "tables": 5,
    "config": 5,
}
LIVE = {"tables.events"}
BACKGROUND = {"tables.scheduling", "tables.embedded"}


def layer(name: str) -> int:
    prefixes = [prefix for prefix in LAYERS if name == prefix or name.startswith(prefix + ".")]
    return LAYERS[max(prefixes, key=len)]


def test_every_package_is_parsed():
    assert {"rules", "bots", "tables", "config", "tables.models"} <= set(MODULES)


def test_no_import_cycle_between_project_modules():
    assert cycles(graph()) == []


def test_every_import_points_down_the_layers():
    upward = [
        f"{found.source} (layer {layer(found.source)}) imports {found.target} (layer {layer(found.target)})"
        for found in all_imports()
        if layer(found.target) > layer(found.source)
    ]
    assert upward == []


def test_live_publishing_and_background_work_know_nothing_of_each_other():
    crossing = [
        f"{found.source} imports {found.target}"
        for found in all_imports()
        if (found.source in LIVE and found.target in BACKGROUND)
        or (found.source in BACKGROUND and found.target in LIVE)
    ]
    assert crossing == []


def test_no_project_import_inside_a_function():
    nested = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in all_imports()
        if found.nested and not found.wiring
    ]
    assert nested == []


def test_no_project_module_imported_by_name_at_run_time():
    dynamic = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _calls_import(node.func):
                argument = node.args[0] if node.args else None
                if not isinstance(argument, ast.Constant) or is_project(str(argument.value)):
                    dynamic.append(f"{name}:{node.lineno}")
    assert dynamic == []


def _calls_import(func: ast.expr) -> bool:
    named = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return named in ("import_module", "__import__")


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name.split(".")[0] == "bots"))
def test_bots_know_neither_django_nor_the_tables(name):
    outside = [
        str(found)
        for found in imports_of(name, MODULES[name])
        if (isinstance(found, str) and found in FRAMEWORKS)
        or (isinstance(found, Import) and found.target.split(".")[0] in ("tables", "config"))
    ]
    assert outside == []


# Pure arithmetic kept inside the app: no framework, no project module.
PURE = ("tables.glicko2",)


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_import_no_framework_and_no_project_module(name):
    found = list(imports_of(name, MODULES[name]))
    assert [item for item in found if isinstance(item, Import) or item in FRAMEWORKS] == []


def test_the_checks_catch_what_they_look_for(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert (layer("tables.services.play"), layer("tables.alerts.prefs"), layer("tables.alerts.api")) == (
        3,
        2,
        5,
    )
    assert resolve("tables.services.play", ROOT / "tables/services/play.py", 2, "models") == "tables.models"
    assert (
        resolve("tables.services", ROOT / "tables/services/__init__.py", 1, "play") == "tables.services.play"
    )
    sample = tmp_path / "sample.py"
    sample.write_text("import json\n\ndef later():\n    from tables import models\n", encoding="utf-8")
    found = list(imports_of("bots.sample", sample))
    assert found == ["json", Import("bots.sample", "tables.models", 4, scope="later")]
    assert found[1].nested and not found[1].wiring
    assert Import("tables.apps", "tables.tasks", 9, scope="ready").wiring
