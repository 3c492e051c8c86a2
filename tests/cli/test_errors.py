"""One error base with an exit code: the full CLI and the fast ``record`` path end alike.

Exit statuses: 2 for input that is not understood, 1 for what is refused, damaged or failed.
"""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from tabletape.exits import failure
from tabletape.ledger import (
    Corrupt,
    Damaged,
    Ledger,
    LedgerError,
    NotALog,
    Rewritten,
    TornTail,
    UnfinishedAppend,
    UnknownGameId,
    VersionConflict,
)
from tabletape.ledger.errors import TabletapeError
from tabletape.ledger.transfer import TransferError
from tabletape.queries.catalog import CatalogError
from tabletape.queries.output import QueryRefused
from tabletape.quick import record_main
from tabletape.replay.engine import BadPoint
from tabletape.replay.fold import RefusedEvent
from tabletape.rules.actions import ActionSyntaxError
from tabletape.rules.kernel import BadOptions, IllegalAction, RulesError, UnknownGame
from tests.cli.test_recording import ROOT, Cli, flat
from tests.support.tinygame import Added

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "ledger")


def fast_record(cli: Cli, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``tabletape record ARGS`` through the fast path: its exit status and its error line."""
    capsys.readouterr()
    status = record_main([*args, "--ledger", str(cli.root)])
    assert status is not None, "the fast path took the command"
    return status, flat(capsys.readouterr().err)


def full_record(cli: Cli, *args: str) -> tuple[int, str]:
    """``tabletape record ARGS`` through typer: its exit status and its error line."""
    result = cli("record", *args)
    return result.exit_code, flat(result.stderr)


def test_a_stored_event_the_rules_refuse_ends_both_paths_alike(
        cli: Cli, capsys: pytest.CaptureFixture[str]) -> None:
    """An event appended past the rules (n=9) makes the next record a RefusedEvent: exit 1."""
    game = cli.new("ann", "bob")
    Ledger(cli.root).append(game, [("ann", Added(n=9))], expected_seq=1)
    full = full_record(cli, game, "add", "n=1", "by=bob")
    assert full[0] == 1 and "refused by the current rules" in full[1]
    assert fast_record(cli, capsys, game, "add", "n=1", "by=bob") == full


@pytest.mark.parametrize(("error_class", "code"), [
    (TabletapeError, 1),
    (LedgerError, 1),
    (UnknownGameId, 2),
    (NotALog, 1),
    (VersionConflict, 1),
    (TornTail, 1),
    (UnfinishedAppend, 1),
    (Corrupt, 1),
    (Damaged, 1),
    (Rewritten, 1),
    (TransferError, 1),
    (RulesError, 2),
    (IllegalAction, 1),
    (UnknownGame, 2),
    (BadOptions, 2),
    (ActionSyntaxError, 2),
    (BadPoint, 2),
    (RefusedEvent, 1),
    (CatalogError, 1),
    (QueryRefused, 2),
])
def test_every_error_class_declares_its_exit_code(error_class: type[TabletapeError],
                                                  code: int) -> None:
    assert issubclass(error_class, TabletapeError)
    assert error_class.exit_code == code


def test_an_os_error_is_one_line_and_exit_1() -> None:
    refused = failure(OSError(errno.EROFS, "Read-only file system", "/l/games/x.jsonl"))
    assert refused == ("/l/games/x.jsonl: the file system is read-only; nothing was changed: "
                       "use a writable --ledger", 1)


def test_an_illegal_action_says_illegal() -> None:
    assert failure(IllegalAction("not now", allowed=("later",))) == (
        "illegal: not now. Allowed: later.", 1)


@pytest.mark.parametrize(("action", "code"), [
    (("ad", "n=1"), 2),  # unknown action
    (("add", "m=1"), 2),  # unknown field
    (("add", "n=x"), 2),  # bad value
    (("add", "n=9"), 1),  # illegal
    (("add", "n=1", "--expect-seq", "7"), 1),  # the log moved on
])
def test_both_record_paths_end_alike(cli: Cli, capsys: pytest.CaptureFixture[str],
                                     action: tuple[str, ...], code: int) -> None:
    game = cli.new("ann", "bob")
    before = cli.log_bytes(game)
    full = full_record(cli, game, *action)
    assert full[0] == code and full[1].startswith("error: ")
    assert fast_record(cli, capsys, game, *action) == full
    assert cli.log_bytes(game) == before


def test_an_unknown_game_id_ends_both_paths_alike(cli: Cli,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    cli.new("ann", "bob")
    full = full_record(cli, "ty-nope", "add", "n=1")
    assert full[0] == 2 and "no game 'ty-nope'" in full[1]
    assert fast_record(cli, capsys, "ty-nope", "add", "n=1") == full


def test_the_layers_below_the_command_line_never_import_its_plumbing() -> None:
    """DESIGN: the CLI composes everything; the ledger, rules, the fold and the catalog never
    import it (nor typer)."""
    code = ("import sys; import tabletape.ledger, tabletape.rules.kernel, tabletape.replay.fold, "
            "tabletape.replay.engine, tabletape.queries.catalog; "
            "assert not {'tabletape.cli', 'typer'} & set(sys.modules), 'imported'")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_no_module_below_the_command_line_imports_it_when_run() -> None:
    """Every module of ledger, rules, replay and queries imported, functions not run: none of
    them pulls in the command line, typer or click (the run-time side of ``.ci/layers``, which
    reads the imports inside functions too)."""
    code = ("import importlib, importlib.util, sys\n"
            "spec = importlib.util.spec_from_file_location('layers_check', '.ci/layers.py')\n"
            "check = importlib.util.module_from_spec(spec); spec.loader.exec_module(check)\n"
            "below = [m for m in check.modules() if check.layer(m) < len(check.LAYERS) - 1]\n"
            "assert len(below) > 100, below\n"
            "for name in below: importlib.import_module(name)\n"
            "upper = ('typer', 'click', 'tabletape.cli', 'tabletape.commands', 'tabletape.exits')\n"
            "print(sorted(m for m in sys.modules if m.startswith(upper)))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize(("action", "code"), [(("add", "n=1"), 0), (("add", "n=9"), 1)])
def test_the_fast_record_path_never_imports_typer(cli: Cli, action: tuple[str, ...],
                                                  code: int) -> None:
    """``tabletape record`` at the table, recorded or refused, starts without typer (or click)."""
    game = cli.new("ann", "bob")
    script = (f"import atexit, sys; sys.path.insert(0, {str(ROOT)!r}); "
              "import tests.support.tinygame; "
              "atexit.register(lambda: print('typer' in sys.modules or 'click' in sys.modules, "
              "file=sys.stderr)); from tabletape import main; main()")
    done = subprocess.run([sys.executable, "-c", script, "record", game, *action, "--ledger",
                           str(cli.root)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == code, done.stderr
    assert done.stderr.splitlines()[-1] == "False"
