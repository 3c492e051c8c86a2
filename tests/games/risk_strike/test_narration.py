"""Replay, narration and audit of Risk Strike games: the demo and games its bot plays."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.audit import audit_game
from tabletape.replay.demo import run_demo
from tabletape.replay.engine import open_replay
from tabletape.replay.narrate import FAILED_MARK, narrate_game, narration_view
from tabletape.replay.recording import open_game
from tabletape.replay.render import status_json
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game
from tests.replay.conftest import assert_steps_back_to_start, stamp
from tests.replay.test_golden import check, rendered

GOLDEN = Path(__file__).parent / "golden"

RISK = find_game("risk-strike")
NAMES = ("Olga", "Patrick", "Quinn", "Rosa", "Sam")


def risk_bot_log(store: Ledger, seed: int, players: int) -> str:
    names = NAMES[:players]
    started = GameStarted(kind=RISK.name, rules_version=RISK.rules_version,
                          tabletape_version=ledger_pkg.__version__, players=names,
                          options=RISK.options({}, names), seed=seed)
    game = store.create(started, game_id=f"rs-bot-{seed}", at=stamp(0))
    played = bot_game(RISK, started, random.Random(seed))
    store.append(game, played, expected_seq=1, at=[stamp(i + 1) for i in range(len(played))])
    return game


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000), st.integers(2, 5))
@example(740, 2)  # short games: stepping 7 forward from the middle reaches the end
@example(1260, 2)
def test_bot_games_narrate_replay_and_audit_clean(seed: int, players: int) -> None:
    store = Ledger(tempfile.mkdtemp())
    game = risk_bot_log(store, seed, players)
    records = store.records(game)
    for line in narrate_game(game, records):
        assert line.sentences and all(line.sentences)
        assert not any(FAILED_MARK in sentence for sentence in line.sentences), line
        if line.effective and line.seq > 1:
            assert not line.sentences[0].startswith(f"{line.actor}: ")  # words, not the syntax
    replay = open_replay(store, game)
    assert status_json(replay.folded_at(replay.last)) == status_json(open_game(store, game))
    assert_steps_back_to_start(replay, replay.last // 2, 7)
    report = audit_game(store, game)
    # fair dice may still look loaded by chance (seed 734 does, at p = 0.0006): not a failure here
    assert [p for p in report.problems if "look loaded" not in p] == []
    assert report.conservation_checked and report.dice_checked


@pytest.fixture
def demo(store: Ledger) -> str:
    from io import StringIO

    from rich.console import Console

    return run_demo(store, Console(file=StringIO()))


def test_demo_narration(store: Ledger, demo: str) -> None:
    lines = narrate_game(demo, store.records(demo))
    told = {line.seq: " ".join(line.sentences) for line in lines}
    assert "Olga attacks Patrick's Europe from Asia." in told.values()
    assert any("Patrick gives Olga a Europe card." in text for text in told.values())
    assert any("Olga takes the Europe coin." in text for text in told.values())
    body = [line for line in lines if line.seq > 1]  # the game id is random
    check("risk-strike-demo-narration", rendered(narration_view("Risk Strike demo", body)), GOLDEN)


def test_demo_audit_counts_the_dice(store: Ledger, demo: str) -> None:
    report = audit_game(store, demo)
    assert report.ok
    overall = next(group for group in report.dice if group.player == "all")
    assert overall.rolls == 28 and overall.verdict == "too few rolls"
