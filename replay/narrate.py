"""Narration: every stored event told as sentences in table words.

Ledger events (the start, undo, note, sign) are told here for every game; a game's own events
are told by its plug-in's ``narrate(visit)`` (see :mod:`tabletape.replay.games`), which says what
the fold derived too.
Games without one get :func:`generic_sentences`: ``olga: roll attacker=6,3,2 defender=5,5``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from rich.console import Group, RenderableType
from rich.text import Text

from tabletape.ledger import GameStarted, Noted, Record, Retracted, Signed
from tabletape.ledger.events import SecretRevealed
from tabletape.replay.fold import action_text, retractions
from tabletape.replay.parts import game_part
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.kernel import Rules, TurnInfo, won_words

NarrateFunction = Callable[[Visit], list[str]]
"""The plug-in signature: one visit in, its sentences out."""

MAX_TOLD_OPTIONS = 4
"""More options than this are counted, not listed, when a game begins."""

FAILED_MARK = "(narrator failed:"
"""Starts the note added when a game's narrator raised (tests look for it)."""


class Narrator:
    """Tells the events of one game; ``records`` lets undo name what it retracted."""

    def __init__(self, rules: Rules[Any], records: Sequence[Record]) -> None:
        self.rules = rules
        self.records = records
        self.retracted = retractions(records)
        self.game_narrate: NarrateFunction | None = game_part(rules.name, "narrate")

    def sentences(self, visit: Visit) -> list[str]:
        """What happened at ``visit``, as sentences."""
        event = visit.event
        if isinstance(event, GameStarted):
            told = [started_sentence(self.rules, event)]
        elif isinstance(event, Retracted):
            told = [self.undo_sentence(visit.record, event)]
        elif isinstance(event, Noted):
            told = [note_sentence(visit.record, event)]
        elif isinstance(event, SecretRevealed):
            told = ["The table reveals the game's dice secret: anyone can now re-derive every "
                    "roll tabletape made (tabletape audit)."]
        elif isinstance(event, Signed):
            told = [signed_sentence(event)]
        elif not visit.effective:
            undo = self.retracted[visit.record.seq]
            told = [f"{generic_sentence(visit)} (retracted by the undo at seq {undo.seq})"]
        else:
            told = self.game_sentences(visit)
        if visit.refused:
            told.append(f"(The current rules refuse this: {visit.refused})")
        return told

    def line(self, visit: Visit) -> str:
        """The sentences of ``visit`` on one line."""
        return join_sentences(self.sentences(visit))

    def game_sentences(self, visit: Visit) -> list[str]:
        if self.game_narrate is None:
            return generic_sentences(self.rules, visit)
        try:
            return list(self.game_narrate(visit)) or [generic_sentence(visit)]
        except Exception as error:  # a narrator bug must not stop a replay
            return [generic_sentence(visit), f"{FAILED_MARK} {type(error).__name__}: {error})"]

    def undo_sentence(self, record: Record, undo: Retracted) -> str:
        """``Undo: olga's roll (seq 12) is retracted``, naming who undid it when not the table."""
        undone = self.record(undo.seq)
        what = f"{undone.actor}'s {undone.type}" if undone is not None else "the action"
        by = "" if record.actor == "table" else f" by {record.actor}"
        return f"Undo{by}: {what} (seq {undo.seq}) is retracted."

    def record(self, seq: int) -> Record | None:
        if 1 <= seq <= len(self.records) and self.records[seq - 1].seq == seq:
            return self.records[seq - 1]
        return None


def join_sentences(sentences: Sequence[str]) -> str:
    """Sentences on one line, a full stop after any that lacks an ending.

    >>> join_sentences(["olga: add n=2", "The game ends: olga won."])
    'olga: add n=2. The game ends: olga won.'
    """
    ends = (".", "!", "?", ")", ":")
    return " ".join(text if text.endswith(ends) or index == len(sentences) - 1 else text + "."
                    for index, text in enumerate(sentences))


def started_sentence(rules: Rules[Any], started: GameStarted) -> str:
    """``Tiny begins with olga, patrick (in seat order); options: target=20.``

    Options are told when there are few of them (a game's data tables stay in the log).
    """
    text = f"{rules.title} begins with {', '.join(started.players)} (in seat order)"
    options = started.options
    if 0 < len(options) <= MAX_TOLD_OPTIONS:
        text += "; options: " + ", ".join(f"{k}={v}" for k, v in options.items())
    elif options:
        text += f"; {len(options)} options in force (see the log)"
    if started.parent:
        text += f"; forked from {started.parent} after seq {started.fork_seq}"
    return text + "." + board_words(options.get("board"))


