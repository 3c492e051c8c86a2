"""Phase 4, "Call for Back-Up" (T10), and Phase 5, "Draw a Card" (T11).

``back-up`` moves pieces once per turn (A7, the leader may go too) from one zone to a connected
zone of the player's, leaving one piece behind: "Zones are connected if you control all the
neighboring zones between them", through a teammate's zones with 4 players. ``jump`` moves
Optimus Prime in vehicle form to any zone the player controls, besides the back-up move, never
emptying a zone. ``gift`` (4 players) gives a zone to the teammate instead of the back-up move:
its pieces go to the giver's scrapheap (the leader too, A16) and a robot of the teammate's
scrapheap stands there; Optimus may still jump after a gift unless ``gift-jump=false`` (A17).
:func:`move` is the back-up move itself, shared with the Phase 2 back-up card
(:func:`.special.back_up`), which does not use up this phase's move.

``draw`` is Phase 5: one card if the player captured another player's zone this turn, none
otherwise; the card may be named or drawn face down (``""`` in the hand); an empty draw pile is
the discards reshuffled (A11). Drawing ends the turn; ``end`` refuses while the card is owed.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from tabletape.rules.kernel import ActionSpec, FieldSpec
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.battle import (
    as_force,
    check_pieces,
    eliminate,
    one_to,
    shift,
)
from tabletape.rules.risk_transformers.events import BackedUp, Drew, Gifted, Jumped
from tabletape.rules.risk_transformers.reinforce import card_owed, next_turn, owned_zone
from tabletape.rules.risk_transformers.state import (
    Force,
    State,
    Zone,
    card_called,
    controlled,
    is_unseen,
    live_places,
    scrap_units,
    take_scrap_robots,
    teammates,
    unseen,
    with_seat,
    with_zone,
)
from tabletape.rules.steps import refuse, require_turn

PHASE_FOUR = "Phase 4: Call for Back-Up"
PHASE_FIVE = "Phase 5: Draw a Card"
Action = Callable[[tuple[str, ...]], ActionSpec]

# -- Phase 4 ---------------------------------------------------------------------------------------


def require_phase_four(state: State, seat: int, what: str) -> None:
    if state.phase != "back-up":
        also = " (or in Phase 2 with a back-up card)" if what == "call for back-up" else ""
        refuse(f"{what} only in Phase 4 (Call for Back-Up){also}", rule=PHASE_FOUR)
    require_turn(state, seat, state.current, what)


def back_up(state: State, seat: int, event: BackedUp) -> State:
    """``back-up from=... to=...``: "Take as many robots as you want from one zone (remembering
    to leave at least one robot behind) and move them to a connected zone"."""
    require_phase_four(state, seat, "call for back-up")
    if event.card:
        refuse("Phase 4's back-up move needs no card (a back-up card is played in Phase 2)",
               rule=PHASE_FOUR)
    if state.backed_up:
        refuse("one back-up move per turn (or a gift instead) has been made", rule=PHASE_FOUR)
    return replace(move(state, seat, event, PHASE_FOUR), backed_up=True)


def move(state: State, seat: int, event: BackedUp, rule: str) -> State:
    """The back-up move itself, the same in Phase 4 and with a Phase 2 card: pieces of one zone
    (one left behind) to a connected zone of ``seat``'s."""
    source = owned_zone(state, seat, event.from_, rule)
    target = owned_zone(state, seat, event.to, rule)
    force = as_force(event)
    check_pieces(state, source, force)
    if not 1 <= force.dice < state.zones[source].pieces:
        refuse(f"move {one_to(state.zones[source].pieces - 1)} from "
               f"{state.places[source]}: leave at least one robot behind", rule=rule)
    if source == target or target not in connected(state, seat, source):
        refuse(f"{state.places[target]} is not connected to {state.places[source]}",
               [state.places[p] for p in sorted(connected(state, seat, source)) if p != source
                and state.zones[p].owner == seat],
               rule=f"{rule}: Zones are connected if you control all the neighboring zones "
               "between them")
    return shift(state, source, target, force)


def connected(state: State, seat: int, source: int) -> set[int]:
    """The places reachable from ``source`` through zones ``seat`` (or, with 4 players, its
    teammate: "You can call for back-up through your teammate's zones") controls."""
    friends = {seat, *teammates(state, seat)}
    live = set(live_places(state))
    table = state.board.neighbour_table(state.positions, state.open_factories)
    zones = state.zones
    reached, todo = {source}, [source]
    while todo:
        for near in table[todo.pop()]:
            if near in live and near not in reached and zones[near].owner in friends:
                reached.add(near)
                todo.append(near)
    return reached


