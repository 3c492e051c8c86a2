"""Folding a stored log through its game's rules, and recording one more action on it.

This is the path every recorded action takes (parse, complete, check, append, fold), kept free of
rich and duckdb so that ``tabletape record`` starts fast.

Every reader of a log folds it with the one loop here, :class:`Fold` (the record path through
:func:`fold_records`; narration, audit, replay and the catalog through
:func:`tabletape.replay.visitor.walk`): it decodes game-started and finds the rules, skips what
is retracted, decodes each payload (through the game's upcaster when the log's rules version has
one), checks events as asked (:class:`Check`) and works out turn info.

>>> import tempfile
>>> from tabletape.ledger import Ledger
>>> from tabletape.rules.kernel import find_game
"""

from __future__ import annotations

import copy
import enum
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, cast

import msgspec

from tabletape.ledger import (
    TABLE,
    Event,
    GameStarted,
    Ledger,
    LedgerError,
    Record,
    Retracted,
    VersionConflict,
    event_type,
)
from tabletape.ledger.codec import utc_stamp
from tabletape.ledger.errors import ILLEGAL_EXIT
from tabletape.ledger.events import Drawn, DrawnDraft, SecretRevealed
from tabletape.ledger.identity import game_uid
from tabletape.rules.actions import (
    ActionSyntaxError,
    ParsedAction,
    chance_required,
    event_from,
    field_specs,
    only_choices_filled,
    parse_action,
    quoted,
)
from tabletape.rules.kernel import (
    PER_FIELD,
    ActionSpec,
    IllegalAction,
    Rules,
    RulesError,
    TurnInfo,
    Upcaster,
    chance_rng,
    commitment,
    completed,
    drawn_draft,
    find_game,
    unknown_name_message,
    won_words,
)
from tabletape.rules.lines import split_steps
from tabletape.rules.seats import AmbiguousName, find_seat

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


def load_secret(ledger: Ledger, game: str, started: GameStarted) -> tuple[bytes | None, str]:
    """The dice secret ``ledger`` keeps for ``game``, checked against its commitment, or None and
    why (the secret is never part of the message)."""
    if not started.commitment:
        return None, ""
    secret = ledger.secret(started.uid) if started.uid else None
    place = f"{ledger.private_dir}{os.sep}dice"
    if secret is None and secret_kept(ledger, started.uid):
        return None, (f"game {game}'s dice secret in {place} is damaged (it is not the 64 hex "
                      "digits tabletape wrote), so tabletape cannot roll for it")
    if secret is None:
        return None, (f"game {game}'s dice secret is not in this ledger (not in {place}: "
                      "deleted, or the game was recorded in another ledger), so tabletape "
                      "cannot roll for it")
    if commitment(secret) != started.commitment:
        return None, (f"the dice secret kept for game {game} in {place} does not match the "
                      "commitment in its log, so tabletape cannot roll for it")
    return secret, ""


def secret_kept(ledger: Ledger, uid: str) -> bool:
    """Whether a file stands where ``ledger`` keeps the dice secret of game ``uid``."""
    try:
        return bool(uid) and ledger.secret_path(uid).exists()
    except (LedgerError, OSError):
        return False


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


def open_game(ledger: Ledger, game: str) -> Folded:
    """Read ``game`` from ``ledger``, its hash chain verified first, and fold it.

    A changed or broken line is named (``ledger.Damaged``) before any rule sees the events, so a
    tampered log never shows as a rule refusing some later event. A long log's fold is kept in the
    ledger's cache and used while the log is byte for byte the one folded
    (:mod:`tabletape.replay.snapshots`).
    """
    from tabletape.replay.snapshots import open_cached  # it builds on this module

    folded = open_cached(ledger, game)
    if folded.started.commitment:
        folded.secret, folded.secret_problem = load_secret(ledger, game, folded.started)
    return folded


def committed(started: GameStarted, secret: bytes | None) -> GameStarted:
    """``started`` committing to ``secret`` (as it is without one: a public ``seed``)."""
    if secret is None:
        return msgspec.structs.replace(started, commitment="", dice_streams=msgspec.UNSET)
    return msgspec.structs.replace(started, commitment=commitment(secret),
                                   dice_streams=PER_FIELD)


