"""The rules of Risk: Transformers as pure steps ``(state, seat, event) -> state``: setup here,
and the ``STEPS`` table of every event's step; ``exchange`` (3 robots for a vehicle or back,
"at any time") is here too.

``start`` stands each leader with one robot on his start zone (Setup 3 and 4); ``place`` then
puts one robot at a time on an empty zone, youngest (seat 0) first, until all 42 zones are filled
(Setup 5), and the leftover robots go as the ``leftover`` option says (A1); then the first
turn begins (:mod:`.reinforce`: the phase machine and Phase 1; :mod:`.special`: Phase 2;
:mod:`.battle`: Phase 3;
:mod:`.backup`: Phases 4 and 5; :mod:`.allspark`: the end of a day and of the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.rules.kernel import ActionSpec, FieldSpec
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
    Exchanged,
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
    EXCHANGES,
    FORMS,
    PIECES,
    TURN_PHASES,
    Seat,
    State,
    Zone,
    add_robots,
    any_empty_zone,
    controlled,
    empty_zones,
    require_word,
    with_seat,
    with_zone,
    word,
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
    places = board.places  # the zones, then the war factories
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
        refuse("robots are placed now only during setup and Phase 1 step E",
               rule="Phase 1 E: Place Your Robots")
    require_turn(state, seat, state.current, "place a robot")
    if event.count != data.SETUP_PLACING.value:
        refuse(f"during setup robots are placed one at a time, not {event.count}",
               rule="Setup 5")
    where = zone_called(state, event.zone)
    if not may_place(state, seat, where):
        allowed = allowed_places(state, seat)
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


def may_place(state: State, seat: int, place: int) -> bool:
    """Whether :func:`allowed_places` holds ``place``."""
    owner = state.zones[place].owner if place < len(state.board.zones) else None
    return owner == (NOBODY if state.phase == "setup" else seat)


def after_placing(state: State) -> State:
    """The next placer, the leftovers (A1) or the first turn."""
    if state.phase == "setup" and any_empty_zone(state):
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


# -- any time --------------------------------------------------------------------------------------

EXCHANGE = "Things to Know: You can exchange 3 robots for 1 vehicle, or vice versa, at any time"


def exchange(state: State, seat: int, event: Exchanged) -> State:
    """``exchange zone=... to=vehicle|robots``: 3 robots of one of ``seat``'s zones for a
    vehicle of his scrapheap, or back, ``count`` times; "at any time" (setup over or not), but
    not on the zones of an attack whose declared pieces still roll."""
    if state.phase == "over":
        refuse("the game is over", rule=EXCHANGE)
    if seat == NOBODY:
        refuse("the zone's owner exchanges his pieces, not the table",
               [me.name for me in state.seats], rule=EXCHANGE)
    where = reinforce.owned_zone(state, seat, event.zone, EXCHANGE)
    fight = state.attack
    if fight is not None and fight.stage in ("defend", "roll", "lose") and where in (
            fight.source, fight.target):
        refuse(f"{state.places[where]}'s pieces are in an attack that waits to "
               f"{battle.WAITS[fight.stage]}: exchange before the attack or between rolls",
               rule=EXCHANGE)
    require_word("exchange", event.to, EXCHANGES)
    if event.count < 1:
        refuse(f"exchange at least once, not {event.count} times", rule=EXCHANGE)
    zone, me = state.zones[where], state.seats[seat]
    worth = data.VEHICLE_WORTH.value * event.count
    if event.to == "vehicle":
        if zone.robots < worth or me.scrap_vehicles < event.count:
            refuse(f"{event.count} vehicle(s) for {worth} robots: {state.places[where]} holds "
                   f"{zone.robots} robots, {me.name}'s scrapheap {me.scrap_vehicles} vehicles",
                   rule=EXCHANGE)
        robots, vehicles = -worth, event.count
    else:
        if zone.vehicles < event.count or me.scrap_robots < worth:
            refuse(f"{worth} robots for {event.count} vehicle(s): {state.places[where]} holds "
                   f"{zone.vehicles} vehicles, {me.name}'s scrapheap {me.scrap_robots} robots",
                   rule=EXCHANGE)
        robots, vehicles = worth, -event.count
    state = with_zone(state, where, replace(zone, robots=zone.robots + robots,
                                            vehicles=zone.vehicles + vehicles))
    return with_seat(state, seat, scrap_robots=me.scrap_robots - robots,
                     scrap_vehicles=me.scrap_vehicles - vehicles)


def exchange_actions(state: State) -> tuple[ActionSpec, ...]:
    """``exchange`` for every player who holds 3 robots on a zone and a vehicle on his
    scrapheap, or a vehicle on a zone and 3 robots on his scrapheap: offered once the turns
    began and outside an attack (still taken during one, where :func:`exchange` allows)."""
    if state.phase not in TURN_PHASES or state.attack is not None:
        return ()
    worth = data.VEHICLE_WORTH.value
    places = {seat: [state.places[p] for p in controlled(state, seat)
                     if (state.zones[p].robots >= worth and me.scrap_vehicles)
                     or (state.zones[p].vehicles and me.scrap_robots >= worth)]
              for seat, me in enumerate(state.seats)}
    actors = tuple(state.name(seat) for seat, zones in places.items() if zones)
    if not actors:
        return ()
    zones = tuple(dict.fromkeys(z for found in places.values() for z in found))
    fields = (FieldSpec(name="zone", kind="str", choices=zones),
              FieldSpec(name="to", kind="str", choices=("vehicle", "robots")),
              FieldSpec(name="count", kind="int", required=False, doc="times (1)"))
    return (ActionSpec(type="exchange", actors=actors, fields=fields,
                       doc="3 robots for a vehicle, or back"),)


# -- what is stored -------------------------------------------------------------------------------

ZONE_FIELDS = ("zone", "from_", "target", "to", "escape")
"""Event fields that name a zone (``to`` also names a spinning position or ``open``)."""


WORDS: dict[tuple[type[Event], str], tuple[str, ...]] = {
    (Revived, "form"): FORMS, (Exchanged, "to"): EXCHANGES, (Lost, "pieces"): PIECES}
"""The fields that take one of a few words, and those words."""


def canonical(state: State, event: Event) -> Event:
    """``event`` with the zones and cards typed as names (``the arena``, ``Mass-Production``)
    stored as the board's ids and the words (``form=Vehicle``) as the rules spell them, so the
    log, the narration and the catalog read one spelling; what names nothing is left for the
    step to refuse."""
    changes: dict[str, Any] = {}
    for field in event.__struct_fields__:
        text = getattr(event, field)
        words = WORDS.get((type(event), field))
        if words and isinstance(text, tuple):
            changes[field] = tuple(word(one, words) for one in text)
        elif words and isinstance(text, str):
            changes[field] = word(text, words)
        elif not isinstance(text, str) or not text:
            continue
        elif field in ZONE_FIELDS:
            found = state.board.board.find(text)
            if found is not None and found != text:
                changes[field] = found
        elif field == "card":
            card = text.strip().casefold().replace(" ", "-")
            if card in state.board.card_ids and card != text:
                changes[field] = card
    return replace(event, **changes) if changes else event


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
    BackedUp: special.back_up,
    Jumped: backup.jump,
    Gifted: backup.gift,
    Drew: backup.draw,
    AllSpark: allspark.allspark,
    Exchanged: exchange,
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
