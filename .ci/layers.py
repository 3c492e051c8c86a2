#!/usr/bin/env python3
"""Check tabletape's layers and that no import cycle exists (``.ci/layers`` runs this).

The layers, lowest first: ``tabletape.ledger`` -> ``tabletape.rules`` -> ``tabletape.replay``
-> ``tabletape.queries`` -> the command line (every other ``tabletape`` module). A module may
import its own layer and those below it, never one above; only the command line imports typer.

Every ``import`` in a module counts: at module level, inside functions and classes, and under
``if TYPE_CHECKING:`` (a type-only import is still a dependency on that module: it holds the
layer contract, and it may not close a cycle either). An ``importlib.import_module("...")``
call with a literal name counts too; a name computed at run time (the manifest's
``"module:attribute"`` strings) cannot be seen here, which is why the code that loads a game's
views sits in replay and the code that loads its projections in queries.

Importing ``a.b.c`` also runs the ``__init__`` of ``a`` and ``a.b``; those implied imports are
not edges here (each package's ``__init__`` is checked as a module of its own), so that
``tabletape/__init__.py`` being the command line does not make every module depend on it.

The module graph is read from the source folders as ``pyproject.toml`` maps them (no install
needed). Exit status 1 with each offending import chain printed, 0 when clean.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tabletape"
LAYERS = ("tabletape.ledger", "tabletape.rules", "tabletape.replay", "tabletape.queries",
          PACKAGE)
"""Lowest first; the last one (``tabletape`` itself) is every module not in another."""
CLI_ONLY = ("typer", "click")
"""Third-party packages only the command line may import."""


class Import(NamedTuple):
    """One import statement: who imports what, where."""

    importer: str
    imported: str
    path: str
    line: int


def source_roots(root: Path = ROOT) -> dict[str, Path]:
    """Each package's dotted name mapped to its folder, as setuptools maps them."""
    mapping = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = {name: root / folder for name, folder in mapping["package-dir"].items()}
    return {PACKAGE: root / PACKAGE, **dirs}


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    found: dict[str, Path] = {}
    for name, folder in source_roots(root).items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if any(part.startswith(".") or "-" in part for part in parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if name == PACKAGE and parts and parts[0] in {
                    key.split(".")[1] for key in source_roots(root) if key != PACKAGE}:
                continue
            found[".".join((name, *parts))] = path
    return found


def absolute(module: str, path: Path, level: int, name: str | None) -> str:
    """The dotted name a (possibly relative) ``from`` import names."""
    if level == 0:
        return name or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - level + 1]
    return ".".join([*base, name] if name else base)


def imports_of(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every dotted name ``module`` imports, with its line (``from a import b`` yields ``a.b``:
    :func:`resolve` finds the module ``a.b``, or ``a`` when ``b`` is a name in it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = absolute(module, path, node.level, node.module)
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno  # the module a.b, else a's name b
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, node.lineno


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of ours ``name`` is (or is in), else None (a third-party or stdlib name)."""
    parts = name.split(".")
    for size in range(len(parts), 0, -1):
        candidate = ".".join(parts[:size])
        if candidate in known:
            return candidate
    return None


def graph(root: Path = ROOT) -> tuple[list[Import], list[Import]]:
    """Our imports (module -> module, self-imports dropped) and third-party imports of the
    command-line-only packages."""
    known = modules(root)
    ours: dict[tuple[str, str], Import] = {}
    outside: list[Import] = []
    for module, path in known.items():
        where = str(path.relative_to(root))
        for name, line in imports_of(module, path):
            target = resolve(name, known)
            if target is None:
                if name.split(".")[0] in CLI_ONLY:
                    outside.append(Import(module, name, where, line))
                continue
            if target == module:
                continue
            ours.setdefault((module, target), Import(module, target, where, line))
    return list(ours.values()), outside


def _is_package(name: str, known: dict[str, Path]) -> bool:
    return known[name].name == "__init__.py"


def layer(module: str) -> int:
    """The index of ``module``'s layer in :data:`LAYERS`."""
    for index, name in enumerate(LAYERS[:-1]):
        if module == name or module.startswith(f"{name}."):
            return index
    return len(LAYERS) - 1


def upward(edges: list[Import]) -> list[Import]:
    """Imports of a higher layer by a lower one."""
    return [edge for edge in edges if layer(edge.imported) > layer(edge.importer)]


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    succ: dict[str, list[str]] = {}
    for edge in edges:
        succ.setdefault(edge.importer, []).append(edge.imported)
        succ.setdefault(edge.imported, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(succ):
        if start in index:
            continue
        work = [(start, iter(sorted(succ[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(succ[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def cycle_chain(component: list[str], edges: list[Import]) -> list[Import]:
    """One cycle through the first module of ``component``, as the imports that close it."""
    inside = set(component)
    by_importer: dict[str, list[Import]] = {}
    for edge in edges:
        if edge.importer in inside and edge.imported in inside:
            by_importer.setdefault(edge.importer, []).append(edge)
    start = component[0]
    paths: dict[str, list[Import]] = {start: []}
    frontier = [start]
    while frontier:  # breadth first: the shortest way back to the start
        following = []
        for node in frontier:
            for edge in sorted(by_importer.get(node, []), key=lambda e: e.imported):
                if edge.imported == start:
                    return [*paths[node], edge]
                if edge.imported not in paths:
                    paths[edge.imported] = [*paths[node], edge]
                    following.append(edge.imported)
        frontier = following
    return []


def package_edges(edges: list[Import], known: dict[str, Path]) -> list[Import]:
    """The imports between packages (a module stands for the package that holds it), for
    cycles among packages. A package and the packages inside it are not a cycle (a parent
    runs when its child is imported anyway); siblings that import each other are."""
    lifted: dict[tuple[str, str], Import] = {}
    for edge in edges:
        source = _package_of(edge.importer, known)
        target = _package_of(edge.imported, known)
        if source == target or target.startswith(f"{source}.") or source.startswith(f"{target}."):
            continue
        lifted.setdefault((source, target), Import(source, target, edge.path, edge.line))
    return list(lifted.values())


def _package_of(module: str, known: dict[str, Path]) -> str:
    return module if _is_package(module, known) else module.rsplit(".", 1)[0]


def describe(edge: Import) -> str:
    return f"  {edge.importer} -> {edge.imported}  ({edge.path}:{edge.line})"


def problems(root: Path = ROOT) -> list[str]:
    """Every violation, worded, each with its import chain; empty when the contract holds."""
    edges, outside = graph(root)
    known = modules(root)
    found = [f"{LAYERS[layer(e.importer)]} imports a higher layer:\n{describe(e)}"
             for e in sorted(upward(edges), key=lambda e: (e.path, e.line))]
    found += [f"only the command line imports {e.imported.split('.')[0]}:\n{describe(e)}"
              for e in sorted(outside, key=lambda e: (e.path, e.line))
              if layer(e.importer) != len(LAYERS) - 1]
    for kind, graph_edges in (("modules", edges), ("packages", package_edges(edges, known))):
        for component in cycles(graph_edges):
            chain = "\n".join(describe(edge) for edge in cycle_chain(component, graph_edges))
            found.append(f"import cycle among {len(component)} {kind} "
                         f"({', '.join(component)}); one loop:\n{chain}")
    return found


def main() -> int:
    found = problems()
    for problem in found:
        print(problem)
    if found:
        print(f"\n{len(found)} layer or cycle violation(s)")
        return 1
    print("layers: ledger -> rules -> replay -> queries -> command line; no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
