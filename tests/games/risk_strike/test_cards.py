"""Cards, decks and draws (issue 11): Expand's owed draw, hidden cards across reshuffles, and the
readings of the card rules offered as options."""

from __future__ import annotations

import random

import pytest

from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES, hidden
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS, invariant_errors

from .helpers import dealt, deck_into_hand, play, started

PLAYERS = ("Olga", "Patrick")
CARD = {name: index for index, name in enumerate(TACTICS)}
ASIA, EUROPE = CONTINENTS.index("asia"), CONTINENTS.index("europe")


def rolled(state, attack: str, dice: str):
    """``attack`` declared, nobody deploys, and the dice rolled (``roll`` fields)."""
    return play(state, f"attack {attack}", "deploy troops=0", "deploy troops=0",
                f"roll {dice}")


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
    :mod:`tabletape.rules.risk_strike.hidden`: two kinds A and B, a deck of A, A, B. Olga and
    Patrick each
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


# -- readings offered as options -----------------------------------------------------------------


def bombarded_after_the_deck_ran_out(**options: str):
    """The deck runs out with Olga's Rally in the discard pile; then, in Patrick's battle, his
    Bombard goes there too. Olga's turn, her draw next."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=rally,2",
        "continents=europe,europe,europe tactics=bombard,2",
        **options,
    )
    state = play(state, "draw tactics=2")
    state = rolled(state, "from=asia target=europe defender=patrick", "attacker=1,1,1 defender=2,2")
    state = deck_into_hand(play(state, "play card=rally by=olga", "retreat"), 0)
    state = play(state, "draw continents=asia,asia")
    state = rolled(state, "from=asia target=asia defender=olga", "attacker=1,1 defender=2,2")
    return play(state, "play card=bombard side=attacker die=1", "retreat")


@pytest.mark.parametrize(
    ("reading", "deck", "reshuffles", "refused", "after"),
    [("at-draw", 0, 0, False, 1), ("when-empty", 1, 1, True, 2)],
)
def test_reshuffle_when_the_deck_runs_out_or_at_the_next_draw(
    reading: str, deck: int, reshuffles: int, refused: bool, after: int
) -> None:
    """More to Know: 'If the tactics card deck ever runs out, shuffle the discard pile to create
    a new deck.' Reading (option ``reshuffle``): ``at-draw`` (default) shuffles the pile when a
    draw finds the deck empty, so Patrick's Bombard discarded since joins the Rally in the new
    deck; ``when-empty`` shuffles it as soon as the last card is drawn: the Rally alone is the
    new deck, and the Bombard waits for the next reshuffle."""
    state = bombarded_after_the_deck_ran_out(reshuffle=reading)
    assert (state.tactics_deck, state.reshuffles) == (deck, reshuffles)
    if refused:
        with pytest.raises(IllegalAction, match="no Bombard card can be in the deck"):
            play(state, "draw tactics=bombard,1")
    state = play(state, "draw tactics=rally,bombard")
    assert state.reshuffles == after and state.seats[0].known[CARD["bombard"]] == 1


def expanded_in_battle(**options: str):
    """Olga attacks from her one Asia card, plays Expand and draws two Asia cards."""
    state = dealt(
        PLAYERS,
        "continents=asia,europe,europe tactics=expand,2",
        "continents=europe,europe,europe",
        **options,
    )
    state = play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick")
    return play(state, "play card=expand", "resolve", "draw continents=asia,asia")


@pytest.mark.parametrize(("reading", "dice"), [("inactive", "6"), ("active", "6,6,6")])
def test_cards_drawn_with_expand_in_a_battle(reading: str, dice: str) -> None:
    """Roll Dice: 'count your attacking continent cards and active troop cards'; Attack Phase 3:
    'A continent card claimed during battle cannot be used as an active card in that battle'.
    Reading (option ``expand-cards``): Asia cards drawn with Expand during the battle add no die
    (``inactive``, default, like claimed cards) or join the attacking cards (``active``)."""
    state = expanded_in_battle(**{"expand-cards": reading})
    assert state.seats[0].continents[ASIA] == 3
    state = play(state, "deploy troops=0", "deploy troops=0",
                 f"roll attacker={dice} defender=1,1")
    assert state.battle is not None and len(state.battle.roll.attacker) == len(dice.split(","))


@pytest.mark.parametrize(("reading", "asia", "lineup"), [("resolve", 2, 1), ("stop", 3, 0)])
def test_pairs_after_the_winning_pair(reading: str, asia: int, lineup: int) -> None:
    """Resolve Wins: 'If each of you rolled more than one die, compare the next-highest pair of
    dice and repeat the process'; After the Roll Has Been Resolved: 'If there are no defending
    continent cards remaining, the battle ends'. Artillery took Patrick's troop after the roll,
    so the first pair takes his last card. Reading (option ``after-win``): the second pair, which
    Patrick wins, still costs Olga an Asia card (``resolve``, default) or not (``stop``)."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=artillery,2",
        "continents=europe,africa,africa tactics=troop,2",
        **{"after-win": reading},
    )
    state = play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick",
                 "deploy troops=0", "deploy troops=1 by=patrick",
                 "roll attacker=6,1,1 defender=5,5",
                 "play card=artillery target=patrick by=olga", "resolve")
    assert state.battle is None and state.seats[0].continents[EUROPE] == 1
    assert state.seats[0].continents[ASIA] == asia and state.lineup[ASIA] == lineup


