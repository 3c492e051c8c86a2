"""Shared builders for replay tests: tiny games recorded at fixed times, and raw logs."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger, Noted
from tabletape.ledger.codec import GENESIS_HASH, encode_body, encode_payload, seal
from tabletape.ledger.events import Event, event_type
from tabletape.replay.engine import Cursor, Replay
from tabletape.replay.recording import record_action
from tabletape.replay.undo import undo
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game

EPOCH = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def stamp(index: int) -> str:
    """A fixed recorded-at: 20 seconds per event after :data:`EPOCH`."""
    return ledger_pkg.utc_stamp(EPOCH + timedelta(seconds=20 * index))


def assert_steps_back_to_start(replay: Replay, start: int, steps: int) -> None:
    """Stepping ``steps`` forward and as many back returns to ``start`` and its state.

    Cursors clamp at the ends, so the step is cut to what the game has after ``start``; a step
    past the end stops at the last event.
    """
    cursor = Cursor(replay, start)
    before = cursor.state
    assert Cursor(replay, start).forward(replay.last - start + steps).position == replay.last
    k = min(steps, replay.last - start)
    cursor.forward(k)
    assert cursor.position == start + k
    cursor.back(k)
    assert cursor.position == start and cursor.state == before


def tiny_started(players: Sequence[str] = ("olga", "patrick"), target: int = 20,
                 seed: int = 7) -> GameStarted:
    return GameStarted(kind="tiny", rules_version="1", tabletape_version="0.1.0",
                       players=tuple(players), options={"target": target}, seed=seed)


def record_script(store: Ledger, game: str, script: Iterable[str],
                  started: GameStarted | None = None) -> str:
    """Create ``game`` and record each line: an action, ``undo [by]``, or ``note TEXT``."""
    store.create(started or tiny_started(), game_id=game, at=stamp(0))
    for index, line in enumerate(script, start=1):
        word, _, rest = line.partition(" ")
        if word == "undo":
            undo(store, game, by=rest or "table", at=stamp(index))
        elif word == "note":
            head = store.head(game)
            store.append(game, [("table", Noted(text=rest))], expected_seq=head.seq,
                         at=stamp(index))
        else:
            record_action(store, game, line, at=stamp(index))
    return game


STORY = ("add n=2", "roll dice=5", "cheer by=olga", "add n=3", "roll dice=4", "undo patrick",
         "note the die rolled off the table", "roll dice=2", "add n=1", "add n=3",
         "cheer by=patrick", "roll dice=6")
"""A short tiny game with a cheer, an undo and a note; olga wins it at seq 13."""


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


@pytest.fixture
def story(store: Ledger) -> str:
    return record_script(store, "ty-story", STORY)


def bot_log(store: Ledger, game: str, seed: int, target: int = 30,
            players: Sequence[str] = ("ann", "bob", "cat")) -> str:
    """A whole tiny game played by the bot, recorded at fixed times."""
    started = tiny_started(players, target=target, seed=seed)
    store.create(started, game_id=game, at=stamp(0))
    played = bot_game(find_game("tiny"), started, random.Random(seed))
    store.append(game, played, expected_seq=1, at=[stamp(i + 1) for i in range(len(played))])
    return game


def raw_log(path: Path, lines: Sequence[tuple[str, str, Event]]) -> None:
    """Write a log with a correct hash chain from ``(at, actor, event)``, skipping every check."""
    prev = GENESIS_HASH
    data = []
    for seq, (at, actor, event) in enumerate(lines, start=1):
        line = seal(encode_body(seq, at, actor, event_type(event), encode_payload(event), prev))
        prev = line[-66:-2].decode()
        data.append(line + b"\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(data))


@functools.cache
def cli() -> typer.Typer:
    import tabletape

    return tabletape.build_app()


def run(store: Ledger, *args: str) -> tuple[int, str]:
    """Run a tabletape command on ``store``; return its exit code and output."""
    result = CliRunner().invoke(cli(), [*args, "--ledger", str(store.root)])
    return result.exit_code, result.output
