"""Get Ready!: pieces, tokens, cards, covers, the roll for first player; the board in force."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.options import default_board_data
from tabletape.rules.risk_deep_space.state import on_board

from .helpers import SETUP_TWO, TWO, play, ready, start, started

FOUR = ("Olga", "Patrick", "Carol", "Dan")


def test_each_colour_starts_with_its_pieces_on_its_home_station() -> None:
    """Get Ready! 1-3: "32 Recruits, 5 Bases ... Place three Recruits on your matching Home
    Station ... Give each player 2 Gem tokens"."""
    state = start(FOUR)
    for seat, me in enumerate(state.seats):
        assert on_board(state, seat) == 3 and me.supply == 29 and me.bases == 5
        assert state.holders[me.home] == seat and state.recruits[me.home] == 3
        assert me.gems == 2 and me.ore == 0
    assert state.gems == 31 - 8 and state.ore == 31 and state.dogs_left == 3
    assert [me.colour for me in state.seats] == ["red", "green", "yellow", "blue"]


def test_two_cards_are_dealt_face_up_to_each_player() -> None:
    """Get Ready! 4: "deal each player two cards faceup"."""
    state = play(start(), "deal player=olga cards=air-leak,air-leak")
    assert state.seats[0].hand == ("air-leak", "air-leak")
    with pytest.raises(IllegalAction, match="two cards face up, not 1"):
        play(state, "deal player=patrick cards=air-leak")
    with pytest.raises(IllegalAction, match="dealt already"):
        play(state, "deal player=olga cards=air-leak,mail-from-mom")


def test_a_two_player_game_covers_a_pair_of_opposing_corners() -> None:
    """Get Ready! 5: "For a 2-player game, cover either pair of opposing corner planets"."""
    state = play(start(), *SETUP_TWO[:2])
    assert state.phase == "cover"
    with pytest.raises(IllegalAction, match="opposing corner planets"):
        play(state, "cover planets=nw-corner,ne-corner")
    state = play(state, "cover planets=ne-corner,sw-corner")
    assert [state.space(p) for p in state.covered] == ["ne-corner", "sw-corner"]
    assert state.phase == "roll-off"


def test_no_covers_with_more_players() -> None:
    state = ready(("Olga", "Patrick", "Carol"))
    assert state.covered == () and state.phase == "turn"


def test_highest_roll_goes_first_and_play_moves_to_the_left() -> None:
    """Get Ready!: "Whoever rolls highest goes first, and play moves to the left." Ties roll
    again."""
    state = start(FOUR)
    for name in FOUR:
        state = play(state, f"deal player={name} cards=air-leak,energy-boost")
    state = play(state, "roll-off dice=3,6,6,1")
    assert [state.name(s) for s in state.contenders] == ["Patrick", "Carol"]
    state = play(state, "roll-off dice=2,5")
    assert [state.name(s) for s in state.order] == ["Carol", "Dan", "Olga", "Patrick"]
    assert state.name(state.current) == "Carol"


def test_roll_off_needs_a_die_per_player() -> None:
    state = play(start(), *SETUP_TWO[:3])
    with pytest.raises(IllegalAction, match="one die each"):
        play(state, "roll-off dice=6")


def test_the_board_in_force_is_stored_in_the_options(tmp_path: Path) -> None:
    """The board is not printed: a table's board file is read once and kept in the log."""
    data = default_board_data()
    data["name"] = "our table's board"
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    begun = started(board=str(file))
    assert begun.options["board"]["name"] == "our table's board"
    file.unlink()
    again = msgspec.json.decode(msgspec.json.encode(begun), type=type(begun))
    assert RULES.start(again).board.name == "our table's board"
    assert started().options["board"]["mark"] == "I"


def test_a_board_without_a_home_station_is_refused(tmp_path: Path) -> None:
    data = default_board_data()
    data["spaces"] = [dict(s, tags=[]) if s["id"] == "yellow-station" else s
                      for s in data["spaces"]]
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    with pytest.raises(BadOptions, match=r"needs four Home Stations .* has 3: red, green, blue"):
        started(board=str(file))


