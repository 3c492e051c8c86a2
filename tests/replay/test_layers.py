"""The import rules: narrators and projections read the state the rules derived (they never
call rule internals), and the layer contract ``.ci/layers`` checks holds and catches what it
should."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from tabletape.replay.parts import PART_LAYERS, game_part
from tabletape.rules.registry import manifests

ROOT = Path(__file__).resolve().parents[2]
READERS = sorted([*ROOT.glob("replay/games/*.py"), *ROOT.glob("queries/games/*.py")])


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
        for alias in node.names}


@pytest.mark.parametrize("path", READERS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_narrator_or_projection_imports_no_moves(path: Path) -> None:
    moves = sorted(m for m in imported_modules(path) if m.split(".")[-1] == "moves")
    assert moves == [], f"{path.name} calls rule internals: {moves}"


def test_there_are_readers_to_check() -> None:
    assert len(READERS) >= 6


# -- the layer contract (.ci/layers) -------------------------------------------------------------


def layer_check() -> ModuleType:
    """``.ci/layers.py`` loaded as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("layers_check", ROOT / ".ci" / "layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_layer_contract_holds() -> None:
    """``.ci/layers`` (what CI runs) finds no upward import, no typer below the command line and
    no import cycle, imports inside functions and under TYPE_CHECKING included."""
    done = subprocess.run(["bash", str(ROOT / ".ci" / "layers")], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no cycle" in done.stdout


PYPROJECT = """
[tool.setuptools.package-dir]
"tabletape.ledger" = "ledger"
"tabletape.rules" = "rules"
"tabletape.replay" = "replay"
"tabletape.queries" = "queries"
"""


def tree(root: Path, files: dict[str, str]) -> Path:
    """A repository laid out as tabletape's, holding ``files`` (path: source) besides empty
    packages."""
    (root / "pyproject.toml").write_text(PYPROJECT)
    for folder in ("ledger", "rules", "replay", "queries", "tabletape"):
        (root / folder).mkdir()
        (root / folder / "__init__.py").write_text("")
    for path, source in files.items():
        (root / path).write_text(textwrap.dedent(source))
    return root


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    check = layer_check()
    root = tree(tmp_path, {"ledger/store.py": "import os\n",
                           "replay/fold.py": "from tabletape.ledger import store\n",
                           "tabletape/cli.py": "import typer\nfrom tabletape.replay import fold\n"})
    assert check.problems(root) == []


def test_an_upward_import_inside_a_function_is_found(tmp_path: Path) -> None:
    check = layer_check()
    root = tree(tmp_path, {
        "replay/fold.py": "x = 1\n",
        "ledger/store.py": "def f():\n    from tabletape.replay.fold import x\n"})
    [problem] = check.problems(root)
    assert "tabletape.ledger imports a higher layer" in problem
    assert "tabletape.ledger.store -> tabletape.replay.fold  (ledger/store.py:2)" in problem


def test_a_cycle_closed_inside_a_function_is_found(tmp_path: Path) -> None:
    check = layer_check()
    root = tree(tmp_path, {"replay/a.py": "from tabletape.replay import b\n",
                           "replay/b.py": "def f():\n    from tabletape.replay.a import g\n"})
    [problem] = check.problems(root)
    assert "import cycle among 2 modules" in problem
    assert "tabletape.replay.a -> tabletape.replay.b  (replay/a.py:1)" in problem
    assert "tabletape.replay.b -> tabletape.replay.a  (replay/b.py:2)" in problem


def test_a_type_checking_import_counts(tmp_path: Path) -> None:
    """A type-only import is a dependency too: it may not close a cycle nor point upward."""
    check = layer_check()
    root = tree(tmp_path, {
        "rules/a.py": "from tabletape.rules import b\n",
        "rules/b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from tabletape.rules.a import A\n"
                       "    from tabletape.queries import q\n"),
        "queries/q.py": ""})
    found = "\n".join(check.problems(root))
    assert "import cycle among 2 modules (tabletape.rules.a, tabletape.rules.b)" in found
    assert "tabletape.rules.b -> tabletape.queries.q  (rules/b.py:4)" in found


def test_typer_and_a_literal_import_module_below_the_command_line_are_found(
        tmp_path: Path) -> None:
    check = layer_check()
    root = tree(tmp_path, {
        "queries/plot.py": "import typer\n",
        "replay/quick.py": "import importlib\nimportlib.import_module('tabletape.cli')\n",
        "tabletape/cli.py": ""})
    found = "\n".join(check.problems(root))
    assert "only the command line imports typer" in found and "(queries/plot.py:1)" in found
    assert "tabletape.replay.quick -> tabletape.cli  (replay/quick.py:2)" in found


def test_a_cycle_among_sibling_packages_is_found(tmp_path: Path) -> None:
    """Two packages of one layer importing each other, through different modules."""
    check = layer_check()
    root = tree(tmp_path, {})
    for package, other in (("one", "two"), ("two", "one")):
        (root / "rules" / package).mkdir()
        (root / "rules" / package / "__init__.py").write_text("")
        (root / "rules" / package / "a.py").write_text(f"from tabletape.rules.{other} import b\n")
        (root / "rules" / package / "b.py").write_text("")
    [problem] = check.problems(root)
    assert "import cycle among 2 packages (tabletape.rules.one, tabletape.rules.two)" in problem


@pytest.mark.parametrize("kind", sorted(manifests()))
def test_a_games_parts_live_in_the_layer_that_loads_them(kind: str) -> None:
    """A manifest's ``"module:attribute"`` parts are imported at run time, unseen by the layer
    check: each must sit in the layer that loads it or below (a view in replay, projections in
    queries, the rules in rules)."""
    check = layer_check()
    manifest = manifests()[kind]
    for part, layer in PART_LAYERS.items():
        where = getattr(manifest, part)
        if isinstance(where, str) and where.startswith("tabletape."):
            module = where.partition(":")[0]
            assert check.layer(module) <= check.LAYERS.index(layer), (part, where)


def test_replay_loads_no_part_of_a_higher_layer() -> None:
    with pytest.raises(ValueError, match=r"tabletape\.queries does"):
        game_part("risk-strike", "projections")