def board_words(board: Any) -> str:
    """A board stored in the options that is a reconstruction (mark I) says so, and how to
    supply one (a table's own board, or none, says nothing).

    >>> board_words({"name": "Cybertron", "mark": "I"})[:62]
    ' The board is Cybertron [I]: a reconstruction, not the printed'
    >>> board_words({"name": "Ours", "mark": "V"}), board_words(None)
    ('', '')
    """
    if not isinstance(board, dict) or board.get("mark") != "I":
        return ""
    return (f" The board is {board.get('name', 'the default')} [I]: a reconstruction, not the "
            "printed board (a table supplies its own with --option board=FILE).")


def note_sentence(record: Record, note: Noted) -> str:
    """``Note (olga, about seq 12): the dice fell off the table``."""
    about = f", about seq {note.about}" if note.about is not None else ""
    return f"Note ({record.actor}{about}): {note.text}"


def signed_sentence(signed: Signed) -> str:
    """``olga's signature over the log's head at seq 412 (checked by verify and audit).``: the
    narration does not check it, and does not present it as checked."""
    return (f"{signed.signer}'s signature over the log's head at seq {signed.seq} (checked by "
            "verify and audit).")


def generic_sentence(visit: Visit) -> str:
    """``olga: roll attacker=6,3,2 defender=5,5``: who, and the action as typed."""
    return f"{visit.record.actor}: {action_text(visit.event)}"


def generic_sentences(rules: Rules[Any], visit: Visit) -> list[str]:
    """The generic narrator: the action as typed, and the game's end when this event ended it."""
    told = [generic_sentence(visit)]
    result = rules.result(visit.after)
    if result is not None and rules.result(visit.before) is None:
        reason = f" ({result.reason})" if result.reason else ""
        told.append(f"The game ends: {won_words(result)}{reason}.")
    return told


# -- a whole game --------------------------------------------------------------------------------


class NarratedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One line of ``replay --narrate``; the ``--json`` shape too."""

    seq: int
    actor: str
    type: str
    turn: int
    round: int
    phase: str
    active: tuple[str, ...]
    effective: bool
    sentences: list[str]


class NarrationVisitor(Visitor):
    """Collects the narration of every event of a walk."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.records = records
        self.lines: list[NarratedEvent] = []

    def begin_game(self, info: GameInfo) -> None:
        self.narrator = Narrator(info.rules, self.records)

    def visit_event(self, visit: Visit) -> None:
        self.lines.append(narrated(self.narrator, visit))

    def result(self) -> list[NarratedEvent]:
        return self.lines


def narrated(narrator: Narrator, visit: Visit) -> NarratedEvent:
    """One visit's narration with where it happened."""
    info = visit.turn
    return NarratedEvent(seq=visit.record.seq, actor=visit.record.actor, type=visit.record.type,
                         turn=info.turn, round=info.round, phase=info.phase, active=info.active,
                         effective=visit.effective, sentences=narrator.sentences(visit))


def narrate_game(game: str, records: Sequence[Record]) -> list[NarratedEvent]:
    """The narration of a whole log, one entry per stored event."""
    (lines,) = walk(game, records, NarrationVisitor(records), check=True)
    return lines


def turn_heading(info: TurnInfo | NarratedEvent) -> str:
    """``Turn 3 · round 2 · olga`` (``Setup`` before the first turn)."""
    if not info.turn:
        return "Setup"
    active = f" · {', '.join(info.active)}" if info.active else ""
    return f"Turn {info.turn} · round {info.round}{active}"


def turn_group(line: NarratedEvent) -> tuple[int, int]:
    """The turn and round an event is told under (the whole setup is one group, ``(0, 0)``)."""
    return (line.turn, line.round if line.turn else 0)


def narration_view(title: str, lines: Sequence[NarratedEvent]) -> RenderableType:
    """The narration as people read it: a heading per turn, one line per event."""
    parts: list[RenderableType] = [Text(title, style="bold")]
    shown: tuple[int, int] | None = None
    for line in lines:
        where = turn_group(line)
        if line.seq > 1 and where != shown:
            parts.append(Text(turn_heading(line), style="bold cyan"))
            shown = where
        text = Text()
        text.append(f"{line.seq:>5}  ", style="dim")
        text.append(join_sentences(line.sentences), style="" if line.effective else "dim")
        parts.append(text)
    return Group(*parts)
