"""Fixtures of the queries tests: ledgers of seeded games of "tiny" and "duel"."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import tests.queries.duelgame
import tests.queries.tinyprojections  # noqa: F401
from tabletape.ledger import GameStarted, Ledger, utc_stamp
from tabletape.ledger.events import Event
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game

EPOCH = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)


def stamps(start: datetime, count: int, step: float = 30.0) -> list[str]:
    """``count`` recording times ``step`` seconds apart."""
    return [utc_stamp(start + timedelta(seconds=step * i)) for i in range(count)]


def start_game(ledger: Ledger, kind: str, players: tuple[str, ...], *, seed: int,
               game_id: str, options: dict[str, object] | None = None,
               at: datetime = EPOCH) -> str:
    rules = find_game(kind)
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version="test", players=players,
                          options=rules.options(options or {}, players), seed=seed)
    return ledger.create(started, game_id=game_id, at=utc_stamp(at))


def record(ledger: Ledger, game: str, drafts: list[tuple[str, Event]], *,
           start: datetime = EPOCH, step: float = 30.0) -> None:
    """Append ``drafts`` after the head in one batch, ``step`` seconds apart."""
    head = ledger.head(game)
    begin = start + timedelta(seconds=step * head.seq)
    ledger.append(game, drafts, expected_seq=head.seq, at=stamps(begin, len(drafts), step))


def bot_games(ledger: Ledger, kind: str, count: int, *, seed: int = 0,
              players: tuple[str, ...] = ("olga", "patrick"),
              options: dict[str, object] | None = None, prefix: str = "") -> list[str]:
    """Record ``count`` whole bot games of ``kind``; return their ids."""
    rules = find_game(kind)
    games = []
    for index in range(count):
        game_seed = seed * 100_000 + index
        order = players if index % 2 == 0 else tuple(reversed(players))
        game = start_game(ledger, kind, order, seed=game_seed, options=options,
                          game_id=f"{prefix or rules.short}-{seed}-{index}")
        started = ledger.started(game)
        record(ledger, game, bot_game(rules, started, random.Random(game_seed)))
        games.append(game)
    return games


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")
