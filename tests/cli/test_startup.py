"""Issue 15, start-up: the commands typed during a game start without what they do not use.

Speed itself is measured in ``bench/startup.py`` (never in tests); these tests guard the structure
that makes it: which modules a command imports, and that the fast path runs the very command typer
would run, with the same options and the same output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

import tabletape
from tabletape import quick

GAME = "rs-fast"
HEAVY = ("duckdb", "pydantic", "tabletape.queries", "tabletape.commands.replaying",
         "tabletape.prompt")
"""Never imported by an in-game command: the catalog, typer's parser (pydantic), the replay and
audit commands, the prompt."""

PROBE = """
import json, sys, tabletape
sys.argv = ["tabletape", *sys.argv[2:]]
try:
    tabletape.main()
    code = 0
except SystemExit as ended:
    code = ended.code or 0
with open(PROBE_OUT, "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def run_probe(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """Run ``tabletape ARGS`` in a fresh process: its exit status, imported modules, stdout."""
    found = tmp_path / "probe.json"
    code = f"PROBE_OUT = {str(found)!r}\n{PROBE}"
    env = {**os.environ, "TABLETAPE_LEDGER": str(tmp_path / "ledger"), "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-c", code, "-", *args], env=env,
                          capture_output=True, text=True, check=False)
    probe = json.loads(found.read_text())
    assert probe["code"] == done.returncode or done.returncode == 0, done.stderr
    return probe["code"], set(probe["modules"]), done.stdout


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A Risk Strike game for three, started through the command line."""
    code, modules, _ = run_probe(tmp_path, "new", "risk-strike", "-p", "ann", "-p", "bob",
                                 "-p", "cat", "--id", GAME, "--seed", "5")
    assert code == 0
    assert "tabletape.queries" not in modules and "duckdb" not in modules
    return tmp_path


def app_output(ledger: Path, *args: str) -> typer.testing.Result:
    """``tabletape ARGS`` through the whole typer app, as before the fast path."""
    return CliRunner().invoke(tabletape.build_app(), [*args, "--ledger", str(ledger)])


@pytest.mark.parametrize("command", ["status", "actions", "log", "undo"])
def test_an_in_game_command_imports_no_catalog_no_parser_no_other_game(
        game: Path, command: str) -> None:
    code, modules, _ = run_probe(game, command, GAME)
    assert code == (1 if command == "undo" else 0)  # nothing to undo yet: refused, exit 1
    assert not modules.intersection(HEAVY)
    assert not any(name.startswith(("tabletape.rules.marvel_united.",
                                    "tabletape.rules.risk_deep_space.")) for name in modules)
    assert "tabletape.rules.risk_strike.game" in modules


def test_record_does_not_import_typer(game: Path) -> None:
    code, modules, stdout = run_probe(game, "record", GAME, "deal", "player=ann",
                                      "continents=asia,asia,europe")
    assert code == 0, stdout
    assert "typer" not in modules and not modules.intersection(HEAVY)


@pytest.mark.parametrize("args", [("status", "--json"), ("actions", "--json"),
                                  ("log", "--json"), ("log", "--last", "1"), ("status",)])
def test_the_fast_path_prints_what_the_typer_command_prints(
        game: Path, args: tuple[str, ...]) -> None:
    run_probe(game, "record", GAME, "deal", "player=ann", "continents=asia,asia,europe")
    command, *options = args
    code, _, fast = run_probe(game, command, GAME, *options)
    full = app_output(game / "ledger", command, GAME, *options)
    assert (code, full.exit_code) == (0, 0)
    if "--json" in options:
        assert json.loads(fast) == json.loads(full.output)
    else:
        assert fast == full.output


def test_undo_through_the_fast_path_retracts_the_latest_action(game: Path) -> None:
    run_probe(game, "record", GAME, "deal", "player=ann", "continents=asia,asia,europe")
    code, _, _ = run_probe(game, "undo", GAME, "--json")
    assert code == 0
    status = json.loads(app_output(game / "ledger", "status", GAME, "--json").output)
    again = json.loads(run_probe(game, "status", GAME, "--json")[2])
    assert status == again
    log = json.loads(run_probe(game, "log", GAME, "--json")[2])
    assert [row["type"] for row in log][-2:] == ["deal", "undo"]


@pytest.mark.parametrize(("args", "code", "said"), [
    (("status", GAME, "--help"), 0, "Usage"),
    (("log", GAME, "--last", "x"), 2, "--last"),
    (("status", GAME, "--bogus"), 2, "--bogus"),
    (("status",), 2, "Missing argument"),
    (("status", GAME, "extra"), 2, "extra"),
    (("status", "rs-none"), 2, "no game 'rs-none'"),
])
def test_what_the_fast_path_does_not_understand_typer_answers(
        game: Path, args: tuple[str, ...], code: int, said: str) -> None:
    env = {**os.environ, "TABLETAPE_LEDGER": str(game / "ledger"), "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "tabletape", *args], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == code
    assert said in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_every_command_is_filed_under_its_module() -> None:
    """A command missing from COMMAND_HOMES would still run, but import every module."""
    for module in tabletape.COMMAND_MODULES:
        app = __import__(module, fromlist=["app"]).app
        for name in quick.command_names(app):
            assert tabletape.COMMAND_HOMES.get(name) == module, name
    assert set(quick.QUICK_COMMANDS) <= set(tabletape.COMMAND_HOMES)


def test_a_mistyped_or_absent_command_composes_every_module() -> None:
    assert tabletape.modules_for(["stauts"]) == tabletape.COMMAND_MODULES
    assert tabletape.modules_for([]) == tabletape.COMMAND_MODULES
    assert tabletape.modules_for(["sql", "select 1"]) == ("tabletape.commands.querying",)


def sample(
    game: Annotated[str, typer.Argument()],
    ledger: Annotated[Path | None, typer.Option("--ledger", envvar="SAMPLE_LEDGER")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    last: Annotated[int | None, typer.Option()] = None,
    strict: Annotated[bool, typer.Option()] = True,
) -> None:
    """A command declared as tabletape's are."""


def bound(*args: str) -> dict[str, object] | None:
    params = quick.command_params(sample)
    assert params is not None
    return quick.bind(params, args)


def test_options_are_read_from_the_command_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAMPLE_LEDGER", raising=False)
    assert bound("g") == {"game": "g", "ledger": None, "as_json": False, "last": None,
                          "strict": True}
    assert bound("--json", "g", "--last=3", "--ledger", "/x", "--no-strict") == {
        "game": "g", "ledger": Path("/x"), "as_json": True, "last": 3, "strict": False}
    monkeypatch.setenv("SAMPLE_LEDGER", "/from/env")
    assert bound("g")["ledger"] == Path("/from/env")  # type: ignore[index]
    assert bound("g", "--ledger", "/given")["ledger"] == Path("/given")  # type: ignore[index]


@pytest.mark.parametrize("args", [(), ("g", "h"), ("g", "--help"), ("g", "--last"),
                                  ("g", "--last", "three"), ("g", "--json=yes"), ("-g",)])
def test_anything_else_is_left_to_typer(args: tuple[str, ...]) -> None:
    assert bound(*args) is None


def test_a_parameter_typer_must_check_is_left_to_typer() -> None:
    def bounded(count: Annotated[int, typer.Option(min=1)] = 1) -> None:
        """A bound typer checks."""

    def listed(words: Annotated[list[str], typer.Argument()]) -> None:
        """A list typer collects."""

    assert quick.command_params(bounded) is None
    assert quick.command_params(listed) is None
