"""Cards, decks and draws (issue 11): Expand's owed draw, hidden cards across reshuffles, and the
readings of the card rules offered as options."""

from __future__ import annotations

import pytest

from rules.kernel import IllegalAction
from rules.risk_strike.state import CONTINENTS, TACTICS

from .helpers import dealt, play

PLAYERS = ("Olga", "Patrick")
CARD = {name: index for index, name in enumerate(TACTICS)}
ASIA, EUROPE = CONTINENTS.index("asia"), CONTINENTS.index("europe")


def last_stand(**options: str):
    """Olga (Asia x3, Expand in hand) attacks Patrick's only Europe card and rolls."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=expand,2",
        "continents=europe,africa,africa",
        **options,
    )
    return play(
        state,
        "draw tactics=2",
        "attack from=asia target=europe defender=patrick",
        "roll attacker=6,5,4 defender=1",
        "play card=expand",
    )


def test_expand_draw_survives_the_end_of_the_battle() -> None:
    """Tactics Cards, Expand: 'Play anytime on your turn. Draw either 2 continent cards or 1
    tactics card.' After the Roll Has Been Resolved: 'If there are no defending continent cards
    remaining, the battle ends and the attacker's turn is over': the draw is owed and taken before
    play moves on."""
    state = play(last_stand(), "resolve")
    assert state.battle is None and state.expand_owed == 1
    assert state.name(state.current) == "Olga"
    with pytest.raises(IllegalAction, match="draws for Expand first"):
        play(state, "pass by=olga")
    with pytest.raises(IllegalAction, match="only Olga may draw"):
        play(state, "draw tactics=2 by=patrick")
    state = play(state, "draw continents=asia,asia")
    assert state.seats[0].continents[ASIA] == 5 and state.seats[0].continents[EUROPE] == 1
    assert state.name(state.current) == "Patrick" and state.phase == "draw"
