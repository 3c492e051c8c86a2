"""Refusals a table reads: "did you mean" for a near miss of an allowed value or of a player's
name, and "the game is over" after the end (issue 11 audits)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.recording import open_game, prepare
from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.registry import find_game
from tests.cli.test_recording import Cli, fails, flat

SETUP = (
    "deal player=ann continents=asia,asia,europe",
    "deal player=ben continents=europe,europe,africa",
    "roll-off dice=6,2",
    "deal player=ben continents=africa",
    "draw continents=asia tactics=1",
)


@pytest.fixture
def strike(tmp_path: Path) -> tuple[Cli, str]:
    cli = Cli(tmp_path)
    created = cli.json("new", "risk-strike", "--player", "Ann", "--player", "Ben")
    assert isinstance(created, dict)
    for line in SETUP:
        cli.ok("record", created["game"], *line.split())
    return cli, created["game"]


@pytest.mark.parametrize(("typed", "meant"), [
    ("attack from=asai target=europe defender=ben", "did you mean 'asia'?"),
    ("attack from=asia target=erope defender=ben", "did you mean 'europe'?"),
    ("attack from=asia target=europe defender=bn", "did you mean 'Ben'?"),
])
def test_a_mistyped_value_is_refused_with_what_was_meant(strike: tuple[Cli, str], typed: str,
                                                         meant: str) -> None:
    cli, game = strike
    output = flat(fails(cli, 2, "record", game, *typed.split(), game=game))
    assert meant in output and "Allowed:" in output


def test_a_mistyped_player_after_by_gets_did_you_mean(strike: tuple[Cli, str]) -> None:
    cli, game = strike
    output = flat(fails(cli, 2, "record", game, "pass", "by=bn", game=game))
    assert "unknown player 'bn' (did you mean 'Ben'?)" in output


def test_no_suggestion_when_nothing_is_close(strike: tuple[Cli, str]) -> None:
    cli, game = strike
    output = flat(fails(cli, 2, "record", game, "attack", "from=mars", "target=europe",
                        "defender=ben", game=game))
    assert "did you mean" not in output and "Allowed:" in output


def test_after_the_end_an_action_nobody_may_take_says_the_game_is_over(tmp_path: Path) -> None:
    """Marvel United names nobody to act once it is over: the refusal says so, not "nobody may"."""
    rules = find_game("marvel-united")
    players = ("Olga", "Patrick")
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version="0", players=players,
                          options=rules.options({}, players), seed=3)
    store = Ledger(tmp_path)
    game = store.create(started)
    store.append(game, bot_game(rules, started, random.Random(3)), expected_seq=1)
    folded = open_game(store, game)
    assert rules.result(folded.state) is not None and not rules.turn(folded.state).active
    with pytest.raises(IllegalAction, match=r"the game is over: the villain won \(.+\); nothing"):
        prepare(folded, "done")
