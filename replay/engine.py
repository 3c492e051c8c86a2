"""The replay engine: a game folded to any point, and a cursor that steps through it.

A point is written the same everywhere (``--at``, ``--from``, ``--to``, ``fork``, ``note``):

>>> parse_point("seq=12")
Point(kind='seq', number=12, edge='', phase='')
>>> str(parse_point("turn=3:end")), str(parse_point("round=2")), str(parse_point("end"))
('turn=3:end', 'round=2', 'end')

Opening a :class:`Replay` folds the log once (with a visitor, checking every event) and keeps the
state at every turn boundary, plus one every :data:`SNAPSHOT_EVERY` events inside long turns. A seek
is then the nearest snapshot at or before the point plus a few applies, so it costs the same
wherever it lands. Retractions are honoured as the fold honours them: a retracted event never
counts, at any point.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import msgspec

from tabletape.ledger import (
    Damaged,
    Draft,
    Event,
    GameStarted,
    Ledger,
    Noted,
    Record,
    Retracted,
    Signed,
)
from tabletape.ledger.events import SecretRevealed
from tabletape.ledger.fingerprints import fingerprint
from tabletape.ledger.identity import uuid7
from tabletape.ledger.store import trusted
from tabletape.replay.dice_secret import committed
from tabletape.replay.fold import Folded, Step, apply_refused
from tabletape.replay.recording import create_game
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.fair_dice import new_secret
from tabletape.rules.kernel import Rules, RulesError, TurnInfo

SNAPSHOT_EVERY = 32
"""Most events applied after a snapshot inside one turn before another snapshot is kept."""

POINT_SYNTAX = ("start, end, seq=N, turn=N, turn=N:end, turn=N:PHASE, round=N, round=N:end, "
                "phase=NAME")


class BadPoint(RulesError):
    """A point that does not parse, or that this game does not have."""


class Point(NamedTuple):
    """A place in a game: a seq, the start or end of a turn or round, the start of a phase."""

    kind: str
    """``start``, ``end``, ``seq``, ``turn``, ``round`` or ``phase``."""
    number: int = 0
    edge: str = ""
    """``end`` for the last event of a turn or round; ``""`` for its start."""
    phase: str = ""
    """For ``phase=NAME`` and ``turn=N:NAME``: where that phase begins."""

    def __str__(self) -> str:
        return format_point(self)


START = Point("start")
END = Point("end")

_POINT = re.compile(r"^(seq|turn|round)=(\d+)(?::(.+))?$|^phase=(.+)$|^(start|end)$")


def parse_point(text: str) -> Point:
    """Parse ``seq=N``, ``turn=N``, ``turn=N:end``, ``turn=N:PHASE``, ``round=N``, ``round=N:end``,
    ``phase=NAME``, ``start`` or ``end``; raises :class:`BadPoint` naming the accepted forms."""
    cleaned = text.strip().lower().replace(" ", "")
    match = _POINT.match(cleaned)
    if not match:
        raise BadPoint(f"'{text}' is not a point in a game; write one of: {POINT_SYNTAX}")
    kind, number, suffix, phase, bare = match.groups()
    if bare:
        return Point(bare)
    if phase:
        return Point("phase", phase=text.strip().partition("=")[2].strip())
    if suffix and kind == "seq":
        raise BadPoint(f"'{text}': a seq takes no suffix; write seq=N")
    if suffix and kind == "round" and suffix != "end":
        raise BadPoint(f"'{text}': a round takes only ':end'; write round=N or round=N:end")
    if suffix == "end":
        return Point(kind, int(number), edge="end")
    original_suffix = text.strip().partition(":")[2].strip() if suffix else ""
    return Point(kind, int(number), phase=original_suffix)


def format_point(point: Point) -> str:
    """The text :func:`parse_point` reads back as ``point``."""
    if point.kind in ("start", "end"):
        return point.kind
    if point.kind == "phase":
        return f"phase={point.phase}"
    suffix = ":end" if point.edge == "end" else f":{point.phase}" if point.phase else ""
    return f"{point.kind}={point.number}{suffix}"


class Indexer(Visitor):
    """Collects what a :class:`Replay` keeps: events, turn info per position, snapshots."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.effective: list[bool] = []
        self.refused: list[str] = []
        self.infos: list[TurnInfo] = []
        self.snapshot_positions: list[int] = []
        self.snapshot_states: list[Any] = []
        self.since_snapshot = 0

    def visit_event(self, visit: Visit) -> None:
        position = len(self.events)
        self.events.append(visit.event)
        self.effective.append(visit.effective)
        self.refused.append(visit.refused)
        self.since_snapshot += visit.effective
        info = self.info_after(visit)
        self.infos.append(info)
        turn_changed = position == 0 or info.turn != self.infos[position - 1].turn
        if turn_changed or self.since_snapshot >= SNAPSHOT_EVERY:
            self.snapshot_positions.append(position)
            self.snapshot_states.append(visit.after)
            self.since_snapshot = 0

    def begin_game(self, info: GameInfo) -> None:
        self.game_info = info
        self.rules = info.rules

    def info_after(self, visit: Visit) -> TurnInfo:
        if visit.turn_after is not None:
            return visit.turn_after
        if not visit.effective and self.infos:
            return self.infos[-1]
        return self.rules.turn(visit.after)


