"""The state of a Risk: Transformers game and the small pure changes the rules are built from.

Places are indexes into :attr:`State.places`: the board's 42 zones, then the war factories
(a factory is a zone only while open, A3/A18). Players are seat indexes; ``NOBODY`` (-1) owns
no place. Robots and vehicles are counted as pieces: "You can exchange 3 robots for 1 vehicle,
or vice versa, at any time" swaps pieces with the player's scrapheap, so every robot, vehicle
and leader of a set is always on the board, in the operational pile or on the scrapheap
(:func:`invariant_errors`, in robot units: a scrapheap short of robots pays with its vehicles,
3 robots each, :func:`take_scrap_robots`, ``scrap-vehicles=exchange``). What the rules derive
(zones held, sectors, robot units) are functions of the state, never stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from tabletape.rules import seats
from tabletape.rules.dice import Die
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.board import Card, Cybertron
from tabletape.rules.risk_transformers.options import Settings
from tabletape.rules.seats import NOBODY, TABLE, UnknownName
from tabletape.rules.steps import put

PHASES = ("setup", "leftover", "place", "morph", "attack", "back-up", "draw", "allspark", "over")
"""Where the game is, in table words: ``setup`` (S5, a robot at a time on an empty zone),
``leftover`` (A1 ``leftover=place``: the rest onto your own zones), the turn's five phases
(``place`` … ``draw``, Phase 1 to 5), ``allspark`` (the end of a day: the AllSpark card is
turned before the next turn) and ``over``."""
SETUP = PHASES[:1]
"""The phase in which zones may still be empty (Setup 5 fills them)."""
TURN_PHASES = PHASES[2:7]


class Zone(msgspec.Struct, frozen=True, gc=False):
    """What stands on one place: one player's pieces, or nothing."""

    owner: int = NOBODY
    robots: int = 0
    vehicles: int = 0
    """Vehicles, each "worth 3 robots"."""
    leader: bool = False
    """The owner's leader stands here."""

    @property
    def pieces(self) -> int:
        """Robots, vehicles and the leader: "A zone must never be empty"."""
        return self.robots + self.vehicles + self.leader

    @property
    def units(self) -> int:
        """Robot units: a vehicle is 3 robots; the leader counts as one (A6)."""
        return self.robots + data.VEHICLE_WORTH.value * self.vehicles + self.leader


EMPTY = Zone()


class Seat(msgspec.Struct, frozen=True, gc=False):
    """One player: leader, faction, team, and the pieces and cards off the board."""

    name: str
    leader: str
    """The leader's id (:data:`.data.LEADERS`)."""
    faction: str
    team: int
    """4 players: the faction's first seat; otherwise the seat itself."""
    operational: int
    """Robots in the operational pile (placed in Phase 1 step E, or at setup)."""
    scrap_robots: int
    scrap_vehicles: int
    form: str = data.START_FORM.value
    """The leader's form, ``robot`` or ``vehicle`` (kept on the scrapheap: chosen anew when he
    comes back)."""
    scrapped: bool = False
    """The leader is on the scrapheap."""
    hand: tuple[str, ...] = ()
    """Upgrade cards in hand by id; ``""`` a card drawn face down, not known yet."""
    eliminated: bool = False


class Force(msgspec.Struct, frozen=True, gc=False):
    """Pieces of one side fighting in a battle."""

    robots: int = 0
    vehicles: int = 0
    leader: bool = False

    @property
    def dice(self) -> int:
        """One die per robot, vehicle and leader."""
        return self.robots + self.vehicles + self.leader


