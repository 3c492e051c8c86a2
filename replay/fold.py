"""Folding a stored log through its game's rules: the one fold loop.

Recording one more action builds on it (:mod:`tabletape.replay.recording`), and so do undo and
redo (:mod:`tabletape.replay.undo`); a game's dice secret is :mod:`tabletape.replay.dice_secret`.
All of them stay free of rich and duckdb so that ``tabletape record`` starts fast.

Every reader of a log folds it with the one loop here, :class:`Fold` (the record path through
:func:`fold_records`; narration, audit, replay and the catalog through
:func:`tabletape.replay.visitor.walk`): it decodes game-started and finds the rules, skips what
is retracted, decodes each payload (through the game's upcaster when the log's rules version has
one), checks events as asked (:class:`Check`) and works out turn info.

>>> import tempfile
>>> from tabletape.ledger import Ledger
>>> from tabletape.rules.registry import find_game
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, cast

import msgspec

from tabletape.ledger import (
    Event,
    GameStarted,
    Record,
    Retracted,
    event_type,
)
from tabletape.ledger.errors import ILLEGAL_EXIT
from tabletape.ledger.identity import game_uid
from tabletape.rules.actions import (
    chance_required,
    quoted,
)
from tabletape.rules.fair_dice import chance_rng
from tabletape.rules.kernel import ActionSpec, IllegalAction, Rules, RulesError, TurnInfo, Upcaster
from tabletape.rules.registry import find_game

UNDOABLE_SKIP = frozenset({"game-started", "undo", "note", "secret-revealed", "sign"})
"""Event types that ``undo`` never retracts (it retracts the latest *action*); the fold skips
them (a note, a reveal or a signature changes nothing in the game)."""

REVEALED = "secret-revealed"
PASSIVE = frozenset({"note", REVEALED, "sign"})
"""Events that are about the log, not the game: no redo stack, no state sees them."""


class Step(msgspec.Struct, frozen=True, gc=False):
    """One effective event of a fold: its record, the decoded event, and the state after it."""

    record: Record
    event: Event


class RefusedEvent(RulesError):
    """A stored event the current rules refuse (a log from an older version, or edited): the
    log is damaged for these rules, so exit 1 like a log that fails verification."""

    exit_code = ILLEGAL_EXIT

    def __init__(self, game: str, seq: int, reason: str) -> None:
        super().__init__(
            f"event {seq} of game {game} is refused by the current rules: {reason.rstrip('.')}. "
            f"Run `tabletape verify {game}` to check the log"
        )
        self.seq = seq
        self.reason = reason


class Folded:
    """A game folded to its latest event: its rules, setup, state and the log behind them."""

    def __init__(self, game: str, rules: Rules[Any], started: GameStarted,
                 records: list[Record], state: Any, steps: list[Step],
                 retracted: dict[int, Record], *, staged: int = 0) -> None:
        self.game = game
        self.rules = rules
        self.started = started
        self.records = records
        self.state = state
        self.steps = steps
        """Effective (not retracted) events after game-started, in order."""
        self.retracted = retracted
        """Retracted seq -> the undo record that retracted it."""
        self.staged = staged
        """Events checked and folded into ``state`` but not stored yet (the earlier steps of a
        line that gives several, :func:`prepare_line`)."""
        self.before: Any = None
        """The state before the latest line's steps, when they were just appended here (what the
        echo after ``record`` compares to tell the step's consequences); else None."""

    secret: bytes | None = None
    """The game's dice secret, when the ledger keeps it and it matches the commitment
    (:func:`open_game` sets it; never stored in a log before the reveal, never printed)."""
    secret_problem: str = ""
    """Why a game with a commitment has no usable secret here ("" when it has one)."""
    staged_rolls: int = 0
    """How many of the staged events drew tabletape's dice."""
    _stored_rolls: int | None = None
    """:func:`effective_rolls` of the stored records, once counted (or carried on)."""
    _revealed: Record | bool | None = False
    """The reveal record or None, once looked for (False: not yet)."""

    def carry(self, other: Folded, *, drew: bool = False,
              appended: Sequence[Record] = ()) -> Folded:
        """``other`` (this game one step on: a staged event, or ``appended`` records) with this
        one's secret, and its roll count and reveal carried on rather than counted again."""
        other.secret, other.secret_problem = self.secret, self.secret_problem
        other.staged_rolls = self.staged_rolls + drew if other.staged else 0
        if not any(record.type == "undo" for record in appended):
            other._stored_rolls = None if self._stored_rolls is None else (
                self._stored_rolls + sum(record.drawn is not None for record in appended))
        if self._revealed is not False:
            other._revealed = self._revealed or next(
                (record for record in appended if record.type == REVEALED), None)
        return other

    @property
    def rolls(self) -> int:
        """The effective roll index the next event that draws gets: how many events, not
        retracted, drew tabletape's dice (:func:`effective_rolls`), staged ones included."""
        if self._stored_rolls is None:
            self._stored_rolls = effective_rolls(self.records, self.retracted)
        return self._stored_rolls + self.staged_rolls

    @property
    def revealed(self) -> Record | None:
        """The ``secret-revealed`` record, once the secret is in the log."""
        if self._revealed is False:
            self._revealed = next((r for r in reversed(self.records) if r.type == REVEALED),
                                  None)
        return self._revealed if isinstance(self._revealed, Record) else None

    def dice(self) -> Any:
        """The generator for the next event (:func:`tabletape.rules.kernel.chance_rng`): one
        that refuses, saying why and what to do, when tabletape may not roll for this game."""
        return chance_rng(self.started, self.next_seq, lambda: self.rolls, self.secret,
                          dice_refusal(self) if self.started.commitment else "")

    @property
    def uid(self) -> str:
        """The game's global identity (:func:`tabletape.ledger.identity.game_uid`)."""
        return game_uid(self.started.uid, self.records[0].hash)

    @property
    def head_seq(self) -> int:
        return self.records[-1].seq

    @property
    def next_seq(self) -> int:
        """The seq the next event will be stored at (after the staged ones)."""
        return self.head_seq + 1 + self.staged

    def staging(self, actor: str, event: Event, *, drew: bool = False) -> Folded:
        """This game with a checked ``event`` folded in ahead of its storing (``drew``: its
        completion drew tabletape's dice)."""
        return self.carry(Folded(self.game, self.rules, self.started, self.records,
                                 self.rules.apply(self.state, actor, event), self.steps,
                                 self.retracted, staged=self.staged + 1), drew=drew)

    def followed(self, records: list[Record], steps: list[Step], state: Any) -> Folded:
        """This game with ``records`` just appended (folding to ``steps`` and ``state``)."""
        after = Folded(self.game, self.rules, self.started, [*self.records, *records], state,
                       [*self.steps, *steps], self.retracted)
        after.before = self.state
        return self.carry(after, appended=records)

    def __repr__(self) -> str:
        return f"<Folded {self.game} {self.rules.name} at seq {self.head_seq}>"


