"""The phase machine and Phase 1, "Place Robots" (T1–T7).

A turn runs ``place`` (Phase 1) → ``morph`` (2) → ``attack`` (3) → ``back-up`` (4) → ``draw``
(5), then the next seat not eliminated (A15); after the last seat, the round's AllSpark and the
next day (:mod:`.allspark`, T12). ``end`` finishes the current phase; Phase 1 ends
only when the operational pile is empty (T6).

Phase 1's steps are compulsory and in order (T1). Step A is derived as the turn begins, so the
turn waits at step B, where only bonus-robot cards may be ``play``\\ ed (T3). The first ``place``
(or ``end``) closes step B: steps C (sector bonuses, doubled by Interlock Initiators) and D (war
factories) are derived and the turn is at step E, placing until the pile is empty. What each
step gave is kept in :attr:`State.received` for narration. ``revive`` brings the scrapped leader
back at any point of Phase 1 for 3 robots of the pile (T7).
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.battle import finished
from tabletape.rules.risk_transformers.events import Ended, Placed, Revived
from tabletape.rules.risk_transformers.state import (
    FORMS,
    TURN_PHASES,
    Receipt,
    State,
    add_robots,
    controlled,
    controls,
    controls_sector,
    require_word,
    take_scrap_robots,
    with_seat,
    with_zone,
    zone_called,
    zones_held,
)
from tabletape.rules.seats import NOBODY
from tabletape.rules.steps import refuse, require_turn

BONUS_STEP = "B"
"""Phase 1's step where bonus-robot cards are played (steps A, C and D are derived)."""
PLACING_STEP = "E"

# -- the phase machine -----------------------------------------------------------------------------


def begin_turn(state: State, seat: int) -> State:
    """``seat``'s turn begins at Phase 1: step A, "Count Your Zones", is derived at once (the
    panel's robots for the zones held, an open factory counted) and the turn waits at step B."""
    zones = zones_held(state, seat)
    robots = state.board.robots_for(zones) if zones else 0
    kept = state.seats[seat].operational  # A1 leftover=keep: setup's leftovers, first turn only
    state = replace(state, phase="place", step=BONUS_STEP, current=seat, turn=state.turn + 1,
                    captured=False, backed_up=False, gifted=False, jumped=False, attack=None,
                    played=(), received=())
    state = receive(state, Receipt(f"{zones} zone{'' if zones == 1 else 's'}", robots))
    if kept:
        state = replace(state, received=(*state.received, Receipt(KEPT, kept)))
    return state


KEPT = "setup's leftovers (A1)"
"""The receipt naming the robots kept from setup for the first Phase 1 (``leftover=keep``):
already in the operational pile, so the headline's total is what is to be placed."""


def end_phase(state: State, seat: int, event: Ended) -> State:
    """``end``: the current phase is over (``turn=true``: every phase left, stopping at Phase 5
    while a card is owed)."""
    if state.phase not in TURN_PHASES:
        refuse("there is no phase to end now: the turns have not begun",
               rule="Setup 5: take turns placing a robot on an empty zone")
    require_turn(state, seat, state.current, "end a phase")
    if state.attack is not None:  # an attack between rolls ends with the phase
        state = finished(state)
    state = next_phase(state)
    while (event.turn and state.current == seat and state.phase in TURN_PHASES[1:]
           and not card_owed(state)):
        state = next_phase(state)
    return state


def next_phase(state: State) -> State:
    """The phase after the current one; after Phase 5, the next player's turn."""
    if state.phase == "place":
        state = close_bonus_step(state)
        if state.seats[state.current].operational:
            refuse(f"{state.name(state.current)} still has "
                   f"{state.seats[state.current].operational} operational robots to place",
                   rule="Phase 1: When you have placed all your "
                   "operational robots on the board, move on to Phase 2")
    if state.phase == "draw":
        return next_turn(draw_card(state))
    following = TURN_PHASES[TURN_PHASES.index(state.phase) + 1]
    return replace(state, phase=following, step="")


def draw_card(state: State) -> State:
    """Phase 5 ends with ``end``: refused while a card is owed ("If you captured another
    player's zone on this turn, draw an upgrade card", T11); :func:`.backup.draw` draws it."""
    if card_owed(state):
        refuse(f"{state.name(state.current)} captured a zone this turn: draw the card first "
               "(draw [card=...]; empty: face down)", rule="Phase 5: Draw a Card")
    return state


def card_owed(state: State) -> bool:
    """Phase 5 owes the current player a card: a capture this turn and a card in the draw pile
    or, reshuffled (A11), the discards."""
    return state.phase == "draw" and state.captured and bool(state.pile or state.discard)