class Fight(msgspec.Struct, frozen=True, gc=False):
    """The attack in progress, from one source zone to one target zone (Phase 3)."""

    attacker: int
    defender: int
    source: int
    target: int
    attacking: Force
    defending: Force | None = None
    """None until the defender declares."""
    attacker_dice: tuple[Die, ...] = ()
    """The last roll as recorded (bonuses are applied by :func:`tabletape.rules.dice.settle`)."""
    defender_dice: tuple[Die, ...] = ()
    pluses: tuple[int | None, int | None] = (None, None)
    """Where the attacker's and the defender's robot-form +1 went on this roll (a position in
    the roll as recorded, :class:`tabletape.rules.dice.Bonus` ``at``); None: not placed."""
    losses: tuple[int, int] = (0, 0)
    """Casualties each side still has to remove after the roll."""
    rounds: int = 0
    """Rolls so far in this attack."""
    cards: tuple[str, ...] = ()
    """Cards played "for this attack"."""
    stage: str = "defend"
    """What the attack waits for: ``defend``, ``roll``, ``lose`` (casualties pending), ``next``
    (continue or stop) or ``won`` (captured: more pieces may move in)."""
    chosen: bool = False
    """A casualty of this roll was taken, chosen or derived (no ``plus-one`` after that: it
    would count the roll's casualties again)."""
    counted: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """The last roll as it counts, each side's dice in the order recorded with the cards' and
    the leaders' +1s on them (derived when it is settled: the status shows it after the
    casualties, when the pieces that gave a bonus may be gone)."""


class Receipt(msgspec.Struct, frozen=True, gc=False):
    """Robots a player received in Phase 1, and why: ``15 zones`` (step A), a card's id (step
    B), a sector's id (step C) or a war factory's id (step D); derived, never recorded."""

    source: str
    robots: int
    short: int = 0
    """Robots it gave that the scrapheap did not hold (A10: "place what exists")."""
    exchanged: int = 0
    """Vehicles on the scrapheap exchanged for 3 robots each to pay it
    (:func:`take_scrap_robots`)."""


class State(msgspec.Struct, frozen=True, gc=False):
    """Everything the rules know after some events."""

    settings: Settings
    places: tuple[str, ...]
    """Place ids: the board's zones, then the war factories."""
    zones: tuple[Zone, ...]
    """What stands on each place."""
    seats: tuple[Seat, ...]
    positions: tuple[str, ...]
    """Each spinning zone's position, in the board's order."""
    open_factories: tuple[str, ...] = ()
    """War factories open now (their sliding zones slid open)."""
    phase: str = "setup"
    """One of :data:`PHASES`."""
    step: str = ""
    """Phase 1's step, ``A`` to ``E``."""
    day: int = 0
    """1 to 6 once play begins (0 during setup)."""
    current: int = 0
    """The seat placing (setup) or taking the turn."""
    turn: int = 0
    captured: bool = False
    """The current player captured another player's zone this turn (Phase 5 draws a card)."""
    backed_up: bool = False
    """Phase 4's back-up move (or, 4 players, a gift instead) is made."""
    gifted: bool = False
    """4 players: a zone was given to the teammate this turn (A17)."""
    jumped: bool = False
    attack: Fight | None = None
    played: tuple[str, ...] = ()
    """Cards played this turn that last "this turn"."""
    received: tuple[Receipt, ...] = ()
    """What the current player received in Phase 1 this turn, step by step (for narration:
    "Olga receives 7 robots: 5 for 15 zones, 2 for yellow")."""
    pile: int = 0
    """Cards in the draw pile, face down."""
    discard: tuple[str, ...] = ()
    """Face-up discard pile, oldest first (the AllSpark card last after a day ends)."""

    # -- lookups -------------------------------------------------------------------------------

    @property
    def board(self) -> Cybertron:
        return self.settings.board

    def name(self, seat: int) -> str:
        """The seat's player, or ``table`` for the table itself (``by=table``; never the last
        seat by a negative index)."""
        return TABLE if seat == NOBODY else self.seats[seat].name

    def place(self, place_id: str) -> int:
        """The index of a place id (ValueError for none)."""
        places = self.places
        board = self.settings.board
        if places is board.places:  # as every game starts: the board's table answers
            found = board.place_index.get(place_id)
            if found is not None:
                return found
        return places.index(place_id)

    def at(self, place_id: str) -> Zone:
        return self.zones[self.place(place_id)]

    @property
    def standing(self) -> dict[str, str]:
        """Each spinning zone's position, by zone (what :meth:`Cybertron.neighbours` takes)."""
        return dict(zip(self.board.spinning, self.positions, strict=True))


# -- derived values --------------------------------------------------------------------------------


def live_places(state: State) -> list[int]:
    """The places that are zones now: the board's zones and the open factories (A3, T2)."""
    count = len(state.board.zones)
    return [*range(count), *(state.place(f) for f in state.open_factories)]


