"""How to Use Tactics Cards, and each card in its timing window."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS

from .helpers import dealt, deck_into_hand, play, start

PLAYERS = ("Olga", "Patrick", "Carol")
HANDS = (
    "continents=asia,asia,asia tactics=spy,expand,rally",
    "continents=europe,europe,europe tactics=canceled-orders,bombard,sabotage",
    "continents=africa,africa,asia tactics=artillery,canceled-orders,troop",
)
CARD = {name: index for index, name in enumerate(TACTICS)}
ASIA, EUROPE = CONTINENTS.index("asia"), CONTINENTS.index("europe")


def game():
    """Olga's turn: she holds Spy, Expand, Rally; Patrick Canceled Orders, Bombard, Sabotage and
    one card face down; Carol Artillery, Canceled Orders, Troop and one face down."""
    return dealt(PLAYERS, *HANDS)


def battle(*lines: str):
    state = play(
        game(), "draw tactics=troop,troop", "attack from=asia target=europe defender=patrick"
    )
    return play(state, *lines)


NO_TROOPS = ("deploy troops=0 by=olga", "deploy troops=0 by=patrick")
"""Attack Phase 2 with no troops deployed by the attacker and the defender."""


def fought(*lines: str):
    """:func:`battle` past the attacker's and the defender's deploying steps, with no troops."""
    return battle(*NO_TROOPS, *lines)


def test_spy_on_your_turn_then_draw_one() -> None:
    """Tactics Cards, Spy: 'Play anytime on your turn. Look at any one player's cards. Then,
    draw 1 tactics card from the deck.'"""
    state = game()
    with pytest.raises(IllegalAction, match="Spy looks at another player's cards"):
        play(state, "play card=spy")
    state = play(state, "play card=spy target=carol")
    assert state.pending is not None and state.seats[0].hand == 2
    state = play(state, "resolve")
    assert state.seats[0].hand == 3 and state.seats[0].unknown == 1
    assert state.discard[CARD["spy"]] == 1


def test_spy_and_expand_only_on_your_turn() -> None:
    """Tactics Cards: Spy and Expand are played 'anytime on your turn'."""
    state = play(dealt(PLAYERS, HANDS[1], HANDS[0], HANDS[2]), "draw tactics=2")
    with pytest.raises(IllegalAction, match="Patrick plays Expand on their own turn: it is Olga's"):
        play(state, "play card=expand by=patrick")


def test_canceled_orders_cancels_the_card_just_played() -> None:
    """Tactics Cards, Canceled Orders: 'Play immediately after a player plays a tactics card to
    cancel that card.'"""
    state = play(game(), "play card=expand", "play card=canceled-orders by=patrick")
    assert state.pending.canceled
    state = play(state, "draw tactics=2")
    assert state.expand_owed == 0 and state.drawn == 2
    assert state.discard[CARD["expand"]] == 1 and state.discard[CARD["canceled-orders"]] == 1


def test_canceled_orders_can_be_canceled() -> None:
    """Tactics Cards, Canceled Orders (our reading): it is a tactics card and not a Troop card, so
    another Canceled Orders cancels it, and the first card stands."""
    state = play(
        game(),
        "play card=expand",
        "play card=canceled-orders by=patrick",
        "play card=canceled-orders by=carol",
    )
    assert not state.pending.canceled
    state = play(state, "resolve")
    assert state.expand_owed == 1


def test_canceled_orders_needs_a_card_just_played_and_never_a_troop() -> None:
    """Tactics Cards, Canceled Orders: 'You cannot cancel a troop card.'"""
    state = game()
    with pytest.raises(IllegalAction, match="answers a tactics card just played"):
        play(state, "play card=canceled-orders by=patrick")
    state = battle("deploy troops=1 by=olga")
    with pytest.raises(IllegalAction, match="answers a tactics card just played"):
        play(state, "play card=canceled-orders by=patrick")
    state = play(game(), "play card=spy target=patrick", "draw tactics=2")
    with pytest.raises(IllegalAction, match="answers a tactics card just played"):
        play(state, "play card=canceled-orders by=patrick")


