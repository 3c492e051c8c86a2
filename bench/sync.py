"""Benchmark of the catalog: sync with projections against DuckDB's bare ``read_json``, and a
win-rate report against the bare DuckDB aggregate.

    python bench/sync.py [--games 200] [--events 1000] [--json]

Prints ``sync_vs_read_json`` (events/s of a full catalog sync with projections over events/s of
a bare ``read_json`` of the same files into a table; target >= 0.3), ``sync_parallel_scaling``
(events/s of a full sync folding in 2 worker processes over the same sync in 1; target >= 1.6 on
a 2-core machine) and ``report_vs_duckdb`` (seconds of the ``players`` report over seconds of the
equivalent bare aggregate; lower is better, target <= 2). Logs are games of the test game
"tiny", written in bulk.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import typer  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import tests.support.tinygame  # noqa: E402  (registers "tiny", before its projections)

# isort: split
import tests.queries.tinyprojections  # noqa: E402, F401  (tiny's dice projection)
from bench.common import Figure  # noqa: E402
from tabletape.ledger import GameStarted, Ledger, utc_stamp  # noqa: E402
from tabletape.ledger.events import Event  # noqa: E402
from tabletape.queries.catalog import LOG_COLUMNS, catalog_path, open_catalog, sync  # noqa: E402
from tabletape.queries.loading import worker_count  # noqa: E402
from tabletape.queries.reports import REPORTS  # noqa: E402
from tests.support.tinygame import Added, Cheered, Rolled  # noqa: E402

PLAYERS = ("ann", "bob", "cy")
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
BATCH = 1000
"""Events appended per ``Ledger.append`` call."""


def tiny_drafts(rng: random.Random, events: int) -> tuple[int, list[tuple[str, Event]]]:
    """About ``events`` legal actions of one tiny game that end it; returns (target, drafts)."""
    drafts: list[tuple[str, Event]] = []
    total, turn = 0, 0
    while len(drafts) < events - 1:
        player = PLAYERS[turn % len(PLAYERS)]
        if rng.random() < 0.05:
            drafts.append((PLAYERS[rng.randrange(3)], Cheered()))
            continue
        if rng.random() < 0.3:
            face = rng.randint(1, 6)
            drafts.append((player, Rolled(dice=(face,))))
            total += face
        else:
            n = rng.randint(1, 3)
            drafts.append((player, Added(n=n)))
            total += n
        turn += 1
    drafts.append((PLAYERS[turn % len(PLAYERS)], Added(n=1)))
    return total + 1, drafts


def write_logs(ledger: Ledger, games: int, events: int, seed: int = 1) -> int:
    """Record ``games`` finished tiny games of about ``events`` events; return the event count."""
    rng = random.Random(seed)
    written = 0
    for index in range(games):
        target, drafts = tiny_drafts(rng, events)
        started = GameStarted(kind="tiny", rules_version="1", tabletape_version="bench",
                              players=PLAYERS, options={"target": target}, seed=index)
        game = ledger.create(started, game_id=f"ty-bench-{index}", at=utc_stamp(EPOCH))
        for start in range(0, len(drafts), BATCH):
            chunk = drafts[start:start + BATCH]
            stamps = [utc_stamp(EPOCH + timedelta(seconds=20 * (start + i + 1)))
                      for i in range(len(chunk))]
            ledger.append(game, chunk, expected_seq=start + 1, at=stamps)
        written += len(drafts) + 1
    return written


def best_of(repeats: int, work: Callable[[], Any]) -> float:
    """The fastest of ``repeats`` runs of ``work``, in seconds."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


SYNC_ROUNDS = 2
"""Full syncs and bare reads, alternated; the median of each side counts."""
SCALING_WORKERS = (1, 2)
"""The worker counts ``sync_parallel_scaling`` compares (2 over 1)."""


def bare_read_json(ledger: Ledger) -> float:
    """Seconds for DuckDB to read every log into a fresh table, nothing else."""
    with duckdb.connect(str(ledger.root / "bare.duckdb")) as con:
        began = time.perf_counter()
        con.execute(f"CREATE OR REPLACE TABLE bare AS SELECT * FROM read_json("
                    f"'{ledger.games_dir}/*.jsonl', format = 'newline_delimited', "
                    f"filename = true, columns = {LOG_COLUMNS})")
        return time.perf_counter() - began


BARE_WIN_RATE = """
    SELECT g.kind, p.name, count(*) AS games, count(*) FILTER (p.won) AS wins,
           round(avg(p.won::INTEGER), 3) AS win_rate
    FROM players p JOIN games g USING (game) WHERE g.finished
    GROUP BY ALL ORDER BY ALL"""


def full_sync(ledger: Ledger, total: int, workers: int | None) -> float:
    """Seconds of a sync from scratch (no catalog) folding in ``workers`` processes (None: the
    default)."""
    for stale in ledger.root.glob("catalog.duckdb*"):
        stale.unlink()
    began = time.perf_counter()
    report = sync(ledger, workers=workers)
    seconds = time.perf_counter() - began
    assert report.events == total and not report.problems, report
    return seconds