def is_live(state: State, place: int) -> bool:
    """Whether ``place`` is a zone now (:func:`live_places` holds it)."""
    return place < len(state.board.zones) or state.places[place] in state.open_factories


def controls(state: State, seat: int, place: int) -> bool:
    """Whether ``place`` is a zone now holding ``seat``'s pieces (:func:`controlled` holds it)."""
    return state.zones[place].owner == seat and is_live(state, place)


def controlled(state: State, seat: int) -> list[int]:
    """The places that are zones now and hold ``seat``'s pieces ("You control any zone that
    contains one of your robots")."""
    return [p for p in live_places(state) if state.zones[p].owner == seat]


class Refused(IllegalAction):
    """A rule's refusal whose "did you mean" looks only at typed values that name no zone or
    card of the board: ``place zone=blue-2`` on a taken zone is refused for the rule, and is
    no typo of ``blue-6``."""

    def __init__(self, error: IllegalAction, board: Cybertron) -> None:
        super().__init__(error.reason, allowed=error.allowed, rule=error.rule)
        self.board = board

    def suggesting(self, typed: Sequence[str]) -> IllegalAction:
        unknown = [text for text in typed if self.board.board.find(text) is None
                   and text.strip().casefold().replace(" ", "-") not in self.board.card_ids]
        return super().suggesting(unknown)


def unknown(what: str, text: str, names: tuple[str, ...]) -> UnknownName:
    """The refusal of ``text``, no ``what`` of ``names``, with "did you mean" for a near miss.

    >>> unknown("zone", "urya", ("uraya", "kalis")).message()
    "no zone called 'urya' (did you mean 'uraya'?). Allowed: uraya, kalis."
    """
    return seats.unknown(f"no {what} called '{text}'", text, names)


FORMS = (data.ROBOT, data.VEHICLE)
"""A leader's forms, as ``revive form=`` takes them."""
EXCHANGES = ("vehicle", "robots")
"""What ``exchange to=`` gives: a vehicle for 3 robots, or 3 robots for a vehicle."""
PIECES = ("robot", "vehicle", "leader")
"""The kinds of casualty ``lose pieces=`` names."""


def word(text: str, words: tuple[str, ...]) -> str:
    """The word of ``words`` that ``text`` means, in any case, singular or plural; ``text``
    itself when it means none.

    >>> word("Vehicles", ("vehicle", "robots")), word("robot", ("vehicle", "robots"))
    ('vehicle', 'robots')
    """
    folded = text.strip().casefold()
    for one in words:
        if folded in (one, one.removesuffix("s"), one + "s"):
            return one
    return text


def require_word(what: str, text: str, words: tuple[str, ...]) -> None:
    """Refuse (exit 2, "did you mean") a ``text`` that is none of ``words``."""
    if text not in words:
        raise unknown(what, text, words)


def zone_called(state: State, text: str) -> int:
    """The place a typed id or name means (any case, spaces as ``-``); refused with "did you
    mean" and the zones (exit 2)."""
    found = state.board.find(text)
    if found is None:
        raise unknown("zone", text, state.board.zones)
    return state.place(found)


def card_called(state: State, text: str) -> Card:
    """The board's card a typed id or name means (any case, spaces as ``-``); refused with
    "did you mean" and the cards (exit 2)."""
    found = text.strip().casefold().replace(" ", "-")
    if found not in state.board.card_ids:
        raise unknown("upgrade card", text, state.board.card_ids)
    return state.board.card(found)


def zones_held(state: State, seat: int) -> int:
    """Zones ``seat`` controls, an open factory counted ("an open factory counts as a zone")."""
    zones = state.zones
    held = sum(1 for zone in zones[:len(state.board.zones)] if zone.owner == seat)
    return held + sum(zones[state.place(f)].owner == seat for f in state.open_factories)


def sector_places(state: State, sector: str) -> tuple[str, ...]:
    """A sector's zones and its open factories (A18: a factory is its sliding zone's sector)."""
    return state.board.sector_zones(sector, state.open_factories)