def test_a_board_whose_centre_does_not_reach_four_planets_is_refused(tmp_path: Path) -> None:
    data = default_board_data()
    data["links"] = [link for link in data["links"] if link != ["north-inner", "centre"]]
    data["links"].append(["north-inner", "east-inner"])
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    with pytest.raises(BadOptions, match="centre must link to four planets, not 3"):
        started(board=str(file))


def test_colours_options_and_deck_counts() -> None:
    state = start(TWO, colours="blue,green")
    assert [me.colour for me in state.seats] == ["blue", "green"]
    with pytest.raises(BadOptions, match="colour 'pink' has no Home Station"):
        started(colours="pink,red")
    with pytest.raises(BadOptions, match="add up to the 36 Action cards, not 37"):
        started(**{"deck.air-leak": "6"})
    assert sum(start(**{"deck.air-leak": "6", "deck.tractor-beam": "5"}).deck) == 36
    with pytest.raises(BadOptions, match="for 2 to 4 players"):
        started(("a", "b", "c", "d", "e"))


def test_only_costs_the_rulebook_does_not_print_can_be_set() -> None:
    """Action Card Text: Bribe a Rival "pay a Gem", Air Leak "pay with a Recruit" are printed;
    Tractor Beam, Mail from Mom and Good Space Dog print no cost, so a table may set one."""
    assert started(**{"cost.mail-from-mom": "gem"}).options["cost.mail-from-mom"] == "gem"
    assert started().options["cost.tractor-beam"] == "free"
    with pytest.raises(BadOptions, match=r"unknown option 'cost\.air-leak'"):
        started(**{"cost.air-leak": "gem"})
    with pytest.raises(BadOptions, match="bad option"):
        started(**{"cost.good-space-dog": "recruit"})


def retagged(tmp_path: Path, tags: dict[str, list[str]]) -> str:
    """The default board with some spaces' tags replaced, written to a file."""
    data = default_board_data()
    data["spaces"] = [dict(s, tags=tags.get(s["id"], s["tags"])) for s in data["spaces"]]
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    return str(file)


@pytest.mark.parametrize(("tags", "message"), [
    ({"nw-corner": ["corner", "home:red"], "red-station": []},
     "'nw-corner' is both a corner and a Home Station"),
    ({"red-station": ["home:red", "home:green"], "green-station": []},
     r"'red-station' is a Home Station twice \(home:red, home:green\)"),
    ({"centre": ["centre", "corner"], "nw-corner": []},
     "'centre' is both the centre and a corner"),
    ({"north-inner": ["home:red"], "red-station": []},
     "the centre links to a Home Station"),
])
def test_a_board_whose_spaces_play_two_parts_is_refused(
        tmp_path: Path, tags: dict[str, list[str]], message: str) -> None:
    """Get Ready! 2 and 5: a Home Station holds a colour's three Recruits; corner planets are
    covered as Deep Space in a 2-player game ("You cannot stop on them"); the centre is passed
    through to "one of the four planets connected to the center". A space cannot be two of
    these (a covered Home Station would hold Recruits in Deep Space), and the centre reaches
    planets, not Home Stations: such a board is refused when the game starts, not found out by
    the audit later."""
    with pytest.raises(BadOptions, match=message):
        started(board=retagged(tmp_path, tags))


def test_a_player_is_found_by_name_before_colour() -> None:
    """Get Ready! 4: "deal each player two cards". ``player=`` names a player, or a colour in
    use: a player's own name wins over another seat's colour (Olga plays red; Red plays
    yellow)."""
    state = play(start(("Olga", "Red")), "deal player=red cards=air-leak,air-leak")
    assert state.seats[1].hand == ("air-leak", "air-leak") and state.seats[0].hand == ()
    by_colour = play(start(("Olga", "Red")), "deal player=yellow cards=tractor-beam,air-leak")
    assert by_colour.seats[1].hand == ("tractor-beam", "air-leak")