def measure(games: int, events: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as folder:
        ledger = Ledger(Path(folder) / "ledger")
        total = write_logs(ledger, games, events)
        default = worker_count(sum(log.size for log in ledger.log_files().values()), None)
        read_times, sync_times = [], []
        by_workers: dict[int, list[float]] = {count: [] for count in SCALING_WORKERS}
        for _ in range(SYNC_ROUNDS):  # alternate, all from scratch, so noise hits every side
            read_times.append(bare_read_json(ledger))
            sync_times.append(full_sync(ledger, total, None))
            for count in SCALING_WORKERS:  # the default sync is one of them when it matches
                by_workers[count].append(sync_times[-1] if count == default
                                         else full_sync(ledger, total, count))
        read_seconds, sync_seconds = statistics.median(read_times), statistics.median(sync_times)
        one, two = (statistics.median(by_workers[count]) for count in SCALING_WORKERS)
        noop_seconds = best_of(3, lambda: sync(ledger))
        with open_catalog(catalog_path(ledger), read_only=True) as con:
            win_rates = REPORTS["players"]
            report_seconds = best_of(5, lambda: win_rates.run(con))
            bare_seconds = best_of(5, lambda: con.sql(BARE_WIN_RATE).fetchall())
    sync_rate, read_rate = total / sync_seconds, total / read_seconds
    return {
        "games": games, "events": total,
        "sync_seconds": round(sync_seconds, 3), "sync_events_per_s": round(sync_rate),
        "read_json_seconds": round(read_seconds, 3), "read_json_events_per_s": round(read_rate),
        "sync_vs_read_json": round(sync_rate / read_rate, 3), "sync_workers": default,
        "sync_1_worker_events_per_s": round(total / one),
        "sync_2_workers_events_per_s": round(total / two),
        "sync_parallel_scaling": round(one / two, 3),
        "noop_sync_seconds": round(noop_seconds, 3),
        "report_seconds": round(report_seconds, 5), "duckdb_seconds": round(bare_seconds, 5),
        "report_vs_duckdb": round(report_seconds / bare_seconds, 2),
    }


def figures(quick: bool) -> list[Figure]:
    """``sync_vs_read_json``, ``sync_parallel_scaling`` and ``report_vs_duckdb`` over 1M
    (quick) or 10M (full) events."""
    games = 1000 if quick else 10_000
    result = measure(games, 1000)
    note = f"{result['events']:,} events, {games:,} tiny games"
    return [
        Figure(key="sync_vs_read_json", ours=result["sync_events_per_s"],
               theirs=result["read_json_events_per_s"], unit="events/s", target=0.3,
               note=f"{note}, projections included, {result['sync_workers']} workers (default)"),
        Figure(key="sync_parallel_scaling", ours=result["sync_2_workers_events_per_s"],
               theirs=result["sync_1_worker_events_per_s"], unit="events/s", target=1.6,
               note=f"{note}; sync folding in 2 processes / in 1, {os.cpu_count()} CPUs"),
        Figure(key="report_vs_duckdb", ours=result["report_seconds"] * 1000,
               theirs=result["duckdb_seconds"] * 1000, unit="ms", target=2,
               higher_is_better=False, note=f"win rates over {note}"),
    ]


TAIL_GAMES = 300
"""Games of the ledger ``noop_sync_tail_check`` syncs (a club's ledger of a few seasons)."""


def without_tail_check() -> Any:
    """A context in which sync trusts size and time alone, as before issue 18's tail check."""
    from unittest import mock

    return mock.patch("tabletape.queries.sync.ends_at_head", lambda *_: True)


def tail_check_figure(quick: bool) -> Figure:
    """``noop_sync_tail_check``: ms of a sync with nothing to do on a ledger of 300 games, with
    the tail check (each loaded log's last line read and compared with the head loaded) over the
    same sync trusting size and time alone, alternated."""
    from bench.common import seconds, side_by_side

    events = 200 if quick else 1000
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as folder:
        ledger = Ledger(Path(folder) / "ledger")
        write_logs(ledger, TAIL_GAMES, events)
        sync(ledger)

        def before() -> float:
            with without_tail_check():
                return seconds(lambda: sync(ledger))

        checked, trusted = side_by_side(lambda: seconds(lambda: sync(ledger)), before,
                                        rounds=7 if quick else 15)
    return Figure(key="noop_sync_tail_check", ours=checked * 1000, theirs=trusted * 1000,
                  unit="ms", target=1.5, higher_is_better=False,
                  note=f"a sync with nothing to do, {TAIL_GAMES} games of ~{events} events: "
                       "with the tail check / size and time alone")


def show(result: dict[str, Any], console: Console) -> None:
    table = Table(title=f"Catalog benchmark: {result['games']} tiny games, "
                        f"{result['events']} events", title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target")
    targets = {"sync_vs_read_json": ">= 0.3", "sync_parallel_scaling": ">= 1.6",
               "report_vs_duckdb": "<= 2 (lower is better)"}
    for key, value in result.items():
        if key not in ("games", "events"):
            table.add_row(key, f"{value:,}" if isinstance(value, int) else str(value),
                          targets.get(key, ""))
    console.print(table)


def main(
    games: Annotated[int, typer.Option(help="Games to generate.")] = 200,
    events: Annotated[int, typer.Option(help="Events per game.")] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Sync vs bare read_json, and a report vs the bare DuckDB aggregate."""
    result = measure(games, events)
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        show(result, Console())


if __name__ == "__main__":
    typer.run(main)