def end_of_round(state: State) -> State:
    """After the last player's Phase 5 (A19: the last seat from the youngest still in the game):
    the round waits for the AllSpark card (``allspark card=...``, :mod:`.allspark`), which then
    moves the day marker; with no card left in the draw pile or the discards, the day moves at
    once (:data:`.data.NO_ALLSPARK_CARD`)."""
    if state.pile or state.discard:
        return replace(state, phase="allspark", step="", attack=None)
    return new_day(state)


def new_day(state: State) -> State:
    """Rounds 2: "Move the vehicle marker to the next square of the day counter": the first
    seat still in the game begins day N+1; "If there are no days left, the game is over"."""
    if state.day >= data.DAYS.value:
        return replace(state, phase="over", step="", attack=None)
    state = replace(state, day=state.day + 1)
    return begin_turn(state, next(s for s, me in enumerate(state.seats) if not me.eliminated))


def next_turn(state: State) -> State:
    """The next seat clockwise that is still in the game (A15); the end of the round when the
    turn order wraps around past the last seat."""
    seat = next_seat(state)
    if seat <= state.current:
        return end_of_round(state)
    return begin_turn(state, seat)


def out_of_turn(state: State) -> State:
    """Out of Robots!: "you are out of the game!": a player put out during his own turn (by a
    gift of his last zone, or a factory closed on his last robots) plays none of it left; the
    next seat's turn begins."""
    if state.phase in TURN_PHASES and state.seats[state.current].eliminated:
        return next_turn(replace(state, attack=None))
    return state


def next_seat(state: State) -> int:
    """The next seat clockwise from the current one that is not eliminated (A15: "eliminated
    players are skipped"); the current seat when every other is out."""
    count = len(state.seats)
    for offset in range(1, count + 1):
        seat = (state.current + offset) % count
        if not state.seats[seat].eliminated:
            return seat
    return state.current


# -- Phase 1 ---------------------------------------------------------------------------------------


def receive(state: State, *receipts: Receipt) -> State:
    """``receipts`` into the current player's operational pile from his scrapheap (the rest of
    his set, paid in robot units: :func:`.state.take_scrap_robots`), noted in :attr:`received`;
    a scrapheap with too little gives what it has (A10), the shortfall noted so the table sees
    why."""
    for receipt in receipts:
        if receipt.robots:
            state, paid = take_scrap_robots(state, state.current, receipt.robots)
            me = state.seats[state.current]
            state = with_seat(state, state.current, operational=me.operational + paid.robots)
            noted = replace(paid, source=receipt.source)
            state = replace(state, received=(*state.received, noted))
    return state


def close_bonus_step(state: State) -> State:
    """Steps C and D after the cards of step B; nothing when step B is already over."""
    if state.step != BONUS_STEP:
        return state
    state = receive(state, *sector_bonuses(state), *factory_robots(state))
    return replace(state, step=PLACING_STEP)


def sector_bonuses(state: State) -> list[Receipt]:
    """Step C: each sector the current player fully controls, its bonus times the multipliers of
    the cards played this turn (Interlock Initiators: "Double your sector bonus this turn")."""
    factor = 1
    for card in state.played:
        effect = state.board.card(card).effect
        if effect.startswith("sector-bonus*"):
            factor *= int(effect.removeprefix("sector-bonus*"))
    return [Receipt(sector, state.board.bonus(sector) * factor)
            for sector in state.board.sectors if controls_sector(state, state.current, sector)]


def factory_robots(state: State) -> list[Receipt]:
    """Step D: "For each robot (or leader) you have in an open secret war factory, put one extra
    robot in your operational robot pile (maximum 3 per factory)" (a vehicle counts as 3)."""
    receipts = []
    for factory in state.open_factories:
        zone = state.at(factory)
        if zone.owner == state.current:
            receipts.append(Receipt(factory, min(zone.units, data.FACTORY_MAX.value)))
    return receipts


def require_phase_one(state: State, seat: int, what: str) -> None:
    """Refuse unless it is ``seat``'s Phase 1."""
    if state.phase != "place":
        refuse(f"{what} only in Phase 1 (Place Robots)", rule="Phase 1: Place Robots")
    require_turn(state, seat, state.current, what)


def owned_zone(state: State, seat: int, text: str, rule: str) -> int:
    """The typed zone, refused unless ``seat`` controls it."""
    where = zone_called(state, text)
    if not controls(state, seat, where):
        mine = controlled(state, seat)
        refuse(f"{state.name(seat)} does not control {state.places[where]}",
               [state.places[p] for p in mine], rule=rule)
    return where


def place(state: State, seat: int, event: Placed) -> State:
    """Step E, "Place Your Robots": operational robots "in any zone(s) which already has a
    [robot of yours] in it" (T6); the first placing ends step B (steps C and D are derived)."""
    require_phase_one(state, seat, "place robots")
    state = close_bonus_step(state)
    left = state.seats[seat].operational
    if not 1 <= event.count <= left:
        refuse(f"{state.name(seat)} has {left} operational robots, cannot place {event.count}",
               rule="Phase 1 E: Place Your Robots")
    where = owned_zone(state, seat, event.zone, "Phase 1 E: zone(s) which already has a "
                       "robot of yours in it")
    return add_robots(state, seat, where, event.count)