def create_game(ledger: Ledger, started: GameStarted, secret: bytes | None,
                **create: Any) -> str:
    """Create a game's log (``create`` as :meth:`Ledger.create` takes it), its dice secret kept
    in the ledger's private area first: a game never commits to a secret that was not kept.
    The secret is removed again when the log cannot be created."""
    if secret is None:
        return ledger.create(started, **create)
    kept = ledger.keep_secret(started.uid, secret)
    try:
        return ledger.create(started, **create)
    except BaseException:
        kept.unlink(missing_ok=True)
        raise


def reveal(ledger: Ledger, game: str, *, at: str | None = None) -> tuple[Folded, Record]:
    """Append the table's ``secret-revealed`` to a game that will not end (abandoned): from then
    on anyone can re-derive its dice, and tabletape rolls no more for it. Refused (nothing
    written) for a game with no secret, one revealed already, or one whose secret is not here."""
    folded = open_game(ledger, game)
    if not folded.started.commitment:
        raise IllegalAction(f"game {game} has no dice secret to reveal: its dice derive from "
                            "the public seed in its first event (a log from before secrets, "
                            "or a game started with --seed)")
    if folded.revealed is not None:
        raise IllegalAction(f"game {game}'s dice secret is revealed already (event "
                            f"{folded.revealed.seq})")
    if folded.secret is None:
        raise IllegalAction(f"{folded.secret_problem}; nor can it be revealed here (reveal it "
                            "from the ledger that started the game)")
    (record,) = ledger.append(game, [(TABLE, SecretRevealed(secret=folded.secret.hex()))],
                              expected_seq=folded.head_seq,
                              expected_hash=folded.records[-1].hash, at=at)
    return open_game(ledger, game), record


def resolve_player(name: str, players: Sequence[str]) -> str:
    """The name a typed ``by=NAME`` means among ``players`` (``table`` among them), as
    :func:`~tabletape.rules.seats.find_seat` reads it; raises :class:`ActionSyntaxError`.

    >>> resolve_player("pat", ("Olga", "Patrick", "table"))
    'Patrick'
    """
    try:
        seat = find_seat(name, players)
    except AmbiguousName as error:
        raise ActionSyntaxError(error.message()) from None
    if seat is None:
        raise ActionSyntaxError(unknown_name_message("player", name, list(players)))
    return players[seat]


def prepare(folded: Folded, text: str | Sequence[str]) -> tuple[str, Event]:
    """Turn typed text into the checked ``(actor, event)`` that would be appended next.

    Raises :class:`ActionSyntaxError` or :class:`IllegalAction` (the rule's reason, with "did
    you mean" when a typed value is a near miss of an allowed one).
    """
    return prepare_step(folded, parse_action(text))


def prepare_line(folded: Folded, text: str | Sequence[str]) -> list[tuple[str, Event]]:
    """The checked ``(actor, event)`` pairs a typed line means: one, or one per step of an action
    the game lets a line give several of (:attr:`Rules.several`, ``battle attacker=3,5
    defender=4,1``).

    Each step is checked on the state the steps before it leave, exactly as if typed alone; a
    step refused names itself (``exchange 3 of 3 (attacker=2 defender=6): …``) and nothing is
    returned, so nothing is stored.
    """
    parsed = parse_action(text)
    noun = folded.rules.several.get(parsed.action)
    cls = folded.rules.event_types().get(parsed.action) if noun else None
    kinds = {spec.name: spec.kind for spec in field_specs(cls)} if cls else {}
    if noun is None or not kinds.keys() >= parsed.values.keys():
        return [prepare_step(folded, parsed)]  # an unknown field is named for the whole line
    steps = split_steps(parsed, kinds, noun)
    prepared: list[tuple[str, Event]] = []
    for index, step in enumerate(steps, 1):
        try:
            draft = prepare_step(folded, step)
        except RulesError as error:
            if len(steps) == 1:
                raise
            raise in_step(error, f"{noun} {index} of {len(steps)} ({values_text(step)})") from None
        prepared.append(draft)
        folded = folded.staging(*draft, drew=isinstance(draft, DrawnDraft))
    return prepared