def decoder(rules: Rules[Any], tag: str) -> msgspec.json.Decoder[Any]:
    """The reusable decoder of ``rules``' event type ``tag``, built on first use and cached on the
    rules object (KeyError for a type the game does not have)."""
    cached = getattr(rules, "_tabletape_decoders", None)
    if cached is None:
        cached = rules._tabletape_decoders = {}  # type: ignore[attr-defined]
    found = cached.get(tag)
    if found is None:
        found = cached[tag] = msgspec.json.Decoder(rules.event_types()[tag])
    return found


Decode = Callable[[bytes], Event]
"""Stored payload -> the event it holds (raises msgspec's errors when it holds none)."""


class EventDecoders(dict[str, Decode]):
    """Each event type's decode in a log of one rules version, built when first looked up: a
    decoder resolves its class's annotations, so building them all would cost a short command
    (``status`` of a small game) more than its fold. KeyError for an unknown type."""

    def __init__(self, rules: Rules[Any], version: str) -> None:
        super().__init__()
        self.rules, self.version = rules, version

    def __missing__(self, tag: str) -> Decode:
        plain = decoder(self.rules, tag)
        upcast = self.rules.upcasters.get((tag, self.version))
        decode = upcasting(upcast, plain, self.version) if upcast else plain.decode
        self[tag] = decode
        return decode


