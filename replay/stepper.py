"""The replay screen: a game at one point (view, narration, where the game is), and the stepper
that moves through it with the keyboard.

Keys: → / ← next and previous event, n / p (PageDown / PageUp) next and previous turn, Home / End
the first and last event (as on the replay page), g go to a turn, q quit. Keys are read in cbreak
mode (termios), a key's whole escape sequence at once; each step redraws the whole screen.
"""

from __future__ import annotations

import os
import select
import sys
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from tabletape.ledger import Noted
from tabletape.replay.engine import BadPoint, Cursor, Point, Replay
from tabletape.replay.narrate import Narrator
from tabletape.replay.render import game_view, situation_line

KEYS_HELP = "→ next event · ← previous · n/p next/previous turn · g go to turn · q quit"

SEQUENCES = {b"[C": "right", b"[D": "left", b"OC": "right", b"OD": "left",
             b"[A": "up", b"[B": "down", b"OA": "up", b"OB": "down",
             b"[H": "home", b"OH": "home", b"[1~": "home", b"[7~": "home",
             b"[F": "end", b"OF": "end", b"[4~": "end", b"[8~": "end",
             b"[5~": "pageup", b"[6~": "pagedown"}
"""Escape sequences (after ESC) of the keys the stepper knows, as xterm, the Linux console and
rxvt send them; any other sequence is read whole and named unknown, never taken for Esc."""


def where_line(replay: Replay, position: int) -> Text:
    """``Tiny · ty-a · seq 5 of 12 · turn 3, round 2 · add · olga to act`` (or the result)."""
    return situation_line(replay.rules, replay.game, replay.state_at(position),
                          replay.turn_info(position),
                          where=f"seq {replay.seq(position)} of {len(replay)}")


def notes_about(replay: Replay, seq: int) -> list[str]:
    """Notes people added about the event at ``seq``."""
    return [f"Note ({replay.records[p].actor}): {event.text}"
            for p, event in enumerate(replay.events)
            if isinstance(event, Noted) and event.about == seq]


def frame(replay: Replay, position: int, narrator: Narrator, *, message: str = "",
          keys: bool = False) -> Panel:
    """The replay screen at ``position``."""
    visit = replay.visit_at(position)
    told = Text()
    told.append(f"seq {visit.record.seq}  ", style="dim")
    told.append(narrator.line(visit), style="" if visit.effective else "dim")
    parts: list[RenderableType] = [where_line(replay, position), Text(),
                                   game_view(replay.rules, visit.after), Text(), told]
    parts += [Text(note, style="italic magenta") for note in notes_about(replay, visit.record.seq)]
    if message:
        parts.append(Text(message, style="bold red"))
    return Panel(Group(*parts), title=f"[bold]replay {replay.game}[/]",
                 subtitle=KEYS_HELP if keys else None, border_style="blue")


# -- the stepper ---------------------------------------------------------------------------------


def read_key(fd: int) -> str:
    """One key press: a name of :data:`SEQUENCES` (``right``, ``home``, ``pagedown``...),
    ``esc``, ``unknown`` (another escape sequence, consumed whole), or the character typed."""
    first = os.read(fd, 1)
    if first != b"\x1b":
        return first.decode(errors="replace")
    if not ready(fd):
        return "esc"
    sequence = escape_sequence(fd, os.read(fd, 1))
    return SEQUENCES.get(sequence, "unknown" if sequence[:1] in (b"[", b"O") else "esc")


def ready(fd: int) -> bool:
    """Whether a byte is waiting on ``fd`` (the rest of an escape sequence comes at once)."""
    return bool(select.select([fd], [], [], 0.1)[0])


def escape_sequence(fd: int, introducer: bytes) -> bytes:
    """The rest of an escape sequence after ESC and ``introducer``: ``O`` and one byte, or ``[``
    and its parameters up to the final byte (``[6~``, ``[1;5C``), so none is left to the shell."""
    if introducer == b"O":
        return introducer + (os.read(fd, 1) if ready(fd) else b"")
    if introducer != b"[":
        return introducer
    sequence = introducer
    while len(sequence) < 16 and ready(fd):
        byte = os.read(fd, 1)
        sequence += byte
        if not byte or 0x40 <= byte[0] <= 0x7E:
            break
    return sequence


MOVES = {
    "right": Cursor.forward, "l": Cursor.forward, " ": Cursor.forward,
    "left": Cursor.back, "h": Cursor.back,
    "n": Cursor.next_turn, "down": Cursor.next_turn,
    "p": Cursor.previous_turn, "up": Cursor.previous_turn,
    "N": Cursor.next_round, "P": Cursor.previous_round,
    "pagedown": Cursor.next_turn, "pageup": Cursor.previous_turn,
    "home": Cursor.first, "end": Cursor.last,
}
QUIT = frozenset({"q", "Q", "\x03", "\x04", "esc"})


class Stepper:
    """The interactive replay: redraws the frame after every key."""

    def __init__(self, replay: Replay, console: Console, position: int = 0) -> None:
        self.replay = replay
        self.console = console
        self.cursor = Cursor(replay, position)
        self.narrator = Narrator(replay.rules, replay.records)
        self.message = ""

    def run(self) -> None:
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while self.step(fd, saved):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def draw(self) -> None:
        self.console.clear()
        self.console.print(frame(self.replay, self.cursor.position, self.narrator,
                                 message=self.message, keys=True))

    def step(self, fd: int, saved: Any) -> bool:
        """Draw, read one key, act on it; False when the person quits."""
        self.draw()
        key = read_key(fd)
        self.message = ""
        if key in QUIT:
            return False
        if key == "g":
            self.go_to_turn(fd, saved)
        elif key in MOVES:
            MOVES[key](self.cursor)
        else:
            shown = "" if key == "unknown" else f" {key!r}"
            self.message = f"unknown key{shown}; {KEYS_HELP}"
        return True

    def go_to_turn(self, fd: int, saved: Any) -> None:
        """Ask for a turn number (in cooked mode) and jump to its start."""
        import termios
        import tty

        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        try:
            answer = self.console.input("Go to turn: ").strip()
        except EOFError:
            answer = ""
        finally:
            tty.setcbreak(fd)
        if not answer.isdigit():
            self.message = f"'{answer}' is not a turn number"
            return
        try:
            self.cursor.seek(Point("turn", int(answer)))
        except BadPoint as error:
            self.message = str(error)
