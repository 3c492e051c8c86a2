"""A random legal player of Risk: Transformers: deterministic for a seed, attacking where it has
the edge so games end with captures and eliminations, and using every mechanism on the way.

Every candidate comes from an action type :meth:`~.game.RiskTransformers.legal_actions` offers
now, and is tried through the rules' own step (:func:`.moves.step`) with the dice or the card
tabletape would fill in (:meth:`~.game.RiskTransformers.complete`); the first, in a weighted
random order, that the rules accept is played (:func:`tabletape.rules.bots.first_legal`). An
action type the bot has no proposer for (a later phase's) gets one candidate built from its
fields' choices, so a new action never leaves the bot stuck.

How it plays: setup robots next to its own zones; Phase 1 bonus cards, its leader back when
scrapped, the operational pile on a front zone (its biggest, mostly); Phase 2 a morph now and
then, a special zone changed with a change card, a card for the table; Phase 3 attacks where its
pieces outnumber the target's (Megatron in vehicle form flies at a lone piece), its leader in
the fight half the time, Fusion Cannons before an attack, a robot-form +1 on the die it helps
most, casualties robots first (Bumblebee escaping); Phase 4 the back-up move from an inner zone
to a front one, Optimus's jump to the front, now and then a gift to the teammate; Phase 5 a card
named (face down one time in ten).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator

from tabletape.ledger.events import Event, event_type
from tabletape.rules import dice
from tabletape.rules.actions import ParsedAction, event_from
from tabletape.rules.bots import Candidate, first_legal
from tabletape.rules.dice import ATTACKER, DEFENDER
from tabletape.rules.kernel import ActionSpec, Rules
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.backup import connected
from tabletape.rules.risk_transformers.battle import (
    choice_needed,
    eligible,
    has_plus,
    neighbours,
    outcome,
    put_plus,
    ways_out,
)
from tabletape.rules.risk_transformers.events import (
    EVENTS,
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
from tabletape.rules.risk_transformers.moves import step
from tabletape.rules.risk_transformers.special import to_place, turns
from tabletape.rules.risk_transformers.state import (
    Fight,
    Force,
    State,
    Zone,
    controlled,
    robot_units,
    sector_places,
    teammates,
)

NOTE = "bot: the table applies it"
"""The ``note`` of a card played for an upgrade the table applies."""
TRIAL_DICE = random.Random(0)
"""Dice for trying a roll left empty (its faces never reach the event the bot returns)."""
TYPES = {event_type(cls): cls for cls in EVENTS}
Proposer = Callable[[State, ActionSpec, random.Random], Iterator[Candidate]]


def choose(rules: Rules[State], state: State, rng: random.Random) -> tuple[str, Event] | None:
    """A legal ``(actor, event)``, or None when nothing may be recorded (the game is over)."""
    candidates = [candidate for spec in rules.legal_actions(state)
                  for candidate in PROPOSERS.get(spec.type, from_choices)(state, spec, rng)]

    def attempt(seat: int, event: Event) -> Event:
        step(state, seat, rules.complete(state, state.name(seat), event, TRIAL_DICE))
        return event

    chosen = first_legal(candidates, rng, attempt)
    return None if chosen is None else (state.name(chosen[0]), chosen[1])


def choices(spec: ActionSpec, name: str) -> tuple[str, ...]:
    """The choices ``spec`` offers for its field ``name``."""
    return next(field.choices for field in spec.fields if field.name == name)


def seat_of(state: State, name: str) -> int:
    return next(seat for seat, me in enumerate(state.seats) if me.name == name)


def from_choices(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """One candidate for an action the bot knows nothing of: each field one of its choices
    (a required field without choices: none)."""
    values = {}
    for field in spec.fields:
        if field.choices:
            values[field.name] = rng.choice(field.choices)
        elif field.required:
            return
    event = event_from(ParsedAction(spec.type, values, None), TYPES)
    yield 1.0, seat_of(state, spec.actors[0]), event


# -- board reading -------------------------------------------------------------------------------


def enemies(state: State, seat: int) -> frozenset[int]:
    """The seats ``seat`` may attack: neither itself nor a teammate."""
    return foes_of(len(state.seats), seat, tuple(teammates(state, seat)))


@functools.cache
def foes_of(players: int, seat: int, mates: tuple[int, ...]) -> frozenset[int]:
    return frozenset(s for s in range(players) if s != seat and s not in mates)


def enemy_near(state: State, seat: int, place: int) -> list[int]:
    """The enemy places next to ``place``."""
    foes = enemies(state, seat)
    return [p for p in neighbours(state, place) if state.zones[p].owner in foes]


def fronts(state: State, seat: int) -> list[int]:
    """``seat``'s zones next to an enemy zone."""
    return [p for p in controlled(state, seat) if enemy_near(state, seat, p)]