def event_decoders(rules: Rules[Any], version: str = "") -> dict[str, Decode]:
    """How each event type's payload decodes in a log recorded under rules ``version``.

    The cached decoders, with the game's upcaster in front for the types that have one at that
    version (cached per version on the rules object).
    """
    tables = getattr(rules, "_tabletape_tables", None)
    if tables is None:
        tables = rules._tabletape_tables = {}  # type: ignore[attr-defined]
    table = tables.get(version)
    if table is None:
        table = tables[version] = EventDecoders(rules, version)
    return table


def upcasting(upcast: Upcaster, decoder: msgspec.json.Decoder[Any], version: str) -> Decode:
    """``decoder`` reading payloads of rules ``version`` through ``upcast`` (the stored bytes are
    never changed: only the decoded value is)."""

    def decode(payload: bytes) -> Event:
        old = msgspec.json.decode(payload)
        try:
            current = upcast(old)
        except (KeyError, TypeError, ValueError) as error:
            raise msgspec.ValidationError(
                f"not a payload of rules version {version} ({type(error).__name__}: {error})"
            ) from None
        return decoder.decode(msgspec.json.encode(current))

    return decode


def decode_event(rules: Rules[Any], record: Record, game: str = "?", version: str = "") -> Event:
    """The event stored in ``record``, as its game's Struct; RefusedEvent when it is not one.

    ``version`` is the rules version the log was recorded under (its upcasters apply).
    """
    try:
        decode = event_decoders(rules, version)[record.type]
    except KeyError:
        raise RefusedEvent(game, record.seq, f"unknown event type '{record.type}'") from None
    try:
        return decode(record.payload)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise RefusedEvent(game, record.seq, f"its {record.type} payload is not valid: {error}"
                           ) from None


def retractions(records: Iterable[Record]) -> dict[int, Record]:
    """Which seqs are retracted, and by which undo record."""
    undo = msgspec.json.Decoder(Retracted)
    return {undo.decode(r.payload).seq: r for r in records if r.type == "undo"}


def effective_rolls(records: Iterable[Record], retracted: Mapping[int, Record]) -> int:
    """How many of ``records`` drew tabletape's dice and are not retracted: the effective roll
    index of the next event that draws. Read from the envelopes alone (their ``drawn`` mark),
    no payload decoded: undoing a roll takes its index back, a note or an event that drew
    nothing leaves it as it was."""
    return sum(1 for r in records if r.drawn is not None and r.seq not in retracted)


def dice_refusal(folded: Folded) -> str:
    """Why tabletape may not roll for a game with a commitment now, and what the table does
    instead; "" when it may."""
    enter = ("roll real dice and enter them as they landed (cards as drawn): `tabletape "
             f"actions {folded.game}` lists the fields to fill")
    revealed = folded.revealed
    if revealed is not None:
        return (f"the dice secret of game {folded.game} was revealed at event {revealed.seq}, "
                f"so anyone could foresee its dice: tabletape rolls no more for it; {enter}")
    if folded.secret is None:
        return f"{folded.secret_problem or 'its dice secret is not here'}: {enter}"
    return ""


def actions_now(folded: Folded) -> tuple[list[ActionSpec], str]:
    """What may be recorded now (``actions``, at the prompt too), and why the dice tabletape
    would fill are the table's to enter when it may not roll (then marked required), or ""."""
    specs = list(folded.rules.legal_actions(folded.state))
    cannot_roll = dice_refusal(folded) if folded.started.commitment else ""
    if not cannot_roll:
        return specs, ""
    required = list(chance_required(folded.rules, folded.state, specs, cannot_roll))
    return required, cannot_roll if required != specs else ""


# -- the one fold loop ---------------------------------------------------------------------------


