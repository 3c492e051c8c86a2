"""The turn's phase machine, Phase 1 (Place Robots) and Phase 2 (Morph!) of Risk: Transformers
(spec T1-T8, T13; readings A8, A10, A15, A18). Each test quotes the rulebook passage it checks."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_transformers import data, reinforce
from tabletape.rules.risk_transformers.events import (
    Changed,
    Ended,
    Morphed,
    Placed,
    Played,
    Revived,
)
from tabletape.rules.risk_transformers.state import (
    EMPTY,
    Receipt,
    State,
    Zone,
    controls_sector,
    invariant_errors,
    zones_held,
)
from tabletape.rules.risk_transformers.state import (
    with_seat as seat_with,
)
from tabletape.rules.risk_transformers.state import (
    with_zone as zone_with,
)
from tests.games.risk_transformers.helpers import GAME, dealt, playing

OLGA, PATRICK = "Olga", "Patrick"


def act(state: State, actor: str, *events: object) -> State:
    """``events`` applied in order by ``actor``; every state in between adds up."""
    for event in events:
        state = GAME.apply(state, actor, event)  # type: ignore[arg-type]
        assert invariant_errors(state) == []
    return state


def own_zone(state: State, seat: int) -> str:
    return next(state.places[p] for p, z in enumerate(state.zones) if z.owner == seat)


def take(state: State, seat: int, zone: str) -> State:
    """``zone`` taken over by one robot of ``seat`` from his scrapheap; what stood there goes to
    its owner's scrapheap (no leader may stand there)."""
    place = state.place(zone)
    was = state.zones[place]
    assert not was.leader
    if was.owner >= 0 and was.owner != seat:
        owner = state.seats[was.owner]
        state = seat_with(state, was.owner, scrap_robots=owner.scrap_robots + was.robots)
        state = zone_with(state, place, EMPTY)
    if state.zones[place].owner != seat:
        me = state.seats[seat]
        state = seat_with(state, seat, scrap_robots=me.scrap_robots - 1)
        state = zone_with(state, place, Zone(owner=seat, robots=1))
    return state


def placed_all(state: State) -> State:
    """Phase 1 step E played out: every operational robot onto the current player's first
    zone."""
    me = state.seats[state.current]
    return act(state, me.name, Placed(zone=own_zone(state, state.current),
                                      count=me.operational))


def in_phase_two(state: State) -> State:
    return act(placed_all(state), state.name(state.current), Ended())


# -- Phase 1 -----------------------------------------------------------------------------------


def test_step_a_gives_the_panel_value_for_the_zones_held() -> None:
    """Phase 1 A: "Count up all the zones you control ... Take the number of robots shown in
    the corresponding red number and place them in your operational robot pile." The turn then
    waits at step B (Play Cards)."""
    state = playing(2)
    held = zones_held(state, 0)
    assert state.received[0] == Receipt(f"{held} zones", state.board.robots_for(held))
    assert (state.phase, state.step, state.current) == ("place", "B", 0)


def test_phase_1_ends_only_when_the_pile_is_empty() -> None:
    """Phase 1: "When you have placed all your operational robots on the board, move on to
    Phase 2." """
    state = playing(2)
    left = state.seats[0].operational
    with pytest.raises(IllegalAction, match=f"still has {left} operational robots to place"):
        GAME.check(state, OLGA, Ended())
    after = act(placed_all(state), OLGA, Ended())
    assert (after.phase, after.step) == ("morph", "")


def test_robots_go_only_onto_your_own_zones() -> None:
    """Phase 1 E: "place them in any zone(s) which already has a red robot in it"."""
    state = playing(2)
    with pytest.raises(IllegalAction, match=f"Olga does not control {own_zone(state, 1)}"):
        GAME.check(state, OLGA, Placed(zone=own_zone(state, 1)))
    left = state.seats[0].operational
    with pytest.raises(IllegalAction, match=f"has {left} operational robots, cannot place "
                                            f"{left + 1}. Allowed: place. Rule: Phase 1 E: "
                                            "Place Your Robots.$"):
        GAME.check(state, OLGA, Placed(zone=own_zone(state, 0), count=left + 1))
    with pytest.raises(IllegalAction, match="it is Olga's turn"):
        GAME.check(state, PATRICK, Placed(zone=own_zone(state, 1)))