# -- a card in use is not in the deck ------------------------------------------------------------


def out_of_cards(card: str):
    """Olga's turn; she holds ``card`` and Patrick drew the whole tactics deck: it is empty and so
    is the discard pile."""
    state = dealt(
        PLAYERS,
        f"continents=asia,asia,asia tactics={card},2",
        "continents=europe,europe,europe",
    )
    state = deck_into_hand(state, 1)
    assert state.tactics_deck == 0 and sum(state.discard) == 0
    return state


def test_spy_does_not_draw_itself_back() -> None:
    """Tactics Cards, Spy: '... Then, draw 1 tactics card from the deck'; How to Use Tactics
    Cards: 'After you use a tactics card, place it in the discard pile': the Spy being used is
    not in the discard pile that a reshuffle makes the new deck, so with nothing else left
    there is nothing to draw."""
    state = play(out_of_cards("spy"), "play card=spy target=patrick", "resolve")
    assert state.seats[0].hand == 2 and state.reshuffles == 0
    assert state.discard[CARD["spy"]] == 1 and state.tactics_deck == 0


def test_expand_does_not_draw_itself_back() -> None:
    """Tactics Cards, Expand: 'Draw either 2 continent cards or 1 tactics card'; How to Use
    Tactics Cards: 'After you use a tactics card, place it in the discard pile': the Expand in
    use cannot be its own tactics card."""
    state = play(out_of_cards("expand"), "play card=expand", "resolve")
    with pytest.raises(IllegalAction, match=r"draws 2 continent cards \(no tactics card is left"):
        play(state, "draw tactics=1")
    state = play(state, "draw continents=asia,asia")
    assert state.seats[0].hand == 2 and state.discard[CARD["expand"]] == 1


OTHER_READINGS = {"reshuffle": "when-empty", "expand-cards": "active", "after-win": "stop"}


@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_bot_games_with_the_other_readings_end_legally(seed: int) -> None:
    """Winning: seeded bot games with every reading at its other value end with one winner, and
    after each event all 42 continent cards, 40 tactics cards and 6 coins are accounted for."""
    begun = started(("Olga", "Patrick", "Carol", "Dan", "Eve")[: 2 + seed % 4], seed=seed,
                    **OTHER_READINGS)
    state = RULES.start(begun)
    assert state.reshuffle_when_empty and state.expand_cards_active and state.stop_after_win
    for actor, event in bot_game(RULES, begun, random.Random(seed)):
        state = RULES.apply(state, actor, event)
        assert invariant_errors(state) == [], (seed, event)
    assert RULES.result(state) is not None
