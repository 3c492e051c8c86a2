"""docs/architecture.md stays true: every file, module and name it mentions exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
FOLDERS = ("ledger", "rules", "replay", "queries", "tabletape")
ENTRY_POINT_GROUPS = {"tabletape.games"}
"""Dotted names in the page that are entry point groups, not modules."""


def mentioned(pattern: str) -> list[str]:
    return sorted({match for match in re.findall(pattern, DOC) if "<" not in match})


@pytest.mark.parametrize("path", mentioned(r"`([\w./<>-]+\.py)`"))
def test_every_file_it_names_exists(path: str) -> None:
    if "/" in path:
        assert (ROOT / path).exists(), path
    else:  # a bare name in a folder's row of the table
        assert any(any((ROOT / folder).rglob(path)) for folder in FOLDERS), path


@pytest.mark.parametrize("folder", mentioned(r"`((?:tests|docs|\.ci)/[\w/-]+)`"))
def test_every_folder_or_script_it_names_exists(folder: str) -> None:
    assert (ROOT / folder).exists(), folder


@pytest.mark.parametrize("dotted", sorted(set(mentioned(r"(tabletape(?:\.\w+)+)"))
                                             - ENTRY_POINT_GROUPS))
def test_every_dotted_name_it_names_imports(dotted: str) -> None:
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            found = getattr(found, attribute)
        return
    pytest.fail(f"{dotted} does not import")


@pytest.mark.parametrize("target", mentioned(r'"(tabletape\.[\w.]+:\w+|tabletape\.[\w.]+)"'))
def test_the_manifest_example_points_at_real_parts(target: str) -> None:
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    assert not attribute or hasattr(loaded, attribute), target
