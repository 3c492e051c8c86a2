"""Walking a log with visitors: the one way narration, audit, exporters and projections read games.

A visitor sees the game begin, every stored event with the state before and after it, and the
end (the shape of python-chess's ``pgn.BaseVisitor``)::

    class CountRolls(Visitor):
        def begin_game(self, game): self.rolls = 0
        def visit_event(self, visit): self.rolls += visit.record.type == "roll"
        def result(self): return self.rolls

    walk(game_id, records, CountRolls())

Every record is visited, including game-started, undo, note and retracted ones (``effective`` is
False for those, and ``before is after``), so an auditor sees the whole log and a projection can
skip what the fold skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tabletape.ledger import Event, GameStarted, Record
from tabletape.replay.fold import UNDOABLE_SKIP, decode_event, decoders, retractions
from tabletape.rules.kernel import IllegalAction, Rules, TurnInfo, find_game


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """What a visitor learns when a game begins."""

    game: str
    rules: Rules[Any]
    started: GameStarted
    start_state: Any
    retracted: dict[int, Record]
    """Retracted seq -> the undo record that retracted it."""


class Visit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One stored event as a visitor sees it."""

    record: Record
    event: Event
    before: Any
    after: Any
    turn: TurnInfo
    """Where the game was when the event was recorded (turn info of ``before``)."""
    effective: bool
    """False for game-started, undo, note and retracted events: they do not change the state."""
    refused: str = ""
    """When walking with ``check=True``: why the current rules refuse this event ("" if legal)."""


class Visitor:
    """Base visitor: override what you need. ``result`` is what :func:`walk` returns."""

    def begin_game(self, info: GameInfo) -> None:
        """Called once, before any event."""

    def visit_event(self, visit: Visit, /) -> None:
        """Called for every stored record, in seq order (positionally: a visitor may make it a
        list's ``append``)."""

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        """Called once, after the last event."""

    def result(self) -> Any:
        return None


def walk(
    game: str, records: Sequence[Record], *visitors: Visitor, check: bool = False
) -> list[Any]:
    """Fold ``records`` once, showing every event to every visitor; return their results.

    With ``check``, each effective event is checked by the current rules first; a refused one is
    reported in ``Visit.refused`` and applied anyway when ``apply`` can (so an audit sees them all).
    """
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    rules = find_game(started.kind)
    state = rules.start(started)
    info = GameInfo(game=game, rules=rules, started=started, start_state=state,
                    retracted=retractions(records))
    for visitor in visitors:
        visitor.begin_game(info)
    if check:
        for record in records:
            state = visit_record(rules, info, record, state, visitors, check)
    else:
        state = walk_unchecked(rules, info, records, state, visitors)
    for visitor in visitors:
        visitor.end_game(info, state)
    return [visitor.result() for visitor in visitors]


def walk_unchecked(rules: Rules[Any], info: GameInfo, records: Sequence[Record], state: Any,
                   visitors: Sequence[Visitor]) -> Any:
    """:func:`visit_record` over every record without ``check``, in one tight loop.

    The same visits, made cheaper: methods bound once, events decoded with the cached per-type
    decoders, and ``rules.turn`` called once per state rather than once per record (states are
    immutable, so a record that leaves the state as it was shares the turn info before it).
    """
    calls = [visitor.visit_event for visitor in visitors]
    table = decoders(rules)
    apply, turn_of = rules.apply, rules.turn
    retracted, skip, started = info.retracted, UNDOABLE_SKIP, info.started
    event: Event
    turn: TurnInfo  # set at the first record: no state is _NO_STATE
    turn_state: object = _NO_STATE
    for record in records:
        seq, kind = record.seq, record.type
        if seq == 1:
            event = started
        else:
            try:
                event = table[kind].decode(record.payload)
            except (KeyError, msgspec.ValidationError, msgspec.DecodeError):
                event = decode_event(rules, record, info.game)  # raises RefusedEvent, saying why
        if state is not turn_state:
            turn, turn_state = turn_of(state), state
        if kind in skip or seq in retracted:
            visit = Visit(record=record, event=event, before=state, after=state, turn=turn,
                          effective=False)
        else:
            after = apply(state, record.actor, event)
            visit = Visit(record=record, event=event, before=state, after=after, turn=turn,
                          effective=True)
            state = after
        for call in calls:
            call(visit)
    return state


_NO_STATE = object()
"""Not a state: the turn info cache starts empty."""


def visit_record(rules: Rules[Any], info: GameInfo, record: Record, state: Any,
                 visitors: Sequence[Visitor], check: bool) -> Any:
    """Show one record to the visitors; return the state after it."""
    event = info.started if record.seq == 1 else decode_event(rules, record)
    effective = record.type not in UNDOABLE_SKIP and record.seq not in info.retracted
    refused = ""
    after = state
    if effective:
        if check:
            try:
                rules.check(state, record.actor, event)
            except IllegalAction as error:
                refused = error.message()
        after = apply_refused(rules, state, record, event) if refused else rules.apply(
            state, record.actor, event)
    visit = Visit(record=record, event=event, before=state, after=after,
                  turn=rules.turn(state), effective=effective, refused=refused)
    for visitor in visitors:
        visitor.visit_event(visit)
    return after


def apply_refused(rules: Rules[Any], state: Any, record: Record, event: Event) -> Any:
    """Apply an event the rules refused, when ``apply`` can; else leave the state as it was."""
    try:
        return rules.apply(state, record.actor, event)
    except Exception:  # a refused event may break apply's assumptions: the audit reports it
        return state
