"""Properties of the ledger that must hold for every input, checked with hypothesis.

* encoding an event into a sealed line and decoding it gives back the same envelope and payload;
* appending arbitrary batches and reading them back gives back the same events;
* any single changed byte anywhere in a log makes ``verify`` fail and name the seq of the line
  holding that byte;
* undo k times retracts the last k actions, and the fold equals folding without them.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.support.tinygame  # noqa: F401  (registers "tiny")
from tabletape import ledger as ledger_pkg
from tabletape.ledger import Event, GameStarted, Ledger, Noted, Retracted, event_type
from tabletape.ledger.codec import (
    body_hash_matches,
    decode_line,
    encode_body,
    encode_payload,
    line_body,
    seal,
)
from tabletape.replay.recording import open_game, record_action
from tabletape.replay.undo import undo
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.registry import find_game
from tests.support.tinygame import Added, Cheered, Rolled

FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Probe(Event, tag="probe"):
    """A test event with every kind of field a game uses."""

    dice: tuple[int, ...] = ()
    words: tuple[str, ...] = ()
    target: str = ""
    count: int = 0
    flag: bool = False
    maybe: int | None = None
    extra: dict[str, int] = msgspec.field(default_factory=dict)


# Text that stresses JSON: quotes, backslashes, newlines, control characters, astral unicode, and
# the very bytes the seal looks for.
TRICKY = st.sampled_from(['"', "\\", "\n", "\r\n", "\x00", "\u2028", "é", "zoë", "🎲", "}",
                          ',"hash":"', '"}', "\t"])
TEXT = st.lists(st.one_of(st.text(max_size=12), TRICKY), max_size=5).map("".join)
INTS = st.integers(min_value=-(2**70), max_value=2**70)
STAMP = st.datetimes(timezones=st.none()).map(
    lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))

PROBES = st.builds(
    Probe,
    dice=st.lists(st.integers(1, 20), max_size=6).map(tuple),
    words=st.lists(TEXT, max_size=4).map(tuple),
    target=TEXT,
    count=INTS,
    flag=st.booleans(),
    maybe=st.none() | INTS,
    extra=st.dictionaries(TEXT, INTS, max_size=3),
)
NOTES = st.builds(Noted, text=TEXT, about=st.none() | st.integers(1, 10**6))
RETRACTIONS = st.builds(Retracted, seq=st.integers(1, 10**9))
STARTS = st.builds(
    GameStarted,
    kind=st.sampled_from(["tiny", "risk-strike"]),
    rules_version=TEXT,
    tabletape_version=st.just(ledger_pkg.__version__),
    players=st.lists(TEXT, min_size=1, max_size=5).map(tuple),
    options=st.dictionaries(TEXT, st.one_of(INTS, TEXT, st.booleans()), max_size=3),
    seed=st.integers(0, 2**63 - 1),
)
EVENTS = st.one_of(PROBES, NOTES, RETRACTIONS, STARTS)
TYPES: dict[str, type[Event]] = {event_type(cls): cls
                                 for cls in (Probe, Noted, Retracted, GameStarted)}
DRAFTS = st.tuples(TEXT, st.one_of(PROBES, NOTES, RETRACTIONS))


@contextmanager
def fresh_ledger() -> Iterator[Ledger]:
    with tempfile.TemporaryDirectory() as folder:
        yield Ledger(folder)


def decoded(record_payload: msgspec.Raw, type_tag: str) -> Event:
    return msgspec.json.decode(record_payload, type=TYPES[type_tag])


# -- encoding --------------------------------------------------------------------------------------


@FAST
@given(event=EVENTS, seq=st.integers(1, 2**40), at=STAMP, actor=TEXT,
       prev=st.binary(min_size=32, max_size=32).map(bytes.hex))
def test_encode_decode_round_trip(event: Event, seq: int, at: str, actor: str,
                                  prev: str) -> None:
    payload = encode_payload(event)
    body = encode_body(seq, at, actor, event_type(event), payload, prev)
    line = seal(body)

    assert b"\n" not in line and b"\r" not in line  # one event, one line, whatever the text
    assert line_body(line) == body
    assert body_hash_matches(line)
    assert json.loads(line)["hash"] == hashlib.sha256(body).hexdigest()

    record = decode_line(line)
    assert (record.seq, record.at, record.actor, record.type, record.prev) == (
        seq, at, actor, event_type(event), prev)
    assert bytes(record.payload) == payload
    assert "type" not in json.loads(payload)  # the tag lives in the envelope only
    assert decoded(record.payload, record.type) == event
    assert decode_line(line + b"\n") == record


# -- append and read -------------------------------------------------------------------------------


@pytest.mark.slow
@FAST
@given(started=STARTS, batches=st.lists(st.lists(DRAFTS, min_size=1, max_size=4), max_size=5))
def test_append_read_round_trip(started: GameStarted,
                                batches: list[list[tuple[str, Event]]]) -> None:
    with fresh_ledger() as store:
        game = store.create(started)
        head = 1
        returned = []
        for batch in batches:
            records = store.append(game, batch, expected_seq=head)
            assert [r.seq for r in records] == list(range(head + 1, head + 1 + len(batch)))
            head += len(batch)
            returned += records

        stored = store.records(game)
        assert stored[1:] == returned
        assert [r.seq for r in stored] == list(range(1, head + 1))
        assert store.started(game) == started
        drafts = [draft for batch in batches for draft in batch]
        assert [(r.actor, decoded(r.payload, r.type)) for r in stored[1:]] == drafts
        assert store.head(game).seq == head
        verification = store.verify(game)
        assert verification.ok and verification.events == head
        assert verification.head == stored[-1].hash
        assert len(store.path(game).read_bytes().splitlines()) == head


# -- tampering -------------------------------------------------------------------------------------


FIXED_AT = "2026-01-01T00:00:00.000000Z"
"""Recorded-at of every event of a tampering log: its bytes (and so hypothesis's draws, which
depend on its length) must be the same each time an example is replayed."""


def build_log(store: Ledger, started: GameStarted, drafts: list[tuple[str, Event]]) -> str:
    game = store.create(started, game_id="ty-test", at=FIXED_AT)
    for offset, draft in enumerate(drafts):
        store.append(game, [draft], expected_seq=1 + offset, at=FIXED_AT)
    return game


def line_of(data: bytes, position: int) -> int:
    """The seq of the line that holds the byte at ``position`` (its newline belongs to it)."""
    return data.count(b"\n", 0, position) + 1


@pytest.mark.slow
@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(started=STARTS, drafts=st.lists(DRAFTS, min_size=1, max_size=5), data=st.data())
def test_any_changed_byte_is_found_at_its_line(started: GameStarted,
                                               drafts: list[tuple[str, Event]],
                                               data: st.DataObject) -> None:
    """Replace one byte anywhere by any other byte: verify fails at the line that held it.

    That holds for newline bytes too. A newline changed into another byte joins its line to the
    next one, and the joined line (read at the first one's seq) no longer matches its hash; the
    last newline changed leaves a torn last line, reported at that line's seq. A byte changed
    into a newline splits its line, and the first part is bad at that seq. So the expectation
    is the same everywhere: the seq of the line the byte was in.
    """
    with fresh_ledger() as store:
        game = build_log(store, started, drafts)
        path = store.path(game)
        original = path.read_bytes()
        assert store.verify(game).ok
        newlines = [i for i, byte in enumerate(original) if byte == 0x0A]
        # positions worth aiming at besides a uniform one: the newlines, the seal's closing `"}`,
        # the hash field's start
        special = newlines + [i - k for i in newlines for k in (1, 2, 66, 75)]
        for attempt in range(4):  # several changes of one log, each on the pristine bytes
            position = data.draw(st.one_of(st.integers(0, len(original) - 1),
                                           st.sampled_from(special)), label=f"position {attempt}")
            new_byte = data.draw(
                st.one_of(st.integers(0, 255), st.sampled_from(b'\n"{} \\0a')).filter(
                    lambda byte, old=original[position]: byte != old),
                label=f"byte {attempt}")
            changed = bytearray(original)
            changed[position] = new_byte
            path.write_bytes(bytes(changed))

            verification = store.verify(game)
            expected = line_of(original, position)
            assert not verification.ok
            assert verification.first_bad_seq == expected, verification.problem
            assert verification.events == expected - 1
            assert verification.problem


@pytest.mark.slow
def test_every_byte_of_a_small_log_is_covered(tmp_path: Path) -> None:
    """Exhaustively: every position of a three-event log, changed four ways."""
    store = Ledger(tmp_path)
    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0",
                          players=("olga", 'pa"trick'), options={"target": 7})
    game = build_log(store, started, [("olga", Noted(text='say "hi"\n\\ 🎲')),
                                      ('pa"trick', Retracted(seq=2))])
    path = store.path(game)
    original = path.read_bytes()
    for position, byte in enumerate(original):
        for new_byte in {byte ^ 0x01, byte ^ 0x80, 0x0A, 0x20} - {byte}:
            changed = bytearray(original)
            changed[position] = new_byte
            path.write_bytes(bytes(changed))
            verification = store.verify(game)
            assert not verification.ok, (position, new_byte)
            assert verification.first_bad_seq == line_of(original, position), (position, new_byte)
    path.write_bytes(original)
    assert store.verify(game).ok


# -- undo ------------------------------------------------------------------------------------------

PLAYERS = ("ann", "bob", "cyd")

# One step: an action as typed (None = a note appended straight to the ledger).
STEPS = st.one_of(
    st.integers(1, 3).map(lambda n: f"add n={n}"),
    st.integers(1, 6).map(lambda face: f"roll dice={face}"),
    st.sampled_from(PLAYERS).map(lambda who: f"cheer by={who} words='go {who}!'"),
    st.just(None),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEPS, max_size=10), data=st.data())
def test_undo_k_times_retracts_the_last_k_actions(steps: list[str | None],
                                                  data: st.DataObject) -> None:
    rules = find_game("tiny")
    with fresh_ledger() as store:
        started = GameStarted(kind="tiny", rules_version=rules.rules_version,
                              tabletape_version=ledger_pkg.__version__, players=PLAYERS,
                              options={"target": 1000}, seed=5)
        game = store.create(started)
        actions: list[int] = []  # seqs of recorded actions, in order
        for step in steps:
            if step is None:
                head = store.head(game).seq
                store.append(game, [("table", Noted(text="just a note"))], expected_seq=head)
            else:
                _, stored = record_action(store, game, step)
                actions.append(stored.seq)
        before = store.path(game).read_bytes()
        records_before = store.records(game)

        k = data.draw(st.integers(0, len(actions)), label="k")
        for _ in range(k):
            undo(store, game)
        folded = open_game(store, game)

        kept, gone = actions[: len(actions) - k], actions[len(actions) - k:]
        # the log only grew: every earlier byte is still there, retracted actions included
        after = store.path(game).read_bytes()
        assert after.startswith(before)
        assert len(folded.records) == len(records_before) + k
        undos = folded.records[len(records_before):]
        assert [r.type for r in undos] == ["undo"] * k
        assert [msgspec.json.decode(r.payload, type=Retracted).seq for r in undos] == gone[::-1]
        assert set(folded.retracted) == set(gone)
        assert [step.record.seq for step in folded.steps] == kept

        # the state is the fold of the kept actions alone
        expected = rules.start(started)
        by_seq = {r.seq: r for r in records_before}
        for seq in kept:
            record = by_seq[seq]
            event = msgspec.json.decode(record.payload, type=rules.event_types()[record.type])
            assert isinstance(event, Added | Rolled | Cheered)
            expected = rules.apply(expected, record.actor, event)
        assert folded.state == expected

        if not kept:
            with pytest.raises(IllegalAction, match="nothing to undo"):
                undo(store, game)
            assert store.path(game).read_bytes() == after
        assert store.verify(game).ok