def values_text(parsed: ParsedAction) -> str:
    """``attacker=3 defender=4``: the fields of one step as typed."""
    return " ".join(f"{key}={value}" for key, value in parsed.values.items()) or "no fields"


def in_step(error: RulesError, where: str) -> RulesError:
    """``error`` (its class and exit status kept) with ``where`` it happened said first."""
    found = copy.copy(error)
    if isinstance(found, IllegalAction):
        found.reason = f"{where}: {found.reason}; nothing was recorded"
        found.args = (found.reason,)
    else:
        found.args = (f"{where}: {error}; nothing was recorded",)
    return found


def prepare_step(folded: Folded, parsed: ParsedAction) -> tuple[str, Event]:
    """The checked ``(actor, event)`` of one parsed action, with "did you mean" on a refusal."""
    try:
        return prepare_parsed(folded, parsed)
    except IllegalAction as refusal:
        typed = [part for value in parsed.values.values() for part in value.split(",")]
        raise refusal.suggesting([part.strip() for part in typed]) from None


def prepare_parsed(folded: Folded, parsed: ParsedAction) -> tuple[str, Event]:
    """The checked ``(actor, event)`` a parsed action means now."""
    rules = folded.rules
    if parsed.action in UNDOABLE_SKIP:
        raise ActionSyntaxError(
            "a game is started with `tabletape new`" if parsed.action == "game-started"
            else "the dice secret is revealed when the game ends, or by `tabletape reveal GAME`"
            if parsed.action == REVEALED
            else f"'{parsed.action}' is not recorded this way; use `tabletape {parsed.action}`"
        )
    types = {tag: cls for tag, cls in rules.event_types().items() if tag not in UNDOABLE_SKIP}
    parsed = only_choices_filled(parsed, types, lambda: rules.legal_actions(folded.state))
    event = event_from(parsed, types)
    refuse_when_over(rules, folded.state)
    if parsed.by:
        actor = resolve_player(parsed.by, (*folded.started.players, "table"))
        return completed_and_checked(folded, actor, event)
    return the_only_actor(folded, parsed.action, event)


def refuse_when_over(rules: Rules[Any], state: Any) -> None:
    """Refuse every action once the game is over, saying how it ended and who won."""
    result = rules.result(state)
    if result is None:
        return
    reason = f" ({result.reason})" if result.reason else ""
    raise IllegalAction(f"the game is over: {won_words(result)}{reason}; nothing more is "
                        "recorded (`tabletape undo` takes back the last action)")


def completed_and_checked(folded: Folded, actor: str, event: Event) -> tuple[str, Event]:
    """The draft of ``event`` with what tabletape decides filled in, once the rules accept it
    from ``actor``: a :class:`~tabletape.ledger.events.DrawnDraft` (stored with its effective
    roll index and the fields filled) when its completion drew tabletape's dice."""
    rng = folded.dice()
    filled = completed(folded.rules, folded.state, actor, event, rng)
    folded.rules.check(folded.state, actor, filled)
    return drawn_draft(actor, event, filled, rng, lambda: folded.rolls)


def the_only_actor(folded: Folded, action: str, event: Event) -> tuple[str, Event]:
    """With nobody named: the one player the rules accept this exact action from.

    The players who may take ``action`` now are tried in turn (those expected to act first; when
    the rules list nobody, those expected to act, so that a refusal gives their own reason, such
    as "Olga has no Gems", rather than "nobody may"). The one accepted acts (``play card=rally``
    is Olga's when only she may play a Rally now); when several would be accepted, the action is
    not credited to anyone by guess: ``by=NAME`` is asked for.
    """
    rules = folded.rules
    active = rules.turn(folded.state).active
    specs = [s for s in rules.legal_actions(folded.state) if s.type == action]
    listed = specs[0].actors if specs else ()
    candidates = sorted(listed or active, key=lambda actor: actor not in active)
    if not candidates:
        allowed = sorted({s.type for s in rules.legal_actions(folded.state)})
        raise IllegalAction(f"nobody may {action} now", allowed=allowed)
    accepted: list[tuple[str, Event]] = []
    refusal: IllegalAction | None = None
    for actor in candidates:
        try:
            accepted.append(completed_and_checked(folded, actor, event))
        except IllegalAction as error:
            refusal = refusal or error
    if not accepted and refusal is not None:
        raise refusal
    if len(accepted) == 1:
        return accepted[0]
    names = ", ".join(actor for actor, _ in accepted)
    raise ActionSyntaxError(f"several players may {action} now; say who with by=NAME "
                            f"(one of: {names})")


