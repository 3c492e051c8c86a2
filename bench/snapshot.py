"""``status_vs_snapshot``: whole ``tabletape status`` of a 10,000-event game / of a small one.

    python bench/snapshot.py [--rounds N] [--json]

A 10,000-event tiny game (``bench/seek.py``'s, 2.6 MB of log) and a 7-event one (a log of a few
hundred bytes: "a small file") sit in one temporary ledger. ``tabletape status --json`` runs as a
fresh process on each, paired in rounds (the order swapped each round), after one warm-up run of
each, which also kept the long game's fold in the cache. ``ours`` is the long game's median,
``theirs`` the small game's; lower is better, target 2: with its fold cached, the long game's
status costs what reading a small log costs, plus checking that its 2.6 MB are the ones folded
(one read and one SHA-256).

Context, measured in the same run: the long game's status with the cache removed before each run
(the whole log verified and folded, as before the cache; ``cold_ratio`` is it over ``theirs``),
and, in-process, ``open_game`` + ``status_json`` of the long game from its snapshot, folded
whole, and of the small game; and the CPU time (user + system) of each side's processes,
``cpu_ms`` / ``small_cpu_ms`` = ``cpu_ratio`` (a busy machine disturbs it less than wall time).
Both sides run the same interpreter with the test game registered (``tests.support.tinygame``) and
bytecode cached (``bench.startup.bench_env``).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Figure, figures_table, seconds  # noqa: E402
from bench.startup import bench_env, run  # noqa: E402
from tabletape.ledger import GameStarted, Ledger  # noqa: E402

EVENTS = 10_000
SMALL_EVENTS = 7
MAIN = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tests.support.tinygame; "
        "from tabletape import main; main()")
"""``tabletape`` with the test game registered (both sides run it)."""


def small_game(store: Ledger) -> str:
    """A tiny game of :data:`SMALL_EVENTS` events: its log is a small file."""
    import tests.support.tinygame as tiny

    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0.1.0",
                          players=("ann", "bob", "cat"), options={"target": 10**9}, seed=1)
    game = store.create(started, game_id="ty-small")
    drafts = [(("ann", "bob", "cat")[n % 3], tiny.Added(n=1)) for n in range(SMALL_EVENTS - 1)]
    store.append(game, drafts, expected_seq=1)
    return game


def in_process(folder: str, game: str, small: str, rounds: int) -> dict[str, float]:
    """ms of ``open_game`` + ``status_json`` of ``game`` from its snapshot and folded whole, and
    of the ``small`` game (folded: it is below the cache's threshold)."""
    from tabletape.replay import snapshots
    from tabletape.replay.fold import fold_records
    from tabletape.replay.recording import open_game
    from tabletape.replay.render import status_json

    store = Ledger(folder)
    open_game(store, game)
    warm, few = [], []
    for _ in range(rounds):
        warm.append(seconds(lambda: status_json(open_game(store, game))))
        few.append(seconds(lambda: status_json(open_game(store, small))))
    whole = [seconds(lambda: status_json(fold_records(game, store.records(game))))
             for _ in range(max(3, rounds // 3))]
    hits = snapshots.STATS["hit"]
    return {"in_process_cached_ms": round(statistics.median(warm) * 1000, 3),
            "in_process_folded_ms": round(statistics.median(whole) * 1000, 3),
            "in_process_small_ms": round(statistics.median(few) * 1000, 3),
            "hits": hits}


def timed(line: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds of one run of ``line``, and the CPU seconds (user + system) it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = seconds(lambda: run(line, env))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(rounds: int) -> tuple[Figure, dict[str, float]]:
    """The figure, and its context (cold process, in-process times, sizes)."""
    import tests.support.tinygame  # noqa: F401  (registers the game in this process too)
    from bench.seek import write_game
    from tabletape.replay.snapshots import cache_folder

    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as folder:
        store = Ledger(folder)
        long, small = write_game(store, EVENTS), small_game(store)
        store.close()
        env = bench_env(folder)
        status = {game: [sys.executable, "-c", MAIN, "status", game, "--json"]
                  for game in (long, small)}
        for line in status.values():  # warm-up: bytecode written, the long game's fold kept
            run(line, env)
        assert (cache_folder(store) / f"{long}.fold").is_file()
        ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
        for number in range(rounds):
            sides = [(status[long], ours, ours_cpu), (status[small], theirs, theirs_cpu)]
            for line, walls, cpus in sides[::-1] if number % 2 else sides:
                wall, cpu = timed(line, env)
                walls.append(wall)
                cpus.append(cpu)
        cold, cold_cpu = [], []
        for _ in range(max(3, rounds // 3)):
            shutil.rmtree(cache_folder(store), ignore_errors=True)
            wall, cpu = timed(status[long], env)
            cold.append(wall)
            cold_cpu.append(cpu)
        context: dict[str, float] = {
            "events": EVENTS, "log_bytes": store.path(long).stat().st_size,
            "small_log_bytes": store.path(small).stat().st_size,
            "cold_process_ms": round(statistics.median(cold) * 1000, 1),
            "cold_cpu_ms": round(statistics.median(cold_cpu) * 1000, 1),
            "cpu_ms": round(statistics.median(ours_cpu) * 1000, 1),
            "small_cpu_ms": round(statistics.median(theirs_cpu) * 1000, 1),
            **in_process(folder, long, small, rounds)}
        context["cpu_ratio"] = round(context["cpu_ms"] / context["small_cpu_ms"], 3)
        context["cold_ratio"] = round(context["cold_process_ms"]
                                      / (statistics.median(theirs) * 1000), 3)
    figure = Figure(key="status_vs_snapshot", ours=statistics.median(ours) * 1000,
                    theirs=statistics.median(theirs) * 1000, unit="ms", target=2,
                    higher_is_better=False,
                    note=f"whole `status --json` process: {EVENTS:,}-event game from its cached "
                         f"fold / {SMALL_EVENTS}-event game; {rounds} rounds; uncached "
                         f"{context['cold_process_ms']:.0f} ms")
    return figure, context


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="paired rounds")
    parser.add_argument("--json", action="store_true", help="print the figure as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    figure, context = measure(args.rounds)
    if args.json:
        print(json.dumps({figure.key: figure.as_json(), "context": context}, indent=2))
        return
    from rich.console import Console

    console = Console(width=max(Console().width, 120))
    console.print(figures_table([figure], title="status of a long game, its fold cached"))
    console.print(", ".join(f"{key} {value}" for key, value in context.items()), style="dim")


if __name__ == "__main__":
    main()
