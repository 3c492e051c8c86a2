"""The rich view of a Risk Strike game."""

from __future__ import annotations

import io

from rich.console import Console

from tabletape.replay.games.risk_strike import recorded, view
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.demo import DEMO_PLAYERS, demo_actions
from tabletape.rules.risk_strike.moves import settle

from .helpers import parse, play, start


def render(state) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(view(RULES, state))
    return console.file.getvalue()


def test_view_shows_cards_piles_and_the_battle() -> None:
    """Contents: continent cards face up, tactics hands, the surrendered lineup, the battle."""
    lines = demo_actions()
    state = play(start(DEMO_PLAYERS), *lines[:-3])
    text = render(state)
    for expected in (
        "Olga (first)",
        "South America 3/3",
        "Europe 2/5",
        "South America",
        "1 face down",
        "surrendered lineup",
        "Africa 1, Asia 2",
        "tactics deck",
        "discard pile",
        "Olga attacks Patrick's Europe from Asia",
        "dice rolled: Olga 4,1 vs Patrick 5,3",
        "[I]",
    ):
        assert expected in text, expected
    state = play(state, *lines[-3:])
    assert "Olga holds two domination coins: South America and Europe" in render(state)


def test_view_of_setup() -> None:
    """Game Setup: before the deal everyone has nothing and the decks are full."""
    text = render(start(("Olga", "Patrick", "Carol")))
    assert "continent deck      42" in text and "tactics deck        40" in text


def test_view_shows_the_dice_as_they_show_after_rally_and_bombard() -> None:
    """Tactics Cards, Rally: 'Add 2 to each die you rolled'; Bombard: 'change any one die to a
    6': the view shows each die as it shows now (the rulebook example's 4,1 after a Rally)."""
    lines = demo_actions()
    state = settle(play(start(DEMO_PLAYERS), *lines[:-2]))  # the Rally has taken effect
    assert "dice rolled: Olga 6,3 (Rally +2 each) vs Patrick 5,3" in render(state)


def test_narration_of_the_deploying_steps() -> None:
    """Attack Phase 2 in words: a declined step, and the attacker ending the helpers' step."""
    state = play(start(("Olga", "Patrick", "Carol")),
                 "deal player=olga continents=asia,asia,asia",
                 "deal player=patrick continents=europe,europe,europe",
                 "deal player=carol continents=africa,africa,africa",
                 "roll-off dice=6,1,1", "draw tactics=2",
                 "attack from=asia target=europe defender=patrick")
    told = []
    for line in ("deploy troops=0", "deploy troops=0", "resolve"):
        actor, event = parse(state, line)
        after = play(state, line)
        told.append(recorded(state, after, actor, event))
        state = after
    assert told == ["Olga deploys no troops.", "Patrick deploys no troops.",
                    "Olga says no more troops are deployed."]
