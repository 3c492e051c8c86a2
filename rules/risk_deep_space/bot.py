"""A random legal player: deterministic for a seed, biased toward mining, building and winning
battles so games end.

It proposes weighted candidate actions (battle cards of the defender included) and returns the
first, in a weighted random order, that the rules accept.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from msgspec.structs import replace

from tabletape.ledger.events import TABLE, Event
from tabletape.rules.bots import Candidate, first_legal
from tabletape.rules.risk_deep_space import data
from tabletape.rules.risk_deep_space.actions import buildable, playable_in_battle, shield_choices
from tabletape.rules.risk_deep_space.events import (
    Battled,
    Built,
    Covered,
    Dealt,
    Drew,
    Ended,
    Mined,
    Moved,
    Passed,
    Played,
    Recruited,
    RolledOff,
    SentDog,
    Shielded,
    TradedCards,
)
from tabletape.rules.risk_deep_space.moves import (
    DRAW,
    MINE,
    RECRUIT,
    START,
    bribe_targets,
    cards_left,
    corner_pairs,
    held,
    homes_in_use,
    may_activate,
    mineable,
    move_targets,
    reshuffle_if_empty,
    step,
)
from tabletape.rules.risk_deep_space.state import CARDS, State, dogs_at, mine_at
from tabletape.rules.seats import NOBODY


def choose(state: State, rng: random.Random) -> tuple[str, Event] | None:
    """A legal ``(actor, event)``, or None when the game is over."""
    if state.phase == "over":
        return None
    if state.phase != "turn":
        return TABLE, setup_event(state, rng)
    def attempt(seat: int, event: Event) -> Event:
        step(state, seat, trial(event))
        return event

    chosen = first_legal(list(propose(state, rng)), rng, attempt)
    return None if chosen is None else (state.name(chosen[0]), chosen[1])


def trial(event: Event) -> Event:
    """The event as the rules will see it once tabletape has rolled its empty dice."""
    if isinstance(event, Battled) and not (event.attacker and event.defender):
        return Battled(attacker=event.attacker or 1, defender=event.defender or 1)
    return event


def random_cards(state: State, rng: random.Random, count: int) -> tuple[str, ...]:
    """``count`` cards as they might come off the deck (reshuffling the discards when empty)."""
    drawn = []
    for _ in range(count):
        state = reshuffle_if_empty(state)
        if not sum(state.deck):
            break
        k = rng.choices(range(len(CARDS)), state.deck)[0]
        deck = list(state.deck)
        deck[k] -= 1
        state = replace(state, deck=tuple(deck))
        drawn.append(CARDS[k])
    return tuple(drawn)


def setup_event(state: State, rng: random.Random) -> Event:
    if state.phase == "deal":
        player = next(s.name for s in state.seats if not s.hand)
        return Dealt(player=player, cards=random_cards(state, rng, data.START_CARDS.value))
    if state.phase == "cover":
        return Covered(planets=tuple(rng.choice(corner_pairs(state))))
    return RolledOff()


def propose(state: State, rng: random.Random) -> Iterator[Candidate]:
    yield from activations(state)
    yield from dog_sendings(state, rng)
    if state.battle is not None:
        yield from battle_moves(state, rng)
        return
    seat = state.current
    me = state.seats[seat]
    if state.stage == DRAW:
        need = min(data.HAND.value - len(me.hand), cards_left(state))
        yield 1.0, seat, Drew(cards=random_cards(state, rng, need))
        return
    if state.stage == START and rng.random() < 0.1:
        yield 50.0, seat, TradedCards()
    if state.stage <= MINE:
        for planet in mineable(state, seat):
            resource = "ore" if me.ore < 3 or me.gems > 3 else "gem"
            yield 100.0, seat, Mined(planet=planet, resource=resource)
    if state.stage <= RECRUIT and me.gems > 1:
        yield 40.0, seat, Recruited(count=me.gems - 1)
    for site in buildable(state, seat):  # space numbers; mineable() gives names
        yield 200.0, seat, Built(planet=state.space(site))
    yield from card_moves(state, rng)
    yield from shield_moves(state)
    if state.moves_left:
        yield from movements(state, rng)
    yield 1.0, seat, Ended()


def activations(state: State) -> Iterator[Candidate]:
    """Every Space Dog, Paw! that may be activated, onto its player's largest Crew."""
    for seat in dict.fromkeys(state.paws):
        if may_activate(state, seat):
            best = max(held(state, seat), key=lambda p: state.recruits[p])
            yield 1000.0, seat, Played(card=data.DOG_PAW, planet=state.space(best))


def dog_sendings(state: State, rng: random.Random) -> Iterator[Candidate]:
    """Now and then a Space Dog whose Crew was wiped out goes to a Crew of its owner's choice."""
    for dog in state.dogs:
        if dog.stray:
            crew = rng.choice(held(state, dog.owner))
            yield 2.0, dog.owner, SentDog(to=state.space(crew))


def battle_moves(state: State, rng: random.Random) -> Iterator[Candidate]:
    fight = state.battle
    assert fight is not None
    yield 10.0, fight.attacker, Battled()
    yield 6.0, fight.defender, Passed()
    for seat in (fight.attacker, fight.defender):
        for card in dict.fromkeys(state.seats[seat].hand):
            if playable_in_battle(state, seat, card):
                yield 4.0, seat, Played(card=card)


def card_moves(state: State, rng: random.Random) -> Iterator[Candidate]:
    seat = state.current
    hand = state.seats[seat].hand
    if data.BRIBE in hand and state.seats[seat].gems:
        for planet in bribe_targets(state, seat):
            yield 3.0, seat, Played(card=data.BRIBE, planet=state.space(planet))
    if data.MAIL in hand:
        pile = reshuffle_if_empty(state).deck
        takes = [c for c, n in zip(CARDS, pile, strict=True) if n]
        yield 3.0, seat, Played(card=data.MAIL, take=rng.choice(takes) if takes else "")
    if data.ENERGY_BOOST in hand and state.moves_left:
        yield 1.0, seat, Played(card=data.ENERGY_BOOST)


def shield_moves(state: State) -> Iterator[Candidate]:
    """Sometimes a Force Field (``force-fields=shield``) on a planet with a Base or the most
    Recruits, when a Gem is to spare."""
    seat = state.current
    choices = shield_choices(state, seat)
    if not choices or state.seats[seat].gems < 2:
        return
    best = max(choices, key=lambda p: (seat in state.bases[p], state.recruits[p], -p))
    yield 4.0, seat, Shielded(planet=state.space(best))


def movements(state: State, rng: random.Random) -> Iterator[Candidate]:
    """Crews out of the Home Station to free planets, attacks with the larger Crew."""
    seat = state.current
    homes = homes_in_use(state)
    for source in held(state, seat):
        here = mine_at(state, seat, source)
        keep = 0 if source in homes else min(here - 1, 3 if seat in state.bases[source] else 2)
        crew = here - keep if source in homes else max(here - keep, 0)
        if crew <= 0:
            continue
        dog = bool(dogs_at(state, source, seat)) and rng.random() < 0.5
        for target, toll in move_targets(state, seat, source).items():
            if toll > state.seats[seat].gems:
                continue
            holder = state.holders[target]
            weight = 5.0 if toll else 10.0
            if holder == NOBODY:
                weight *= 3.0 if not state.bases[target] else 1.0
            elif holder == seat:
                weight *= 0.5
            elif crew > state.recruits[target]:
                weight *= 4.0
            else:
                continue
            yield weight, seat, Moved(from_=state.space(source), to=state.space(target),
                                      count=crew, dog=dog)
