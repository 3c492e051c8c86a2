"""Narrators and projections read the state the rules derived: they never call rule internals."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
