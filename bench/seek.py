"""``seek_flatness``: time to jump to the last turn / time to jump to the first turn of a replay.

A 10,000-event tiny game is written straight into a ledger (many turns, each with a few cheers
before its move), opened once for replay, then both jumps are timed alternately in batches; lower
is better, target <= 2 (a jump costs the same wherever it lands).

    python -m bench.seek [--json] [--events N]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from typing import Annotated

import typer
from rich.console import Console

from bench.common import Figure, figures_table, seconds, side_by_side
from tabletape.ledger import Draft, GameStarted, Ledger
from tabletape.replay.engine import Cursor, Point, Replay, open_replay

PLAYERS = ("ann", "bob", "cat")
JUMPS = 2000
"""Jumps per timed batch."""


def write_game(store: Ledger, events: int, seed: int = 1) -> str:
    """A tiny game of ``events`` events (game-started included), written in one append."""
    import tests.support.tinygame as tiny

    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0.1.0",
                          players=PLAYERS, options={"target": 10**9}, seed=seed)
    game = store.create(started, game_id="ty-seek")
    rng = random.Random(seed)
    drafts: list[Draft] = []
    turn = 0
    while len(drafts) < events - 1:
        active = PLAYERS[turn % len(PLAYERS)]
        for _ in range(rng.randint(0, 5)):
            drafts.append((rng.choice(PLAYERS), tiny.Cheered()))
        drafts.append((active, tiny.Added(n=rng.randint(1, 3))))
        turn += 1
    store.append(game, drafts[:events - 1], expected_seq=1)
    return game


def jump(replay: Replay, point: Point) -> float:
    """Seconds for :data:`JUMPS` fresh-cursor jumps to ``point`` (state included)."""
    def batch() -> None:
        for _ in range(JUMPS):
            _ = Cursor(replay).seek(point).state

    return seconds(batch)


def measure(events: int) -> tuple[Figure, dict[str, float]]:
    """The flatness figure, and the context: open time, full fold time, turn count."""
    with tempfile.TemporaryDirectory() as folder:
        store = Ledger(folder)
        game = write_game(store, events)
        started = time.perf_counter()
        replay = open_replay(store, game)
        opened = time.perf_counter() - started
        last_turn = replay.turn_info(replay.last).turn
        fold_all = seconds(lambda: full_fold(replay))
        last, first = side_by_side(lambda: jump(replay, Point("turn", last_turn)),
                                   lambda: jump(replay, Point("turn", 1)), rounds=7)
    figure = Figure(key="seek_flatness", ours=last / JUMPS * 1e6, theirs=first / JUMPS * 1e6,
                    unit="µs", target=2, higher_is_better=False,
                    note=f"jump to turn {last_turn} / to turn 1 of {events} events")
    context = {"events": events, "turns": last_turn, "open_seconds": round(opened, 4),
               "full_fold_ms": round(fold_all * 1000, 3),
               "jump_last_us": round(last / JUMPS * 1e6, 2),
               "jump_first_us": round(first / JUMPS * 1e6, 2)}
    return figure, context


def full_fold(replay: Replay) -> object:
    """The slow way, for context: apply every event from the start."""
    state = replay.state_at(0)
    for position in range(1, len(replay)):
        state = replay.apply(state, position)
    return state


def main(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    events: Annotated[int, typer.Option(help="Events in the game.")] = 10_000,
) -> None:
    """Measure seek_flatness."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    figure, context = measure(events)
    if as_json:
        print(json.dumps({"seek_flatness": figure.as_json(), "context": context}, indent=2))
        return
    console = Console()
    console.print(figures_table([figure], title="replay seek"))
    console.print(", ".join(f"{key} {value}" for key, value in context.items()), style="dim")


if __name__ == "__main__":
    typer.run(main)
