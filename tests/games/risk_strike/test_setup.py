"""Game Setup and play order."""

from __future__ import annotations

import random

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.registry import find_game
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS, seat_of

from .helpers import dealt, parse, play, start

PLAYERS3 = ("Olga", "Patrick", "Carol")


def test_registered_under_its_names() -> None:
    """The game is found by name, alias and short prefix."""
    assert find_game("risk-strike") is RULES
    assert find_game("strike") is RULES
    assert find_game("rs") is RULES
    assert RULES.short == "rs" and (RULES.min_players, RULES.max_players) == (2, 5)


def test_components() -> None:
    """Contents: 'Continent Cards x42', 'Tactics Cards x40', 'Domination Coins x6'; Tactics
    Cards: 'Troop x18 ... Spy x2 ... Canceled Orders x3 ... Rally x4 ... Artillery x3 ...
    Sabotage x4 ... Expand x2 ... Bombard x4'."""
    state = start()
    assert sum(state.deck) == 42 and len(state.deck) == 6
    assert state.tactics_deck == 40
    assert dict(zip(TACTICS, state.tactics_total, strict=True)) == {
        "troop": 18,
        "spy": 2,
        "canceled-orders": 3,
        "rally": 4,
        "artillery": 3,
        "sabotage": 4,
        "expand": 2,
        "bombard": 4,
    }
    assert len(state.coins) == 6 and set(state.coins) == {-1}


def test_deal_three_continent_cards_and_three_tactics() -> None:
    """Game Setup 1: 'Each player draws three and places them faceup'; 2: 'Each player draws
    three and adds them to their hand'."""
    state = play(start(), "deal player=olga continents=asia,asia,europe tactics=troop,2")
    olga = state.seats[0]
    assert dict(zip(CONTINENTS, olga.continents, strict=True))["asia"] == 2
    assert olga.hand == 3 and olga.known[0] == 1 and olga.unknown == 2
    assert state.tactics_deck == 37 and sum(state.deck) == 39
    with pytest.raises(IllegalAction, match="dealt 3 continent cards, not 2"):
        play(state, "deal player=patrick continents=asia,europe")
    with pytest.raises(IllegalAction, match="dealt already"):
        play(state, "deal player=Olga continents=asia,asia,europe")


def test_deal_names_only_cards_in_the_deck() -> None:
    """Contents: each continent has its number of cards; Australia has 4 (default)."""
    state = play(start(), "deal player=olga continents=australia,australia,australia")
    with pytest.raises(IllegalAction, match="has 1 Australia card, not 2"):
        play(state, "deal player=patrick continents=australia,australia,asia")


def test_setup_facts_are_the_tables() -> None:
    """Game Setup: the deal and the roll-off are recorded by the table, not by a player."""
    state = start()
    actor, event = parse(state, "deal player=olga continents=asia,asia,europe")
    assert actor == "table"
    with pytest.raises(IllegalAction, match="the table records"):
        RULES.check(state, "Olga", event)


def test_roll_off_ties_roll_again_among_the_tied() -> None:
    """Game Setup 5: 'the highest roller goes first. (Roll again if there's a tie.)'"""
    state = start(PLAYERS3)
    for name in PLAYERS3:
        state = play(state, f"deal player={name} continents=asia,europe,africa")
    state = play(state, "roll-off dice=6,2,6")
    assert [state.name(s) for s in state.contenders] == ["Olga", "Carol"]
    with pytest.raises(IllegalAction, match="roll 2 dice"):
        play(state, "roll-off dice=5,4,3")
    state = play(state, "roll-off dice=3,5")
    assert state.name(state.current) == "Carol"


def test_roll_off_waits_for_the_deal() -> None:
    """Game Setup: cards are dealt (steps 1-2) before the roll-off (step 5)."""
    with pytest.raises(IllegalAction, match="no roll-off now"):
        play(start(), "roll-off dice=6,2")


def test_complete_rolls_the_roll_off() -> None:
    """Game Setup 5: 'Each player rolls a die': left empty, tabletape rolls one per player."""
    state = dealt(PLAYERS3[:2], "continents=asia,asia,asia", "continents=europe,europe,europe")
    state = start(PLAYERS3)
    for name in PLAYERS3:
        state = play(state, f"deal player={name} continents=asia,europe,africa")
    actor, event = parse(state, "roll-off")
    filled = RULES.complete(state, actor, event, random.Random(3))
    assert len(filled.dice) == 3 and all(1 <= d <= 6 for d in filled.dice)


def test_all_but_the_first_draw_another_tactics_card() -> None:
    """Game Setup 6: 'All players except the player going first draw an additional tactics
    card.'"""
    state = start(PLAYERS3)
    for name in PLAYERS3:
        state = play(state, f"deal player={name} continents=asia,europe,africa")
    state = play(state, "roll-off dice=2,6,1")
    hands = {seat.name: seat.hand for seat in state.seats}
    assert hands == {"Olga": 4, "Patrick": 3, "Carol": 4}
    assert state.tactics_deck == 40 - 9 - 2


def test_two_players_second_takes_a_fourth_continent_card() -> None:
    """Game Setup 6: 'In a two-player game, the player who does not go first also draws an
    additional continent card ... for a total of four continent cards.'"""
    state = start()
    state = play(
        state,
        "deal player=olga continents=asia,asia,asia",
        "deal player=patrick continents=europe,europe,europe",
        "roll-off dice=1,4",
    )
    assert state.phase == "fourth-card"
    with pytest.raises(IllegalAction, match="only Olga takes a fourth"):
        play(state, "deal player=patrick continents=africa")
    with pytest.raises(IllegalAction, match="dealt 1 continent card, not 2"):
        play(state, "deal player=olga continents=africa,asia")
    state = play(state, "deal player=olga continents=africa")
    assert sum(state.seats[0].continents) == 4 and state.seats[0].hand == 4
    assert state.name(state.current) == "Patrick" and state.phase == "draw"


def test_surrendered_lineup_starts_empty() -> None:
    """Game Setup 7: 'Designate a space in the center of play for surrendered continent
    cards.'"""
    state = dealt(("Olga", "Patrick"), "continents=asia,asia,asia", "continents=europe,europe,asia")
    assert sum(state.lineup) == 0


def test_play_order_first_player_then_to_the_left() -> None:
    """Ending Your Turn: 'Play moves to the player on your left' (seat order, wrapping)."""
    state = start(PLAYERS3)
    for name in PLAYERS3:
        state = play(state, f"deal player={name} continents=asia,europe,africa")
    state = play(state, "roll-off dice=1,6,2")
    seen = []
    for _ in range(4):
        seen.append(state.name(state.current))
        state = play(state, "draw tactics=2", "pass")
    assert seen == ["Patrick", "Carol", "Olga", "Patrick"]
    assert RULES.turn(state).round == 2


def test_player_names_match_case_insensitively() -> None:
    """Players are named as they sit; typing is case-insensitive and the seat name is stored."""
    state = start()
    actor, event = parse(state, "deal player=OLGA continents=Asia,SA,north_america")
    stored = RULES.complete(state, actor, event, random.Random(1))
    assert stored.player == "Olga"
    assert stored.continents == ("asia", "south-america", "north-america")
    assert seat_of(play(state, "deal player=OLGA continents=asia,asia,asia"), "olga") == 0
