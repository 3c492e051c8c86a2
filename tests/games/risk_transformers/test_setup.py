"""Setup of Risk: Transformers (rulebook, Setup 2-5; spec S2-S6 and reading A1), folded by rules.

Each test quotes the passage it checks. The counts per player are derived by playing the
placement out, never written into the rules.
"""

from __future__ import annotations

import re

import pytest

from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.events import Placed
from tabletape.rules.risk_transformers.moves import allowed_places
from tabletape.rules.risk_transformers.options import readings
from tabletape.rules.risk_transformers.state import (
    empty_zones,
    invariant_errors,
    on_board,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME, fill, place_next, started


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_leader_stands_with_one_robot_on_his_start_zone(players: int) -> None:
    """Setup 4: "Place your leader and one operational robot on the leader's start zone (as shown
    on his leader card). Stand your leader up to show his robot form." """
    state = started(players)
    for seat, me in enumerate(state.seats):
        zone = state.at(state.board.start_zone(me.leader))
        assert (zone.owner, zone.robots, zone.vehicles, zone.leader) == (seat, 1, 0, True)
        assert me.form == "robot" and not me.scrapped
    assert invariant_errors(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thirty_operational_robots_the_rest_on_the_scrapheap(players: int) -> None:
    """Setup 3: "Count out 30 robots. These are operational robots and can be placed at the
    start of the game. The other robots and vehicles are out of action on your scrapheap." """
    state = started(players)
    army = data.ARMY.value
    for seat, me in enumerate(state.seats):
        robots, vehicles, _ = on_board(state, seat)
        assert robots + me.operational == data.OPERATIONAL.value == 30
        assert me.scrap_robots == army["robots"] - 30
        assert vehicles + me.scrap_vehicles == army["vehicles"]


@pytest.mark.parametrize(("players", "empty", "each"), [
    (2, 40, [20, 20]),
    (3, 39, [13, 13, 13]),
    (4, 38, [10, 10, 9, 9]),
])
def test_one_robot_at_a_time_until_all_42_zones_are_filled(players: int, empty: int,
                                                           each: list[int]) -> None:
    """Setup 5: "Starting with the youngest player, take turns placing a robot on an empty zone
    until all zones contain a robot. There are 42 zones." (Spec S5: 40 empty zones with 2
    players, 20 each; 39 with 3, 13 each; 38 with 4, 10-10-9-9.)"""
    state = started(players)
    assert len(state.board.zones) == data.ZONES.value == 42
    assert len(empty_zones(state)) == empty
    assert state.current == 0  # the youngest player: the first seat
    filled, placed = fill(state)
    assert empty_zones(filled) == []
    assert [placed[seat] for seat in range(players)] == each
    assert [zones_held(filled, seat) for seat in range(players)] == [n + 1 for n in each]
    assert sum(zones_held(filled, seat) for seat in range(players)) == 42


def test_players_take_turns_youngest_first() -> None:
    """Setup 5: "Starting with the youngest player, take turns placing a robot"."""
    state = started(3)
    order = []
    for _ in range(6):
        state, seat = place_next(state)
        order.append(seat)
    assert order == [0, 1, 2, 0, 1, 2]


def test_a_robot_goes_only_on_an_empty_zone() -> None:
    """Setup 5: "take turns placing a robot on an empty zone"."""
    state = started(2)
    taken = state.board.start_zone(state.seats[1].leader)
    with pytest.raises(IllegalAction, match="taken: place on an empty zone") as refused:
        GAME.check(state, "Olga", Placed(zone=taken))
    assert taken not in refused.value.allowed
    assert len(refused.value.allowed) == 40


def test_one_robot_at_a_time_not_two() -> None:
    """Setup 5: "take turns placing a robot" (one at a time, spec S5)."""
    state = started(2)
    zone = state.places[empty_zones(state)[0]]
    with pytest.raises(IllegalAction, match="one at a time, not 2"):
        GAME.check(state, "Olga", Placed(zone=zone, count=2))


def test_only_the_player_whose_turn_it_is_places() -> None:
    """Setup 5: "take turns placing a robot"."""
    state = started(2)
    zone = state.places[empty_zones(state)[0]]
    with pytest.raises(IllegalAction, match="it is Olga's turn"):
        GAME.check(state, "Patrick", Placed(zone=zone))


def test_a_zone_is_typed_by_id_or_name() -> None:
    """Zones are named as the board names them: ``place zone="Hexima State"``."""
    state = started(2)
    zone = state.places[empty_zones(state)[0]]
    after = GAME.apply(state, "Olga", Placed(zone=state.board.board.space(zone).title.upper()))
    assert after.at(zone).owner == 0


def test_a_misspelt_zone_is_named_with_a_suggestion() -> None:
    """A zone typed wrong: one message, "did you mean", the zones allowed."""
    state = started(2)
    zone = state.places[empty_zones(state)[0]]
    with pytest.raises(IllegalAction, match=f"did you mean '{zone}'"):
        GAME.check(state, "Olga", Placed(zone=zone[:-1] + "x" + zone[-1]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_leftover_robots_are_placed_on_own_zones_by_default(players: int) -> None:
    """Reading A1 (default ``leftover=place``): "keep placing one at a time on your own zones
    until all 30 are down"; then "The youngest player takes the first turn"."""
    state, _ = fill(started(players))
    assert state.phase == "leftover"
    while state.phase == "leftover":
        before = state
        state, seat = place_next(state)
        assert state.at(before.places[allowed_places(before, seat)[0]]).owner == seat
    assert all(me.operational == 0 for me in state.seats[1:])
    assert state.seats[0].operational == sum(r.robots for r in state.received)
    assert [on_board(state, seat)[0] for seat in range(players)] == [30] * players
    assert (state.phase, state.step, state.day, state.current) == ("place", "B", 1, 0)


def test_a_leftover_robot_goes_only_on_your_own_zone() -> None:
    """Reading A1: the leftovers go "on your own zones"."""
    state, _ = fill(started(2))
    theirs = next(state.places[p] for p, zone in enumerate(state.zones) if zone.owner == 1)
    with pytest.raises(IllegalAction, match="a zone you control"):
        GAME.check(state, state.name(state.current), Placed(zone=theirs))


@pytest.mark.parametrize(("players", "kept"), [(2, [9, 9]), (3, [16, 16, 16]),
                                               (4, [19, 19, 20, 20])])
def test_leftover_robots_kept_for_the_first_phase_1(players: int, kept: list[int]) -> None:
    """Reading A1, ``leftover=keep``: the leftovers stay in the operational pile "for the first
    Phase 1 step E"; play begins as soon as "all zones contain a robot"."""
    state, _ = fill(started(players, leftover="keep"))
    step_a = state.received[0].robots
    assert [me.operational for me in state.seats] == [kept[0] + step_a, *kept[1:]]
    assert (state.phase, state.day, state.current) == ("place", 1, 0)


def test_no_robot_is_placed_on_an_empty_zone_once_play_begins() -> None:
    """Setup 5 is over once every zone holds a robot (``leftover=keep``): placing is then
    Phase 1 step E, only on the player's own zones."""
    state, _ = fill(started(2, leftover="keep"))
    theirs = next(state.places[p] for p, zone in enumerate(state.zones) if zone.owner == 1)
    with pytest.raises(IllegalAction, match=f"Olga does not control {theirs}"):
        GAME.check(state, "Olga", Placed(zone=theirs))


@pytest.mark.parametrize(("players", "leaders"), [
    (2, "megatron,bumblebee"),
    (3, "barricade,bumblebee,megatron"),
    (4, "megatron,optimus-prime,barricade,bumblebee"),
])
def test_leaders_fitting_setup_2(players: int, leaders: str) -> None:
    """Setup 2: "2 PLAYERS (HEAD-TO-HEAD): one player must choose an AUTOBOT leader and the other
    a DECEPTICON. 3 PLAYERS (FREE-FOR-ALL): one player must choose an AUTOBOT leader. The others
    each take a DECEPTICON. 4 PLAYERS (ALLIED FORCES): play in 2 teams – AUTOBOTS vs.
    DECEPTICONS. At the start, sit opposite your teammate." """
    state = started(players, leaders=leaders)
    assert [me.leader for me in state.seats] == leaders.split(",")
    teams = [me.team for me in state.seats]
    assert teams == ([0, 1, 0, 1] if players == 4 else list(range(players)))


@pytest.mark.parametrize(("players", "leaders", "words"), [
    (2, "optimus-prime,bumblebee", "one player must choose an AUTOBOT leader and the other"),
    (3, "optimus-prime,bumblebee,megatron", "the others each take a DECEPTICON"),
    (4, "optimus-prime,bumblebee,megatron,barricade", "teammates opposite"),
    (3, "optimus-prime,megatron", "one leader per player (3), not 2"),
    (2, "megatron,megatron", "a different leader"),
    (2, "optimus,megatron", "did you mean 'optimus-prime'"),
])
def test_leaders_against_setup_2_are_refused(players: int, leaders: str, words: str) -> None:
    """Setup 2: the leaders by player count; one clear message per problem."""
    with pytest.raises(BadOptions, match=re.escape(words)):
        started(players, leaders=leaders)


@pytest.mark.parametrize(("option", "value", "words"), [
    ("leftover", "kep", "did you mean 'keep'"),
    ("casualties", "rolld", "did you mean 'rolled'"),
    ("leftovers", "keep", "unknown option 'leftovers' \\(did you mean 'leftover'\\?\\)"),
])
def test_bad_options_are_named_with_a_suggestion(option: str, value: str, words: str) -> None:
    """An unknown option or value: :class:`BadOptions`, with "did you mean"."""
    with pytest.raises(BadOptions, match=words):
        started(2, **{option: value})


def test_every_reading_is_shown_with_its_option_and_the_spec_words() -> None:
    """Spec section 5: A1-A19, "each a documented default a table can change with --option"."""
    rows = readings(started(2, leftover="keep").settings)
    assert [row["reading"] for row in rows if row["reading"] != "A13"] == [
        f"A{n}" for n in range(1, 20) if n != 13]
    a1 = next(row for row in rows if row["reading"] == "A1")
    assert (a1["value"], a1["option"], a1["default"], a1["mark"]) == (
        "keep", "leftover", False, "table")
    assert all(row["words"] and row["default"] for row in rows if row["reading"] != "A1")