class Check(enum.Enum):
    """What the fold does with each effective event besides applying it."""

    NONE = "none"
    """Apply only: the events were checked when they were recorded."""
    REFUSE = "refuse"
    """Check first: a refused event ends the fold in :class:`RefusedEvent` (the record path)."""
    REPORT = "report"
    """Check first: a refused event is reported in ``Visit.refused`` and applied anyway when
    ``apply`` can (an audit sees the whole log)."""


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """What a fold (and a visitor) learns when a game begins."""

    game: str
    rules: Rules[Any]
    started: GameStarted
    start_state: Any
    retracted: dict[int, Record]
    """Retracted seq -> the undo record that retracted it."""


class Visit(msgspec.Struct, frozen=True, gc=False):
    """One stored event as the fold meets it."""

    record: Record
    event: Event
    before: Any
    after: Any
    turn: TurnInfo
    """Where the game was when the event was recorded (turn info of ``before``)."""
    effective: bool
    """False for game-started, undo, note and retracted events: they do not change the state."""
    refused: str = ""
    """When folding with :attr:`Check.REPORT`: why the current rules refuse this event ("" if
    legal)."""
    turn_after: TurnInfo | None = None
    """Turn info of ``after`` (the next visit's ``turn``), when the fold worked it out."""


_NO_TURN = TurnInfo(turn=0, round=0, phase="", active=())
"""Turn info where none is worked out (:meth:`Fold.steps`)."""

Stepper = Callable[[Any, Record, Event], tuple[Any, str]]
"""(state, record, event) -> the state after the event, and why it was refused ("" if legal)."""


def begin(game: str, records: Sequence[Record]) -> GameInfo:
    """What folding ``records`` starts from: game-started decoded, its rules looked up, the start
    state, and the retractions."""
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    rules = find_game(started.kind)
    return GameInfo(game=game, rules=rules, started=started, start_state=rules.start(started),
                    retracted=retractions(records))


class Fold:
    """One pass of the one loop that folds a log, in seq order.

    Iterate :meth:`visits` (every record as a :class:`Visit`, with turn info: the visitors'
    view) or :meth:`steps` (the effective events as :class:`Step`s: the record path, which needs
    neither the states between nor turn info); once iterated to the end, :attr:`state` is the
    state after the last record.

    The loop owns what every reader of a log needs alike: the retraction skip (game-started,
    undo and note records and retracted events leave the state as it was), decoding (cached
    per-type decoders, the game's upcaster first when the log's ``rules_version`` has one for the
    type, :class:`RefusedEvent` saying why when a payload holds no event), the ``check`` policy
    (rules with ``apply_checks`` are checked by ``apply`` itself: each event is stepped once),
    and turn info (``rules.turn`` once per state: states are immutable).
    """

    def __init__(self, info: GameInfo, records: Sequence[Record],
                 check: Check = Check.NONE) -> None:
        self.info = info
        self.records = records
        self.check = check
        self.state: Any = info.start_state
        """The state after the records met so far (set when the loop ends)."""

    def visits(self) -> Iterator[Visit]:
        return cast(Iterator[Visit], self.loop(whole=True))

    def steps(self) -> Iterator[Step]:
        return cast(Iterator[Step], self.loop(whole=False))

    def loop(self, *, whole: bool) -> Iterator[Visit | Step]:
        """The loop itself: every record as a Visit (``whole``), else effective events as Steps."""
        info, check, records = self.info, self.check, self.records
        rules, started, game = info.rules, info.started, info.game
        version = started.rules_version
        table = event_decoders(rules, version)
        apply, turn_of = rules.apply, rules.turn
        stepped_once = check is Check.NONE or (check is Check.REFUSE and rules.apply_checks)
        step = stepper(rules, game, check)
        retracted, skip = info.retracted, UNDOABLE_SKIP
        state = info.start_state
        turn = turn_of(state) if whole else _NO_TURN
        if whole:
            yield Visit(records[0], started, state, state, turn, False, "", turn)
        for record in islice(records, 1, None):
            kind = record.type
            if kind in skip or record.seq in retracted:
                if whole:
                    event = decode_event(rules, record, game, version)
                    yield Visit(record, event, state, state, turn, False, "", turn)
                continue
            try:
                event = table[kind](record.payload)
            except (KeyError, msgspec.ValidationError, msgspec.DecodeError):
                event = decode_event(rules, record, game, version)  # raises, saying why
            if stepped_once:  # the common paths, inline: apply alone
                try:
                    after, refused = apply(state, record.actor, event), ""
                except IllegalAction as error:
                    if check is Check.NONE:
                        raise
                    raise refused_event(rules, game, state, record, event, error) from None
            else:
                after, refused = step(state, record, event)
            if whole:
                before_turn = turn
                if after is not state:  # states are immutable: the same state, the same turn
                    turn = turn_of(after)
                yield Visit(record, event, state, after, before_turn, True, refused, turn)
            else:
                yield Step(record, event)
            state = after
        self.state = state