def test_expand_draws_two_continent_cards_or_one_tactics_card() -> None:
    """Tactics Cards, Expand: 'Play anytime on your turn. Draw either 2 continent cards or 1
    tactics card.'"""
    state = play(game(), "play card=expand")
    with pytest.raises(IllegalAction, match="or 1 tactics card"):
        play(state, "draw continents=asia tactics=1")
    with pytest.raises(IllegalAction, match="draws for Expand first"):
        play(state, "pass")
    one = play(state, "draw tactics=1")
    assert one.expand_owed == 0 and one.drawn == 0 and one.seats[0].hand == 3
    two = play(state, "draw continents=europe,europe")
    assert two.seats[0].continents[EUROPE] == 2 and two.phase == "draw"


def test_expand_draws_from_the_deck_not_the_lineup() -> None:
    """More to Know: 'When you draw cards at the start of your turn, you may draw continent cards
    from either the continent card deck or from the surrendered continent cards' (our reading:
    only then)."""
    state = fought(
        "roll attacker=1,1,1 defender=6,6",
        "retreat",
        "draw tactics=2",
        "pass",
        "draw tactics=2",
        "pass",
    )
    assert state.lineup[ASIA] == 2 and state.name(state.current) == "Olga"
    state = play(state, "play card=expand")
    with pytest.raises(IllegalAction, match="not from the surrendered lineup"):
        play(state, "draw lineup=asia,asia")


def test_rally_adds_two_to_each_attack_die_after_the_roll() -> None:
    """Tactics Cards, Rally: 'Play on your turn after you and your opponent roll dice. Add 2 to
    each die you rolled.'"""
    state = fought()
    with pytest.raises(IllegalAction, match="after the dice are rolled"):
        play(state, "play card=rally by=olga")
    state = play(state, "roll attacker=4,3,1 defender=5,4", "play card=rally by=olga", "resolve")
    assert state.battle.last.winners == ("attacker", "attacker")
    assert state.battle.last.attacker_bonus == 2


def test_rally_only_for_the_player_whose_turn_it_is() -> None:
    """Tactics Cards, Rally: 'Play on your turn'."""
    state = dealt(PLAYERS, HANDS[1], "continents=europe,europe,europe tactics=rally,2", HANDS[2])
    state = play(
        state,
        "draw tactics=2",
        "attack from=europe target=europe defender=patrick",
        "deploy troops=0",
        "deploy troops=0",
        "roll attacker=6,6,6 defender=1,1",
    )
    with pytest.raises(IllegalAction, match="Patrick plays Rally on their own turn"):
        play(state, "play card=rally by=patrick")


def test_bombard_turns_one_die_to_six_and_the_pairs_reorder() -> None:
    """Tactics Cards, Bombard: 'change any one die to a 6. If necessary, reorder the dice lineup
    in order of the highest pairs.'"""
    state = fought("roll attacker=5,4,1 defender=3,2")
    with pytest.raises(IllegalAction, match="no defender die shows 4") as error:
        play(state, "play card=bombard side=defender die=4 by=patrick")
    assert error.value.allowed == ("2", "3")
    state = play(state, "play card=bombard side=defender die=2 by=patrick", "resolve")
    assert state.battle.last.defender == (3, 6)
    assert state.battle.last.winners == ("defender", "attacker")


def test_cards_resolve_in_the_order_played() -> None:
    """How to Use Tactics Cards: 'if player 1 plays a tactics card, and then player 2 plays a
    tactics card, the effects of player 1's tactics card will activate first.'"""
    state = fought("roll attacker=4,3,1 defender=6,5", "play card=rally by=olga")
    state = play(state, "play card=bombard side=defender die=5 by=patrick")
    assert state.battle.roll.attacker_bonus == 2  # Rally took effect when Bombard was played
    state = play(state, "resolve")
    assert state.battle.last.defender == (6, 6)
    assert state.battle.last.winners == ("defender", "defender")  # 6 v 6, 5 v 6


