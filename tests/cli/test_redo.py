"""Issue 15: ``undo`` says who took the action back (``by=``), and ``redo`` records it again.

``redo`` re-appends the action the latest ``undo`` retracted as a new event, checked by the rules
now; several undos are redone in reverse order; anything recorded since the undo (but a note)
leaves nothing to redo. ``log``, ``log --json`` and ``audit`` show each redo.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletape import build_app
from tabletape.ledger import Ledger
from tabletape.replay.recording import open_game
from tabletape.rules.kernel import IllegalAction
from tests.cli import test_recording
from tests.cli.test_recording import Cli, flat
from tests.support.tinygame import Added, Tiny


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """The whole app (``audit`` and ``note`` are not in the recording commands' own app)."""
    monkeypatch.setattr(test_recording, "app", build_app())
    return Cli(tmp_path)


def records(cli: Cli, game: str) -> list[dict[str, object]]:
    rows = cli.json("log", game)
    assert isinstance(rows, list)
    return rows


def test_undo_by_names_who_took_the_action_back(cli: Cli) -> None:
    game = cli.new("Ann", "Bob")
    cli.ok("record", game, "add", "n=2")
    undone = cli.json("undo", game, "by=bo")  # a unique prefix, as by= is matched everywhere
    assert isinstance(undone, dict) and (undone["undone"], undone["by"]) == (2, "Bob")
    audit = cli.json("audit", game)
    assert isinstance(audit, dict)
    assert [(r["seq"], r["by"]) for r in audit["retractions"]] == [(2, "Bob")]
    assert records(cli, game)[-1]["actor"] == "Bob"


@pytest.mark.parametrize(("words", "says"), [
    (["by=zed"], "unknown player 'zed'"),
    (["n=2"], "undo takes only by=NAME"),
    (["by=ann", "by=bob"], "unexpected extra argument"),  # one by= only: typer says so
])
def test_undo_with_a_wrong_by_is_refused_and_writes_nothing(cli: Cli, words: list[str],
                                                             says: str) -> None:
    game = cli.new()
    cli.ok("record", game, "add", "n=2")
    before = cli.log_bytes(game)
    result = cli("undo", game, *words)
    assert result.exit_code == 2 and says in flat(result.output)
    assert cli.log_bytes(game) == before


def test_redo_records_the_undone_action_again_as_a_new_event(cli: Cli) -> None:
    game = cli.new()
    cli.ok("record", game, "add", "n=3")
    cli.ok("record", game, "roll")  # tabletape rolls: the redo keeps the die the table saw
    rolled = records(cli, game)[-1]
    cli.ok("undo", game, "by=ann")
    redone = cli.json("redo", game)
    assert isinstance(redone, dict)
    assert (redone["seq"], redone["redone"], redone["actor"], redone["type"]) == (5, 3, "bob",
                                                                                  "roll")
    assert redone["payload"] == rolled["payload"]
    rows = records(cli, game)
    assert [(r["seq"], r["type"], r["retracted"], r["redo_of"]) for r in rows[2:]] == [
        (3, "roll", True, None), (4, "undo", False, None), (5, "roll", False, 3)]
    assert open_game(Ledger(cli.root), game).state.total == 3 + rolled["payload"]["dice"][0]
    assert "(redo of 3)" in flat(cli.ok("log", game).output)
    audit = cli.json("audit", game)
    assert isinstance(audit, dict) and audit["ok"]
    assert [(r["seq"], r["undone_at"], r["redone_at"]) for r in audit["retractions"]] == [
        (3, 4, 5)]


def test_several_undos_are_redone_in_reverse_order(cli: Cli) -> None:
    game = cli.new()
    for n in ("1", "2", "3"):
        cli.ok("record", game, "add", f"n={n}")
    for _ in range(3):
        cli.ok("undo", game)
    said = [flat(cli.ok("redo", game).output) for _ in range(3)]
    assert [line.split(":")[0] for line in said] == ["Redid 2 as 8", "Redid 3 as 9",
                                                     "Redid 4 as 10"]
    assert open_game(Ledger(cli.root), game).state.total == 6
    again = cli("redo", game)
    assert again.exit_code == 1 and "every undone action is redone already" in flat(again.output)


def test_an_undone_redo_can_be_redone(cli: Cli) -> None:
    game = cli.new()
    cli.ok("record", game, "add", "n=2")
    cli.ok("undo", game)
    cli.ok("redo", game)
    cli.ok("undo", game)
    assert cli.json("redo", game)["redone"] == 4  # type: ignore[index]
    assert open_game(Ledger(cli.root), game).state.total == 2


def test_nothing_to_redo_before_any_undo(cli: Cli) -> None:
    game = cli.new()
    cli.ok("record", game, "add", "n=2")
    before = cli.log_bytes(game)
    result = cli("redo", game)
    assert result.exit_code == 1 and "no action has been undone" in flat(result.output)
    assert cli.log_bytes(game) == before


def test_redo_is_refused_once_another_action_was_recorded_but_not_after_a_note(cli: Cli
                                                                               ) -> None:
    game = cli.new()
    cli.ok("record", game, "add", "n=2")
    cli.ok("undo", game)
    cli.ok("note", game, "we argued about that one")
    cli.ok("redo", game)  # a note is no action: the undone add is redone
    cli.ok("undo", game)
    cli.ok("record", game, "add", "n=1")
    before = cli.log_bytes(game)
    result = cli("redo", game)
    assert result.exit_code == 1
    assert "event 7 was recorded since the last undo" in flat(result.output)
    assert cli.log_bytes(game) == before


def test_an_undo_left_behind_by_a_new_action_is_not_called_redone(cli: Cli) -> None:
    """Round 3: undo, a new action, undo, redo, redo said "every undone action is redone
    already" of an undo that never was: it names the action that ended its redo."""
    game = cli.new()
    cli.ok("record", game, "add", "n=2")  # 2
    cli.ok("undo", game)  # 3 takes 2 back
    cli.ok("record", game, "add", "n=3")  # 4: 2 can no longer be redone
    cli.ok("undo", game)  # 5
    cli.ok("redo", game)  # 6 repeats 4
    result = cli("redo", game)
    assert result.exit_code == 1, result.output
    assert "event 4 was recorded after the undos before it" in flat(result.output)
    assert "every undone action is redone already" not in flat(result.output)


def test_redo_of_an_action_the_rules_refuse_now_says_why(cli: Cli,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A log recorded under other rules: the redone action is checked by the rules in force."""
    game = cli.new()
    cli.ok("record", game, "add", "n=3")
    cli.ok("undo", game)
    real_check = Tiny.check

    def house_rule(self: Tiny, state: object, actor: str, event: object) -> None:
        if isinstance(event, Added) and event.n == 3:
            raise IllegalAction("house rule: nobody adds 3")
        real_check(self, state, actor, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Tiny, "check", house_rule)
    before = cli.log_bytes(game)
    result = cli("redo", game)
    assert result.exit_code == 1
    message = flat(result.output)
    assert "cannot redo event 2" in message and "house rule: nobody adds 3" in message
    assert cli.log_bytes(game) == before


def test_the_prompt_takes_undo_by_and_redo(cli: Cli) -> None:
    from io import StringIO

    from rich.console import Console

    from tabletape.prompt import Prompt

    game = cli.new()
    cli.ok("record", game, "add", "n=2")
    console = Console(file=StringIO(), width=200)
    prompt = Prompt(Ledger(cli.root), game, console)
    assert prompt.handle("undo by=bob") and prompt.handle("redo")
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Undid 2" in printed and "Redid 2 as 4" in printed
    rows = records(cli, game)
    assert [(r["seq"], r["actor"], r["type"]) for r in rows[2:]] == [(3, "bob", "undo"),
                                                                     (4, "ann", "add")]
    assert json.dumps(rows[-1]["payload"]) == '{"n": 2}'