def controls_sector(state: State, seat: int, sector: str) -> bool:
    """Whether ``seat`` controls every zone of ``sector``, its open factory included (T4)."""
    return all(state.at(place).owner == seat for place in sector_places(state, sector))


def robot_units(state: State, seat: int) -> int:
    """``seat``'s robot units on the board (a vehicle 3, the leader 1)."""
    return sum(zone.units for zone in state.zones if zone.owner == seat)


def on_board(state: State, seat: int) -> tuple[int, int, int]:
    """``seat``'s robots, vehicles and leaders on the board."""
    mine = [zone for zone in state.zones if zone.owner == seat]
    return (sum(z.robots for z in mine), sum(z.vehicles for z in mine),
            sum(z.leader for z in mine))


def any_empty_zone(state: State) -> bool:
    """Whether :func:`empty_zones` finds one."""
    zones = state.zones
    return any(zones[p].owner == NOBODY for p in range(len(state.board.zones)))


def empty_zones(state: State) -> list[int]:
    """The board's zones nobody holds (Setup 5 fills them)."""
    return [p for p in range(len(state.board.zones)) if state.zones[p].owner == NOBODY]


def teammates(state: State, seat: int) -> list[int]:
    """The other seats of ``seat``'s team (4 players); none otherwise."""
    team = state.seats[seat].team
    return [s for s, me in enumerate(state.seats) if me.team == team and s != seat]


def sides(state: State) -> dict[int, tuple[int, ...]]:
    """The seats of each side by team: with 4 players the two factions, otherwise each seat
    alone."""
    found: dict[int, tuple[int, ...]] = {}
    for seat, me in enumerate(state.seats):
        found[me.team] = (*found.get(me.team, ()), seat)
    return found


def armies_left(state: State) -> list[int]:
    """The sides (teams) with an army still in the game; one left: it destroyed every other."""
    return [team for team, seats in sides(state).items()
            if not all(state.seats[s].eliminated for s in seats)]


def is_unseen(state: State, card: str) -> bool:
    """Whether ``card`` is among :func:`unseen` (a copy of it neither discarded nor known in a
    hand), without listing them."""
    seen = state.discard.count(card) + sum(me.hand.count(card) for me in state.seats)
    return state.board.deck[card] > seen


def unseen(state: State) -> tuple[str, ...]:
    """What the table knows of the draw pile: the board's cards neither face up on the discard
    pile nor known in a hand (the pile's and the face-down hands' cards are among these; DESIGN
    rule 4). A card id once per copy, in the board's order."""
    seen = Counter(state.discard)
    seen.update(card for me in state.seats for card in me.hand if card)
    left = []
    for card in state.board.card_ids:
        if seen[card]:
            seen[card] -= 1
        else:
            left.append(card)
    return tuple(left)


# -- small pure changes ----------------------------------------------------------------------------


def with_seat(state: State, seat: int, **changes: object) -> State:
    return replace(state, seats=put(state.seats, seat, replace(state.seats[seat], **changes)))


def with_zone(state: State, place: int, zone: Zone) -> State:
    """``zone`` on ``place`` (a zone with no pieces left belongs to nobody)."""
    return replace(state, zones=put(state.zones, place, kept(zone)))


def kept(zone: Zone) -> Zone:
    """``zone``, or :data:`EMPTY` when no piece is left on it (it belongs to nobody)."""
    return zone if zone.robots + zone.vehicles + zone.leader else EMPTY


def with_zones(state: State, first: int, zone: Zone, second: int, other: Zone) -> State:
    """:func:`with_zone` twice, in one copy: ``zone`` on ``first``, then ``other`` on
    ``second``."""
    zones = list(state.zones)
    zones[first] = kept(zone)
    zones[second] = kept(other)
    return replace(state, zones=tuple(zones))


