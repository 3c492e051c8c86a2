"""The demo game replays; the view shows the board, players and supply; narration tells it."""

from __future__ import annotations

import io

from rich.console import Console

from replay.games.risk_deep_space import conservation, view
from rules.risk_deep_space import RULES
from rules.risk_deep_space.demo import DEMO_PLAYERS, demo_actions

from .helpers import play, start


def rendered(state) -> str:
    console = Console(file=io.StringIO(), width=110)
    console.print(view(RULES, state))
    return console.file.getvalue()


def test_the_demo_replays_and_adds_up() -> None:
    state = play(start(DEMO_PLAYERS), *demo_actions())
    assert conservation(state) == []
    assert RULES.turn(state).active == ("Patrick",)


def test_the_view_shows_holders_recruits_dogs_and_the_reconstruction_label() -> None:
    state = play(start(DEMO_PLAYERS), *demo_actions()[:15])
    text = rendered(state)
    assert "Inner South" in text and "Patrick" in text and "Deep Space" in text
    assert "RECONSTRUCTION" in text and "[I]" in text
    assert "battle (0 exchanges)" in text
