"""Issue 15 (P): ``tabletape play`` as a person uses it, through a pseudo-terminal: list values
completed item by item, a history kept across sessions, Ctrl-C cancelling a line, quitting
saying how to resume, and errors and echoes worded as ``record`` words them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tabletape.ledger import Ledger
from tests.e2e.test_prompt import CODE, ROOT

pytestmark = pytest.mark.pty  # a pseudo-terminal (pexpect): not in the default run

TIMEOUT = 30


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TABLETAPE_LEDGER": str(tmp_path / "ledger"), "TERM": "dumb",
            "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8",
            "TABLETAPE_HISTORY": str(tmp_path / "state" / "history")}


def tabletape(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE, *args], env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, cwd=str(ROOT))


def new(env: dict[str, str], kind: str = "tiny", *players: str) -> str:
    created = tabletape(env, "new", kind, *(f"--player={p}" for p in players or ("ann", "bob")),
                        "--json", "--seed", "7")
    return str(json.loads(created.stdout)["game"])


def spawn(env: dict[str, str], game: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-c", CODE, "play", game], env=env, cwd=str(ROOT),
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120))


def prompt(game: str, who: str) -> str:
    return re.escape(f"{game} [{who}]> ")


def finish(child: pexpect.spawn) -> str:
    """Wait for the end; what was printed last. No traceback, exit 0."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in (child.before or "")
    return str(child.before)


def test_list_values_complete_item_by_item_and_names_in_any_case(env: dict[str, str]) -> None:
    game = new(env, "risk-strike", "Olga", "Patrick")
    child = spawn(env, game)
    child.expect(prompt(game, "table"))
    child.send("deal player=ol\t")
    child.expect_exact("Olga ")  # readline rewrites the word: "ol" becomes "Olga"
    child.send("continents=asia,eu\t")
    child.expect_exact("rope")
    child.send(",as\t")
    child.expect_exact("ia")
    child.sendline("")
    child.expect(re.escape("2 table: deal player=Olga continents=asia,europe,asia"))
    child.expect(prompt(game, "table"))
    child.sendline("quit")
    finish(child)


def test_history_is_kept_across_sessions(env: dict[str, str], tmp_path: Path) -> None:
    game = new(env)
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    child.sendline("add n=2")
    child.expect(prompt(game, "bob"))
    child.sendline("quit")
    finish(child)
    assert "add n=2" in (tmp_path / "state" / "history").read_text()

    again = spawn(env, game)
    again.expect(prompt(game, "bob"))
    again.send("\x1b[A")  # up: the line typed in the last session
    again.sendline("")
    again.expect(re.escape("3 bob: add n=2"))
    again.expect(prompt(game, "ann"))
    again.sendline("quit")
    finish(again)


@pytest.mark.parametrize("history", ["{tmp}/a-file/history", ""])
def test_a_history_that_cannot_be_written_never_breaks_the_prompt(
        env: dict[str, str], tmp_path: Path, history: str) -> None:
    (tmp_path / "a-file").write_text("a file where a folder would be")
    env = {**env, "TABLETAPE_HISTORY": history.format(tmp=tmp_path)}
    game = new(env)
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    child.sendline("add n=2")
    child.expect(prompt(game, "bob"))
    child.sendline("quit")
    assert "resume with" in finish(child)
    assert len(Ledger(env["TABLETAPE_LEDGER"]).records(game)) == 2


def test_ctrl_c_cancels_the_line_not_the_prompt(env: dict[str, str]) -> None:
    game = new(env)
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    child.send("add n=3")
    child.expect_exact("add n=3")  # typed and shown, as a person sees it, before the Ctrl-C
    child.sendintr()
    child.expect(prompt(game, "ann"))  # the line is gone, the prompt goes on
    child.sendline("add n=1")
    child.expect(re.escape("2 ann: add n=1"))
    child.expect(prompt(game, "bob"))
    child.sendline("quit")
    finish(child)
    records = Ledger(env["TABLETAPE_LEDGER"]).records(game)
    assert [bytes(r.payload) for r in records[1:]] == [b'{"n":1}']