def jump(state: State, seat: int, event: Jumped) -> State:
    """``jump to=...``: "In vehicle form OPTIMUS PRIME can jump to any of your zones in Phase 4,
    even if they are not connected"; "You can move Optimus Prime as well as calling for
    back-up"; "Remember: you cannot leave a zone empty"."""
    require_phase_four(state, seat, "jump with Optimus Prime")
    rule = "Phase 4: OPTIMUS PRIME"
    me = state.seats[seat]
    if me.leader != data.OPTIMUS or me.form != data.VEHICLE or me.scrapped:
        refuse(f"only Optimus Prime on the board in vehicle form jumps ({me.name}'s leader: "
               f"{me.leader}, {'scrapped' if me.scrapped else me.form + ' form'})", rule=rule)
    if state.jumped:
        refuse("Optimus Prime has jumped this turn", rule=rule)
    if state.gifted and not state.settings.options.gift_jump:
        refuse("a zone was gifted this turn (gift-jump=false)", rule="4-Player Game (A17)")
    source = next(p for p in controlled(state, seat) if state.zones[p].leader)
    target = owned_zone(state, seat, event.to, rule)
    if target == source:
        refuse(f"Optimus Prime already stands on {state.places[target]}", rule=rule)
    if state.zones[source].pieces < 2:
        refuse(f"Optimus Prime is alone on {state.places[source]}: you cannot leave a zone "
               "empty", rule=rule)
    return replace(shift(state, source, target, Force(leader=True)), jumped=True)


def gift(state: State, seat: int, event: Gifted) -> State:
    """``gift zone=...`` (4 players): "give a zone to your teammate instead of calling for
    back-up": "Put all robots from that zone on your scrapheap" (the leader too, A16), then
    "Your teammate puts a robot from his scrapheap into the zone. He now owns that zone"."""
    rule = "Phase 4: 4-Player Game"
    require_phase_four(state, seat, "give a zone to a teammate")
    mates = [mate for mate in teammates(state, seat) if not state.seats[mate].eliminated]
    if not mates:
        refuse("zones are given only to a teammate still in the game, with 4 players",
               rule=f"{rule}; Out of Robots!: you are out of the game")
    if state.backed_up:
        refuse("a zone is given instead of calling for back-up, once a turn", rule=rule)
    if state.jumped and not state.settings.options.gift_jump:
        refuse("Optimus Prime has jumped this turn (gift-jump=false)", rule="4-Player Game (A17)")
    where = owned_zone(state, seat, event.zone, rule)
    mate = mates[0]
    if not scrap_units(state, mate):
        refuse(f"{state.name(mate)} has no robot on his scrapheap to put into the zone",
               rule=rule)
    state = scrap_zone(state, seat, where)
    state = with_zone(state, where, Zone(owner=mate, robots=1))
    state, _ = take_scrap_robots(state, mate, 1)
    return replace(eliminate(state, seat), backed_up=True, gifted=True)


def scrap_zone(state: State, seat: int, place: int) -> State:
    """Every piece of ``seat`` on ``place`` to its scrapheap, the leader too (A16)."""
    zone, me = state.zones[place], state.seats[seat]
    state = with_seat(state, seat, scrap_robots=me.scrap_robots + zone.robots,
                      scrap_vehicles=me.scrap_vehicles + zone.vehicles,
                      scrapped=me.scrapped or zone.leader)
    return with_zone(state, place, Zone())


# -- Phase 5 ---------------------------------------------------------------------------------------


def draw(state: State, seat: int, event: Drew) -> State:
    """``draw [card=...]``: "If you captured another player's zone on this turn, draw an upgrade
    card"; "You can only draw one card per turn". The turn is then over."""
    if state.phase != "draw":
        refuse("a card is drawn only in Phase 5", rule=PHASE_FIVE)
    require_turn(state, seat, state.current, "draw a card")
    if not state.captured:
        refuse(f"{state.name(seat)} captured no zone of another player this turn: no card",
               rule="Phase 5: If you captured another player's zone on this turn, draw an "
               "upgrade card")
    if not card_owed(state):
        refuse("the draw pile and the discards are empty: there is no card to draw",
               rule=PHASE_FIVE)
    state = reshuffled(state)
    card = card_called(state, event.card).id if event.card else ""
    if card and not is_unseen(state, card):
        refuse(f"{card} is not in the draw pile", sorted(set(unseen(state))), rule=PHASE_FIVE)
    state = with_seat(state, seat, hand=(*state.seats[seat].hand, card))
    return next_turn(replace(state, pile=state.pile - data.CARDS_PER_TURN.value))


