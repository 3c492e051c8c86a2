"""Dominating and Winning."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import CONTINENTS, coins_of

from .helpers import dealt, play

SA, EUROPE, AFRICA = (CONTINENTS.index(c) for c in ("south-america", "europe", "africa"))
PLAYERS = ("Olga", "Patrick", "Carol")


def test_reaching_the_number_takes_the_coin() -> None:
    """Dominating: 'Once you have claimed continent cards equal to or greater than the required
    domination number ... take that continent's domination coin'."""
    state = dealt(
        PLAYERS,
        "continents=south-america,south-america,asia",
        "continents=europe,europe,asia",
        "continents=africa,africa,asia",
    )
    assert state.coins[SA] == -1
    state = play(state, "draw continents=south-america tactics=1")
    assert state.coins[SA] == 0 and RULES.figures(state)[0]["coins"] == ["south-america"]


def test_the_coin_moves_to_whoever_reaches_the_number_and_stays_until_then() -> None:
    """Dominating: 'take that continent's domination coin, even if it is controlled by another
    player. Once you hold the domination coin ... you may lose continent cards and still hold
    the domination coin — as long as another player doesn't collect the number of cards'."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia",
        "continents=africa,africa,africa",
        "continents=europe,europe,europe",
    )
    state = play(state, "draw tactics=2", "pass", "draw continents=africa tactics=1")
    assert state.coins[AFRICA] == 1
    state = play(state, "pass", "draw tactics=2", "pass")
    state = play(
        state,
        "draw tactics=2",
        "attack from=asia target=africa defender=patrick",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=6,6,6 defender=1,1",
        "retreat",
    )
    assert state.seats[1].continents[AFRICA] == 2 and state.coins[AFRICA] == 1
    state = play(state, "draw tactics=2", "pass", "draw tactics=2", "pass")
    state = play(state, "draw continents=africa,africa")
    assert state.seats[0].continents[AFRICA] == 4 and state.coins[AFRICA] == 0


def test_two_coins_win_at_once() -> None:
    """Winning: 'The first player to collect two domination coins wins!'"""
    state = dealt(
        PLAYERS,
        "continents=south-america,south-america,australia",
        "continents=australia,europe,asia",
        "continents=africa,africa,asia",
    )
    state = play(state, "draw continents=south-america,australia")
    assert coins_of(state, 0) == (SA,)
    state = play(
        state,
        "pass",
        "draw tactics=2",
        "attack from=australia target=australia defender=olga",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=1 defender=6,1",
        "resolve",
    )
    state = play(state, "draw tactics=2", "pass", "draw lineup=australia tactics=1")
    result = RULES.result(state)
    assert result is not None and result.winners == ("Olga",)
    assert result.reason == "Olga holds two domination coins: South America and Australia"
    assert RULES.legal_actions(state) == ()
    with pytest.raises(IllegalAction, match="the game is over: Olga won"):
        play(state, "pass by=olga")


def test_domination_numbers_are_options() -> None:
    """Contents: 'Domination number — the number of cards needed to claim the domination coin'
    (printed on the cards, which our data does not know for sure: a table sets it)."""
    state = dealt(
        PLAYERS,
        "continents=europe,europe,europe",
        "continents=asia,asia,asia",
        "continents=africa,africa,asia",
        **{"domination.europe": "4"},
    )
    assert state.coins[EUROPE] == -1
    assert play(state, "draw continents=europe tactics=1").coins[EUROPE] == 0
