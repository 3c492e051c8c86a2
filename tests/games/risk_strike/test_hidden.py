"""Hidden information: tactics cards face down, continent cards face up."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike.state import TACTICS, unseen

from .helpers import dealt, deck_into_hand, play, start

RALLY = TACTICS.index("rally")
PLAYERS = ("Olga", "Patrick")


def rallies():
    """Olga holds three Rally cards, Patrick the fourth: all four are seen."""
    return dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=rally,rally,rally",
        "continents=europe,europe,europe tactics=rally,2",
    )


def test_a_card_drawn_face_down_is_named_when_played() -> None:
    """Game Setup 2: 'You can look at your cards, but don't let other players see.'"""
    state = dealt(PLAYERS, "continents=asia,asia,asia", "continents=europe,europe,europe")
    assert state.seats[0].unknown == 3 and state.seats[0].known == (0,) * 8
    state = play(state, "play card=spy target=patrick")
    assert state.seats[0].unknown == 2 and state.discard[TACTICS.index("spy")] == 1


def test_no_fifth_rally_before_a_reshuffle() -> None:
    """Tactics Cards: 'Rally x4': with four seen, no other card can be a Rally."""
    state = rallies()
    assert unseen(state, RALLY) == 0
    with pytest.raises(IllegalAction, match="no Rally card can be in the deck"):
        play(state, "draw tactics=rally,1")
    state = play(
        state,
        "draw tactics=2",
        "attack from=asia target=europe defender=patrick",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=1,1,1 defender=2,2",
    )
    for _ in range(3):
        state = play(state, "play card=rally by=olga")
    with pytest.raises(IllegalAction, match="Olga cannot hold a Rally card: all 4 are seen"):
        play(state, "play card=rally by=olga")
    state = play(state, "retreat")
    with pytest.raises(IllegalAction, match="no Rally card can be in the deck"):
        play(state, "draw tactics=rally,1")  # three in the discard pile, one in Patrick's hand


def test_rallies_come_back_after_a_reshuffle() -> None:
    """More to Know: 'shuffle the discard pile to create a new deck': the Rally cards in it can
    be drawn again."""
    state = rallies()
    state = play(
        state,
        "draw tactics=2",
        "attack from=asia target=europe defender=patrick",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=1,1,1 defender=2,2",
        "play card=rally by=olga",
        "retreat",
    )
    with pytest.raises(IllegalAction, match="no Rally card can be in the deck"):
        play(state, "draw tactics=rally continents=asia")
    state = deck_into_hand(state, 0)  # the deck runs out; the discard pile holds one Rally
    state = play(state, "draw tactics=rally continents=asia")
    assert state.reshuffles == 1 and state.seats[1].known[RALLY] == 2


def test_continent_cards_are_always_named() -> None:
    """Game Setup 1: continent cards are placed 'faceup': each draw names its continents."""
    state = dealt(PLAYERS, "continents=asia,asia,asia", "continents=europe,europe,europe")
    with pytest.raises(IllegalAction, match="'atlantis' is not a continent") as error:
        play(state, "draw continents=atlantis tactics=1")
    assert "north-america" in error.value.allowed
    with pytest.raises(IllegalAction, match="'wizard' is not a tactics card"):
        play(start(), "deal player=olga continents=asia,asia,asia tactics=wizard,2")
