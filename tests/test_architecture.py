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


# Each module's layer: a module imports only its own layer or lower ones. 0: rules; 1: bots;
# 2: the table's data and reads; 3: the writers; 4: live publishing, background work and
# alerts; 5: tasks, API, pages, sockets, wiring and config. Inside tables/, every room
# (tables/<room>/) names its files alike, and the file's name gives its layer: a new room
# follows the pattern without touching this table.
DATA = {
    "models", "selectors", "payloads", "schemas", "state_schema", "engine", "replays", "glicko2",
    "identity", "vacation_days", "prefs", "texts", "errors", "text_input", "reads", "writes",
    "announcements", "csp", "registry",
}  # fmt: skip
WRITERS = {"services"}
FOLLOWERS = {
    "events",
    "scheduling",
    "embedded",
    "alerts",
    "notify",
    "push",
    "presence",
    "watchers",
    "emails",
    "checks",
    "inbox",
}
LIVE = {"tables.live.events"}
BACKGROUND = {"tables.background.scheduling", "tables.background.embedded"}
# Where everything meets: Django's and Celery's wiring, the root API and URLs.
WIRING = {
    "tables",
    "tables.apps",
    "tables.models",
    "tables.api",
    "tables.api_errors",
    "tables.urls",
    "tables.admin",
}
# A room's private files: another room never imports them (the root wiring and config do).
PRIVATE = {"api", "views", "tasks", "urls", "consumers", "routing", "apps", "management"}


def layer(name: str) -> int:
    top = name.split(".")[0]
    if top == "rules":
        return 0
    if top == "bots":
        return 1
    if top != "tables" or name in WIRING or name.startswith("tables.templatetags"):
        return 5
    parts = name.split(".")[2:]  # the path inside the room
    if not parts:
        return 2  # a room's __init__ holds a docstring
    if parts[0] in WRITERS:
        return 3
    if parts[0] in DATA:
        return 2
    if parts[0] in FOLLOWERS:
        return 4
    return 5


def room_of(name: str) -> str | None:
    """The room (tables/<room>/) a module lives in; None for the root wiring and outside tables."""
    parts = name.split(".")
    wiring = name in WIRING or name.startswith("tables.templatetags")
    return parts[1] if parts[0] == "tables" and len(parts) > 2 and not wiring else None


def private_imports(imports: list[Import]) -> list[str]:
    """Imports of another room's private module (its API, pages, tasks, sockets, wiring)."""
    found = []
    for item in imports:
        source, target = room_of(item.source), room_of(item.target)
        if source is None or target is None or source == target:
            continue
        if item.target.split(".")[2] in PRIVATE:
            found.append(f"{item.source} imports {item.target}")
    return found


MAX_LINES = 400
SIZED = ("tables", "bots", "config")


def long_modules(paths: list[Path]) -> list[str]:
    """Modules over MAX_LINES lines (migrations aside): a module that long holds two subjects."""
    return [
        f"{path}: {count} lines"
        for path in paths
        if "migrations" not in path.parts
        for count in [len(path.read_text(encoding="utf-8").splitlines())]
        if count > MAX_LINES
    ]


def test_every_package_is_parsed():
    assert {"rules", "bots", "tables", "config", "tables.models", "tables.play.models"} <= set(MODULES)


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
PURE = (
    "tables.ratings.glicko2",
    "tables.tournaments.engine.pairing",
    "tables.tournaments.engine.groups",
    "tables.tournaments.engine.standings",
)


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_import_no_framework_and_no_project_module(name):
    found = list(imports_of(name, MODULES[name]))
    assert [item for item in found if isinstance(item, Import) or item in FRAMEWORKS] == []


def test_the_checks_catch_what_they_look_for(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert [
        layer(name) for name in ("tables.play.services.play", "tables.alerts.prefs", "tables.alerts.api")
    ] == [3, 2, 5]
    assert [
        layer(name)
        for name in ("tables.tournaments.models", "tables.tournaments.services", "tables.tournaments.views")
    ] == [2, 3, 5]
    assert (
        resolve("tables.play.services.play", ROOT / "tables/play/services/play.py", 2, "models")
        == "tables.play.models"
    )
    assert (
        resolve("tables.play.services", ROOT / "tables/play/services/__init__.py", 1, "play")
        == "tables.play.services.play"
    )
    sample = tmp_path / "sample.py"
    sample.write_text("import json\n\ndef later():\n    from tables.play import models\n", encoding="utf-8")
    found = list(imports_of("bots.sample", sample))
    assert found == ["json", Import("bots.sample", "tables.play.models", 4, scope="later")]
    assert found[1].nested and not found[1].wiring
    assert Import("tables.apps", "tables.play.tasks", 9, scope="ready").wiring


def test_a_planted_upward_import_is_found():
    planted = Import("tables.play.models", "tables.play.services.play", 3)
    assert layer(planted.target) > layer(planted.source)


def test_a_planted_import_of_another_rooms_private_module_is_found():
    planted = [
        Import("tables.archive.views", "tables.play.views", 3),  # another room's page
        Import("tables.challenges.services", "tables.play.tasks", 4),  # another room's tasks
        Import("tables.ratings.views", "tables.ratings.selectors", 5),  # its own room: allowed
        Import("tables.archive.api", "tables.play.api_caller", 6),  # another room's public module
        Import("tables.api", "tables.play.api", 7),  # the root API mounts every room's
    ]
    assert private_imports(planted) == [
        "tables.archive.views imports tables.play.views",
        "tables.challenges.services imports tables.play.tasks",
    ]


def test_a_planted_long_module_is_found(tmp_path):
    (tmp_path / "migrations").mkdir()
    long_one, short_one, migration = (
        tmp_path / "long.py",
        tmp_path / "short.py",
        tmp_path / "migrations" / "0001.py",
    )
    long_one.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    short_one.write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    migration.write_text("x = 1\n" * (MAX_LINES * 2), encoding="utf-8")
    assert long_modules([long_one, short_one, migration]) == [f"{long_one}: {MAX_LINES + 1} lines"]


def test_no_room_imports_another_rooms_private_modules():
    assert private_imports(all_imports()) == []


def test_no_module_is_longer_than_the_limit():
    assert long_modules([path for package in SIZED for path in sorted((ROOT / package).rglob("*.py"))]) == []


def test_every_room_is_a_package_of_the_one_app():
    """Rooms are packages of the tables app (one app label: no table renamed, no migration
    moved), each with a docstring saying what it holds."""
    rooms = [
        path
        for path in (ROOT / "tables").iterdir()
        if (path / "__init__.py").exists() and path.name != "migrations"
    ]
    assert {path.name for path in rooms} >= {"play", "archive", "ratings", "reviews", "challenges", "alerts"}
    for room in rooms:
        assert ast.get_docstring(ast.parse((room / "__init__.py").read_text(encoding="utf-8"))), room
