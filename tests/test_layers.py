"""The layers of DESIGN.md §1, as the code imports them: every import of ours goes down (or stays
within its own package), and no two modules import each other, however far round, when they
are loaded. Read from the source with ``ast``: what runs at import time (module level, outside
``if TYPE_CHECKING``) makes a cycle; an import inside a function runs later, but still may only
go down."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import veillee

ROOT = Path(veillee.__file__).parent

LAYERS: dict[str, int] = {
    "cards": 0,
    "config": 1,
    "games": 1,
    "sheets": 1,
    "store": 2,
    "bus": 2,
    "live": 3,
    "workers": 3,
    "tables": 4,
    "scores": 4,
    "web": 5,
    "cli": 6,
}
"""Each top-level module or package of ``veillee`` and its layer: a module may import from a
lower layer, or from its own package; never from a layer above, nor from a sibling of its own
layer (``tables`` does not import ``scores``, ``games`` does not import ``sheets``). ``config``
holds the settings, which any layer above may use."""


def modules() -> Iterator[tuple[str, Path]]:
    """Every module of the package: (dotted name, file)."""
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue  # Alembic's scripts, run by Alembic
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def imports(name: str, path: Path) -> Iterator[tuple[str, bool]]:
    """The modules of ours that ``name`` imports: (dotted name, whether at load time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def walk(node: ast.AST, at_load: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, at_load
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    # ``from veillee.live import chat``: the submodule, where there is one.
                    yield (
                        (f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base),
                        at_load,
                    )
            inner = at_load and not isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            yield from walk(child, inner)

    yield from ((m, load) for m, load in walk(tree, True) if m.split(".")[0] == "veillee")


known = {name for name, _ in modules()}


def layer(module: str) -> tuple[str, int]:
    """The top-level part of ``veillee.<part>…`` and its layer."""
    part = module.split(".")[1] if module.count(".") else ""
    assert part in LAYERS, f"{module}: which layer? (tests/test_layers.py LAYERS)"
    return part, LAYERS[part]


def test_every_import_goes_down_the_layers() -> None:
    wrong = []
    for name, path in modules():
        if name == "veillee":
            continue
        part, level = layer(name)
        for target, _ in imports(name, path):
            if target == "veillee":
                continue
            their_part, their_level = layer(target)
            if their_part != part and their_level >= level:
                wrong.append(
                    f"{name} imports {target} ({part} {level} -> {their_part} {their_level})"
                )
    assert wrong == []


def test_no_import_cycle_when_modules_load() -> None:
    graph = {
        name: {t for t, at_load in imports(name, path) if at_load and t in known and t != name}
        for name, path in modules()
    }
    # A package's __init__ that re-exports its modules is loaded by them: that edge is Python's
    # own, not a cycle of ours.
    for name, targets in graph.items():
        targets -= {p for p in targets if name.startswith(p + ".")}
    seen: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        seen[node] = 1
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt) :], nxt])
            elif nxt not in seen:
                visit(nxt, [*trail, nxt])
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node, [node])
    assert cycles == []


def test_the_checks_can_fail() -> None:
    # A module of the table layer importing the web layer would be caught.
    assert layer("veillee.tables.service")[1] < layer("veillee.web.app")[1]
    assert layer("veillee.games.chouine.rules")[1] == layer("veillee.sheets.model")[1]
    tree = Path(ROOT / "live" / "records.py")
    assert ("veillee.store", True) in set(imports("veillee.live.records", tree))
