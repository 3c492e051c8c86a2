"""The interactive stepper, driven through a pseudo-terminal like a person would."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from tabletape.ledger import Ledger

pytestmark = pytest.mark.pty  # a pseudo-terminal (pexpect): not in the default run

ROOT = Path(__file__).resolve().parents[2]
RIGHT, LEFT = "\x1b[C", "\x1b[D"


@pytest.fixture
def stepper(store: Ledger, story: str):
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
    child = pexpect.spawn(
        sys.executable,
        ["-c", "import tests.support.tinygame, tabletape; tabletape.main()", "replay", story,
         "--ledger", str(store.root)],
        cwd=str(ROOT), env=env, encoding="utf-8", dimensions=(40, 100), timeout=20)
    yield child
    child.close(force=True)


def shows(child: pexpect.spawn, text: str) -> None:
    """Wait until the screen shows ``text`` (written without a change of style inside it)."""
    child.expect_exact(text)


def test_keys_step_through_events_turns_and_quit(stepper: pexpect.spawn) -> None:
    shows(stepper, "seq 1 of 13 · turn 1, round 1 · add")
    shows(stepper, "olga to act")
    shows(stepper, "q quit")
    stepper.send(RIGHT)
    shows(stepper, "seq 2 of 13 · turn 2, round 1")
    shows(stepper, "olga: add n=2")
    stepper.send(RIGHT)
    shows(stepper, "seq 3 of 13 · turn 3, round 2")
    stepper.send(LEFT)
    shows(stepper, "seq 2 of 13")
    stepper.send("n")
    shows(stepper, "seq 3 of 13 · turn 3")
    stepper.send("n")
    shows(stepper, "seq 5 of 13 · turn 4")  # the cheer at seq 4 is inside turn 3
    stepper.send("p")
    shows(stepper, "seq 3 of 13 · turn 3")
    stepper.send("g")
    shows(stepper, "Go to turn:")
    stepper.send("6\r")
    shows(stepper, "seq 10 of 13 · turn 6, round 3 · add")
    shows(stepper, "patrick to act")
    stepper.send("g")
    shows(stepper, "Go to turn:")
    stepper.send("99\r")
    shows(stepper, "has turns 1 to 8")
    stepper.send("q")
    stepper.expect(pexpect.EOF)
    stepper.close()
    assert stepper.exitstatus == 0


def test_stepping_past_the_end_stays_at_the_end(stepper: pexpect.spawn) -> None:
    shows(stepper, "seq 1 of 13")
    stepper.send(LEFT)
    shows(stepper, "seq 1 of 13")
    for _ in range(15):
        stepper.send("n")
    shows(stepper, "seq 13 of 13")
    shows(stepper, "finished: olga won")
    stepper.send("\x03")
    stepper.expect(pexpect.EOF)
    stepper.close()
    assert stepper.exitstatus == 0


HOME, END, PAGE_DOWN, PAGE_UP = "\x1b[H", "\x1b[F", "\x1b[6~", "\x1b[5~"


def test_home_end_and_page_keys_step_as_on_the_replay_page(stepper: pexpect.spawn) -> None:
    """End, Home and PageDown/PageUp step (the page's keys), their whole sequence read: none
    quits the stepper or leaves a ``~`` behind."""
    shows(stepper, "seq 1 of 13 · turn 1")
    stepper.send(END)
    shows(stepper, "seq 13 of 13")
    stepper.send(HOME)
    shows(stepper, "seq 1 of 13 · turn 1")
    stepper.send(PAGE_DOWN)
    shows(stepper, "seq 2 of 13 · turn 2")
    stepper.send(PAGE_DOWN)
    shows(stepper, "seq 3 of 13 · turn 3")
    stepper.send(PAGE_UP)
    shows(stepper, "seq 2 of 13 · turn 2")
    stepper.send("\x1b[4~")  # End as the Linux console sends it
    shows(stepper, "seq 13 of 13")
    stepper.send("\x1b[1~")  # Home, likewise
    shows(stepper, "seq 1 of 13")
    stepper.send("\x1bOF")  # End in application mode
    shows(stepper, "seq 13 of 13")
    stepper.send("\x1b[1;5C")  # Ctrl+Right: not a stepper key, read whole, not a quit
    shows(stepper, "unknown key;")
    stepper.send(HOME)  # nothing of Ctrl+Right was left to be read as a key
    shows(stepper, "seq 1 of 13 · turn 1")
    stepper.send("q")
    stepper.expect(pexpect.EOF)
    stepper.close()
    assert stepper.exitstatus == 0


@pytest.mark.parametrize(("sent", "key"), [
    (b"\x1b[F", "end"), (b"\x1b[H", "home"), (b"\x1b[6~", "pagedown"), (b"\x1b[5~", "pageup"),
    (b"\x1b[1~", "home"), (b"\x1b[4~", "end"), (b"\x1bOF", "end"), (b"\x1b[C", "right"),
    (b"\x1b[1;5C", "unknown"), (b"q", "q")])
def test_the_key_reader_takes_the_whole_sequence(sent: bytes, key: str) -> None:
    from tabletape.replay.stepper import read_key

    read_end, write_end = os.pipe()
    try:
        os.write(write_end, sent + b"x")
        assert read_key(read_end) == key
        assert read_key(read_end) == "x"  # nothing of the sequence is left behind
    finally:
        os.close(read_end)
        os.close(write_end)