class Replay:
    """A game opened for replay: any point's state in a bounded number of applies."""

    def __init__(self, game: str, records: Sequence[Record]) -> None:
        if not records:
            raise BadPoint(f"game {game} has no events")
        self.game = game
        self.records = list(records)
        indexer = Indexer()
        walk(game, self.records, indexer, check=True)
        self.info: GameInfo = indexer.game_info
        self.rules: Rules[Any] = self.info.rules
        self.started: GameStarted = self.info.started
        self.events = indexer.events
        self.effective = indexer.effective
        self.refused = indexer.refused
        self.infos = indexer.infos
        self._snap_positions = indexer.snapshot_positions
        self._snap_states = indexer.snapshot_states
        self.turn_starts = boundaries(self.infos, "turn")
        self.round_starts = boundaries(self.infos, "round")
        self.spans = {"turn": spans(self.infos, "turn"), "round": spans(self.infos, "round")}
        """Turn and round numbers -> their first and last positions."""

    def __len__(self) -> int:
        return len(self.records)

    def __repr__(self) -> str:
        return f"<Replay {self.game} {self.rules.name}: {len(self)} events>"

    @property
    def last(self) -> int:
        """The last position (the end of the game)."""
        return len(self.records) - 1

    # -- states --------------------------------------------------------------------------------

    def state_at(self, position: int) -> Any:
        """The state after the record at ``position`` (0 is game-started): snapshot + applies."""
        position = self.clamp(position)
        index = bisect.bisect_right(self._snap_positions, position) - 1
        state = self._snap_states[index]
        for at in range(self._snap_positions[index] + 1, position + 1):
            state = self.apply(state, at)
        return state

    def apply(self, state: Any, position: int) -> Any:
        """``state`` after the record at ``position`` (unchanged when it is not effective)."""
        if not self.effective[position]:
            return state
        record, event = self.records[position], self.events[position]
        if self.refused[position]:
            return apply_refused(self.rules, state, record, event)
        return self.rules.apply(state, record.actor, event)

    def visit_at(self, position: int) -> Visit:
        """The record at ``position`` as a visitor saw it: its event, the states around it."""
        position = self.clamp(position)
        before = self.state_at(position - 1) if position else self.state_at(0)
        after = self.apply(before, position) if position else before
        return Visit(record=self.records[position], event=self.events[position], before=before,
                     after=after, turn=self.infos[position - 1] if position else self.infos[0],
                     effective=self.effective[position], refused=self.refused[position])

    def folded_at(self, position: int) -> Folded:
        """The game as :func:`tabletape.replay.recording.open_game` would give it, had the log ended
        here."""
        position = self.clamp(position)
        steps = [Step(self.records[p], self.events[p])
                 for p in range(1, position + 1) if self.effective[p]]
        return Folded(self.game, self.rules, self.started, self.records[:position + 1],
                      self.state_at(position), steps, dict(self.info.retracted))

    # -- points --------------------------------------------------------------------------------

    def clamp(self, position: int) -> int:
        return max(0, min(position, self.last))

    def seq(self, position: int) -> int:
        return self.records[position].seq

    def position(self, point: Point | str) -> int:
        """Where ``point`` is; raises :class:`BadPoint` when this game has no such point."""
        point = parse_point(point) if isinstance(point, str) else point
        if point.kind == "start":
            return 0
        if point.kind == "end":
            return self.last
        if point.kind == "seq":
            if not 1 <= point.number <= len(self.records):
                raise BadPoint(f"{point}: game {self.game} has events 1 to {len(self.records)}")
            return point.number - 1
        if point.kind == "phase":
            return self.phase_start(point.phase, range(len(self.infos)), str(point))
        return self.span_position(point)

    def span_position(self, point: Point) -> int:
        """The start or end (or a phase) of a turn or round."""
        spans = self.spans[point.kind]
        if point.number not in spans:
            raise BadPoint(f"{point}: game {self.game} has {point.kind}s {min(spans)} to "
                           f"{max(spans)}")
        first, last = spans[point.number]
        if point.edge == "end":
            return last
        if point.phase:
            where = [p for p in range(first, last + 1)
                     if getattr(self.infos[p], point.kind) == point.number]
            return self.phase_start(point.phase, where, str(point))
        return first

    def phase_start(self, phase: str, positions: Sequence[int] | range, label: str) -> int:
        wanted = phase.casefold()
        for position in positions:
            current = self.infos[position].phase.casefold()
            previous = self.infos[position - 1].phase.casefold() if position else None
            if current == wanted and (previous != wanted or position == positions[0]):
                return position
        phases = sorted({self.infos[p].phase for p in positions})
        raise BadPoint(f"{label}: no phase '{phase}' there; phases: {', '.join(phases)}")

    def turn_info(self, position: int) -> TurnInfo:
        return self.infos[self.clamp(position)]


