"""``tabletape play`` driven through a pseudo-terminal, as a person at the table would use it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pexpect
import pytest

from tabletape.ledger import Ledger, Retracted

pytestmark = pytest.mark.pty  # a pseudo-terminal (pexpect): not in the default run

ROOT = Path(__file__).resolve().parents[2]
CODE = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tests.support.tinygame; "
        "from tabletape import main; main()")
TIMEOUT = 30


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TABLETAPE_LEDGER": str(tmp_path), "TERM": "dumb", "COLUMNS": "120",
            "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


@pytest.fixture
def game(env: dict[str, str]) -> str:
    created = subprocess.run([sys.executable, "-c", CODE, "new", "tiny", "-p", "ann", "-p", "bob",
                              "--json"], env=env, capture_output=True, text=True, timeout=TIMEOUT,
                             check=True)
    return json.loads(created.stdout)["game"]


def spawn(env: dict[str, str], game: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-c", CODE, "play", game], env=env, cwd=str(ROOT),
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120))
    return child


def prompt(game: str, who: str) -> str:
    return re.escape(f"{game} [{who}]> ")


def test_play_records_refuses_undoes_completes_and_quits(env: dict[str, str], game: str,
                                                         tmp_path: Path) -> None:
    child = spawn(env, game)
    try:
        # it shows the state and what may be recorded
        child.expect(re.escape(f"{game} · turn 1, round 1 · add · ann to act"))
        child.expect("What may be recorded now")
        child.expect(prompt(game, "ann"))

        child.sendline("add n=2")
        child.expect(re.escape("2 ann: add n=2"))
        child.expect(prompt(game, "bob"))

        # illegal: the rule's reason, and the prompt goes on
        child.sendline("add n=9")
        child.expect(re.escape("illegal: you may add 1 to 3, not 9. Allowed: 1, 2, 3."))
        child.expect(prompt(game, "bob"))

        # a mistake in the syntax: the message, and the prompt goes on
        child.sendline("ad n=1")
        child.expect(re.escape("unknown action 'ad' (did you mean 'add'?)"))
        child.expect(prompt(game, "bob"))

        # Tab completes an action name, then a field name
        child.send("ad\t")
        child.expect_exact("add ")
        child.send("n\t")
        child.expect_exact("n=")
        child.sendline("1")
        child.expect(re.escape("3 bob: add n=1"))
        child.expect(prompt(game, "ann"))

        child.sendline("cheer by=bob words=yay")
        child.expect(re.escape("4 bob: cheer words=yay"))
        child.expect(prompt(game, "ann"))

        child.sendline("undo")
        child.expect(re.escape("Undid 4: bob: cheer words=yay"))
        child.expect(prompt(game, "ann"))

        child.sendline("help")
        child.expect("Commands:")
        child.expect("What may be recorded now")
        child.expect(prompt(game, "ann"))

        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in (child.before or "")

    # the log holds exactly the accepted actions, and the undo
    records = Ledger(tmp_path).records(game)
    assert [(r.seq, r.actor, r.type, bytes(r.payload)) for r in records[1:4]] == [
        (2, "ann", "add", b'{"n":2}'), (3, "bob", "add", b'{"n":1}'),
        (4, "bob", "cheer", b'{"words":"yay"}')]
    assert len(records) == 5 and records[4].type == "undo"
    assert msgspec.json.decode(records[4].payload, type=Retracted).seq == 4
    assert Ledger(tmp_path).verify(game).ok


def test_play_ends_on_end_of_input_and_keeps_what_was_recorded(env: dict[str, str], game: str,
                                                              tmp_path: Path) -> None:
    child = spawn(env, game)
    try:
        child.expect(prompt(game, "ann"))
        child.sendline("roll dice=4")
        child.expect(re.escape("2 ann: roll dice=4"))
        child.expect(prompt(game, "bob"))
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    records = Ledger(tmp_path).records(game)
    assert [(r.type, bytes(r.payload)) for r in records[1:]] == [("roll", b'{"dice":[4]}')]


def test_play_unknown_game_exits_2(env: dict[str, str], game: str) -> None:
    child = spawn(env, "ty-nope")
    try:
        child.expect(re.escape("no game 'ty-nope'"))
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 2
    assert "Traceback" not in (child.before or "")


def test_two_prompts_recording_the_same_action_store_it_once(env: dict[str, str],
                                                              game: str) -> None:
    """Each prompt records against the latest event it showed (as ``record --expect-seq``)."""
    first, second = spawn(env, game), spawn(env, game)
    for child in (first, second):
        child.expect(prompt(game, "ann"))
    first.sendline("add n=2")
    first.expect(prompt(game, "bob"))
    second.sendline("add n=2")
    second.expect("changed while you were recording")
    second.expect(prompt(game, "bob"))  # it shows the game as it now is
    for child in (first, second):
        child.sendline("quit")
        child.expect(pexpect.EOF)
    log = Ledger(env["TABLETAPE_LEDGER"]).path(game).read_bytes()
    assert log.count(b'"type":"add"') == 1
