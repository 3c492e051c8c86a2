"""A random legal player: deterministic for a seed. It plays random hero turns, and carries out
villain turns from the shuffled shipped Masterplan deck (its placeholder faces recorded as its
cards) with the dashboard's effects as the research page reads
them (damage to the heroes at the villain's location, Fear, Thugs, Crisis tokens).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tabletape.ledger.events import TABLE, Event
from tabletape.rules.bots import Candidate, first_legal
from tabletape.rules.marvel_united.actions import can_spend, heroic_targets, spendable_slots
from tabletape.rules.marvel_united.events import (
    Attacked,
    Damaged,
    Dealt,
    Done,
    Drew,
    Ended,
    Gained,
    Heroic,
    LocationEffect,
    Moved,
    Played,
    Plot,
    Relocated,
    Rescued,
    SetUp,
    Special,
    Spent,
    Tokens,
    VillainTurn,
)
from tabletape.rules.marvel_united.moves import attack_targets, complete_villain, step
from tabletape.rules.marvel_united.state import (
    ATTACK,
    HEROIC,
    MOVE,
    NOBODY,
    SYMBOL_NAMES,
    State,
    Step,
    around,
    kinds,
    threat_here,
)
from tabletape.rules.marvel_united.windows import owed


def choose(state: State, rng: random.Random) -> tuple[str, Event] | None:
    """A legal ``(actor, event)``, or None when the game is over."""
    if state.outcome:
        return None
    def attempt(seat: int, event: Event) -> Event:
        event = completed(state, actor_of(state, seat), event, rng)
        step(state, seat, event)
        return event

    chosen = first_legal(list(propose(state, rng)), rng, attempt)
    return None if chosen is None else (actor_of(state, chosen[0]), chosen[1])


def actor_of(state: State, seat: int) -> str:
    return TABLE if seat == NOBODY else state.name(seat)


def completed(state: State, actor: str, event: Event, rng: random.Random) -> Event:
    """The bot shuffles and draws with its own generator, as a table would; its Masterplan
    deck is the shipped one (placeholder faces, I), which it records card by card."""
    from tabletape.rules.marvel_united import RULES

    if isinstance(event, VillainTurn):
        return complete_villain(state, event, rng)
    return RULES.complete(state, actor, event, rng)


def propose(state: State, rng: random.Random) -> Iterator[Candidate]:
    if state.pending:
        yield from window(state, rng, state.pending[0])
    elif state.phase == "setup":
        yield 1.0, NOBODY, SetUp()
    elif state.phase == "deal":
        waiting = next(h.player for h in state.heroes if not h.dealt)
        yield 1.0, NOBODY, Dealt(player=waiting)
    elif state.phase == "villain":
        yield 1.0, NOBODY, VillainTurn()
    elif state.turn is None:
        yield 1.0, rng.randrange(len(state.heroes)), Drew()
    elif state.phase == "draw":
        yield 1.0, state.turn.seat, Drew()
    elif state.phase == "play":
        hero = state.heroes[state.turn.seat]
        held = [kinds(hero.hero)[k] for k, n in enumerate(hero.hand) for _ in range(n)]
        yield 1.0, state.turn.seat, Played(card=rng.choice(held))
    else:
        yield from act(state, rng, state.turn.seat)


def act(state: State, rng: random.Random, seat: int) -> Iterator[Candidate]:
    turn = state.turn
    assert turn is not None
    if turn.location_used:
        yield 1.0, seat, Ended()
        return
    here = state.heroes[seat].location
    if can_spend(state, ATTACK):
        for target in attack_targets(state, here):
            yield (9.0 if target == "villain" else 4.0), seat, Attacked(target=target)
    if can_spend(state, HEROIC):
        if state.places[here].civilians:
            yield 4.0, seat, Rescued()
        for target in heroic_targets(state, here):
            yield 4.0, seat, Heroic(target=target)
    for symbol in spendable_slots(state, here):
        yield 4.0, seat, Spent(symbol=symbol)
    if can_spend(state, MOVE):
        yield 2.0, seat, Moved(to=state.places[destination(state, rng, here)].name)
    if turn.special:
        yield 1.0, seat, Special()
    if not turn.location_used and threat_here(state, here) is None:
        yield 0.5, seat, LocationEffect()
    left = sum(turn.symbols)
    yield (0.3 if left else 5.0), seat, Ended()


def destination(state: State, rng: random.Random, here: int) -> int:
    """A neighbour: toward the villain once he can be hurt, else where most tokens wait."""
    near = [i for i in around(state, here) if i != here]
    if state.damageable:
        ring = len(state.places)
        return min(near, key=lambda i: (min((i - state.villain_at) % ring,
                                            (state.villain_at - i) % ring), rng.random()))
    return max(near, key=lambda i: (state.places[i].thugs + state.places[i].civilians
                                    + rng.random() * 3))


def window(state: State, rng: random.Random, head: Step) -> Iterator[Candidate]:
    if head.kind == "mission-draw":
        yield 1.0, head.hero, Drew()
        return
    if head.kind in ("hero-special", "location"):
        yield from hero_window(state, rng, head)
        return
    due = owed_result(state, head)
    yield (10.0, NOBODY, due) if due is not None else (1.0, NOBODY, Done())


def owed_result(state: State, head: Step) -> Event | None:
    """The first result the effect still owes, as the data says it (None: nothing)."""
    for key, amount in owed(state, head).items():
        what, _, where = key.partition(":")
        if what == "damage":
            return damage(state, int(where), amount)
        if what == "fear":
            return Plot(amount=amount)
        place = state.places[int(where)]
        kind = what[:-1]
        if kind != "crisis":
            amount = min(amount, place.free)
        return Tokens(location=place.name, thugs=amount if kind == "thugs" else 0,
                      civilians=amount if kind == "civilians" else 0,
                      crisis=amount if kind == "crisis" else 0)
    return None


def damage(state: State, seat: int, amount: int) -> Event:
    hero = state.heroes[seat]
    held = [kinds(hero.hero)[k] for k, n in enumerate(hero.hand) for _ in range(n)]
    return Damaged(hero=hero.player, cards=tuple(held[:amount]))


def hero_window(state: State, rng: random.Random, head: Step) -> Iterator[Candidate]:
    seat = head.hero
    if head.results == 0 and head.kind == "hero-special":
        yield 3.0, seat, Gained(hero=state.name(seat), tokens=(rng.choice(SYMBOL_NAMES),))
    here = state.places[state.heroes[seat].location].name
    if head.results == 0 and head.kind == "location" and here == "shield-helicarrier":
        far = rng.choice([p.name for p in state.places if p.name != here])
        yield 3.0, seat, Relocated(hero=state.name(seat), to=far)
    yield 1.0, seat, Done()
