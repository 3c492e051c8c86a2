"""On Your Turn: draw two cards, then attack or pass."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES

from .helpers import dealt, play

OLGA = "continents=asia,asia,europe tactics=troop,troop,1"
PATRICK = "continents=europe,europe,africa tactics=troop,troop,1"


def game():
    """Olga first; Olga Asia 2, Europe 1; Patrick Europe 2, Africa 2."""
    return dealt(("Olga", "Patrick"), OLGA, PATRICK)


@pytest.mark.parametrize(
    "draw", ["continents=asia,africa", "tactics=2", "continents=asia tactics=1", "tactics=troop,1"]
)
def test_draw_any_two_cards(draw: str) -> None:
    """1. Draw Any Two Cards: '2 continent cards • 2 tactics cards • 1 continent card + 1
    tactics card'."""
    state = game()
    before = sum(state.seats[0].continents) + state.seats[0].hand
    state = play(state, f"draw {draw}")
    assert sum(state.seats[0].continents) + state.seats[0].hand == before + 2
    assert state.phase == "act"


def test_draw_exactly_two() -> None:
    """1. Draw Any Two Cards: two, no more; they may be recorded one at a time."""
    state = game()
    with pytest.raises(IllegalAction, match="draws 2 more cards this turn, not 3"):
        play(state, "draw continents=asia tactics=2")
    state = play(state, "draw continents=asia")
    assert state.phase == "draw"
    with pytest.raises(IllegalAction, match="draws 1 more card this turn, not 2"):
        play(state, "draw tactics=2")
    with pytest.raises(IllegalAction, match="cannot attack now: Olga draws"):
        play(state, "attack from=asia target=europe defender=patrick")
    assert play(state, "draw tactics=1").phase == "act"


def test_draw_from_the_surrendered_lineup_only_what_is_there() -> None:
    """On Your Turn, Note: 'You can also draw from the surrendered continent cards.'"""
    state = game()
    with pytest.raises(IllegalAction, match="surrendered lineup has 0 Asia cards"):
        play(state, "draw lineup=asia tactics=1")
    state = play(
        state,
        "draw tactics=2",
        "attack from=europe target=europe defender=patrick",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=1 defender=6,5",
        "resolve",
    )
    assert state.lineup[2] == 1  # Olga's only Europe card, surrendered
    state = play(state, "draw tactics=2", "pass")
    state = play(state, "draw lineup=europe continents=asia")
    assert state.seats[0].continents[2] == 1 and sum(state.lineup) == 0


def test_pass_draws_one_tactics_card_and_ends_the_turn() -> None:
    """2. Choose to Attack or Pass: 'If you pass, draw one additional tactics card and end your
    turn.'"""
    state = play(game(), "draw continents=asia,asia")
    hand = state.seats[0].hand
    state = play(state, "pass drew=spy")
    assert state.seats[0].hand == hand + 1 and state.seats[0].known[1] == 1
    assert state.name(state.current) == "Patrick" and state.phase == "draw"


def test_attack_once_per_turn() -> None:
    """2. Choose to Attack or Pass: 'You may attack only once per turn.'"""
    state = play(
        game(),
        "draw tactics=2",
        "attack from=asia target=europe defender=patrick",
        "deploy troops=0",  # the attacker deploys none
        "deploy troops=0",  # nor does the defender
        "roll attacker=6,6 defender=1,1",
        "retreat",
    )
    assert state.name(state.current) == "Patrick"
    with pytest.raises(IllegalAction, match="it is Patrick's turn"):
        play(state, "pass by=olga")


def test_only_the_player_whose_turn_it_is_draws() -> None:
    """On Your Turn: the player whose turn it is draws; the others wait."""
    state = game()
    with pytest.raises(IllegalAction, match="it is Olga's turn: only Olga may draw"):
        play(state, "draw tactics=2 by=patrick")


def test_turn_info_in_table_words() -> None:
    """On Your Turn: the phases, as the table says them."""
    state = game()
    info = RULES.turn(state)
    assert (info.turn, info.round, info.phase, info.active) == (1, 1, "draw", ("Olga",))
    assert info.detail == "Olga draws (2 more)"
    state = play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick")
    info = RULES.turn(state)
    assert (info.phase, info.detail, info.active) == (
        "battle: deploy", "battle: Olga deploys first: deploy troops=N by=Olga, or troops=0 for "
        "none",
        ("Olga",))
    state = play(state, "deploy troops=1")
    assert RULES.turn(state).active == ("Patrick",)
    state = play(state, "deploy troops=1")
    assert RULES.turn(state).active == ("Olga",)  # two players: deployment is over
    assert RULES.turn(state).detail == "battle: Olga rolls"


def test_legal_actions_list_actors_and_choices() -> None:
    """2. Choose to Attack or Pass, and Attack Phase 1: what may be declared now."""
    state = play(game(), "draw tactics=2")
    specs = {spec.type: spec for spec in RULES.legal_actions(state)}
    assert set(specs) == {"attack", "pass", "play"}
    attack = {field.name: field.choices for field in specs["attack"].fields}
    assert attack == {
        "from": ("europe", "asia"),
        "target": ("europe", "africa"),
        "defender": ("Patrick",),
    }
    assert RULES.default_actor(state, "attack") == "Olga"
