"""Recording many action lines in one go: ``record GAME -`` and ``play GAME < actions.txt``.

One piece serves both commands (and the fast ``record`` path): each line is checked and appended
in order, echoed as ``record`` echoes it (one JSON object per line with ``--json``); the first
refused line stops the batch with its line number and its exit status, and nothing after it is
written. Blank lines and ``#`` comments are skipped; ``undo`` retracts the latest action, as at
the prompt; the prompt's other commands (``status``, ``help``…) print nothing a batch needs and
are refused, so a typo of an action is never taken for one.

Also here: what ``record`` says about one recorded action (:func:`recorded_echo`,
:func:`recorded_json`), shared by ``record``, the prompt and the batch so that all three say the
same thing.

>>> list(action_lines(["# setup", "", "deal player=olga  # first", "  roll-off dice=6,2 "]))
[(3, 'deal player=olga'), (4, 'roll-off dice=6,2')]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tabletape.exits import (
    PEOPLE_ERRORS,
    USAGE_EXIT,
    error_kind,
    failure,
    json_asked,
    report_error,
)
from tabletape.ledger import Ledger, Record, VersionConflict
from tabletape.replay.fold import Folded, Step
from tabletape.replay.recording import append_all, open_game, prepare_line
from tabletape.replay.undo import by_argument, redo, undo

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

PROMPT_ONLY = ("status", "log", "actions", "help", "quit", "exit")
"""Prompt commands a batch refuses (``undo`` it takes)."""


class BatchRefused(Exception):
    """A prompt command in a batch: not an action, and nothing a batch can do."""


def action_lines(lines: Iterable[str | bytes]) -> Iterator[tuple[int, str | BatchRefused]]:
    """The numbered lines that hold an action: blank lines and ``#`` comments left out. Bytes
    are read as UTF-8 line by line (a line that is not is a :class:`BatchRefused`, in its place).

    >>> list(action_lines([b"\\xef\\xbb\\xbfadd n=1", b"add n=\\xff"]))
    [(1, 'add n=1'), (2, BatchRefused('not UTF-8 text'))]
    """
    for number, line in enumerate(lines, start=1):
        try:
            decoded = line.decode("utf-8-sig" if number == 1 else "utf-8") if isinstance(
                line, bytes) else line
        except UnicodeDecodeError:
            yield number, BatchRefused("not UTF-8 text")
            return
        text = strip_comment(decoded).strip()
        if text:
            yield number, text


def strip_comment(line: str) -> str:
    """``line`` without a ``#`` comment (a ``#`` inside quotes is kept).

    >>> strip_comment('note text="round #2" # why')
    'note text="round #2" '
    """
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line


def recorded_echo(folded: Folded, records: Sequence[Record]) -> RenderableType:
    """What ``record`` prints for the events one line stored: each event as stored and what it
    did, then where the game is (:func:`tabletape.replay.render.after_record`)."""
    from tabletape.replay.render import after_record

    return after_record(folded, records)


def recorded_json(folded: Folded, records: Sequence[Record]) -> dict[str, Any]:
    """What ``record --json`` prints for the events one line stored (docs/reference/json.md):
    the last event (``seq``, ``actor``, ``type``, ``payload``), every event the line stored in order
    (``records``, one unless the line gave several steps; ``drawn``: tabletape's mark, the
    roll index and the fields it filled, else None), and the game's ``status`` after."""
    from tabletape.replay.render import drawn_json, status_json

    stored = [{"seq": r.seq, "actor": r.actor, "type": r.type,
               "payload": json.loads(bytes(r.payload)), "drawn": drawn_json(r.drawn)}
              for r in records]
    return {**stored[-1], "records": stored, "status": status_json(folded)}