def boundaries(infos: Sequence[TurnInfo], field: str) -> list[int]:
    """Positions where ``field`` (turn or round) takes a new value, position 0 included."""
    return [p for p in range(len(infos))
            if p == 0 or getattr(infos[p], field) != getattr(infos[p - 1], field)]


def spans(infos: Sequence[TurnInfo], field: str) -> dict[int, tuple[int, int]]:
    """Each value of ``field`` (turn or round) -> the first and last positions that have it."""
    found: dict[int, tuple[int, int]] = {}
    for position, info in enumerate(infos):
        number = getattr(info, field)
        found[number] = (found.get(number, (position, position))[0], position)
    return found


class Cursor:
    """A position in a :class:`Replay` that steps by event, turn and round, and seeks points."""

    def __init__(self, replay: Replay, position: int = 0) -> None:
        self.replay = replay
        self.position = replay.clamp(position)

    def __repr__(self) -> str:
        return f"<Cursor {self.replay.game} at seq {self.seq}>"

    @property
    def seq(self) -> int:
        return self.replay.seq(self.position)

    @property
    def state(self) -> Any:
        return self.replay.state_at(self.position)

    @property
    def info(self) -> TurnInfo:
        return self.replay.turn_info(self.position)

    def move_to(self, position: int) -> Cursor:
        self.position = self.replay.clamp(position)
        return self

    def seek(self, point: Point | str) -> Cursor:
        return self.move_to(self.replay.position(point))

    def forward(self, events: int = 1) -> Cursor:
        return self.move_to(self.position + events)

    def back(self, events: int = 1) -> Cursor:
        return self.move_to(self.position - events)

    def first(self) -> Cursor:
        """To the first event (the replay page's Home)."""
        return self.move_to(0)

    def last(self) -> Cursor:
        """To the last event (the replay page's End)."""
        return self.move_to(self.replay.last)

    def next_turn(self) -> Cursor:
        return self.move_to(next_boundary(self.replay.turn_starts, self.position, self.replay.last))

    def previous_turn(self) -> Cursor:
        return self.move_to(previous_boundary(self.replay.turn_starts, self.position))

    def next_round(self) -> Cursor:
        return self.move_to(next_boundary(self.replay.round_starts, self.position,
                                          self.replay.last))

    def previous_round(self) -> Cursor:
        return self.move_to(previous_boundary(self.replay.round_starts, self.position))