@pytest.mark.parametrize("leave", ["quit", "eof"])
def test_leaving_says_how_to_resume(env: dict[str, str], leave: str) -> None:
    game = new(env)
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    if leave == "eof":
        child.sendeof()
    else:
        child.sendline(leave)
    assert f"resume with: tabletape play {game}" in finish(child)


def test_resume_names_a_ledger_given_on_the_command_line(env: dict[str, str],
                                                        tmp_path: Path) -> None:
    elsewhere = tmp_path / "other ledger"
    env = {**env, "TABLETAPE_LEDGER": str(elsewhere)}
    game = new(env)
    del env["TABLETAPE_LEDGER"]
    child = pexpect.spawn(sys.executable, ["-c", CODE, "play", game, "--ledger", str(elsewhere)],
                          env=env, cwd=str(ROOT), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(40, 200))
    child.expect(prompt(game, "ann"))
    child.sendline("quit")
    said = " ".join(finish(child).split())
    assert f"resume with: tabletape play {game} --ledger '{elsewhere}'" in said


@pytest.mark.parametrize("line", ["add n=1 by=zed", "add n=9", "ad n=1", "add n=x"])
def test_errors_are_worded_as_record_words_them(env: dict[str, str], line: str) -> None:
    game = new(env)
    recorded = tabletape(env, "record", game, *line.split())
    assert recorded.returncode in (1, 2)
    said = " ".join(recorded.stderr.split())
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    child.sendline(line)
    child.expect(prompt(game, "ann"))
    assert said in " ".join(str(child.before).split())
    child.sendline("quit")
    finish(child)


def test_the_prompt_echoes_what_record_echoes(env: dict[str, str]) -> None:
    at_prompt, by_record = new(env), new(env)
    child = spawn(env, at_prompt)
    child.expect(prompt(at_prompt, "ann"))
    child.sendline("roll dice=4")
    child.expect(prompt(at_prompt, "bob"))
    shown = str(child.before).replace("\r\n", "\n")
    child.sendline("quit")
    finish(child)
    echo = tabletape(env, "record", by_record, "roll", "dice=4").stdout
    assert echo.replace(by_record, at_prompt).strip() in shown


def test_a_note_redo_once_and_the_head_to_note_when_leaving(env: dict[str, str]) -> None:
    """README, the prompt: `note TEXT` adds the table's note; `redo` says where the game is
    once; leaving shows the head to note (Fair play: heads)."""
    game = new(env)
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    child.sendline("add n=1")
    child.expect(prompt(game, "bob"))
    child.sendline('note "Tom spilled his drink"')
    child.expect(prompt(game, "bob"))
    assert "note by table: Tom spilled his drink" in str(child.before)
    child.sendline("note")
    child.expect(prompt(game, "bob"))
    assert "note TEXT" in str(child.before)
    child.sendline("undo")
    child.expect(prompt(game, "ann"))
    child.sendline("redo")
    child.expect(prompt(game, "bob"))
    assert str(child.before).count(f"· {game} ·") == 1, child.before
    child.sendline("quit")
    said = " ".join(finish(child).split())
    head = json.loads(tabletape(env, "head", game, "--json").stdout)["fingerprint"]
    assert f"head {head}" in said and f"tabletape verify {game} --head" in said
    log = json.loads(tabletape(env, "log", game, "--json").stdout)
    assert [row["payload"].get("text") for row in log if row["type"] == "note"] == [
        "Tom spilled his drink"]


def test_actions_at_the_prompt_say_the_dice_are_required_after_the_reveal(
        env: dict[str, str]) -> None:
    """README, A lost secret: once tabletape may not roll, `actions` shows the dice it would
    have filled as required and says why; at the prompt too (round 3 saw them optional)."""
    created = tabletape(env, "new", "tiny", "--player=ann", "--player=bob", "--json")
    game = str(json.loads(created.stdout)["game"])
    assert tabletape(env, "reveal", game).returncode == 0
    child = spawn(env, game)
    child.expect(prompt(game, "ann"))
    opening = " ".join(str(child.before).split())
    child.sendline("actions")
    child.expect(prompt(game, "ann"))
    listed = " ".join(str(child.before).split())
    child.sendline("quit")
    finish(child)
    for shown in (opening, listed):
        assert "Dice are required" in shown and "roll dice=" in shown, shown