class Batch:
    """Action lines recorded one after the other into one game, echoed on ``out``."""

    def __init__(self, ledger: Ledger, game: str, out: Console, *, as_json: bool = False) -> None:
        self.ledger, self.game, self.out, self.as_json = ledger, game, out, as_json
        self.recorded = 0

    def run(self, lines: Iterable[str | bytes], err: Console, *,
            expect_seq: int | None = None) -> int:
        """Record ``lines``; the exit status (0, or the first refused line's)."""
        try:
            folded = open_game(self.ledger, self.game)
            if expect_seq is not None and folded.head_seq != expect_seq:
                raise VersionConflict(self.game, expect_seq, folded.head_seq)
        except PEOPLE_ERRORS as error:
            message, code = failure(error)
            return report_error(message, code, error_kind(error, code), console=err,
                                as_json=self.as_json or json_asked())
        for number, line in action_lines(lines):
            try:
                if isinstance(line, BatchRefused):
                    raise line
                folded = self.one(folded, number, line)
            except (*PEOPLE_ERRORS, BatchRefused) as error:
                return self.refused(err, number, error)
        if not self.recorded:
            err.print("No action lines read: nothing recorded.", highlight=False)
        return 0

    def one(self, folded: Folded, number: int, line: str) -> Folded:
        """Record the action (or `undo [by=NAME]`, `redo`) on line ``number``: the game after."""
        word = line.split()[0].lower()
        if word in PROMPT_ONLY:
            raise BatchRefused(f"'{word}' is a command of the prompt; a batch holds actions "
                               f"(and undo, redo), one per line")
        if word == "undo":
            folded, undone = undo(self.ledger, self.game, by=by_argument(line.split()[1:]))
            self.show(number, lambda: undone_json(folded, undone),
                      lambda: undone_echo(folded, undone))
        elif line.lower() == "redo":
            folded, stored, again = redo(self.ledger, self.game)
            self.show(number, lambda: redone_json(folded, stored, again),
                      lambda: redone_echo(folded, stored, again))
        else:
            folded, records = append_all(self.ledger, folded, prepare_line(folded, line))
            self.show(number, lambda: recorded_json(folded, records),
                      lambda: recorded_echo(folded, records))
        self.recorded += 1
        return folded

    def show(self, number: int, shape: Callable[[], dict[str, Any]],
             echo: Callable[[], RenderableType]) -> None:
        """Print one recorded line: its echo, or one JSON object (JSON Lines) with ``--json``."""
        if self.as_json:
            line = json.dumps({"line": number, **shape()}, ensure_ascii=False)
            self.out.file.write(line + "\n")
            self.out.file.flush()
        else:
            self.out.print(echo())

    def refused(self, err: Console, number: int, error: BaseException) -> int:
        """Say which line was refused and why; its exit status."""
        from tabletape.ledger.text import plural

        if isinstance(error, PEOPLE_ERRORS):
            message, code = failure(error)
        else:
            message, code = str(error), USAGE_EXIT
        as_json = self.as_json or json_asked()  # JSON: the line and what came before as keys
        stopped = "" if as_json else (f"Stopped at line {number}: {plural(self.recorded, 'line')} "
                                      "recorded before it, nothing after it.")
        return report_error(f"line {number}: {message}", code, error_kind(error, code),
                            hint=stopped, as_json=as_json, console=err, line=number,
                            recorded=self.recorded)


def undone_json(folded: Folded, undone: Step) -> dict[str, Any]:
    """What ``undo --json`` prints: the seq retracted, who retracted it, the game now."""
    from tabletape.replay.render import status_json

    return {"undone": undone.record.seq, "by": folded.records[-1].actor,
            "status": status_json(folded)}


def redone_json(folded: Folded, stored: Record, again: Step) -> dict[str, Any]:
    """What ``redo --json`` prints: the new event, the seq it repeats, the game now."""
    from tabletape.replay.render import drawn_json, status_json

    return {"seq": stored.seq, "redone": again.record.seq, "actor": stored.actor,
            "type": stored.type, "payload": json.loads(bytes(stored.payload)),
            "drawn": drawn_json(stored.drawn), "status": status_json(folded)}


def redone_echo(folded: Folded, stored: Record, again: Step) -> RenderableType:
    """What ``redo`` prints: the action recorded again, then where the game is."""
    from rich.console import Group

    from tabletape.replay.render import headline, redone_line

    return Group(redone_line(stored, again.record, again.event), headline(folded))


def undone_echo(folded: Folded, undone: Step) -> RenderableType:
    """What ``undo`` prints: the action retracted, then where the game is."""
    from rich.console import Group

    from tabletape.replay.render import headline, undone_line

    return Group(undone_line(undone.record, undone.event), headline(folded))


def record_lines(ledger: Ledger, game: str, lines: Iterable[str | bytes], *, as_json: bool = False,
                 expect_seq: int | None = None) -> int:
    """``record GAME -`` and ``play GAME < FILE``: record ``lines``; the exit status."""
    from rich.console import Console

    err = Console(stderr=True)
    if getattr(lines, "isatty", bool)():
        err.print("Type one action a line; Ctrl-D ends (`tabletape play` is the prompt).",
                  highlight=False)
    batch = Batch(ledger, game, Console(highlight=False), as_json=as_json)
    return batch.run(lines, err, expect_seq=expect_seq)
