"""Benchmark of durable appends: ``Ledger.append`` against a bare ``os.write`` + ``os.fsync``.

    python bench/append.py [--events 12000] [--rounds 10] [--dir FOLDER] [--json]

Both sides make one event durable per call: ``Ledger.append`` with one event (open, exclusive
lock, read the head, one write, fsync, close) and, as the floor no durable log can beat, one
``os.write`` of the same line's bytes followed by ``os.fsync`` on an already open plain file in
the same folder. They run in alternating batches (``--rounds`` of each, the order swapped every
round) so that whatever else the machine does slows both alike.

Prints both rates and ``append_vs_fsync`` = appends per second / bare write+fsync per second
(1.0 would mean the ledger's bookkeeping costs nothing next to the fsync).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tabletape.ledger import Event, GameStarted, Ledger, __version__  # noqa: E402


class Added(Event, tag="add"):
    """A typical small action: one number."""

    n: int


def measure(folder: Path, events: int, rounds: int) -> dict[str, object]:
    store = Ledger(folder)
    game = store.create(GameStarted(kind="bench", rules_version="1", tabletape_version=__version__,
                                    players=("olga", "patrick")))
    head = store.append(game, [("olga", Added(n=1))], expected_seq=1)[-1].seq
    line = store.path(game).read_bytes().splitlines(keepends=True)[-1]  # one stored event

    plain = folder / "plain.jsonl"
    fd = os.open(plain, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    per_round = max(1, events // rounds)
    seconds = {"append": 0.0, "fsync": 0.0}
    done = {"append": 0, "fsync": 0}

    def appends() -> None:
        nonlocal head
        actor = ("olga", "patrick")
        start = time.perf_counter()
        for i in range(per_round):
            head = store.append(game, [(actor[i % 2], Added(n=1 + i % 3))],
                                expected_seq=head)[-1].seq
        seconds["append"] += time.perf_counter() - start
        done["append"] += per_round

    def bare() -> None:
        start = time.perf_counter()
        for _ in range(per_round):
            os.write(fd, line)
            os.fsync(fd)
        seconds["fsync"] += time.perf_counter() - start
        done["fsync"] += per_round

    try:
        bare()  # warm both paths up (file creation, page cache) before timing anything
        appends()
        seconds.update(append=0.0, fsync=0.0)
        done.update(append=0, fsync=0)
        for round_number in range(rounds):
            for side in (appends, bare) if round_number % 2 == 0 else (bare, appends):
                side()
    finally:
        os.close(fd)
    if not store.verify(game).ok:  # pragma: no cover - the bench must not measure a broken log
        raise SystemExit("the benchmark's log does not verify")

    append_rate = done["append"] / seconds["append"]
    fsync_rate = done["fsync"] / seconds["fsync"]
    return {
        "append_vs_fsync": round(append_rate / fsync_rate, 4),
        "append_per_s": round(append_rate, 1),
        "fsync_per_s": round(fsync_rate, 1),
        "append_us": round(1e6 / append_rate, 1),
        "fsync_us": round(1e6 / fsync_rate, 1),
        "events": done["append"],
        "rounds": rounds,
        "line_bytes": len(line),
        "folder": str(folder),
    }


def show(result: dict[str, object]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title_justify="left",
                  title=f"Durable appends, one event each ({result['events']} per side, "
                        f"{result['rounds']} alternating rounds, {result['line_bytes']}-byte line)")
    for column in ("measure", "per second", "µs per event"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    table.add_row("Ledger.append (lock, head, write, fsync)", f"{result['append_per_s']:,.0f}",
                  f"{result['append_us']:,.1f}")
    table.add_row("bare os.write + os.fsync, same bytes", f"{result['fsync_per_s']:,.0f}",
                  f"{result['fsync_us']:,.1f}")
    table.add_row("[bold]append_vs_fsync[/]", f"[bold]{result['append_vs_fsync']:.3f}[/]", "")
    console = Console()
    console.print(table)
    console.print(f"[dim]written in a temporary folder under {Path(str(result['folder'])).parent}"
                  ", removed after[/]")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=12000,
                        help="events per side (default 12000: about 10 s here)")
    parser.add_argument("--rounds", type=int, default=10, help="alternating batches per side")
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder to write in (default: a temporary folder, removed after)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.events < 1 or args.rounds < 1:
        parser.error("--events and --rounds must be at least 1")

    folder = Path(tempfile.mkdtemp(prefix="tabletape-bench-", dir=args.dir))
    try:
        result = measure(folder, args.events, args.rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        show(result)


if __name__ == "__main__":
    main()
