"""Undo and redo: a retraction appended to the log (never an edit), and the step it undid
found again to redo.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tabletape.ledger import (
    TABLE,
    Ledger,
    Record,
    Retracted,
)
from tabletape.ledger.events import Drawn
from tabletape.replay.fold import PASSIVE, Folded, Step, decode_event, describe_step
from tabletape.replay.recording import append_checked, open_game, resolve_player
from tabletape.rules.actions import (
    ActionSyntaxError,
)
from tabletape.rules.kernel import IllegalAction, Rules


def undo(
    ledger: Ledger, game: str, *, by: str = TABLE, at: str | None = None
) -> tuple[Folded, Step]:
    """Retract the latest effective action; return the refolded game and what was undone.

    ``by`` names who undid it (a player, matched as ``by=`` is everywhere, or the table): the
    undo record's actor, the audit's "by".
    """
    folded = open_game(ledger, game)
    actor = resolve_player(by, (*folded.started.players, TABLE))
    if not folded.steps:
        raise IllegalAction("there is nothing to undo: no action has been recorded yet")
    undone = folded.steps[-1]
    ledger.append(game, [(actor, Retracted(seq=undone.record.seq))],
                  expected_seq=folded.head_seq, expected_hash=folded.records[-1].hash, at=at)
    return open_game(ledger, game), undone


def by_argument(words: Sequence[str]) -> str:
    """Who ``by=NAME`` among the words typed after ``undo GAME`` names (the table if none).

    >>> by_argument(["by=olga"]), by_argument([])
    ('olga', 'table')
    """
    names = [word.partition("=")[2] for word in words if word.startswith("by=")]
    rest = [word for word in words if not word.startswith("by=")]
    if rest or len(names) > 1:
        raise ActionSyntaxError("undo takes only by=NAME (who takes the action back), not "
                                f"{' '.join(rest) or 'by= twice'}")
    return names[0] if names else TABLE


def redo(ledger: Ledger, game: str, *, at: str | None = None) -> tuple[Folded, Record, Step]:
    """Re-append the action the latest ``undo`` retracted, as a new event, if still legal.

    Several undos are redone in reverse order, one per call; anything recorded since the undo
    (but notes) leaves nothing to redo. The re-appended event is the retracted one, as its
    actor recorded it (the same dice, the same cards), checked against the rules now. Returns
    the game after it, the new record, and the retracted step it repeats.
    """
    folded = open_game(ledger, game)
    again = redoable(folded)
    try:
        folded.rules.check(folded.state, again.record.actor, again.event)
    except IllegalAction as refusal:
        raise IllegalAction(f"cannot redo event {again.record.seq} ({describe_step(again)}): "
                            f"the rules refuse it now: {refusal}") from None
    drawn = again.record.drawn  # the same dice at the same effective roll index
    after, record = append_checked(
        ledger, folded, again.record.actor, again.event, at=at,
        drawn=None if drawn is None else Drawn(roll=folded.rolls, filled=drawn.filled))
    return after, record, again


class Redos(msgspec.Struct):
    """The log read as undo/redo stack: what a redo would repeat, and what redos there were."""

    stack: list[Step] = []
    """The retracted actions a redo may repeat, the next one last."""
    since: Record | None = None
    """The action recorded since the last undo that emptied the stack (no redo after it)."""
    undone_any: bool = False
    cut: Record | None = None
    """The latest action recorded while undone actions waited for a redo (they never can be)."""
    repeats: dict[int, int] = {}
    """Seq of each redo -> the seq of the action it recorded again."""


def redos(folded: Folded) -> Redos:
    """:func:`redo_walk` of a folded game."""
    return redo_walk(folded.game, folded.rules, folded.records)


def redo_walk(game: str, rules: Rules[Any], records: Sequence[Record]) -> Redos:
    """Read the log as a stack: each undo pushes what it retracted, an action equal to the top
    (a redo) pops it, any other action empties it (notes and the reveal change nothing)."""
    walk = Redos()
    by_seq = {record.seq: record for record in records}
    for record in records[1:]:
        if record.type in PASSIVE:  # about the log, not the game: no redo moves
            continue
        if record.type == "undo":
            retracted = by_seq[msgspec.json.decode(record.payload, type=Retracted).seq]
            walk.stack.append(Step(retracted, decode_event(rules, retracted, game)))
            walk.undone_any, walk.since = True, None
        elif walk.stack and same_action(rules, game, record, walk.stack[-1]):
            walk.repeats[record.seq] = walk.stack.pop().record.seq
        else:
            if walk.stack:
                walk.cut = record
            walk.stack.clear()
            walk.since = record if walk.undone_any else None
    return walk


def redoable(folded: Folded) -> Step:
    """The retracted action a ``redo`` would re-append now; :class:`IllegalAction` if none."""
    walk = redos(folded)
    if walk.stack:
        return walk.stack[-1]
    if walk.since is not None:
        raise IllegalAction(f"there is nothing to redo: event {walk.since.seq} was recorded "
                            "since the last undo (redo only repeats what undo took back just "
                            "before)")
    if walk.cut is not None:
        raise IllegalAction(f"there is nothing to redo: what was undone since event "
                            f"{walk.cut.seq} is redone already, and event {walk.cut.seq} was "
                            "recorded after the undos before it (redo only repeats what undo "
                            "took back just before)")
    if walk.undone_any:
        raise IllegalAction("there is nothing to redo: every undone action is redone already")
    raise IllegalAction("there is nothing to redo: no action has been undone")


def same_action(rules: Rules[Any], game: str, record: Record, step: Step) -> bool:
    """True when ``record`` repeats ``step``'s action: the same actor, type and event."""
    return (record.actor == step.record.actor and record.type == step.record.type
            and decode_event(rules, record, game) == step.event)