def test_rally_then_bombard_makes_the_die_a_six() -> None:
    """How to Use Tactics Cards: 'Tactics cards will always be resolved in order'. Rally: 'Add 2
    to each die you rolled.' Bombard: 'change any one die to a 6': after a Rally the die shows 6,
    not 8, and Bombard names a die by the face it shows now."""
    state = fought("roll attacker=4,3,1 defender=6,5", "play card=rally by=olga")
    with pytest.raises(IllegalAction, match="no attacker die shows 1") as error:
        play(state, "play card=bombard side=attacker die=1 by=patrick")
    assert error.value.allowed == ("3", "5", "6")  # 4, 3, 1 plus 2 each
    state = play(state, "play card=bombard side=attacker die=3 by=patrick", "resolve")
    assert shown(state.battle.last.attacker, state.battle.last.attacker_bonus) == [6, 6, 5]
    assert state.battle.last.winners == ("defender", "attacker")  # 6 v 6, 6 v 5


def test_bombard_then_rally_adds_two_to_the_six() -> None:
    """How to Use Tactics Cards: cards resolve in the order played: Bombard's 6, then Rally's +2
    on each die Olga rolled."""
    state = fought("roll attacker=4,3,1 defender=6,6",
                   "play card=bombard side=attacker die=1 by=patrick",
                   "play card=rally by=olga", "resolve")
    assert shown(state.battle.last.attacker, state.battle.last.attacker_bonus) == [8, 6, 5]
    assert state.battle.last.winners == ("attacker", "defender")  # 8 v 6, 6 v 6


def shown(faces: tuple[int, ...], bonus: int) -> list[int]:
    """The attack dice as they show, highest first."""
    return sorted((face + bonus for face in faces), reverse=True)


def test_artillery_after_deployment_discards_up_to_two_troops() -> None:
    """Tactics Cards, Artillery: 'Play anytime after troops are deployed. Force any one player
    to discard up to 2 active troop cards.'"""
    state = battle("deploy troops=2 by=olga", "deploy troops=0 by=patrick", "resolve")
    with pytest.raises(IllegalAction, match="targets a player with active troops") as error:
        play(state, "play card=artillery target=patrick by=carol")
    assert error.value.allowed == ("Olga",)
    state = play(state, "play card=artillery target=olga by=carol", "resolve")
    assert state.battle.troops == () and state.discard[CARD["troop"]] == 2


def test_artillery_and_sabotage_wait_for_the_deployment() -> None:
    """Tactics Cards, Artillery: 'Play anytime after troops are deployed'; Sabotage: 'Play
    immediately after troops are deployed'. Attack Phase 2: the attacker, the defender, then
    other players deploy: neither card is played, nor ends deployment, before the attacker and
    the defender have answered ('After the attacker and defender have deployed troop cards')."""
    steps = (
        battle(),
        battle("deploy troops=2 by=olga"),
    )
    for state in steps:
        for line in ("play card=artillery target=olga by=carol", "play card=sabotage by=patrick"):
            with pytest.raises(IllegalAction, match="is played after troops are deployed"):
                play(state, line)
    state = play(steps[1], "deploy troops=1 by=patrick", "deploy troops=1 side=defender by=carol")
    assert state.battle.side_troops("defender") == 2
    state = play(state, "resolve", "play card=sabotage by=patrick")
    assert state.pending is not None  # troops are deployed: Sabotage waits for an answer


def test_artillery_may_name_a_helper() -> None:
    """Tactics Cards, Artillery (our reading): 'any one player' is whoever played the troops, a
    helper included."""
    state = dealt(
        PLAYERS,
        "continents=asia,asia,asia tactics=spy,artillery,rally",
        HANDS[1],
        "continents=africa,africa,asia tactics=troop,troop,canceled-orders",
    )
    state = play(
        state,
        "draw tactics=2",
        "attack from=asia target=europe defender=patrick",
        *NO_TROOPS,
        "deploy troops=2 side=defender by=carol",
        "roll attacker=6,6,6 defender=1,1",
        "play card=artillery target=carol by=olga",
        "resolve",
    )
    assert state.battle.troops == () and state.discard[CARD["troop"]] == 2
    assert state.battle.defend_cards == 1  # with Carol's troops gone, both pairs cost cards


def test_artillery_up_to_two() -> None:
    """Tactics Cards, Artillery: 'discard up to 2 active troop cards' (fewer if fewer are
    there; the latest deployed go first)."""
    state = battle(
        "deploy troops=1 by=olga",
        "deploy troops=0 by=patrick",
        "deploy troops=1 side=attacker by=carol",
        "resolve",
        "play card=artillery target=olga by=carol",
        "resolve",
    )
    assert [state.name(t.owner) for t in state.battle.troops] == ["Carol"]


