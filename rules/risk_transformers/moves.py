"""The rules of Risk: Transformers as pure steps ``(state, seat, event) -> state``: setup here,
and the ``STEPS`` table of every event's step.

``start`` stands each leader with one robot on his start zone (Setup 3 and 4); ``place`` then
puts one robot at a time on an empty zone, youngest (seat 0) first, until all 42 zones are filled
(Setup 5), and the leftover robots go as the ``leftover`` option says (A1); then the first
turn begins (:mod:`.reinforce`: the phase machine and Phase 1; :mod:`.special`: Phase 2;
:mod:`.battle`: Phase 3;
:mod:`.backup`: Phases 4 and 5; :mod:`.allspark`: the end of a day and of the game).
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from tabletape.rules.risk_transformers import allspark, backup, battle, data, reinforce, special
from tabletape.rules.risk_transformers.events import (
    AllSpark,
    Attacked,
    BackedUp,
    Changed,
    Continued,
    Defended,
    Drew,
    Ended,
    Gifted,
    Jumped,
    Lost,
    Morphed,
    MovedIn,
    Placed,
    Played,
    PlusOne,
    Revived,
    Rolled,
    Stopped,
)
from tabletape.rules.risk_transformers.options import Settings, closed_position
from tabletape.rules.risk_transformers.state import (
    EMPTY,
    Seat,
    State,
    Zone,
    add_robots,
    empty_zones,
    zone_called,
)
from tabletape.rules.seats import NOBODY
from tabletape.rules.steps import Steps, refuse, require_turn

TITLE = "Risk: Transformers"

# -- setup -----------------------------------------------------------------------------------------


def start_state(found: Settings, players: Sequence[str]) -> State:
    """Setup 3 and 4: "Count out 30 robots", the rest of the set on the scrapheap; each leader
    "and one operational robot on the leader's start zone", standing in robot form."""
    board = found.board
    places = (*board.zones, *factories(found))
    zones = [EMPTY] * len(places)
    seats = []
    army = data.ARMY.value
    for seat, (name, leader) in enumerate(zip(players, found.leaders, strict=True)):
        zones[places.index(board.start_zone(leader))] = Zone(
            owner=seat, robots=data.START_ROBOTS.value, leader=True)
        seats.append(Seat(
            name=name, leader=leader, faction=found.factions[seat], team=found.teams[seat],
            operational=data.OPERATIONAL.value - data.START_ROBOTS.value,
            scrap_robots=army["robots"] - data.OPERATIONAL.value,
            scrap_vehicles=army["vehicles"]))
    return State(settings=found, places=places, zones=tuple(zones), seats=tuple(seats),
                 positions=spinning_start(found), pile=len(board.card_ids))


def factories(found: Settings) -> tuple[str, ...]:
    """The war factories' ids, in the board's order of sliding zones."""
    return tuple(found.board.factories.values())


def spinning_start(found: Settings) -> tuple[str, ...]:
    """Each spinning zone's start position: closed (A2, ``spinning-start=closed``) or the board
    file's (``spinning-start=board``)."""
    board = found.board
    if found.options.spinning_start == "closed":
        return tuple(closed_position(board, zone) for zone in board.spinning)
    starts = board.start_positions()
    return tuple(starts[zone] for zone in board.spinning)


def place(state: State, seat: int, event: Placed) -> State:
    """Setup 5: "take turns placing a robot on an empty zone until all zones contain a robot";
    then (A1, ``leftover=place``) one robot at a time on your own zones until all are down."""
    if state.phase == "place":
        return reinforce.place(state, seat, event)
    if state.phase not in ("setup", "leftover"):
        refuse("robots are placed now only during setup and Phase 1 step E")
    require_turn(state, seat, state.current, "place a robot")
    if event.count != data.SETUP_PLACING.value:
        refuse(f"during setup robots are placed one at a time, not {event.count}",
               rule="Setup 5")
    where = zone_called(state, event.zone)
    allowed = allowed_places(state, seat)
    if where not in allowed:
        words = ("an empty zone" if state.phase == "setup"
                 else "a zone you control (every zone is filled)")
        refuse(f"{state.places[where]} is taken: place on {words}",
               [state.places[p] for p in allowed], rule="Setup 5")
    return after_placing(add_robots(state, seat, where, 1))


def allowed_places(state: State, seat: int) -> list[int]:
    """Where ``seat`` may place its robot now: an empty zone, or (leftovers) its own zones."""
    if state.phase == "setup":
        return empty_zones(state)
    return [p for p in range(len(state.board.zones)) if state.zones[p].owner == seat]


def after_placing(state: State) -> State:
    """The next placer, the leftovers (A1) or the first turn."""
    if state.phase == "setup" and empty_zones(state):
        return replace(state, current=next_placer(state))
    leftovers = any(me.operational for me in state.seats)
    if state.settings.options.leftover == "place" and leftovers:
        return replace(state, phase="leftover", current=next_placer(state))
    return first_turn(state)


def next_placer(state: State) -> int:
    """The next seat clockwise from the current one with robots left to place."""
    count = len(state.seats)
    for offset in range(1, count + 1):
        seat = (state.current + offset) % count
        if state.seats[seat].operational:
            return seat
    return NOBODY


def first_turn(state: State) -> State:
    """Day 1 begins: "The youngest player takes the first turn", Phase 1 step A."""
    return reinforce.begin_turn(replace(state, day=1), 0)


STEPS: Steps[State] = Steps(TITLE, {
    Placed: place,
    Revived: reinforce.revive,
    Ended: reinforce.end_phase,
    Played: special.play,
    Morphed: special.morph,
    Changed: special.change,
    Attacked: battle.attack,
    Defended: battle.defend,
    Rolled: battle.roll,
    PlusOne: battle.plus_one,
    Lost: battle.lose,
    Continued: battle.again,
    Stopped: battle.stop,
    MovedIn: battle.move_in,
    BackedUp: backup.back_up,
    Jumped: backup.jump,
    Gifted: backup.gift,
    Drew: backup.draw,
    AllSpark: allspark.allspark,
})


def step(state: State, seat: int, event: object) -> State:
    """The state after ``seat``'s event, or a refusal (every event once the game is over)."""
    if state.phase == "over":
        refuse(allspark.over_words(state))
    if state.phase == "allspark" and not isinstance(event, AllSpark):
        refuse(f"{allspark.over_words(state)} first (allspark [card=...])",
               ["allspark"], rule=allspark.ROUNDS)
    after = STEPS.find(event)(state, seat, event)  # type: ignore[arg-type]
    return reinforce.out_of_turn(after)