def test_mass_production_adds_three_robots_in_step_b() -> None:
    """Mass-Production: "Play on your turn in Phase 1. Place 3 extra robots this turn." Phase 1
    B: "Put them faceup on a separate discard pile"."""
    state = dealt(playing(2), 0, "mass-production")
    after = act(state, OLGA, Played(card="mass-production"))
    assert after.received[-1] == Receipt("mass-production", data.MASS_PRODUCTION.value)
    assert after.seats[0].operational == state.seats[0].operational + 3
    assert after.discard == ("mass-production",) and after.seats[0].hand == ()


def test_interlock_initiators_doubles_the_sector_bonus() -> None:
    """Phase 1 example: "Controlling the purple sector gives Red a bonus of 5 robots. This is
    doubled by Interlock Initiators, so he gets 10 robots." """
    state = playing(2)
    for zone in state.board.sector_zones("orange"):
        state = take(state, 0, zone)
    state = dealt(state, 0, "interlock-initiators")
    state = act(state, OLGA, Played(card="interlock-initiators"),
                Placed(zone=own_zone(state, 0)))
    assert Receipt("orange", 2 * state.board.bonus("orange")) in state.received
    assert state.step == "E"


def test_a_sector_bonus_without_cards() -> None:
    """Phase 1 C: "You receive extra operational robots for controlling all the zones in a
    sector." Only the sectors held in full count."""
    state = playing(2)
    for zone in state.board.sector_zones("orange"):
        state = take(state, 0, zone)
    state = act(state, OLGA, Placed(zone=own_zone(state, 0)))
    bonuses = [r for r in state.received if r.source in state.board.sectors]
    held = [s for s in state.board.sectors if controls_sector(state, 0, s)]
    assert bonuses == [Receipt(s, state.board.bonus(s)) for s in held]
    assert Receipt("orange", state.board.bonus("orange")) in bonuses


def test_cards_come_only_in_step_b_and_only_bonus_robot_cards() -> None:
    """Phase 1 B: "If you have any upgrade cards that give you bonus robots, you can play them
    now" (step B, before step E's placing; a battle card is no bonus-robot card)."""
    state = dealt(playing(2), 0, "fusion-cannons", "mass-production")
    with pytest.raises(IllegalAction, match="Fusion Cannons is not played in Phase 1"):
        GAME.check(state, OLGA, Played(card="fusion-cannons"))
    placing = act(state, OLGA, Placed(zone=own_zone(state, 0)))
    with pytest.raises(IllegalAction, match="played in Phase 1 step B"):
        GAME.check(placing, OLGA, Played(card="mass-production"))
    with pytest.raises(IllegalAction, match="Olga does not hold interlock-initiators"):
        GAME.check(state, OLGA, Played(card="interlock-initiators"))


def test_an_open_factory_gives_one_robot_per_robot_at_most_three() -> None:
    """Phase 1 D: "For each robot (or leader) you have in an open secret war factory, put one
    extra robot in your operational robot pile (maximum 3 per factory)." """
    state = playing(2)
    state = replace(state, open_factories=("decagon-factory",))
    state = take(state, 0, "decagon-factory")
    for robots, extra in ((1, 1), (5, 3)):
        ready = zone_with(state, state.place("decagon-factory"), Zone(owner=0, robots=robots))
        ready = seat_with(ready, 0, scrap_robots=state.seats[0].scrap_robots + 1 - robots)
        after = act(ready, OLGA, Placed(zone=own_zone(ready, 0)))
        assert Receipt("decagon-factory", extra) in after.received


def scrapped(state: State, seat: int) -> State:
    """``seat``'s leader on the scrapheap."""
    place = next(p for p, z in enumerate(state.zones) if z.owner == seat and z.leader)
    state = zone_with(state, place, replace(state.zones[place], leader=False))
    return seat_with(state, seat, scrapped=True)


