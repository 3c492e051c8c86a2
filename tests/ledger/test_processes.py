"""The ledger across processes: the lock, optimistic concurrency, and crashes mid-append.

Children are forked (they inherit the imports); they report to the parent through pipes, and the
parent never sleeps to wait for them.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import struct
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from tabletape.ledger import GameStarted, Ledger, Noted, TornTail, VersionConflict

CTX = multiprocessing.get_context("fork")
STARTED = GameStarted(kind="tiny", rules_version="1", tabletape_version="0",
                      players=("olga", "patrick"))


def receive(receiver: Connection) -> object:
    """A child's report; a child that never reports fails the test instead of hanging it."""
    assert receiver.poll(60), "a child process did not report"
    return receiver.recv()


# -- two writers, one expected head --------------------------------------------------------------


def racer(root: str, game: str, expected: int, name: str, barrier: object,
          results: Connection) -> None:
    store = Ledger(root)
    barrier.wait(timeout=30)  # type: ignore[attr-defined]
    try:
        records = store.append(game, [(name, Noted(text=f"{name} was here")),
                                      (name, Noted(text=f"{name} again"))], expected_seq=expected)
        results.send(("won", name, [r.seq for r in records]))
    except VersionConflict as conflict:
        results.send(("conflict", name, [conflict.expected, conflict.actual]))
    except BaseException as error:  # pragma: no cover - reported to the parent as a failure
        results.send(("error", name, repr(error)))
    finally:
        results.close()


