"""Issue 15 (P): action lines recorded in one go (``record GAME -``, ``play GAME < FILE``), and
output to a pipe closed early, run as whole processes as a script or a shell would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tabletape.ledger import Ledger
from tests.e2e.test_prompt import CODE, ROOT

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)

TIMEOUT = 60


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "TABLETAPE_LEDGER": str(tmp_path), "COLUMNS": "120", "NO_COLOR": "1",
            "PYTHONIOENCODING": "utf-8"}


def tabletape(env: dict[str, str], *args: str, stdin: str = "",
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CODE, *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=str(ROOT))


@pytest.fixture
def game(env: dict[str, str]) -> str:
    created = tabletape(env, "new", "tiny", "-p", "ann", "-p", "bob", "--json")
    return str(json.loads(created.stdout)["game"])


def log_bytes(env: dict[str, str], game: str) -> bytes:
    return Ledger(env["TABLETAPE_LEDGER"]).path(game).read_bytes()


def stored(env: dict[str, str], game: str) -> list[tuple[str, str, bytes]]:
    return [(r.actor, r.type, bytes(r.payload))
            for r in Ledger(env["TABLETAPE_LEDGER"]).records(game)[1:]]


LINES = """# our game, as noted at the table
add n=2

add n=1   # bob's
cheer words=yay by=bob
undo
roll dice=4
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", [["record", "{game}", "-"], ["play", "{game}"],
                                     ["record", "{game}", "-", "--ledger", "{ledger}"]])
def test_every_line_is_recorded_in_order_with_record_s_echo(env: dict[str, str], game: str,
                                                            command: list[str]) -> None:
    """Blank lines and comments are skipped; ``undo`` retracts as at the prompt; each line is
    echoed as ``record`` echoes it (the fast path, typer's ``record`` and ``play`` alike)."""
    args = [word.format(game=game, ledger=env["TABLETAPE_LEDGER"]) for word in command]
    done = tabletape(env, *args, stdin=LINES)
    assert done.returncode == 0, done.stderr
    assert stored(env, game) == [("ann", "add", b'{"n":2}'), ("bob", "add", b'{"n":1}'),
                                 ("bob", "cheer", b'{"words":"yay"}'),
                                 ("table", "undo", b'{"seq":4}'),
                                 ("ann", "roll", b'{"dice":[4]}')]
    lines = done.stdout.splitlines()
    assert "2 ann: add n=2" in lines and "Undid 4: bob: cheer words=yay" in lines
    assert "6 ann: roll dice=4" in lines
    single = tabletape(env, "new", "tiny", "-p", "ann", "-p", "bob", "--json")
    other = json.loads(single.stdout)["game"]
    one = tabletape(env, "record", other, "add", "n=2")
    assert one.stdout.replace(other, game) in done.stdout  # the same echo as `record`


@pytest.mark.slow
def test_the_first_refused_line_stops_the_batch(env: dict[str, str], game: str) -> None:
    lines = "add n=2\nadd n=1\n\nadd n=9\nadd n=1\n"
    done = tabletape(env, "record", game, "-", stdin=lines)
    assert done.returncode == 1
    assert "line 4: illegal: you may add 1 to 3, not 9" in " ".join(done.stderr.split())
    assert "Stopped at line 4: 2 lines recorded before it, nothing after it." in done.stderr
    assert stored(env, game) == [("ann", "add", b'{"n":2}'), ("bob", "add", b'{"n":1}')]


@pytest.mark.parametrize(("line", "code", "says"), [
    ("ad n=1", 2, "unknown action 'ad'"),
    ("status", 2, "'status' is a command of the prompt"),
    ("add n=1 by=zed", 2, "zed"),
])
@pytest.mark.slow
def test_a_line_not_understood_exits_2_and_writes_nothing(env: dict[str, str], game: str,
                                                          line: str, code: int,
                                                          says: str) -> None:
    before = log_bytes(env, game)
    done = tabletape(env, "play", game, stdin=f"# first\n{line}\nadd n=1\n")
    assert done.returncode == code, done.stderr
    assert "line 2: " in done.stderr and says in done.stderr
    assert "Traceback" not in done.stderr
    assert log_bytes(env, game) == before