def test_bringing_the_leader_back_costs_three_robots() -> None:
    """Bring Back Your Leader: "you can pay 3 operational robots to bring him back. Put the 3
    robots on the scrapheap and place your leader in any zone you control in either robot or
    vehicle form (your choice)." """
    state = scrapped(playing(2), 0)
    zone = own_zone(state, 0)
    after = act(state, OLGA, Revived(zone=zone, form="vehicle"))
    me, was = after.seats[0], state.seats[0]
    assert after.at(zone).leader and me.form == "vehicle" and not me.scrapped
    assert (me.operational, me.scrap_robots) == (was.operational - 3, was.scrap_robots + 3)


def test_the_leader_comes_back_only_from_the_scrapheap_in_phase_1_for_three() -> None:
    """Bring Back Your Leader: "If your leader is on your scrapheap ... you can pay 3
    operational robots" (T7: in Phase 1, with 3 still in the pile)."""
    state = playing(2)
    with pytest.raises(IllegalAction, match="leader is on the board"):
        GAME.check(state, OLGA, Revived(zone=own_zone(state, 0)))
    gone = scrapped(state, 0)
    short = seat_with(gone, 0, operational=2, scrap_robots=gone.seats[0].scrap_robots
                      + gone.seats[0].operational - 2)
    with pytest.raises(IllegalAction, match="costs 3 operational robots; Olga has 2"):
        GAME.check(short, OLGA, Revived(zone=own_zone(state, 0)))
    with pytest.raises(IllegalAction, match="only in Phase 1"):
        GAME.check(in_phase_two(gone), OLGA, Revived(zone=own_zone(state, 0)))


# -- the phase machine -------------------------------------------------------------------------


def test_the_phases_follow_in_order_then_the_next_player() -> None:
    """Taking Your Turn: "Each turn consists of 5 phases, played in the following order ...
    When you have completed all 5 phases, the next player takes a turn." """
    state = placed_all(playing(2))
    seen = []
    while state.current == 0:
        state = act(state, OLGA, Ended())
        seen.append(state.phase)
    assert seen == ["morph", "attack", "back-up", "draw", "place"]
    assert (state.current, state.turn, state.step) == (1, 2, "B")
    assert state.received[0].source == f"{zones_held(state, 1)} zones"


def test_end_of_the_turn_skips_every_phase_left() -> None:
    """``end turn=true`` ends the rest of the turn (Phases 2-5 are optional; Phase 5 draws
    only after a capture)."""
    state = act(in_phase_two(playing(2)), OLGA, Ended(turn=True))
    assert (state.phase, state.current) == ("place", 1)


def test_an_eliminated_player_is_skipped() -> None:
    """A15: eliminated players are skipped (Out of Robots!: "that player is out of the
    game")."""
    state = out_of_the_game(playing(3), 1, by=2)
    state = act(placed_all(state), OLGA, Ended(turn=True))
    assert state.current == 2


def out_of_the_game(state: State, seat: int, by: int) -> State:
    """``seat``'s army destroyed: his leader on the scrapheap, his zones ``by``'s (one robot
    each), and he is out of the game."""
    places = [p for p, zone in enumerate(state.zones) if zone.owner == seat]
    home = next(p for p in places if state.zones[p].leader)
    state = zone_with(state, home, replace(state.zones[home], leader=False))
    state = seat_with(state, seat, scrapped=True)
    for place in places:
        state = take(state, by, state.places[place])
    state = seat_with(state, seat, eliminated=True)
    assert invariant_errors(state) == []
    return state


# -- Phase 2 -----------------------------------------------------------------------------------


def test_morph_flips_the_leader_in_phase_2_only() -> None:
    """Morph Your Leader: "Flip your leader over to change him from robot form to vehicle form
    or vice versa." """
    state = playing(2)
    with pytest.raises(IllegalAction, match="only in Phase 2"):
        GAME.check(state, OLGA, Morphed())
    two = in_phase_two(state)
    assert act(two, OLGA, Morphed()).seats[0].form == "vehicle"
    assert act(two, OLGA, Morphed(), Morphed()).seats[0].form == "robot"
    with pytest.raises(IllegalAction, match="on the scrapheap"):
        GAME.check(scrapped(two, 0), OLGA, Morphed())


