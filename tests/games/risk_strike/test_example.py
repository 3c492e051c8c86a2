"""The rulebook's example battle, and the demo game around it."""

from __future__ import annotations

from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.demo import DEMO_PLAYERS, demo_actions
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS

from .helpers import parse, play, start

ASIA, EUROPE = CONTINENTS.index("asia"), CONTINENTS.index("europe")
TROOP, RALLY = TACTICS.index("troop"), TACTICS.index("rally")
DECLARE = "attack from=asia target=europe defender=patrick"


def before_the_example():
    lines = demo_actions()
    start_at = lines.index(DECLARE)
    return play(start(DEMO_PLAYERS), *lines[:start_at]), lines[start_at:]


def test_rulebook_example_battle() -> None:
    """Attack Phase 1 Example: 'Olga ... is attacking from Asia. She selects Europe, one of
    Patrick's continents'; Phase 2 Example: 'Olga plays one troop card. Patrick responds by
    playing two troop cards.'; Phase 3 Example and Example Battle (Continued), to 'Patrick, the
    defender, must remove his last continent card and give it to Olga.'"""
    state, lines = before_the_example()
    assert state.seats[0].continents[ASIA] == 4 and state.seats[1].continents[EUROPE] == 3
    state = play(state, *lines[:3])
    battle = state.battle
    assert (battle.side_troops("attacker"), battle.side_troops("defender")) == (1, 2)

    # 'Olga rolls three red attack dice and Patrick rolls two black defend dice. Patrick ...
    # loses both rolls and must discard his two active troop cards.'
    state = play(state, lines[3], "resolve")
    assert state.battle.side_troops("defender") == 0 and state.battle.defend_cards == 3
    assert state.battle.last.winners == ("attacker", "attacker")

    # 'Olga ... loses both rolls and must remove one troop card and one attacking continent card.'
    state = play(state, lines[4], "resolve")
    assert state.battle.side_troops("attacker") == 0 and state.battle.attack_cards == 3
    assert state.lineup[ASIA] == 1

    # 'Olga ... must surrender one attacking continent card because the defender wins in the case
    # of a tie ... Patrick ... loses one roll and must ... give it to Olga.'
    state = play(state, lines[5], "resolve")
    assert state.battle.last.winners == ("defender", "attacker")
    assert state.lineup[ASIA] == 2 and state.seats[0].continents[EUROPE] == 3

    # 'Olga can only roll two attack dice since she only has two active cards. Patrick rolls two
    # defend dice. The results are not good for Olga ... (The rally card adds 2 to each die.)'
    state = play(state, lines[6])
    assert len(state.battle.roll.attacker) == 2 and len(state.battle.roll.defender) == 2
    state = play(state, lines[7], "resolve")
    assert state.battle.last.attacker_bonus == 2
    assert state.battle.last.winners == ("attacker", "defender")
    assert state.lineup[ASIA] == 3 and state.seats[1].continents[EUROPE] == 1

    # 'Olga and Patrick can each only roll one die. Olga wins the battle! ... Patrick ... must
    # remove his last continent card and give it to Olga.'
    state = play(state, lines[8])
    assert (len(state.battle.roll.attacker), len(state.battle.roll.defender)) == (1, 1)
    state = play(state, "resolve")
    assert state.battle is None and state.seats[1].continents[EUROPE] == 0
    assert state.seats[0].continents[ASIA] == 1 and state.discard[TROOP] == 3


def test_demo_game_folds_to_a_winner() -> None:
    """Winning: 'The first player to collect two domination coins wins!' — the demo game ends
    with Olga's South America and Europe coins, within 60 actions."""
    lines = demo_actions()
    assert len(lines) <= 60
    state = play(start(DEMO_PLAYERS), *lines)
    result = RULES.result(state)
    assert result is not None and result.winners == ("Olga",)
    assert "South America and Europe" in result.reason


def test_demo_names_the_actor_only_where_needed() -> None:
    """Each demo line gives by=NAME exactly when the action has no single allowed actor."""
    state = start(DEMO_PLAYERS)
    for line in demo_actions():
        action = line.split()[0]
        default = RULES.default_actor(state, action)
        assert ("by=" in line) == (default is None), line
        state = play(state, line)
        assert parse is not None