def test_the_covers_may_go_on_before_the_cards_are_dealt() -> None:
    """Get Ready! 4 and 5 are a checklist, not an order: "Shuffle the Action card deck and deal
    each player two cards faceup." and "For a 2-player game, cover either pair of opposing
    corner planets". A table that puts the covers on while laying out the board, before (or
    between) the deals, is not refused; the roll for first player waits for both."""
    state = play(start(), "cover planets=nw-corner,se-corner")
    assert [state.space(p) for p in state.covered] == ["nw-corner", "se-corner"]
    assert state.phase == "deal"
    offered = {spec.type for spec in RULES.legal_actions(state)}
    assert offered == {"deal", "roll-off"}
    state = play(state, *SETUP_TWO[:2])
    assert state.phase == "roll-off"
    between = play(start(), SETUP_TWO[0])
    assert "cover" in {spec.type for spec in RULES.legal_actions(between)}
    between = play(between, "cover planets=ne-corner,sw-corner", SETUP_TWO[1], "roll-off dice=6,2")
    assert state.phase == "roll-off" and between.phase == "turn"


def test_the_roll_for_first_player_may_come_before_the_deal() -> None:
    """Get Ready!: "Each player rolls the dice. Whoever rolls highest goes first". Tables often
    roll first: the roll (ties included) may come at any point of the setup, and the first
    turn begins once the deal and the covers are done too."""
    state = play(start(FOUR), "roll-off dice=2,5,5,1")
    assert state.phase == "deal" and [state.name(s) for s in state.contenders] == [
        "Patrick", "Carol"]
    assert "a tie for first player: Patrick, Carol roll again" in RULES.turn(state).detail
    state = play(state, "deal player=olga cards=air-leak,energy-boost", "roll-off dice=3,4")
    assert state.phase == "deal" and [state.name(s) for s in state.order] == [
        "Carol", "Dan", "Olga", "Patrick"]
    assert "roll-off" not in {spec.type for spec in RULES.legal_actions(state)}
    assert "Carol goes first" in RULES.turn(state).detail
    with pytest.raises(IllegalAction, match="decided once"):
        play(state, "roll-off dice=6,1")
    for name in FOUR[1:]:
        state = play(state, f"deal player={name} cards=air-leak,energy-boost")
    assert state.phase == "turn" and state.name(state.current) == "Carol"
    two = play(start(), "roll-off dice=1,6", *SETUP_TWO[:3])
    assert two.phase == "turn" and two.name(two.current) == "Patrick"


def test_only_a_two_player_game_covers_planets() -> None:
    """Get Ready! 5: "For a 2-player game, cover either pair of opposing corner planets": with
    more players the refusal says so."""
    state = start(("Olga", "Patrick", "Carol"))
    with pytest.raises(IllegalAction, match="only a 2-player game"):
        play(state, "cover planets=nw-corner,se-corner")


@pytest.mark.parametrize(("tag", "message"), [
    ("home:", "colour must be a lowercase word"),
    ("home:Red", "colour must be a lowercase word"),
    ("home:blue", "home:blue"),
])
def test_a_board_whose_home_station_colours_are_bad_is_refused(
        tmp_path: Path, tag: str, message: str) -> None:
    """Get Ready! 1-2: "Each player chooses their color forces ... Place three Recruits on
    your matching Home Station": each Home Station has one colour, typed as a word
    (``player=red``), and no colour has two stations."""
    data = default_board_data()
    data["spaces"] = [dict(s, tags=[tag]) if s["id"] == "red-station" else s
                      for s in data["spaces"]]
    if tag == "home:blue":
        data["spaces"] = [dict(s, tags=["home:red"]) if s["id"] == "n1" else s
                          for s in data["spaces"]]
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data))
    with pytest.raises(BadOptions, match=message):
        started(("Olga", "Patrick", "Carol"), board=str(file))
