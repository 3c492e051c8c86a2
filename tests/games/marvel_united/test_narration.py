"""Marvel United in replay: golden renderings of the demo's narration and its final table."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from tabletape.ledger import Ledger
from tabletape.replay import render
from tabletape.replay.demo import run_demo
from tabletape.replay.narrate import FAILED_MARK, narrate_game, narration_view
from tabletape.replay.recording import open_game
from tests.replay.test_golden import check, rendered

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def demo(store: Ledger) -> str:
    return run_demo(store, Console(file=StringIO()), kind="marvel-united")


def test_demo_narration_golden(store: Ledger, demo: str) -> None:
    lines = narrate_game(demo, store.records(demo))
    assert not any(FAILED_MARK in s for line in lines for s in line.sentences)
    body = [line for line in lines if line.seq > 1]  # the game id is random
    check("marvel-united-demo-narration",
          rendered(narration_view("Marvel United demo", body)), GOLDEN)


def test_demo_final_view_golden(store: Ledger, demo: str) -> None:
    """The ring, the Storyline, the Missions, health and hands, as ``status`` draws them."""
    folded = open_game(store, demo)
    check("marvel-united-demo-view", rendered(render.game_view(folded.rules, folded.state)), GOLDEN)