def test_artillery_lets_the_table_choose_how_many() -> None:
    """Tactics Cards, Artillery: 'Force any one player to discard up to 2 active troop cards'
    (``troops=1`` or ``troops=2``; left out: as many as they have, up to 2)."""
    state = battle("deploy troops=2 by=olga", "deploy troops=0 by=patrick", "resolve")
    one = play(state, "play card=artillery target=olga troops=1 by=carol", "resolve")
    assert len(one.battle.troops) == 1 and one.discard[CARD["troop"]] == 1
    with pytest.raises(IllegalAction, match="discard up to 2 active troop cards, not 3"):
        play(state, "play card=artillery target=olga troops=3 by=carol")
    alone = battle("deploy troops=1 by=olga", "deploy troops=0 by=patrick", "resolve")
    with pytest.raises(IllegalAction, match="Olga has 1 active troop, not 2"):
        play(alone, "play card=artillery target=olga troops=2 by=carol")


def test_sabotage_ends_the_battle_and_returns_the_troops() -> None:
    """Tactics Cards, Sabotage: 'Play immediately after troops are deployed to end the battle.
    Any active troop cards return to the players' hands, and the attacker's turn ends.'"""
    state = battle(
        "deploy troops=2 by=olga",
        "deploy troops=0 by=patrick",
        "deploy troops=1 side=defender by=carol",
        "resolve",
        "play card=sabotage by=patrick",
        "resolve",
    )
    assert state.battle is None and state.name(state.current) == "Patrick"
    assert state.seats[0].known[CARD["troop"]] == 2 and state.seats[2].known[CARD["troop"]] == 1
    assert state.seats[0].continents[ASIA] == 3 and state.seats[1].continents[EUROPE] == 3


def test_sabotage_only_before_the_first_roll() -> None:
    """Tactics Cards, Sabotage: 'immediately after troops are deployed'."""
    state = fought("roll attacker=1,1,1 defender=6,6", "resolve")
    with pytest.raises(IllegalAction, match="before the first roll"):
        play(state, "play card=sabotage by=patrick")


def test_sabotage_can_be_canceled() -> None:
    """Tactics Cards, Canceled Orders: Sabotage is a tactics card and can be canceled."""
    state = fought(
        "resolve",
        "play card=sabotage by=patrick",
        "play card=canceled-orders by=carol",
        "roll attacker=6,6,6 defender=1,1",
    )
    assert state.battle is not None and state.battle.rolls == 1


def test_played_cards_go_to_the_discard_pile_and_it_is_reshuffled() -> None:
    """How to Use Tactics Cards: 'After you use a tactics card, place it in the discard pile.'
    More to Know: 'If the tactics card deck ever runs out, shuffle the discard pile to create a
    new deck.'"""
    state = deck_into_hand(game(), 2)
    state = play(state, "play card=spy target=patrick")
    assert state.discard[CARD["spy"]] == 1 and state.tactics_deck == 0
    state = play(state, "resolve")  # Spy's draw: the deck is empty; the Spy, in use, is not in it
    assert state.reshuffles == 0 and state.seats[0].hand == 2 and sum(state.discard) == 1
    state = play(state, "draw continents=asia,asia", "pass drew=spy")  # the used Spy, reshuffled
    assert state.reshuffles == 1 and state.seats[0].hand == 3 and sum(state.discard) == 0
    state = play(state, "draw continents=europe,europe")
    with pytest.raises(IllegalAction, match="no tactics cards are left"):
        play(state, "pass drew=spy")
    assert play(state, "pass").seats[1].hand == 4  # nothing left to draw


def test_no_tactics_in_setup() -> None:
    """How to Use Tactics Cards: 'Each card tells you when you can use it': on a turn, in a
    battle; never during Game Setup."""
    state = play(start(), "deal player=olga continents=asia,asia,asia tactics=spy,2")
    with pytest.raises(IllegalAction, match="once the game has begun"):
        play(state, "play card=spy target=patrick by=olga")
    assert RULES.legal_actions(state)[0].type == "deal"