def scrap_payment(robots: int, vehicles: int, wanted: int, exchange: bool = True
                  ) -> tuple[int, int]:
    """How ``wanted`` robots are paid from a scrapheap of ``robots`` and ``vehicles``: the robots
    given and the vehicles exchanged for 3 robots each to give them ("You can exchange 3 robots
    for 1 vehicle, or vice versa, at any time"), only as many as the robots there lack; with
    ``exchange`` off the vehicles stay (A10: what the robots hold).

    >>> scrap_payment(1, 10, 5)
    (5, 2)
    >>> scrap_payment(0, 1, 5)
    (3, 1)
    >>> scrap_payment(0, 1, 5, exchange=False)
    (0, 0)
    """
    worth = data.VEHICLE_WORTH.value
    lacking = max(0, wanted - robots)
    used = min(vehicles, -(-lacking // worth)) if exchange else 0
    return min(wanted, robots + worth * used), used


def take_scrap_robots(state: State, seat: int, wanted: int) -> tuple[State, Receipt]:
    """``wanted`` robots off ``seat``'s scrapheap, paid in robot units under
    ``scrap-vehicles=exchange`` (:func:`scrap_payment`; the robots an exchange leaves over stay
    on the scrapheap); the receipt says how many came, how many were short (A10) and how many
    vehicles were exchanged. Every taker of scrapheap robots goes through here."""
    me = state.seats[seat]
    given, used = scrap_payment(me.scrap_robots, me.scrap_vehicles, wanted, exchanges(state))
    state = with_seat(state, seat, scrap_vehicles=me.scrap_vehicles - used,
                      scrap_robots=me.scrap_robots + data.VEHICLE_WORTH.value * used - given)
    return state, Receipt("", given, short=wanted - given, exchanged=used)


def scrap_units(state: State, seat: int) -> int:
    """The robots ``seat``'s scrapheap can give (:func:`scrap_payment`: its vehicles count 3
    each under ``scrap-vehicles=exchange``)."""
    me = state.seats[seat]
    return me.scrap_robots + data.VEHICLE_WORTH.value * me.scrap_vehicles * exchanges(state)


def exchanges(state: State) -> bool:
    """Whether a scrapheap's vehicles pay for its robots (``scrap-vehicles=exchange``)."""
    return state.settings.options.scrap_vehicles == "exchange"


def add_robots(state: State, seat: int, place: int, count: int) -> State:
    """``count`` of ``seat``'s robots from the operational pile onto ``place``."""
    zone, me = state.zones[place], state.seats[seat]
    return replace(
        state, zones=put(state.zones, place, kept(replace(zone, owner=seat,
                                                          robots=zone.robots + count))),
        seats=put(state.seats, seat, replace(me, operational=me.operational - count)))


# -- conservation ----------------------------------------------------------------------------------


def invariant_errors(state: State) -> list[str]:
    """What does not add up; an empty list means every piece and card is accounted for.

    Each seat's robots and vehicles (on the board + operational + scrapheap) are the set
    (:data:`.data.ARMY`) in robot units, a vehicle 3 robots (a vehicle on a scrapheap exchanged
    for 3 robots, :func:`take_scrap_robots`, leaves the units as they were), never more vehicles
    than the set has; each leader on exactly one zone or on the scrapheap, in a form he
    has; no place owned with nothing on it, none with pieces and no owner; no pieces on a
    closed factory; once setup is over no zone empty ("A zone must never be empty during the
    game"); every card in the pile, the discards or a hand, each known card one of the board's
    and no more copies of it than the board has; an eliminated player with nothing on the board
    and no cards; the attack in progress between its players' zones, its pieces still there.
    """
    errors, tally = zone_scan(state)
    for seat, me in enumerate(state.seats):
        errors.extend(seat_errors(state, seat, me, tally[seat]))
    return errors + card_errors(state) + attack_errors(state)


def zone_scan(state: State) -> tuple[list[str], list[tuple[int, int, int]]]:
    """One pass over the places: what is wrong with them (owned with nothing on them or holding
    pieces of nobody, pieces on a closed factory, an empty zone once setup is over), and each
    seat's robots, vehicles and leaders on the board."""
    errors = []
    count = len(state.seats)
    robots, vehicles, leaders = [0] * count, [0] * count, [0] * count
    live, filling = set(live_places(state)), state.phase in SETUP
    for place, zone in enumerate(state.zones):
        owner, pieces = zone.owner, zone.robots + zone.vehicles + zone.leader
        if owner != NOBODY:
            robots[owner] += zone.robots
            vehicles[owner] += zone.vehicles
            leaders[owner] += zone.leader
        if (owner == NOBODY) != (pieces == 0) or zone.robots < 0 or zone.vehicles < 0:
            errors.append(f"{state.places[place]}: owner {owner} with {pieces} pieces")
        if pieces and place not in live:
            errors.append(f"{state.places[place]} is a closed factory but holds pieces")
        elif not pieces and not filling and place in live:
            errors.append(f"{state.places[place]} is empty (a zone must never be empty)")
    return errors, list(zip(robots, vehicles, leaders, strict=True))


def card_errors(state: State) -> list[str]:
    """The cards: pile + discards + hands = the board's deck; each known card one of the
    board's, no more copies than it has."""
    known = [*state.discard, *(card for me in state.seats for card in me.hand if card)]
    held = sum(len(me.hand) for me in state.seats)
    errors = []
    if state.pile < 0 or state.pile + len(state.discard) + held != len(state.board.card_ids):
        errors.append(f"cards: {state.pile} in the pile + {len(state.discard)} discarded + "
                      f"{held} in hands, not {len(state.board.card_ids)}")
    if len(set(known)) == len(known) and state.board.deck.keys() >= set(known):
        return errors  # each known card once, each the board's
    extra = sorted(card for card, count in Counter(known).items()
                   if count > state.board.deck[card])
    if extra:
        errors.append(f"cards seen more often than the board has them: {', '.join(extra)}")
    return errors


def attack_errors(state: State) -> list[str]:
    """The attack in progress: from the attacker's zone to the defender's, its attackers
    (before a capture) still on the source and its defenders on the target."""
    fight = state.attack
    if fight is None or fight.stage == "won":
        return []
    source, target = state.zones[fight.source], state.zones[fight.target]
    errors = []
    if (source.owner, target.owner) != (fight.attacker, fight.defender):
        errors.append(f"attack from {state.places[fight.source]} to "
                      f"{state.places[fight.target]} between seats {source.owner} and "
                      f"{target.owner}, not {fight.attacker} and {fight.defender}")
    for force, zone in ((fight.attacking, source), (fight.defending, target)):
        if force is not None and fight.stage in ("defend", "roll") and not fits(force, zone):
            errors.append(f"{force} do not stand on their zone ({zone})")
    return errors


def fits(force: Force, zone: Zone) -> bool:
    """Whether ``zone`` holds the pieces of ``force``."""
    return (force.robots <= zone.robots and force.vehicles <= zone.vehicles
            and force.leader <= zone.leader)


def seat_errors(state: State, seat: int, me: Seat,
                tally: tuple[int, int, int] | None = None) -> list[str]:
    """One seat's pieces against its set (``tally``: its pieces on the board, when counted
    already); an eliminated seat holds nothing."""
    army = data.ARMY.value
    robots, vehicles, leaders = tally or on_board(state, seat)
    errors = []
    if me.eliminated and (robots + vehicles + leaders or me.hand):
        errors.append(f"{me.name} is out of the game but has {robots + vehicles + leaders} "
                      f"pieces on the board and {len(me.hand)} cards")
    if me.form not in data.FORMS:
        errors.append(f"{me.name}'s leader is in no form: {me.form!r}")
    worth = data.VEHICLE_WORTH.value
    units = robots + me.operational + me.scrap_robots + worth * (vehicles + me.scrap_vehicles)
    if units != army["robots"] + worth * army["vehicles"]:
        errors.append(f"{me.name}: {robots} robots on the board + {me.operational} operational "
                      f"+ {me.scrap_robots} on the scrapheap and {vehicles} + "
                      f"{me.scrap_vehicles} vehicles are {units} robot units, not the set's "
                      f"{army['robots'] + worth * army['vehicles']}")
    if vehicles + me.scrap_vehicles > army["vehicles"]:
        errors.append(f"{me.name}: {vehicles} vehicles on the board + {me.scrap_vehicles} on "
                      f"the scrapheap, more than the set's {army['vehicles']}")
    if leaders + me.scrapped != 1:
        errors.append(f"{me.name}: leader on {leaders} zones and "
                      f"{'on' if me.scrapped else 'off'} the scrapheap")
    if min(me.operational, me.scrap_robots, me.scrap_vehicles) < 0:
        errors.append(f"{me.name}: a negative count")
    return errors
