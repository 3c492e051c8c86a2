"""Cards, decks and draws (issue 11): Expand's owed draw, hidden cards across reshuffles, and the
readings of the card rules offered as options."""

from __future__ import annotations

import pytest

from rules.kernel import IllegalAction
from rules.risk_strike import hidden
from rules.risk_strike.state import CONTINENTS, TACTICS

from .helpers import dealt, deck_into_hand, play

PLAYERS = ("Olga", "Patrick")
CARD = {name: index for index, name in enumerate(TACTICS)}
ASIA, EUROPE = CONTINENTS.index("asia"), CONTINENTS.index("europe")


def rolled(state, attack: str, dice: str):
    """``attack`` declared, nobody deploys, and the dice rolled (``roll`` fields)."""
    return play(state, f"attack {attack}", f"roll {dice}")


def last_stand(**options: str):
    """Olga (Asia x3, Expand in hand) attacks Patrick's only Europe card and rolls."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=expand,2",
        "continents=europe,africa,africa",
        **options,
    )
    state = play(state, "draw tactics=2")
    state = rolled(state, "from=asia target=europe defender=patrick", "attacker=6,5,4 defender=1")
    return play(state, "play card=expand")


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


# -- hidden cards across reshuffles ------------------------------------------------------------


def rallies_played():
    """All four Rallies were seen when Patrick's face-down cards were drawn (Olga was dealt three,
    Patrick one then two face down, then his extra card); then all four were played. Olga draws
    the rest of the deck face down. Olga's turn, the deck empty, the discard pile four Rallies."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=rally,rally,rally",
        "continents=europe,europe,europe tactics=rally,2",
    )
    state = play(state, "draw tactics=2")
    state = rolled(state, "from=asia target=europe defender=patrick", "attacker=1,1,1 defender=2,2")
    state = play(state, *["play card=rally by=olga"] * 3, "retreat", "draw continents=asia,asia")
    state = rolled(state, "from=asia target=asia defender=olga", "attacker=1,1 defender=6,6")
    state = play(state, "play card=rally", "retreat")
    state = deck_into_hand(state, 0)
    assert state.tactics_deck == 0 and state.discard[CARD["rally"]] == 4 == sum(state.discard)
    return state


def test_a_reshuffled_deck_holds_only_the_discarded_cards() -> None:
    """More to Know: 'If the tactics card deck ever runs out, shuffle the discard pile to create
    a new deck': a discard pile of four Rallies makes a deck of four Rallies, with no Troop."""
    state = rallies_played()
    with pytest.raises(IllegalAction, match="no Troop card can be in the deck") as error:
        play(state, "draw tactics=troop,1")
    assert error.value.allowed == ("rally",)
    state = play(state, "draw tactics=rally,rally")
    assert state.reshuffles == 1 and state.tactics_deck == 2


def test_face_down_cards_drawn_with_every_rally_seen_are_no_rally() -> None:
    """Tactics Cards, 'Rally x4'; design rule 4 (no fifth Rally): Patrick's face-down cards were
    all drawn while the four Rallies were accounted for, so none of them is a Rally, even once
    the four are reshuffled into a new deck. A card drawn from that deck may be one."""
    state = play(rallies_played(), "draw continents=asia,asia", "pass")  # Olga: 1 face down
    state = play(state, "draw continents=europe,europe")
    state = rolled(state, "from=europe target=asia defender=olga", "attacker=1,1,1 defender=2,2")
    with pytest.raises(IllegalAction, match="Patrick cannot hold a Rally card: none could be"):
        play(state, "play card=rally by=patrick")
    state = play(state, "retreat", "draw continents=asia,asia")
    state = rolled(state, "from=asia target=europe defender=patrick", "attacker=1,1,1 defender=2")
    state = play(state, "play card=rally by=olga")  # the card Olga drew from the Rallies
    with pytest.raises(IllegalAction, match="Olga cannot hold a Rally card: none could be"):
        play(state, "play card=rally by=olga")


def test_a_card_named_from_two_decks_keeps_both_pasts() -> None:
    """Design rule 4 (hidden information is first-class), worked on the worlds of
    :mod:`rules.risk_strike.hidden`: two kinds A and B, a deck of A, A, B. Olga and Patrick each
    draw one face down, Patrick draws the other A face up and plays it, the deck runs out and the
    discard pile (that A) is shuffled into a new deck; Olga draws it face down."""
    a, b, olga, patrick = 0, 1, 0, 1
    can = hidden.could_reveal
    worlds = hidden.first_world((2, 1), players=2)
    worlds = hidden.drew_face_down(hidden.drew_face_down(worlds, olga), patrick)
    worlds = hidden.reshuffled(hidden.drew_named(worlds, a), (1, 0))
    worlds = hidden.drew_face_down(worlds, olga)
    # Olga plays a B: it is her first card, so her second is the A and Patrick's card the other A
    b_played = hidden.revealed(worlds, olga, b)
    assert not can(b_played, patrick, b, 1)
    assert can(b_played, olga, a, 1) and not can(b_played, olga, b, 1)
    # Olga plays an A: from either deck, so Patrick may hold the B, or the A
    a_played = hidden.revealed(worlds, olga, a)
    assert len(a_played) == 2
    assert can(a_played, patrick, b, 1) and can(a_played, patrick, a, 1)
    assert not can(a_played, olga, a, 2) and can(worlds, olga, a, 2)
