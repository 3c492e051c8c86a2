"""The repository's folders install as one package, ``tabletape`` (``tabletape.ledger`` ...).

The doctests of the source folders run here, through the installed package: ``testpaths`` is
``tests/``, and a doctest collected from ``ledger/store.py`` by path would import a second copy of
the module under the bare name ``ledger.store`` (duplicate classes, failing isinstance checks).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tabletape
from tabletape import ledger

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("ledger", "rules", "replay", "queries")


def modules() -> list[str]:
    names = ["tabletape"] + [m.name for m in pkgutil.walk_packages(tabletape.__path__, "tabletape.")
                             if m.name != "tabletape.__main__"  # importing it runs the CLI
                             and m.name.split(".")[1] not in FOLDERS]  # walked below
    for folder in FOLDERS:
        package = importlib.import_module(f"tabletape.{folder}")
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")]
    return names


@pytest.mark.parametrize("name", modules())
def test_doctests_of_the_installed_modules(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert doctest.testmod(module, optionflags=flags, verbose=False).failed == 0


def test_the_folders_are_the_tabletape_subpackages() -> None:
    for folder in FOLDERS:
        module = importlib.import_module(f"tabletape.{folder}")
        assert Path(module.__file__).parent == ROOT / folder  # type: ignore[arg-type]
        assert folder not in sys.modules  # no second copy under the bare name


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {"tabletape"} | {
        "tabletape." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in FOLDERS for init in (ROOT / folder).rglob("__init__.py")
    } | {".".join(init.parent.relative_to(ROOT).parts)  # the command line's own subpackages
         for init in (ROOT / "tabletape").rglob("__init__.py")}
    assert listed == found


def test_version_has_one_source() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "tabletape.ledger.__version__"}
    assert tabletape.version() == ledger.__version__


def test_python_dash_m_tabletape_prints_the_version() -> None:
    done = subprocess.run([sys.executable, "-m", "tabletape", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout == f"tabletape {ledger.__version__}\n"
