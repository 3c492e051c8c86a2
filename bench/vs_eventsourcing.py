"""tabletape's ledger and fold next to the ``eventsourcing`` library's SQLite store.

- ``append_vs_eventsourcing``: durable single-action appends per second through
  ``Ledger.append`` / eventsourcing saving one event per ``Application.save`` (SQLite, WAL).
- ``fold_vs_eventsourcing``: events per second folded from a stored log through each game's
  rules (read, decode, apply; the slowest game counts) / eventsourcing reconstructing an
  aggregate from the same number of stored events.

``python bench/vs_eventsourcing.py --parts`` prints where a fold's time goes instead, per game
and per stored event (:func:`fold_parts`): the profile behind the fold figure.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import Figure, rate, side_by_side


@functools.cache
def tally_class() -> Any:
    """The eventsourcing aggregate the comparison uses: a running total."""
    from eventsourcing.domain import Aggregate, event

    class Tally(Aggregate):
        @event("Started")
        def __init__(self, name: str) -> None:
            self.total = 0

        @event("Added")
        def add(self, n: int) -> None:
            self.total += n

    return Tally


def eventsourcing_app(folder: Path) -> Any:
    """An eventsourcing Application on SQLite, and its aggregate class."""
    from eventsourcing.application import Application

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
           "SQLITE_DBNAME": str(folder / "eventsourcing.db")}
    return Application(env=env), tally_class()


def append_figure(quick: bool) -> Figure:
    """``append_vs_eventsourcing``."""
    from tabletape.ledger import GameStarted, Ledger, Noted

    batch = 150 if quick else 600
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(folder)
        game = ledger.create(GameStarted(kind="bench", rules_version="1", tabletape_version="0",
                                         players=("ann",)))
        app, tally_class = eventsourcing_app(Path(folder))
        tally = tally_class("bench")
        app.save(tally)
        head = [1]

        def ours() -> float:
            def work() -> None:
                for _ in range(batch):
                    ledger.append(game, [("ann", Noted(text="add 1"))], expected_seq=head[0])
                    head[0] += 1
            return rate(batch, work)

        def theirs() -> float:
            def work() -> None:
                for _ in range(batch):
                    tally.add(1)
                    app.save(tally)
            return rate(batch, work)

        mine, other = side_by_side(ours, theirs, rounds=3 if quick else 5)
    return Figure(key="append_vs_eventsourcing", ours=mine, theirs=other, unit="appends/s",
                  target=1.8, note="each side durable: fsync / SQLite WAL commit")


@contextlib.contextmanager
def uncached_folds() -> Iterator[None]:
    """``open_game`` folds every log whole meanwhile: the fold cache
    (:mod:`tabletape.replay.snapshots`) would otherwise answer every round after the first from a
    snapshot, and the figure would time the cache, not the fold (``status_vs_snapshot`` times
    the cache)."""
    from tabletape.replay import snapshots

    kept = snapshots.KEEP_FROM_BYTES
    snapshots.KEEP_FROM_BYTES = sys.maxsize
    try:
        yield
    finally:
        snapshots.KEEP_FROM_BYTES = kept


def fold_figure(quick: bool, kinds: tuple[str, ...] | None = None) -> Figure:
    """``fold_vs_eventsourcing``: the slowest game's fold rate against eventsourcing's.

    Every game's logs are made and folded once (a warm-up, which also finds the slowest game),
    then an eventsourcing aggregate of as many events as the slowest game's logs hold; each
    round then folds every game's logs and reconstructs the aggregate once (alternating, so a
    busy machine slows both sides alike); each rate is the median of its rounds.
    """
    import statistics

    from tabletape.ledger import Ledger
    from tabletape.replay.recording import open_game
    from tabletape.replay.simulate import simulate
    from tabletape.rules.manifest import discovered
    from tabletape.rules.registry import registered

    games, rounds = (30, 5) if quick else (150, 5)
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(folder)
        logs: dict[str, list[str]] = {}
        counts: dict[str, int] = {}
        shipped = set(discovered())  # installed games, not test-only ones
        for rules in (r for r in registered() if r.name in (kinds or shipped)):
            logs[rules.name] = simulate(ledger, rules.name, games=games, seed=11)
            counts[rules.name] = sum(ledger.head(game).seq for game in logs[rules.name])

        def fold_all(ids: list[str]) -> None:
            with uncached_folds():
                for game in ids:
                    open_game(ledger, game)

        warm = {kind: rate(counts[kind], lambda ids=ids: fold_all(ids))  # not counted
                for kind, ids in logs.items()}
        app, tally_class = eventsourcing_app(Path(folder))
        tally = tally_class("bench")
        total = max(1000, counts[min(warm, key=warm.__getitem__)])  # as many as the slowest
        for n in random.Random(1).choices(range(1, 4), k=total - 1):
            tally.add(n)
        app.save(tally)
        app.repository.get(tally.id)  # warmed as our side was

        seen: dict[str, list[float]] = {kind: [] for kind in logs}
        other: list[float] = []
        for _ in range(rounds):
            for kind, ids in logs.items():
                seen[kind].append(rate(counts[kind], lambda ids=ids: fold_all(ids)))
            other.append(rate(total, lambda: app.repository.get(tally.id)))
        rates = {kind: statistics.median(found) for kind, found in seen.items()}
        theirs = statistics.median(other)
    slowest = min(rates, key=rates.__getitem__)
    detail = ", ".join(f"{k} {v:,.0f}/s" for k, v in sorted(rates.items()))
    return Figure(key="fold_vs_eventsourcing", ours=rates[slowest], theirs=theirs,
                  unit="events/s", target=10,
                  note=f"slowest: {slowest}, {counts[slowest]:,} events in {games} games "
                       f"({detail}); eventsourcing: one aggregate of {total:,} events, "
                       f"{rounds} alternating rounds")


FOLD_PARTS = {
    "read": "the log's bytes under the shared lock (Ledger.snapshot)",
    "records": "every line decoded as a Record in one call (decode_lines)",
    "chain": "the hash chain checked: SHA-256 of each line, links and seqs (chain_intact)",
    "begin": "game-started decoded, the rules found, the start state, the retractions",
    "decode": "each payload decoded as its game's event Struct",
    "apply": "each event checked and applied by the rules (Rules.apply)",
    "loop": "the rest of the fold loop (skips, Step records, the list of steps)",
    "other": "open_game less the parts timed alone: opening files, Folded, and the caches a "
             "whole fold's larger working set misses",
}
"""The parts of ``open_game`` that :func:`fold_parts` times, in the order a fold meets them."""


def fold_parts(games: int = 30, kinds: tuple[str, ...] | None = None,
               rounds: int = 5) -> dict[str, dict[str, float]]:
    """CPU µs per stored event of each part of :data:`FOLD_PARTS`, per shipped game.

    The bench's games (``games`` a kind, seed 11), each part timed alone over all of them (the
    best of ``rounds``, CPU time, so other processes on a shared machine count less); ``total``
    is ``open_game`` itself, ``events`` the events folded.
    """
    from tabletape.ledger import Ledger
    from tabletape.replay.simulate import simulate
    from tabletape.rules.manifest import discovered
    from tabletape.rules.registry import registered

    found: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(folder)
        shipped = set(discovered())
        for rules in (r for r in registered() if r.name in (kinds or shipped)):
            ids = simulate(ledger, rules.name, games=games, seed=11)
            found[rules.name] = game_parts(ledger, ids, rounds)
    return found


def game_parts(ledger: Any, ids: list[str], rounds: int) -> dict[str, float]:
    """:func:`fold_parts` of the games ``ids`` of one kind."""
    import msgspec

    from tabletape.ledger import Record, store
    from tabletape.replay.fold import Check, Fold, begin, event_decoders
    from tabletape.replay.recording import open_game

    decode_lines = msgspec.json.Decoder(Record).decode_lines  # as Ledger.records decodes
    datas = [ledger.snapshot(game) for game in ids]
    logs = [decode_lines(data) for data in datas]
    lines = [data[:-1].split(b"\n") for data in datas]
    infos = [begin(game, log) for game, log in zip(ids, logs, strict=True)]
    effective = [[r for r in log[1:] if r.type not in ("undo", "note")
                  and r.seq not in info.retracted] for info, log in zip(infos, logs, strict=True)]
    tables = [event_decoders(info.rules, info.started.rules_version) for info in infos]
    decoded = [[(r.actor, table[r.type](r.payload)) for r in records]
               for table, records in zip(tables, effective, strict=True)]

    def decode_all() -> None:
        for table, records in zip(tables, effective, strict=True):
            for record in records:
                table[record.type](record.payload)

    def apply_all() -> None:
        for info, pairs in zip(infos, decoded, strict=True):
            state, apply = info.start_state, info.rules.apply
            for actor, event in pairs:
                state = apply(state, actor, event)

    def fold_all() -> None:
        for info, log in zip(infos, logs, strict=True):
            for _ in Fold(info, log, Check.REFUSE).steps():
                pass

    def best(work: Any) -> float:
        return min(cpu_seconds(work) for _ in range(rounds))

    count = sum(len(log) for log in logs)
    parts = {
        "read": best(lambda: [ledger.snapshot(game) for game in ids]),
        "records": best(lambda: [decode_lines(data) for data in datas]),
        "chain": best(lambda: [data[:-1].split(b"\n") for data in datas])
        + best(lambda: [store.chain_intact(split, log)
                        for split, log in zip(lines, logs, strict=True)]),
        "begin": best(lambda: [begin(game, log) for game, log in zip(ids, logs, strict=True)]),
        "decode": best(decode_all),
        "apply": best(apply_all),
    }
    parts["loop"] = max(0.0, best(fold_all) - parts["decode"] - parts["apply"])
    with uncached_folds():
        total = best(lambda: [open_game(ledger, game) for game in ids])
    parts["other"] = max(0.0, total - sum(parts.values()))
    return {**{k: v / count * 1e6 for k, v in parts.items()}, "total": total / count * 1e6,
            "events": count}


def cpu_seconds(work: Any) -> float:
    import time

    start = time.process_time()
    work()
    return time.process_time() - start


def parts_table(found: dict[str, dict[str, float]]) -> Any:
    """A rich table of :func:`fold_parts`: a row per game, a column per part."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title="open_game, CPU µs per stored event",
                  title_justify="left")
    table.add_column("game")
    for column in (*FOLD_PARTS, "total", "events"):
        table.add_column(column, justify="right")
    for kind, parts in found.items():
        table.add_row(kind, *(f"{parts[k]:.2f}" for k in (*FOLD_PARTS, "total")),
                      f"{parts['events']:,.0f}")
    return table


def events_per_game(ledger: Any) -> float:
    ids = ledger.game_ids()
    return sum(ledger.head(game).seq for game in ids) / max(1, len(ids))


def median_rate(count: int, work: Any, rounds: int) -> float:
    import statistics

    return statistics.median(rate(count, work) for _ in range(rounds))


if __name__ == "__main__":
    import sys

    os.environ.setdefault("TABLETAPE_LEDGER", tempfile.mkdtemp())
    if "--parts" in sys.argv:
        import json

        from rich.console import Console

        found = fold_parts()
        if "--json" in sys.argv:
            print(json.dumps(found))
        else:
            Console(width=120).print(parts_table(found))
    else:
        print(append_figure(quick=True).as_json())