def next_boundary(starts: Sequence[int], position: int, last: int) -> int:
    """The first start after ``position`` (the last position when there is none)."""
    index = bisect.bisect_right(starts, position)
    return starts[index] if index < len(starts) else last


def previous_boundary(starts: Sequence[int], position: int) -> int:
    """The last start before ``position``: the start of this span, or of the one before."""
    index = bisect.bisect_left(starts, position) - 1
    return starts[index] if index >= 0 else 0


def open_replay(ledger: Ledger, game: str) -> Replay:
    """Read ``game`` from ``ledger`` and open it for replay."""
    return Replay(game, ledger.records(game))


# -- forks ---------------------------------------------------------------------------------------


class Fork(NamedTuple):
    """What :func:`fork_game` made."""

    game: str
    parent: str
    fork_seq: int
    carried_undos: int
    """Retractions recorded after ``fork_seq`` in the parent, of events up to it, carried over."""
    damaged: str = ""
    """Why the parent fails verification, when it does (the fork repeats only good events)."""


def fork_game(ledger: Ledger, game: str, point: Point | str, new_id: str | None = None) -> Fork:
    """Start a new game that repeats ``game`` up to ``point`` (a what-if line from there).

    The new log has its own chain; its game-started names ``parent``, ``fork_seq`` and the
    parent's hash there (``fork_hash``, which ``verify`` checks against the parent). Events keep
    their actors and recorded-at times. Events up to the point that the parent retracted later are
    retracted in the fork too, so the fork begins in the state a replay shows at that point. A
    signature of the parent's is repeated as a note saying so (it vouches for the parent's
    head, not the fork's: the fork's chain has other hashes).
    """
    records, damaged = forkable(ledger, game)
    replay = Replay(game, records)
    last = replay.position(point)
    fork_seq = replay.seq(last)
    secret = new_secret()  # a what-if line: dice of its own, no one can foresee them either
    started = committed(msgspec.structs.replace(replay.started, parent=game, fork_seq=fork_seq,
                                                fork_hash=replay.records[last].hash,
                                                uid=uuid7()), secret)  # a new identity
    drafts: list[Draft] = [(replay.records[p].actor, forked_event(replay.events[p]))
                           for p in range(1, last + 1)]
    stamps = [replay.records[p].at for p in range(1, last + 1)]
    later = sorted((undo.seq, seq) for seq, undo in replay.info.retracted.items()
                   if seq <= fork_seq < undo.seq)
    for undo_seq, seq in later:
        undo = replay.records[undo_seq - 1]
        drafts.append((undo.actor, Retracted(seq=seq)))
        stamps.append(undo.at)
    new_game = create_game(ledger, started, secret,
                           game_id=new_id or ledger.new_game_id(replay.rules.short),
                           at=replay.records[0].at, then=drafts, then_at=stamps)
    return Fork(game=new_game, parent=game, fork_seq=fork_seq, carried_undos=len(later),
                damaged=damaged)


def forked_event(event: Event) -> Event:
    """An event of the parent as the fork repeats it: the parent's revealed secret becomes a note
    (the fork commits to a secret of its own; its seqs stay the parent's), and so does a
    signature (it vouches for the parent's head, not the fork's: the fork's chain has other
    hashes). The repeated events carry no mark of tabletape's dice: the parent's audit
    re-derives those."""
    if isinstance(event, SecretRevealed):
        return Noted(text="the parent game's dice secret was revealed here")
    if isinstance(event, Signed):
        return Noted(text=f"{event.signer} signed the parent's head at seq {event.seq} "
                          f"({fingerprint(event.seq, event.hash)})")
    return event


def forkable(ledger: Ledger, game: str) -> tuple[list[Record], str]:
    """The records a fork may repeat, and why the log is damaged ("" when it is not).

    A log changed after it was recorded can still be continued from its last good event: the
    events before the first bad line verified, and only those are offered.
    """
    try:
        return ledger.records(game), ""
    except Damaged as damage:
        good = trusted(*ledger.salvage(game))
        if not good:
            raise
        return good, str(damage)