def test_a_change_card_turns_a_spinning_zone() -> None:
    """Change a Special Zone: "Control the special zone itself or another zone in the same
    sector, AND Play an upgrade card with a change icon on it." Spinning Zones: "Rotate the
    spinning zone to open or close a route." """
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons")
    after = act(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to="west"))
    assert after.standing["pion-tower"] == "west"
    assert "uraya" in after.board.neighbours("pion-tower", positions=after.standing,
                                             open_factories=())
    assert after.discard == ("fusion-cannons",) and after.seats[0].hand == ()
    with pytest.raises(IllegalAction, match="cannot turn to 'up'"):
        GAME.check(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to="up"))


def test_a_change_needs_the_icon_and_a_zone_of_the_sector() -> None:
    """Change a Special Zone: both conditions, "Control the special zone itself or another zone
    in the same sector" and "an upgrade card with a change icon on it"."""
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons", "mass-production")
    with pytest.raises(IllegalAction, match="Mass-Production has no change icon"):
        GAME.check(state, OLGA, Changed(card="mass-production", zone="pion-tower", to="west"))
    for zone in state.board.sector_zones("green"):
        state = take(state, 1, zone) if not state.at(zone).leader else state
    if any(state.at(z).owner == 0 for z in state.board.sector_zones("green")):
        pytest.fail("Olga's leader stands in green: the test needs another sector")
    with pytest.raises(IllegalAction, match="Olga controls no zone of pion-tower's sector"):
        GAME.check(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to="west"))


def test_rotation_step_turns_to_the_next_position_only() -> None:
    """A8 (``rotation=step``): a table that turns a spinning zone one position per card."""
    state = dealt(in_phase_two(playing(2, rotation="step")), 0, "fusion-cannons")
    positions = state.board.positions("pion-tower")
    with pytest.raises(IllegalAction, match="cannot turn to"):
        GAME.check(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower",
                                        to=positions[2]))
    act(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to=positions[1]))


def test_opening_a_sliding_zone_puts_a_scrapheap_robot_in_the_factory() -> None:
    """Sliding Zones: "Open the zone to reveal a secret war factory. Place a robot from your
    scrapheap in the war factory." An open factory counts as a zone (Phase 1 A note)."""
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons")
    held = zones_held(state, 0)
    after = act(state, OLGA, Changed(card="fusion-cannons", zone="decagon", to="open"))
    assert after.at("decagon-factory") == Zone(owner=0, robots=1)
    assert after.open_factories == ("decagon-factory",) and zones_held(after, 0) == held + 1
    assert after.seats[0].scrap_robots == state.seats[0].scrap_robots - 1
    empty = seat_with(state, 0, scrap_robots=0, scrap_vehicles=0,
                      operational=state.seats[0].scrap_robots)  # no vehicle to exchange either
    with pytest.raises(IllegalAction, match="no robot on the scrapheap"):
        GAME.check(empty, OLGA, Changed(card="fusion-cannons", zone="decagon", to="open"))


def test_closing_a_sliding_zone_crushes_what_is_in_the_factory() -> None:
    """Sliding Zones: "Close the zone. Any robots on it are crushed and returned to their
    owner's scrapheap." (Phase 2 Example 3; the leader too, A3.)"""
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons")
    state = replace(state, open_factories=("decagon-factory",))
    state = take(state, 1, "decagon-factory")
    leader = next(p for p, z in enumerate(state.zones) if z.owner == 1 and z.leader)
    state = zone_with(state, leader, replace(state.zones[leader], leader=False))
    state = zone_with(state, state.place("decagon-factory"), Zone(owner=1, robots=1,
                                                                    leader=True))
    after = act(state, OLGA, Changed(card="fusion-cannons", zone="decagon", to="closed"))
    assert after.open_factories == () and after.at("decagon-factory") == EMPTY
    assert after.seats[1].scrapped
    assert after.seats[1].scrap_robots == state.seats[1].scrap_robots + 1


def test_a_table_card_is_recorded_in_phase_2() -> None:
    """Calling for back-up (Phase 2): "There are upgrade cards which allow you to call for
    back-up in Phase 2 before an attack." A card the rules cannot check is recorded and
    discarded; the table records what it did."""
    card = next(c.id for c in playing(2).board.section.cards if c.effect == "table")
    state = dealt(in_phase_two(playing(2)), 0, card)
    after = act(state, OLGA, Played(card=card, note="back-up 3 robots"))
    assert after.discard == (card,)
    with pytest.raises(IllegalAction, match="not played in Phase 1"):
        GAME.check(dealt(playing(2), 0, card), OLGA, Played(card=card))