def weighted(rng: random.Random, items: list[int], weight: Callable[[int], float]) -> int:
    return rng.choices(items, [weight(item) for item in items])[0]


# -- setup and Phase 1 ---------------------------------------------------------------------------


def placing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Setup: an empty zone, next to its own ones mostly; leftovers and Phase 1: the operational
    robots (all, or some) on a front zone, its biggest ones most likely."""
    seat = state.current
    if state.phase == "setup":
        zones = [state.place(z) for z in choices(spec, "zone")]
        near = {n for p in controlled(state, seat) for n in neighbours(state, p)}
        where = weighted(rng, zones, lambda p: 1 + 6 * (p in near))
        yield 1.0, seat, Placed(zone=state.places[where])
        return
    front = fronts(state, seat) or controlled(state, seat)
    prey = weakest(state, seat)

    def worth(place: int) -> float:
        facing = any(state.zones[p].owner == prey for p in neighbours(state, place))
        return state.zones[place].pieces ** 2 * (4.0 if facing else 1.0)

    where = weighted(rng, front, worth)
    if state.phase == "leftover":
        yield 1.0, seat, Placed(zone=state.places[where])
        return
    left = to_place(state)
    count = left if rng.random() < 0.6 else rng.randint(1, left)
    yield 10.0, seat, Placed(zone=state.places[where], count=count)


def reviving(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """The scrapped leader back on the biggest front zone, in either form."""
    seat = state.current
    front = fronts(state, seat) or controlled(state, seat)
    where = max(front, key=lambda p: state.zones[p].pieces)
    yield 50.0, seat, Revived(zone=state.places[where], form=rng.choice(data.FORMS))


def playing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Bonus cards in Phase 1 always; a dice card before an attack with the edge (or in the
    attack, either side's); a card for the table now and then."""
    seat = seat_of(state, spec.actors[0])
    cards = choices(spec, "card")
    for card in cards:
        found = state.board.card(card)
        if found.timing == "phase-1":
            yield 30.0, seat, Played(card=card)
        elif "dice+" in found.effect and (state.attack is not None or best_edge(state, seat) > 0):
            yield 4.0, seat, Played(card=card)
        elif found.effect == "table":
            yield (0.05 if state.attack else 0.3) / len(cards), seat, Played(card=card, note=NOTE)


# -- Phase 2 -------------------------------------------------------------------------------------


def morphing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    yield 2.0, state.current, Morphed()


def changing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """A special zone of a sector where it holds a zone, to a position it may turn to (a
    factory opened while the scrapheap has a robot, closed when open)."""
    seat = state.current
    cards = choices(spec, "card")
    mine = {state.places[p] for p in controlled(state, seat)}
    for zone in (*state.board.spinning, *state.board.sliding):
        if not mine.intersection(sector_places(state, state.board.sector_of(zone))):
            continue
        if zone in state.board.spinning:
            to = rng.choice(turns(state, zone))
        else:
            to = "closed" if state.board.factories[zone] in state.open_factories else "open"
        yield 1.5, seat, Changed(card=rng.choice(cards), zone=zone, to=to)


