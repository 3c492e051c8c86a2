"""The Spark job's events per second on ``local[1]`` and ``local[2]``, next to the DuckDB sync.

    python bench/spark.py [--games N[,N...]] [--rounds R] [--json]

For each size (simulated games of every kind, ``--games`` per kind), the same logs are built
into a catalog three ways: ``tabletape spark build-catalog`` on a ``local[1]`` session, on a
``local[2]`` session, and ``tabletape sync --rebuild`` (DuckDB, its default workers). A Spark
session is started once per master and not counted in the job's time (its start-up is printed
apart); each job round is timed whole (planning, reading, folding, writing Parquet, the
manifest, the rename). Rounds alternate job and sync within a session (``side_by_side``).
Needs ``pip install -e '.[spark]'`` and a Java runtime.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Figure, figures_table, side_by_side  # noqa: E402

KINDS = ("risk-strike", "risk-deep-space", "risk-transformers", "marvel-united")


def league(folder: Path, per_kind: int) -> Any:
    """A ledger of ``per_kind`` simulated games of every kind."""
    from tabletape.ledger import Ledger
    from tabletape.replay.simulate import simulate

    ledger = Ledger(folder / "ledger")
    for number, kind in enumerate(KINDS):
        simulate(ledger, kind, games=per_kind, seed=number + 1)
    return ledger


def events_of(ledger: Any) -> int:
    from tabletape.queries.catalog import sync

    return sync(ledger, rebuild=True).events


def measure(per_kind: int, rounds: int) -> dict[str, float]:
    """Events/s of the job on local[1] and local[2], and of the sync (median of ``rounds``)."""
    from tabletape.queries import spark_job
    from tabletape.queries.catalog import sync

    folder = Path(tempfile.mkdtemp(prefix="tabletape-bench-spark-"))
    try:
        ledger = league(folder, per_kind)
        events = events_of(ledger)
        result: dict[str, float] = {"games": per_kind * len(KINDS), "events": events}
        for cores in (1, 2):
            began = time.perf_counter()
            session = spark_job.start_session(f"local[{cores}]")
            result[f"start_local{cores}_s"] = round(time.perf_counter() - began, 1)
            try:
                def job(session: Any = session) -> float:
                    began = time.perf_counter()
                    spark_job.build_catalog(str(ledger.root), folder / "out",
                                            include_simulated=True, session=session)
                    return events / (time.perf_counter() - began)

                def bare_sync() -> float:
                    began = time.perf_counter()
                    sync(ledger, rebuild=True)
                    return events / (time.perf_counter() - began)

                job()  # the first job of a session warms its Python workers: not counted
                ours, theirs = side_by_side(job, bare_sync, rounds)
            finally:
                session.stop()
            result[f"local{cores}_events_per_s"] = round(ours)
            result[f"sync_events_per_s_{cores}"] = round(theirs)
        result["sync_events_per_s"] = round((result.pop("sync_events_per_s_1")
                                             + result.pop("sync_events_per_s_2")) / 2)
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def figures(quick: bool) -> list[Figure]:
    """``spark_local2_vs_local1`` and ``spark_vs_sync`` (local[2]) for ``bench/run.py``."""
    per_kind, rounds = (40, 2) if quick else (400, 3)
    seen = measure(per_kind, rounds)
    size = f"{seen['games']:.0f} simulated games, {seen['events']:,.0f} events"
    return [
        Figure(key="spark_local2_vs_local1", ours=seen["local2_events_per_s"],
               theirs=seen["local1_events_per_s"], unit="events/s", target=1.5,
               note=f"{size}; session start-up not counted (local[1] {seen['start_local1_s']} s, "
                    f"local[2] {seen['start_local2_s']} s)"),
        Figure(key="spark_vs_sync", ours=seen["local2_events_per_s"],
               theirs=seen["sync_events_per_s"], unit="events/s", target=0.0,
               note=f"{size}; no target: Spark's fixed costs dominate small inputs; "
                    "one machine's answer is sync"),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="40,400",
                        help="simulated games per kind, one size or several (comma-separated)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.games.split(",")]
    results = {size: measure(size, args.rounds) for size in sizes}
    if args.json:
        print(json.dumps({str(size): seen for size, seen in results.items()}, indent=2))
        return
    from rich.console import Console

    shown: list[Figure] = []
    for seen in results.values():
        label = f"{seen['games']:.0f} games, {seen['events']:,.0f} events"
        shown += [Figure(key=f"local[2] / local[1] ({label})", ours=seen["local2_events_per_s"],
                         theirs=seen["local1_events_per_s"], unit="events/s", target=1.5),
                  Figure(key=f"local[2] / sync ({label})", ours=seen["local2_events_per_s"],
                         theirs=seen["sync_events_per_s"], unit="events/s", target=0.0)]
    Console(width=170).print(figures_table(shown, title="Spark job vs DuckDB sync"))


if __name__ == "__main__":
    main()
