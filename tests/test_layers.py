"""The import layers, read from the source (ast over every package file, imports inside functions
included, so a circle hidden in a function body counts):

    entry points   memory/surfaces/ (the `lurker` commands, REST API, MCP server) and memory/cli.py
        |          may import everything below
    bot/           the chat lurkers: imports workers/ and the engine
        |
    workers/       queued ingestion, the event rules and sinks: imports the engine
        |
    engine         memory/ minus the entry points: imports none of the above

and no module reaches itself again through its imports (no circle, however long)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("memory", "workers", "bot")
ENTRY_POINTS = ("memory.surfaces", "memory.cli")  # memory/cli.py: the old console-script target
LAYERS = ("engine", "workers", "bot", "surfaces")  # each may import itself and what is before it


def layer(module: str) -> str:
    if any(module == e or module.startswith(e + ".") for e in ENTRY_POINTS):
        return "surfaces"
    return {"memory": "engine", "workers": "workers", "bot": "bot"}[module.split(".")[0]]


def modules(root: Path = ROOT) -> dict[str, Path]:
    """{dotted name: file} of every module of the packages (a package is its __init__)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """The first-party modules `name` imports, anywhere in the file, with the line."""
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from pkg import sub` imports the submodule; `from mod import name` the module
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a name: its module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.append((target, node.lineno))
    return out


def graph(root: Path = ROOT) -> dict[str, list[tuple[str, int]]]:
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def violations(edges: dict[str, list[tuple[str, int]]]) -> list[str]:
    out = []
    for source, targets in edges.items():
        for target, line in targets:
            if LAYERS.index(layer(target)) > LAYERS.index(layer(source)):
                out.append(f"{source} ({layer(source)}, line {line}) imports {target} "
                           f"({layer(target)})")
    return out


def cycles(edges: dict[str, list[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _line in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_every_import_points_down_the_layers():
    assert violations(graph()) == []


def test_no_import_circles():
    assert cycles(graph()) == []


def test_tests_do_not_import_other_test_modules():
    """Shared test code lives in support modules (fakes, recorders, helpers), not in test files."""
    offenders = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}:{node.lineno} {n}" for n in names
                          if n.rpartition(".")[2].startswith("test_")]
    assert offenders == []


def test_outside_the_engine_nothing_reaches_into_the_store():
    """bot/ and workers/ go through Profile and MemoryService, never `service.store`."""
    offenders = []
    for name, path in modules().items():
        if layer(name) not in ("workers", "bot"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "store" and (
                    isinstance(node.value, ast.Name) and node.value.id == "service"
                    or isinstance(node.value, ast.Attribute) and node.value.attr == "service"):
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


# --- the checker itself, on a small tree ----------------------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").touch()
    return tmp_path


def test_the_checker_sees_upward_imports_inside_functions(tmp_path):
    root = _tree(tmp_path, {
        "memory/engine.py": "def f():\n    from bot.core import x\n",
        "bot/core.py": "from memory import engine\nfrom workers.rules import y\n",
        "workers/rules.py": "import memory.engine\n",
        "memory/surfaces/cli.py": "from bot import core\n",
    })
    assert violations(graph(root)) == ["memory.engine (engine, line 2) imports bot.core (bot)"]


@pytest.mark.parametrize("files, expected", [
    ({"workers/app.py": "from . import tasks\n", "workers/tasks.py": "def f():\n    from .app "
      "import app\n"}, [["workers.app", "workers.tasks"]]),
    ({"memory/a.py": "from .b import x\n", "memory/b.py": "from memory.c import y\n",
      "memory/c.py": "import memory.a\n"}, [["memory.a", "memory.b", "memory.c"]]),
    ({"memory/a.py": "from .b import x\n", "memory/b.py": "import json\n"}, []),
])
def test_the_checker_finds_circles(tmp_path, files, expected):
    assert cycles(graph(_tree(tmp_path, files))) == expected
