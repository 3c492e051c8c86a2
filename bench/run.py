"""Run every tabletape benchmark and print one table (or one JSON object).

    python bench/run.py [--quick] [--json] [--only KEY[,KEY...]]

Each figure is a ratio of two things measured side by side in the same run (see
``bench/README.md``). ``--quick`` finishes in under 3 minutes on 2 cores; the full run uses
10M events for the catalog figures and takes longer.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Figure, figures_table  # noqa: E402
from bench.startup import COMMANDS as STARTUP_COMMANDS  # noqa: E402


def append_fsync_figure(quick: bool) -> Figure:
    """``append_vs_fsync``, from ``bench/append.py``."""
    import shutil

    from bench.append import measure

    events, rounds = (3000, 6) if quick else (12000, 10)
    folder = Path(tempfile.mkdtemp(prefix="tabletape-bench-"))
    try:
        result = measure(folder, events, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return Figure(key="append_vs_fsync", ours=float(result["append_per_s"]),  # type: ignore[arg-type]
                  theirs=float(result["fsync_per_s"]), unit="appends/s",  # type: ignore[arg-type]
                  target=0.85, note=f"{result['events']:,} one-event appends a side, "
                                    f"{result['line_bytes']}-byte line")


def append_es_figure(quick: bool) -> Figure:
    from bench.vs_eventsourcing import append_figure

    return append_figure(quick)


def import_figure(quick: bool) -> Figure:
    from bench.transfer import import_figure as figure

    return figure(quick)


def fold_figure(quick: bool) -> Figure:
    from bench.vs_eventsourcing import fold_figure as figure

    return figure(quick)


def seek_figure(quick: bool) -> Figure:
    from bench.seek import measure

    return measure(10_000)[0]


def catalog_figures(quick: bool) -> list[Figure]:
    from bench.sync import figures

    return figures(quick)


def tail_check_figure(quick: bool) -> Figure:
    from bench.sync import tail_check_figure

    return tail_check_figure(quick)


def record_figure(quick: bool) -> Figure:
    from bench.record_cli import record_figure as figure

    return figure(quick)


def snapshot_figure(quick: bool) -> Figure:
    from bench.snapshot import measure

    return measure(rounds=6 if quick else 20)[0]


def startup_figures(quick: bool) -> list[Figure]:
    from bench.startup import measure

    return measure(rounds=6 if quick else 20)


def spark_figures(quick: bool) -> list[Figure]:
    """``spark_local2_vs_local1``, ``spark_vs_sync`` (``bench/spark.py``); none without Java."""
    from bench.spark import figures
    from tabletape.queries.spark_job import SparkUnavailable

    try:
        return figures(quick)
    except SparkUnavailable as error:
        print(f"skipped spark_local2_vs_local1, spark_vs_sync: {error}", file=sys.stderr)
        return []


BENCHMARKS: list[tuple[tuple[str, ...], Callable[[bool], Figure | list[Figure]]]] = [
    (("append_vs_fsync",), append_fsync_figure),
    (("append_vs_eventsourcing",), append_es_figure),
    (("import_vs_decode",), import_figure),
    (("fold_vs_eventsourcing",), fold_figure),
    (("seek_flatness",), seek_figure),
    (("status_vs_snapshot",), snapshot_figure),
    (("sync_vs_read_json", "sync_parallel_scaling", "report_vs_duckdb"), catalog_figures),
    (("noop_sync_tail_check",), tail_check_figure),
    (("record_cli_vs_python",), record_figure),
    (tuple(f"startup_{name}" for name in STARTUP_COMMANDS), startup_figures),
    (("spark_local2_vs_local1", "spark_vs_sync"), spark_figures),
]
KEYS = [key for keys, _ in BENCHMARKS for key in keys]


def run(quick: bool, only: set[str] | None = None,
        log: Callable[[str], None] = lambda _: None) -> tuple[list[Figure], dict[str, float]]:
    """Every figure (or those named in ``only``), in table order, and seconds per benchmark."""
    import tests.support.tinygame  # noqa: F401  (the test game several benchmarks record)

    figures: list[Figure] = []
    took: dict[str, float] = {}
    for keys, measure in BENCHMARKS:
        if only and not only.intersection(keys):
            continue
        log(f"running {', '.join(keys)}…")
        began = time.perf_counter()
        try:
            result = measure(quick)
        except ModuleNotFoundError as error:  # a baseline from the bench extra is not installed
            log(f"skipped {', '.join(keys)}: {error.name} is not installed "
                "(pip install -e '.[bench]')")
            continue
        took["+".join(keys)] = round(time.perf_counter() - began, 1)
        figures.extend(result if isinstance(result, list) else [result])
    return figures, took


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller batches (1M events for the catalog): under 3 minutes")
    parser.add_argument("--json", action="store_true", help="print one JSON object of figures")
    parser.add_argument("--only", default="", help=f"comma-separated keys, of: {', '.join(KEYS)}")
    args = parser.parse_args(argv)
    only = {key.strip() for key in args.only.split(",") if key.strip()} or None
    unknown = (only or set()) - set(KEYS)
    if unknown:
        parser.error(f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(KEYS)}")

    from rich.console import Console

    err = Console(stderr=True)
    began = time.perf_counter()
    figures, took = run(args.quick, only,
                        log=lambda text: err.print(text, style="dim", markup=False))
    total = time.perf_counter() - began
    if args.json:
        print(json.dumps({figure.key: figure.as_json() for figure in figures}, indent=2))
        return
    console = Console(width=max(Console().width, 170))
    mode = "quick" if args.quick else "full"
    console.print(figures_table(figures, title=f"tabletape benchmarks ({mode}, {total:.0f} s)"))
    console.print("seconds per benchmark: "
                  + ", ".join(f"{key} {seconds}" for key, seconds in took.items()), style="dim")


if __name__ == "__main__":
    main()
