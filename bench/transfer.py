"""``import_vs_decode``: importing a log set with chain verification / a bare msgspec decode.

A set of finished games of the test game "tiny" (1,000 events each) is written once; then, in
alternating rounds, the whole set is imported into a fresh ledger exactly as
``tabletape import FILE...`` does it (:meth:`tabletape.ledger.transfer.ImportBatch.add_all`: per
file, in worker processes for a big import, read, verify every line's hash and the chain, fold it
with every event checked, write a copy; refuse a game already there; every copy fsynced, then
every file linked, the folder fsynced once at the end), and every line of
the same files is decoded with a bare ``msgspec.json.decode`` (untyped, nothing checked). Both
sides are events per second; the ratio should stay >= 0.5.

    python bench/transfer.py [--events 1000000] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from bench.common import Figure, figures_table, rate, side_by_side  # noqa: E402
from tabletape.ledger import Ledger  # noqa: E402

EVENTS_PER_GAME = 1000


def log_set(folder: Path, events: int) -> tuple[list[Path], int]:
    """Write tiny games of about :data:`EVENTS_PER_GAME` events totalling ``events``."""
    from bench.sync import write_logs

    source = Ledger(folder / "source")
    total = write_logs(source, max(1, events // EVENTS_PER_GAME), EVENTS_PER_GAME)
    return sorted(source.games_dir.glob("*.jsonl")), total


def import_all(files: list[Path], target: Path) -> None:
    """What ``tabletape import FILE...`` does for each file, into a fresh ledger."""
    from tabletape.queries.transfer import ImportBatch, game_log_problem

    with ImportBatch(Ledger(target), game_log_problem) as batch:
        _, refused = batch.add_all(files)
        assert not refused, refused
        batch.commit()


def import_rate(files: list[Path], target: Path, total: int) -> float:
    """Events/s of :func:`import_all` into a fresh ``target`` (removing the last round's copy
    is setup, not timed)."""
    if target.exists():
        shutil.rmtree(target)
    return rate(total, lambda: import_all(files, target))


def decode_all(files: list[Path]) -> None:
    """A bare ``msgspec.json.decode`` of every line of ``files``."""
    decode = msgspec.json.decode
    for path in files:
        for line in path.read_bytes().splitlines():
            decode(line)


def import_figure(quick: bool, events: int | None = None) -> Figure:
    """``import_vs_decode`` over ``events`` (quick: 200,000; full: 1,000,000)."""
    wanted = events or (200_000 if quick else 1_000_000)
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as name:
        folder = Path(name)
        files, total = log_set(folder, wanted)
        target = folder / "imported"
        decode_all(files)  # page cache warm for both sides
        mine, other = side_by_side(lambda: import_rate(files, target, total),
                                   lambda: rate(total, lambda: decode_all(files)),
                                   rounds=3)
    return Figure(key="import_vs_decode", ours=mine, theirs=other, unit="events/s", target=0.5,
                  note=f"{total:,} events in {len(files)} files"
                       + (" (quick: fewer than 1M)" if total < 1_000_000 else ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--json", action="store_true", help="print the figure as JSON")
    args = parser.parse_args(argv)
    figure = import_figure(quick=False, events=args.events)
    if args.json:
        print(json.dumps({figure.key: figure.as_json()}, indent=2))
    else:
        from rich.console import Console

        Console().print(figures_table([figure], title="import"))


if __name__ == "__main__":
    main()
