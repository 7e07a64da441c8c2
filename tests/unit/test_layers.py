"""The layers of design.md, read from the source: cli/http -> commands -> rules/projections ->
events; commands -> storage -> events. Every import of the package is checked, those inside
functions too, and no two modules import each other, however indirectly. A ruleset's package
(tablelog/rulesets/NAME/) keeps the same layers inside it: each of its rooms stands where its
core layer does (events, rules, views as projections, endpoints as commands, cli), may import
its own package's rooms below it and the core's, and never another ruleset."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tablelog"

# What each layer may import of the package, besides itself.
BASE = {"errors", "rulesets", "packing"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "rulesets": set(),
    "progress": set(),
    "packing": set(),
    "workers": set(),
    "__init__": set(),
    "__main__": {"cli"},
    "events": BASE,
    "rules": BASE | {"events"},
    "projections": BASE | {"events", "rules"},
    "storage": BASE | {"events", "progress", "workers", "migrations"},
    "migrations": BASE | {"storage"},
    "commands": BASE
    | {"events", "rules", "projections", "storage", "progress", "workers", "migrations", "notices"},
    "cli": BASE
    | {"commands", "projections", "rules", "events", "progress", "__init__", "notices", "discord"},
    "http": BASE | {"commands", "projections", "rules", "events", "__init__", "notices", "discord"},
    # Discord's slash commands: an adapter over commands/ like cli/ and http/, which reads a
    # slash command with the CLI's own parser (so it means what the CLI line means).
    "discord": BASE | {"commands", "projections", "rules", "events", "cli"},
    # Telling players outside the service (mail): a transport, knowing nothing of the log.
    "notices": {"errors"},
    # For a ruleset's own tests: the application API, as a test would drive it.
    "testing": BASE | {"commands", "projections", "events", "storage"},
}
# `tablelog serve` starts the service: the one CLI module that may import it.
EXCEPTIONS = {("cli/serve.py", "http")}
NO_SQL = {"cli", "http", "discord", "rules", "projections", "events"}


def modules() -> Iterator[Path]:
    yield from sorted(PACKAGE.rglob("*.py"))


def name_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# A ruleset package's rooms, and the core layer each stands in for.
ROOMS = {
    "events": "events",
    "rules": "rules",
    "views": "projections",
    "endpoints": "commands",
    "cli": "cli",
}


def ruleset_room(path: Path) -> tuple[str, str] | None:
    """(its ruleset package, its room) for a module inside a ruleset's package."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if len(parts) >= 3 and parts[0] == "rulesets":
        return parts[1], parts[2]
    return None


def layer_of(path: Path) -> str:
    found = ruleset_room(path)
    if found is not None:
        return ROOMS.get(found[1], "__init__")  # a package's own __init__: its docstring only
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


NAMES = {name_of(p) for p in modules()}


def _nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below `node` but those under `if TYPE_CHECKING:` (no import at run time)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from (n for orelse in child.orelse for n in [orelse, *_nodes(orelse)])
            continue
        yield child
        yield from _nodes(child)


def imports(path: Path) -> Iterator[str]:
    """Every module `path` imports at run time, by its full name (no relative imports here)."""
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            # `from tablelog.rulesets.improv.rules import commands`: the submodule, not the package.
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                yield submodule if submodule in NAMES else node.module


def known(name: str, names: set[str]) -> str | None:
    """The package module `name` is (or is inside), if any."""
    while name:
        if name in names:
            return name
        name = name.rpartition(".")[0]
    return None


def test_every_import_keeps_to_its_layer() -> None:
    broken = []
    for path in modules():
        here = layer_of(path)
        where = str(path.relative_to(PACKAGE))
        for imported in imports(path):
            if imported.split(".")[0] == "sqlalchemy" and here in NO_SQL:
                broken.append(f"{where} imports {imported}")
            if not imported.startswith("tablelog.") or imported == "tablelog.__version__":
                continue
            target = imported.split(".")[1]
            if target == "__version__":
                target = "__init__"
            parts = imported.split(".")
            if target == "rulesets" and len(parts) > 2:  # a ruleset package's room
                mine = ruleset_room(path)
                if mine is None or parts[2] != mine[0]:
                    broken.append(f"{where} ({here}) imports another ruleset's {imported}")
                    continue
                target = ROOMS.get(parts[3], "__init__") if len(parts) > 3 else "__init__"
            if target == here or target in ALLOWED[here] or (where, target) in EXCEPTIONS:
                continue
            broken.append(f"{where} ({here}) imports {imported}")
    assert broken == []


def test_no_modules_import_each_other() -> None:
    paths = list(modules())
    graph: dict[str, set[str]] = {}
    for path in paths:
        found = {known(i, NAMES) for i in imports(path) if i.startswith("tablelog")}
        graph[name_of(path)] = {f for f in found if f and f != name_of(path) and f != "tablelog"}
    cycles = []
    for start in sorted(graph):
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            current = todo.pop()
            if current == start:
                cycles.append(start)
                break
            if current in seen:
                continue
            seen.add(current)
            todo.extend(graph.get(current, ()))
    assert cycles == []


def test_core_modules_never_name_a_ruleset() -> None:
    """Only the registry and each ruleset's own modules know a ruleset: core code neither
    imports one's modules nor holds its name as a value (help texts may show examples)."""
    from tablelog import rulesets

    own = {
        module
        for place in rulesets.places()
        for module in (place.events, place.rules, place.views, place.commands, place.cli)
    }
    named = []
    for path in modules():
        name = name_of(path)
        if name == "tablelog.rulesets" or known(name, own) is not None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        values = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        named += [f"{name} holds {v!r}" for v in values if v in rulesets.names()]
        named += [f"{name} imports {i}" for i in imports(path) if known(i, own)]
    assert named == []
