"""A log changed after it was recorded: every command names the changed line first.

The tamper changes one die in a stored line without rehashing it (what a hand edit does). The
changed die ends the game early, so the current rules refuse a later event: that refusal must
never be what people are told.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tabletape
import tests.cli.test_recording
from tabletape.ledger import Ledger
from tests.cli.test_recording import ROOT, Cli, fails, flat

CHANGED = "game {game} fails verification at event 2: its hash does not match its bytes"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """The ``Cli`` helper on the whole command set (``note``, ``fork``, ``undo`` included)."""
    monkeypatch.setattr(tests.cli.test_recording, "app", tabletape.build_app())
    return Cli(tmp_path / "ledger")


def tampered(cli: Cli) -> str:
    """A tiny game (target 10) whose roll at event 2 was changed from 2 to 6 by hand.

    As recorded: 2 + 3 + 3 = 8, and bob adds 1 at event 5. As changed: 6 + 3 + 3 = 12 ends the
    game at event 4, so the rules refuse event 5.
    """
    game = cli.new("ann", "bob")
    for action in (("roll", "dice=2"), ("add", "n=3"), ("add", "n=3"), ("add", "n=1")):
        cli.ok("record", game, *action)
    path = Ledger(cli.root).path(game)
    lines = path.read_bytes().splitlines(keepends=True)
    assert b'"dice":[2]' in lines[1]
    lines[1] = lines[1].replace(b'"dice":[2]', b'"dice":[6]')
    path.write_bytes(b"".join(lines))
    return game


@pytest.mark.parametrize("command", [("status",), ("actions",), ("record", "add", "n=1")])
def test_commands_name_the_changed_event_not_a_later_refusal(cli: Cli, command: tuple[str, ...]
                                                            ) -> None:
    game = tampered(cli)
    output = fails(cli, 1, command[0], game, *command[1:], game=game)
    assert CHANGED.format(game=game) in output
    assert f"tabletape verify {game}" in output
    assert "refused by the current rules" not in output


def test_the_fast_record_path_names_the_changed_event(cli: Cli) -> None:
    game = tampered(cli)
    before = cli.log_bytes(game)
    done = subprocess.run([sys.executable, "-m", "tabletape", "record", game, "add", "n=1",
                           "--ledger", str(cli.root)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert CHANGED.format(game=game) in flat(done.stderr)
    assert cli.log_bytes(game) == before


def test_note_and_undo_never_append_after_a_changed_line(cli: Cli) -> None:
    game = tampered(cli)
    for command in (("note", game, "a note"), ("undo", game)):
        output = fails(cli, 1, *command, game=game)
        assert CHANGED.format(game=game) in output


def test_append_checks_the_chain_without_a_verified_head(cli: Cli) -> None:
    """``Ledger.append`` from a fresh process state checks the whole chain under its lock."""
    from tabletape.ledger import Damaged, Noted

    game = tampered(cli)
    store = Ledger(cli.root)
    before = store.path(game).read_bytes()
    with pytest.raises(Damaged) as caught:
        store.append(game, [("table", Noted(text="x"))], expected_seq=5)
    assert caught.value.seq == 2
    assert store.path(game).read_bytes() == before


def test_log_shows_the_log_with_the_changed_line_marked(cli: Cli) -> None:
    game = tampered(cli)
    result = cli("log", game)
    assert result.exit_code == 1
    assert CHANGED.format(game=game) in flat(result.stderr)
    lines = {line.split()[0]: line for line in result.stdout.splitlines()
             if line.strip()[:1].isdigit()}
    assert set(lines) == {"1", "2", "3", "4", "5"}
    assert "BAD: its hash does not match" in lines["2"] and "not verified" in lines["3"]
    rows = json.loads(cli("log", game, "--json").stdout)
    assert [row["seq"] for row in rows] == [1, 2, 3, 4, 5]
    assert [row["verified"] for row in rows] == [True, False, False, False, False]


def test_list_json_says_which_games_are_damaged_and_how(cli: Cli) -> None:
    good = cli.new("cat")
    game = tampered(cli)
    rows = {row["game"]: row for row in json.loads(cli.ok("list", "--json").stdout)}
    assert rows[good]["damaged"] == "" and rows[good]["first_bad_seq"] is None
    assert rows[game]["first_bad_seq"] == 2
    assert "its hash does not match its bytes" in rows[game]["damaged"]
    assert rows[game]["events"] == 5
    assert "damaged at event 2" in flat(cli.ok("list").stdout)


def test_repair_explains_what_to_do_about_a_changed_line(cli: Cli) -> None:
    game = tampered(cli)
    output = fails(cli, 1, "repair", game, game=game)
    assert "only cuts what a crash left half-written" in output
    assert f"tabletape fork {game} --at seq=1" in output
    assert not list((cli.root / "games").glob("*.bak"))


def test_fork_from_the_last_good_event_of_a_changed_log(cli: Cli) -> None:
    game = tampered(cli)
    made = json.loads(cli.ok("fork", game, "--at", "seq=1", "--json").stdout)
    assert made["fork_seq"] == 1
    cli.ok("record", made["game"], "roll", "dice=2")
    assert cli.ok("verify", made["game"]).exit_code == 0