@pytest.mark.slow
def test_same_expected_seq_in_two_processes_exactly_one_wins(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = store.create(STARTED)
    head = 1
    for round_number in range(20):
        barrier = CTX.Barrier(2)
        pipes = [CTX.Pipe(duplex=False) for _ in range(2)]
        children = [CTX.Process(target=racer,
                                args=(str(tmp_path), game, head, f"p{round_number}{side}", barrier,
                                      pipes[side][1]))
                    for side in (0, 1)]
        for child in children:
            child.start()
        for _, sender in pipes:
            sender.close()
        outcomes = sorted(receive(receiver) for receiver, _ in pipes)
        for child in children:
            child.join(timeout=30)
            assert child.exitcode == 0
        kinds = [kind for kind, _, _ in outcomes]
        assert kinds == ["conflict", "won"], outcomes
        (_, loser, seen), (_, winner, seqs) = outcomes
        assert seen == [head, head + 2]
        assert seqs == [head + 1, head + 2]
        records = store.records(game)
        assert len(records) == head + 2
        assert {r.actor for r in records[head:]} == {winner}  # nothing of the loser's
        assert loser not in {r.actor for r in records}
        head += 2
    verification = store.verify(game)
    assert verification.ok and verification.events == 41


def retrying_writer(root: str, game: str, name: str, count: int, barrier: object,
                    results: Connection) -> None:
    store = Ledger(root)
    barrier.wait(timeout=30)  # type: ignore[attr-defined]
    conflicts = 0
    for index in range(count):
        while True:
            head = store.head(game).seq
            try:
                store.append(game, [(name, Noted(text=str(index)))], expected_seq=head)
                break
            except VersionConflict:
                conflicts += 1
    results.send(conflicts)
    results.close()


def test_writers_that_retry_on_conflict_lose_nothing(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = store.create(STARTED)
    writers, each = 4, 40
    barrier = CTX.Barrier(writers)
    pipes = [CTX.Pipe(duplex=False) for _ in range(writers)]
    children = [CTX.Process(target=retrying_writer,
                            args=(str(tmp_path), game, f"w{n}", each, barrier, pipes[n][1]))
                for n in range(writers)]
    for child in children:
        child.start()
    for _, sender in pipes:
        sender.close()
    for receiver, _ in pipes:
        receive(receiver)
    for child in children:
        child.join(timeout=30)
        assert child.exitcode == 0
    records = store.records(game)
    assert len(records) == 1 + writers * each
    for n in range(writers):  # each writer's events are all there, in its own order
        mine = [r for r in records if r.actor == f"w{n}"]
        assert [bytes(r.payload) for r in mine] == [
            f'{{"text":"{i}","about":null}}'.encode() for i in range(each)]
    assert store.verify(game).ok


# -- a reader racing a writer ----------------------------------------------------------------------


def big_writer(root: str, game: str, batches: int, barrier: object, done: Connection) -> None:
    store = Ledger(root)
    barrier.wait(timeout=30)  # type: ignore[attr-defined]
    head = store.head(game).seq
    text = "x" * 30_000  # several pages per append, so a write is visibly under way for a while
    for _ in range(batches):
        head = store.append(game, [("olga", Noted(text=text))] * 3, expected_seq=head)[-1].seq
    done.send(head)
    done.close()


def test_readers_never_see_an_append_half_written(tmp_path: Path) -> None:
    """A reader running while another process appends sees whole appends only, never a tear."""
    store = Ledger(tmp_path)
    game = store.create(STARTED)
    receiver, sender = CTX.Pipe(duplex=False)
    barrier = CTX.Barrier(2)
    writer = CTX.Process(target=big_writer, args=(str(tmp_path), game, 120, barrier, sender))
    writer.start()
    sender.close()
    barrier.wait(timeout=30)  # both start together
    reads = 0
    torn: list[str] = []
    while not receiver.poll():
        try:
            head = store.head(game)
            assert (head.seq - 1) % 3 == 0  # appends are all or nothing
            if reads % 10 == 0:
                assert (len(store.records(game)) - 1) % 3 == 0
                verification = store.verify(game)
                assert verification.ok, verification
        except TornTail as error:
            torn.append(str(error))
        reads += 1
    final = receiver.recv()
    writer.join(timeout=30)
    assert writer.exitcode == 0
    assert torn == []
    assert reads >= 3  # the reads did overlap the writes
    assert store.head(game).seq == final == 1 + 3 * 120


# -- crashes ---------------------------------------------------------------------------------------

PLANNED, ACKED = 0, 1
REPORT = struct.Struct("<BI")  # kind, seq


def crashing_writer(root: str, game: str, report_fd: int, seed: int) -> None:
    """Append batches of 1-3 events forever; report each batch before and after it is written.

    ``PLANNED last_seq`` goes to the parent before ``append`` is called, ``ACKED last_seq`` only
    after it returned (the events are durable then).
    """
    store = Ledger(root)
    rng = random.Random(seed)
    head = store.head(game).seq
    while True:
        size = rng.randint(1, 3)
        os.write(report_fd, REPORT.pack(PLANNED, head + size))
        drafts = [("olga", Noted(text=f"event {head + 1 + i} " + "y" * rng.randint(0, 3000)))
                  for i in range(size)]
        head = store.append(game, drafts, expected_seq=head)[-1].seq
        os.write(report_fd, REPORT.pack(ACKED, head))


def read_reports(fd: int) -> list[tuple[int, int]]:
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    usable = len(data) - len(data) % REPORT.size
    return list(REPORT.iter_unpack(data[:usable]))


@pytest.mark.slow
def test_sigkill_mid_append_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    store = Ledger(tmp_path)
    game = store.create(STARTED)
    acknowledged = 1
    repaired = 0
    by_children = 0
    for round_number in range(30):
        read_fd, write_fd = os.pipe()
        child = CTX.Process(target=crashing_writer,
                            args=(str(tmp_path), game, write_fd, rng.randrange(2**32)))
        child.start()
        os.close(write_fd)
        # wait until the child is appending (its first report), then kill it at a random moment
        first = os.read(read_fd, REPORT.size)
        assert len(first) == REPORT.size
        time.sleep(rng.uniform(0, 0.03))  # the kill's timing, not a synchronisation
        os.kill(child.pid, signal.SIGKILL)
        child.join(timeout=30)
        assert child.exitcode == -signal.SIGKILL
        reports = [REPORT.unpack(first), *read_reports(read_fd)]
        os.close(read_fd)

        acked = [seq for kind, seq in reports if kind == ACKED]
        planned = [seq for kind, seq in reports if kind == PLANNED]
        if acked:
            assert acked == sorted(acked) and acked[0] > acknowledged
            by_children += acked[-1] - acknowledged
            acknowledged = acked[-1]

        try:
            head = store.head(game).seq
        except TornTail:
            backup = store.repair(game)
            assert backup is not None and backup.exists()
            repaired += 1
            head = store.head(game).seq
        verification = store.verify(game)
        assert verification.ok, (round_number, verification)
        # every acknowledged event is there; beyond it at most the batch that was in flight, and
        # all of it: a kill can cut one write short, and repair then cuts the whole append
        assert head in (acknowledged, planned[-1]), (round_number, head, acknowledged, planned)
        records = store.records(game)
        assert [r.seq for r in records] == list(range(1, head + 1))
        for record in records[1:]:
            assert bytes(record.payload).startswith(f'{{"text":"event {record.seq} '.encode())
        acknowledged = head
        # the dead child's lock is gone: the parent can append at once
        acknowledged = store.append(game, [("patrick", Noted(text=f"event {head + 1} parent"))],
                                    expected_seq=head)[-1].seq
    assert by_children >= 10  # the children did append before they were killed
    assert store.verify(game).ok
    assert repaired == 0 or list(store.games_dir.glob("*.bak"))