@pytest.mark.slow
def test_json_gives_one_object_per_line(env: dict[str, str], game: str) -> None:
    done = tabletape(env, "record", game, "-", "--json", stdin="add n=2\n# c\nadd n=1\nundo\n")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(o["line"], o.get("seq"), o.get("type"), o.get("undone")) for o in objects] == [
        (1, 2, "add", None), (3, 3, "add", None), (4, None, None, 3)]
    assert objects[0]["payload"] == {"n": 2} and objects[0]["status"]["active"] == ["bob"]
    assert objects[2]["status"]["active"] == ["bob"]


def test_a_batch_takes_undo_by_and_redo_as_the_prompt_does(env: dict[str, str],
                                                         game: str) -> None:
    """``undo by=NAME`` is stored as that player's retraction; ``redo`` re-appends the undone
    action as a new event (``--json``: the same keys as ``undo --json`` and ``redo --json``)."""
    done = tabletape(env, "record", game, "-", "--json",
                     stdin="add n=2\nundo by=bo\nredo\n")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert (objects[1]["undone"], objects[1]["by"]) == (2, "bob")
    assert (objects[2]["seq"], objects[2]["redone"], objects[2]["type"]) == (4, 2, "add")
    assert [(actor, kind) for actor, kind, _ in stored(env, game)] == [
        ("ann", "add"), ("bob", "undo"), ("ann", "add")]


def test_expect_seq_applies_to_the_batch(env: dict[str, str], game: str) -> None:
    before = log_bytes(env, game)
    done = tabletape(env, "record", game, "-", "--expect-seq", "5", stdin="add n=2\n")
    assert done.returncode == 1 and "changed" in done.stderr
    assert log_bytes(env, game) == before


def test_an_empty_batch_records_nothing_and_says_so(env: dict[str, str], game: str) -> None:
    before = log_bytes(env, game)
    done = tabletape(env, "record", game, "-", stdin="# nothing\n\n")
    assert done.returncode == 0 and "nothing recorded" in done.stderr
    assert log_bytes(env, game) == before


def test_input_that_is_not_text_is_refused_without_a_traceback(env: dict[str, str],
                                                               game: str) -> None:
    done = subprocess.run([sys.executable, "-c", CODE, "record", game, "-"],
                          input=b"\xef\xbb\xbfadd n=2\r\n\xff\xfe\n", env=env,
                          capture_output=True, timeout=TIMEOUT, cwd=str(ROOT))
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"line 2: not UTF-8 text" in done.stderr
    assert stored(env, game) == [("ann", "add", b'{"n":2}')]  # the line before it stays


def closed_pipe_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run with standard output a pipe whose reader has already gone (``| head -0``)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-c", CODE, *args], input=b"add n=2\n",
                              stdout=write, stderr=subprocess.PIPE, env=env, timeout=TIMEOUT,
                              cwd=str(ROOT))
    finally:
        os.close(write)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["log", "{game}"], ["status", "{game}", "--json"],
                                  ["record", "{game}", "add", "n=2", "--json"],
                                  ["record", "{game}", "add", "n=2"],
                                  ["record", "{game}", "-"], ["replay", "{game}", "--narrate"]])
def test_writing_to_a_closed_pipe_ends_quietly(env: dict[str, str], game: str,
                                               args: list[str]) -> None:
    """As Unix tools do: no traceback, no message, a non-zero exit; what was recorded stays."""
    done = closed_pipe_run(env, *(word.format(game=game) for word in args))
    assert done.returncode == 1
    assert done.stderr == b""
    assert Ledger(env["TABLETAPE_LEDGER"]).verify(game).ok


@pytest.mark.pty
def test_record_dash_at_a_terminal_says_how_to_end_and_ctrl_c_ends_it(env: dict[str, str],
                                                                     game: str) -> None:
    child = pexpect.spawn(sys.executable, ["-c", CODE, "record", game, "-"], env=env,
                          cwd=str(ROOT), encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 200))
    child.expect_exact("Type one action a line; Ctrl-D ends")
    child.sendline("add n=2")
    child.expect_exact("2 ann: add n=2")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in str(child.before)
    assert stored(env, game) == [("ann", "add", b'{"n":2}')]
