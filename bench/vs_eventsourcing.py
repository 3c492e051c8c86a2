"""tabletape's ledger and fold next to the ``eventsourcing`` library's SQLite store.

- ``append_vs_eventsourcing``: durable single-action appends per second through
  ``Ledger.append`` / eventsourcing saving one event per ``Application.save`` (SQLite, WAL).
- ``fold_vs_eventsourcing``: events per second folded from a stored log through each game's
  rules (read, decode, apply; the slowest game counts) / eventsourcing reconstructing an
  aggregate from the same number of stored events.
"""

from __future__ import annotations

import functools
import os
import random
import tempfile
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


def fold_figure(quick: bool, kinds: tuple[str, ...] | None = None) -> Figure:
    """``fold_vs_eventsourcing``: the slowest game's fold rate against eventsourcing's."""
    from tabletape.ledger import Ledger
    from tabletape.replay.fold import open_game
    from tabletape.replay.simulate import simulate
    from tabletape.rules.kernel import registered
    from tabletape.rules.manifest import discovered

    games = 30 if quick else 150
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(folder)
        rates: dict[str, float] = {}
        counts: dict[str, int] = {}
        shipped = set(discovered())  # installed games, not test-only ones
        for rules in (r for r in registered() if r.name in (kinds or shipped)):
            ids = simulate(ledger, rules.name, games=games, seed=11)
            events = sum(ledger.head(game).seq for game in ids)

            def fold_all(ids: list[str] = ids) -> None:
                for game in ids:
                    open_game(ledger, game)

            rates[rules.name] = median_rate(events, fold_all, 5)
            counts[rules.name] = events
        slowest = min(rates, key=rates.__getitem__)
        app, tally_class = eventsourcing_app(Path(folder))
        tally = tally_class("bench")
        total = max(1000, counts[slowest])  # the events the slowest game folded
        for n in random.Random(1).choices(range(1, 4), k=total - 1):
            tally.add(n)
        app.save(tally)
        theirs = median_rate(total, lambda: app.repository.get(tally.id), 5)
    detail = ", ".join(f"{k} {v:,.0f}/s" for k, v in sorted(rates.items()))
    return Figure(key="fold_vs_eventsourcing", ours=rates[slowest], theirs=theirs,
                  unit="events/s", target=10,
                  note=f"slowest: {slowest}, {counts[slowest]:,} events in {games} games "
                       f"({detail}); eventsourcing: one aggregate of {total:,} events")


def events_per_game(ledger: Any) -> float:
    ids = ledger.game_ids()
    return sum(ledger.head(game).seq for game in ids) / max(1, len(ids))


def median_rate(count: int, work: Any, rounds: int) -> float:
    import statistics

    return statistics.median(rate(count, work) for _ in range(rounds))


if __name__ == "__main__":
    os.environ.setdefault("TABLETAPE_LEDGER", tempfile.mkdtemp())
    print(append_figure(quick=True).as_json())
