"""One error base with an exit code: the full CLI and the fast ``record`` path end alike.

Exit statuses: 2 for input that is not understood, 1 for what is refused, damaged or failed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tabletape.replay.quick import record_main
from tests.test_cli import Cli, flat
from tests.tinygame import Added


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
