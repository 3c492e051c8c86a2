"""Phase 3, Attack!: declaring, rolling, casualties, captures and the leaders' powers, each test
quoting the rulebook passage it checks; the rulebook's Battle Example replayed as printed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.battle import (
    battle_dice,
    eligible,
    finished,
    police_car,
    ways_out,
)
from tabletape.rules.risk_transformers.state import (
    EMPTY,
    State,
    Zone,
    invariant_errors,
    on_board,
)
from tests.games.risk_transformers.helpers import GAME, started

OLGA, PATRICK = 0, 1


def in_phase3(layout: Mapping[str, Zone], players: int = 2, current: int = OLGA,
              forms: Mapping[int, str] | None = None, rest: int | None = None,
              **options: Any) -> State:
    """A started game moved to Phase 3 of ``current``'s turn: the zones in ``layout`` as given,
    every other zone of the board one robot of seat ``rest`` (default: seat ``index %
    players``); leaders not placed in
    ``layout`` are on the scrapheap; the operational pile is empty and the scrapheaps hold the
    rest of each set."""
    state = started(players, **options)
    count = len(state.board.zones)
    zones = tuple(layout.get(place, Zone(owner=index % players if rest is None else rest,
                                         robots=1) if index < count else EMPTY)
                  for index, place in enumerate(state.places))
    state = replace(state, zones=zones, phase="attack", day=1, turn=1, current=current)
    army = data.ARMY.value
    seats = []
    for seat, me in enumerate(state.seats):
        robots, vehicles, leaders = on_board(state, seat)
        seats.append(replace(me, operational=0, scrap_robots=army["robots"] - robots,
                             scrap_vehicles=army["vehicles"] - vehicles, scrapped=not leaders,
                             form=(forms or {}).get(seat, me.form)))
    state = replace(state, seats=tuple(seats))
    assert invariant_errors(state) == []
    return state


def play(state: State, *lines: str) -> State:
    """Fold typed lines (``by=`` names the actor, else the player whose turn it is); everything
    must still add up after each."""
    for line in lines:
        parsed = parse_action(line)
        event: Event = event_from(parsed, GAME.event_types())
        actor = parsed.by or state.name(state.current)
        state = GAME.step(state, actor, event)
        assert invariant_errors(state) == [], (line, invariant_errors(state))
    return state


def refused(state: State, line: str, words: str) -> None:
    with pytest.raises(IllegalAction, match=words):
        play(state, line)


def zone(owner: int, robots: int = 0, vehicles: int = 0, leader: bool = False) -> Zone:
    return Zone(owner=owner, robots=robots, vehicles=vehicles, leader=leader)


# -- the Battle Example, as printed ------------------------------------------------------------

EXAMPLE = {"hexima-state": zone(PATRICK, robots=3, vehicles=1),
           "launch-pad": zone(OLGA, robots=1, leader=True)}
"""Black (Patrick) in Hexima State with 3 robots and a vehicle ("Black exchanges a vehicle for
3 robots" and then "has 5 in Hexima State"); Red (Olga, OPTIMUS PRIME) on the Launch Pad with
"one normal robot and the leader"."""


def test_the_battle_example_replays_as_printed() -> None:
    """Battle Example: "Black declares an attack on the Launch Pad (controlled by Red) from
    neighboring Hexima State. Black attacks with 3 robots. Red defends with 2 robots – one
    normal robot and the leader (OPTIMUS PRIME)... Black wins (6 vs. 4). Red chooses to put the
    normal robot on the scrapheap... Red uses OPTIMUS PRIME'S +1 defense bonus to increase his
    roll from 3 to 4... Red wins. Black exchanges a vehicle for 3 robots and puts one of them on
    his scrapheap. Result: Red still has a single robot left on the Launch Pad while Black has
    5 in Hexima State."""
    state = in_phase3(EXAMPLE, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1 leader=true",
                 "roll attacker=6,4,1 defender=4,d8:3", "plus-one by=olga face=3")
    assert state.at("launch-pad") == zone(OLGA, leader=True)  # Red's loss has no choice
    assert state.attack is not None and state.attack.losses == (1, 0)
    refused(state, "continue robots=3", "Patrick chooses the casualty first")
    state = play(state, "lose by=patrick pieces=vehicle")
    assert state.at("launch-pad") == zone(OLGA, leader=True)
    assert state.at("hexima-state") == zone(PATRICK, robots=5)
    # "Black decides to continue the attack ... Red defends with the last robot in the zone
    # (OPTIMUS PRIME) ... Even with OPTIMUS PRIME'S +1 bonus, Black has the higher roll.
    # OPTIMUS PRIME is sent to the scrapheap. Result: Black has captured the Launch Pad and now
    # moves all 3 attacking robots into the captured zone. Black can choose to move 1 more
    # robot into the zone, but must leave one behind to defend Hexima State."
    state = play(state, "continue robots=3", "defend by=olga leader=true",
                 "roll attacker=6,2,1 defender=d8:4")
    refused(state, "move-in robots=2", "leave at least one piece behind")
    assert state.at("launch-pad") == zone(PATRICK, robots=3)
    assert state.seats[OLGA].scrapped and state.captured
    state = play(state, "move-in robots=1")
    assert state.at("hexima-state") == zone(PATRICK, robots=1)
    assert state.at("launch-pad") == zone(PATRICK, robots=4) and state.attack is None


def test_the_plus_one_need_not_be_stated() -> None:
    """Robot Form: "OPTIMUS PRIME and BARRICADE add +1 to any die when defending": unstated, it
    goes where it helps (the example's 3, making 4 against 4: "the defender wins any ties")."""
    state = in_phase3(EXAMPLE, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1 leader=true", "roll attacker=6,4,1 defender=4,d8:3")
    assert state.attack is not None and state.attack.losses == (1, 1)


def test_a_plus_one_on_a_die_that_was_not_rolled_is_refused() -> None:
    """Robot Form: "This bonus can be added to any die" of the leader's side (A14)."""
    state = in_phase3(EXAMPLE, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1 leader=true", "roll attacker=6,4,1 defender=4,d8:3")
    refused(state, "plus-one by=olga face=5", "no die of Olga's shows 5")
    refused(state, "plus-one by=patrick face=6", "Patrick has no robot-form")


# -- declaring the attack ------------------------------------------------------------------------

OLGA_ATTACKS = {"hexima-state": zone(OLGA, robots=4, leader=True),
                "launch-pad": zone(PATRICK, robots=2), "kalis": zone(PATRICK, robots=3)}


@pytest.mark.parametrize(("line", "words"), [
    ("attack from=hexima-state target=protihex robots=1", "not next to hexima-state"),
    ("attack from=hexima-state target=yellow-1 robots=1", "your own zone: attack an enemy"),
    ("attack from=hexima-state target=launch-pad robots=4", "attack with 1 to 3 pieces"),
    ("attack from=hexima-state target=launch-pad robots=0", "attack with 1 to 3 pieces"),
    ("attack from=launch-pad target=hexima-state robots=1", "you do not control"),
    ("attack from=yellow-1 target=kalis robots=1", "you must have 2 or more"),
])
def test_an_attack_needs_a_neighbouring_enemy_and_spare_robots(line: str, words: str) -> None:
    """Phase 3: "You can only attack an enemy zone that neighbors one of your zones"; "You must
    have 2 or more robots in the zone you are attacking from"; "The maximum number of robots
    that you can attack with is 3"."""
    state = in_phase3({**OLGA_ATTACKS, "yellow-1": zone(OLGA, robots=1)})
    refused(state, line, words)


def test_the_leader_counts_as_one_of_the_three() -> None:
    """Leaders in Battle: "When attacking with a leader, count him as 1 of your [3] robots"
    (A3); he rolls an 8-sided die, the robots 6-sided ones."""
    state = in_phase3(OLGA_ATTACKS)
    refused(state, "attack from=hexima-state target=launch-pad robots=3 leader=true",
            "1 to 3 pieces")
    state = play(state, "attack from=hexima-state target=launch-pad robots=2 leader=true",
                 "defend by=patrick robots=2")
    assert battle_dice(state) == ((8, 6, 6), (6, 6))
    refused(state, "roll attacker=6,5,4 defender=1,1", "Olga rolls a d8 and two d6")


def test_four_players_never_attack_a_teammate() -> None:
    """When Can I Attack?: "In the 4-player game you cannot attack your teammate"."""
    state = in_phase3({"hexima-state": zone(0, robots=3), "launch-pad": zone(2, robots=1)},
                      players=4)
    assert state.seats[2].team == state.seats[0].team
    refused(state, "attack from=hexima-state target=launch-pad robots=1",
            "cannot attack your teammate")


def test_the_defender_uses_one_or_two_and_need_not_leave_one() -> None:
    """How to Attack 3: "The defender must say how many robots he is defending with (1 or 2).
    (The defender does not have to leave a robot behind...)"."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3")
    refused(state, "defend by=patrick robots=3", "defend with 1 to 2")
    refused(state, "defend by=olga robots=1", "Patrick defends launch-pad, not Olga")
    refused(state, "defend by=patrick robots=1 leader=true", "launch-pad holds")
    play(state, "defend by=patrick robots=2")


# -- results -------------------------------------------------------------------------------------


def test_ties_go_to_the_defender_and_a_drawn_out_attack_continues_or_stops() -> None:
    """How to Attack 5: "If the rolls are equal, the defender wins"; Results, Outcome 2: either
    "CONTINUE the attack" or "END the attack"."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=2", "roll attacker=5,5,1 defender=5,4")
    refused(state, "attack from=hexima-state target=kalis robots=1",
            "not over: it waits to continue or stop")
    state = play(state, "stop")
    assert state.at("hexima-state") == zone(OLGA, robots=3, leader=True)
    assert state.at("launch-pad") == zone(PATRICK, robots=1) and state.attack is None


def test_an_attack_down_to_one_piece_has_failed() -> None:
    """Results, Outcome 3: "If you have only 1 robot left in your zone, your attack has failed!
    This ENDS the attack"."""
    state = in_phase3({**OLGA_ATTACKS, "hexima-state": zone(OLGA, robots=3)})
    state = play(state, "attack from=hexima-state target=launch-pad robots=2",
                 "defend by=patrick robots=2", "roll attacker=2,1 defender=6,6")
    refused(state, "continue robots=1", "no attack is in progress")
    assert state.at("hexima-state") == zone(OLGA, robots=1)


def test_the_leader_is_lost_only_when_he_is_the_last() -> None:
    """How to Attack 6, Tip: "Only put your leader on the scrapheap if he is the last robot
    left" (the attacker's casualties come from the source zone, A5)."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=2 "
                 "leader=true", "defend by=patrick robots=1", "roll attacker=d8:1,1,1 "
                 "defender=6")
    assert state.at("hexima-state") == zone(OLGA, robots=3, leader=True)
    state = in_phase3({**OLGA_ATTACKS, "hexima-state": zone(OLGA, robots=1, leader=True)})
    state = play(state, "attack from=hexima-state target=launch-pad robots=1",
                 "defend by=patrick robots=1", "roll attacker=1 defender=6")
    assert state.at("hexima-state") == zone(OLGA, leader=True) and state.attack is None


def test_a_capture_moves_the_attackers_in_and_marks_the_turn() -> None:
    """Results, Outcome 1: "Move all the attacking robots into the captured zone"; Phase 5: "If
    you captured another player's zone on this turn, draw an upgrade card"."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=2 "
                 "leader=true", "defend by=patrick robots=2",
                 "roll attacker=d8:8,6,6 defender=5,5", "stop")
    assert state.at("launch-pad") == zone(OLGA, robots=2, leader=True)
    assert state.at("hexima-state") == zone(OLGA, robots=2) and state.captured


def test_destroying_every_enemy_army_wins() -> None:
    """Out of Robots!: "If you have no robots on the gameboard, your army is destroyed and you
    are out of the game! Return your cards ... to the draw pile" and "If you destroy all enemy
    armies, you win the game!"."""
    state = in_phase3(OLGA_ATTACKS | {"kalis": zone(OLGA, robots=1)}, rest=OLGA)
    patrick = replace(state.seats[PATRICK], hand=("fusion-cannons",))
    state = replace(state, seats=(state.seats[OLGA], patrick), pile=state.pile - 1)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=2", "roll attacker=6,6,1 defender=1,1")
    assert state.seats[PATRICK].eliminated and state.seats[PATRICK].hand == ()
    assert state.phase == "over" and state.pile == len(state.board.card_ids)


# -- the leaders' vehicle powers and cards -------------------------------------------------------


def test_barricade_in_vehicle_form_allows_one_defender() -> None:
    """Vehicle Form: "When BARRICADE attacks in vehicle form, the defender can only use one
    robot to defend even if there are two or more robots in his zone"."""
    layout = {"hexima-state": zone(PATRICK, robots=3, leader=True),
              "launch-pad": zone(OLGA, robots=3)}
    state = in_phase3(layout, players=2, current=PATRICK, forms={PATRICK: "vehicle"},
                      leaders="optimus-prime,barricade")
    state = play(state, "attack from=hexima-state target=launch-pad robots=1 leader=true")
    refused(state, "defend by=olga robots=2", "defend with 1 piece")


def test_megatron_in_vehicle_form_attacks_any_zone_alone() -> None:
    """Vehicle Form: "MEGATRON can attack any zone ... He must attack alone" (A3, A13
    ``megatron-alone=far``)."""
    layout = {"uraya": zone(PATRICK, robots=2, leader=True), "launch-pad": zone(OLGA, robots=1)}
    state = in_phase3(layout, current=PATRICK, forms={PATRICK: "vehicle"})
    refused(state, "attack from=uraya target=launch-pad robots=1 leader=true", "must attack alone")
    state = play(state, "attack from=uraya target=launch-pad leader=true",
                 "defend by=olga robots=1", "roll attacker=d8:7 defender=6")
    assert state.at("launch-pad") == zone(PATRICK, leader=True)
    assert state.at("uraya") == zone(PATRICK, robots=2)


def test_megatron_alone_is_the_casualty_when_he_loses() -> None:
    """A3: "if he loses, he is the casualty" (he attacked alone, so no other piece rolled)."""
    layout = {"uraya": zone(PATRICK, robots=2, leader=True), "launch-pad": zone(OLGA, robots=1)}
    state = in_phase3(layout, current=PATRICK, forms={PATRICK: "vehicle"})
    state = play(state, "attack from=uraya target=launch-pad leader=true",
                 "defend by=olga robots=1", "roll attacker=d8:2 defender=6")
    assert state.at("uraya") == zone(PATRICK, robots=2) and state.seats[PATRICK].scrapped


@pytest.mark.parametrize(("choice", "words"), [
    ("far", ""), ("always", "must attack alone")])
def test_megatron_alone_on_every_attack_is_an_option(choice: str, words: str) -> None:
    """A13 ``megatron-alone``: "He must attack alone" only for a zone that is not a neighbour
    (``far``), or on every attack he joins (``always``)."""
    layout = {"hexima-state": zone(PATRICK, robots=3, leader=True),
              "launch-pad": zone(OLGA, robots=1)}
    state = in_phase3(layout, current=PATRICK, forms={PATRICK: "vehicle"},
                      **{"megatron-alone": choice})
    line = "attack from=hexima-state target=launch-pad robots=1 leader=true"
    if words:
        refused(state, line, words)
    else:
        assert play(state, line).attack is not None


def test_bumblebee_in_vehicle_form_escapes_next_door() -> None:
    """Vehicle Form: "If BUMBLEBEE loses in battle, move him to a neighboring zone instead of
    your scrapheap" (A12: if he was the last piece, the zone is captured)."""
    layout = {"hexima-state": zone(PATRICK, robots=3), "launch-pad": zone(OLGA, leader=True),
              "kalis": zone(OLGA, robots=1)}
    state = in_phase3(layout, current=PATRICK, forms={OLGA: "vehicle"},
                      leaders="bumblebee,megatron")
    state = play(state, "attack from=hexima-state target=launch-pad robots=2",
                 "defend by=olga leader=true", "roll attacker=3,1 defender=d8:2", "stop")
    assert state.at("kalis") == zone(OLGA, robots=1, leader=True)
    assert not state.seats[OLGA].scrapped and state.at("launch-pad").owner == PATRICK


def test_fusion_cannons_add_one_to_each_attacking_die() -> None:
    """FUSION CANNONS: "Play before you attack. Add 1 to each die for this attack.": 5,5
    against 5,5 wins both pairs instead of losing both; Play Cards: "If a card reads 'for this
    attack,' the bonus lasts until you end your invasion from 1 zone to another"."""
    state = in_phase3(OLGA_ATTACKS)
    olga = replace(state.seats[OLGA], hand=("fusion-cannons",))
    state = replace(state, seats=(olga, state.seats[PATRICK]), pile=state.pile - 1)
    state = play(state, "play card=fusion-cannons")
    assert state.played == ("fusion-cannons",)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=2")
    assert state.played == () and state.attack is not None
    assert state.attack.cards == ("fusion-cannons",)
    state = play(state, "roll attacker=5,5,1 defender=5,5")
    assert state.at("launch-pad") == zone(OLGA, robots=3)
    state = play(state, "attack from=launch-pad target=kalis robots=2",
                 "defend by=patrick robots=2", "roll attacker=5,5 defender=5,5")
    assert state.at("kalis") == zone(PATRICK, robots=3)  # the card's attack is over


def test_bumblebee_escaping_with_two_ways_out_says_where() -> None:
    """Vehicle Form: "move him to a neighboring zone" (A12: the owner's choice of neighbour;
    he was the last piece, so the zone is captured)."""
    layout = {"uraya": zone(OLGA, leader=True), "primus": zone(OLGA, robots=1),
              "protihex": zone(OLGA, robots=1),
              "the-praetorus-wharf": zone(PATRICK, robots=3)}
    state = in_phase3(layout, current=PATRICK, forms={OLGA: "vehicle"},
                      leaders="bumblebee,megatron")
    state = play(state, "attack from=the-praetorus-wharf target=uraya robots=2",
                 "defend by=olga leader=true", "roll attacker=6,1 defender=d8:2")
    refused(state, "stop", "Olga chooses")
    refused(state, "lose by=olga pieces=leader", "say where")
    refused(state, "lose by=olga pieces=leader escape=the-praetorus-wharf",
            "a neighbouring zone you control")
    state = play(state, "lose by=olga pieces=leader escape=protihex")
    assert state.at("protihex") == zone(OLGA, robots=1, leader=True)
    assert state.at("uraya") == zone(PATRICK, robots=2)


@pytest.mark.parametrize(("choice", "escaped"), [("any", True), ("defending", False)])
def test_bumblebee_attacking_escapes_unless_only_defending(choice: str, escaped: bool) -> None:
    """A12 ``bumblebee-escape``: his power "If BUMBLEBEE loses in battle" on any casualty
    (``any``), or only when he defends (``defending``); A5 ``casualties=rolled``: the attacker
    loses a piece that rolled, here Bumblebee attacking alone."""
    layout = {"hexima-state": zone(OLGA, leader=True, robots=1),
              "launch-pad": zone(PATRICK, robots=2), "yellow-1": zone(OLGA, robots=1)}
    state = in_phase3(layout, forms={OLGA: "vehicle"}, leaders="bumblebee,megatron",
                      casualties="rolled", **{"bumblebee-escape": choice})
    state = play(state, "attack from=hexima-state target=launch-pad leader=true",
                 "defend by=patrick robots=1", "roll attacker=d8:1 defender=6")
    assert state.seats[OLGA].scrapped is not escaped
    assert state.at("yellow-1") == zone(OLGA, robots=1, leader=escaped)
    assert state.at("hexima-state") == zone(OLGA, robots=1) and state.attack is None


def test_casualties_from_the_source_by_default() -> None:
    """A5 ``casualties=source``: "The loser takes a robot from his zone" (any piece of the
    source, the leader only when last), so Bumblebee attacking alone loses a robot instead."""
    layout = {"hexima-state": zone(OLGA, leader=True, robots=1),
              "launch-pad": zone(PATRICK, robots=2)}
    state = in_phase3(layout, leaders="bumblebee,megatron")
    state = play(state, "attack from=hexima-state target=launch-pad leader=true",
                 "defend by=patrick robots=1", "roll attacker=d8:1 defender=6")
    assert state.at("hexima-state") == zone(OLGA, leader=True) and state.attack is None


@pytest.mark.parametrize(("choice", "most"), [("among", 2), ("source", 1)])
def test_barricade_in_the_source_is_an_option(choice: str, most: int) -> None:
    """A13 ``barricade``: his power when he is among the attackers (``among``) or whenever his
    player attacks from his zone (``source``)."""
    layout = {"hexima-state": zone(PATRICK, robots=3, leader=True),
              "launch-pad": zone(OLGA, robots=3)}
    state = in_phase3(layout, current=PATRICK, forms={PATRICK: "vehicle"},
                      leaders="optimus-prime,barricade", barricade=choice)
    state = play(state, "attack from=hexima-state target=launch-pad robots=2")
    words = "1 piece" if most == 1 else f"1 to {most} pieces"
    refused(state, f"defend by=olga robots={most + 1}", f"defend with {words}")


def test_the_phase_ends_only_between_rolls() -> None:
    """Results: an attack ENDS by capture, failure or "END the attack"; the phase machine's end
    of Phase 3 takes what the rules derive and refuses a half-made attack."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3")
    with pytest.raises(IllegalAction, match="waits to defend"):
        finished(state)
    state = play(state, "defend by=patrick robots=2", "roll attacker=1,1,1 defender=6,6")
    assert finished(state).attack is None


def test_ending_phase_3_ends_an_attack_between_rolls_and_refuses_a_half_made_one() -> None:
    """Results, Outcome 2: "END the attack" — typing ``end`` between rolls ends the attack and
    the phase; an attack still waiting for the defender or the dice is refused."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3")
    refused(state, "end", "waits to defend")
    state = play(state, "defend by=patrick robots=2", "roll attacker=5,5,1 defender=5,4", "end")
    assert state.attack is None and state.phase != "attack"
    assert state.at("hexima-state") == zone(OLGA, robots=3, leader=True)


def offered(state: State) -> dict[str, tuple[str, ...]]:
    """The actions ``legal_actions`` offers now, with who may record each."""
    return {spec.type: spec.actors for spec in GAME.legal_actions(state)}


def test_each_step_of_an_attack_offers_what_it_waits_for() -> None:
    """How to Attack 1-6 and Results: the attacker declares, "The defender must say how many
    robots he is defending with", "you both roll", the loser removes, then CONTINUE or END."""
    state = in_phase3(OLGA_ATTACKS)
    assert offered(state)["attack"] == ("Olga",) and "defend" not in offered(state)
    (attack,) = [spec for spec in GAME.legal_actions(state) if spec.type == "attack"]
    choices = {field.name: field.choices for field in attack.fields}
    assert "hexima-state" in choices["from"] and "launch-pad" in choices["target"]
    assert "launch-pad" not in choices["from"] and "hexima-state" not in choices["target"]
    state = play(state, "attack from=hexima-state target=launch-pad robots=3")
    assert offered(state) == {"defend": ("Patrick",)}
    state = play(state, "defend by=patrick robots=2")
    # "At the same time: you both roll": one roll, offered to the attacker so that it is
    # recorded without by=; the defender may still type it (by=patrick)
    assert offered(state) == {"roll": ("Olga",)}
    play(state, "roll by=patrick attacker=5,5,1 defender=5,4")
    state = play(state, "roll attacker=5,5,1 defender=5,4")
    assert set(offered(state)) == {"continue", "stop", "end"}
    for action in offered(state):  # every offered action is one the rules take
        play(state, action if action != "continue" else "continue robots=1")


def test_empty_dice_are_rolled_by_tabletape() -> None:
    """How to Attack 4: "you both roll one die for each of the robots you are using"; left
    empty, tabletape rolls the right sizes (a d8 for the leader)."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=1 "
                 "leader=true", "defend by=patrick robots=2")
    event = GAME.complete(state, "Olga", event_from(parse_action("roll"), GAME.event_types()),
                          random.Random(4))
    assert [d.sides for d in event.attacker] == [8, 6]  # type: ignore[attr-defined]
    assert [d.sides for d in event.defender] == [6, 6]  # type: ignore[attr-defined]


def test_four_players_win_when_both_enemies_are_destroyed() -> None:
    """Out of Robots!: "If you destroy all enemy armies, you win the game!" (4 players: both
    enemies, M12)."""
    layout = {"hexima-state": zone(0, robots=4), "launch-pad": zone(1, robots=1),
              "kalis": zone(0, robots=1), "uraya": zone(3, robots=1)}
    state = in_phase3(layout, players=4, rest=2)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=1", "roll attacker=6,1,1 defender=1")
    assert state.seats[1].eliminated and state.phase == "attack"


# -- property: any legal battle keeps every piece accounted for ---------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(("robot", "vehicle")), st.sampled_from(("source", "rolled")),
       st.lists(st.tuples(st.integers(1, 3), st.integers(1, 2), st.booleans(), st.randoms()),
                max_size=6))
def test_any_legal_battle_keeps_every_piece(
        forms: str, casualties: str, rounds: list[tuple[int, int, bool, random.Random]]) -> None:
    """Whatever is declared, rolled and chosen, the fold keeps invariant_errors empty (checked
    after every line by :func:`play`); the attack ends captured, failed or waiting."""
    state = in_phase3({"hexima-state": zone(OLGA, robots=5, vehicles=2, leader=True),
                       "launch-pad": zone(PATRICK, robots=3, vehicles=1, leader=True)},
                      forms={OLGA: forms, PATRICK: forms}, leaders="bumblebee,barricade",
                      casualties=casualties)
    state = play(state, "attack from=hexima-state target=launch-pad robots=1")
    for attackers, defenders, leader, rng in rounds:
        fight = state.attack
        if fight is None or fight.stage != "defend":
            break
        target = state.zones[fight.target]
        most = 1 if police_car(state, fight) else defenders
        count = min(most - (leader and target.leader), target.robots)
        state = play(state, f"defend by=patrick robots={count} leader="
                     f"{str((leader and target.leader) or not count).lower()}")
        state = GAME.step(state, "Olga", GAME.complete(
            state, "Olga", event_from(parse_action("roll"), GAME.event_types()), rng))
        state = choose_all(state, rng)
        fight = state.attack
        if fight is None or fight.stage != "next":
            break
        source = state.zones[fight.source]
        count = min(attackers, source.robots, source.pieces - 1)
        if count < 1:
            break
        state = play(state, f"continue robots={count}")
    assert invariant_errors(state) == []
    assert state.attack is None or state.attack.stage in ("next", "won", "defend")


def defence(state: State, wanted: int, leader: bool) -> str:
    """What the defender declares: up to ``wanted`` pieces (one against Barricade), the leader
    first if ``leader`` and he is there, then robots, then vehicles."""
    fight = state.attack
    assert fight is not None
    target = state.zones[fight.target]
    left = min(1 if police_car(state, fight) else wanted, target.pieces)
    with_leader = (leader or left == target.pieces) and target.leader
    left -= with_leader
    robots = min(left, target.robots)
    vehicles = min(left - robots, target.vehicles)
    return f"robots={robots} vehicles={vehicles} leader={str(with_leader).lower()}"


def choose_all(state: State, rng: random.Random) -> State:
    """Take the roll's casualties, choosing at random where a side must choose (Bumblebee
    escaping to the first of his zones)."""
    while state.attack is not None and state.attack.stage == "lose":
        fight = state.attack
        index = next(i for i in (1, 0) if fight.losses[i])
        seat = (fight.attacker, fight.defender)[index]
        kind = rng.choice(eligible(state, fight, index))
        place = (fight.source, fight.target)[index]
        ways = ways_out(state, seat, place) if kind == "leader" else None
        escape = f" escape={state.places[ways[0]]}" if ways else ""
        state = play(state, f"lose by={state.name(seat)} pieces={kind}{escape}")
    return state