def record_action(ledger: Ledger, game: str, text: str | Sequence[str],
                  *, at: str | None = None, expect_seq: int | None = None
                  ) -> tuple[Folded, Record]:
    """Check and append one typed action; return the game folded after it and its record (the
    last one, when the line gives several steps: :func:`record_line`).

    With ``expect_seq`` (the latest event the person saw) a log that has moved on since is a
    :class:`VersionConflict`, so two people recording one action at once store it once.
    """
    folded, records = record_line(ledger, game, text, at=at, expect_seq=expect_seq)
    return folded, records[-1]


def record_line(ledger: Ledger, game: str, text: str | Sequence[str],
                *, at: str | None = None, expect_seq: int | None = None
                ) -> tuple[Folded, list[Record]]:
    """Check and append what one typed line means (one event, or one per step: see
    :func:`prepare_line`) in one write; return the game folded after it and the records.

    ``expect_seq`` as for :func:`record_action`.
    """
    folded = open_game(ledger, game)
    if expect_seq is not None and folded.head_seq != expect_seq:
        raise VersionConflict(game, expect_seq, folded.head_seq)
    return append_all(ledger, folded, prepare_line(folded, text), at=at)


def append_all(ledger: Ledger, folded: Folded, drafts: Sequence[tuple[str, Event]],
               *, at: str | None = None) -> tuple[Folded, list[Record]]:
    """Append already checked events in one write and fold them in (without re-reading); return
    the game after them and their records.

    When they end a game whose secret this ledger keeps, the table's ``secret-revealed`` is
    written in the same append, right after them (in the game's records, not among those
    returned: nothing echoes the secret).
    """
    state = folded.state
    for actor, event in drafts:
        state = folded.rules.apply(state, actor, event)
    reveal = revealing(folded, state)
    stored = ledger.append(folded.game, [*drafts, *reveal], expected_seq=folded.head_seq,
                           expected_hash=folded.records[-1].hash, at=at or utc_stamp())
    records = stored[:len(drafts)]
    steps = [Step(record, event) for record, (_, event) in zip(records, drafts, strict=True)]
    return folded.followed(stored, steps, state), records


def revealing(folded: Folded, state: Any) -> list[tuple[str, Event]]:
    """The table's ``secret-revealed`` when ``state`` ends a game whose secret is here and not
    yet revealed; else nothing."""
    if (folded.secret is None or folded.rules.result(state) is None
            or folded.revealed is not None):
        return []
    return [(TABLE, SecretRevealed(secret=folded.secret.hex()))]


def append_checked(ledger: Ledger, folded: Folded, actor: str, event: Event,
                   *, at: str | None = None, drawn: Drawn | None = None
                   ) -> tuple[Folded, Record]:
    """Append an already checked event (``drawn``: the mark of tabletape's dice it holds) and
    fold it in (without re-reading the log)."""
    draft = (actor, event) if drawn is None else DrawnDraft(actor, event, drawn)
    after, (record,) = append_all(ledger, folded, [draft], at=at)
    return after, record


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


__all__ = [
    "ActionSyntaxError",
    "Check",
    "Fold",
    "Folded",
    "GameInfo",
    "Redos",
    "RefusedEvent",
    "Step",
    "Visit",
    "action_text",
    "append_all",
    "append_checked",
    "by_argument",
    "committed",
    "create_game",
    "decode_event",
    "describe_step",
    "effective_rolls",
    "fold_records",
    "open_game",
    "prepare",
    "prepare_line",
    "record_action",
    "record_line",
    "redo",
    "redo_walk",
    "redoable",
    "redos",
    "reveal",
    "undo",
]
