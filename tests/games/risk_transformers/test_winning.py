"""Winning: the most zones at the end of day 6, the Launch Pad breaking a tie, teams, and the
instant win of "Out of Robots!" (spec T12, "Winning"; readings A3, A6, A15, A19). Each test
quotes the rulebook passage it checks."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.state import State, with_seat, zones_held
from tests.games.risk_transformers.helpers import GAME
from tests.games.risk_transformers.test_battle import in_phase3, play, refused, zone

OLGA, PATRICK, PAULA, QUENTIN = 0, 1, 2, 3
LAUNCH_PAD = "launch-pad"
PERIHEX_CARD = "fusion-cannons"


def counted(zones: dict[int, int], launch_pad: int, **options: object) -> State:
    """The end of day 6, waiting for its AllSpark: each seat holding ``zones[seat]`` zones (one
    robot each, the Launch Pad ``launch_pad``'s); the last seat's turn just ended."""
    players = len(zones)
    board = in_phase3({}, players=players, **options).board
    owners = [launch_pad] + [s for s, n in sorted(zones.items())
                             for _ in range(n - (s == launch_pad))]
    assert len(owners) == len(board.zones), "every zone is held by somebody"
    others = [z for z in board.zones if z != LAUNCH_PAD]
    layout = {place: zone(owner, robots=1)
              for place, owner in zip([LAUNCH_PAD, *others], owners, strict=True)}
    state = in_phase3(layout, players=players, current=players - 1, **options)
    assert [zones_held(state, s) for s in range(players)] == [zones[s] for s in range(players)]
    return replace(state, phase="allspark", day=data.DAYS.value)


def scored(state: State) -> State:
    """Day 6's AllSpark turned (A19: "the AllSpark also happens after day 6, before scoring")."""
    after = play(state, f"allspark card={PERIHEX_CARD}")
    assert after.phase == "over"
    return after


def test_the_most_zones_at_the_end_of_day_6_wins() -> None:
    """Winning: "All players count their zones. If you control the most zones at the end of day
    6, you win!"."""
    result = GAME.result(scored(counted({OLGA: 22, PATRICK: 20}, launch_pad=PATRICK)))
    assert result is not None
    assert (result.winners, result.team) == (("Olga",), None)
    assert result.reason == ("Olga won with the most zones at the end of day 6 (Olga 22, "
                             "Patrick 20)")


def test_the_launch_pad_wins_a_tie_even_from_outside_it() -> None:
    """Winning: "Example: In a 3-player game, Black and Yellow are tied with 16 zones each, while
    Red has 10 zones. However, Red controls the Launch Pad and wins the game!"."""
    state = scored(counted({OLGA: 16, PATRICK: 16, PAULA: 10}, launch_pad=PAULA))
    result = GAME.result(state)
    assert result is not None and result.winners == ("Paula",)
    assert "Launch Pad" in result.reason and "Olga and Patrick at 16 zones" in result.reason


def test_a_tie_inside_which_the_launch_pad_stands() -> None:
    """Winning: "If there is a tie for the most zones controlled, the player who controls the
    Launch Pad automatically wins the game (no matter how many zones he has)"."""
    result = GAME.result(scored(counted({OLGA: 21, PATRICK: 21}, launch_pad=PATRICK)))
    assert result is not None and result.winners == ("Patrick",)
    assert data.LAUNCH_PAD_TIE.mark == "R"


def test_the_launch_pad_does_not_help_without_a_tie() -> None:
    """Winning: the Launch Pad decides only "If there is a tie for the most zones"."""
    result = GAME.result(scored(counted({OLGA: 15, PATRICK: 14, PAULA: 13}, launch_pad=PAULA)))
    assert result is not None and result.winners == ("Olga",)


def test_an_open_factory_counts_and_a_closed_one_does_not() -> None:
    """Phase 1 A / spec: "An open factory is a normal zone (zone totals, sectors, scoring)";
    A3: "A closed factory is not a zone"."""
    state = counted({OLGA: 21, PATRICK: 21}, launch_pad=PATRICK)
    factory = next(iter(state.board.factories.values()))
    olga = state.seats[OLGA]
    state = with_seat(state, OLGA, scrap_robots=olga.scrap_robots - 1)
    state = replace(state, open_factories=(factory,))
    state = replace(state, zones=tuple(zone(OLGA, robots=1) if p == state.place(factory) else z
                                       for p, z in enumerate(state.zones)))
    result = GAME.result(scored(state))
    assert result is not None and result.winners == ("Olga",)  # 22 zones against 21
    assert "Olga 22, Patrick 21" in result.reason


def test_four_players_count_team_totals() -> None:
    """4-Player Game: "At the end of day 6 both sides add up their zones. The side with the most
    zones wins" — Patrick holds the most zones alone, his team does not."""
    state = scored(counted({OLGA: 12, PATRICK: 15, PAULA: 13, QUENTIN: 2}, launch_pad=PATRICK))
    result = GAME.result(state)
    assert result is not None
    assert (result.winners, result.team) == (("Olga", "Paula"), "autobots")
    assert result.reason.startswith("the autobots (Olga and Paula) won with the most zones")
    assert "(the autobots (Olga and Paula) 25, the decepticons (Patrick and Quentin) 17)" in (
        result.reason)


def test_four_players_the_team_holding_the_launch_pad_wins_a_tie() -> None:
    """4-Player Game: "If there is a tie for the most zones controlled, the team that controls
    the Launch Pad automatically wins"."""
    state = scored(counted({OLGA: 11, PATRICK: 10, PAULA: 10, QUENTIN: 11}, launch_pad=QUENTIN))
    result = GAME.result(state)
    assert result is not None
    assert (result.winners, result.team) == (("Patrick", "Quentin"), "decepticons")


def test_no_result_before_the_end() -> None:
    """The game is not over until day 6's AllSpark (or an army destroys every other)."""
    state = counted({OLGA: 22, PATRICK: 20}, launch_pad=PATRICK)
    assert GAME.result(state) is None and GAME.result(replace(state, phase="attack")) is None


# -- Out of Robots! ----------------------------------------------------------------------------

LAST_ROBOT = {"hexima-state": zone(OLGA, robots=4, leader=True),
              "launch-pad": zone(PATRICK, robots=1)}
"""Patrick's last robot on the Launch Pad, next to Olga's Hexima State (his leader scrapped)."""
CAPTURE = ("attack from=hexima-state target=launch-pad robots=3", "defend by=patrick robots=1",
           "roll attacker=6,1,1 defender=1")


def test_destroying_the_only_enemy_wins_at_once() -> None:
    """Out of Robots!: "If you destroy all enemy armies, you win the game!" — on day 1, without
    waiting for day 6; then nothing more is offered and every action is refused."""
    state = play(in_phase3(LAST_ROBOT, rest=OLGA), *CAPTURE)
    result = GAME.result(state)
    assert state.phase == "over" and result is not None
    assert result.winners == ("Olga",)
    assert result.reason == "Olga won as the last army standing: every enemy army is destroyed"
    assert GAME.legal_actions(state) == () and GAME.turn(state).active == ()
    refused(state, "move-in robots=1", "the game is over: Olga won")
    refused(state, "end", "the game is over: Olga won")


def test_three_players_one_army_destroyed_is_skipped() -> None:
    """Out of Robots!: "If you have no robots on the gameboard, your army is destroyed and you are
    out of the game!"; A15: "eliminated players are skipped": after Olga's turn, Paula's."""
    state = play(in_phase3(LAST_ROBOT | {"kalis": zone(PAULA, robots=1)}, players=3, rest=OLGA),
                 *CAPTURE)
    assert state.seats[PATRICK].eliminated and state.phase == "attack"
    assert GAME.result(state) is None
    state = play(state, "end turn=true", "draw")
    assert (state.current, state.phase) == (PAULA, "place")


def test_three_players_win_when_both_others_are_destroyed() -> None:
    """Out of Robots!: "If you destroy all enemy armies, you win the game!" — both others."""
    state = in_phase3(LAST_ROBOT, players=3, rest=OLGA)
    state = replace(state, seats=(*state.seats[:2], replace(state.seats[PAULA], eliminated=True)))
    state = play(state, *CAPTURE)
    result = GAME.result(state)
    assert result is not None and result.winners == ("Olga",)


def test_four_players_the_team_wins_when_both_enemies_are_destroyed() -> None:
    """4 players: "If you destroy all enemy armies, you win the game!" — both members of the
    other team; the winners are the team, the fallen teammate included."""
    state = in_phase3(LAST_ROBOT, players=4, rest=OLGA)
    state = replace(state, seats=(*state.seats[:3], replace(state.seats[QUENTIN],
                                                             eliminated=True)))
    state = play(state, *CAPTURE)
    result = GAME.result(state)
    assert result is not None
    assert (result.winners, result.team) == (("Olga", "Paula"), "autobots")
    assert result.reason == ("the autobots (Olga and Paula) won as the last army standing: every "
                             "enemy army is destroyed")


def test_a_leader_alone_keeps_his_player_in() -> None:
    """A6: "A leader alone counts as a robot for control, for M2 and for elimination": Patrick
    loses his last robot but his leader still stands on Kalis."""
    state = play(in_phase3(LAST_ROBOT | {"kalis": zone(PATRICK, leader=True)}, rest=OLGA),
                 *CAPTURE)
    assert not state.seats[PATRICK].eliminated and state.phase == "attack"
    assert GAME.result(state) is None


def test_an_eliminated_players_cards_go_back_to_the_draw_pile() -> None:
    """Out of Robots!: "Return your cards (if you have any) to the draw pile and reshuffle it"."""
    state = in_phase3(LAST_ROBOT | {"kalis": zone(PAULA, robots=1)}, players=3, rest=OLGA)
    state = replace(with_seat(state, PATRICK, hand=(PERIHEX_CARD, "")), pile=state.pile - 2)
    after = play(state, *CAPTURE)
    assert after.seats[PATRICK].hand == () and after.pile == state.pile + 2


def on_open_factory(seat: int, other: int, players: int = 2) -> State:
    """Phase 2 of Olga's turn: ``seat``'s only piece a robot in the open Decagon factory, every
    zone ``other``'s; Olga holds a change card."""
    state = in_phase3({}, players=players, rest=other, current=OLGA)
    factory = "decagon-factory"
    state = with_seat(state, seat, scrap_robots=state.seats[seat].scrap_robots - 1)
    state = replace(state, phase="morph", open_factories=(factory,),
                    zones=tuple(zone(seat, robots=1) if p == state.place(factory) else z
                                for p, z in enumerate(state.zones)))
    return replace(with_seat(state, OLGA, hand=(CHANGE_CARD,)), pile=state.pile - 1)


CHANGE_CARD = next(c.id for c in in_phase3({}).board.section.cards if c.change)
CLOSE = f"change card={CHANGE_CARD} zone=decagon to=closed"


def test_closing_the_factory_on_the_last_robots_destroys_the_army() -> None:
    """Sliding Zones: "Any robots on it are crushed and returned to their owner's scrapheap";
    Out of Robots!: with nothing left on the board Patrick is out, and Olga has won."""
    after = play(on_open_factory(PATRICK, OLGA), CLOSE)
    assert after.seats[PATRICK].eliminated and after.phase == "over"
    result = GAME.result(after)
    assert result is not None and result.winners == ("Olga",)


def test_crushing_your_own_last_robots_leaves_the_other_army_the_winner() -> None:
    """A18: the open factory is "the special zone itself", so Olga may close it on her only
    robot; her army is destroyed and Patrick's, the last one standing, has won."""
    after = play(on_open_factory(OLGA, PATRICK), CLOSE)
    result = GAME.result(after)
    assert after.seats[OLGA].eliminated and result is not None
    assert result.winners == ("Patrick",) and "last army standing" in result.reason


def test_a_player_out_on_his_own_turn_plays_no_more_of_it() -> None:
    """Out of Robots!: "your army is destroyed and you are out of the game!" — Olga crushes her
    own last robot in Phase 2 with three players: Patrick's turn begins at once."""
    after = play(on_open_factory(OLGA, PATRICK, players=3), CLOSE)
    assert after.seats[OLGA].eliminated and GAME.result(after) is None
    assert (after.current, after.phase, after.day) == (PATRICK, "place", 1)


def test_four_players_a_gift_of_the_last_zone_ends_the_givers_game() -> None:
    """4-Player Game: "Put all robots from that zone on your scrapheap. Your teammate puts a robot
    from his scrapheap into the zone": Olga's last zone given, she is out and Patrick plays."""
    state = in_phase3({"kalis": zone(OLGA, robots=1), "uraya": zone(PAULA, robots=1)},
                      players=4, rest=PATRICK)
    after = play(replace(state, phase="back-up"), "gift zone=kalis")
    assert after.seats[OLGA].eliminated and after.at("kalis").owner == PAULA
    assert (after.current, after.phase, GAME.result(after)) == (PATRICK, "place", None)