def stepper(rules: Rules[Any], game: str, check: Check) -> Stepper:
    """How one effective event is checked and applied under ``check``."""
    apply, apart = rules.apply, not rules.apply_checks

    def unchecked(state: Any, record: Record, event: Event) -> tuple[Any, str]:
        return apply(state, record.actor, event), ""

    def refuse(state: Any, record: Record, event: Event) -> tuple[Any, str]:
        try:
            if apart:
                rules.check(state, record.actor, event)
            else:
                return apply(state, record.actor, event), ""
        except IllegalAction as error:
            raise refused_event(rules, game, state, record, event, error) from None
        return apply(state, record.actor, event), ""

    def report(state: Any, record: Record, event: Event) -> tuple[Any, str]:
        try:
            if apart:
                rules.check(state, record.actor, event)
            else:
                return apply(state, record.actor, event), ""
        except IllegalAction as error:
            if apart:
                return apply_refused(rules, state, record, event), error.message()
            return state, refusal(rules, state, record, event, error)
        return apply(state, record.actor, event), ""

    return {Check.NONE: unchecked, Check.REFUSE: refuse, Check.REPORT: report}[check]


def refused_event(rules: Rules[Any], game: str, state: Any, record: Record, event: Event,
                  error: IllegalAction) -> RefusedEvent:
    """The :class:`RefusedEvent` for an event the rules refused with ``error``."""
    why = refusal(rules, state, record, event, error) if rules.apply_checks else error.message()
    return RefusedEvent(game, record.seq, why)


def apply_refused(rules: Rules[Any], state: Any, record: Record, event: Event) -> Any:
    """Apply an event the rules refused, when ``apply`` can; else leave the state as it was."""
    try:
        return rules.apply(state, record.actor, event)
    except Exception:  # a refused event may break apply's assumptions: the audit reports it
        return state


def fold_records(game: str, records: list[Record], *, check: bool = True) -> Folded:
    """Fold a whole log (retractions honoured); ``check`` re-checks every event with the rules
    (a refused one ends the fold in :class:`RefusedEvent`)."""
    info = begin(game, records)
    fold = Fold(info, records, Check.REFUSE if check else Check.NONE)
    steps = list(fold.steps())
    return Folded(game, info.rules, info.started, records, fold.state, steps, info.retracted)


def refusal(rules: Rules[Any], state: Any, record: Record, event: Event,
            error: IllegalAction) -> str:
    """Why ``check`` refuses an event ``apply`` refused (``check`` words it for people)."""
    try:
        rules.check(state, record.actor, event)
    except IllegalAction as checked:
        return checked.message()
    return error.message()


def describe_step(step: Step) -> str:
    """``olga: roll attacker=6,3,2 defender=5,5``: an event in the action syntax."""
    return f"{step.record.actor}: {action_text(step.event)}"


def action_text(event: Event) -> str:
    """The typed form of an event (the inverse of :func:`tabletape.rules.actions.event_from`).

    Fields still at their default are left out, as a person would leave them out.
    """
    parts = [event_type(event)]
    for field in msgspec.structs.fields(event):
        value = getattr(event, field.name)
        if not field.required and value == field.default:
            continue
        if value is None or value == () or value == []:
            continue
        parts.append(f"{field.encode_name}={quoted(format_field(value))}")
    return " ".join(parts)


def format_field(value: object) -> str:
    """A field value as typed: lists comma-separated, booleans lowercase."""
    if isinstance(value, list | tuple):
        return ",".join(format_field(v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
