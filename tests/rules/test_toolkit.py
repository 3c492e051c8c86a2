"""The shared rules toolkit (``rules/seats.py``, ``rules/steps.py``, ``rules/facts.py``,
``rules/dice.py``) and the three games using it alike (issue 13: one look-up of a typed player,
one step dispatcher, one data fact, refusals that name actions as people type them)."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tabletape.ledger.events import Noted, event_type
from tabletape.replay.recording import resolve_player
from tabletape.rules import board, dice, facts, seats
from tabletape.rules.actions import ActionSyntaxError
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.marvel_united import data as mu_data
from tabletape.rules.registry import find_game
from tabletape.rules.risk_deep_space import data as ds_data
from tabletape.rules.risk_deep_space.state import seat_called
from tabletape.rules.risk_strike import data as rs_data
from tabletape.rules.seats import NOBODY, AmbiguousName, find_seat, seat_named
from tests.cli.test_recording import Cli, fails
from tests.games.marvel_united import helpers as mu
from tests.games.risk_deep_space import helpers as ds
from tests.games.risk_strike import helpers as rs

PLAYERS = ("Olga", "Patrick", "Paula")


# -- seats -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "seat"), [
    ("Olga", 0), ("olga", 0), (" OLGA ", 0), ("pat", 1), ("Paul", 2), ("o", 0), ("x", None),
    ("", None), ("table", None),
])
def test_a_typed_name_is_exact_then_any_case_then_a_unique_prefix(typed: str,
                                                                  seat: int | None) -> None:
    assert find_seat(typed, PLAYERS) == seat


def test_the_table_is_a_seat_only_where_the_table_may_act() -> None:
    assert find_seat("Table", PLAYERS, table=True) == NOBODY
    assert find_seat("table", PLAYERS) is None


def test_an_exact_spelling_comes_before_any_case() -> None:
    """Players never differ only in case (options refuse it); where a hand-made log has them, the
    exact spelling names its own seat."""
    assert find_seat("ann", ("Ann", "ann")) == 1
    assert find_seat("ANN", ("Ann", "ann")) == 0


def test_an_ambiguous_prefix_is_refused_naming_the_candidates() -> None:
    with pytest.raises(AmbiguousName) as refused:
        find_seat("pa", PLAYERS)
    assert refused.value.allowed == ("Patrick", "Paula")
    assert "type more" in refused.value.message()


def test_a_players_own_name_wins_over_a_colour_or_a_hero() -> None:
    """Seat 1 plays red; a player called Red sits at seat 2."""
    colours = ("blue", "red", "green")
    assert find_seat("red", ("Olga", "Patrick", "Red"), aliases=[colours]) == 2
    assert find_seat("red", PLAYERS, aliases=[colours]) == 1
    assert find_seat("p", ("Olga", "Pam"), aliases=[("p", "q")]) == 0  # an alias before a prefix


def test_a_miss_is_refused_with_the_players_and_did_you_mean() -> None:
    with pytest.raises(IllegalAction) as refused:
        seat_named("Pula", PLAYERS, table=True)
    assert refused.value.allowed == (*PLAYERS, "table")
    assert "did you mean 'Paula'?" in refused.value.message()
    assert refused.value.suggesting(["Pula"]).message().count("did you mean") == 1


def test_by_name_takes_a_prefix_and_refuses_an_ambiguous_one_as_input_not_understood() -> None:
    assert resolve_player("pau", (*PLAYERS, "table")) == "Paula"
    assert resolve_player("TAB", (*PLAYERS, "table")) == "table"
    with pytest.raises(ActionSyntaxError, match="'pa' begins more than one player's name"):
        resolve_player("pa", (*PLAYERS, "table"))
    with pytest.raises(ActionSyntaxError, match="unknown player 'xo'"):
        resolve_player("xo", (*PLAYERS, "table"))


def test_at_the_command_line_a_prefix_is_read_and_an_ambiguous_one_changes_nothing(
        tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    created = cli.json("new", "risk-strike", "--player", "Ann", "--player", "Ben", "--player",
                       "Bea")
    assert isinstance(created, dict)
    game = created["game"]
    cli.ok("record", game, "deal", "player=an", "continents=asia,asia,europe")
    output = fails(cli, 2, "record", game, "deal", "player=b", "continents=asia", game=game)
    assert "'b' begins more than one player's name" in output and "Allowed: Ben, Bea" in output
    output = fails(cli, 2, "record", game, "deal", "player=ben", "continents=asia", "by=b",
                   game=game)
    assert "'b' begins more than one player's name" in output
    assert b'"player":"Ann"' in cli.log_bytes(game)  # stored as the player's own spelling


def test_nobody_is_defined_once() -> None:
    from tabletape.rules.marvel_united import state as mu_state
    from tabletape.rules.risk_strike import state as rs_state

    assert board.NOBODY is seats.NOBODY is mu_state.NOBODY is rs_state.NOBODY == -1


# -- the games read typed players alike ------------------------------------------------------------


def test_risk_strike_reads_a_defender_by_a_unique_prefix() -> None:
    state = rs.dealt(("Olga", "Patrick"), "continents=asia,asia,europe",
                     "continents=europe,europe,africa")
    state = rs.play(state, "draw continents=asia tactics=1",
                    "attack from=asia target=europe defender=pat")
    assert state.battle is not None and state.battle.defender == 1


def test_risk_strike_refuses_an_ambiguous_defender_naming_both() -> None:
    state = rs.dealt(("Olga", "Patrick", "Paula"), "continents=asia,asia,europe",
                     "continents=europe,europe,africa", "continents=africa,africa,asia")
    state = rs.play(state, "draw continents=asia tactics=1")
    with pytest.raises(IllegalAction, match="begins more than one") as refused:
        rs.play(state, "attack from=asia target=europe defender=pa")
    assert refused.value.allowed == ("Patrick", "Paula")


def test_risk_strike_stores_the_full_name_of_a_prefix() -> None:
    state = rs.start(("Olga", "Patrick"))
    actor, event = rs.parse(state, "deal player=pat continents=asia,asia,europe")
    completed = find_game("risk-strike").complete(state, actor, event, random.Random(1))
    assert completed.player == "Patrick"


def test_marvel_united_reads_a_hero_by_a_unique_prefix_of_the_players_name() -> None:
    state = mu.play(mu.start(), [mu.SETUP, "deal player=pat cards=m,ma,hh"])
    assert sum(state.heroes[1].hand) == 3 and sum(state.heroes[0].hand) == 0


def test_deep_space_reads_a_player_by_name_before_colour() -> None:
    state = ds.start(("Olga", "Red"))  # Olga plays red, Red plays yellow
    assert state.seats[0].colour == "red"
    assert seat_called(state, "red") == 1
    assert seat_called(state, "yellow") == 1
    assert seat_called(state, "ol") == 0


# -- one step dispatcher; actions named as people type them ----------------------------------------

STARTS = {"risk-strike": rs.start, "marvel-united": mu.start, "risk-deep-space": ds.start}


@pytest.mark.parametrize("kind", STARTS)
def test_an_action_of_no_game_is_refused_as_people_type_it(kind: str) -> None:
    rules = find_game(kind)
    with pytest.raises(IllegalAction) as refused:
        rules.step(STARTS[kind](), "table", Noted(text="hi"))
    assert f"'note' is not a {rules.title} action" in refused.value.message()
    assert "Noted" not in refused.value.message()


@pytest.mark.parametrize("kind", STARTS)
def test_narration_names_an_unknown_event_by_its_action(kind: str) -> None:
    from importlib import import_module

    plugin = import_module(f"tabletape.replay.games.{kind.replace('-', '_')}")
    event = Noted(text="hi")
    state = STARTS[kind]()
    args = (state, state) if kind == "risk-strike" else (state,)
    sentence = plugin.recorded(*args, "Olga", event)
    assert sentence == f"Olga: {event_type(event)}"


def test_the_table_records_the_deep_space_deal_in_the_shared_words() -> None:
    with pytest.raises(IllegalAction, match="the table records the deal, not Olga"):
        ds.play(ds.start(), "deal player=olga cards=energy-boost,air-leak by=olga")


def test_deep_space_names_whose_turn_it_is_in_the_shared_words() -> None:
    with pytest.raises(IllegalAction, match="it is Olga's turn: only Olga may draw"):
        ds.play(ds.ready(), "draw cards=mail-from-mom by=patrick")


# -- data facts and dice ---------------------------------------------------------------------------


def shipped_facts(module: ModuleType) -> list[facts.Fact]:
    """Every Fact a data module holds, directly or in a dict."""
    found: list[Any] = []
    for value in vars(module).values():
        found.extend(value.values() if isinstance(value, dict) else [value])
    return [value for value in found if isinstance(value, facts.Fact)]


@pytest.mark.parametrize("module", [rs_data, mu_data, ds_data])
def test_every_game_ships_its_data_as_shared_facts_with_a_known_mark(module: ModuleType) -> None:
    shipped = shipped_facts(module)
    assert shipped and module.Fact is facts.Fact
    assert {fact.mark for fact in shipped} <= set(facts.MARKS)


def test_data_values_and_marks_are_as_before() -> None:
    assert rs_data.CONTINENT_CARDS == (42, "R",
                                       "Risk Strike rulebook, Contents: 'Continent Cards x42'")
    assert ds_data.FORCE_FIELD_COST[:2] == (1, "I") and ds_data.MOVEMENTS.mark == "R"


def test_dice_sides_live_in_one_place() -> None:
    assert dice.D6 == 6 and dice.BATTLE_SIDES == ("attacker", "defender")
    assert all(1 <= face <= dice.D6 for face in dice.roll(random.Random(2), 50))
