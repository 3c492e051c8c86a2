"""What the Risk: Transformers state derives, and the conservation checks every event must pass."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.risk_transformers.state import (
    State,
    Zone,
    controls_sector,
    invariant_errors,
    robot_units,
    teammates,
    unseen,
    with_seat,
    with_zone,
    zones_held,
)
from tests.games.risk_transformers.helpers import started


def factory(state: State) -> tuple[int, str]:
    """The first war factory: its place and the sector of its sliding zone (A18)."""
    place = len(state.board.zones)
    return place, state.board.sector_of(state.places[place])


def opened(state: State, seat: int) -> State:
    """The first factory open with one robot of ``seat`` in it (taken from its pile)."""
    place, _ = factory(state)
    state = replace(state, open_factories=(state.places[place],))
    state = with_zone(state, place, Zone(owner=seat, robots=1))
    return with_seat(state, seat, operational=state.seats[seat].operational - 1)


def test_an_open_factory_counts_as_a_zone() -> None:
    """Phase 1 A: "Note: If a secret war factory is open, it counts as one of the sector's
    zones." A closed one is no zone (A3)."""
    state = started(2)
    assert zones_held(state, 0) == 1
    assert zones_held(opened(state, 0), 0) == 2
    assert invariant_errors(opened(state, 0)) == []


def test_pieces_on_a_closed_factory_do_not_add_up() -> None:
    """Sliding Zones: closing "Any robots on it are crushed": nothing stands on a closed one."""
    state = replace(opened(started(2), 0), open_factories=())
    assert any("closed factory" in error for error in invariant_errors(state))


def test_a_sector_needs_every_zone_and_its_open_factory() -> None:
    """Phase 1 C: "You receive extra operational robots for controlling all the zones in a
    sector", an open factory included (T4, A18)."""
    state = started(2)
    _, sector = factory(state)
    for zone in state.board.sector_zones(sector):
        state = with_zone(state, state.place(zone), Zone(owner=0, robots=1))
    assert controls_sector(state, 0, sector)
    assert not controls_sector(opened(state, 1), 0, sector)
    assert not controls_sector(state, 1, sector)


def test_robot_units_count_a_vehicle_as_three_robots() -> None:
    """Setup 3: "Vehicle (worth 3 robots)"; a leader alone holds a zone as a robot (A6)."""
    state = started(2)
    start = state.place(state.board.start_zone(state.seats[0].leader))
    state = with_zone(state, start, Zone(owner=0, robots=2, vehicles=1, leader=True))
    assert robot_units(state, 0) == 6


def test_a_missing_robot_is_named() -> None:
    """Every robot is on the board, operational or on the scrapheap (Setup 3)."""
    state = started(2)
    short = with_seat(state, 0, operational=state.seats[0].operational - 1)
    assert invariant_errors(short) == [
        "Olga: 1 robots on the board + 28 operational + 15 on the scrapheap and 0 + 10 "
        "vehicles are 74 robot units, not the set's 75"]


def test_pieces_add_up_in_robot_units() -> None:
    """Setup 3: "Vehicle (worth 3 robots)"; Things to Know: "You can exchange 3 robots for 1
    vehicle, or vice versa, at any time": a vehicle on the scrapheap turned into 3 robots there
    keeps the set whole; a vehicle more than the set has does not."""
    state = started(2)
    olga = state.seats[0]
    exchanged = with_seat(state, 0, scrap_vehicles=olga.scrap_vehicles - 1,
                          scrap_robots=olga.scrap_robots + 3)
    assert invariant_errors(exchanged) == []
    extra = with_seat(state, 0, scrap_vehicles=olga.scrap_vehicles + 1,
                      scrap_robots=olga.scrap_robots - 3)
    assert invariant_errors(extra) == [
        "Olga: 0 vehicles on the board + 11 on the scrapheap, more than the set's 10"]


def test_a_leader_is_in_one_place() -> None:
    """Setup 4: one leader each, on the board or on the scrapheap."""
    state = started(2)
    twice = with_seat(state, 0, scrapped=True)
    assert any("Olga: leader on 1 zones and on the scrapheap" in e for e in invariant_errors(twice))


def test_every_card_is_somewhere() -> None:
    """Components: "42 upgrade cards": in the draw pile, the discards or a hand."""
    state = started(2)
    assert state.pile == 42 and invariant_errors(state) == []
    drawn = with_seat(replace(state, pile=41), 0, hand=("",))
    assert invariant_errors(drawn) == []
    assert invariant_errors(replace(state, pile=41)) == [
        "cards: 41 in the pile + 0 discarded + 0 in hands, not 42"]


def test_what_the_draw_pile_may_hold() -> None:
    """Phase 5: "Keep the card hidden from other players until you are ready to play it.
    Whenever you play an upgrade card, place it faceup on the discard pile": a card face up or
    known in a hand is not in the draw pile (DESIGN rule 4)."""
    state = started(2)
    first, second = state.board.card_ids[:2]
    assert len(unseen(state)) == 42
    state = with_seat(replace(state, pile=39, discard=(first,)), 0, hand=(second, ""))
    assert invariant_errors(state) == []
    assert first not in unseen(state) and second not in unseen(state)
    assert len(unseen(state)) == 40  # the pile's 39 and Olga's face-down card


def test_teammates_sit_opposite_with_four_players() -> None:
    """Setup 2: "4 PLAYERS (ALLIED FORCES): play in 2 teams ... sit opposite your teammate";
    with 2 or 3 players nobody has a teammate."""
    four = started(4)
    assert [teammates(four, seat) for seat in range(4)] == [[2], [3], [0], [1]]
    three = started(3)
    assert [teammates(three, seat) for seat in range(3)] == [[], [], []]


def test_no_zone_is_empty_once_setup_is_over() -> None:
    """Things to Know: "A zone must never be empty during the game. It must always contain at
    least one robot or a leader." (Setup 5 fills them first.)"""
    state = started(2)
    assert invariant_errors(state) == []
    playing = replace(state, phase="place")
    assert len([e for e in invariant_errors(playing) if "must never be empty" in e]) == 40