def reshuffled(state: State) -> State:
    """A11: an empty draw pile is the discards, shuffled face down."""
    if state.pile:
        return state
    return replace(state, pile=len(state.discard), discard=())


# -- what may be recorded now ----------------------------------------------------------------------


def phase_four_actions(state: State) -> list[Action]:
    """Phase 4: the back-up move (while some zone has one, :func:`route_fields`) or (4
    players) a gift, and Optimus's jump."""
    seat = state.current
    mine = tuple(state.places[p] for p in controlled(state, seat))
    found: list[Action] = []
    if not state.backed_up:
        fields = route_fields(state, seat)
        if fields:
            found.append(offer("back-up", fields, "pieces to a connected zone"))
        mates = [m for m in teammates(state, seat) if not state.seats[m].eliminated]
        if mates and may_gift_or_jump(state, state.jumped):
            found.append(offer("gift", (FieldSpec(name="zone", kind="str", choices=mine),),
                               "a zone to your teammate instead of back-up"))
    if may_jump(state):
        found.append(offer("jump", (FieldSpec(name="to", kind="str", choices=mine),),
                           "Optimus Prime in vehicle form to any of your zones"))
    return found


def routes(state: State, seat: int) -> dict[int, list[int]]:
    """Each zone of ``seat``'s that can call for back-up, with where its pieces may go: a zone
    with 2 or more pieces ("remembering to leave at least one robot behind") and another zone
    of ``seat``'s connected to it (:func:`connected`); a zone with none is left out."""
    found = {}
    for source in controlled(state, seat):
        if state.zones[source].pieces <= 1:  # its one piece stays behind
            continue
        targets = sorted(p for p in connected(state, seat, source)
                         if p != source and state.zones[p].owner == seat)
        if targets:
            found[source] = targets
    return found


def route_fields(state: State, seat: int, *first: FieldSpec) -> tuple[FieldSpec, ...]:
    """The fields of a back-up move for ``seat`` (after ``first``): ``from`` the zones with a
    route, ``to`` where they lead, the pieces; () when no zone has a route (the move cannot
    be made)."""
    found = routes(state, seat)
    if not found:
        return ()
    targets = sorted({target for reach in found.values() for target in reach})
    return (*first,
            FieldSpec(name="from", kind="str", choices=tuple(state.places[p] for p in found)),
            FieldSpec(name="to", kind="str", choices=tuple(state.places[p] for p in targets)),
            *(FieldSpec(name=name, kind=kind, required=False)
              for name, kind in (("robots", "int"), ("vehicles", "int"), ("leader", "bool"))))


def may_gift_or_jump(state: State, other: bool) -> bool:
    """A17: a gift and a jump in one turn only with ``gift-jump=true``."""
    return not other or state.settings.options.gift_jump


def may_jump(state: State) -> bool:
    """Optimus Prime in vehicle form stands with company and has not jumped this turn."""
    me = state.seats[state.current]
    if me.leader != data.OPTIMUS or me.form != data.VEHICLE or me.scrapped or state.jumped:
        return False
    home = [p for p in controlled(state, state.current) if state.zones[p].leader]
    return bool(home) and state.zones[home[0]].pieces >= 2 and may_gift_or_jump(state,
                                                                                state.gifted)


def phase_five_actions(state: State) -> list[Action]:
    """Phase 5: ``draw`` while a card is owed."""
    if not card_owed(state):
        return []
    card = FieldSpec(name="card", kind="str", required=False, choices=tuple(
        dict.fromkeys(unseen(reshuffled(state)))), doc="empty: face down")
    return [offer("draw", (card,), "the upgrade card for a capture")]


def offer(kind: str, fields: tuple[FieldSpec, ...], doc: str) -> Action:
    return lambda actors: ActionSpec(type=kind, actors=actors, fields=fields, doc=doc)