def test_one_card_is_used_once() -> None:
    """Upgrade cards: "Some upgrade cards have both Upgrade and Change sections. You can use one
    or the other on your turn, not both." """
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons")
    after = act(state, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to="west"))
    with pytest.raises(IllegalAction, match="does not hold fusion-cannons"):
        GAME.check(after, OLGA, Changed(card="fusion-cannons", zone="pion-tower", to="east"))


# -- what the table sees -----------------------------------------------------------------------


def offered(state: State) -> dict[str, dict[str, tuple[str, ...]]]:
    """The actions offered now: each field's choices, by action."""
    return {spec.type: {f.name: f.choices for f in spec.fields}
            for spec in GAME.legal_actions(state)}


def test_the_actions_offered_follow_the_steps() -> None:
    """Phase 1: step B's cards, then placing until the pile is empty ("When you have placed all
    your operational robots on the board, move on to Phase 2"); Phase 2: morph and change."""
    state = dealt(playing(2), 0, "mass-production", "fusion-cannons")
    now = offered(state)
    assert set(now) == {"play", "place"} and now["play"]["card"] == ("mass-production",)
    assert set(now["place"]["zone"]) == {own for own in state.places
                                         if state.at(own).owner == 0}
    placed = placed_all(state)
    assert set(offered(placed)) == {"end", "exchange"}  # 3 robots for a vehicle "at any time"
    assert GAME.turn(placed).detail.endswith("Olga has placed them all: end")
    two = offered(act(placed, OLGA, Ended()))
    assert set(two) == {"morph", "change", "end", "exchange"}
    assert two["change"]["card"] == ("fusion-cannons",)


def test_the_turn_says_what_phase_1_gave() -> None:
    """Phase 1 example: "Controlling 23 zones gives Red 7 operational robots ... Mass-Production
    gives Red 3 extra operational robots": the turn tells the table what each step gave."""
    state = act(dealt(playing(2), 0, "mass-production"), OLGA, Played(card="mass-production"))
    info = GAME.turn(state)
    held = zones_held(state, 0)
    robots = state.board.robots_for(held)
    assert (info.turn, info.round, info.phase, info.active) == (
        1, 1, "Phase 1: place robots, step B", ("Olga",))
    kept = state.received[1].robots  # playing(): leftover=keep, counted in the first turn
    assert info.detail.startswith(f"day 1: Olga receives {robots + kept + 3} robots: {robots} "
                                  f"for {held} zones, {kept} for setup's leftovers (A1), 3 for "
                                  "mass-production; ")


def test_a_card_before_an_attack_waits_for_the_attack() -> None:
    """Fusion Cannons: "Play before you attack. Add 1 to each die for this attack." In Phase 3,
    before an attack, the card is discarded and kept among the turn's played cards for the
    attack to take."""
    state = dealt(in_phase_two(playing(2)), 0, "fusion-cannons", "mass-production")
    with pytest.raises(IllegalAction, match="Fusion Cannons is not played in Phase 2"):
        GAME.check(state, OLGA, Played(card="fusion-cannons"))
    three = act(state, OLGA, Ended())
    assert offered(three)["play"]["card"] == ("fusion-cannons",)
    after = act(three, OLGA, Played(card="fusion-cannons"))
    assert after.played == ("fusion-cannons",) and after.discard == ("fusion-cannons",)
    with pytest.raises(IllegalAction, match="Mass-Production is not played before an attack"):
        GAME.check(after, OLGA, Played(card="mass-production"))


def test_the_round_hook_runs_once_everyone_has_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking Your Turn: "When all players have taken a turn, the round is over": the round's
    hook (the AllSpark and the day, built next) runs after the last seat's Phase 5, and a game
    it ends starts no turn."""
    rounds = []

    def over(state: State) -> State:
        rounds.append(state.current)
        return replace(state, phase="over")

    monkeypatch.setattr(reinforce, "end_of_round", over)
    state = act(placed_all(playing(2)), OLGA, Ended(turn=True))
    assert rounds == [] and state.current == 1
    state = act(placed_all(state), PATRICK, Ended(turn=True))
    assert rounds == [1] and state.phase == "over"