def revive(state: State, seat: int, event: Revived) -> State:
    """Bring Back Your Leader (T7): "pay 3 operational robots to bring him back. Put the 3 robots
    on the scrapheap and place your leader in any zone you control in either robot or vehicle
    form"; only while he is on the scrapheap and 3 are still in the pile."""
    rule = "Bring Back Your Leader"
    require_word("form", event.form, FORMS)
    require_phase_one(state, seat, "bring a leader back")
    me = state.seats[seat]
    cost = data.LEADER_RETURN.value
    if not me.scrapped:
        refuse(f"{me.name}'s leader is on the board, not on the scrapheap", rule=rule)
    if me.operational < cost:
        refuse(f"bringing the leader back costs {cost} operational robots; {me.name} has "
               f"{me.operational}", rule=rule)
    where = owned_zone(state, seat, event.zone, rule)
    state = with_seat(state, seat, operational=me.operational - cost,
                      scrap_robots=me.scrap_robots + cost, scrapped=False, form=event.form)
    return with_zone(state, where, replace(state.zones[where], leader=True))


def bonus_cards_allowed(state: State) -> bool:
    """Whether it is step B, where bonus-robot cards may be played."""
    return state.phase == "place" and state.step == BONUS_STEP


def placeable(state: State) -> list[str]:
    """The zones the current player may place on (step E) or bring the leader back to."""
    return [state.places[p] for p in controlled(state, state.current)]


# -- where the turn is, in table words -------------------------------------------------------------

PHASE_WORDS = {"place": "Phase 1: place robots", "morph": "Phase 2: morph",
               "attack": "Phase 3: attack", "back-up": "Phase 4: back-up",
               "draw": "Phase 5: draw a card", "allspark": "the AllSpark (the day is over)",
               "over": "the game is over"}


def phase_words(state: State) -> str:
    """The phase as the table says it (``Phase 1: place robots, step E``); setup as ``setup``."""
    words = PHASE_WORDS.get(state.phase, state.phase)
    return f"{words}, step {state.step}" if state.phase == "place" else words


def received_words(state: State) -> str:
    """``7 robots: 5 for 15 zones, 2 for yellow`` (what Phase 1 gave so far this turn); a
    scrapheap that ran short says so: ``0 robots: 0 for 21 zones (7 short: the scrapheap
    holds no more robots, A10)``."""
    total = sum(r.robots for r in state.received)
    parts = ", ".join(f"{r.robots} for {r.source}{payment_words(r)}" for r in state.received)
    return f"{total} robots: {parts}" if parts else "no robots"


def payment_words(receipt: Receipt) -> str:
    """How the scrapheap paid a receipt, when not simply in robots.

    >>> payment_words(Receipt("15 zones", 5, exchanged=1))
    ' (1 vehicle on the scrapheap exchanged for 3 robots)'
    >>> payment_words(Receipt("15 zones", 0, short=5))
    ' (5 short: the scrapheap holds no more robots, A10)'
    """
    words = []
    if receipt.exchanged:
        vehicles = "1 vehicle" if receipt.exchanged == 1 else f"{receipt.exchanged} vehicles"
        each = " each" if receipt.exchanged > 1 else ""
        words.append(f"{vehicles} on the scrapheap exchanged for 3 robots{each}")
    if receipt.short:
        words.append(f"{receipt.short} short: the scrapheap holds no more robots, A10")
    return f" ({'; '.join(words)})" if words else ""


def turn_detail(state: State) -> str:
    """A sentence for people: who does what now."""
    name = state.name(state.current) if state.current != NOBODY else ""
    if state.phase in ("setup", "leftover"):
        return setup_detail(state, name)
    if state.phase not in TURN_PHASES:
        return f"day {state.day}" if state.day else "setup"
    if state.phase != "place":
        return f"day {state.day}, {name}'s {PHASE_WORDS[state.phase]}"
    left = state.seats[state.current].operational
    doing = ("may play bonus-robot cards, then places" if state.step == BONUS_STEP
             else "places")
    then = f"{doing} {left} operational robots" if left else "has placed them all: end"
    return f"day {state.day}: {name} receives {received_words(state)}; {name} {then}"


def setup_detail(state: State, name: str) -> str:
    """Setup 5 in table words: who places a robot where, and how many are left."""
    left = state.seats[state.current].operational
    if state.phase == "setup":
        empty = sum(not state.zones[p].pieces for p in range(len(state.board.zones)))
        return f"setup: {name} places a robot on an empty zone ({empty} empty, {left} to place)"
    return f"setup: {name} places a leftover robot on a zone of his ({left} to place, A1)"