def ending(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """``end`` the phase: weighed against what else the phase offers."""
    weight = {"morph": 5.0, "attack": 1.0, "back-up": 1.5}.get(state.phase, 1.0)
    if state.attack is not None:
        weight = 0.2
    yield weight, state.current, Ended(turn=rng.random() < 0.05)


# -- Phase 3 -------------------------------------------------------------------------------------


def edge(state: State, source: int, target: int) -> int:
    """How many more pieces can attack from ``source`` than defend ``target``."""
    return min(data.ATTACK_MAX.value, state.zones[source].pieces - 1) - min(
        data.DEFEND_MAX.value, state.zones[target].pieces) + (
        state.zones[source].pieces - 1 - state.zones[target].pieces) // 3


def best_edge(state: State, seat: int) -> int:
    """The best edge of any attack ``seat`` could make now (-9: none)."""
    return max((edge(state, source, target) for source in controlled(state, seat)
                if state.zones[source].pieces >= 2
                for target in enemy_near(state, seat, source)), default=-9)


def force_from(zone: Zone, rng: random.Random, most: int, *, behind: int = 1,
               leader_odds: float = 0.5) -> Force:
    """Up to ``most`` pieces of ``zone`` with ``behind`` left behind, its leader among them
    with ``leader_odds``."""
    count = min(most, zone.pieces - behind)
    leader = zone.leader and (rng.random() < leader_odds or zone.robots + zone.vehicles < count)
    robots = min(zone.robots, count - leader)
    vehicles = min(zone.vehicles, count - leader - robots)
    return Force(robots=robots, vehicles=vehicles, leader=leader)


def attacking(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Attacks where its pieces outnumber the target's, the bigger the edge the likelier;
    Megatron in vehicle form alone at a lone enemy piece anywhere."""
    seat = state.current
    prey = weakest(state, seat)
    for source in controlled(state, seat):
        zone = state.zones[source]
        if zone.pieces < data.ATTACK_FROM.value:
            continue
        for target in enemy_near(state, seat, source):
            gain = edge(state, source, target)
            if gain > 0 or (gain == 0 and rng.random() < 0.1):
                force = force_from(zone, rng, data.ATTACK_MAX.value)
                focus = 4.0 if state.zones[target].owner == prey else 1.0
                yield focus * 2.0 ** gain, seat, attack_event(state, source, target, force)
    yield from flights(state, seat, rng)


def weakest(state: State, seat: int) -> int:
    """The enemy with the fewest robot units on the board (the one to finish off)."""
    return min(sorted(enemies(state, seat)), key=lambda foe: robot_units(state, foe))


def flights(state: State, seat: int, rng: random.Random) -> Iterator[Candidate]:
    me = state.seats[seat]
    if me.leader != data.MEGATRON or me.form != data.VEHICLE or me.scrapped:
        return
    home = next(p for p in controlled(state, seat) if state.zones[p].leader)
    lone = [p for p in range(len(state.zones)) if state.zones[p].owner in enemies(state, seat)
            and state.zones[p].pieces == 1]
    if state.zones[home].pieces >= 2 and lone:
        yield 3.0, seat, attack_event(state, home, rng.choice(lone), Force(leader=True))


def attack_event(state: State, source: int, target: int, force: Force) -> Attacked:
    return Attacked(from_=state.places[source], target=state.places[target],
                    robots=force.robots, vehicles=force.vehicles, leader=force.leader)


def fight_of(state: State) -> Fight:
    fight = state.attack
    assert fight is not None
    return fight


def defending(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """The most defenders it may (its leader among them mostly), then fewer: the rules refuse
    two when Barricade's police car attacks."""
    fight = fight_of(state)
    zone = state.zones[fight.target]
    for weight, most in ((10.0, data.DEFEND_MAX.value), (1.0, 1)):
        force = force_from(zone, rng, most, behind=0, leader_odds=0.7)
        yield weight, fight.defender, Defended(robots=force.robots, vehicles=force.vehicles,
                                               leader=force.leader)


def rolling(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    yield 1.0, fight_of(state).attacker, Rolled()


def plus_ones(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """A robot-form leader's +1 on the die where it costs the other side most."""
    fight = fight_of(state)
    for index, side in enumerate((ATTACKER, DEFENDER)):
        if not has_plus(state, fight, side) or fight.pluses[index] is not None:
            continue
        rolled = (fight.attacker_dice, fight.defender_dice)[index]

        def mine_lost(at: int, index: int = index) -> int:
            return outcome(state, put_plus(fight, index, at))[index]

        best = min(range(len(rolled)), key=mine_lost)
        seat = (fight.attacker, fight.defender)[index]
        yield 5.0, seat, PlusOne(face=dice.faces(rolled)[best])


def losing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """One casualty at a time, robots before vehicles, the leader when he is the last (and
    Bumblebee escaping to one of his zones next door)."""
    fight = fight_of(state)
    for index in (1, 0):
        if not fight.losses[index]:
            continue
        kinds = eligible(state, fight, index)
        seat, place = ((fight.attacker, fight.source) if index == 0
                       else (fight.defender, fight.target))
        escape = ""
        if kinds == ("leader",) and choice_needed(state, fight, index):
            escape = state.places[rng.choice(ways_out(state, seat, place) or [place])]
        yield 1.0, seat, Lost(pieces=(kinds[0],), escape=escape)


def continuing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Attack again while the edge holds."""
    fight = fight_of(state)
    gain = edge(state, fight.source, fight.target)
    if fight.attacking == Force(leader=True):
        yield 2.0, fight.attacker, Continued(leader=True)
    elif gain >= 0:
        force = force_from(state.zones[fight.source], rng, data.ATTACK_MAX.value)
        yield 3.0 * 2.0 ** gain, fight.attacker, Continued(
            robots=force.robots, vehicles=force.vehicles, leader=force.leader)


def stopping(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    yield 1.0, fight_of(state).attacker, Stopped()


def moving_in(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """After a capture, the source's spare robots follow when the captured zone is nearer the
    enemy (none otherwise: ``move-in`` with nothing ends the attack)."""
    fight = fight_of(state)
    source = state.zones[fight.source]
    spare = min(source.robots, source.pieces - 1)
    ahead = len(enemy_near(state, fight.attacker, fight.target)) >= len(
        enemy_near(state, fight.attacker, fight.source))
    robots = rng.randint(spare // 2, spare) if ahead and spare else 0
    yield 5.0, fight.attacker, MovedIn(robots=robots)


# -- Phases 4 and 5 ------------------------------------------------------------------------------


def backing_up(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """From its biggest inner zone (or any with spare pieces) to a connected front zone, all
    but one piece (the leader along now and then)."""
    seat = state.current
    spare = [p for p in controlled(state, seat) if state.zones[p].pieces >= 2]
    if not spare:
        return
    inner = [p for p in spare if not enemy_near(state, seat, p)] or spare
    source = max(inner, key=lambda p: (state.zones[p].pieces, -p))
    reach = [p for p in connected(state, seat, source)
             if p != source and state.zones[p].owner == seat]
    targets = [p for p in reach if enemy_near(state, seat, p)] or reach
    if not targets:
        return
    zone = state.zones[source]
    leader = zone.leader and rng.random() < 0.3
    robots = min(zone.robots, zone.pieces - 1 - leader)
    vehicles = min(zone.vehicles, zone.pieces - 1 - leader - robots)
    cards = next((f.choices for f in spec.fields if f.name == "card" and f.choices), ())
    yield 0.5 if cards else 4.0, seat, BackedUp(
        from_=state.places[source], to=state.places[rng.choice(targets)], robots=robots,
        vehicles=vehicles, leader=leader, card=rng.choice(cards) if cards else "")


def gifting(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Now and then a lone-robot zone next to its teammate's, while it holds a few zones."""
    seat = state.current
    mates = set(teammates(state, seat))
    mine = controlled(state, seat)
    lone = [p for p in mine if state.zones[p].pieces == 1 and not state.zones[p].leader
            and any(state.zones[n].owner in mates for n in neighbours(state, p))]
    if len(mine) > 3 and lone:
        yield 0.4, seat, Gifted(zone=state.places[rng.choice(lone)])


def jumping(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Optimus Prime to the front zone with the most enemies next door."""
    seat = state.current
    front = fronts(state, seat)
    if front:
        where = max(front, key=lambda p: (len(enemy_near(state, seat, p)), -p))
        yield 3.0, seat, Jumped(to=state.places[where])


def exchanging(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """Now and then, on its turn, 3 robots of a big zone for a vehicle, or a vehicle back for
    3 robots on a front zone (more dice to attack with)."""
    seat = state.current
    if state.name(seat) not in spec.actors:
        return
    mine = [place for place in choices(spec, "zone") if state.at(place).owner == seat]
    for place in mine:
        if state.at(place).vehicles and enemy_near(state, seat, state.place(place)):
            yield 1.0, seat, Exchanged(zone=place, to="robots")
    big = [place for place in mine if state.at(place).robots > data.VEHICLE_WORTH.value]
    if big:
        yield 0.05, seat, Exchanged(zone=rng.choice(big), to="vehicle")


def drawing(state: State, spec: ActionSpec, rng: random.Random) -> Iterator[Candidate]:
    """The card owed: named (one of the draw pile's), face down one time in ten."""
    cards = choices(spec, "card")
    card = "" if rng.random() < 0.1 or not cards else rng.choice(cards)
    yield 1.0, state.current, Drew(card=card)


PROPOSERS: dict[str, Proposer] = {
    "place": placing, "revive": reviving, "play": playing, "morph": morphing,
    "change": changing, "end": ending, "attack": attacking, "defend": defending,
    "roll": rolling, "plus-one": plus_ones, "lose": losing, "continue": continuing,
    "stop": stopping, "move-in": moving_in, "back-up": backing_up, "gift": gifting,
    "jump": jumping, "draw": drawing, "exchange": exchanging,
}
"""The bot's candidates for each action type ``legal_actions`` may offer."""
