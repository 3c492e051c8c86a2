"""``.ci/typecheck`` gives mypy the package as it installs (mypy cannot follow ``package-dir``)."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = runpy.run_path(str(ROOT / ".ci" / "typecheck"))  # not run as __main__: no mypy here


def test_the_link_farm_is_the_installed_layout(tmp_path: Path) -> None:
    package = SCRIPT["link_farm"](tmp_path)
    for folder in ("ledger", "rules", "replay", "queries"):
        assert (package / folder / "__init__.py").resolve() == ROOT / folder / "__init__.py"
    assert (package / "__init__.py").resolve() == ROOT / "tabletape" / "__init__.py"


def test_reports_name_the_repository_files() -> None:
    report = "tabletape/rules/kernel.py:3: error: x\ntabletape/__init__.py:9: error: y\n"
    assert SCRIPT["repository_paths"](report) == (
        "rules/kernel.py:3: error: x\ntabletape/__init__.py:9: error: y\n")
