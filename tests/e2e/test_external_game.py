"""A game defined entirely outside tabletape works like a shipped one, with no edit to tabletape.

``tests/e2e/external_game`` is a package of its own (its pyproject declares its manifest in the
``tabletape.games`` entry point group). It is pip-installed into a scratch virtual environment
that sees this interpreter's packages (tabletape included), and tabletape's command line in that
environment records, replays, audits, syncs, queries, simulates and demos it.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PACKAGE = Path(__file__).parent / "external_game"


class Venv:
    """A scratch virtual environment whose ``python`` also sees the test interpreter's
    packages (through a ``.pth`` line, so their own ``.pth`` files, editable installs, count)."""

    def __init__(self, root: Path) -> None:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
        self.python = str(root / "bin" / "python")
        inner = Path(self.run_python("import sysconfig; print(sysconfig.get_path('purelib'))"))
        outer = [*site.getsitepackages(), site.getusersitepackages()]
        lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in outer)
        (inner / "outer-site-packages.pth").write_text(lines)

    def run_python(self, code: str) -> str:
        return subprocess.run([self.python, "-c", code], check=True, capture_output=True,
                              text=True).stdout.strip()

    def install(self, package: Path, scratch: Path) -> None:
        """pip install ``package`` offline, its build backend taken from this environment."""
        copy = shutil.copytree(package, scratch / package.name)
        subprocess.run([self.python, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                        "--no-build-isolation", "--disable-pip-version-check", str(copy)],
                       check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def tabletape(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Runs ``tabletape ARGS`` in the venv holding Pebbles: returns (exit code, stdout)."""
    scratch = tmp_path_factory.mktemp("external")
    venv = Venv(scratch / "venv")
    venv.install(PACKAGE, scratch)
    env = {**os.environ, "TABLETAPE_LEDGER": str(scratch / "ledger"), "COLUMNS": "100"}
    env.pop("PYTHONPATH", None)

    def run(*args: str) -> tuple[int, str]:
        done = subprocess.run([venv.python, "-m", "tabletape", *args], capture_output=True,
                              text=True, env=env, cwd=scratch, timeout=300)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout + done.stderr

    return run


def test_an_installed_game_is_listed_beside_the_shipped_ones(tabletape) -> None:
    code, output = tabletape("games", "--json")
    rows = {row["kind"]: row for row in json.loads(output)}
    assert code == 0 and {"pebbles", "risk-strike"} <= set(rows)
    assert rows["pebbles"]["aliases"] == ["pb"] and rows["pebbles"]["id_prefix"] == "pb"
    assert rows["pebbles"]["parts"] == ["view", "narrate", "setup_notes", "conservation", "dice",
                                        "projections", "demo"]


def test_an_installed_game_records_replays_audits_and_syncs(tabletape) -> None:
    code, output = tabletape("new", "pb", "-p", "Olga,Patrick", "-o", "pile=5", "--seed", "7")
    assert code == 0 and "A pile of 5 pebbles." in output  # its setup notes
    game = output.split("game ")[1].split()[0]
    assert game.startswith("pb-")
    assert tabletape("record", game, "take", "n=3")[0] == 0
    code, output = tabletape("record", game, "take", "n=3")
    assert code == 1 and "take 1 to 2, not 3" in output  # its rules refuse
    assert tabletape("record", game, "roll")[0] == 0  # tabletape rolls its die
    code, output = tabletape("status", game, "--json")
    status = json.loads(output)
    assert code == 0 and status["kind"] == "pebbles" and status["seq"] == 3
    assert "pebbles left of 5" in tabletape("status", game)[1]  # its view
    code, output = tabletape("replay", game, "--narrate")
    assert code == 0 and "Olga takes 3; 2 left." in output  # its narration
    code, output = tabletape("replay", game, "--at", "seq=2")
    assert code == 0 and "2 pebbles left of 5" in output
    code, output = tabletape("audit", game, "--json")
    report = json.loads(output)
    assert code == 0 and report["ok"] and report["conservation_checked"]
    assert report["dice_checked"] and report["dice"]
    assert tabletape("sync")[0] == 0
    code, output = tabletape("sql", "select player, pebbles from pebbles_takes order by seq",
                             "-f", "json")
    rows = json.loads(output)
    assert code == 0 and rows[0] == {"player": "Olga", "pebbles": 3}
    assert rows[1]["player"] == "Patrick" and rows[1]["pebbles"] in (1, 2)


def test_an_installed_game_simulates_and_demos(tabletape) -> None:
    code, output = tabletape("simulate", "pebbles", "-n", "3", "--seed", "1")
    assert code == 0, output
    code, output = tabletape("demo", "--game", "pebbles")
    assert code == 0 and "Patrick took the last pebble" in output
    code, output = tabletape("sql", "select count(*) as n from games where kind = 'pebbles'",
                             "-f", "json", "--include-simulated")
    assert code == 0 and json.loads(output)[0]["n"] == 5
    code, output = tabletape("sql", "select count(*) as n from games where kind = 'pebbles'",
                             "-f", "json")  # the simulated games are left out unless asked
    assert code == 0 and json.loads(output)[0]["n"] == 1  # and the demo's (issue 27): was 2
